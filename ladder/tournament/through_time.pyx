# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
"""TrueSkill Through Time without drift: the skills of a pool's bots given all its games at once.

TrueSkill's online update rates one game at a time and lets every skill drift between games
(its tau), so the last games weigh most and the order they were stored in moves the ratings. A
bot's strength does not change between its games: here every bot has one skill for all its
games, and expectation propagation finds the posterior given every game together (TrueSkill
Through Time, Dangauthier, Herbrich, Minka and Graepel 2007; Landfried and Mocskos 2022, with
gamma 0). The model and the C contract are in through_time.pxd; `fit` is the Python face.

The performance chain of a free-for-all game is TrueSkill's (a difference factor between each
two consecutive places, truncated above the draw margin for a win, within it for a draw),
iterated here until its messages settle, so that a game's messages are a function of its
cavities alone. The tests compare `fit` with the `trueskillthroughtime` package on the same
games.
"""
from libc.math cimport INFINITY, erfc, exp, fabs, sqrt
from libc.stdlib cimport calloc, free, malloc

import numpy as np

cdef double SQRT2 = sqrt(2.0)
cdef double INV_SQRT_2PI = 1.0 / sqrt(2.0 * 3.141592653589793)
# Below this standardized difference the normal tail underflows: its asymptotic form is used.
cdef double TAIL = -35.0
# The chain of a game with three or more seats: iterated until its messages move less than
# this, or this many passes.
cdef double CHAIN_TOLERANCE = 1e-11
cdef int CHAIN_PASSES = 200
# w (the share of variance a truncation removes) is kept inside [0, 1 - W_CAP_GAP].
cdef double W_CAP_GAP = 1e-12
# The damping of a fit's sweeps never falls below this.
cdef double MIN_DAMPING = 1.0 / 1024
# `skills` enters identical games as entries of at most this many copies. Updating many copies
# at once overshoots (each copy's new message counts that many times) and needs damping so
# strong that a pool one bot dominates did not converge in 100,000 sweeps: one copy an entry,
# updated in turn, converges in a few hundred.
cdef int GROUP = 1
# The damping's growth after a sweep whose moves shrank without turning back.
cdef double RECOVERY = 1.0
# The common level is extrapolated only from drift ratios below this (and by less than the
# prior sigma): nearer 1 a ratio is not yet a geometric creep.
cdef double MAX_RATIO = 0.99999
# ... and only once two successive ratios agree within this share of 1 - ratio.
cdef double AGREE = 0.01


cdef inline double _pdf(double x) noexcept nogil:
    return INV_SQRT_2PI * exp(-0.5 * x * x)


cdef inline double _cdf(double x) noexcept nogil:
    return 0.5 * erfc(-x / SQRT2)


cdef inline void _truncate_win(double t, double* v, double* w) noexcept nogil:
    """v and w of a difference known to exceed the margin; t = (mean - margin) / sd."""
    cdef double d
    if t < TAIL:
        v[0] = -t - 1.0 / t + 2.0 / (t * t * t)
    else:
        d = _cdf(t)
        v[0] = _pdf(t) / d
    w[0] = v[0] * (v[0] + t)


cdef inline void _truncate_draw(double x, double eps, double* v, double* w) noexcept nogil:
    """v and w of a difference known to lie within the margin; x = mean / sd, eps = margin / sd."""
    cdef double ax = fabs(x)
    cdef double a = eps - ax, b = -eps - ax
    cdef double denom = _cdf(a) - _cdf(b)
    cdef double sign = -1.0 if x < 0 else 1.0
    if denom < 1e-300:
        # far outside the margin: the posterior sits at its nearer edge
        v[0] = a * sign
        w[0] = 1.0
        return
    v[0] = (_pdf(b) - _pdf(a)) / denom
    w[0] = v[0] * v[0] + (a * _pdf(a) - b * _pdf(b)) / denom
    v[0] *= sign


cdef inline double _diff(int e, int n, const int* rank, const double* pm, const double* pv,
                         double* l_pi, double* l_tau, double* r_pi, double* r_tau,
                         double margin) noexcept nogil:
    """Update difference e (places e and e + 1): its messages to both places (l: to place e,
    r: to place e + 1); returns how much they moved."""
    cdef double a_pi = 1.0 / pv[e], a_tau = pm[e] / pv[e]
    cdef double b_pi = 1.0 / pv[e + 1], b_tau = pm[e + 1] / pv[e + 1]
    cdef double a_mean, a_var, b_mean, b_var, d_mean, d_var, sd, v, w
    cdef double lik_pi, lik_tau, lik_mean, lik_var, new_l_pi, new_l_tau, new_r_pi, new_r_tau
    cdef double moved
    if e > 0:
        a_pi += r_pi[e - 1]
        a_tau += r_tau[e - 1]
    if e + 1 < n - 1:
        b_pi += l_pi[e + 1]
        b_tau += l_tau[e + 1]
    a_mean = a_tau / a_pi
    a_var = 1.0 / a_pi
    b_mean = b_tau / b_pi
    b_var = 1.0 / b_pi
    d_mean = a_mean - b_mean
    d_var = a_var + b_var
    sd = sqrt(d_var)
    if rank[e] == rank[e + 1]:
        _truncate_draw(d_mean / sd, margin / sd, &v, &w)
    else:
        _truncate_win((d_mean - margin) / sd, &v, &w)
    if not (w > 0.0):  # also NaN: the game says nothing here
        w = 0.0
    elif w > 1.0 - W_CAP_GAP:
        w = 1.0 - W_CAP_GAP
    # the truncation's message to the difference (posterior / prior), without cancellation
    lik_pi = w / ((1.0 - w) * d_var)
    lik_tau = (d_mean * w + sd * v) / ((1.0 - w) * d_var)
    if lik_pi > 0.0:
        lik_mean = lik_tau / lik_pi
        lik_var = 1.0 / lik_pi
        new_l_pi = 1.0 / (b_var + lik_var)
        new_l_tau = (b_mean + lik_mean) * new_l_pi
        new_r_pi = 1.0 / (a_var + lik_var)
        new_r_tau = (a_mean - lik_mean) * new_r_pi
    else:
        new_l_pi = new_l_tau = new_r_pi = new_r_tau = 0.0
    moved = fabs(new_l_pi - l_pi[e]) + fabs(new_l_tau - l_tau[e])
    moved += fabs(new_r_pi - r_pi[e]) + fabs(new_r_tau - r_tau[e])
    l_pi[e] = new_l_pi
    l_tau[e] = new_l_tau
    r_pi[e] = new_r_pi
    r_tau[e] = new_r_tau
    return moved


cdef int tt_game(int n, const int* rank, const double* cav_pi, const double* cav_tau,
                 const TTModel* model, double* out_pi, double* out_tau) noexcept nogil:
    cdef double pm[TT_MAX_SEATS]
    cdef double pv[TT_MAX_SEATS]
    cdef double l_pi[TT_MAX_SEATS]
    cdef double l_tau[TT_MAX_SEATS]
    cdef double r_pi[TT_MAX_SEATS]
    cdef double r_tau[TT_MAX_SEATS]
    cdef double b2 = model.beta * model.beta, moved, lk_pi, lk_tau, var
    cdef int i, e, p
    if n < 0 or n > TT_MAX_SEATS:
        return -1
    if n < 2:
        for i in range(n):
            out_pi[i] = 0.0
            out_tau[i] = 0.0
        return 0
    for i in range(n):
        pv[i] = 1.0 / cav_pi[i] + b2
        pm[i] = cav_tau[i] / cav_pi[i]
        l_pi[i] = l_tau[i] = r_pi[i] = r_tau[i] = 0.0
    for p in range(CHAIN_PASSES):
        moved = 0.0
        for e in range(n - 1):
            moved += _diff(e, n, rank, pm, pv, l_pi, l_tau, r_pi, r_tau, model.margin)
        for e in range(n - 3, -1, -1):
            moved += _diff(e, n, rank, pm, pv, l_pi, l_tau, r_pi, r_tau, model.margin)
        if n == 2 or moved < CHAIN_TOLERANCE:
            break
    for i in range(n):
        # the place's likelihood from its two differences, widened by the performance noise
        lk_pi = (l_pi[i] if i < n - 1 else 0.0) + (r_pi[i - 1] if i > 0 else 0.0)
        lk_tau = (l_tau[i] if i < n - 1 else 0.0) + (r_tau[i - 1] if i > 0 else 0.0)
        if lk_pi > 0.0:
            var = 1.0 / lk_pi + b2
            out_pi[i] = 1.0 / var
            out_tau[i] = (lk_tau / lk_pi) / var
        else:
            out_pi[i] = 0.0
            out_tau[i] = 0.0
    return 0


cdef void tt_posteriors(TTPool* pool, const TTModel* model) noexcept nogil:
    cdef double prior_pi = 1.0 / (model.sigma * model.sigma)
    cdef double k
    cdef int b, g, s
    for b in range(pool.n_bots):
        pool.post_pi[b] = prior_pi
        pool.post_tau[b] = model.mu * prior_pi
    for g in range(pool.n_games):
        for s in range(pool.start[g], pool.start[g + 1]):
            b = pool.bot[s]
            k = pool.count[g] * pool.weight[s]
            pool.post_pi[b] += k * pool.msg_pi[s]
            pool.post_tau[b] += k * pool.msg_tau[s]


cdef void tt_sweep(TTPool* pool, const TTModel* model, double damping) noexcept nogil:
    cdef double cav_pi[TT_MAX_SEATS]
    cdef double cav_tau[TT_MAX_SEATS]
    cdef double out_pi[TT_MAX_SEATS]
    cdef double out_tau[TT_MAX_SEATS]
    cdef double new_pi, new_tau, k, step
    cdef int g, s, s0, n, b, i
    for g in range(pool.n_games):
        s0 = pool.start[g]
        n = pool.start[g + 1] - s0
        if n < 2:
            continue
        step = damping
        # the cavity: each bot's posterior without one copy of this game
        for i in range(n):
            cav_pi[i] = pool.post_pi[pool.bot[s0 + i]]
            cav_tau[i] = pool.post_tau[pool.bot[s0 + i]]
        for s in range(s0, s0 + n):
            b = pool.bot[s]
            for i in range(n):
                if pool.bot[s0 + i] == b:
                    cav_pi[i] -= pool.weight[s] * pool.msg_pi[s]
                    cav_tau[i] -= pool.weight[s] * pool.msg_tau[s]
        tt_game(n, pool.rank + s0, cav_pi, cav_tau, model, out_pi, out_tau)
        for i in range(n):
            s = s0 + i
            b = pool.bot[s]
            new_pi = pool.msg_pi[s] + step * (out_pi[i] - pool.msg_pi[s])
            new_tau = pool.msg_tau[s] + step * (out_tau[i] - pool.msg_tau[s])
            k = pool.count[g] * pool.weight[s]
            pool.post_pi[b] += k * (new_pi - pool.msg_pi[s])
            pool.post_tau[b] += k * (new_tau - pool.msg_tau[s])
            pool.msg_pi[s] = new_pi
            pool.msg_tau[s] = new_tau


cdef void _shift(TTPool* pool, double c) noexcept nogil:
    """Move every message's mean by c (a game's messages depend on differences of skills
    only: shifting every cavity by c shifts its messages by c)."""
    cdef int s
    for s in range(pool.start[pool.n_games]):
        pool.msg_tau[s] += c * pool.msg_pi[s]


cdef int tt_fit(TTPool* pool, const TTModel* model, double tolerance, int max_sweeps) noexcept nogil:
    cdef double* last_mu = <double*> malloc(max(pool.n_bots, 1) * sizeof(double))
    cdef double* last_sd = <double*> malloc(max(pool.n_bots, 1) * sizeof(double))
    cdef double* last_step = <double*> calloc(max(pool.n_bots, 1), sizeof(double))
    cdef double turn, step
    cdef double change, previous = INFINITY, mu, sd, damping = 1.0
    cdef double drift, last_drift = 0.0, ratio, last_ratio = 0.0
    cdef int b, sweeps = 0
    if last_mu == NULL or last_sd == NULL or last_step == NULL:
        free(last_mu)
        free(last_sd)
        free(last_step)
        return 0
    tt_posteriors(pool, model)
    for b in range(pool.n_bots):
        last_mu[b] = pool.post_tau[b] / pool.post_pi[b]
        last_sd[b] = 1.0 / sqrt(pool.post_pi[b])
    change = tolerance + 1.0
    while sweeps < max_sweeps:
        tt_sweep(pool, model, damping)
        tt_posteriors(pool, model)  # afresh: no rounding carried from sweep to sweep
        sweeps += 1
        change = 0.0
        drift = 0.0
        turn = 0.0
        for b in range(pool.n_bots):
            mu = pool.post_tau[b] / pool.post_pi[b]
            sd = 1.0 / sqrt(pool.post_pi[b])
            step = mu - last_mu[b]
            change = max(change, fabs(step), fabs(sd - last_sd[b]))
            drift += step / pool.n_bots
            turn += step * last_step[b]
            last_step[b] = step
            last_mu[b] = mu
            last_sd[b] = sd
        # a damped sweep moves by a share of the distance left: the test scales with it
        if not (change >= tolerance):  # NaN stops too, as not converged below
            break
        # an entry of many copies can overshoot: its moves grow or swing back and forth; while
        # they shrink steadily, the damping recovers
        if change > previous or turn < 0.0:
            if damping > MIN_DAMPING:
                damping *= 0.5
        elif damping < 1.0:
            damping = min(1.0, damping * RECOVERY)
        previous = change
        # The skills' common level is held by the prior alone (the games say nothing about it)
        # and creeps toward its fixed point geometrically, by a ratio close to 1: once two
        # successive ratios agree, the rest of the creep is added at once (Aitken's
        # extrapolation). The fixed point is unchanged; only the sweeps to reach it are fewer.
        ratio = drift / last_drift if last_drift != 0.0 else 0.0
        if (0.5 < ratio < MAX_RATIO and fabs(ratio - last_ratio) < AGREE * (1.0 - ratio)
                and fabs(drift * ratio / (1.0 - ratio)) < model.sigma):
            _shift(pool, drift * ratio / (1.0 - ratio))
            tt_posteriors(pool, model)
            for b in range(pool.n_bots):
                last_mu[b] = pool.post_tau[b] / pool.post_pi[b]
                last_sd[b] = 1.0 / sqrt(pool.post_pi[b])
            ratio = 0.0
            drift = 0.0
            previous = INFINITY
            for b in range(pool.n_bots):
                last_step[b] = 0.0

        last_ratio = ratio
        last_drift = drift
    free(last_mu)
    free(last_sd)
    free(last_step)
    return sweeps if change < tolerance else -sweeps


class Fit:
    """The result of `fit`: each bot's posterior mean and deviation, the entries' messages, the
    sweeps made and whether they converged."""

    __slots__ = ("mu", "sigma", "msg_pi", "msg_tau", "sweeps", "converged")

    def __init__(self, mu, sigma, msg_pi, msg_tau, sweeps: int, converged: bool) -> None:
        self.mu = mu
        self.sigma = sigma
        self.msg_pi = msg_pi
        self.msg_tau = msg_tau
        self.sweeps = sweeps
        self.converged = converged


def fit(start, bot, rank, weight, count, int n_bots, *, double mu, double sigma, double beta,
        double margin, double tolerance=1e-9, int max_sweeps=100000) -> Fit:
    """Fit the skills of `n_bots` bots to the entries in `start`/`bot`/`rank`/`weight`/`count`
    (the arrays of through_time.pxd's TTPool; each entry's seats in rank order)."""
    cdef int[::1] c_start = np.ascontiguousarray(start, dtype=np.intc)
    cdef int[::1] c_bot = np.ascontiguousarray(bot, dtype=np.intc)
    cdef int[::1] c_rank = np.ascontiguousarray(rank, dtype=np.intc)
    cdef double[::1] c_weight = np.ascontiguousarray(weight, dtype=np.float64)
    cdef double[::1] c_count = np.ascontiguousarray(count, dtype=np.float64)
    cdef Py_ssize_t seats = c_bot.shape[0]
    cdef int n_games = c_start.shape[0] - 1
    cdef Py_ssize_t g, s
    if n_games < 0 or c_start[0] != 0 or c_start[n_games] != seats:
        raise ValueError("start must run from 0 to the number of seats")
    if c_rank.shape[0] != seats or c_weight.shape[0] != seats or c_count.shape[0] != n_games:
        raise ValueError("bot, rank and weight need one entry per seat, count one per game")
    if not (sigma > 0 and beta > 0 and margin >= 0):
        raise ValueError("sigma and beta must be positive and the margin not negative")
    for g in range(n_games):
        if not 0 <= c_start[g + 1] - c_start[g] <= TT_MAX_SEATS:
            raise ValueError(f"game {g} has {c_start[g + 1] - c_start[g]} seats "
                             f"(at most {TT_MAX_SEATS})")
        if not c_count[g] > 0:
            raise ValueError(f"game {g}'s count is not positive")
        for s in range(c_start[g] + 1, c_start[g + 1]):
            if c_rank[s] < c_rank[s - 1]:
                raise ValueError(f"game {g}'s seats are not in rank order")
    for s in range(seats):
        if not (0 <= c_bot[s] < n_bots and 0 < c_weight[s] <= 1):
            raise ValueError(f"seat {s}'s bot or weight is out of range")
    out_pi = np.zeros(seats)
    out_tau = np.zeros(seats)
    post_pi = np.zeros(max(n_bots, 1))
    post_tau = np.zeros(max(n_bots, 1))
    cdef double[::1] m_pi = out_pi, m_tau = out_tau, p_pi = post_pi, p_tau = post_tau
    cdef TTModel model
    model.mu = mu
    model.sigma = sigma
    model.beta = beta
    model.margin = margin
    cdef TTPool pool
    pool.n_games = n_games
    pool.n_bots = n_bots
    pool.start = &c_start[0]
    pool.bot = &c_bot[0] if seats else NULL
    pool.rank = &c_rank[0] if seats else NULL
    pool.weight = &c_weight[0] if seats else NULL
    pool.count = &c_count[0] if n_games else NULL
    pool.msg_pi = &m_pi[0] if seats else NULL
    pool.msg_tau = &m_tau[0] if seats else NULL
    pool.post_pi = &p_pi[0]
    pool.post_tau = &p_tau[0]
    cdef int sweeps
    with nogil:
        sweeps = tt_fit(&pool, &model, tolerance, max_sweeps)
    post_pi = post_pi[:n_bots]
    post_tau = post_tau[:n_bots]
    return Fit(post_tau / post_pi, 1.0 / np.sqrt(post_pi), out_pi, out_tau, abs(sweeps),
               sweeps > 0 or (sweeps == 0 and n_games == 0))


def skills(games, *, double mu, double sigma, double beta, double margin,
           double tolerance=1e-9) -> dict:
    """Each bot's (mu, sigma) given `games`, an iterable of games each a sequence of (bot,
    place) seats (place 0 first, equal places a draw; a bot may hold several seats). Games of
    fewer than two seats are ignored. The games are put in a canonical order (each game's
    seats by place, then name), so the answer depends only on which games there are: not on
    their order, not even in its last bit. Raises ArithmeticError if the fit does not
    converge (it always has: the game's likelihoods are log-concave)."""
    groups: dict = {}
    names: set = set()
    for game in games:
        seats = sorted((str(b), int(p)) for b, p in game)
        if len(seats) < 2:
            continue
        places = sorted({p for _, p in seats})
        dense = {p: i for i, p in enumerate(places)}
        key = tuple(sorted((dense[p], b) for b, p in seats))
        groups[key] = groups.get(key, 0) + 1
        names.update(b for b, _ in seats)
    order = sorted(names)
    index = {b: i for i, b in enumerate(order)}
    start, bot, rank, weight, count = [0], [], [], [], []
    for key in sorted(groups):
        copies: dict = {}
        for _, b in key:
            copies[b] = copies.get(b, 0) + 1
        left = groups[key]
        while left > 0:
            for place, b in key:
                bot.append(index[b])
                rank.append(place)
                weight.append(1.0 / copies[b])
            start.append(len(bot))
            count.append(min(left, GROUP))
            left -= GROUP
    result = fit(start, bot, rank, weight, count, len(order), mu=mu, sigma=sigma, beta=beta,
                 margin=margin, tolerance=tolerance)
    if not result.converged:
        raise ArithmeticError(f"the ratings did not converge in {result.sweeps} sweeps")
    return {b: (float(result.mu[i]), float(result.sigma[i])) for i, b in enumerate(order)}
