# cython: language_level=3
"""Mount Tai: the virtual player (see solo.pxd)."""

from libc.stdint cimport uint8_t

from engine.core.rng cimport Rng, rng_below, rng_shuffle_u8
from engine.core.eventlog cimport ev_emit, EV_NONE
from engine.mount_tai.state cimport *
from engine.mount_tai.events cimport EV_VIRTUAL_DRAW, EV_VIRTUAL_BUILD, EV_VIRTUAL_RECRUIT
from engine.mount_tai.tables cimport MTTables, mt_tables
from engine.mount_tai.supply cimport blueprint_discard

cdef const MTTables* T = mt_tables()


cdef int fill_tier(MTState* s, Rng* rng, int tier, int at, int count, unsigned int exclude) noexcept nogil:
    """Write `count` random tiles of `tier` (not in `exclude`, bit n-1 per tile n) into
    s.vp_tiles[at:]; returns the index after them."""
    cdef uint8_t pool[N_TILES]
    cdef int n, k = 0, i
    for n in range(1, N_TILES + 1):
        if T.tier[n] == tier and not ((exclude >> (n - 1)) & 1):
            pool[k] = <uint8_t>n
            k += 1
    rng_shuffle_u8(rng, pool, k)
    for i in range(count):
        s.vp_tiles[at + i] = pool[i]
    return at + count


cdef void vp_deal(MTState* s) noexcept nogil:
    cdef int at = 0, tier
    for tier in range(1, 4):
        at = fill_tier(s, &s.rng, tier, at, T.virtual_draws[tier - 1], 0)
    s.vp_next = 0
    s.vp_number = 0


cdef bint vp_draw(MTState* s) noexcept nogil:
    cdef int tile, j, e, pile
    cdef bint recruit = False
    if s.vp_next >= VIRTUAL_TILES:
        s.vp_number = PASS_NUMBER
        return False
    tile = s.vp_tiles[s.vp_next]
    s.vp_next += 1
    s.vp_number = <uint8_t>tile
    ev_emit(EV_VIRTUAL_DRAW, VIRTUAL, EV_NONE, tile, VIRTUAL_TILES - s.vp_next, T.tier[tile], 0)
    for j in range(T.n_effects[tile]):
        e = T.effect[tile][j]
        if e == E_BUILD and s.bp_n > 0:
            ev_emit(EV_VIRTUAL_BUILD, VIRTUAL, EV_NONE, s.bp_kind[0], s.bp_count[0], 0, 0)
            blueprint_discard(s, 0)
        elif e == E_RECRUIT:
            recruit = True
    if recruit:
        for pile in range(N_PILES):
            if s.pile_n[pile] > 0:
                ev_emit(EV_VIRTUAL_RECRUIT, VIRTUAL, EV_NONE, tile, 0, 0, 0)
                return True
    return False


cdef int vp_rank(int kind) noexcept nogil:
    cdef int i
    for i in range(4):
        if T.virtual_priority[i] == kind:
            return i
    return 4


cdef int vp_event_choice(const MTState* s) noexcept nogil:
    cdef int r = s.round % ROUNDS_PER_YEAR, c, tile, amount, best = -1, best_amount = 0
    cdef int best_rank = 0, rank
    for c in range(N_EVENT_SPACES):
        tile = s.event_tile[r][c]
        if tile == NONE8 or (s.event_used[r] >> c) & 1:
            continue
        amount = T.event_amount[tile]
        rank = vp_rank(T.event_kind[tile])
        if best < 0 or amount > best_amount or (amount == best_amount and rank < best_rank):
            best = c
            best_amount = amount
            best_rank = rank
    return best


cdef void vp_redeal(MTState* s, Rng* rng) noexcept nogil:
    cdef unsigned int drawn = 0
    cdef int i, tier, at, count
    for i in range(s.vp_next):
        drawn |= 1u << (s.vp_tiles[i] - 1)
    # The undrawn part keeps its tiers in order (I, then II, then III).
    at = s.vp_next
    for tier in range(1, 4):
        count = 0
        i = at
        while i < VIRTUAL_TILES and T.tier[s.vp_tiles[i]] == tier:
            count += 1
            i += 1
        if count > 0:
            fill_tier(s, rng, tier, at, count, drawn)
            at += count
