"""Which game a review looks at: the last `tianti play` game, a save or record file, or a game
of the store (a tournament's or a person's), rebuilt from its record (options, seed, actions).
A level's bot is named as the level ("level 3 (search 30)", `ai.levels.bot_label`), not by its
spec.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ai.levels import bot_label
from engine.core.errors import TiantiError
from engine.core.state import RECORD_FORMAT, State
from ladder.review.analysis import ReviewError
from ladder.tournament.store import data_dir

SAVE_FORMAT = "tianti-play"   # ladder/table/play.py's save files
HUMAN = "human"


@dataclass
class Source:
    """A game to review: its true initial state (kept by the review, never searched), the
    decisions played from it, the reviewed seat, who sat where and what it is in words.
    `record` is the game's record (the cache's key)."""

    start: Any
    actions: list[int]
    seat: int
    names: list[str]
    label: str
    record: dict[str, Any]


def _rebuild(record: dict[str, Any], where: str) -> tuple[Any, list[int], dict[str, Any]]:
    """(initial state, every decision, the record as this tianti replays it) of a record."""
    try:
        full = State.from_record(record)
        start = State.from_record(dict(record, actions=[]))
    except TiantiError as e:
        raise ReviewError(f"{where} does not replay: {e}") from None
    except (KeyError, TypeError, ValueError) as e:
        raise ReviewError(f"{where} holds a broken game record ({e})") from None
    return start, full.history(), full.to_record()


def _seat(seat: int | None, default: int | None, players: int, where: str) -> int:
    """The seat asked for (else `default`), checked against the game's seats."""
    if seat is None:
        seat = default
    if seat is None:
        raise ReviewError(f"{where}: give the seat to review with --seat N (0..{players - 1})")
    if not 0 <= seat < players:
        raise ReviewError(f"--seat {seat} is out of range: {where} has {players} seats "
                          f"(0..{players - 1})")
    return seat


def saves_folder() -> Path:
    """Where `tianti play` saves its games (ladder/table/play.py's default_save_path)."""
    return data_dir() / "saves"


def last_save() -> Path:
    """The newest `tianti play` save (by the time it was last written)."""
    folder = saves_folder()
    saves = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime) \
        if folder.is_dir() else []
    if not saves:
        raise ReviewError(f"no `tianti play` game to review in {folder}: play one, or give a "
                          "save file or a stored game (RUN GAME)")
    return saves[-1]


def from_file(path: str | Path, seat: int | None = None) -> Source:
    """A `tianti play` save (the person's seat by default) or a game record file (--seat
    needed)."""
    p = Path(path).expanduser()
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise ReviewError(f"no such file: {p}") from None
    except IsADirectoryError:
        raise ReviewError(f"{p} is a folder, not a saved game") from None
    except (OSError, ValueError) as e:
        raise ReviewError(f"{p} is not a saved tianti game: {e}") from None
    if not isinstance(data, dict):
        raise ReviewError(f"{p} is not a saved tianti game")
    if data.get("format") == SAVE_FORMAT:
        record = data.get("record")
        specs = data.get("specs")
        if not isinstance(record, dict) or not isinstance(specs, list):
            raise ReviewError(f"{p} is a broken save: no game record or no seats")
        start, actions, full = _rebuild(record, str(p))
        human = data.get("seat") if isinstance(data.get("seat"), int) else None
        n = start.num_players()
        chosen = _seat(seat, human, n, str(p))
        names = ["you" if i == human else bot_label(start.game.name, str(s))
                 for i, s in enumerate(specs)]
        return Source(start, actions, chosen, names[:n] + [f"P{i}" for i in range(len(names), n)],
                      f"the game saved in {p}", full)
    if data.get("format") == RECORD_FORMAT:
        start, actions, full = _rebuild(data, str(p))
        n = start.num_players()
        return Source(start, actions, _seat(seat, 0 if n == 1 else None, n, str(p)),
                      [f"P{i}" for i in range(n)], f"the game record {p}", full)
    raise ReviewError(f"{p} is neither a `tianti play` save nor a game record")


def from_store(store: Any, run: int, game: int, seat: int | None = None) -> Source:
    """Game `game` of run `run` in the store (a person's seat by default in a played game)."""
    try:
        g = store.game(game)
    except TiantiError as e:
        raise ReviewError(str(e)) from None
    if g.run_id != run:
        raise ReviewError(f"game {game} belongs to run {g.run_id}, not run {run}")
    start, actions, full = _rebuild(g.record(), f"game {game} of run {run}")
    seats = sorted(g.seats, key=lambda s: s["seat"])
    humans = [s["seat"] for s in seats if s["spec"] == HUMAN]
    n = start.num_players()
    default = humans[0] if len(humans) == 1 else (0 if n == 1 else None)
    chosen = _seat(seat, default, n, f"game {game} of run {run}")
    names = [("you" if s["spec"] == HUMAN else bot_label(start.game.name, s["bot"]))
             for s in seats]
    return Source(start, actions, chosen, names, f"game {game} of run {run}", full)


def from_session(session: Any, label: str = "this game") -> Source:
    """The game of a `tianti play` session (ladder/table/play.py), the person's seat reviewed."""
    record = session.state.to_record()
    start, actions, full = _rebuild(record, label)
    names = ["you" if i == session.seat else bot_label(start.game.name, str(s))
             for i, s in enumerate(session.specs)]
    return Source(start, actions, session.seat, names, label, full)


__all__ = ["Source", "from_file", "from_session", "from_store", "last_save", "saves_folder"]
