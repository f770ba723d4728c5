"""The `tianti` command line: a thin layer over the library (engine, ai, ladder).

Conventions every command follows: `-h`/`--help`; `--format table|csv|json` on each command
that prints data (`--json` is its alias); `-o` is always `--option KEY=VALUE`; errors are one
line on stderr with exit code 2; colour only on a terminal and never with NO_COLOR set; progress
bars only on a terminal. `tianti --version` prints the version; `--install-completion` installs
shell completion.
"""
from __future__ import annotations

import os
import sqlite3
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from engine.core.errors import TiantiError
from ladder.cli import bench, bot, bots, games, play, ratings, replay, rules, tournament, watch


def version() -> str:
    """The installed distribution's version (or the source tree's, when not installed)."""
    try:
        from importlib.metadata import PackageNotFoundError, version as dist_version

        return dist_version("tianti")
    except PackageNotFoundError:
        return "0+unknown"


class GuardedGroup(TyperGroup):
    """The root command: an error tianti raises on purpose, or an SQLite or OS error that a
    command did not turn into its own message, becomes one line on stderr and exit code 2
    instead of a traceback; NO_COLOR turns colour off."""

    def invoke(self, ctx: typer.Context) -> Any:
        if os.environ.get("NO_COLOR"):
            ctx.color = False
        try:
            return super().invoke(ctx)
        # Typer's own exits and usage errors are none of the types below, so they pass through
        # to Typer, which prints them (newer Typer releases carry click inside, so tianti does
        # not import click itself).
        except TiantiError as e:
            _one_line(ctx, str(e))
        except sqlite3.DatabaseError as e:
            _one_line(ctx, f"the store is damaged or unreadable ({e}); `sqlite3 FILE .recover` "
                           f"saves what is left")
        except sqlite3.Error as e:
            _one_line(ctx, f"the store cannot be used: {type(e).__name__}: {e}")
        except OSError as e:
            _one_line(ctx, f"{e.strerror or e}{f': {e.filename}' if e.filename else ''}")
        except OverflowError as e:
            _one_line(ctx, f"a number is out of range: {e}")


def _one_line(ctx: typer.Context, message: str) -> None:
    typer.secho(f"error: {message.splitlines()[0] if message else 'failed'}",
                fg=typer.colors.RED, err=True, color=False if os.environ.get("NO_COLOR") else None)
    raise typer.Exit(code=2)


app = typer.Typer(
    name="tianti",
    cls=GuardedGroup,
    help="tianti: play In the Year of the Dragon and Mount Tai against strong AI, run bot "
    "tournaments with TrueSkill ratings, and benchmark the engines.",
    no_args_is_help=True,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"tianti {version()}")
        raise typer.Exit()


@app.callback()
def root(
    show_version: Annotated[bool, typer.Option(
        "--version", "-V", callback=_print_version, is_eager=True,
        help="print tianti's version and exit")] = False,
) -> None:
    """tianti: play In the Year of the Dragon and Mount Tai against strong AI, run bot
    tournaments with TrueSkill ratings, and benchmark the engines."""


app.command("play")(play.play)
app.command("rules")(rules.rules)
app.add_typer(bench.app, name="bench")
app.command("watch")(watch.watch)
app.command("games")(games.games)
app.add_typer(tournament.app, name="tournament")
app.add_typer(ratings.app, name="ladder")
app.command("replay")(replay.replay)
app.command("bots")(bots.bots)
app.command("bot")(bot.bot)


def main() -> None:
    app()
