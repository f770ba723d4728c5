# cython: language_level=3
"""The free-for-all TrueSkill update of ladder/tournament/trueskill_ffa.py on C doubles.

The same messages in the same order with the same operations as the `trueskill` package's
factor graph under its default (pure Python) backend: the package's `erfc`, `cdf`, `pdf` and
V/W functions are written here as it writes them, and C doubles are Python floats, so the
results are equal bit for bit (the tests compare them). Whatever the package would refuse
(a FloatingPointError, a division by zero, a negative precision) is not decided here: `rate`
answers None and the caller asks the package, which raises as it always did.
"""
from libc.math cimport exp, sqrt, fabs, pow, INFINITY

cdef enum:
    MAX_PLAYERS = 16

cdef double SQRT2 = sqrt(2.0)
# Python's `x ** 2` is libm's pow(x, 2.0), not x * x: the exponents are variables (set when the
# module loads) so that the compiler does not turn pow(x, 2.0) into a product.
cdef double TWO = 2.0
cdef double MINUS_TWO = -2.0
cdef double INV_SQRT_2PI = 1 / sqrt(2 * 3.141592653589793)


cdef inline double _erfc(double x) noexcept nogil:
    cdef double z = fabs(x)
    cdef double t = 1. / (1. + z / 2.)
    cdef double r = t * exp(-z * z - 1.26551223 + t * (1.00002368 + t * (
        0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
            0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                -0.82215223 + t * 0.17087277
            )))
        )))
    )))
    return 2. - r if x < 0 else r


cdef inline double _cdf(double x) noexcept nogil:
    return 0.5 * _erfc(-(x - 0.0) / (1.0 * SQRT2))


cdef inline double _pdf(double x) noexcept nogil:
    return (INV_SQRT_2PI * 1.0 * exp(-(pow((x - 0.0) / 1.0, TWO) / 2.0)))


cdef inline double _v_win(double diff, double margin) noexcept nogil:
    cdef double x = diff - margin
    cdef double denom = _cdf(x)
    return (_pdf(x) / denom) if denom != 0 else -x


cdef inline double _v_draw(double diff, double margin) noexcept nogil:
    cdef double abs_diff = fabs(diff)
    cdef double a = margin - abs_diff, b = -margin - abs_diff
    cdef double denom = _cdf(a) - _cdf(b)
    cdef double numer = _pdf(b) - _pdf(a)
    return ((numer / denom) if denom != 0 else a) * (-1.0 if diff < 0 else 1.0)


cdef inline bint _w_win(double diff, double margin, double* w) noexcept nogil:
    cdef double x = diff - margin
    cdef double v = _v_win(diff, margin)
    w[0] = v * (v + x)
    return 0 < w[0] < 1


cdef inline bint _w_draw(double diff, double margin, double* w) noexcept nogil:
    cdef double abs_diff = fabs(diff)
    cdef double a = margin - abs_diff, b = -margin - abs_diff
    cdef double denom = _cdf(a) - _cdf(b)
    if denom == 0:
        return False
    cdef double v = _v_draw(abs_diff, margin)
    w[0] = pow(v, TWO) + (a * _pdf(a) - b * _pdf(b)) / denom
    return True


cdef inline double _delta(double old_pi, double old_tau, double pi, double tau) noexcept nogil:
    cdef double pi_delta = fabs(old_pi - pi)
    cdef double tau_delta
    if pi_delta == INFINITY:
        return 0.
    tau_delta = fabs(old_tau - tau)
    pi_delta = sqrt(pi_delta)
    return pi_delta if pi_delta > tau_delta else tau_delta


cdef struct Var:
    double pi, tau


cdef struct Graph:
    int n
    Var skill[MAX_PLAYERS]
    Var perf[MAX_PLAYERS]
    Var team[MAX_PLAYERS]
    Var diff[MAX_PLAYERS]
    # messages, named receiver_sender
    Var skill_prior[MAX_PLAYERS]
    Var skill_like[MAX_PLAYERS]
    Var perf_like[MAX_PLAYERS]
    Var perf_sum[MAX_PLAYERS]
    Var team_sum[MAX_PLAYERS]
    Var team_left[MAX_PLAYERS]     # from the difference j = i (team i its left term)
    Var team_right[MAX_PLAYERS]    # from the difference j = i - 1 (team i its right term)
    Var diff_sum[MAX_PLAYERS]
    Var diff_trunc[MAX_PLAYERS]
    double margin
    bint tie[MAX_PLAYERS]
    bint bad


cdef inline double _update_message(Var* var, Var* msg, double pi, double tau) noexcept nogil:
    cdef double old_pi = msg.pi, old_tau = msg.tau
    cdef double new_pi, new_tau, d
    msg.pi = pi
    msg.tau = tau
    new_pi = var.pi - old_pi + pi
    new_tau = var.tau - old_tau + tau
    d = _delta(var.pi, var.tau, new_pi, new_tau)
    var.pi = new_pi
    var.tau = new_tau
    return d


cdef inline double _update_value(Var* var, Var* msg, double pi, double tau) noexcept nogil:
    cdef double d
    msg.pi = pi + msg.pi - var.pi
    msg.tau = tau + msg.tau - var.tau
    d = _delta(var.pi, var.tau, pi, tau)
    var.pi = pi
    var.tau = tau
    return d


cdef inline void _term(Graph* g, Var* val, Var* msg, double coeff, double* mu,
                       double* pi_inv) noexcept nogil:
    cdef double d_pi = val.pi - msg.pi, d_tau = val.tau - msg.tau
    mu[0] += coeff * ((d_tau / d_pi) if d_pi != 0 else d_pi)
    if pi_inv[0] == INFINITY:
        return
    if d_pi == 0:
        pi_inv[0] = INFINITY
    else:
        pi_inv[0] += pow(coeff, TWO) / d_pi


cdef inline double _sum2(Graph* g, Var* var, Var* var_msg, Var* a, Var* a_msg, double ca,
                         Var* b, Var* b_msg, double cb) noexcept nogil:
    """A sum factor's message to `var` from `a` and `b` (coefficients ca, cb)."""
    cdef double mu = 0, pi_inv = 0, pi
    _term(g, a, a_msg, ca, &mu, &pi_inv)
    _term(g, b, b_msg, cb, &mu, &pi_inv)
    if pi_inv == 0:
        g.bad = True
        return 0
    pi = 1. / pi_inv
    return _update_message(var, var_msg, pi, pi * mu)


cdef inline double _sum1(Graph* g, Var* var, Var* var_msg, Var* a, Var* a_msg,
                         double ca) noexcept nogil:
    cdef double mu = 0, pi_inv = 0, pi
    _term(g, a, a_msg, ca, &mu, &pi_inv)
    if pi_inv == 0:
        g.bad = True
        return 0
    pi = 1. / pi_inv
    return _update_message(var, var_msg, pi, pi * mu)


cdef inline void _down(Graph* g, int j) noexcept nogil:
    _sum2(g, &g.diff[j], &g.diff_sum[j], &g.team[j], &g.team_left[j], 1.0,
          &g.team[j + 1], &g.team_right[j + 1], -1.0)


cdef inline void _up(Graph* g, int j, int index) noexcept nogil:
    if index == 0:
        _sum2(g, &g.team[j], &g.team_left[j], &g.diff[j], &g.diff_sum[j], 1.0,
              &g.team[j + 1], &g.team_right[j + 1], 1.0)
    else:
        _sum2(g, &g.team[j + 1], &g.team_right[j + 1], &g.team[j], &g.team_left[j], 1.0,
              &g.diff[j], &g.diff_sum[j], -1.0)


cdef inline double _trunc(Graph* g, int j) noexcept nogil:
    cdef Var* var = &g.diff[j]
    cdef Var* msg = &g.diff_trunc[j]
    cdef double d_pi = var.pi - msg.pi, d_tau = var.tau - msg.tau
    cdef double sqrt_pi, x, m, v, w, denom
    if d_pi <= 0:  # the package: a math domain error or a division by zero
        g.bad = True
        return 0
    sqrt_pi = sqrt(d_pi)
    x = d_tau / sqrt_pi
    m = g.margin * sqrt_pi
    if g.tie[j]:
        v = _v_draw(x, m)
        if not _w_draw(x, m, &w):
            g.bad = True
            return 0
    else:
        v = _v_win(x, m)
        if not _w_win(x, m, &w):
            g.bad = True
            return 0
    denom = (1. - w)
    if denom == 0:
        g.bad = True
        return 0
    return _update_value(var, msg, d_pi / denom, (d_tau + sqrt_pi * v) / denom)


cdef inline void _like(Var* src, Var* src_msg, Var* dst, Var* dst_msg,
                       double beta2) noexcept nogil:
    cdef double d_pi = src.pi - src_msg.pi, d_tau = src.tau - src_msg.tau
    cdef double a = 1. / (1. + beta2 * d_pi)
    _update_message(dst, dst_msg, a * d_pi, a * d_tau)


def rate(list mus, list sigmas, list ranks, double beta, double tau, double margin):
    """The (mu, sigma) of each player, in rank order (the caller sorts them, as the package
    does), after one free-for-all game; None when the package is to decide (see above)."""
    cdef Graph g
    cdef int n = len(mus), i, j, last, it
    cdef double sigma, pi, delta, d, beta2 = pow(beta, TWO)
    if n < 2 or n > MAX_PLAYERS:
        return None
    # every variable and message starts at N(pi=0, tau=0)
    cdef char* raw = <char*>&g
    for i in range(sizeof(Graph)):
        raw[i] = 0
    g.n = n
    g.margin = margin
    g.bad = False
    for j in range(n - 1):
        g.tie[j] = ranks[j] == ranks[j + 1]
    for i in range(n):
        sigma = sqrt(pow(<double>sigmas[i], TWO) + pow(tau, TWO))
        pi = pow(sigma, MINUS_TWO)
        _update_value(&g.skill[i], &g.skill_prior[i], pi, pi * <double>mus[i])
    for i in range(n):
        _like(&g.skill[i], &g.skill_like[i], &g.perf[i], &g.perf_like[i], beta2)
    for i in range(n):
        _sum1(&g, &g.team[i], &g.team_sum[i], &g.perf[i], &g.perf_sum[i], 1.0)
    last = n - 2
    for it in range(10):
        if last == 0:
            _down(&g, 0)
            delta = _trunc(&g, 0)
        else:
            delta = 0
            for j in range(last):
                _down(&g, j)
                d = _trunc(&g, j)
                if d > delta:
                    delta = d
                _up(&g, j, 1)
            for j in range(last, 0, -1):
                _down(&g, j)
                d = _trunc(&g, j)
                if d > delta:
                    delta = d
                _up(&g, j, 0)
        if g.bad:
            return None
        if delta <= 0.0001:
            break
    _up(&g, 0, 0)
    _up(&g, last, 1)
    for i in range(n):
        _sum1(&g, &g.perf[i], &g.perf_sum[i], &g.team[i], &g.team_sum[i], 1.0)
    for i in range(n):
        _like(&g.perf[i], &g.perf_like[i], &g.skill[i], &g.skill_like[i], beta2)
    if g.bad:
        return None
    out = []
    for i in range(n):
        pi = g.skill[i].pi
        if pi < 0:
            return None
        out.append(((g.skill[i].tau / pi) if pi != 0 else pi,
                    sqrt(1 / pi) if pi != 0 else INFINITY))
    return out
