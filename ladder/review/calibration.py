"""Is the review right? Its estimated chances against what happened, and its accuracy figure
against players of known strength (pure arithmetic on finished reviews, no search, no I/O).

- `reliability`: every reviewed decision's `before` (the estimated chance to win with the best
  choice, from the seat's view) in 10 bins of width 10 points, against the fraction of those
  decisions whose seat actually won (ties count as the seat's share of the point, as the
  engines' `returns()` give it). A calibrated review has, in every bin, an observed fraction
  close to the bin's mean estimate.
- `brier`: the mean squared difference between estimate and outcome (0 is perfect; always
  saying the base rate scores `base_rate * (1 - base_rate)`, the reference `brier_reference`).
- `accuracy_by_player`: each player's mean game accuracy (`GameReview.accuracy`) with a 95%
  interval over its games (normal approximation: mean +- 1.96 standard errors).
- `ordered`: whether the means go down in a given order of players (strongest first), and
  whether they do so clearly (neighbours' 95% intervals do not overlap).

The decisions of one game are correlated (same game, same outcome), so the bins' counts
overstate the independent evidence; the intervals of the accuracy figure are over games.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Sequence

from ladder.review.analysis import ReviewError

Z95 = 1.96
BINS = 10


@dataclass(frozen=True)
class Bin:
    """One bin of the reliability table: estimates in [low, high) (the last bin includes 1)."""

    low: float
    high: float
    count: int
    estimate: float | None   # mean estimate of the decisions in the bin (None: empty)
    observed: float | None   # mean outcome of their seats (the fraction won)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Summary:
    """A player's mean game accuracy over `games` games, with its 95% interval."""

    name: str
    games: int
    mean: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def decision_points(review: Any) -> list[tuple[float, float]]:
    """(estimate before the decision, the seat's actual result) for every reviewed decision of
    a finished game's review (`GameReview`); ReviewError for an unfinished game."""
    if review.outcome is None:
        raise ReviewError("a review of an unfinished game has no outcome to calibrate against")
    return [(float(d.before), float(review.outcome)) for d in review.decisions]


def _check(points: Sequence[tuple[float, float]]) -> None:
    for p, o in points:
        if not (0.0 <= p <= 1.0 and 0.0 <= o <= 1.0):
            raise ReviewError(f"estimates and outcomes must lie in [0, 1], got ({p}, {o})")


def bin_index(p: float, bins: int = BINS) -> int:
    """The bin of estimate `p`: [k/bins, (k+1)/bins), 1.0 in the last bin."""
    return min(bins - 1, int(math.floor(p * bins)))


def reliability(points: Sequence[tuple[float, float]], bins: int = BINS) -> list[Bin]:
    """The reliability table of (estimate, outcome) pairs in `bins` equal bins."""
    if bins < 1:
        raise ReviewError(f"the table needs at least one bin, got {bins}")
    _check(points)
    sums = [[0, 0.0, 0.0] for _ in range(bins)]
    for p, o in points:
        s = sums[bin_index(p, bins)]
        s[0] += 1
        s[1] += p
        s[2] += o
    return [Bin(k / bins, (k + 1) / bins, int(n), e / n if n else None, o / n if n else None)
            for k, (n, e, o) in enumerate(sums)]


def brier(points: Sequence[tuple[float, float]]) -> float:
    """The mean of (estimate - outcome)^2; ReviewError without points."""
    if not points:
        raise ReviewError("no decisions to score")
    _check(points)
    return sum((p - o) ** 2 for p, o in points) / len(points)


def brier_reference(points: Sequence[tuple[float, float]]) -> float:
    """The Brier score of always estimating the base rate (the mean outcome): what a review
    that knows nothing about the position would score."""
    if not points:
        raise ReviewError("no decisions to score")
    base = sum(o for _, o in points) / len(points)
    return sum((base - o) ** 2 for _, o in points) / len(points)


def calibration_error(table: Iterable[Bin]) -> float:
    """The count-weighted mean of |estimate - observed| over the bins (the expected
    calibration error), in [0, 1]."""
    rows = [b for b in table if b.count]
    total = sum(b.count for b in rows)
    if not total:
        raise ReviewError("no decisions to score")
    return sum(b.count * abs(b.estimate - b.observed) for b in rows) / total  # type: ignore


def summarize(name: str, values: Sequence[float]) -> Summary:
    """Mean of `values` with a 95% interval (mean +- 1.96 standard errors; one value: the
    interval is the value itself)."""
    if not values:
        raise ReviewError(f"{name}: no games to average")
    n = len(values)
    mean = sum(values) / n
    if n == 1:
        return Summary(name, 1, mean, mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Summary(name, n, mean, mean - half, mean + half)


def accuracy_by_player(rows: Iterable[tuple[str, float | None]]) -> dict[str, Summary]:
    """Each player's mean game accuracy from (player, accuracy of one game's review) rows;
    reviews without an accuracy (no decision with a choice) are left out."""
    by: dict[str, list[float]] = {}
    for name, acc in rows:
        if acc is not None:
            by.setdefault(name, []).append(float(acc))
    return {name: summarize(name, values) for name, values in by.items()}


def ordered(summaries: dict[str, Summary], order: Sequence[str]) -> tuple[bool, bool]:
    """(the means strictly decrease along `order`, and each neighbours' 95% intervals are
    apart: the higher one's low end above the lower one's high end)."""
    missing = [n for n in order if n not in summaries]
    if missing:
        raise ReviewError(f"no accuracy figure for {', '.join(missing)}")
    rows = [summaries[n] for n in order]
    holds = all(a.mean > b.mean for a, b in zip(rows, rows[1:]))
    clearly = all(a.low > b.high for a, b in zip(rows, rows[1:]))
    return holds, clearly


def table_text(table: Sequence[Bin]) -> list[str]:
    """The reliability table as lines of at most 80 columns."""
    lines = ["  estimate   decisions   mean estimate   fraction won   difference"]
    for b in table:
        span = f"{100 * b.low:3.0f}-{100 * b.high:3.0f}%"
        if not b.count:
            lines.append(f"  {span:9} {0:>9}               -              -            -")
            continue
        diff = 100 * (b.observed - b.estimate)  # type: ignore[operator]
        lines.append(f"  {span:9} {b.count:>9}          {100 * b.estimate:5.1f}%"  # type: ignore
                     f"         {100 * b.observed:5.1f}%     {diff:+6.1f} pts")  # type: ignore
    return lines


def pair_table_text(left: Sequence[Bin], right: Sequence[Bin], titles: tuple[str, str]
                    ) -> list[str]:
    """Two reliability tables of the same bins side by side (decisions, mean estimate,
    fraction won for each), in lines of at most 80 columns."""
    if [(b.low, b.high) for b in left] != [(b.low, b.high) for b in right]:
        raise ReviewError("the two tables must have the same bins")

    def cells(b: Bin) -> str:
        if not b.count:
            return f"{0:>9}       -       -"
        return f"{b.count:>9}  {100 * b.estimate:5.1f}%  {100 * b.observed:5.1f}%"  # type: ignore

    lines = [f"  {'':9}  {titles[0][:25]:^25} | {titles[1][:25]:^25}",
             f"  {'estimate':9}  {'decisions':>9}  {'est.':>6}  {'won':>6} |"
             f" {'decisions':>9}  {'est.':>6}  {'won':>6}"]
    for a, b in zip(left, right):
        span = f"{100 * a.low:3.0f}-{100 * a.high:3.0f}%"
        lines.append(f"  {span:9}  {cells(a)} | {cells(b)}")
    return lines


__all__ = ["BINS", "Bin", "Summary", "accuracy_by_player", "bin_index", "brier",
           "brier_reference", "calibration_error", "decision_points", "ordered",
           "pair_table_text", "reliability", "summarize", "table_text"]
