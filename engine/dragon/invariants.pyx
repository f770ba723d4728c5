# cython: language_level=3
"""Compiled invariant checks for In the Year of the Dragon, and a sweep of random games.

`check(state)` and `random_game_sweep(...)` let tests check every step of many thousands of
seeded random games at C speed: no negative resources, floors 1-3, persons never exceeding
floors, the person-tile supply conserved, scores equal to the sum of their sources, caches
consistent with the persons, a legal action at every decision, and the end after month 12.
"""

from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset

from engine.core.rng cimport Rng, rng_seed, rng_next, rng_below
from engine.dragon.state cimport *
from engine.dragon.rules cimport dragon_legal, dragon_apply, dragon_init
from engine.core.state cimport State

from engine.dragon import data as _data

# Violation bits.
cdef enum:
    BAD_RESOURCE = 1 << 0       # negative yuan, rice, fireworks, track or VP source
    BAD_PALACE = 1 << 1         # floors outside 1..3, or more persons than floors
    BAD_PERSONS = 1 << 2        # persons list unsorted, pointing past the palaces, or miscounted
    BAD_SUPPLY = 1 << 3         # display + held + gone != the tiles the game started with
    BAD_SCORE = 1 << 4          # score != sum of its sources
    BAD_CACHE = 1 << 5          # cached symbols disagree with the persons
    BAD_WALL = 1 << 6           # wall length / tiles inconsistent
    BAD_FLOW = 1 << 7           # no legal action at a decision, month out of range, bad end
    BAD_CARDS = 1 << 8          # more person cards in hand than months left to play them

VIOLATIONS = {
    "resource": BAD_RESOURCE, "palace": BAD_PALACE, "persons": BAD_PERSONS,
    "supply": BAD_SUPPLY, "score": BAD_SCORE, "cache": BAD_CACHE, "wall": BAD_WALL,
    "flow": BAD_FLOW, "cards": BAD_CARDS,
}

cdef uint8_t TYPE_KIND[N_TYPES]
cdef uint8_t TYPE_SYM[N_TYPES]
cdef uint8_t START[MAX_PLAYERS + 1][N_TYPES]
for _i, _t in enumerate(_data.TYPES):
    TYPE_KIND[_i] = _t.kind
    TYPE_SYM[_i] = _t.symbols
for _n in range(2, MAX_PLAYERS + 1):
    for _i, _c in enumerate(_data.tiles_per_type(_n)):
        START[_n][_i] = _c


cdef int dragon_check(const DragonStruct* s, int* buf) noexcept nogil:
    """The violated invariants of `s` as BAD_* bits (0 = all hold)."""
    cdef int bad = 0, i, j, k, key, prev, total, cards, n = s.opt.n_players
    cdef int held[N_TYPES]
    cdef int sym[N_KINDS]
    cdef int occ[MAX_PALACES]
    cdef const DragonPlayer* pl
    memset(held, 0, sizeof(held))
    for i in range(n):
        pl = &s.p[i]
        if pl.yuan < 0 or pl.rice < 0 or pl.fireworks < 0 or pl.track < 0:
            bad |= BAD_RESOURCE
        total = 0
        for j in range(N_SOURCES):
            if pl.vp[j] < 0:
                bad |= BAD_RESOURCE
            total += pl.vp[j]
        if total != pl.score:
            bad |= BAD_SCORE
        if pl.n_palaces > MAX_PALACES or pl.n_persons > MAX_PERSONS:
            bad |= BAD_PALACE
            continue
        memset(occ, 0, sizeof(occ))
        memset(sym, 0, sizeof(sym))
        prev = -1
        for j in range(pl.n_persons):
            key = pl.person[j]
            if key < prev or key // N_TYPES >= pl.n_palaces:
                bad |= BAD_PERSONS
                continue
            prev = key
            occ[key // N_TYPES] += 1
            held[key % N_TYPES] += 1
            sym[TYPE_KIND[key % N_TYPES]] += TYPE_SYM[key % N_TYPES]
        for j in range(pl.n_palaces):
            if s.phase == PH_QUAKE and i == s.cur and j == s.release_palace:
                # Mid-earthquake: this palace just lost a floor under a person who must leave.
                if (pl.palace[j] >> 2) != (pl.palace[j] & 3) + 1:
                    bad |= BAD_PALACE
                continue
            if (pl.palace[j] & 3) < 1 or (pl.palace[j] & 3) > 3:
                bad |= BAD_PALACE
            if (pl.palace[j] >> 2) > (pl.palace[j] & 3):
                bad |= BAD_PALACE
        for j in range(pl.n_palaces):
            if (pl.palace[j] >> 2) != occ[j]:
                bad |= BAD_PERSONS
        for k in range(N_KINDS):
            if sym[k] != pl.sym[k]:
                bad |= BAD_CACHE
        cards = 0
        for k in range(N_KINDS):
            cards += (pl.hand >> k) & 1
        cards += pl.wild
        # One card per month 1-11: before month m's person phase at most 12 - m remain.
        if s.phase != PH_DRAFT and s.phase != PH_START and cards > N_MONTHS - 1 - s.month + (1 if s.phase <= PH_ACTION else 0):
            bad |= BAD_CARDS
        if s.opt.great_wall:
            k = 0
            for j in range(N_WALL_BONUSES):
                k += (pl.wall_unused >> j) & 1
            if k + pl.wall_built != N_WALL_BONUSES:
                bad |= BAD_WALL
    if s.phase == PH_PLACE or s.phase == PH_START:
        held[s.pending_type] += 1   # taken from the display, not yet housed
    for j in range(N_TYPES):
        if s.display[j] + held[j] + s.gone[j] != START[n][j]:
            bad |= BAD_SUPPLY
    total = 0
    for i in range(n):
        total += s.p[i].wall_built
    if total != s.wall_len or s.wall_len > WALL_MAX:
        bad |= BAD_WALL
    if s.month >= N_MONTHS:
        bad |= BAD_FLOW
    if s.phase == PH_OVER:
        if s.month != N_MONTHS - 1 or s.flow != FLOW_FINAL:
            bad |= BAD_FLOW
    elif dragon_legal(s, buf) <= 0:
        bad |= BAD_FLOW
    return bad


def check(state) -> list:
    """The names of the invariants `state` violates ([] if none)."""
    cdef int buf[MAX_LEGAL]
    cdef int bad = dragon_check(<const DragonStruct*>(<State>state).data, buf)
    return [name for name, bit in VIOLATIONS.items() if bad & bit]


def random_game_sweep(state, int games, uint64_t seed) -> dict:
    """Play `games` random games from fresh setups with `state`'s options, checking every
    invariant after every step. Returns counts and the first violation found (if any)."""
    cdef DragonStruct st
    cdef DragonOptions opt = (<const DragonStruct*>(<State>state).data).opt
    cdef int buf[MAX_LEGAL]
    cdef Rng rng
    cdef int g, n, bad = 0, first_bad = 0, max_palaces = 0, max_persons = 0, i
    cdef long long steps = 0, first_game = -1
    cdef uint64_t game_seed, first_seed = 0
    rng_seed(&rng, seed)
    with nogil:
        for g in range(games):
            game_seed = rng_next(&rng)
            dragon_init(&st, &opt, game_seed)
            while True:
                bad = dragon_check(&st, buf)
                if bad and first_game < 0:
                    first_game = g
                    first_bad = bad
                    first_seed = game_seed
                if st.phase == PH_OVER:
                    break
                for i in range(opt.n_players):
                    if st.p[i].n_palaces > max_palaces:
                        max_palaces = st.p[i].n_palaces
                    if st.p[i].n_persons > max_persons:
                        max_persons = st.p[i].n_persons
                n = dragon_legal(&st, buf)
                if n <= 0:
                    break
                dragon_apply(&st, buf[rng_below(&rng, n)])
                steps += 1
    return {
        "games": games,
        "steps": steps,
        "violations": [name for name, bit in VIOLATIONS.items() if first_bad & bit],
        "first_bad_game": None if first_game < 0 else first_game,
        "first_bad_seed": None if first_game < 0 else first_seed,
        "max_palaces": max_palaces,
        "max_persons": max_persons,
    }
