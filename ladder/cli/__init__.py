"""The `tianti` command line: a thin layer over the library (engine, ai, ladder).

Conventions every command follows: `-h`/`--help`; `--format table|csv|json` on each command
that prints data (`--json` is its alias); `-o` is always `--option KEY=VALUE`; errors are one
line on stderr with exit code 2; colour only on a terminal and never with NO_COLOR set; progress
bars only on a terminal. `tianti --version` prints the version; `--install-completion` installs
shell completion.
"""
from __future__ import annotations

import difflib
import inspect
import os
import re
import sqlite3
import sys
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from engine.core.errors import TiantiError
from ladder.cli import (bench, bot, bots, games, play, ratings, replay, review, rules,
                        tournament, watch)
from ladder.cli.errorline import fit_error


def version() -> str:
    """The installed distribution's version (or the source tree's, when not installed)."""
    try:
        from importlib.metadata import PackageNotFoundError, version as dist_version

        return dist_version("tianti")
    except PackageNotFoundError:
        return "0+unknown"


# The base class of Typer's (Click's) usage errors, found without importing click (newer
# Typer releases carry their own copy of it).
USAGE_ERROR: type[Exception] = next(
    (c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"), Exception)


class GuardedGroup(TyperGroup):
    """The root command: an error tianti raises on purpose, or an SQLite or OS error that a
    command did not turn into its own message, becomes one line on stderr and exit code 2
    instead of a traceback; so do Typer's own usage errors (an unknown option or command, a
    bad or missing value), with a "did you mean"; NO_COLOR turns colour off."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        _reflow_help(self)
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except USAGE_ERROR as e:
            if type(e).__name__ != "NoArgsIsHelpError":  # that one has printed the help
                typer.secho(f"error: {fit_error(usage_message(e))}", fg=typer.colors.RED, err=True,
                            color=False if os.environ.get("NO_COLOR") else None)
            sys.exit(getattr(e, "exit_code", 2))
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: typer.Context) -> Any:
        if os.environ.get("NO_COLOR"):
            ctx.color = False
        try:
            super().invoke(ctx)
            # A command's return value is not an exit status (main below takes an int it
            # gets back as one: typer.Exit's code).
            return None
        # Typer's own exits and usage errors are none of the types below, so they pass through
        # to `main` above, which prints a usage error as one line (newer Typer releases carry
        # click inside, so tianti does not import click itself).
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


def _reflow_help(command: Any) -> None:
    """Join the lines of each paragraph of every command's help (its docstring), so that
    `--help` wraps them to the terminal instead of breaking where the source does (this Typer
    keeps single line breaks)."""
    for sub in getattr(command, "commands", {}).values():
        if sub.help:
            paragraphs = inspect.cleandoc(sub.help).split("\n\n")
            sub.help = "\n\n".join(" ".join(p.split("\n")) for p in paragraphs)
        _reflow_help(sub)


def usage_message(e: Exception) -> str:
    """A usage error of Typer's as one line: what is wrong, the closest names (difflib) for a
    misspelt option or command, and where the help is."""
    name = getattr(e, "option_name", None)
    possible = getattr(e, "possibilities", None)
    if name and possible is not None:  # an unknown option
        # The closest one only, when close: the line stays within 80 columns (`--help` lists
        # them all).
        close = difflib.get_close_matches(name, list(possible), n=1, cutoff=0.6)
        text = f"no such option {name}" + (f"; did you mean {close[0]}?" if close else "")
    else:
        lines = [line.strip() for line in str(e.format_message()).splitlines() if line.strip()]
        text = " ".join(lines).rstrip(".") or type(e).__name__
        text = text[0].lower() + text[1:]
        m = re.fullmatch(r"(no such command '.*')\. Did you mean (.*)\?", text)
        if m:  # Typer's own suggestions, worded as ours, the closest one only
            text = f"{m.group(1)}; did you mean {m.group(2).split(', ')[0]}?"
        # A bad value: what was wrong, without the validator's repetitions ("Input should be
        # a valid integer, unable to parse string as an integer" says it twice).
        text = re.sub(r"(: )Value error, ", r"\1", text)
        text = re.sub(r", unable to parse string as an? \w+", "", text)
        text = re.sub(r": Input should be ", ": should be ", text)
    ctx = getattr(e, "ctx", None)
    where = f"{ctx.command_path} --help" if ctx is not None else "--help"
    if ctx is not None and os.path.basename(sys.argv[0] if sys.argv else "").startswith("tianti"):
        # As tianti was started (`.venv/bin/tianti` after `make play`: not on the PATH).
        where = " ".join([play.program(), *ctx.command_path.split(" ")[1:], "--help"])
    return f"{text} (try '{where}')"


def _one_line(ctx: typer.Context, message: str) -> None:
    typer.secho(f"error: {fit_error(message)}",
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
app.command("review")(review.review)
app.command("bots")(bots.bots)
app.command("bot")(bot.bot)


def main() -> None:
    app()
