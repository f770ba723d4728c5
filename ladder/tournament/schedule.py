"""The plan of a tournament: which bots sit where in which game, and with which seeds.

A tournament is a list of named bots, a game with its options (the number of players among
them), a number of *deals* and a seating mode. Every deal is played at every *seating* of the
plan; all seatings of a deal share the deal's seed, so each bot meets the same cards and tiles
from every seat (duplicate games), which cancels much of the luck out of the comparison.

Seatings: with as many bots as seats, every seat permutation ("permutations", n! seatings) or
the n cyclic rotations ("rotations"). With more bots than seats, every table of k bots out of n
(all C(n, k) subsets) is seated the same way, which is balanced: each bot plays equally often,
in each seat equally often, and each pair of bots meets equally often.

The plan is a pure function of the `TournamentSpec`, so a run stored with its spec can always
be re-planned to find the games it still lacks.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import TiantiError
from ai.match import derived_seed

SEATING_MODES = ("permutations", "rotations")
# A tournament larger than this is surely a mistake (and its plan would not fit in memory).
MAX_PLANNED_GAMES = 10_000_000


class ScheduleError(TiantiError, ValueError):
    """A tournament that cannot be planned (too few bots, an unknown seating mode, ...)."""


@dataclass(frozen=True)
class TournamentSpec:
    """Everything that decides a tournament's games. `bots` are (name, spec) pairs in the order
    given; `options` are the game's complete options (`Game.options`), players included."""

    game: str
    options: dict[str, Any]
    bots: tuple[tuple[str, str], ...]
    deals: int
    seatings: str = "permutations"
    seed: int = 0
    move_timeout: float | None = None
    # the sequential test (`ladder.tournament.sprt.SprtSpec.to_dict()`): the first bot against
    # the others, the run stopping once it decides; None for a run of fixed length
    sprt: dict[str, float] | None = None

    @property
    def players(self) -> int:
        return int(self.options["players"])

    def to_dict(self) -> dict[str, Any]:
        d = {"game": self.game, "options": dict(self.options),
             "bots": [list(b) for b in self.bots], "deals": self.deals,
             "seatings": self.seatings, "seed": self.seed, "move_timeout": self.move_timeout}
        if self.sprt is not None:
            d["sprt"] = dict(self.sprt)
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "TournamentSpec":
        return TournamentSpec(
            game=d["game"], options=dict(d["options"]),
            bots=tuple((str(n), str(s)) for n, s in d["bots"]), deals=int(d["deals"]),
            seatings=d.get("seatings", "permutations"), seed=int(d["seed"]),
            move_timeout=d.get("move_timeout"),
            sprt=dict(d["sprt"]) if d.get("sprt") is not None else None)


@dataclass(frozen=True)
class GameTask:
    """One game to play: the deal and seating it stands for, its seeds and who sits where.

    `prefix_actions`/`prefix_times`/`prefix_faults` are set only when a game is restarted after
    its worker process had to be killed: the game continues after those moves."""

    run_id: int
    deal: int
    seating: int
    game: str
    options: dict[str, Any]
    seed: int
    resample_seed: int
    bots: tuple[tuple[str, str], ...]  # (name, spec) for each seat
    move_timeout: float | None
    prefix_actions: tuple[int, ...] = ()
    prefix_times: tuple[float, ...] = ()
    prefix_faults: tuple[dict[str, Any], ...] = field(default=())
    # Where the tournament runs, for the bots in processes of their own: a Ray worker runs in a
    # folder and environment of Ray's, not the tournament's. `origin` is the folder relative
    # `exec:` commands and `python:` modules are found in ("": the worker's own folder);
    # `bot_limits` the tournament's $TIANTI_BOT_LIMITS ("": the worker's environment's);
    # `user_path` the tournament's $PATH, on which a bare `exec:` command name is looked up
    # ("": the worker's).
    origin: str = ""
    bot_limits: str = ""
    user_path: str = ""
    # Paths no bot may see wherever they are: the tournament's store (its SQLite companions,
    # -wal, -shm, -journal, go with it). A path missing where the game is played is ignored.
    hide: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[int, int]:
        return (self.deal, self.seating)


def deal_seed(master: int, deal: int) -> int:
    """The seed of every game of a deal (shared by all its seatings)."""
    return derived_seed("tianti-deal", master, deal)


def resample_seed(master: int, deal: int) -> int:
    """The seed of the determinizations handed to the bots (also shared within a deal)."""
    return derived_seed("tianti-resample", master, deal)


def seatings(n_bots: int, players: int, mode: str = "permutations") -> list[tuple[int, ...]]:
    """Every seating of a deal: for each one, the index (into the bot list) of the bot in each
    seat."""
    if mode not in SEATING_MODES:
        raise ScheduleError(f"seating mode {mode!r} is unknown; allowed: {', '.join(SEATING_MODES)}")
    if players < 1:
        raise ScheduleError(f"a table needs at least one seat, got {players}")
    if n_bots < players:
        raise ScheduleError(
            f"{n_bots} bot{'s' if n_bots != 1 else ''} for a {players}-player game: name at least "
            f"{players} (the same spec may be given under several names)")
    out: list[tuple[int, ...]] = []
    for table in itertools.combinations(range(n_bots), players):
        if mode == "permutations":
            out.extend(itertools.permutations(table))
        else:
            out.extend(table[r:] + table[:r] for r in range(players))
    return out


def count_seatings(n_bots: int, players: int, mode: str) -> int:
    """len(seatings(...)) without building the list."""
    tables = math.comb(n_bots, players)
    return tables * (math.factorial(players) if mode == "permutations" else players)


def check(spec: TournamentSpec) -> int:
    """Validate a tournament's shape; returns the number of games it plans."""
    if spec.deals < 1:
        raise ScheduleError(f"the number of deals must be at least 1, got {spec.deals}")
    names = [n for n, _ in spec.bots]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise ScheduleError(f"bot names must be distinct; repeated: {', '.join(dup)}")
    if spec.seatings not in SEATING_MODES or len(spec.bots) < spec.players:
        seatings(len(spec.bots), spec.players, spec.seatings)  # raises the clear error
    if spec.sprt is not None and spec.players < 2:
        raise ScheduleError("--sprt compares bots at one table: it needs at least 2 players")
    total = count_seatings(len(spec.bots), spec.players, spec.seatings) * spec.deals
    if total > MAX_PLANNED_GAMES:
        raise ScheduleError(
            f"the tournament plans {total:,} games (more than {MAX_PLANNED_GAMES:,}): use fewer "
            f"bots or deals, or --seatings rotations")
    return total


def plan(spec: TournamentSpec, run_id: int = 0, origin: str = "",
         bot_limits: str = "", hide: tuple[str, ...] = (),
         user_path: str = "") -> list[GameTask]:
    """Every game of the tournament, deal by deal (`origin`, `bot_limits`, `hide`,
    `user_path`: see GameTask)."""
    check(spec)
    tables = seatings(len(spec.bots), spec.players, spec.seatings)
    tasks: list[GameTask] = []
    for deal in range(spec.deals):
        seed = deal_seed(spec.seed, deal)
        rseed = resample_seed(spec.seed, deal)
        for s, seating in enumerate(tables):
            tasks.append(GameTask(
                run_id=run_id, deal=deal, seating=s, game=spec.game, options=dict(spec.options),
                seed=seed, resample_seed=rseed, bots=tuple(spec.bots[b] for b in seating),
                move_timeout=spec.move_timeout, origin=origin, bot_limits=bot_limits,
                hide=hide, user_path=user_path))
    return tasks
