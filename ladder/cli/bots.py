"""`tianti bots`: the bots a spec can name, with their options."""
from __future__ import annotations

import json

import typer

from ai.bots import describe_bots
from ladder.cli.options import Format, FormatOpt, JsonOpt, output_format, write_csv
from ladder.cli.screen import echo_fit, hang, spec_pieces, words


def bots(fmt: FormatOpt = None, json_out: JsonOpt = False) -> None:
    """List the bots a spec can name and every option each one takes.

    A spec is NAME or NAME(key=value,...), python:module:factory(key=value,...) for your
    own bot (out of process; inproc:python:... inside the referee's), or exec:COMMAND ARGS
    for a program speaking the bot protocol (docs/PROTOCOL.md)."""
    out_fmt = output_format(fmt, json_out)
    listing = describe_bots()
    if out_fmt is Format.json:
        typer.echo(json.dumps(listing, default=str))
        return
    if out_fmt is Format.csv:
        write_csv(["bot", "option", "type", "default", "help"],
                  [[b["name"], k, o["type"], o["default"], o["help"]]
                   for b in listing for k, o in b["options"].items()])
        return
    for b in listing:
        echo_fit(f"{b['name']}: {b['help']}", bold=True)
        for key, o in b["options"].items():
            for line in hang(f"  {key} ({o['type']}, default {o['default']!r}):",
                             words(" " + o["help"]), indent=6):
                typer.echo(line)
    typer.echo("")
    echo_fit("python:MODULE:FACTORY(key=value,...): your own bot, made by calling "
             "MODULE.FACTORY(key='value', ...); it needs a step(view) -> action method "
             "(restart() and inform_action(view, player, action) are optional; a view is "
             "a determinization of the bot's own seat, never the game itself). It plays "
             "from a sandboxed process of its own; inproc:python:... runs it inside the "
             "referee's process (for a bot you trust).")
    echo_fit("exec:COMMAND ARGS: any program speaking the bot protocol on stdin/stdout "
             "(docs/PROTOCOL.md), in a sandboxed process; `tianti bot SPEC` serves "
             "tianti's own bots that way.")
    _print_levels()


def _print_levels() -> None:
    """The difficulty levels of `tianti play --level N`, per game, with their bot specs."""
    from ai.levels import describe_levels

    typer.echo("")
    typer.secho("Difficulty levels (tianti play --level N; measured in docs/LEVELS.md):", bold=True)
    game = None
    for lv in describe_levels():
        if lv["game"] != game:
            game = lv["game"]
            typer.echo(f"  {game}:")
        echo_fit(f"    level {lv['level']} ({lv['name']}): {lv['help']}")
        for line in hang("      ", spec_pieces(str(lv["spec"])), indent=6):
            typer.echo(line)
