# Mount Tai: small inline helpers over one player's holdings (talents, buildings, resources,
# reputation by source). Pure functions of the struct; nogil; never fail.

from engine.core.eventlog cimport ev_emit
from engine.mount_tai.state cimport *


cdef inline int talent_level(const MTPlayer* pl, int kind) noexcept nogil:
    """The highest level of a held card of talent `kind` (0 if none is held)."""
    cdef int i, best = 0
    for i in range(pl.n_talents):
        if pl.talent[i] == kind and pl.level[i] > best:
            best = pl.level[i]
    return best


cdef inline bint has_skill(const MTPlayer* pl, int kind, int level) noexcept nogil:
    """Whether the player has talent `kind`'s skill of `level` (a card at that level or above)."""
    return talent_level(pl, kind) >= level


cdef inline bint has_building(const MTPlayer* pl, int kind) noexcept nogil:
    return (pl.buildings >> kind) & 1


cdef inline int building_count(const MTPlayer* pl) noexcept nogil:
    cdef int k, n = 0
    for k in range(N_BUILDING_KINDS):
        n += (pl.buildings >> k) & 1
    return n


cdef inline int talents_at_least(const MTPlayer* pl, int level) noexcept nogil:
    """Talent cards held at `level` or higher."""
    cdef int i, n = 0
    for i in range(pl.n_talents):
        if pl.level[i] >= level:
            n += 1
    return n


cdef inline int talent_levels(const MTPlayer* pl) noexcept nogil:
    """The sum of the levels of every talent card held."""
    cdef int i, n = 0
    for i in range(pl.n_talents):
        n += pl.level[i]
    return n


cdef inline void add_rep(MTPlayer* pl, int source, int n) noexcept nogil:
    """Gain `n` reputation from `source` (a loss when negative, never below 0 in all)."""
    if n < 0 and -n > pl.res[RES_REP]:
        n = -pl.res[RES_REP]
    pl.res[RES_REP] += n
    pl.rep_src[source] += n


cdef inline void add_res(MTPlayer* pl, int res, int n, int rep_source) noexcept nogil:
    """Gain `n` of resource `res` (RES_*; reputation counts for `rep_source`); a negative `n`
    takes at most what the player has."""
    if res == RES_REP:
        add_rep(pl, rep_source, n)
        return
    if n < 0 and -n > pl.res[res]:
        n = -pl.res[res]
    pl.res[res] += n


cdef inline void rep_event(MTState* s, int seat, int source, int n, int kind, int cause, int b,
                           int c, int d) noexcept nogil:
    """Gain `n` reputation from `source` (as add_rep) and emit rule event `kind` (events.pxd)
    whose first amount is the change actually made: the one funnel through which the rules
    change a reputation outside the setup, the event rewards and the game-end sums (which emit
    their parts themselves), so that a seat's events sum to its reputation."""
    cdef MTPlayer* pl = &s.p[seat]
    cdef int before = pl.res[RES_REP]
    add_rep(pl, source, n)
    ev_emit(kind, seat, cause, pl.res[RES_REP] - before, b, c, d)
