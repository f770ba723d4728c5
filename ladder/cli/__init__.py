"""The `tianti` command line: a thin layer over the library (engine, ai, ladder)."""
from __future__ import annotations

import typer

from ladder.cli import bench, bots, games, play, ratings, replay, rules, tournament, watch

app = typer.Typer(
    name="tianti",
    help="tianti: play In the Year of the Dragon and Mount Tai against strong AI, run bot "
    "tournaments with TrueSkill ratings, and benchmark the engines.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("play")(play.play)
app.command("rules")(rules.rules)
app.add_typer(bench.app, name="bench")
app.command("watch")(watch.watch)
app.command("games")(games.games)
app.add_typer(tournament.app, name="tournament")
app.add_typer(ratings.app, name="ladder")
app.command("replay")(replay.replay)
app.command("bots")(bots.bots)


def main() -> None:
    app()
