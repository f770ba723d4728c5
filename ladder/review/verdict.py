"""Verdicts from a review's numbers: how bad a decision was, the game's accuracy, and what
chance did against what the decisions did (pure arithmetic, no search, no I/O).

All values are the reviewer's estimated chance to win (solo: to reach the goal) in [0, 1];
the thresholds are in percentage points of it, the lichess way of judging by the drop in
win percentage rather than by an engine's score:

- a **drop** is `before - after`: the chance with the best choice minus the chance after the
  choice made, both estimated from the seat's view at the decision;
- **inaccuracy** from 10 points, **mistake** from 20, **blunder** from 30 (lichess judges
  winning-chance drops of 0.1 / 0.2 / 0.3 on its -1..1 scale, i.e. 5 / 10 / 15 points; these
  games' estimates come from a short search and are noisier than a chess engine's, so the
  steps are twice as wide). A drop within the noise the search's visit counts leave (the
  hints' `about_equal`: 3 points, or a 95% interval) is never classified;
- a decision's **accuracy** is lichess's published model of win-percentage drops,
  `103.1668 * exp(-0.04354 * drop) - 3.1669` (drop in points, clamped to 0..100): no drop
  scores 100, a 10-point drop 64, a 30-point drop 25. The game's accuracy is the mean of the
  decisions' arithmetic and harmonic means (lichess mixes a volatility-weighted mean with the
  harmonic mean; the harmonic mean makes one blunder weigh more than many good moves);
- **luck**: between two decisions of the seat the estimate moves without the seat choosing
  anything: draws, tiles shown, the other seats' moves, and the estimates' own noise. From
  the first decision's `before` to the outcome, the chance moved by what the decisions did
  (the sum of `after - before`) plus what happened between them (the sum of the next
  `before` minus this `after`, the last step to the actual result when the game is over);
  the two sums add up exactly to the outcome minus the first estimate.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ladder.table.hints import about_equal

INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
# Drop thresholds in percentage points, worst first.
THRESHOLDS: tuple[tuple[str, float], ...] = ((BLUNDER, 30.0), (MISTAKE, 20.0),
                                             (INACCURACY, 10.0))


def drop_points(before: float, after: float) -> float:
    """The drop in percentage points (never negative: a choice the estimate finds better than
    the search's own is no loss)."""
    return max(0.0, 100.0 * (before - after))


def classify(before: float, after: float, best_visits: int, after_visits: int) -> str | None:
    """blunder / mistake / inaccuracy, or None (a good choice, or a drop within the noise)."""
    drop = drop_points(before, after)
    if after_visits > 0 and about_equal({"value": before, "visits": best_visits},
                                        {"value": after, "visits": after_visits}):
        return None
    for name, threshold in THRESHOLDS:
        if drop >= threshold:
            return name
    return None


def move_accuracy(drop: float) -> float:
    """A decision's accuracy (0..100) from its drop in points."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def game_accuracy(drops: Sequence[float]) -> float | None:
    """The mean of the arithmetic and harmonic means of the decisions' accuracies (None
    without decisions); a decision at 0 counts as 0.5 in the harmonic mean."""
    if not drops:
        return None
    acc = [move_accuracy(d) for d in drops]
    mean = sum(acc) / len(acc)
    harmonic = len(acc) / sum(1.0 / max(a, 0.5) for a in acc)
    return (mean + harmonic) / 2


@dataclass(frozen=True)
class Balance:
    """Where the chance went from the first decision to the end, in points: `start` the first
    decision's best chance, `decisions` what the choices changed (sum of after - before),
    `chance` what happened between them (draws, shown tiles, the others' moves, noise),
    `end` the outcome (finished game) or the last decision's after-value."""

    start: float
    decisions: float
    chance: float
    end: float
    finished: bool


def balance(befores: Sequence[float], afters: Sequence[float],
            outcome: float | None) -> Balance | None:
    """The balance of one seat's decisions in order (None without decisions); `outcome` the
    seat's actual result in [0, 1] when the game is over."""
    if not befores:
        return None
    decisions = sum(a - b for b, a in zip(befores, afters))
    between = sum(nxt - a for a, nxt in zip(afters, befores[1:]))
    end = afters[-1]
    if outcome is not None:
        between += outcome - afters[-1]
        end = outcome
    return Balance(100 * befores[0], 100 * decisions, 100 * between, 100 * end,
                   outcome is not None)


__all__ = ["BLUNDER", "Balance", "INACCURACY", "MISTAKE", "THRESHOLDS", "balance", "classify",
           "drop_points", "game_accuracy", "move_accuracy"]
