# cython: language_level=3
"""Mount Tai: the legal actions of the player to move, per decision (see legal.pxd).

Canonical orders keep one sequence per outcome where it is cheap (removals and placements of
tiles available from the start in ascending order, a second carried building above the first),
always leaving a way to complete any outcome.
"""

from libc.stdint cimport uint8_t, uint32_t

from engine.mount_tai.state cimport *
from engine.mount_tai.tables cimport MTTables, mt_tables
from engine.mount_tai.players cimport has_skill
from engine.mount_tai.mountain cimport can_cultivate, cell_is_water
from engine.mount_tai.edicts cimport edict_covers
from engine.mount_tai.supply cimport blueprint_index, talent_pool
from engine.mount_tai.checks cimport (
    season_of, uncovered, reclaim_cost, recruit_cost, may_hold_talent, can_build_kind,
    elder_celebration_money, mt_effect_possible,
)

cdef extern from *:
    """
    static inline int mt_ctz32c(unsigned int x) { return __builtin_ctz(x); }
    """
    int ctz "mt_ctz32c"(unsigned int x) noexcept nogil

cdef const MTTables* T = mt_tables()


cdef int legal_uncovered(const MTState* s, int base, int* out, int n) noexcept nogil:
    cdef uint32_t m = uncovered(s, s.cur)
    while m:
        out[n] = base + ctz(m)
        n += 1
        m &= m - 1
    return n


cdef int legal_tidy(const MTState* s, int* out) noexcept nogil:
    """Further removals: the tiles uncovered at the start go in ascending slot order (a tile
    uncovered by this tidy-up may come any time); the minimum (1, or 2 with the Administrative
    Official) must be met while a tile is left."""
    cdef uint32_t m = uncovered(s, s.cur), all_m = m
    cdef int n = 0, slot, min_removals = 1
    if s.removals < s.removals_max:
        while m:
            slot = ctz(m)
            m &= m - 1
            if slot > s.last or (edict_covers(s.opt.layout, slot) & s.removed_mask) != 0:
                out[n] = A_REMOVE + slot
                n += 1
    if has_skill(&s.p[s.cur], T_ADMIN, 1):
        min_removals = 2
    if n == 0 and all_m != 0 and s.removals < min_removals and s.removals < s.removals_max:
        return legal_uncovered(s, A_REMOVE, out, 0)
    if s.removals >= min_removals or all_m == 0 or n == 0 or s.removals >= s.removals_max:
        out[n] = A_PASS
        n += 1
    return n


cdef int legal_cultivate(const MTState* s, int* out) noexcept nogil:
    cdef const MTPlayer* pl = &s.p[s.cur]
    cdef bint across = has_skill(pl, T_ZHENG, 2)
    cdef int l, n = 0
    if s.mode == CM_NONE:
        for l in range(N_CELLS):
            if can_cultivate(s, s.cur, l, False, across, -1):
                out[n] = A_FLAT + l
                n += 1
        for l in range(N_CELLS):
            if can_cultivate(s, s.cur, l, True, across, -1):
                out[n] = A_MOUNTAIN + l
                n += 1
        return n
    # A second placement: cells in ascending order, unless the first placement opened it.
    for l in range(N_CELLS):
        if can_cultivate(s, s.cur, l, s.mode == CM_MOUNTAIN, across, -1) and (
                l > s.last or not can_cultivate(s, s.cur, l, s.mode == CM_MOUNTAIN, across, s.last)):
            out[n] = (A_MOUNTAIN if s.mode == CM_MOUNTAIN else A_FLAT) + l
            n += 1
    out[n] = A_PASS
    return n + 1


cdef int legal_water(const MTState* s, int* out) noexcept nogil:
    """Artificial water: a barren, dry cell of the fief next to a settlement placed by this
    cultivation."""
    cdef const MTPlayer* pl = &s.p[s.cur]
    cdef int l, o, n = 0, a, b, oa, ob
    for l in range(N_CELLS - 1):
        if pl.cell[l] != C_EMPTY or cell_is_water(s, s.cur, l):
            continue
        a = l >> 2
        b = l & 3
        for o in range(N_CELLS):
            if not ((s.placed >> o) & 1) or pl.cell[o] != C_SETTLEMENT:
                continue
            oa = o >> 2
            ob = o & 3
            if (a - oa) * (a - oa) + (b - ob) * (b - ob) == 1:
                out[n] = A_WATER + l
                n += 1
                break
    out[n] = A_PASS
    return n + 1


cdef int mt_legal(const MTState* s, int* out) noexcept nogil:
    cdef const MTPlayer* pl = &s.p[s.cur]
    cdef int ph = s.phase, n = 0, i, k, l, e, pile, lo, hi
    if ph == PH_POLICY:
        n = legal_uncovered(s, A_USE, out, 0)
        if n == 0:
            out[0] = A_PASS
            return 1
        if not (s.opt.challenge == 3 and (pl.prev_actions >> ACT_TIDY) & 1):
            n = legal_uncovered(s, A_TIDY, out, n)
        return n
    if ph == PH_TIDY:
        return legal_tidy(s, out)
    if ph == PH_EFFECT:
        for e in range(N_EFFECTS):
            if (s.effects_left >> e) & 1 and mt_effect_possible(s, s.cur, e):
                out[n] = A_EFFECT + e
                n += 1
        if s.may_stop or n == 0:
            # Stopping: a tier III tile (or an optional reading); a tier I or II effect that
            # can be carried out is due (PH_EFFECT is only entered when one can).
            out[n] = A_PASS
            n += 1
        return n
    if ph == PH_CULTIVATE:
        return legal_cultivate(s, out)
    if ph == PH_WATER:
        return legal_water(s, out)
    if ph == PH_REMOVE:
        n = legal_uncovered(s, A_REMOVE, out, 0)
        if s.remove_ctx == RM_SECRETARY or n == 0:
            out[n] = A_PASS
            n += 1
        return n
    if ph == PH_RECLAIM:
        for l in range(s.last + 1, N_CELLS):
            if pl.cell[l] == C_SETTLEMENT and pl.res[RES_MONEY] >= reclaim_cost(s, s.cur, l):
                out[n] = A_RECLAIM + l
                n += 1
        if s.last >= 0 or n == 0:
            out[n] = A_PASS
            n += 1
        return n
    if ph == PH_TOWN:
        if pl.res[RES_MONEY] >= T.town_cost:
            for l in range(s.last + 1, N_CELLS):
                if pl.cell[l] == C_SETTLEMENT:
                    out[n] = A_TOWN + l
                    n += 1
        if s.last >= 0 or n == 0:
            out[n] = A_PASS
            n += 1
        return n
    if ph == PH_AGRI_WINE or ph == PH_BREWER_WINE:
        out[0] = A_YES
        out[1] = A_PASS
        return 2
    if ph == PH_RECRUIT:
        for pile in range(N_PILES):
            if s.pile_n[pile] > 0:
                k = s.pile[pile][0]
                if may_hold_talent(pl, k) and pl.res[RES_MONEY] >= recruit_cost(pl, k):
                    out[n] = A_RECRUIT + pile
                    n += 1
        for i in range(pl.n_talents):
            if pl.level[i] < 3 and pl.res[RES_MONEY] >= T.level_cost[pl.talent[i]][pl.level[i] - 1]:
                out[n] = A_DEVELOP + i
                n += 1
        if n == 0:
            out[0] = A_PASS
            n = 1
        return n
    if ph == PH_BUILD:
        for k in range(N_BUILDING_KINDS):
            if blueprint_index(s, k) >= 0 and can_build_kind(s, s.cur, k):
                out[n] = A_BUILD + k
                n += 1
        if n == 0:
            out[0] = A_PASS
            n = 1
        return n
    if ph == PH_OBSERVATORY or ph == PH_VIRTUAL_TALENT:
        for pile in range(N_PILES):
            if s.pile_n[pile] == 0:
                continue
            if ph == PH_OBSERVATORY and (T.pile_colour[pile] != 3 or not may_hold_talent(pl, s.pile[pile][0])):
                continue
            out[n] = A_RECRUIT + pile
            n += 1
        if ph == PH_OBSERVATORY or n == 0:
            out[n] = A_PASS
            n += 1
        return n
    if ph == PH_BREW:
        hi = T.brew_max * (T.brewer_times if has_skill(pl, T_BREWER, 1) else 1)
        if pl.res[RES_GRAIN] < hi:
            hi = pl.res[RES_GRAIN]
        if hi > 6:
            hi = 6
        for k in range(1, hi + 1):
            out[n] = A_AMOUNT + k
            n += 1
        return n
    if ph == PH_CELEBRATE:
        hi = elder_celebration_money(pl)
        lo = T.celebration_wine - pl.res[RES_WINE]
        if lo < 0:
            lo = 0
        for k in range(lo, hi + 1):
            out[n] = A_AMOUNT + k
            n += 1
        return n
    if ph == PH_SACRIFICE:
        if pl.res[RES_WINE] >= T.sacrifice_wine:
            out[n] = A_AMOUNT + 0
            n += 1
        if pl.res[RES_MONEY] >= T.elder_sacrifice_money:
            out[n] = A_AMOUNT + 1
            n += 1
        return n
    if ph == PH_EVENT:
        lo = s.round % ROUNDS_PER_YEAR
        for i in range(N_EVENT_SPACES):
            if s.event_tile[lo][i] != NONE8 and not (s.event_used[lo] >> i) & 1:
                out[n] = A_EVENT + i
                n += 1
        return n
    if ph == PH_EXCHANGE:
        for k in range(T.exchange_max):
            if pl.res[RES_MONEY] >= k + 1:
                out[n] = A_EXCHANGE + k
                n += 1
        for k in range(T.exchange_max):
            if pl.res[RES_GRAIN] >= k + 1:
                out[n] = A_EXCHANGE + 3 + k
                n += 1
        out[n] = A_PASS
        return n + 1
    if ph == PH_YINYANG:
        for k in range(N_RES):
            out[k] = A_RESOURCE + k
        return N_RES
    if ph == PH_TRADE:
        if pl.res[RES_MONEY] >= 1:
            out[n] = A_EXCHANGE + 0
            n += 1
        if pl.res[RES_GRAIN] >= 1:
            out[n] = A_EXCHANGE + 3
            n += 1
        out[n] = A_PASS
        return n + 1
    if ph == PH_SWAP:
        lo = -1 if s.swap_first == NONE8 else s.swap_first
        k = 0
        for i in range(N_SLOTS):
            if (uncovered(s, s.cur) >> i) & 1 and i > lo:
                out[n] = A_SWAP + i
                n += 1
        if s.swap_first == NONE8:
            # A first choice must leave a partner after it.
            if n > 0:
                n -= 1
            out[n] = A_PASS
            n += 1
        return n
    if ph == PH_ARCHITECT:
        if season_of(s) % 2 == 0:
            if pl.res[RES_MONEY] >= T.town_cost:
                for l in range(N_CELLS):
                    if pl.cell[l] == C_SETTLEMENT:
                        out[n] = A_TOWN + l
                        n += 1
        else:
            for l in range(N_CELLS):
                if pl.cell[l] == C_SETTLEMENT and pl.res[RES_MONEY] >= reclaim_cost(s, s.cur, l):
                    out[n] = A_RECLAIM + l
                    n += 1
        out[n] = A_PASS
        return n + 1
    if ph == PH_SCHOLAR:
        for i in range(s.opt.n_players):
            if (s.ties >> i) & 1:
                out[n] = A_SEAT + i
                n += 1
        return n
    if ph == PH_DONATE_KIND:
        for k in range(3):
            out[k] = A_RESOURCE + k
        return 3
    if ph == PH_DONATE:
        hi = T.donation_max
        if pl.res[s.donation_kind] < hi:
            hi = pl.res[s.donation_kind]
        for k in range(hi + 1):
            out[k] = A_AMOUNT + k
        return hi + 1
    if ph == PH_COMMANDER:
        for i in range(s.opt.n_players):
            if i != s.cur:
                out[n] = A_SEAT + i
                n += 1
        return n
    if ph == PH_BONUS_TALENT:
        return legal_bonus_talent(s, out)
    if ph == PH_BONUS_BUILDING:
        # Two carried buildings (of different kinds) are chosen in ascending order.
        for k in range(N_BUILDING_KINDS):
            if T.building_promo[k] and not s.opt.promos:
                continue
            if s.left == 1 and k <= s.carried_building[0]:
                continue
            out[n] = A_BONUS_BUILDING + k
            n += 1
        if s.left == 0 and T.bonus_buildings[s.opt.challenge - 1] == 2:
            n -= 1      # the highest kind cannot come first
        return n
    return 0


cdef int legal_bonus_talent(const MTState* s, int* out) noexcept nogil:
    cdef uint8_t counts[N_TALENT_KINDS]
    cdef int k, n = 0
    talent_pool(s, counts)
    for k in range(N_TALENT_KINDS):
        if counts[k] > 0:
            out[n] = A_BONUS_TALENT + k
            n += 1
    return n
