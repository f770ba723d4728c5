"""`tianti bots`: the bots a spec can name, with their options."""
from __future__ import annotations

import json

import typer

from ai.bots import describe_bots
from ladder.cli.options import JsonOpt


def bots(json_out: JsonOpt = False) -> None:
    """List the bots a spec can name and every option each one takes.

    A spec is NAME or NAME(key=value,...), or python:module:factory(key=value,...) for your
    own bot."""
    listing = describe_bots()
    if json_out:
        typer.echo(json.dumps(listing, default=str))
        return
    for b in listing:
        typer.secho(f"{b['name']}: {b['help']}", bold=True)
        for key, o in b["options"].items():
            typer.echo(f"  {key} ({o['type']}, default {o['default']!r}): {o['help']}")
    typer.echo("")
    typer.echo("python:MODULE:FACTORY(key=value,...): your own bot, made by calling "
               "MODULE.FACTORY(key='value', ...); it needs a step(view) -> action method "
               "(restart() and inform_action(view, player, action) are optional; a view is "
               "a determinization of the bot's own seat, never the game itself).")
