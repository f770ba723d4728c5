"""The time manager of `strong(think=SECONDS)`: a game's thinking time spent where it matters.

A bot given `think` seconds a move on average gets a bank for the whole game at its first
decision: `think` times the decisions it expects to make (decisions with a choice; a forced one
is played at once and costs nothing, as with a fixed budget a move). Each decision then gets a
share of what is left:

- forced (one legal action): no search at all;
- the target is what is left divided by the decisions still expected, from the stage of the
  game (Dragon's month, Mount Tai's round) and the bot's own decisions so far;
- the search stops at a soft limit (the target, divided by what this game's decisions have
  spent per unit of their soft limits) unless the decision is close (the two most visited root
  moves within `close` of each other), which may go on up to `cap` times the soft limit; it stops before the target once the best move cannot be overtaken by then (the gap
  between the top two visit counts exceeds the iterations left), so clear decisions are fast
  and what they save goes to later ones;
- a `reserve` share of the bank is never planned (2% in seconds), to absorb what the clock
  adds beyond the plan (a loaded machine's pauses);
- no decision may take more than `share` of what is left, less twice what a search has cost
  beyond its loop in this game on average, so the bank is not overdrawn: the game's total stays
  within it in iterations exactly; in seconds the bank is charged what each decision took on
  the clock, and a decision whose cost outside the search jumps (a loaded machine) can overdraw
  it by that jump (docs/TIME_MANAGER.md gives the largest seen). A decision with less
  left than `least` plays the game's move prior (the heuristic bot's choice) without searching.

The same manager counts in iterations (`think_iterations`: iterations a move on average), which
makes a game reproducible and its spending exact (the tests use it). The check itself runs in
the compiled search loop every `every` iterations (StopRule, ai/search/mcts.pxd).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

# Decisions with a choice that one seat makes in a game, measured with heuristic bots
# (6 deals each: Dragon 36.4 at 2 and 4 players; Mount Tai 50.8 at 2 players, 55.6 at 4, 56.5
# solo) and, for Dragon, in the 2-player match of docs/TIME_MANAGER.md (37.1 against `strong`);
# "default" serves other games.
EXPECTED_DECISIONS: dict[str, float] = {"dragon": 37.0, "mount-tai": 53.0, "default": 40.0}

# Where a game's stage is read (a key of State.snapshot(), public in every view), its first
# value and the number of values: Dragon's months 1-12, Mount Tai's rounds 0-15.
STAGES: dict[str, tuple[str, int, int]] = {"dragon": ("month", 1, 12),
                                           "mount-tai": ("round", 0, 16)}


def game_stage(state: Any) -> tuple[int, int] | None:
    """How far the game of `state` is: (stage, stages), e.g. (0, 12) in Dragon's first month
    (None for a game without a known stage)."""
    where = STAGES.get(state.game.name)
    if where is None:
        return None
    key, first, count = where
    try:
        value = state.snapshot()[key]
    except (KeyError, AttributeError, TypeError):
        return None
    return min(max(int(value) - first, 0), count - 1), count


@dataclass
class Allowance:
    """One decision's budget in the manager's unit: stop at `soft` unless the decision is
    close, never after `hard`."""

    soft: float
    hard: float


@dataclass
class Decision:
    """What one decision cost: its kind (forced, clear: stopped before the soft limit, normal:
    at it, close: went on past it, out: the bank too low to search), the amount in the
    manager's unit, the stage of the game and the allowance it had."""

    kind: str
    spent: float
    stage: tuple[int, int] | None
    soft: float = 0.0
    hard: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """The decision as plain data (for a search result that may be stored as JSON)."""
        return {"kind": self.kind, "spent": self.spent,
                "stage": list(self.stage) if self.stage else None,
                "soft": self.soft, "hard": self.hard}


@dataclass
class TimeManager:
    """A per-game bank of `think` (seconds, or iterations with unit="iterations") a decision
    on average, and how each decision draws on it (see the module's docstring)."""

    think: float
    unit: str = "seconds"
    cap: float = 2.5
    close: float = 0.1
    clear: float = 1.0
    share: float = 0.5
    reserve: float = 0.0   # share of the bank never planned (the seconds unit: 0.02)
    floor: float = 1.0     # the fewest decisions expected in the current stage, in stages
    every: int = 64
    clock: Callable[[], float] = time.perf_counter
    bank: float = 0.0
    left: float = 0.0
    made: int = 0
    log: list[Decision] = field(default_factory=list)
    overhead: float = 0.0  # what a search of this game cost beyond its loop, on average
    _extra: float = 0.0
    _calls: int = 0
    _stage: int = -1      # the stage of the last decision, and the decisions made before it
    _before: int = 0

    def __post_init__(self) -> None:
        if self.unit not in ("seconds", "iterations"):
            raise ValueError(f"unit must be seconds or iterations, got {self.unit!r}")
        if self.unit == "seconds" and self.reserve == 0.0:
            self.reserve = 0.02
        if not self.think > 0:
            raise ValueError(f"think must be more than 0, got {self.think!r}")
        if not (self.cap >= 1 and 0 < self.share <= 1 and self.close >= 0 and self.clear >= 0
                and self.every >= 1):
            raise ValueError("cap >= 1, 0 < share <= 1, close >= 0, clear >= 0, every >= 1")

    @property
    def least(self) -> float:
        """The smallest allowance worth a search: 2 ms, or 16 iterations."""
        return 0.002 if self.unit == "seconds" else 16.0

    def new_game(self, state: Any) -> None:
        """Open the bank for the game of `state`: `think` times the decisions expected."""
        expected = EXPECTED_DECISIONS.get(state.game.name, EXPECTED_DECISIONS["default"])
        self.bank = self.left = self.think * expected
        self.made = 0
        self.log = []
        self._stage, self._before = -1, 0
        self.overhead, self._extra, self._calls = 0.0, 0.0, 0

    def remaining(self, state: Any) -> float:
        """The decisions with a choice the bot still expects to make, this one included: the
        expected decisions of the stages still to come (at the pace expected, or halfway
        between it and this game's own pace once a fifth of the game has passed), less those
        already made in this stage (leaving at least `floor` of a stage's worth: a last round
        with more decisions than usual must not find the bank empty)."""
        expected = EXPECTED_DECISIONS.get(state.game.name, EXPECTED_DECISIONS["default"])
        at = game_stage(state)
        if at is None:
            return max(expected - self.made, expected / 5, 1.0)
        stage, stages = at
        if stage != self._stage:
            self._stage, self._before = stage, self.made
        per_stage = expected / stages
        if stage >= stages / 5 and self._before > 0:
            per_stage = (per_stage + self._before / stage) / 2
        in_stage = self.made - self._before
        return max(per_stage * (stages - stage) - in_stage,
                   per_stage * (stages - stage - 1) + per_stage * self.floor, 1.0)

    def allowance(self, state: Any) -> Allowance | None:
        """This decision's budget, or None when too little is left to search."""
        left = self.left - self.reserve * self.bank
        target = left / self.remaining(state)
        # Clear decisions spend less than their soft limit and close ones more: the soft limit
        # is the target divided by what decisions of this game spent per unit of soft limit.
        searched = [d for d in self.log if d.soft > 0]
        pace = sum(d.spent for d in searched) / sum(d.soft for d in searched) if searched else 1.0
        soft = target / min(max(pace, 0.5), 2.0)
        # What a decision costs beyond its search (tree reuse, determinizations, the result)
        # is charged too: keep twice its mean so far in this game out of the allowance.
        hard = min(self.cap * soft, self.share * left - 2 * self.overhead)
        if hard < self.least:
            return None
        return Allowance(min(soft, hard), hard)

    def search_options(self, allowance: Allowance, used: float = 0.0) -> dict[str, Any]:
        """The keyword arguments of `Searcher.search` for `allowance`, of which `used` seconds
        have gone already (the decision's own work before the search)."""
        common = {"close": self.close, "clear": self.clear, "every": self.every}
        if self.unit == "seconds":
            return dict(common, iterations=0, millis=max(allowance.hard - used, 0.001) * 1000.0,
                        soft_millis=max(allowance.soft - used, 0.0005) * 1000.0)
        return dict(common, iterations=int(allowance.hard), millis=0.0,
                    soft_iterations=int(allowance.soft))

    def record(self, kind: str, spent: float, stage: tuple[int, int] | None,
               allowance: Allowance | None = None, searched: float = 0.0) -> None:
        """Charge the bank `spent` (of which `searched` in the search loop) and log the
        decision."""
        self.left -= spent
        if self.unit == "seconds" and allowance is not None:
            self._extra += max(spent - searched, 0.0)
            self._calls += 1
            self.overhead = self._extra / self._calls
        if kind != "forced":
            self.made += 1
        self.log.append(Decision(kind, spent, stage, allowance.soft if allowance else 0.0,
                                 allowance.hard if allowance else 0.0))

    def kind_of(self, result: dict[str, Any], allowance: Allowance, spent: float) -> str:
        """clear (stopped before the soft limit), normal (at it) or close (past it)."""
        if self.unit == "iterations":
            used, slack = float(result["iterations"]), float(self.every)
        else:
            used, slack = float(result["seconds"]), 0.03 * allowance.soft + 0.002
        if used <= allowance.soft + slack:
            return "clear" if result.get("stop") == "clear" else "normal"
        return "close"
