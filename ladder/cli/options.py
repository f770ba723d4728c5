"""Options shared by several commands (typer `Annotated` aliases) and their parsing."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from engine.core.errors import OptionError
from engine.registry import game_names, load_game

if TYPE_CHECKING:
    from ladder.store import Store

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
JsonOpt = Annotated[bool, typer.Option("--json", help="print one JSON object instead of text")]


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


def make_game(name: str, players: int | None, pairs: list[str] | None):
    """load_game from command-line values; errors become a clean exit with the message."""
    options = parse_game_options(pairs)
    if players is not None:
        options["players"] = players
    return load_game(name, **options)


def fail(message: str) -> typer.Exit:
    """Print an error the way every command does and return the exit to raise."""
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
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


def open_store(db: Path | None, create: bool = False) -> "Store":
    """The store at `db` (or the default one); problems become a clean exit with the message.
    Read-only commands pass create=False so that a mistyped path is not silently created."""
    from ladder.store import Store, StoreError

    try:
        return Store(db, create=create)
    except StoreError as e:
        raise fail(str(e))
