# cython: language_level=3
"""Mount Tai: the event area, bonus and Eight Praises tiles, talent piles and buildings (see
supply.pxd)."""

from libc.stdint cimport uint8_t
from libc.string cimport memset

from engine.core.rng cimport Rng, rng_below, rng_shuffle_u8
from engine.core.eventlog cimport ev_emit, EV_NONE
from engine.mount_tai.state cimport *
from engine.mount_tai.events cimport EV_PILE_TOP, EV_BLUEPRINT_FLIP
from engine.mount_tai.tables cimport MTTables, mt_tables

cdef const MTTables* T = mt_tables()


cdef inline int board_players(const MTState* s) noexcept nogil:
    """The player count the board is set up for: solo play uses the 2-player setup (index 1 of
    the tables holds it where solo differs)."""
    return s.opt.n_players


cdef void supply_lay_board(MTState* s) noexcept nogil:
    cdef uint8_t tiles[4][9]
    cdef uint8_t perm[8]
    cdef int nt[4]
    cdef int used[4]
    cdef int i, c, r, n = board_players(s), j
    for c in range(4):
        nt[c] = 0
        used[c] = 0
    for i in range(32):
        c = T.event_colour[i]
        tiles[c][nt[c]] = <uint8_t>i
        nt[c] += 1
    if s.opt.promos:
        # "after randomly removing one blue event card": tile "0" takes its place.
        c = T.event_zero_colour
        tiles[c][rng_below(&s.rng, nt[c])] = T.event_zero_tile
    for c in range(4):
        rng_shuffle_u8(&s.rng, tiles[c], nt[c])
    for r in range(ROUNDS_PER_YEAR):
        s.event_used[r] = 0
        for c in range(N_EVENT_SPACES):
            if (T.event_spaces[n][r] >> c) & 1:
                s.event_tile[r][c] = tiles[c][used[c]]
                used[c] += 1
            else:
                s.event_tile[r][c] = NONE8
    for i in range(N_SEASONS):
        perm[i] = T.bonus_types[i]
    rng_shuffle_u8(&s.rng, perm, N_SEASONS)
    for i in range(N_SEASONS):
        s.season_bonus[i] = perm[i]
    for i in range(N_PRAISES):
        perm[i] = <uint8_t>i
    rng_shuffle_u8(&s.rng, perm, N_PRAISES)
    for j in range(2):
        for i in range(N_SEASONS):
            s.praise[j][i] = perm[j * N_SEASONS + i]


cdef void talent_pool(const MTState* s, uint8_t* counts) noexcept nogil:
    cdef int k, src
    for k in range(N_TALENT_KINDS):
        counts[k] = 0
        src = T.talent_source[k]
        if src == 1 and not s.opt.promos:
            continue
        if src == 2 and not s.opt.fan_talents:
            continue
        if s.opt.n_players < T.talent_min_players[k]:
            continue
        counts[k] = T.talent_copies[k]
    k = s.carried_talent
    if k < N_TALENT_KINDS and counts[k] > 0:
        counts[k] -= 1


cdef inline int pile_size(const MTState* s, int pile) noexcept nogil:
    # Plain solo: one card a pile; the challenge: the 2-player table (Solo Play).
    if s.opt.solo and s.opt.challenge:
        return T.pile_size[2][pile]
    return T.pile_size[s.opt.n_players][pile]


cdef void supply_deal(MTState* s) noexcept nogil:
    cdef uint8_t counts[N_TALENT_KINDS]
    cdef uint8_t cards[32]
    cdef int c, k, j, n, pile, take, at, kind
    talent_pool(s, counts)
    for k in range(N_TALENT_KINDS):
        s.talent_seen[k] = 0
    for c in range(N_COLOURS):
        n = 0
        for k in range(N_TALENT_KINDS):
            if T.talent_colour[k] == c:
                for j in range(counts[k]):
                    cards[n] = <uint8_t>k
                    n += 1
        rng_shuffle_u8(&s.rng, cards, n)
        at = 0
        for pile in range(N_PILES):
            if T.pile_colour[pile] != c:
                continue
            take = pile_size(s, pile)
            if take > n - at:
                take = n - at
            s.pile_n[pile] = <uint8_t>take
            for j in range(PILE_MAX):
                s.pile[pile][j] = <uint8_t>(cards[at + j] if j < take else NONE8)
            at += take
            if take > 0:
                s.talent_seen[s.pile[pile][0]] += 1
                ev_emit(EV_PILE_TOP, EV_NONE, EV_NONE, pile, s.pile[pile][0], take, 0)
    # Buildings.
    n = 0
    for kind in range(N_BUILDING_KINDS):
        if T.building_promo[kind]:
            if not s.opt.promos:
                continue
            take = T.building_copies[kind]
        else:
            take = T.building_copies[kind] - T.buildings_removed[s.opt.n_players]
        for j in range(2):
            if s.carried_building[j] == kind and take > 0:
                take -= 1
        for j in range(take):
            s.supply[n] = <uint8_t>kind
            n += 1
    s.supply_n = <uint8_t>n
    rng_shuffle_u8(&s.rng, s.supply, n)
    s.bp_n = 0
    blueprint_refill(s)


cdef int pile_take(MTState* s, int pile) noexcept nogil:
    cdef int k = s.pile[pile][0], j
    for j in range(PILE_MAX - 1):
        s.pile[pile][j] = s.pile[pile][j + 1]
    s.pile[pile][PILE_MAX - 1] = NONE8
    s.pile_n[pile] -= 1
    if s.pile_n[pile] > 0:
        s.talent_seen[s.pile[pile][0]] += 1
        ev_emit(EV_PILE_TOP, EV_NONE, EV_NONE, pile, s.pile[pile][0], s.pile_n[pile], 0)
    else:
        ev_emit(EV_PILE_TOP, EV_NONE, EV_NONE, pile, -1, 0, 0)
    return k


cdef int blueprint_index(const MTState* s, int kind) noexcept nogil:
    cdef int i
    for i in range(s.bp_n):
        if s.bp_kind[i] == kind:
            return i
    return -1


cdef void blueprint_refill(MTState* s) noexcept nogil:
    cdef int target = T.blueprint_kinds[s.opt.n_players], kind, i
    while s.bp_n < target and s.supply_n > 0:
        s.supply_n -= 1
        kind = s.supply[s.supply_n]
        s.supply[s.supply_n] = NONE8
        i = blueprint_index(s, kind)
        if i >= 0:
            s.bp_count[i] += 1
        else:
            i = s.bp_n
            s.bp_kind[s.bp_n] = <uint8_t>kind
            s.bp_count[s.bp_n] = 1
            s.bp_n += 1
        ev_emit(EV_BLUEPRINT_FLIP, EV_NONE, EV_NONE, kind, i, s.bp_count[i], s.supply_n)


cdef void blueprint_discard(MTState* s, int idx) noexcept nogil:
    cdef int i
    for i in range(idx, s.bp_n - 1):
        s.bp_kind[i] = s.bp_kind[i + 1]
        s.bp_count[i] = s.bp_count[i + 1]
    s.bp_n -= 1
    s.bp_kind[s.bp_n] = NONE8
    s.bp_count[s.bp_n] = 0
    blueprint_refill(s)


cdef void blueprint_take(MTState* s, int kind) noexcept nogil:
    cdef int i = blueprint_index(s, kind)
    if i < 0:
        return
    s.bp_count[i] -= 1
    if s.bp_count[i] == 0:
        blueprint_discard(s, i)


cdef void supply_redeal(MTState* s, Rng* rng) noexcept nogil:
    cdef uint8_t counts[N_TALENT_KINDS]
    cdef uint8_t cards[32]
    cdef int c, k, j, n, pile, at
    talent_pool(s, counts)
    for c in range(N_COLOURS):
        n = 0
        for k in range(N_TALENT_KINDS):
            if T.talent_colour[k] == c and counts[k] > s.talent_seen[k]:
                for j in range(counts[k] - s.talent_seen[k]):
                    cards[n] = <uint8_t>k
                    n += 1
        rng_shuffle_u8(rng, cards, n)
        at = 0
        for pile in range(N_PILES):
            if T.pile_colour[pile] != c:
                continue
            for j in range(1, s.pile_n[pile]):
                s.pile[pile][j] = cards[at]
                at += 1
    # the supply's true order is hidden: sort it first, so that the view's order depends on
    # the caller's seed only, never on the order it was drawn from
    supply_sort(s.supply, s.supply_n)
    rng_shuffle_u8(rng, s.supply, s.supply_n)


cdef void supply_sort(uint8_t* a, int n) noexcept nogil:
    # Ascending, rebuilt from the count of each value (a counting sort: one pass over the
    # tiles and one over the kinds present, where an insertion sort shifted tiles ~n*n/4
    # times). Any uint8 value is counted, so a restored view's odd block cannot overrun.
    cdef uint8_t counts[256]
    cdef int j, k, at = 0, top = 0
    if n <= 1:
        return
    for j in range(n):
        if a[j] > top:
            top = a[j]
    memset(counts, 0, top + 1)
    for j in range(n):
        counts[a[j]] += 1
    for k in range(top + 1):
        for j in range(counts[k]):
            a[at] = <uint8_t>k
            at += 1


def sorted_supply(values) -> list:
    """`values` (building kinds, 0..255; at most SUPPLY_MAX) in the order supply_redeal puts
    the supply before shuffling it (ascending): its canonical order, for tests."""
    cdef uint8_t a[SUPPLY_MAX]
    cdef int j, n = len(values)
    if n > SUPPLY_MAX:
        raise ValueError(f"at most {SUPPLY_MAX} tiles, got {n}")
    for j in range(n):
        a[j] = <uint8_t>values[j]
    supply_sort(a, n)
    return [a[j] for j in range(n)]
