"""Match statistics for two bots: the Elo difference with its error bar and the likelihood of
superiority, as cutechess-cli prints them at the end of a match.

From W wins, L losses and D draws (here: the games in which the first bot finished above, below
or level with the second) the score is s = (W + D/2) / N and the Elo difference
-400 log10(1/s - 1). Its 95% interval maps the score's interval through the same function. The
score's interval is Wilson's (the score interval of a proportion, which stays inside (0, 1) so
that the bar stays finite, as cutechess's and fishtest's bars do), with the per-game variance
of the trinomial W/D/L model, p (1 - p) - d/4 at a true score p and draw rate d: the p with
(s - p)^2 = z^2 (p (1 - p) - d/4) / N. Unlike s ± z se, this interval stays inside (0, 1)
whenever 0 < s < 1, so both ends of the Elo bar are finite (2 wins in 40 games: -511.5, from
-741.4 to -281.6); only a side that won every game has an infinite estimate, and then the other
end still bounds it ("+inf, at least +407.0" for 40 of 40). Near an even score and for many
games it is the usual s ± z se; in Elo it is nearly symmetric (3 wins and 1 loss: +190.8, from
-146.7 to +528.4), so its half width is printed as the "±". The likelihood of superiority is
1/2 (1 + erf((W - L) / sqrt(2 (W + L)))), the probability that the first bot is the stronger
(draws carry no information about it).
"""
from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054


def elo_from_score(score: float) -> float | None:
    """The logistic Elo difference of an expected score (None at 0 or 1: infinite)."""
    if not 0.0 < score < 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0.0" at an even score


def score_interval(score: float, draw_rate: float, games: int,
                   z: float = Z95) -> tuple[float, float]:
    """Wilson's interval of a score with draws (see the module's docstring): the true scores p
    with (score - p)^2 <= z^2 (p (1 - p) - draw_rate / 4) / games."""
    k = z * z / games
    b = 2.0 * score + k
    c = score * score + k * draw_rate / 4.0
    root = math.sqrt(max(0.0, b * b - 4.0 * (1.0 + k) * c))
    return max(0.0, (b - root) / (2.0 * (1.0 + k))), min(1.0, (b + root) / (2.0 * (1.0 + k)))


def elo_summary(wins: int, losses: int, draws: int) -> dict[str, Any]:
    """Games, score, Elo difference, its 95% interval and the likelihood of superiority.
    `elo` is None (infinite) when one side scored everything; `elo_low`/`elo_high` are the
    ends of the 95% interval, None only at a score of 0 (low) or 1 (high); `error` is half
    the interval's width (None when an end is infinite)."""
    n = wins + losses + draws
    out: dict[str, Any] = {"games": n, "wins": wins, "losses": losses, "draws": draws,
                           "score": None, "elo": None, "error": None, "elo_low": None,
                           "elo_high": None, "los": 0.5}
    if n == 0:
        return out
    s = (wins + 0.5 * draws) / n
    low_score, high_score = score_interval(s, draws / n, n)
    low, high = elo_from_score(low_score), elo_from_score(high_score)
    out.update(score=s, elo=elo_from_score(s), elo_low=low, elo_high=high,
               error=(high - low) / 2 if low is not None and high is not None else None)
    if wins + losses:
        out["los"] = 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))
    return out


def elo_text(summary: dict[str, Any]) -> str:
    """The Elo difference of `elo_summary` in words with its 95% interval: "+34.9 ± 164.7"
    when the interval is nearly symmetric, else its ends, and
    the one finite end when a side won every game ("+inf (at least +407.0)")."""
    elo, low, high = summary["elo"], summary["elo_low"], summary["elo_high"]
    if summary["games"] == 0:
        return "unknown (no games)"
    if elo is None:
        if summary["score"] > 0.5:
            return "+inf" + (f" (at least {low:+.1f})" if low is not None else "")
        return "-inf" + (f" (at most {high:+.1f})" if high is not None else "")
    if low is not None and high is not None:
        above, below = high - elo, elo - low
        if abs(above - below) <= 0.05 * (above + below) / 2:
            return f"{elo:+.1f} ± {(above + below) / 2:.1f}"
    return (f"{elo:+.1f} ({'-inf' if low is None else f'{low:+.1f}'} to "
            f"{'+inf' if high is None else f'{high:+.1f}'})")
