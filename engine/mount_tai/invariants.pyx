# cython: language_level=3
"""Compiled invariant checks for Mount Tai, and a sweep of random games.

`check(state)` and `random_game_sweep(...)` let tests check every step of many thousands of
seeded random games at C speed: resources never negative and reputation equal to its sources; one
talent per colour (two red with the Observatory; carried challenge cards aside); at most one
building per kind and the building tiles conserved; edict tiles used only from uncovered slots and
never twice; cultivation only inside the fief, on barren dry land, by adjacency (re-derived here
independently of the rules); every settled cell connected to the first settlement; a legal action
at every decision; 16 rounds, one after the other, then the end.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memset

from engine.core.rng cimport Rng, rng_seed, rng_next, rng_below
from engine.core.state cimport State
from engine.core.interface cimport GameDef
from engine.mount_tai.state cimport *
from engine.mount_tai.tables cimport MTTables, mt_tables
from engine.mount_tai.rules cimport mt_apply, mt_init, mt_gamedef
from engine.mount_tai.legal cimport mt_legal
from engine.mount_tai.edicts cimport edict_uncovered, edict_uncovered_recount, edict_slot_count
from engine.mount_tai.supply cimport talent_pool

cdef const MTTables* T = mt_tables()

# Violation bits.
cdef enum:
    BAD_RESOURCE = 1 << 0       # a negative resource, or reputation != the sum of its sources
    BAD_TALENT = 1 << 1         # colour rule broken, level outside 1..3, more cards than the pool
    BAD_BUILDING = 1 << 2       # a kind not in this game, blueprint kinds repeated, tiles created
    BAD_EDICT = 1 << 3          # a tile twice, a used tile still present, hidden uncovered tile
    BAD_CULTIVATION = 1 << 4    # a settled cell on water, or not connected to the first settlement
    BAD_FLOW = 1 << 5           # no legal action at a decision, round out of range, bad end
    BAD_USE = 1 << 6            # (sweep) an edict tile taken from a covered slot
    BAD_CULTIVATE_ACTION = 1 << 7  # (sweep) a cultivation not adjacent / not barren / on water
    BAD_ROUNDS = 1 << 8         # (sweep) rounds skipped or repeated, or the end before round 16
    BAD_EVENTS = 1 << 9         # a flipped event space without a tile

VIOLATIONS = {
    "resource": BAD_RESOURCE, "talent": BAD_TALENT, "building": BAD_BUILDING,
    "edict": BAD_EDICT, "cultivation": BAD_CULTIVATION, "flow": BAD_FLOW, "use": BAD_USE,
    "cultivate action": BAD_CULTIVATE_ACTION, "rounds": BAD_ROUNDS, "events": BAD_EVENTS,
}


cdef int height(int l) noexcept nogil:
    cdef int a = l // 4, b = l % 4
    return min(a, b) + 1


cdef int global_cell(int q, int l) noexcept nogil:
    cdef int a = l // 4, b = l % 4
    if q == 0:
        return a * 8 + b
    if q == 1:
        return a * 8 + 7 - b
    if q == 2:
        return (7 - a) * 8 + 7 - b
    return (7 - a) * 8 + b


cdef bint wet(const MTState* s, int seat, int l) noexcept nogil:
    return (s.map[global_cell(s.quadrant[seat], l)] & (MAP_WATER | MAP_ARTIFICIAL)) != 0


cdef bint zheng2(const MTPlayer* pl) noexcept nogil:
    cdef int i
    for i in range(pl.n_talents):
        if pl.talent[i] == T_ZHENG and pl.level[i] >= 2:
            return True
    return False


cdef bint reachable(const MTState* s, int seat, int t, int o, bint jump) noexcept nogil:
    """Cells t and o of the fief touch (or, with `jump`, lie two apart with water between)."""
    cdef int ta = t // 4, tb = t % 4, oa = o // 4, ob = o % 4
    cdef int d = abs(ta - oa) + abs(tb - ob)
    if d == 1:
        return True
    if jump and d == 2 and (ta == oa or tb == ob):
        return wet(s, seat, ((ta + oa) // 2) * 4 + (tb + ob) // 2)
    return False


cdef int mt_check(const MTState* s, int* buf) noexcept nogil:
    """The violated invariants of `s` as BAD_* bits (0 = all hold)."""
    cdef int bad = 0, i, j, k, c, n = s.opt.n_players, total, red_limit, changed
    cdef int colours[N_COLOURS]
    cdef int held_kind[N_TALENT_KINDS]
    cdef int tiles[N_TILES + 1]
    cdef uint8_t pool[N_TALENT_KINDS]
    cdef int bp_tiles, held_b, start_b
    cdef uint32_t unc, reach
    cdef const MTPlayer* pl
    memset(held_kind, 0, sizeof(held_kind))
    held_b = 0
    for i in range(n):
        pl = &s.p[i]
        total = 0
        for j in range(N_RES):
            if pl.res[j] < 0:
                bad |= BAD_RESOURCE
        for j in range(N_REP_SOURCES):
            total += pl.rep_src[j]
        if total != pl.res[RES_REP]:
            bad |= BAD_RESOURCE
        # Talents.
        memset(colours, 0, sizeof(colours))
        if pl.n_talents > MAX_TALENTS:
            bad |= BAD_TALENT
        else:
            for j in range(pl.n_talents):
                if pl.level[j] < 1 or pl.level[j] > 3 or pl.talent[j] >= N_TALENT_KINDS:
                    bad |= BAD_TALENT
                    continue
                if not (pl.carried >> j) & 1:
                    colours[T.talent_colour[pl.talent[j]]] += 1
                    held_kind[pl.talent[j]] += 1
        red_limit = T.max_red_observatory if (pl.buildings >> B_OBSERVATORY) & 1 else 1
        for c in range(N_COLOURS):
            if colours[c] > (red_limit if c == 3 else 1):
                bad |= BAD_TALENT
        # Buildings: kinds in this game only.
        for k in range(N_BUILDING_KINDS):
            if (pl.buildings >> k) & 1:
                held_b += 1
                if T.building_promo[k] and not s.opt.promos:
                    bad |= BAD_BUILDING
        # Edicts: each number at most once, never both present and gone; uncovered = face up.
        memset(tiles, 0, sizeof(tiles))
        for j in range(N_SLOTS):
            if (pl.present >> j) & 1:
                if j >= edict_slot_count(s.opt.layout) or pl.slot_tile[j] < 1 or pl.slot_tile[j] > N_TILES:
                    bad |= BAD_EDICT
                    continue
                tiles[pl.slot_tile[j]] += 1
                if (pl.gone >> (pl.slot_tile[j] - 1)) & 1:
                    bad |= BAD_EDICT
        for j in range(1, N_TILES + 1):
            if tiles[j] > 1:
                bad |= BAD_EDICT
        unc = edict_uncovered(pl, s.opt.layout)
        if (unc & ~pl.faceup) != 0 or (pl.faceup & ~pl.present) != 0:
            bad |= BAD_EDICT
        if unc != edict_uncovered_recount(pl, s.opt.layout):
            bad |= BAD_EDICT
        if not s.opt.hidden_edicts and pl.faceup != pl.present:
            bad |= BAD_EDICT
        # The fief: nothing on water; every tile connected to the first settlement.
        if pl.cell[0] == C_EMPTY:
            bad |= BAD_CULTIVATION
        reach = 1
        changed = 1
        while changed:
            changed = 0
            for j in range(N_CELLS):
                if pl.cell[j] == C_EMPTY or (reach >> j) & 1:
                    continue
                for k in range(N_CELLS):
                    if (reach >> k) & 1 and reachable(s, i, j, k, zheng2(pl)):
                        reach |= 1u << j
                        changed = 1
                        break
        for j in range(N_CELLS):
            if pl.cell[j] > C_ASCENT:
                bad |= BAD_CULTIVATION
            elif pl.cell[j] != C_EMPTY:
                if not (reach >> j) & 1:
                    bad |= BAD_CULTIVATION
                if j > 0 and wet(s, i, j):
                    bad |= BAD_CULTIVATION
                if (pl.cell[j] == C_ASCENT) != (j == SUMMIT_CELL):
                    bad |= BAD_CULTIVATION
    # Talent cards: never more of a kind in play than the pool holds.
    talent_pool(s, pool)
    for k in range(N_TALENT_KINDS):
        c = held_kind[k]
        for j in range(N_PILES):
            for i in range(s.pile_n[j]):
                if s.pile[j][i] == k:
                    c += 1
        if c > pool[k] or s.talent_seen[k] > pool[k]:
            bad |= BAD_TALENT
    for j in range(N_PILES):
        if s.pile_n[j] > PILE_MAX:
            bad |= BAD_TALENT
    # Buildings: distinct blueprint kinds; tiles in play never exceed the game's tiles.
    bp_tiles = 0
    for j in range(s.bp_n):
        bp_tiles += s.bp_count[j]
        if s.bp_count[j] == 0:
            bad |= BAD_BUILDING
        for k in range(j):
            if s.bp_kind[k] == s.bp_kind[j]:
                bad |= BAD_BUILDING
    start_b = 0
    for k in range(N_BUILDING_KINDS):
        if T.building_promo[k]:
            if s.opt.promos:
                start_b += T.building_copies[k]
        else:
            start_b += T.building_copies[k] - T.buildings_removed[s.opt.n_players]
    if s.supply_n + bp_tiles + held_b > start_b or s.bp_n > BLUEPRINT_MAX:
        bad |= BAD_BUILDING
    # Events.
    for j in range(ROUNDS_PER_YEAR):
        for c in range(N_EVENT_SPACES):
            if (s.event_used[j] >> c) & 1 and s.event_tile[j][c] == NONE8:
                bad |= BAD_EVENTS
    # Flow.
    if s.round > N_ROUNDS:
        bad |= BAD_FLOW
    if s.phase == PH_OVER:
        if s.round != N_ROUNDS or s.flow != FLOW_FINAL:
            bad |= BAD_FLOW
    else:
        if s.round == N_ROUNDS and s.flow != FLOW_SECRETARY:
            bad |= BAD_FLOW
        if mt_legal(s, buf) <= 0:
            bad |= BAD_FLOW
    return bad


cdef int check_action(const MTState* s, int a) noexcept nogil:
    """Checks of one action before it is applied: edict tiles from uncovered slots only, and
    cultivation on barren dry fief cells next to one of the player's tiles (re-derived here)."""
    cdef const MTPlayer* pl = &s.p[s.cur]
    cdef int bad = 0, slot, l, o
    cdef bint mountain, ok
    if A_USE <= a < A_SWAP + N_SLOTS:
        slot = (a - A_USE) % N_SLOTS
        if not (edict_uncovered(pl, s.opt.layout) >> slot) & 1:
            bad |= BAD_USE
    if A_FLAT <= a < A_WATER:
        mountain = a >= A_MOUNTAIN
        l = a - (A_MOUNTAIN if mountain else A_FLAT)
        ok = l < N_CELLS and pl.cell[l] == C_EMPTY and not wet(s, s.cur, l)
        if ok:
            ok = False
            for o in range(N_CELLS):
                if pl.cell[o] != C_EMPTY and reachable(s, s.cur, l, o, zheng2(pl)) and (
                        (height(o) != height(l)) == mountain):
                    ok = True
        if not ok:
            bad |= BAD_CULTIVATE_ACTION
    return bad


def check(state) -> list:
    """The names of the invariants `state` violates ([] if none)."""
    cdef int buf[MAX_LEGAL]
    cdef int bad = mt_check(<const MTState*>(<State>state).data, buf)
    return [name for name, bit in VIOLATIONS.items() if bad & bit]


def random_game_sweep(state, int games, uint64_t seed, int determinize_every=0) -> dict:
    """Play `games` random games from fresh setups with `state`'s options, checking every
    invariant after every step (and each action before it is applied). With
    `determinize_every` > 0, the game continues from a determinization (for a random seat)
    about that often. Returns counts and the first violation found (if any)."""
    cdef MTState st
    cdef MTOptions opt = (<const MTState*>(<State>state).data).opt
    cdef const GameDef* g = mt_gamedef()
    cdef int buf[MAX_LEGAL]
    cdef Rng rng, drng
    cdef int gi, n, a, bad = 0, first_bad = 0, last_round, max_legal = 0
    cdef long long steps = 0, first_game = -1, finished = 0, goals = 0
    cdef uint64_t game_seed, first_seed = 0
    cdef long long rep_total = 0
    cdef long long visits[N_PHASES]
    cdef int ph
    for ph in range(N_PHASES):
        visits[ph] = 0
    rng_seed(&rng, seed)
    with nogil:
        for gi in range(games):
            game_seed = rng_next(&rng)
            mt_init(&st, &opt, game_seed)
            last_round = 0
            while True:
                bad = mt_check(&st, buf)
                if st.round != last_round:
                    if st.round != last_round + 1:
                        bad |= BAD_ROUNDS
                    last_round = st.round
                if st.phase == PH_OVER:
                    if st.round != N_ROUNDS:
                        bad |= BAD_ROUNDS
                if bad and first_game < 0:
                    first_game = gi
                    first_bad = bad
                    first_seed = game_seed
                if st.phase == PH_OVER:
                    finished += 1
                    rep_total += st.p[0].res[RES_REP]
                    if opt.solo and st.p[0].res[RES_REP] >= (T.goal[opt.challenge - 1] if opt.challenge else T.solo_goal):
                        goals += 1
                    break
                visits[st.phase] += 1
                n = mt_legal(&st, buf)
                if n > max_legal:
                    max_legal = n
                if n <= 0:
                    break
                a = buf[rng_below(&rng, n)]
                bad = check_action(&st, a)
                if bad and first_game < 0:
                    first_game = gi
                    first_bad = bad
                    first_seed = game_seed
                mt_apply(&st, a)
                steps += 1
                if determinize_every > 0 and rng_below(&rng, determinize_every) == 0:
                    rng_seed(&drng, rng_next(&rng))
                    g.determinize(&st, rng_below(&rng, opt.n_players), &drng)
    return {
        "games": games,
        "finished": finished,
        "steps": steps,
        "violations": [name for name, bit in VIOLATIONS.items() if first_bad & bit],
        "first_bad_game": None if first_game < 0 else first_game,
        "first_bad_seed": None if first_game < 0 else first_seed,
        "max_legal": max_legal,
        "mean_reputation_seat0": rep_total / finished if finished else 0.0,
        "goals_reached": goals,
        "phase_visits": [visits[ph] for ph in range(N_PHASES)],
    }
