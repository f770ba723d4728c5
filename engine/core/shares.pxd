# Win shares from per-seat estimates: the last step every multi-player evaluation shares.
#
# An evaluation (hand-written or learned) estimates each seat's final score, or a score whose
# softmax is the win's share; the search wants shares of the win that sum to 1. Inline, nogil,
# never fails.

from libc.math cimport exp


cdef inline void win_shares(const double* est, int n, double t, double* out) noexcept nogil:
    """out[i] = exp(est[i] / t) / sum over j < n of exp(est[j] / t): each of the n >= 1 seats'
    share of the win at temperature t > 0 (the larger t, the flatter). Computed from the largest
    estimate down, so no exp overflows. `out` may be `est` itself (each est[i] is read before
    out[i] is written)."""
    cdef int i
    cdef double best = est[0], total = 0.0
    for i in range(1, n):
        if est[i] > best:
            best = est[i]
    for i in range(n):
        out[i] = exp((est[i] - best) / t)
        total += out[i]
    for i in range(n):
        out[i] /= total
