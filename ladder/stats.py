"""Match statistics for two bots: the Elo difference with its error bar and the likelihood of
superiority, as cutechess-cli prints them at the end of a match.

From W wins, L losses and D draws (here: the games in which the first bot finished above, below
or level with the second) the score is s = (W + D/2) / N and the Elo difference
-400 log10(1/s - 1). Its 95% error bar maps s ± 1.96 se through the same function, se being the
standard error of the per-game score (the trinomial W/D/L model); half the width of that
interval is the "±". The likelihood of superiority is 1/2 (1 + erf((W - L) / sqrt(2 (W + L)))),
the probability that the first bot is the stronger (draws carry no information about it).
"""
from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054


def elo_from_score(score: float) -> float | None:
    """The logistic Elo difference of an expected score (None at 0 or 1: infinite)."""
    if not 0.0 < score < 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_summary(wins: int, losses: int, draws: int) -> dict[str, Any]:
    """Games, score, Elo difference, its 95% error bar and the likelihood of superiority.
    `elo` is None (infinite) when one side scored everything; `error` is None when the Elo
    or an end of its interval is infinite."""
    n = wins + losses + draws
    out: dict[str, Any] = {"games": n, "wins": wins, "losses": losses, "draws": draws,
                           "score": None, "elo": None, "error": None, "elo_low": None,
                           "elo_high": None, "los": 0.5}
    if n == 0:
        return out
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    se = math.sqrt(var / n)
    low, high = elo_from_score(s - Z95 * se), elo_from_score(s + Z95 * se)
    out.update(score=s, elo=elo_from_score(s), elo_low=low, elo_high=high,
               error=(high - low) / 2 if low is not None and high is not None else None)
    if wins + losses:
        out["los"] = 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))
    return out
