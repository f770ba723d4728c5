"""`tianti games`: the games tianti knows and their options."""
from __future__ import annotations

import json

import typer

from engine.registry import game_class, game_names
from ladder.cli.options import Format, FormatOpt, JsonOpt, output_format, write_csv
from ladder.cli.screen import echo_fit, hang, words


def games(fmt: FormatOpt = None, json_out: JsonOpt = False) -> None:
    """List the games and every option each one takes."""
    out_fmt = output_format(fmt, json_out)
    listing = []
    for name in game_names():
        cls = game_class(name)
        listing.append({"name": name, "title": cls.TITLE, "options": cls.describe_options()})
    if out_fmt is Format.json:
        typer.echo(json.dumps(listing))
        return
    if out_fmt is Format.csv:
        write_csv(["game", "option", "default", "choices", "help"],
                  [[g["name"], o["name"], o["default"], " ".join(map(str, o["choices"] or ())),
                    o["help"]] for g in listing for o in g["options"]])
        return
    for g in listing:
        echo_fit(f"{g['name']}: {g['title']}", bold=True)
        for o in g["options"]:
            choices = f" (one of {', '.join(map(str, o['choices']))})" if o["choices"] else ""
            for line in hang(f"  {o['name']} (default {o['default']!r}):",
                             words(f" {o['help']}{choices}"), indent=6):
                typer.echo(line)
