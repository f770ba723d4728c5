# cython: language_level=3
"""Mount Tai: the rules as nogil C functions over one MTState struct.

The game is a sequence of decisions (PH_* in state.pxd); everything between two decisions (turn
order change, the virtual player, yields, scoring) runs inside `mt_apply` through `advance`, which
walks the round's phases (FLOW_*) until the next decision is due. Printed values come from data.py
through tables.pyx; the geometry is in mountain.pxd, the edict areas in edicts.pyx, the shared
supplies in supply.pyx, the virtual player in solo.pyx, scoring in scoring.pyx, costs and
possibilities in checks.pyx and the legal-action lists in legal.pyx.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from engine.core.rng cimport Rng, rng_seed, rng_next, rng_mix, rng_shuffle_u8
from engine.core.interface cimport GameDef, TERMINAL_PLAYER
from engine.core.eventlog cimport ev_emit, ev_sink, EV_NONE
from engine.mount_tai.state cimport *
from engine.mount_tai.events cimport *
from engine.mount_tai.tables cimport MTTables, mt_tables
from engine.mount_tai.players cimport (
    talent_level, has_skill, has_building, add_rep, add_res, rep_event,
)
from engine.mount_tai.mountain cimport cell_is_tribe, to_map, mt_lay_mountain, count_cells
from engine.mount_tai.edicts cimport edict_deal, edict_take, edict_redeal, edict_slot_count
from engine.mount_tai.supply cimport (
    supply_lay_board, supply_deal, pile_take, blueprint_take, supply_redeal,
)
from engine.mount_tai.solo cimport vp_deal, vp_draw, vp_event_choice, vp_redeal
from engine.mount_tai.scoring cimport (
    praise_reward, praise_measure, final_scoring, mt_ranks, solo_goal_reached, solo_goal,
)
from engine.mount_tai.checks cimport (
    season_of, uncovered, tutor_seat, cultivate_cost, reclaim_cost, recruit_cost, build_cost,
    may_hold_talent, red_talent_available, elder_celebration_money, reclaim_target_exists,
    town_target_exists, any_effect_possible,
)
from engine.mount_tai.legal cimport mt_legal, legal_tidy, legal_cultivate, legal_water
from engine.mount_tai.knowledge cimport mt_move_prior, mt_evaluate
from engine.mount_tai.net cimport mt_evaluate_net, mt_net_prior
from engine.mount_tai.learned cimport (mt_evaluate_learned, mt_evaluate_learned_v2,
                                       mt_evaluate_learned_v3)

cdef extern from *:
    """
    static inline int mt_popcount32(unsigned int x) { return __builtin_popcount(x); }
    static inline int mt_ctz32b(unsigned int x) { return __builtin_ctz(x); }
    """
    int popcount "mt_popcount32"(unsigned int x) noexcept nogil
    int ctz "mt_ctz32b"(unsigned int x) noexcept nogil

cdef const MTTables* T = mt_tables()

# Settlement sub-steps of one seat (MTState.sub during FLOW_SETTLE).
cdef enum:
    SS_BUILDINGS = 0
    SS_BREWER = 1
    SS_TRADER = 2
    SS_ADMIN = 3
    SS_SECRETARY = 4
    SS_ARCHITECT = 5
    SS_YIELD = 6
    SS_PRAISE = 7
    SS_DONE = 8

# Sub-steps after every seat's settlement (MTState.sub during FLOW_SETTLE_END).
cdef enum:
    SE_DUGU = 0
    SE_SCHOLAR = 1
    SE_CHALLENGE = 2
    SE_DONATE_KIND = 3
    SE_DONATE = 4
    SE_COMMANDER = 5
    SE_DONE = 6

# ---------------------------------------------------------------------------------------------
# Small helpers.

cdef inline int year_of(const MTState* s) noexcept nogil:
    return s.round // ROUNDS_PER_YEAR


cdef void gain_talent(MTState* s, int seat, int kind, int level, bint carried) noexcept nogil:
    """Put a talent card in the player's talent area at `level` (its level 1 skill that acts on
    arrival, the Firstborn Grandchild's gift, happens now)."""
    cdef MTPlayer* pl = &s.p[seat]
    cdef int i = pl.n_talents, r
    pl.talent[i] = <uint8_t>kind
    pl.level[i] = <uint8_t>level
    if carried:
        pl.carried |= <uint8_t>(1 << i)
    pl.n_talents += 1
    if kind == T_FIRSTBORN:
        for r in range(N_RES):
            add_res(pl, r, T.firstborn_gift[r], SRC_TALENTS)
        ev_emit(EV_FIRSTBORN_GIFT, seat, EV_NONE, T.firstborn_gift[RES_MONEY],
                T.firstborn_gift[RES_GRAIN], T.firstborn_gift[RES_WINE], T.firstborn_gift[RES_REP])


# ---------------------------------------------------------------------------------------------
# Setup.

cdef void mt_init(MTState* s, const MTOptions* o, uint64_t seed) noexcept nogil:
    cdef int i, n = o.n_players, g
    cdef uint8_t tutors[N_TUTORS]
    cdef int nt = 0
    cdef MTPlayer* pl
    memset(s, 0, sizeof(MTState))
    s.opt = o[0]
    rng_seed(&s.rng, seed)
    s.n_order = 2 if o.solo else n
    for i in range(n):
        s.order[i] = <uint8_t>i
        s.quadrant[i] = T.quadrants[n][i]
    if o.solo:
        s.order[1] = VIRTUAL
    mt_lay_mountain(s)
    supply_lay_board(s)
    s.builder_mark = NONE8
    s.swap_first = NONE8
    s.study_left = 2 * N_SEASONS
    s.carried_talent = NONE8
    s.carried_building[0] = NONE8
    s.carried_building[1] = NONE8
    for i in range(n):
        pl = &s.p[i]
        edict_deal(pl, o.layout, o.hidden_edicts, o.challenge == 6, &s.rng)
        pl.cell[0] = C_TOWN if (o.challenge and T.town_start[o.challenge - 1]) else C_SETTLEMENT
        pl.res[RES_MONEY] = T.start_res[0]
        pl.res[RES_GRAIN] = T.start_res[1]
        pl.res[RES_WINE] = T.start_res[2]
        add_rep(pl, SRC_START, T.start_rep[n][i])
        pl.tutor = NONE8
    if o.solo:
        vp_deal(s)
    if o.grand_tutors:
        for i in range(N_TUTORS):
            if n >= T.tutor_min_players[i]:
                tutors[nt] = <uint8_t>i
                nt += 1
        rng_shuffle_u8(&s.rng, tutors, nt)
        for i in range(n):
            s.p[i].tutor = tutors[i]
    if o.challenge:
        g = o.challenge - 1
        if T.bonus_level[g] > 0 and o.bonus_talent < N_TALENT_KINDS:
            s.carried_talent = o.bonus_talent
        for i in range(T.bonus_buildings[g]):
            if o.bonus_building[i] < N_BUILDING_KINDS:
                s.carried_building[i] = o.bonus_building[i]
    if ev_sink() != NULL:
        setup_events(s)
    s.flow = FLOW_SETUP
    s.sub = 0
    advance(s)


cdef void setup_events(const MTState* s) noexcept nogil:
    """The setup's events: what is laid face up (the mountain, the event area, the season bonus
    and Eight Praises tiles), each seat's start (resources and compensation, its edict area as
    counts, its Grand Tutor) and the virtual player's face-down tiles as counts."""
    cdef int q, r, c, i, j, up, down
    cdef const MTPlayer* pl
    for q in range(4):
        ev_emit(EV_MOUNTAIN_TILE, EV_NONE, EV_NONE, q, s.large_at[q], s.rot_large[q], 3)
        ev_emit(EV_MOUNTAIN_TILE, EV_NONE, EV_NONE, q, s.small_at[q], s.rot_small[q], 2)
    for r in range(ROUNDS_PER_YEAR):
        for c in range(N_EVENT_SPACES):
            if s.event_tile[r][c] != NONE8:
                ev_emit(EV_EVENT_TILE, EV_NONE, EV_NONE, r, c, s.event_tile[r][c], 0)
    for i in range(N_SEASONS):
        ev_emit(EV_SEASON_BONUS, EV_NONE, EV_NONE, i, s.season_bonus[i], 0, 0)
    for j in range(2):
        for i in range(N_SEASONS):
            ev_emit(EV_PRAISE_TILE, EV_NONE, EV_NONE, j, i, s.praise[j][i], 0)
    for i in range(s.opt.n_players):
        pl = &s.p[i]
        ev_emit(EV_PLAYER_START, i, pl.cell[0], pl.res[RES_MONEY], pl.res[RES_GRAIN],
                pl.res[RES_WINE], pl.res[RES_REP])
        up = 0
        down = 0
        for j in range(edict_slot_count(s.opt.layout)):
            if (pl.present >> j) & 1:
                if (pl.faceup >> j) & 1:
                    up += 1
                else:
                    down += 1
        ev_emit(EV_EDICTS_DEALT, i, s.opt.layout, up, down, 0, 0)
        if pl.tutor != NONE8:
            ev_emit(EV_TUTOR_DRAWN, i, EV_NONE, pl.tutor, 0, 0, 0)
    if s.opt.solo:
        ev_emit(EV_VIRTUAL_DEALT, VIRTUAL, EV_NONE, T.virtual_draws[0], T.virtual_draws[1],
                T.virtual_draws[2], 0)


cdef void round_start_event(const MTState* s) noexcept nogil:
    ev_emit(EV_ROUND_START, EV_NONE, EV_NONE, s.round, s.round // ROUNDS_PER_YEAR,
            (s.round % ROUNDS_PER_YEAR) // 2, s.round % 2)

# ---------------------------------------------------------------------------------------------
# The automatic flow.

cdef void advance(MTState* s) noexcept nogil:
    """Run the automatic steps from s.flow until a decision is due or the game is over."""
    while True:
        if s.flow == FLOW_SETUP:
            if setup_step(s):
                return
        elif s.flow == FLOW_POLICY:
            if policy_step(s):
                return
        elif s.flow == FLOW_ORDER:
            turn_order_change(s)
            s.flow = FLOW_EVENTS
            s.order_pos = 0
        elif s.flow == FLOW_EVENTS:
            if events_step(s):
                return
        elif s.flow == FLOW_SETTLE:
            if settle_step(s):
                return
        elif s.flow == FLOW_SETTLE_END:
            if settle_end_step(s):
                return
        elif s.flow == FLOW_SECRETARY:
            if secretary_step(s):
                return
        else:
            final_scoring(s)
            s.phase = PH_OVER
            if ev_sink() != NULL:
                final_events(s)
            return


cdef void final_events(const MTState* s) noexcept nogil:
    """Each seat's final reputation and rank (solo: the goal and whether it was reached)."""
    cdef int ranks[MAX_PLAYERS]
    cdef int i
    mt_ranks(s, ranks)
    for i in range(s.opt.n_players):
        if s.opt.solo:
            ev_emit(EV_FINAL_RESULT, i, EV_NONE, s.p[i].res[RES_REP], ranks[i], solo_goal(s),
                    1 if solo_goal_reached(s) else 0)
        else:
            ev_emit(EV_FINAL_RESULT, i, EV_NONE, s.p[i].res[RES_REP], ranks[i], -1, 0)


cdef inline void decide(MTState* s, int seat, int phase) noexcept nogil:
    s.cur = <uint8_t>seat
    s.phase = <uint8_t>phase


cdef bint setup_step(MTState* s) noexcept nogil:
    """Challenge games: the carried talent and buildings (from the options or chosen now), then
    the wilderness and the buildings are dealt and the first round begins."""
    cdef int g, j
    if s.opt.challenge:
        g = s.opt.challenge - 1
        if s.sub == 0:
            s.sub = 1
            if T.bonus_level[g] > 0 and s.opt.bonus_talent == NONE8:
                decide(s, 0, PH_BONUS_TALENT)
                return True
        while s.sub <= T.bonus_buildings[g]:
            j = s.sub - 1
            s.sub += 1
            if s.opt.bonus_building[j] == NONE8:
                s.left = <uint8_t>j
                decide(s, 0, PH_BONUS_BUILDING)
                return True
    supply_deal(s)
    if s.carried_talent != NONE8:
        ev_emit(EV_CARRIED_TALENT, 0, EV_NONE, s.carried_talent,
                T.bonus_level[s.opt.challenge - 1], 0, 0)
        gain_talent(s, 0, s.carried_talent, T.bonus_level[s.opt.challenge - 1], True)
    for j in range(2):
        if s.carried_building[j] != NONE8:
            ev_emit(EV_CARRIED_BUILDING, 0, EV_NONE, s.carried_building[j], 0, 0, 0)
            s.p[0].buildings |= <uint8_t>(1 << s.carried_building[j])
    round_start_event(s)
    s.flow = FLOW_POLICY
    s.order_pos = 0
    s.sub = 0
    return False


cdef void begin_policy(MTState* s, int seat) noexcept nogil:
    s.tile = 0
    s.effects_left = 0
    s.effects_todo = 0
    s.may_stop = 0
    decide(s, seat, PH_POLICY)


cdef bint policy_step(MTState* s) noexcept nogil:
    if s.opt.solo:
        # The player decides, then the virtual player draws its tile (Solo Play, 2.3).
        if s.order_pos == 0:
            begin_policy(s, 0)
            return True
        if s.order_pos == 1:
            s.order_pos = 2
            if vp_draw(s):
                decide(s, 0, PH_VIRTUAL_TALENT)
                return True
            return False
    elif s.order_pos < s.n_order:
        begin_policy(s, s.order[s.order_pos])
        return True
    s.flow = FLOW_ORDER
    return False


cdef void policy_done(MTState* s) noexcept nogil:
    s.tile = 0
    s.effects_left = 0
    s.effects_todo = 0
    s.may_stop = 0
    s.order_pos += 1
    advance(s)


cdef int order_key(const MTState* s, int e) noexcept nogil:
    """Sort key of turn-order entry `e`: twice its number (less 1 with the Vanguard), the
    Yin-Yang Master's holder first among equal numbers."""
    cdef int number, key
    if e == VIRTUAL:
        return 2 * s.vp_number + 1
    number = s.p[e].turn_number
    if number == 0:
        number = PASS_NUMBER
    if talent_level(&s.p[e], T_VANGUARD) >= 1:
        number -= T.vanguard_offset
    key = 2 * number
    if not has_skill(&s.p[e], T_YINYANG, 1):
        key += 1
    return key


cdef void turn_order_events(const MTState* s) noexcept nogil:
    """The new turn order, entry by entry, with the numbers it was sorted by."""
    cdef int i, e, number
    for i in range(s.n_order):
        e = s.order[i]
        if e == VIRTUAL:
            ev_emit(EV_TURN_ORDER, VIRTUAL, EV_NONE, i, s.vp_number, 0, 0)
            continue
        number = s.p[e].turn_number
        if number == 0:
            number = PASS_NUMBER
        ev_emit(EV_TURN_ORDER, e, EV_NONE, i, number,
                1 if talent_level(&s.p[e], T_VANGUARD) >= 1 else 0, 0)


cdef void turn_order_change(MTState* s) noexcept nogil:
    """Phase 2: ascending numbers, ties keep the previous order (stable insertion sort)."""
    cdef int i, j, x, first
    cdef int keys[MAX_ORDER]
    cdef uint8_t order[MAX_ORDER]
    for i in range(s.n_order):
        order[i] = s.order[i]
        keys[i] = order_key(s, s.order[i])
    for i in range(1, s.n_order):
        x = order[i]
        j = i
        while j > 0 and keys[j - 1] > order_key(s, x):
            order[j] = order[j - 1]
            keys[j] = keys[j - 1]
            j -= 1
        order[j] = <uint8_t>x
        keys[j] = order_key(s, x)
    for i in range(s.n_order):
        s.order[i] = order[i]
    if ev_sink() != NULL:
        turn_order_events(s)
    first = s.order[0]
    if first != VIRTUAL:
        if has_skill(&s.p[first], T_DUGU, 1):
            rep_event(s, first, SRC_TALENTS, 1, EV_SKILL_REPUTATION, T_DUGU, 1, 0, 0)
        if talent_level(&s.p[first], T_VANGUARD) >= 1:
            s.p[first].firsts += 1
            ev_emit(EV_VANGUARD_FIRST, first, EV_NONE, s.p[first].firsts, 0, 0, 0)
    for i in range(s.opt.n_players):
        s.p[i].turn_number = 0


cdef int events_available(const MTState* s, int* last) noexcept nogil:
    """Event tiles of this round not yet flipped (and the last such space into `last`)."""
    cdef int r = s.round % ROUNDS_PER_YEAR, c, n = 0
    for c in range(N_EVENT_SPACES):
        if s.event_tile[r][c] != NONE8 and not (s.event_used[r] >> c) & 1:
            n += 1
            last[0] = c
    return n


cdef bint events_step(MTState* s) noexcept nogil:
    cdef int e, c = 0, k, r = s.round % ROUNDS_PER_YEAR
    while s.order_pos < s.n_order:
        e = s.order[s.order_pos]
        if e == VIRTUAL:
            # The virtual player flips an event only when first (Solo Play, 2.5).
            if s.order_pos == 0:
                c = vp_event_choice(s)
                if c >= 0:
                    s.event_used[r] |= <uint8_t>(1 << c)
                    ev_emit(EV_EVENT_FLIPPED, VIRTUAL, EV_NONE, s.event_tile[r][c], c, r, 0)
            s.vp_number = 0
            s.order_pos += 1
            continue
        if s.opt.challenge == 4 and s.order_pos != 0:
            ev_emit(EV_NO_EVENT, e, 1, 0, 0, 0, 0)
            s.order_pos += 1
            continue
        k = events_available(s, &c)
        if k > 0:
            decide(s, e, PH_EVENT)
            if k == 1:
                # No choice: the only tile left is flipped at once (then the flow goes on).
                activate_event(s, c)
            return True
        ev_emit(EV_NO_EVENT, e, 0, 0, 0, 0, 0)
        s.order_pos += 1
    s.vp_number = 0
    if s.round % 2 == 1:
        s.flow = FLOW_SETTLE
        s.order_pos = 0
        s.sub = SS_BUILDINGS
    else:
        next_round(s)
    return False


cdef void next_round(MTState* s) noexcept nogil:
    cdef int i, r
    if s.round == ROUNDS_PER_YEAR - 1:
        # After the winter settlement of year 1 every event tile turns face up again.
        for r in range(ROUNDS_PER_YEAR):
            s.event_used[r] = 0
        ev_emit(EV_EVENTS_RENEWED, EV_NONE, EV_NONE, 0, 0, 0, 0)
    s.round += 1
    for i in range(s.opt.n_players):
        s.p[i].prev_actions = s.p[i].cur_actions
        s.p[i].cur_actions = 0
    s.order_pos = 0
    s.sub = 0
    if s.round >= N_ROUNDS:
        s.flow = FLOW_SECRETARY
    else:
        round_start_event(s)
        s.flow = FLOW_POLICY


cdef bint secretary_step(MTState* s) noexcept nogil:
    """Game end: each holder of the Secretary's level 3 skill makes one more policy decision,
    in turn order, before the reputation is counted."""
    cdef int e
    while s.order_pos < s.n_order:
        e = s.order[s.order_pos]
        if e != VIRTUAL and has_skill(&s.p[e], T_SECRETARY, 3):
            begin_policy(s, e)
            return True
        s.order_pos += 1
    s.flow = FLOW_FINAL
    return False

# ---------------------------------------------------------------------------------------------
# Seasonal settlement.

cdef void settle_buildings(MTState* s, int seat) noexcept nogil:
    """The building step of `seat`'s settlement ("First settle the building tiles, then settle
    the talent cards"): every building pays now, on the fief as it stands before the talents
    act (the Works Office and the Free Market replace the normal yield in their seasons, the
    Military Garrison adds to it; an Architect's settlement town or farmland comes later)."""
    cdef MTPlayer* pl = &s.p[seat]
    cdef int bit = 1 << season_of(s), farms, towns
    if has_building(pl, B_GRANARY):
        pl.res[RES_GRAIN] += 1
        ev_emit(EV_SETTLE_BUILDING, seat, B_GRANARY, RES_GRAIN, 1, 0, 0)
    if has_building(pl, B_MINT):
        pl.res[RES_MONEY] += 1
        ev_emit(EV_SETTLE_BUILDING, seat, B_MINT, RES_MONEY, 1, 0, 0)
    if s.opt.legacy:
        return      # legacy_readings: the other buildings pay after the talents (settle_yields)
    farms = count_cells(pl, C_FARMLAND)
    towns = count_cells(pl, C_TOWN)
    if has_building(pl, B_WORKS) and (T.works_seasons & bit):
        pl.res[RES_GRAIN] += T.works_grain * farms
        if farms > 0:
            ev_emit(EV_SETTLE_BUILDING, seat, B_WORKS, RES_GRAIN, T.works_grain * farms, farms, 0)
    if has_building(pl, B_MARKET) and (T.market_seasons & bit):
        pl.res[RES_MONEY] += T.market_money * towns
        if towns > 0:
            ev_emit(EV_SETTLE_BUILDING, seat, B_MARKET, RES_MONEY, T.market_money * towns, towns, 0)
    if has_building(pl, B_GARRISON) and (T.garrison_seasons & bit):
        pl.res[RES_GRAIN] += T.garrison_grain * farms
        if farms > 0:
            ev_emit(EV_SETTLE_BUILDING, seat, B_GARRISON, RES_GRAIN, T.garrison_grain * farms,
                    farms, 0)


cdef void settle_yields_legacy(MTState* s, int seat) noexcept nogil:
    """legacy_readings (the engine before issue 13): after the talents, the Works Office or the
    farmland, the Free Market or the towns, then the Military Garrison, on the fief as the
    talents left it."""
    cdef MTPlayer* pl = &s.p[seat]
    cdef int season = season_of(s), farms, towns, bit = 1 << season
    cdef bint farm_season = (not s.opt.seasonal_yields) or (T.farmland_seasons & bit)
    cdef bint town_season = (not s.opt.seasonal_yields) or (T.town_seasons & bit)
    farms = count_cells(pl, C_FARMLAND)
    towns = count_cells(pl, C_TOWN)
    if has_building(pl, B_WORKS) and (T.works_seasons & bit):
        pl.res[RES_GRAIN] += T.works_grain * farms
        if farms > 0:
            ev_emit(EV_SETTLE_BUILDING, seat, B_WORKS, RES_GRAIN, T.works_grain * farms, farms, 0)
    elif farm_season:
        pl.res[RES_GRAIN] += T.farmland_grain * farms
        if farms > 0:
            ev_emit(EV_SETTLE_LAND, seat, 0, RES_GRAIN, T.farmland_grain * farms, farms, 0)
    if has_building(pl, B_MARKET) and (T.market_seasons & bit):
        pl.res[RES_MONEY] += T.market_money * towns
        if towns > 0:
            ev_emit(EV_SETTLE_BUILDING, seat, B_MARKET, RES_MONEY, T.market_money * towns, towns, 0)
    elif town_season:
        pl.res[RES_MONEY] += T.town_money * towns
        if towns > 0:
            ev_emit(EV_SETTLE_LAND, seat, 1, RES_MONEY, T.town_money * towns, towns, 0)
    if has_building(pl, B_GARRISON) and (T.garrison_seasons & bit):
        pl.res[RES_GRAIN] += T.garrison_grain * farms
        if farms > 0:
            ev_emit(EV_SETTLE_BUILDING, seat, B_GARRISON, RES_GRAIN, T.garrison_grain * farms,
                    farms, 0)


cdef void settle_yields(MTState* s, int seat) noexcept nogil:
    """Farmland grain and town money (after the talents: an Architect's new farmland or town
    yields here), except where the Works Office or the Free Market replaced them this season."""
    cdef MTPlayer* pl = &s.p[seat]
    cdef int season = season_of(s), farms, towns, bit = 1 << season
    cdef bint farm_season = (not s.opt.seasonal_yields) or (T.farmland_seasons & bit)
    cdef bint town_season = (not s.opt.seasonal_yields) or (T.town_seasons & bit)
    farms = count_cells(pl, C_FARMLAND)
    towns = count_cells(pl, C_TOWN)
    if farm_season and not (has_building(pl, B_WORKS) and (T.works_seasons & bit)):
        pl.res[RES_GRAIN] += T.farmland_grain * farms
        if farms > 0:
            ev_emit(EV_SETTLE_LAND, seat, 0, RES_GRAIN, T.farmland_grain * farms, farms, 0)
    if town_season and not (has_building(pl, B_MARKET) and (T.market_seasons & bit)):
        pl.res[RES_MONEY] += T.town_money * towns
        if towns > 0:
            ev_emit(EV_SETTLE_LAND, seat, 1, RES_MONEY, T.town_money * towns, towns, 0)


cdef void settle_praise(MTState* s, int seat) noexcept nogil:
    cdef MTPlayer* pl = &s.p[seat]
    cdef int year = year_of(s), season = season_of(s), praise = s.praise[year][season], m = 0
    cdef int rep = praise_reward(s, seat, praise, year)
    pl.praise_gain = <uint16_t>rep
    if ev_sink() != NULL:
        m = praise_measure(s, seat, praise, year)
    if rep > 0:
        rep_event(s, seat, SRC_PRAISES, rep, EV_PRAISE, praise, m, year, season)
        if has_skill(pl, T_FIRSTBORN, 2):
            rep_event(s, seat, SRC_TALENTS, T.firstborn_praise, EV_SKILL_REPUTATION, T_FIRSTBORN,
                      2, 0, 0)
    else:
        ev_emit(EV_PRAISE, seat, praise, 0, m, year, season)


cdef bint architect_possible(const MTState* s, int seat) noexcept nogil:
    if season_of(s) % 2 == 0:       # spring, autumn: build a town
        return town_target_exists(s, seat, -1)
    return reclaim_target_exists(s, seat, -1)   # summer, winter: reclaim farmland


cdef bint settle_seat_step(MTState* s, int seat) noexcept nogil:
    """One seat's settlement: buildings, then talents, then farmland and towns, then the
    season's Eight Praises tile. True when a decision is due."""
    cdef MTPlayer* pl = &s.p[seat]
    while True:
        if s.sub == SS_BUILDINGS:
            settle_buildings(s, seat)
            s.sub = SS_BREWER
        elif s.sub == SS_BREWER:
            s.sub = SS_TRADER
            if has_skill(pl, T_BREWER, 2) and pl.res[RES_GRAIN] >= 1:
                decide(s, seat, PH_BREWER_WINE)
                return True
        elif s.sub == SS_TRADER:
            s.sub = SS_ADMIN
            if has_skill(pl, T_TRADER, 1) and (pl.res[RES_MONEY] >= 1 or pl.res[RES_GRAIN] >= 1):
                decide(s, seat, PH_TRADE)
                return True
        elif s.sub == SS_ADMIN:
            s.sub = SS_SECRETARY
            if has_skill(pl, T_ADMIN, 2) and uncovered(s, seat) != 0:
                s.remove_ctx = RM_ADMIN
                decide(s, seat, PH_REMOVE)
                return True
        elif s.sub == SS_SECRETARY:
            s.sub = SS_ARCHITECT
            if has_skill(pl, T_SECRETARY, 2) and popcount(uncovered(s, seat)) >= 2:
                s.swap_first = NONE8
                decide(s, seat, PH_SWAP)
                return True
        elif s.sub == SS_ARCHITECT:
            s.sub = SS_YIELD
            if has_skill(pl, T_ARCHITECT, 2) and architect_possible(s, seat):
                decide(s, seat, PH_ARCHITECT)
                return True
        elif s.sub == SS_YIELD:
            if s.opt.legacy:
                settle_yields_legacy(s, seat)
            else:
                settle_yields(s, seat)
            s.sub = SS_PRAISE
        elif s.sub == SS_PRAISE:
            settle_praise(s, seat)
            s.sub = SS_DONE
        else:
            return False


cdef bint settle_step(MTState* s) noexcept nogil:
    cdef int e
    if s.order_pos == 0 and s.sub == SS_BUILDINGS:     # (only on entering the settlement)
        ev_emit(EV_SETTLEMENT, EV_NONE, EV_NONE, season_of(s), year_of(s), 0, 0)
    while s.order_pos < s.n_order:
        e = s.order[s.order_pos]
        if e != VIRTUAL and settle_seat_step(s, e):
            return True
        s.order_pos += 1
        s.sub = SS_BUILDINGS
    s.flow = FLOW_SETTLE_END
    s.sub = SE_DUGU
    s.order_pos = 0
    return False


cdef void dugu_settlement(MTState* s) noexcept nogil:
    """Dugu Wei 2: +1 of each resource track the holder alone leads (after the settlement)."""
    cdef int lead[MAX_PLAYERS][3]
    cdef int i, j, r, n = s.opt.n_players
    for i in range(n):
        for r in range(3):
            lead[i][r] = 0
            if not has_skill(&s.p[i], T_DUGU, 2):
                continue
            lead[i][r] = 1
            for j in range(n):
                if j != i and s.p[j].res[r] >= s.p[i].res[r]:
                    lead[i][r] = 0
    for i in range(n):
        for r in range(3):
            if lead[i][r]:
                s.p[i].res[r] += 1
                ev_emit(EV_SKILL_RESOURCE, i, T_DUGU, 2, r, 1, 0)


cdef void give_study_marker(MTState* s, int seat) noexcept nogil:
    cdef int scholar = tutor_seat(s, TU_SCHOLAR)
    s.study_left -= 1
    s.p[seat].study += 1
    ev_emit(EV_STUDY_MARKER, seat, EV_NONE, s.p[seat].study, s.p[seat].praise_gain, 0, 0)
    if scholar >= 0 and scholar != seat:
        rep_event(s, scholar, SRC_TUTORS, T.teaching_rep, EV_TUTOR_REPUTATION, TU_SCHOLAR, seat,
                  TR_TEACHING, 0)


cdef bint scholar_settlement(MTState* s) noexcept nogil:
    """The season's study marker to the best Eight Praises gain (ties: more of the season bonus
    resource; still tied: the Scholar's holder chooses). True when that choice is due."""
    cdef int i, best = 0, kind, most = -1, n = s.opt.n_players, scholar = tutor_seat(s, TU_SCHOLAR)
    cdef int ties = 0
    if scholar < 0 or s.study_left == 0:
        return False
    for i in range(n):
        if s.p[i].praise_gain > best:
            best = s.p[i].praise_gain
    if best == 0:
        s.study_left -= 1       # nobody gained: the marker is discarded
        ev_emit(EV_STUDY_MARKER, EV_NONE, EV_NONE, 0, 0, 0, 0)
        return False
    kind = s.season_bonus[season_of(s)]
    for i in range(n):
        if s.p[i].praise_gain == best and s.p[i].res[kind] > most:
            most = s.p[i].res[kind]
    for i in range(n):
        if s.p[i].praise_gain == best and s.p[i].res[kind] == most:
            ties |= 1 << i
    if popcount(ties) == 1:
        give_study_marker(s, ctz(ties))
        return False
    s.ties = <uint8_t>ties
    decide(s, scholar, PH_SCHOLAR)
    return True


cdef bint settle_end_step(MTState* s) noexcept nogil:
    cdef int e, holder, r
    while True:
        if s.sub == SE_DUGU:
            dugu_settlement(s)
            s.sub = SE_SCHOLAR
        elif s.sub == SE_SCHOLAR:
            s.sub = SE_CHALLENGE
            if scholar_settlement(s):
                return True
        elif s.sub == SE_CHALLENGE:
            if s.opt.challenge == 2:
                r = s.p[0].res[RES_MONEY]
                add_res(&s.p[0], RES_MONEY, -T.g2_money_loss, SRC_TUTORS)
                ev_emit(EV_CHALLENGE_LOSS, 0, EV_NONE, r - s.p[0].res[RES_MONEY], 0, 0, 0)
            s.sub = SE_DONATE_KIND
        elif s.sub == SE_DONATE_KIND:
            s.sub = SE_DONATE
            s.order_pos = 0
            if tutor_seat(s, TU_PHILANTHROPIST) >= 0:
                decide(s, s.order[0], PH_DONATE_KIND)
                return True
            s.sub = SE_COMMANDER
        elif s.sub == SE_DONATE:
            while s.order_pos < s.n_order:
                e = s.order[s.order_pos]
                if s.p[e].res[s.donation_kind] > 0:
                    decide(s, e, PH_DONATE)
                    return True
                s.order_pos += 1
            s.sub = SE_COMMANDER
        elif s.sub == SE_COMMANDER:
            s.sub = SE_DONE
            holder = tutor_seat(s, TU_COMMANDER)
            if holder >= 0 and s.order[0] == holder:
                decide(s, holder, PH_COMMANDER)
                return True
        else:
            for e in range(s.opt.n_players):
                s.p[e].praise_gain = 0
            next_round(s)
            return False

# ---------------------------------------------------------------------------------------------
# Applying decisions: the policy decision and the edict effects.

cdef void start_effects(MTState* s, int tile, bint optional) noexcept nogil:
    """Execute edict tile `tile` by its tier. The rulebook: tier I "the tile has only one action
    effect, which is executed"; tier II "choose one of the two and execute it"; tier III "both
    may be executed", in the order the player chooses. So a tier I or II effect is due whenever
    one can be carried out (PH_EFFECT offers no stop), and skipped only when none can; a tier
    III tile's effects may be left. `optional`: every effect may be left (the tidy-up's tile,
    which "may" be executed, and the option optional_edict_effects)."""
    cdef int j
    s.tile = <uint8_t>tile
    s.effects_left = 0
    for j in range(T.n_effects[tile]):
        s.effects_left |= <uint8_t>(1 << T.effect[tile][j])
    s.effects_todo = 2 if T.tier[tile] == 3 else 1
    s.may_stop = 1 if (optional or s.opt.optional_effects or T.tier[tile] == 3) else 0
    effect_done(s)


cdef void effect_done(MTState* s) noexcept nogil:
    """An effect is over: offer the tile's remaining effect, or end the policy decision."""
    if any_effect_possible(s):
        s.phase = PH_EFFECT
        return
    policy_done(s)


cdef void reveal_events(const MTState* s, int seat, uint32_t before) noexcept nogil:
    """An event for each of `seat`'s edict slots face up now and not in `before`."""
    cdef const MTPlayer* pl = &s.p[seat]
    cdef uint32_t m = pl.faceup & ~before
    cdef int j
    while m:
        j = ctz(m)
        m &= m - 1
        ev_emit(EV_EDICT_REVEALED, seat, EV_NONE, j, pl.slot_tile[j], 0, 0)


cdef inline int take_tile(MTState* s, int seat, int slot) noexcept nogil:
    """edict_take for `seat`, with an event for each face-down tile it uncovers (challenge
    games 5-7: what turns face up)."""
    cdef uint32_t before = s.p[seat].faceup
    cdef int tile = edict_take(&s.p[seat], s.opt.layout, slot)
    if s.opt.hidden_edicts and ev_sink() != NULL:
        reveal_events(s, seat, before)
    return tile


cdef void tidy_done(MTState* s) noexcept nogil:
    ev_emit(EV_TIDY_UP, s.cur, EV_NONE, s.removals, s.low_tile, 0, 0)
    if s.flow == FLOW_POLICY:
        s.p[s.cur].turn_number = s.low_tile
    if s.opt.tidy_effect:
        start_effects(s, s.low_tile, True)
    else:
        policy_done(s)


cdef void tidy_remove(MTState* s, int slot) noexcept nogil:
    cdef int buf[MAX_LEGAL]
    cdef int tile = take_tile(s, s.cur, slot)
    s.removals += 1
    s.removed_mask |= 1u << slot
    s.last = <int8_t>slot
    if tile < s.low_tile:
        s.low_tile = <uint8_t>tile
    s.phase = PH_TIDY
    if s.removals >= s.removals_max or uncovered(s, s.cur) == 0:
        tidy_done(s)
    elif legal_tidy(s, buf) == 1 and buf[0] == A_PASS:
        tidy_done(s)    # nothing more may be removed (canonical order): no decision


cdef void apply_policy(MTState* s, int a) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    cdef int tile
    if a == A_PASS:
        if s.flow == FLOW_POLICY:
            pl.turn_number = PASS_NUMBER
        policy_done(s)
        return
    if a < A_TIDY:
        tile = take_tile(s, s.cur, a - A_USE)
        if s.flow == FLOW_POLICY:
            pl.turn_number = <uint8_t>tile
        start_effects(s, tile, False)
        return
    pl.cur_actions |= 1 << ACT_TIDY
    s.removals = 0
    s.removed_mask = 0
    s.low_tile = NONE8
    s.removals_max = T.tidy_max_challenge if s.opt.challenge >= 5 else T.tidy_max
    if has_skill(pl, T_ADMIN, 1):
        s.removals_max += 1
    tidy_remove(s, a - A_TIDY)


cdef void begin_effect(MTState* s, int e) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    cdef int hi, lo
    s.effects_left &= <uint8_t>~(1 << e)
    s.effects_todo -= 1
    pl.cur_actions |= 1 << e
    s.last = -1
    if e == E_CULTIVATE:
        s.mode = CM_NONE
        s.placed = 0
        s.tribes = 0
        s.phase = PH_CULTIVATE
    elif e == E_RECLAIM:
        s.left = T.agri_times if has_skill(pl, T_AGRI, 2) else 1
        s.ctx = CTX_POLICY
        s.phase = PH_RECLAIM
    elif e == E_TOWN:
        s.left = T.commerce_times if has_skill(pl, T_COMMERCE, 2) else 1
        s.phase = PH_TOWN
    elif e == E_RECRUIT:
        s.phase = PH_RECRUIT
    elif e == E_BUILD:
        s.phase = PH_BUILD
    elif e == E_BREW:
        if pl.res[RES_GRAIN] == 1:
            brew(s, 1)
        else:
            s.phase = PH_BREW
    elif e == E_CELEBRATE:
        hi = elder_celebration_money(pl)
        lo = T.celebration_wine - pl.res[RES_WINE]
        if lo < 0:
            lo = 0
        if hi > lo:
            s.phase = PH_CELEBRATE
        else:
            celebrate(s, lo)
    else:
        if (has_skill(pl, T_ELDER, 2) and pl.res[RES_WINE] >= T.sacrifice_wine
                and pl.res[RES_MONEY] >= T.elder_sacrifice_money):
            s.phase = PH_SACRIFICE
        else:
            sacrifice(s, 0 if pl.res[RES_WINE] >= T.sacrifice_wine else 1)


cdef void brew(MTState* s, int k) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    pl.res[RES_GRAIN] -= k
    pl.res[RES_WINE] += k
    effect_done(s)


cdef void celebrate(MTState* s, int money) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    pl.res[RES_GRAIN] -= T.celebration_grain
    pl.res[RES_WINE] -= T.celebration_wine - money
    pl.res[RES_MONEY] -= money
    # (One gain in the reputation track, told as the celebration's and the skill's parts.)
    rep_event(s, s.cur, SRC_CELEBRATION, T.celebration_rep, EV_CELEBRATION, EV_NONE,
              T.celebration_grain, T.celebration_wine - money, money)
    if has_skill(pl, T_SACRIFICE, 1):
        rep_event(s, s.cur, SRC_CELEBRATION, T.sacr_celeb_bonus, EV_SKILL_REPUTATION, T_SACRIFICE,
                  1, 0, 0)
    effect_done(s)


cdef void sacrifice(MTState* s, int money) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    pl.res[RES_GRAIN] -= T.sacrifice_grain
    if money:
        pl.res[RES_MONEY] -= T.elder_sacrifice_money
    else:
        pl.res[RES_WINE] -= T.sacrifice_wine
    rep_event(s, s.cur, SRC_SACRIFICE, T.sacrifice_rep, EV_SACRIFICE_HEAVEN, EV_NONE,
              T.sacrifice_grain, 0 if money else T.sacrifice_wine,
              T.elder_sacrifice_money if money else 0)
    if has_skill(pl, T_SACRIFICE, 2):
        rep_event(s, s.cur, SRC_SACRIFICE, T.sacr_sacrifice_bonus, EV_SKILL_REPUTATION,
                  T_SACRIFICE, 2, 0, 0)
    effect_done(s)


cdef void cultivate_place(MTState* s, int a) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    cdef bint mountain = a >= A_MOUNTAIN
    cdef int l = a - (A_MOUNTAIN if mountain else A_FLAT), cost = cultivate_cost(pl)
    if s.mode == CM_NONE:
        s.mode = CM_MOUNTAIN if mountain else CM_FLAT
        if mountain:
            s.left = T.pioneer_mountain_times if has_skill(pl, T_PIONEER, 2) else T.mountain_times
        else:
            s.left = T.flat_times
    pl.res[RES_MONEY] -= cost
    pl.cell[l] = C_ASCENT if l == SUMMIT_CELL else C_SETTLEMENT
    s.placed |= <uint16_t>(1 << l)
    s.last = <int8_t>l
    s.left -= 1
    if cell_is_tribe(s, s.cur, l) and has_skill(pl, T_ADMIN, 1):
        s.tribes += 1
    if s.left > 0 and pl.res[RES_MONEY] >= cultivate_cost(pl):
        # Another placement only if a cell qualifies (else the list would be just "stop").
        if legal_cultivate_count(s) > 1:
            return
    cultivation_done(s)


cdef int legal_cultivate_count(const MTState* s) noexcept nogil:
    cdef int buf[MAX_LEGAL]
    return legal_cultivate(s, buf)


cdef void cultivation_done(MTState* s) noexcept nogil:
    """All placements made: the Pioneer's grain (once per action), then the Administrative
    Official's removals for primitive tribes, then the Descendant of Zheng's water."""
    cdef MTPlayer* pl = &s.p[s.cur]
    cdef int buf[MAX_LEGAL]
    if s.mode == CM_FLAT or s.mode == CM_MOUNTAIN:
        if has_skill(pl, T_PIONEER, 1):
            pl.res[RES_GRAIN] += T.pioneer_grain
            ev_emit(EV_SKILL_RESOURCE, s.cur, T_PIONEER, 1, RES_GRAIN, T.pioneer_grain, 0)
        s.mode = CM_AFTER
    if s.mode == CM_AFTER:
        if s.tribes > 0 and uncovered(s, s.cur) != 0:
            s.tribes -= 1
            s.remove_ctx = RM_TRIBE
            s.phase = PH_REMOVE
            return
        s.tribes = 0
        s.mode = CM_WATER_DONE
        if has_skill(pl, T_ZHENG, 1) and legal_water(s, buf) > 1:
            s.phase = PH_WATER
            return
    effect_done(s)


cdef void reclaim_cell(MTState* s, int l) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    pl.res[RES_MONEY] -= reclaim_cost(s, s.cur, l)
    pl.cell[l] = C_FARMLAND
    s.last = <int8_t>l


cdef void town_cell(MTState* s, int l) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    pl.res[RES_MONEY] -= T.town_cost
    pl.cell[l] = C_TOWN
    if has_skill(pl, T_COMMERCE, 1):
        pl.res[RES_GRAIN] += T.commerce_grain
        ev_emit(EV_SKILL_RESOURCE, s.cur, T_COMMERCE, 1, RES_GRAIN, T.commerce_grain, 0)
    s.last = <int8_t>l


cdef void reclaim_continue(MTState* s) noexcept nogil:
    if s.ctx == CTX_ARCHITECT:
        advance(s)
        return
    if s.left > 0 and reclaim_target_exists(s, s.cur, s.last):
        s.phase = PH_RECLAIM
        return
    effect_done(s)


cdef void after_reclaim(MTState* s) noexcept nogil:
    """The Agricultural Official's grain -> wine may follow each reclamation."""
    if has_skill(&s.p[s.cur], T_AGRI, 1) and s.p[s.cur].res[RES_GRAIN] >= 1:
        s.phase = PH_AGRI_WINE
        return
    reclaim_continue(s)


cdef void build_after(MTState* s) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    if s.mode == BM_OBSERVATORY:
        s.mode = BM_SECRETARY
        if (s.last == B_OBSERVATORY and pl.res[RES_MONEY] >= T.observatory_cost
                and red_talent_available(s, s.cur)):
            s.phase = PH_OBSERVATORY
            return
    if s.mode == BM_SECRETARY:
        s.mode = BM_DONE
        if has_skill(pl, T_SECRETARY, 1) and uncovered(s, s.cur) != 0:
            s.remove_ctx = RM_SECRETARY
            s.phase = PH_REMOVE
            return
    effect_done(s)


cdef void build_kind(MTState* s, int kind) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    cdef int holder = tutor_seat(s, TU_MASTER_BUILDER)
    pl.res[RES_MONEY] -= build_cost(pl, kind)
    if holder >= 0:
        if holder == s.cur:
            s.builder_mark = <uint8_t>kind
        elif s.builder_mark == kind:
            rep_event(s, s.cur, SRC_TUTORS, -T.builder_toll, EV_TUTOR_REPUTATION,
                      TU_MASTER_BUILDER, holder, TR_TOLL_PAID, kind)
            rep_event(s, holder, SRC_TUTORS, T.builder_toll, EV_TUTOR_REPUTATION,
                      TU_MASTER_BUILDER, s.cur, TR_TOLL_RECEIVED, kind)
    blueprint_take(s, kind)
    pl.buildings |= <uint8_t>(1 << kind)
    s.last = <int8_t>kind
    s.mode = BM_OBSERVATORY
    build_after(s)


cdef void resolve_reward(MTState* s, int seat, int kind, int amount) noexcept nogil:
    """An event reward of `amount` of `kind` (RES_*), +1 if the season's bonus tile matches."""
    cdef int before = s.p[seat].res[kind], bonus = 0
    if kind == s.season_bonus[season_of(s)]:
        amount += T.event_bonus
        bonus = 1
    add_res(&s.p[seat], kind, amount, SRC_EVENTS)
    amount = s.p[seat].res[kind] - before
    ev_emit(EV_EVENT_REWARD, seat, EV_NONE, kind, amount, bonus,
            amount if kind == RES_REP else 0)


cdef void event_done(MTState* s) noexcept nogil:
    s.order_pos += 1
    advance(s)


cdef void activate_event(MTState* s, int c) noexcept nogil:
    cdef int r = s.round % ROUNDS_PER_YEAR, tile = s.event_tile[r][c], seat = s.cur, i
    cdef int kind = T.event_kind[tile], colour = T.event_colour[tile], amount = T.event_amount[tile]
    cdef MTPlayer* pl = &s.p[seat]
    cdef bint first = s.order_pos == 0
    s.event_used[r] |= <uint8_t>(1 << c)
    ev_emit(EV_EVENT_FLIPPED, seat, EV_NONE, tile, c, r, 0)
    if kind == EV_ZERO:
        event_done(s)
        return
    if kind == EV_EXCHANGE:
        for i in range(s.opt.n_players):
            if has_skill(&s.p[i], T_TRADER, 2):
                s.p[i].res[RES_MONEY] += T.trader_money
                ev_emit(EV_SKILL_RESOURCE, i, T_TRADER, 2, RES_MONEY, T.trader_money, 0)
        if pl.res[RES_MONEY] >= 1 or pl.res[RES_GRAIN] >= 1:
            s.phase = PH_EXCHANGE
            return
        event_done(s)
        return
    if colour == 2 and has_skill(pl, T_PUBLICIST, 1):
        rep_event(s, seat, SRC_TALENTS, T.publicist_blue, EV_SKILL_REPUTATION, T_PUBLICIST, 1, 0, 0)
    if colour != 2 and has_skill(pl, T_PUBLICIST, 2):
        amount += T.publicist_bonus
        ev_emit(EV_REWARD_BONUS, seat, T_PUBLICIST, 2, T.publicist_bonus, 0, 0)
    if first and has_skill(pl, T_VANGUARD, 2):
        amount += T.vanguard_bonus
        ev_emit(EV_REWARD_BONUS, seat, T_VANGUARD, 2, T.vanguard_bonus, 0, 0)
    if first and amount > 0 and has_skill(pl, T_YINYANG, 2):
        s.reward = <int8_t>amount
        s.phase = PH_YINYANG
        return
    resolve_reward(s, seat, kind, amount)
    event_done(s)


cdef void donate(MTState* s, int k) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    cdef int before = pl.donation, j, holder = tutor_seat(s, TU_PHILANTHROPIST)
    pl.res[s.donation_kind] -= k
    pl.donation += k
    for j in range(3):
        if before < T.donation_threshold[j] <= pl.donation:
            rep_event(s, s.cur, SRC_TUTORS, T.donation_rep[j], EV_TUTOR_REPUTATION,
                      TU_PHILANTHROPIST, EV_NONE, TR_DONATION, T.donation_threshold[j])
            if holder >= 0:
                rep_event(s, holder, SRC_TUTORS, T.philanthropist_bonus, EV_TUTOR_REPUTATION,
                          TU_PHILANTHROPIST, s.cur, TR_PHILANTHROPIST, T.donation_threshold[j])


cdef void mt_apply(MTState* s, int a) noexcept nogil:
    cdef MTPlayer* pl = &s.p[s.cur]
    cdef int ph = s.phase, k, slot, t
    if ph == PH_POLICY:
        apply_policy(s, a)
    elif ph == PH_TIDY:
        if a == A_PASS:
            tidy_done(s)
        else:
            tidy_remove(s, a - A_REMOVE)
    elif ph == PH_EFFECT:
        if a == A_PASS:
            policy_done(s)
        else:
            begin_effect(s, a - A_EFFECT)
    elif ph == PH_CULTIVATE:
        if a == A_PASS:
            cultivation_done(s)
        else:
            cultivate_place(s, a)
    elif ph == PH_WATER:
        if a != A_PASS:
            s.map[to_map(s.quadrant[s.cur], a - A_WATER)] |= MAP_ARTIFICIAL
        effect_done(s)
    elif ph == PH_REMOVE:
        if a != A_PASS:
            take_tile(s, s.cur, a - A_REMOVE)
        if s.remove_ctx == RM_TRIBE:
            cultivation_done(s)
        elif s.remove_ctx == RM_SECRETARY:
            build_after(s)
        else:
            advance(s)
    elif ph == PH_RECLAIM:
        if a == A_PASS:
            effect_done(s)
        else:
            s.left -= 1
            reclaim_cell(s, a - A_RECLAIM)
            after_reclaim(s)
    elif ph == PH_AGRI_WINE:
        if a == A_YES:
            pl.res[RES_GRAIN] -= 1
            pl.res[RES_WINE] += 1
        reclaim_continue(s)
    elif ph == PH_TOWN:
        if a == A_PASS:
            effect_done(s)
        else:
            s.left -= 1
            town_cell(s, a - A_TOWN)
            if s.left > 0 and town_target_exists(s, s.cur, s.last):
                return
            effect_done(s)
    elif ph == PH_RECRUIT:
        if a == A_PASS:
            effect_done(s)
        elif a < A_DEVELOP:
            k = s.pile[a - A_RECRUIT][0]
            pl.res[RES_MONEY] -= recruit_cost(pl, k)
            pile_take(s, a - A_RECRUIT)
            gain_talent(s, s.cur, k, 1, False)
            effect_done(s)
        else:
            slot = a - A_DEVELOP
            pl.res[RES_MONEY] -= T.level_cost[pl.talent[slot]][pl.level[slot] - 1]
            pl.level[slot] += 1
            effect_done(s)
    elif ph == PH_BUILD:
        if a == A_PASS:
            effect_done(s)
        else:
            build_kind(s, a - A_BUILD)
    elif ph == PH_OBSERVATORY:
        if a != A_PASS:
            k = pile_take(s, a - A_RECRUIT)
            pl.res[RES_MONEY] -= T.observatory_cost
            gain_talent(s, s.cur, k, 1, False)
        build_after(s)
    elif ph == PH_VIRTUAL_TALENT:
        if a != A_PASS:
            pile_take(s, a - A_RECRUIT)
        advance(s)
    elif ph == PH_BREW:
        brew(s, a - A_AMOUNT)
    elif ph == PH_CELEBRATE:
        celebrate(s, a - A_AMOUNT)
    elif ph == PH_SACRIFICE:
        sacrifice(s, a - A_AMOUNT)
    elif ph == PH_EVENT:
        activate_event(s, a - A_EVENT)
    elif ph == PH_EXCHANGE:
        if a != A_PASS:
            k = a - A_EXCHANGE
            if k < 3:
                pl.res[RES_MONEY] -= k + 1
                resolve_reward(s, s.cur, RES_GRAIN, k + 1)
            else:
                pl.res[RES_GRAIN] -= k - 2
                resolve_reward(s, s.cur, RES_MONEY, k - 2)
        event_done(s)
    elif ph == PH_YINYANG:
        resolve_reward(s, s.cur, a - A_RESOURCE, s.reward)
        s.reward = 0
        event_done(s)
    elif ph == PH_BREWER_WINE:
        if a == A_YES:
            pl.res[RES_GRAIN] -= 1
            pl.res[RES_WINE] += 1
        advance(s)
    elif ph == PH_TRADE:
        if a == A_EXCHANGE + 0:
            pl.res[RES_MONEY] -= 1
            pl.res[RES_GRAIN] += 1
        elif a == A_EXCHANGE + 3:
            pl.res[RES_GRAIN] -= 1
            pl.res[RES_MONEY] += 1
        advance(s)
    elif ph == PH_SWAP:
        if a == A_PASS:
            advance(s)
        elif s.swap_first == NONE8:
            s.swap_first = <uint8_t>(a - A_SWAP)
        else:
            slot = a - A_SWAP
            t = pl.slot_tile[slot]
            pl.slot_tile[slot] = pl.slot_tile[s.swap_first]
            pl.slot_tile[s.swap_first] = <uint8_t>t
            s.swap_first = NONE8
            advance(s)
    elif ph == PH_ARCHITECT:
        if a == A_PASS:
            advance(s)
        elif a < A_TOWN:
            s.ctx = CTX_ARCHITECT
            reclaim_cell(s, a - A_RECLAIM)
            after_reclaim(s)
        else:
            town_cell(s, a - A_TOWN)
            advance(s)
    elif ph == PH_SCHOLAR:
        give_study_marker(s, a - A_SEAT)
        s.ties = 0
        advance(s)
    elif ph == PH_DONATE_KIND:
        s.donation_kind = <uint8_t>(a - A_RESOURCE)
        advance(s)
    elif ph == PH_DONATE:
        donate(s, a - A_AMOUNT)
        s.order_pos += 1
        advance(s)
    elif ph == PH_COMMANDER:
        k = a - A_SEAT
        rep_event(s, k, SRC_TUTORS, -T.commander_rep, EV_TUTOR_REPUTATION, TU_COMMANDER, s.cur,
                  TR_COMMANDER_LOSS, 0)
        rep_event(s, s.cur, SRC_TUTORS, T.commander_rep, EV_TUTOR_REPUTATION, TU_COMMANDER, k,
                  TR_COMMANDER_GAIN, 0)
        advance(s)
    elif ph == PH_BONUS_TALENT:
        s.carried_talent = <uint8_t>(a - A_BONUS_TALENT)
        advance(s)
    elif ph == PH_BONUS_BUILDING:
        s.carried_building[s.left] = <uint8_t>(a - A_BONUS_BUILDING)
        advance(s)

# ---------------------------------------------------------------------------------------------
# Entry points for tests that build positions by hand (MountTaiState._debug_*).

cdef void mt_debug_policy(MTState* s, int seat) noexcept nogil:
    s.flow = FLOW_POLICY
    cdef int i
    for i in range(s.n_order):
        if s.order[i] == seat:
            s.order_pos = <uint8_t>i
    if s.opt.solo:
        s.order_pos = 0
    begin_policy(s, seat)


cdef void mt_debug_flow(MTState* s, int flow) noexcept nogil:
    s.flow = <uint8_t>flow
    s.order_pos = 0
    s.sub = 0
    advance(s)

# ---------------------------------------------------------------------------------------------
# The C-level interface (engine/core/interface.pxd).

cdef int _num_players(const void* s) noexcept nogil:
    return (<const MTState*>s).opt.n_players


cdef int _current_player(const void* s) noexcept nogil:
    cdef const MTState* d = <const MTState*>s
    if d.phase == PH_OVER:
        return TERMINAL_PLAYER
    return d.cur


cdef int _legal(const void* s, int* out) noexcept nogil:
    cdef const MTState* d = <const MTState*>s
    if d.phase == PH_OVER:
        return 0
    return mt_legal(d, out)


cdef void _apply(void* s, int a) noexcept nogil:
    mt_apply(<MTState*>s, a)


cdef void _copy(const void* src, void* dst) noexcept nogil:
    memcpy(dst, src, sizeof(MTState))


cdef void _determinize(void* s, int player, Rng* rng) noexcept nogil:
    # Hidden from every player alike: the face-down talent cards, the face-down building
    # supply, the virtual player's undrawn tiles and (challenge 5-7) face-down edict tiles;
    # and the future (the state's RNG). Everything face up or played is kept.
    cdef MTState* d = <MTState*>s
    cdef int i
    supply_redeal(d, rng)
    if d.opt.solo:
        vp_redeal(d, rng)
    if d.opt.hidden_edicts:
        for i in range(d.opt.n_players):
            edict_redeal(&d.p[i], d.opt.layout, d.opt.challenge == 6, rng)
    d.rng.state = rng_next(rng)


cdef uint64_t _chance_signature(const void* s, int observer) noexcept nogil:
    # What is hidden at the deal and shown later, hashed: the tile of each edict slot that is no
    # longer face down (challenges 5-7: face up, or used or removed after it was shown), and in
    # solo games the virtual player's tiles drawn so far. Every seat's alike, since both are
    # public once shown. The same in every determinization of one information set; 0 in a
    # several-player game without face-down edicts. Reads only: no rule step. The talent and
    # building piles and the state's future chance are left to the determinizations.
    cdef const MTState* d = <const MTState*>s
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL
    cdef uint32_t known
    cdef int i, j
    if not d.opt.hidden_edicts and not d.opt.solo:
        return 0
    if d.opt.hidden_edicts:
        for i in range(d.opt.n_players):
            known = ~(d.p[i].present & ~d.p[i].faceup)
            for j in range(N_SLOTS):
                if (known >> j) & 1:
                    h = rng_mix(h, (<uint64_t>i << 16) | (<uint64_t>j << 8) | d.p[i].slot_tile[j])
    if d.opt.solo:
        for i in range(d.vp_next):
            h = rng_mix(h, (<uint64_t>0xFF << 24) | (<uint64_t>i << 8) | d.vp_tiles[i])
    return h


cdef void _reset(void* s, uint64_t seed) noexcept nogil:
    cdef MTOptions o = (<MTState*>s).opt
    mt_init(<MTState*>s, &o, seed)


cdef bint _is_terminal(const void* s) noexcept nogil:
    return (<const MTState*>s).phase == PH_OVER


cdef void _ranks(const void* s, int* out) noexcept nogil:
    mt_ranks(<const MTState*>s, out)


cdef void _returns(const void* s, double* out) noexcept nogil:
    cdef const MTState* d = <const MTState*>s
    cdef int ranks[MAX_PLAYERS]
    cdef int i, winners = 0, n = d.opt.n_players
    if d.opt.solo:
        out[0] = 1.0 if solo_goal_reached(d) else 0.0
        return
    mt_ranks(d, ranks)
    for i in range(n):
        if ranks[i] == 0:
            winners += 1
    for i in range(n):
        out[i] = 1.0 / winners if ranks[i] == 0 else 0.0


cdef void _scores(const void* s, double* out) noexcept nogil:
    cdef const MTState* d = <const MTState*>s
    cdef int i
    for i in range(d.opt.n_players):
        out[i] = d.p[i].res[RES_REP]


cdef double _goal(const void* s) noexcept nogil:
    return solo_goal(<const MTState*>s)


cdef int _action_key(const void* s, int action) noexcept nogil:
    # Where edict tiles lie face down (challenges 5-7), the tile an action on an uncovered slot
    # takes, removes or swaps differs between determinizations once a move has uncovered the
    # slot: such actions are keyed by the tile (always face up once uncovered), in their own
    # action range. Everywhere else a slot always holds the same tile: the action itself.
    cdef const MTState* d = <const MTState*>s
    cdef int base
    if not d.opt.hidden_edicts or action < A_USE or action >= A_SWAP + N_SLOTS:
        return action
    base = (A_USE if action < A_TIDY else A_TIDY if action < A_REMOVE
            else A_REMOVE if action < A_SWAP else A_SWAP)
    return base + d.p[d.cur].slot_tile[action - base] - 1


cdef GameDef _GAMEDEF
memset(&_GAMEDEF, 0, sizeof(GameDef))
_GAMEDEF.name = b"mount-tai"
_GAMEDEF.state_size = sizeof(MTState)
_GAMEDEF.num_distinct_actions = N_ACTIONS
_GAMEDEF.max_legal_actions = MAX_LEGAL
_GAMEDEF.num_players = _num_players
_GAMEDEF.current_player = _current_player
_GAMEDEF.legal_actions = _legal
_GAMEDEF.apply_action = _apply
_GAMEDEF.copy_state = _copy
_GAMEDEF.determinize = _determinize
_GAMEDEF.reset = _reset
_GAMEDEF.is_terminal = _is_terminal
_GAMEDEF.returns = _returns
_GAMEDEF.scores = _scores
_GAMEDEF.ranks = _ranks
_GAMEDEF.move_prior = mt_move_prior
_GAMEDEF.evaluate = mt_evaluate
_GAMEDEF.score_scale = 10.0        # a typical winning margin in reputation
_GAMEDEF.n_evaluators = 5
_GAMEDEF.evaluator_names[0] = b"hand"       # knowledge.pyx's projection (issue 14's baseline)
_GAMEDEF.evaluators[0] = mt_evaluate
_GAMEDEF.evaluator_names[1] = b"learned"    # learned.pyx: the model fitted by ai.learn
_GAMEDEF.evaluators[1] = mt_evaluate_learned
_GAMEDEF.evaluator_names[2] = b"learned-v2" # the same with the model of issue 14's first steps
_GAMEDEF.evaluators[2] = mt_evaluate_learned_v2
_GAMEDEF.evaluator_names[3] = b"learned-v3" # the same with the model of issue 14's third step
_GAMEDEF.evaluators[3] = mt_evaluate_learned_v3
_GAMEDEF.evaluator_names[4] = b"net"        # net.pyx: the value net of issue 38 (ai.learn net)
_GAMEDEF.evaluators[4] = mt_evaluate_net
_GAMEDEF.learned_prior = mt_net_prior       # net.pyx: the net's policy (SearchConfig.prior)
_GAMEDEF.goal = _goal
_GAMEDEF.chance_signature = _chance_signature
_GAMEDEF.action_key = _action_key


cdef const GameDef* mt_gamedef() noexcept nogil:
    return &_GAMEDEF
