"""TrueSkill's update after one free-for-all game, computed as the `trueskill` package does.

`trueskill.TrueSkill.rate` builds a factor graph of Gaussian objects for every game and passes
messages through it; for a tournament's closing ladder that costs about as much as playing a
quick game. `rate_free_for_all` sends the very same messages, in the same order and with the
same floating-point operations, for the one case the ladder needs (one player per team, weight
1), on plain floats: the ratings it returns are equal to `rate`'s, bit for bit (the tests compare
them over many games), several times faster. Anything else goes to `rate` itself.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import trueskill

_INF = float("inf")
# The least change of a message that still asks for another pass (trueskill's DELTA).
_MIN_DELTA = trueskill.DELTA


class _Var:
    """A variable of the factor graph: its Gaussian (precision `pi`, precision-adjusted mean
    `tau`) and the message each factor last sent it (factor key -> (pi, tau))."""

    __slots__ = ("pi", "tau", "msg")

    def __init__(self) -> None:
        self.pi = 0
        self.tau = 0
        self.msg: dict[int, tuple[float, float]] = {}

    def update_message(self, factor: int, pi: float, tau: float) -> float:
        """Replace `factor`'s message by N(pi, tau); returns how much the variable moved."""
        old_pi, old_tau = self.msg[factor]
        self.msg[factor] = (pi, tau)
        new_pi, new_tau = self.pi - old_pi + pi, self.tau - old_tau + tau
        pi_delta = abs(self.pi - new_pi)
        delta = 0. if pi_delta == _INF else max(abs(self.tau - new_tau), math.sqrt(pi_delta))
        self.pi, self.tau = new_pi, new_tau
        return delta

    def update_value(self, factor: int, pi: float, tau: float) -> float:
        """Set the variable to N(pi, tau), `factor`'s message following; returns how much the
        variable moved."""
        old_pi, old_tau = self.msg[factor]
        self.msg[factor] = (pi + old_pi - self.pi, tau + old_tau - self.tau)
        pi_delta = abs(self.pi - pi)
        delta = 0. if pi_delta == _INF else max(abs(self.tau - tau), math.sqrt(pi_delta))
        self.pi, self.tau = pi, tau
        return delta


def _sum_update(factor: int, var: _Var, vals: Sequence[_Var], coeffs: Sequence[float]) -> float:
    """A sum factor's message to `var` from the other variables `vals` (trueskill's
    SumFactor.update)."""
    pi_inv: float = 0
    mu: float = 0
    for val, coeff in zip(vals, coeffs):
        m_pi, m_tau = val.msg[factor]
        d_pi, d_tau = val.pi - m_pi, val.tau - m_tau
        mu += coeff * (d_pi and d_tau / d_pi)
        if pi_inv == _INF:
            continue
        try:
            pi_inv += coeff ** 2 / float(d_pi)
        except ZeroDivisionError:
            pi_inv = _INF
    pi = 1. / pi_inv
    return var.update_message(factor, pi, pi * mu)


def _truncate_up(factor: int, var: _Var, v_func: Callable[[float, float], float],
                 w_func: Callable[[float, float], float], draw_margin: float) -> float:
    m_pi, m_tau = var.msg[factor]
    d_pi, d_tau = var.pi - m_pi, var.tau - m_tau
    sqrt_pi = math.sqrt(d_pi)
    args = (d_tau / sqrt_pi, draw_margin * sqrt_pi)
    v = v_func(*args)
    w = w_func(*args)
    denom = (1. - w)
    return var.update_value(factor, d_pi / denom, (d_tau + sqrt_pi * v) / denom)


def rate_free_for_all(env: trueskill.TrueSkill, ratings: Sequence[trueskill.Rating],
                      ranks: Sequence[int]) -> list[trueskill.Rating]:
    """The new rating of each player after a free-for-all game (ranks: 0 = first, equal = a
    draw): what `env.rate([(r,) for r in ratings], ranks=ranks)` gives, as a flat list."""
    n = len(ratings)
    if n < 2 or len(ranks) != n or callable(env.draw_probability):
        return [g[0] for g in env.rate([(r,) for r in ratings], ranks=ranks)]
    order = sorted(range(n), key=lambda i: ranks[i])  # stable, as rate's sort
    rated = [ratings[i] for i in order]
    ranked = [ranks[i] for i in order]
    beta2 = env.beta ** 2
    skill = [_Var() for _ in range(n)]
    perf = [_Var() for _ in range(n)]
    team = [_Var() for _ in range(n)]
    diff = [_Var() for _ in range(n - 1)]
    # factor keys: i the prior of player i, L + i its likelihood, S + i its team's sum, D + j
    # the j-th difference, T + j its truncation; every message starts at N(pi=0, tau=0)
    L, S, D, T = n, 2 * n, 3 * n, 4 * n
    for i in range(n):
        skill[i].msg[i] = skill[i].msg[L + i] = (0, 0)
        perf[i].msg[L + i] = perf[i].msg[S + i] = (0, 0)
        team[i].msg[S + i] = (0, 0)
    # the prior, likelihood and team layers, down
    for i, r in enumerate(rated):
        sigma = math.sqrt(r.sigma ** 2 + env.tau ** 2)
        pi = sigma ** -2
        skill[i].update_value(i, pi, pi * r.mu)
    for i in range(n):
        key = L + i
        m_pi, m_tau = skill[i].msg[key]
        d_pi, d_tau = skill[i].pi - m_pi, skill[i].tau - m_tau
        a = 1. / (1. + beta2 * d_pi)
        perf[i].update_message(key, a * d_pi, a * d_tau)
    for i in range(n):
        _sum_update(S + i, team[i], [perf[i]], [1])
    # the difference and truncation layers
    funcs = []
    for j in range(n - 1):
        d, t = D + j, T + j
        team[j].msg[d] = team[j + 1].msg[d] = diff[j].msg[d] = (0, 0)
        diff[j].msg[t] = (0, 0)
        margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
        tie = ranked[j] == ranked[j + 1]
        funcs.append((env.v_draw, env.w_draw, margin) if tie else (env.v_win, env.w_win, margin))

    def down(j: int) -> None:
        _sum_update(D + j, diff[j], [team[j], team[j + 1]], [+1, -1])

    def trunc(j: int) -> float:
        v_func, w_func, margin = funcs[j]
        return _truncate_up(T + j, diff[j], v_func, w_func, margin)

    def up(j: int, index: int) -> None:
        if index == 0:
            _sum_update(D + j, team[j], [diff[j], team[j + 1]], [1. / 1, -(-1) / 1])
        else:
            _sum_update(D + j, team[j + 1], [team[j], diff[j]], [-1 / -1, 1. / -1])

    last = n - 2
    for _ in range(10):
        if last == 0:
            down(0)
            delta: float = trunc(0)
        else:
            delta = 0
            for j in range(last):
                down(j)
                delta = max(delta, trunc(j))
                up(j, 1)
            for j in range(last, 0, -1):
                down(j)
                delta = max(delta, trunc(j))
                up(j, 0)
        if delta <= _MIN_DELTA:
            break
    up(0, 0)
    up(last, 1)
    for i in range(n):
        _sum_update(S + i, perf[i], [team[i]], [1. / 1])
    for i in range(n):
        key = L + i
        m_pi, m_tau = perf[i].msg[key]
        d_pi, d_tau = perf[i].pi - m_pi, perf[i].tau - m_tau
        a = 1. / (1. + beta2 * d_pi)
        skill[i].update_message(key, a * d_pi, a * d_tau)
    out: list[trueskill.Rating] = [None] * n  # type: ignore[list-item]
    for k, i in enumerate(order):
        var = skill[k]
        mu = var.pi and var.tau / var.pi
        sigma = math.sqrt(1 / var.pi) if var.pi else _INF
        out[i] = trueskill.Rating(float(mu), float(sigma))
    return out
