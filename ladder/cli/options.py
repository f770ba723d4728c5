"""Options shared by several commands (typer `Annotated` aliases) and their parsing."""
from __future__ import annotations

import csv
import io
import math
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from engine.core.errors import OptionError
from engine.registry import game_names, load_game
from ladder.cli.errorline import fit_error

if TYPE_CHECKING:
    from ladder.table.narrate import Line
    from ladder.tournament.store import Store

GameArg = Annotated[str, typer.Argument(help=f"the game: {', '.join(game_names())}")]
GameOpt = Annotated[str, typer.Option("--game", "-g", help="the game: dragon or mount-tai")]
PlayersOpt = Annotated[
    Optional[int], typer.Option("--players", "-p", help="number of players (default: the game's)")
]
GameOptionsOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--option", "-o",
        help="a game option as KEY=VALUE, repeatable (e.g. -o great_wall=true); "
        "`tianti games` lists them",
    ),
]
SeedOpt = Annotated[Optional[int], typer.Option("--seed", help="seed for chance (default: random)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="the same as --format json")]
ThinkOpt = Annotated[
    Optional[float],
    typer.Option("--think", help="seconds a move on average for the AI opponents: the strong "
                 "bot's time manager spends a bank for the game (forced moves at once, clear "
                 "ones fast, close ones longer); default: a fixed second a move"),
]


def check_think(seconds: float | None) -> float | None:
    """--think's value, or the one-line error (exit 2) for one that is not a positive finite
    number of seconds (at most a day)."""
    if seconds is not None and not (math.isfinite(seconds) and 0 < seconds <= 86_400):
        raise fail(f"--think must be a number of seconds above 0 (at most 86400), got {seconds:g}")
    return seconds


class Format(str, Enum):
    """The one machine-output convention: every command that prints data takes --format."""

    table = "table"
    csv = "csv"
    json = "json"


FormatOpt = Annotated[
    Optional[Format],
    typer.Option("--format", help="table (for people), csv or json (default: table)"),
]


def output_format(fmt: Format | None, json_out: bool) -> Format:
    """The format chosen by --format and its alias --json (which must not contradict it)."""
    if json_out:
        if fmt not in (None, Format.json):
            raise fail(f"--json contradicts --format {fmt.value}: give one of them")
        return Format.json
    return fmt or Format.table


def write_csv(header: list[str], rows: list[list[Any]]) -> None:
    """Print a CSV table (header first) on standard output."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    typer.echo(buf.getvalue(), nl=False)


def parse_value(text: str) -> Any:
    """A command-line option value as bool, int, None or str."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    try:
        return int(low)
    except ValueError:
        return text.strip()


def parse_game_options(pairs: list[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"game option {pair!r} is not KEY=VALUE")
        options[key.strip().replace("-", "_")] = parse_value(value)
    return options


def merge_players(options: dict[str, Any], players: int | None) -> dict[str, Any]:
    """Put --players into the game options; an `-o players=N` saying otherwise is an error."""
    if players is not None:
        given = options.get("players")
        if given is not None and given != players:
            raise OptionError(f"-o players={given} contradicts --players {players}: give one of them")
        options["players"] = players
    return options


def make_game(name: str, players: int | None, pairs: list[str] | None):
    """load_game from command-line values (the caller turns its TiantiError into a clean exit)."""
    return load_game(name, **merge_players(parse_game_options(pairs), players))


def fail(message: str) -> typer.Exit:
    """Print an error the way every command does (one line, fitted to 80 columns) and return
    the exit to raise."""
    typer.secho(f"error: {fit_error(message)}", fg=typer.colors.RED, err=True)
    return typer.Exit(code=2)


# -- the tournament store ------------------------------------------------------------------------

DbOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--db", envvar="TIANTI_DB",
        help="the tournament store, an SQLite file (default: tianti.db in the user's tianti "
        "directory; the TIANTI_DB environment variable overrides the default)",
    ),
]


def open_store(db: Path | None, create: bool = False, write: bool | None = None) -> "Store":
    """The store at `db` (or the default one); problems become a clean exit with the message.

    Reading commands pass create=False (a mistyped path is not silently created) and get a
    store opened for reading (read-only files work, nothing is written but the ratings cache
    when it can be); commands that add games open it for writing (checked first)."""
    from ladder.tournament.store import Store, StoreError

    try:
        return Store(db, create=create, write=create if write is None else write)
    except StoreError as e:
        raise fail(str(e))


def echo_narration(lines: list[Line]) -> None:
    """Print narration lines (ladder/table/narrate.py) at 80 columns, headers in bold."""
    from engine.core.text import WIDTH
    from ladder.table.narrate import HEADER, render

    for line in lines:
        for text in render([line], WIDTH):
            if line.kind == HEADER and text:
                typer.secho(text, bold=True)
            else:
                typer.echo(text)
