"""Verdicts from a review's numbers: how bad a decision was, the game's accuracy, and what
chance did against what the decisions did (pure arithmetic, no search, no I/O).

All values are the reviewer's estimated chance to win (solo: to reach the goal) in [0, 1];
the thresholds are in percentage points of it, the lichess way of judging by the drop in
win percentage rather than by an engine's score:

- a decision's **difference** is the chance with the best choice minus the chance after the
  choice made, both estimated from the seat's view at the decision on common random numbers
  (ladder/review/analysis.py): a mean over pairs of searches, with its standard error. It may
  be negative (the made choice came out better). The **drop** is the difference clamped at 0,
  for the accuracy;
- **inaccuracy** from 5 points, **mistake** from 20, **blunder** from 30. Lichess judges
  winning-chance drops of 0.1 / 0.2 / 0.3 on its -1..1 scale, i.e. 5 / 10 / 15 points. A
  verdict needs the difference beyond its noise as well: more than its 95% margin (`T`
  standard errors, Student's t for the pairs), so that a second look with another seed gives
  the same verdict; the verdict states that margin. With the noise taken care of by the
  margin, the inaccuracy is lichess's step: a decision that costs 5 points or more, clearly
  beyond the search's noise, is named (the reviewer finds one to three a game of strong at
  20,000 iterations: docs/review.md). The mistake and the blunder stay at twice
  lichess's steps: the reviewer's difference is its own search's, and a longer one can find
  it several points larger or smaller (8.8 points at 400,000 iterations on one decision, where
  a 2,000,000-iteration search's root statistics gave 13.7), which the margin over the pairs does not cover;
- a decision's **accuracy** is lichess's published model of win-percentage drops,
  `103.1668 * exp(-0.04354 * drop) - 3.1669` (drop in points, clamped to 0..100): no drop
  scores 100, a 10-point drop 64, a 30-point drop 25;
- the game's **accuracy** measures decisions, not the state of the game: it is the mean of
  the accuracies of the decisions taken while the game was **open**. A decision is *decided*
  when its chance before and after the choice lie on the same side of `DECIDED` (both under
  2%, or both over 98%): every choice there costs nothing and would score 100 whoever made
  it, so it weighs 0 (a choice that throws a won game away, 99% -> 60%, is open and counts).
  Without the rule a player crushed early had most of its decisions in lost positions and
  scored near a much better player (docs/review.md, "Calibration", says which games chose
  the rule and which checked it). The mean is arithmetic: lichess mixes in the harmonic mean, which
  lets one drop near 100 points sink a game's figure; with this reviewer's noisier estimates
  that made the figure noisier and separated the levels less on the choosing games. No open
  decision: no accuracy (None);
- **luck**: between two decisions of the seat the estimate moves without the seat choosing
  anything: draws, tiles shown, the other seats' moves, and the estimates' own noise. From
  the first decision's `before` to the outcome, the chance moved by what the decisions did
  (the sum of `after - before`) plus what happened between them (the sum of the next
  `before` minus this `after`, the last step to the actual result when the game is over);
  the two sums add up exactly to the outcome minus the first estimate. A decision whose choice
  was the best one adds exactly 0, the others their mean difference, which is not biased
  toward a loss, so over a game neither sum drifts. The decisions' sum carries its own 95%
  margin (from the pairs' standard errors), the luck sum the same one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ladder.review.analysis import PAIRS, ReviewError

INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
# Drop thresholds in percentage points, worst first.
THRESHOLDS: tuple[tuple[str, float], ...] = ((BLUNDER, 30.0), (MISTAKE, 20.0),
                                             (INACCURACY, 5.0))
# A decision whose chance lies under this, or over 1 minus this, both before and after the
# choice, was taken in a decided game and weighs nothing in the game's accuracy.
DECIDED = 0.02
# Student's t for a two-sided 95% interval with PAIRS - 1 degrees of freedom (PAIRS = 8: 7).
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042}


def t95(pairs: int) -> float:
    """The half-width of a 95% interval of a mean of `pairs` values, in standard errors."""
    df = max(1, pairs - 1)
    return _T95.get(df) or next((_T95[k] for k in sorted(_T95) if k >= df), 1.96)


T = t95(PAIRS)


def drop_points(before: float, after: float) -> float:
    """The drop in percentage points (never negative: a choice the estimate finds better than
    the search's own is no loss)."""
    return max(0.0, 100.0 * (before - after))


def margin_points(noise: float, pairs: int) -> float:
    """The 95% margin of a difference in points from its standard error (0 without pairs)."""
    return 100.0 * t95(pairs) * noise if pairs > 0 else 0.0


def classify(diff: float, noise: float, pairs: int) -> str | None:
    """blunder / mistake / inaccuracy, or None: `diff` is the best choice's chance minus the
    made one's (in [-1, 1]), `noise` its standard error over `pairs` pairs. None for a good
    choice, a difference under the thresholds, or one within its 95% margin."""
    points = 100.0 * diff
    if pairs <= 0 or points <= margin_points(noise, pairs):
        return None
    for name, threshold in THRESHOLDS:
        if points >= threshold:
            return name
    return None


def move_accuracy(drop: float) -> float:
    """A decision's accuracy (0..100) from its drop in points."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def decided(before: float, after: float) -> bool:
    """Whether a decision was taken in a decided game: its chance before (with the best
    choice) and after (with the choice made) both under `DECIDED`, or both over 1 - DECIDED."""
    return max(before, after) < DECIDED or min(before, after) > 1.0 - DECIDED


def decision_weight(before: float, after: float) -> float:
    """How much a decision counts in the game's accuracy: 0 in a decided game, else 1."""
    return 0.0 if decided(before, after) else 1.0


def game_accuracy(drops: Sequence[float], weights: Sequence[float] | None = None
                  ) -> float | None:
    """The weighted mean of the decisions' accuracies (`move_accuracy` of each drop; every
    weight 1 when `weights` is None, else `decision_weight` of each decision); None without a
    decision of positive weight."""
    ws = [1.0] * len(drops) if weights is None else [float(w) for w in weights]
    if len(ws) != len(drops):
        raise ReviewError(f"{len(drops)} drops but {len(ws)} weights")
    if any(not w >= 0 for w in ws):
        raise ReviewError(f"weights must be numbers >= 0, got {ws}")
    total = sum(ws)
    if total <= 0:
        return None
    return sum(w * move_accuracy(d) for w, d in zip(ws, drops)) / total


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
    margin: float = 0.0       # the 95% margin of `decisions` (and of `chance`), in points


def balance(befores: Sequence[float], afters: Sequence[float],
            outcome: float | None, noises: Sequence[float] | None = None) -> Balance | None:
    """The balance of one seat's decisions in order (None without decisions); `outcome` the
    seat's actual result in [0, 1] when the game is over; `noises` the standard errors of the
    decisions' differences (the margin of the sum: 1.96 times their root sum of squares)."""
    if not befores:
        return None
    decisions = sum(a - b for b, a in zip(befores, afters))
    between = sum(nxt - a for a, nxt in zip(afters, befores[1:]))
    end = afters[-1]
    if outcome is not None:
        between += outcome - afters[-1]
        end = outcome
    margin = 100 * 1.96 * math.sqrt(sum(n * n for n in noises or ()))
    return Balance(100 * befores[0], 100 * decisions, 100 * between, 100 * end,
                   outcome is not None, margin)


__all__ = ["BLUNDER", "Balance", "DECIDED", "INACCURACY", "MISTAKE", "THRESHOLDS", "balance",
           "T", "classify", "decided", "decision_weight", "drop_points", "game_accuracy",
           "margin_points", "move_accuracy", "t95"]
