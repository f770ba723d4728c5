"""TrueSkill's update after one free-for-all game, computed as the `trueskill` package does.

`trueskill.TrueSkill.rate` builds a factor graph of Gaussian objects for every game and passes
messages through it; for a tournament's closing ladder that cost about as much as playing a quick
game. `rate_free_for_all` sends the very same messages, in the same order and with the same
floating-point operations, on C doubles (ladder/tournament/trueskill_c.pyx) for the case the ladder
needs (one player per team, weight 1, the package's default environment class and backend): the
ratings are equal to `rate`'s bit for bit (the tests compare them over many games), about a hundred
times faster. Anything else, and anything the package would refuse, goes to `rate` itself.
"""
from __future__ import annotations

from typing import Sequence

import trueskill

from ladder.tournament.trueskill_c import rate as _rate_c

# The draw margin between two players, by (draw probability, beta), under the default backend.
_MARGINS: dict[tuple[float, float], float] = {}


def rate_free_for_all(env: trueskill.TrueSkill, ratings: Sequence[trueskill.Rating],
                      ranks: Sequence[int]) -> list[trueskill.Rating]:
    """The new rating of each player after a free-for-all game (ranks: 0 = first, equal = a
    draw): what `env.rate([(r,) for r in ratings], ranks=ranks)` gives, as a flat list."""
    n = len(ratings)
    if (n >= 2 and len(ranks) == n and type(env) is trueskill.TrueSkill and env.backend is None
            and not callable(env.draw_probability)):
        order = sorted(range(n), key=lambda i: ranks[i])  # stable, as rate's sort
        key = (env.draw_probability, env.beta)
        margin = _MARGINS.get(key)
        if margin is None:
            margin = _MARGINS[key] = trueskill.calc_draw_margin(env.draw_probability, 2, env)
        rated = _rate_c([ratings[i].mu for i in order], [ratings[i].sigma for i in order],
                        [ranks[i] for i in order], env.beta, env.tau, margin)
        if rated is not None:
            out: list[trueskill.Rating] = [None] * n  # type: ignore[list-item]
            for (mu, sigma), i in zip(rated, order):
                out[i] = trueskill.Rating(float(mu), float(sigma))
            return out
    return [g[0] for g in env.rate([(r,) for r in ratings], ranks=ranks)]
