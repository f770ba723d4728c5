"""Estimating each decision of one seat from that seat's view (no terminal I/O here).

The review walks a game (its true states, which never leave this module's walk) and, at each
decision of the reviewed seat that has more than one legal choice, hands a search a **view**
of the seat (`State.resample_from_infostate(seat, seed)`, the same views bots get): the
face-down things and the future are drawn afresh from a seed of the review's own, so nothing
the seat did not know can reach the estimate. From that view:

- `before`: the chance to win (solo: to reach the goal) with the best choice: the mean reward
  of the search's choice (its most visited root move), as `tianti play`'s hints report it. It
  is the decision's *level* (the chart's line); the search's choice is the *best* one.
- when the choice made is the best one, the decision changed nothing: `after = before`,
  `diff = 0` exactly.
- otherwise the best choice and the choice made are **compared on common random numbers**:
  `PAIRS` pairs, each pair one more view of the seat (its own seed) on which *both* choices
  are played and valued by searches with the same seeds and the same fixed set of
  determinizations (`worlds`), each with its share of the budget. A pair's difference is the
  best choice's value minus the made one's; `diff` is their mean (it may be negative: the
  comparison can find the made choice better than the first search's pick) and `noise` its
  standard error over the pairs. `after = before - diff`.

Why not the root statistics, as before: the chance with the best choice was the maximum of
noisy means and the made choice one of them, and the drop was clamped at zero, so every
decision could only cost, and over a game the "decisions" added up to a loss that the "luck"
then took back. Choosing the best move with one search and measuring the difference with
others, on the same determinizations, gives a difference whose mean is the true one: the sum
over a game's decisions is not biased toward a loss.

A value after a choice (`value_after`): the game is played on in that view, every decision by
a search's most visited move, to the same kind of decision for both choices (2 players: the
other seat's first decision, one minus its mean; solo: the seat's next decision; more players:
the seat's first decision after another seat decided). A mean leans toward the seat to move,
so reading one choice at the seat's decision and the other at the opponent's would lean them
apart (docs/review.md has the figures).

Everything is seeded from the review's seed and the decision's number, so a review with an
iteration budget is the same every time, whichever worker process estimated a decision.
"""
from __future__ import annotations

import hashlib
import math
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ai.bots import make_bot, parse_spec
from engine.core.errors import TiantiError

# How many views the best and the made choice are compared on (each a pair of searches with
# common random numbers); the standard error of the mean difference comes from their spread.
PAIRS = 8
# The fixed determinizations (`worlds` of the SO-ISMCTS searcher) each comparison search draws
# from in turn: the two searches of a pair see the same hidden tiles and future draws.
WORLDS = 32
# The two choices' searches together get this share of the decision's budget (the first search
# gets the whole budget): each of the 2 x PAIRS searches has budget * SHARE / (2 * PAIRS).
SHARE = 2.0
# More than 2 players: at most this many decisions of the other seats (with a choice) are
# searched and played out after the choice before the reviewed seat's next decision.
MAX_LOOKAHEAD = 40


class ReviewError(TiantiError, ValueError):
    """A review that cannot be made (a reviewer that does not search, a bad budget, a game
    that does not replay)."""


@dataclass(frozen=True)
class Settings:
    """How a review searches: the reviewing bot's spec, the budget of each search (iterations
    or seconds) and the seed every view and search is drawn from."""

    reviewer: str = "strong"
    iterations: int = 0
    seconds: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.iterations < 0 or self.seconds < 0:
            raise ReviewError("the budget must not be negative")
        if (self.iterations > 0) == (self.seconds > 0):
            raise ReviewError("give one budget: iterations or seconds per decision")

    def budget(self, fraction: float = 1.0) -> dict[str, Any]:
        """The search-budget overrides for the reviewer (the spec's own budget is replaced),
        `fraction` of the decision's budget."""
        if self.iterations:
            return {"iterations": max(1, round(self.iterations * fraction)), "millis": 0.0}
        return {"iterations": 0, "millis": 1000.0 * self.seconds * fraction}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Estimate:
    """A decision's numbers, from the seat's view: the values are the reviewer's mean reward
    (the chance to win, or to reach the goal in a solo game)."""

    best: int                 # the search's choice (most visited root move)
    before: float             # value with the best choice (the decision's level)
    after: float              # value after the choice made: before - diff
    best_visits: int
    diff: float               # best minus made, mean over the pairs (0: the best was made)
    noise: float              # the standard error of `diff` (0: the best was made)
    pairs: int                # how many pairs `diff` is the mean of (0: the best was made)
    iterations: int           # playouts spent on this decision, all searches together
    top: list[dict[str, Any]] = field(default_factory=list)  # action, visits, mean (root)


def derive_seed(seed: int, move: int, k: int) -> int:
    """A seed for decision `move`'s `k`-th use (0: its view, 1: its search, 2+: after-searches),
    independent of the order decisions are estimated in."""
    digest = hashlib.sha256(f"tianti-review:{seed}:{move}:{k}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 2


def check_reviewer(spec: str) -> None:
    """A clear ReviewError unless `spec` names a search bot (one that reports its root
    statistics); python: bots are refused (the review runs them in worker processes)."""
    name, _ = parse_spec(spec)
    if name.strip().lower().startswith("python:"):
        raise ReviewError(f"the reviewer must be one of tianti's search bots, not {spec!r}")
    bot = make_bot(spec)
    if not callable(getattr(bot, "analyse", None)):
        raise ReviewError(f"the reviewer {spec!r} does not search (it gives no estimates): "
                          "use strong, ismcts, mo-ismcts or pimc")


def _reviewer(settings: Settings, seed: int) -> Any:
    """A fresh reviewing bot with the review's budget and `seed`."""
    return make_bot(settings.reviewer, seed=seed, **settings.budget())


def _best(result: dict[str, Any]) -> dict[str, Any]:
    """The root entry of a search's own choice."""
    action = result["action"]
    return next(r for r in result["root"] if r["action"] == action)


def estimate(view: Any, made: int, seat: int, settings: Settings, move: int) -> Estimate:
    """The numbers of one decision: `view` is a view of `seat` at its decision (never the true
    state), `made` the choice made there, `move` the decision's number (for the seeds)."""
    bot = _reviewer(settings, derive_seed(settings.seed, move, 1))
    result = bot.analyse(view.clone())
    best = _best(result)
    spent = int(result.get("iterations") or 0)
    top = [{"action": r["action"], "visits": r["visits"], "mean": r["mean"]}
           for r in result["root"][:5]]
    level = float(best["mean"])
    if made == best["action"]:
        return Estimate(best["action"], level, level, best["visits"], 0.0, 0.0, 0, spent, top)
    diffs, more = compare(view, best["action"], made, seat, settings, move)
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) if len(diffs) > 1 else 0.0
    return Estimate(best["action"], level, level - mean, best["visits"], mean,
                    math.sqrt(var / len(diffs)), len(diffs), spent + more, top)


def compare(view: Any, best: int, made: int, seat: int, settings: Settings, move: int,
            pairs: int = PAIRS) -> tuple[list[float], int]:
    """(the differences value(best) - value(made), one per pair; playouts spent): each pair is
    a view of its own drawn from `view` (the seat's information only), on which both choices
    are valued by searches with the same seeds and the same fixed determinizations."""
    fraction = SHARE / (2 * pairs)
    diffs: list[float] = []
    spent = 0
    for k in range(pairs):
        world = view.resample_from_infostate(seat, derive_seed(settings.seed, move, 100 + k))
        values = []
        for action in (best, made):
            value, _, used = value_after(world, action, seat, settings, move,
                                         fraction=fraction, stream=1000 * (k + 1))
            values.append(value)
            spent += used
        diffs.append(values[0] - values[1])
    return diffs, spent


def value_after(view: Any, made: int, seat: int, settings: Settings, move: int, *,
                fraction: float = 1.0, stream: int = 0) -> tuple[float, int, int]:
    """(value, visits behind it, playouts spent) of `seat` after `made` in `view`: the game is
    played on from the choice, every decision by the most visited move of a search from the
    seat's information only, to the first decision of a given kind, where the search's best
    move's mean gives the value (or the result, when the game ends first):

    - 2 players: the other seat's first decision (one minus its mean: the two seats' rewards
      add up to 1); the seat's own decisions before it are played on;
    - solo: the seat's next decision (its mean);
    - more players: the seat's first decision after another seat decided (its mean).

    Both choices of a comparison so end at the same kind of decision: a mean leans toward the
    seat to move (its most visited move's mean is its best), and reading one choice at the
    seat's decision and the other at the opponent's would lean one of them up and the other
    down. Each search gets `fraction` of the budget; `stream` offsets their seeds (two calls
    with the same stream search with the same seeds: common random numbers)."""
    state = view.clone()
    state.apply_action(made)
    players = state.num_players()
    others = players == 1   # solo: no other seat has to decide first
    spent, k = 0, 2
    while k < MAX_LOOKAHEAD + 2:
        if state.is_terminal():
            return float(state.returns()[seat]), 0, spent
        mover = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            others = others or mover != seat
            continue
        bot = make_bot(settings.reviewer, seed=derive_seed(settings.seed, move, stream + k),
                       worlds=WORLDS, **settings.budget(fraction))
        k += 1
        searcher = _searcher(bot, state)
        result = searcher.search(state.clone(), seat)
        spent += int(result.get("iterations") or 0)
        best = _best(result)
        if players == 2 and mover != seat:
            return 1.0 - best["mean"], best["visits"], spent
        if mover == seat and others:
            return best["mean"], best["visits"], spent
        state.apply_action(result["action"])
        others = others or mover != seat
    raise ReviewError(f"decision {move}: the reviewed seat did not decide again within "
                      f"{MAX_LOOKAHEAD} decisions after its choice")


def _searcher(bot: Any, state: Any) -> Any:
    """The bot's compiled searcher for `state`'s game, fresh (no tree kept from an earlier
    search)."""
    make = getattr(bot, "searcher_for", None)
    searcher = make(state) if callable(make) else getattr(bot, "searcher", None)
    if searcher is None or not callable(getattr(searcher, "search", None)):
        raise ReviewError("the reviewer does not search")
    searcher.restart()
    return searcher


# -- walking a game ------------------------------------------------------------------------------


@dataclass
class Job:
    """One decision to estimate: the seat's view there (a copy; never the true state)."""

    move: int
    seat: int
    view: Any
    made: int


def decisions(start: Any, actions: list[int], seat: int, seed: int) -> list[Job]:
    """The reviewed seat's decisions with more than one legal choice, each with its view, from
    replaying `actions` on a copy of `start` (a game's true initial state)."""
    state = start.clone()
    n = state.num_players()
    if not 0 <= seat < n:
        raise ReviewError(f"seat must be in 0..{n - 1} for this {n}-player game, got {seat}")
    jobs: list[Job] = []
    first = state.move_number()
    for i, action in enumerate(actions):
        move = first + i
        if state.is_terminal():
            raise ReviewError(f"the game is over before its decision {move}")
        legal = state.legal_actions()
        if action not in legal:
            raise ReviewError(f"the game does not replay: decision {move} "
                              f"({action}) is not legal there")
        if state.current_player() == seat and len(legal) > 1:
            jobs.append(Job(move, seat, state.resample_from_infostate(
                seat, derive_seed(seed, move, 0)), action))
        state.apply_action(action)
    return jobs


def _run(job: Job, settings: Settings) -> tuple[int, Estimate]:
    """One job's estimate (what a worker process runs)."""
    return job.move, estimate(job.view, job.made, job.seat, settings, job.move)


def estimate_all(jobs: list[Job], settings: Settings, workers: int = 1,
                 progress: Callable[[int], None] | None = None) -> dict[int, Estimate]:
    """Every job's estimate by decision number, in `workers` processes (1: in this one);
    `progress(done)` after each."""
    check_reviewer(settings.reviewer)
    out: dict[int, Estimate] = {}
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            move, est = _run(job, settings)
            out[move] = est
            if progress:
                progress(len(out))
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_run, job, settings) for job in jobs]
        for future in as_completed(futures):
            move, est = future.result()
            out[move] = est
            if progress:
                progress(len(out))
    return out


__all__ = ["Estimate", "Job", "PAIRS", "ReviewError", "Settings", "WORLDS", "check_reviewer",
           "compare", "decisions", "derive_seed", "estimate", "estimate_all", "value_after"]
