# cython: language_level=3
"""Mount Tai: what actions cost and whether a player can do them now (see checks.pxd)."""

from libc.stdint cimport uint8_t, uint32_t

from engine.mount_tai.state cimport *
from engine.mount_tai.tables cimport MTTables, mt_tables
from engine.mount_tai.players cimport talent_level, has_skill, has_building
from engine.mount_tai.mountain cimport can_cultivate, next_to_water
from engine.mount_tai.edicts cimport edict_uncovered

cdef const MTTables* T = mt_tables()


cdef uint32_t uncovered(const MTState* s, int seat) noexcept nogil:
    return edict_uncovered(&s.p[seat], s.opt.layout)


cdef int tutor_seat(const MTState* s, int tutor) noexcept nogil:
    """The seat holding Grand Tutor `tutor`, or -1."""
    cdef int i
    if not s.opt.grand_tutors:
        return -1
    for i in range(s.opt.n_players):
        if s.p[i].tutor == tutor:
            return i
    return -1


cdef int cultivate_cost(const MTPlayer* pl) noexcept nogil:
    return 0 if has_building(pl, B_YUFU) else T.cultivate_cost


cdef int reclaim_cost(const MTState* s, int seat, int l) noexcept nogil:
    return 0 if next_to_water(s, seat, l) else T.reclaim_cost


cdef int recruit_cost(const MTPlayer* pl, int kind) noexcept nogil:
    cdef int c = T.recruit_cost[kind]
    if has_building(pl, B_ACADEMY):
        c -= T.academy_discount
    return c if c > 0 else 0


cdef int build_cost(const MTPlayer* pl, int kind) noexcept nogil:
    cdef int c = T.building_cost[kind]
    if has_skill(pl, T_ARCHITECT, 1):
        c -= T.architect_discount
    return c if c > 0 else 0


cdef bint colour_room(const uint8_t* kinds, int n, int carried, bint observatory,
                      int kind) noexcept nogil:
    cdef int i, colour = T.talent_colour[kind], held = 0, limit = 1
    for i in range(n):
        if T.talent_colour[kinds[i]] == colour and not ((carried >> i) & 1):
            held += 1
    if colour == 3 and observatory:
        limit = T.max_red_observatory
    return held < limit and n < MAX_TALENTS


cdef bint may_hold_talent(const MTPlayer* pl, int kind) noexcept nogil:
    """The colour rule: one talent per colour (two red with the Observatory); carried challenge
    bonus cards do not count."""
    return colour_room(pl.talent, pl.n_talents, pl.carried,
                       has_building(pl, B_OBSERVATORY), kind)


cdef bint builder_toll_blocks(const MTState* s, int seat, int kind) noexcept nogil:
    """Master Builder: another player with no reputation cannot build the marked kind."""
    cdef int holder = tutor_seat(s, TU_MASTER_BUILDER)
    return (holder >= 0 and holder != seat and s.builder_mark == kind
            and s.p[seat].res[RES_REP] < T.builder_toll)


cdef bint can_build_kind(const MTState* s, int seat, int kind) noexcept nogil:
    cdef const MTPlayer* pl = &s.p[seat]
    return (not has_building(pl, kind) and pl.res[RES_MONEY] >= build_cost(pl, kind)
            and not builder_toll_blocks(s, seat, kind))


cdef bint red_talent_available(const MTState* s, int seat) noexcept nogil:
    cdef int pile
    for pile in range(N_PILES):
        if T.pile_colour[pile] == 3 and s.pile_n[pile] > 0 and may_hold_talent(&s.p[seat], s.pile[pile][0]):
            return True
    return False


cdef int elder_celebration_money(const MTPlayer* pl) noexcept nogil:
    """Most money the player may pay instead of wine at a celebration (Village Elder 1)."""
    cdef int m
    if not has_skill(pl, T_ELDER, 1):
        return 0
    m = T.elder_celeb_money
    if pl.res[RES_MONEY] < m:
        m = pl.res[RES_MONEY]
    if T.celebration_wine < m:
        m = T.celebration_wine
    return m


cdef bint cultivation_target_exists(const MTState* s, int seat, bint mountain) noexcept nogil:
    cdef int l
    cdef bint across = has_skill(&s.p[seat], T_ZHENG, 2)
    for l in range(N_CELLS):
        if can_cultivate(s, seat, l, mountain, across, -1):
            return True
    return False


cdef int first_cell(const MTPlayer* pl, int kind, int after) noexcept nogil:
    """The first fief cell > `after` holding `kind`, or -1."""
    cdef int l
    for l in range(after + 1, N_CELLS):
        if pl.cell[l] == kind:
            return l
    return -1


cdef bint reclaim_target_exists(const MTState* s, int seat, int after) noexcept nogil:
    cdef const MTPlayer* pl = &s.p[seat]
    cdef int l
    for l in range(after + 1, N_CELLS):
        if pl.cell[l] == C_SETTLEMENT and pl.res[RES_MONEY] >= reclaim_cost(s, seat, l):
            return True
    return False


cdef bint town_target_exists(const MTState* s, int seat, int after) noexcept nogil:
    return s.p[seat].res[RES_MONEY] >= T.town_cost and first_cell(&s.p[seat], C_SETTLEMENT, after) >= 0


cdef bint mt_effect_possible(const MTState* s, int seat, int e) noexcept nogil:
    cdef const MTPlayer* pl = &s.p[seat]
    cdef int i, pile, k
    if s.opt.challenge == 3 and (pl.prev_actions >> e) & 1:
        return False
    if e == E_CULTIVATE:
        if pl.res[RES_MONEY] < cultivate_cost(pl):
            return False
        return cultivation_target_exists(s, seat, False) or cultivation_target_exists(s, seat, True)
    if e == E_RECLAIM:
        return reclaim_target_exists(s, seat, -1)
    if e == E_TOWN:
        return town_target_exists(s, seat, -1)
    if e == E_RECRUIT:
        for pile in range(N_PILES):
            if s.pile_n[pile] > 0:
                k = s.pile[pile][0]
                if may_hold_talent(pl, k) and pl.res[RES_MONEY] >= recruit_cost(pl, k):
                    return True
        for i in range(pl.n_talents):
            if pl.level[i] < 3 and pl.res[RES_MONEY] >= T.level_cost[pl.talent[i]][pl.level[i] - 1]:
                return True
        return False
    if e == E_BUILD:
        for i in range(s.bp_n):
            if can_build_kind(s, seat, s.bp_kind[i]):
                return True
        return False
    if e == E_BREW:
        return pl.res[RES_GRAIN] >= 1
    if e == E_CELEBRATE:
        return (pl.res[RES_GRAIN] >= T.celebration_grain
                and pl.res[RES_WINE] + elder_celebration_money(pl) >= T.celebration_wine)
    # E_SACRIFICE: only after ascent.
    if pl.cell[SUMMIT_CELL] != C_ASCENT or pl.res[RES_GRAIN] < T.sacrifice_grain:
        return False
    return pl.res[RES_WINE] >= T.sacrifice_wine or (
        has_skill(pl, T_ELDER, 2) and pl.res[RES_MONEY] >= T.elder_sacrifice_money)


cdef bint any_effect_possible(const MTState* s) noexcept nogil:
    cdef int e
    if s.effects_todo == 0:
        return False
    for e in range(N_EFFECTS):
        if (s.effects_left >> e) & 1 and mt_effect_possible(s, s.cur, e):
            return True
    return False
