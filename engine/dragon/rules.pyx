# cython: language_level=3
"""In the Year of the Dragon: the rules as nogil C functions over one DragonStruct struct.

The game is a sequence of decisions (see the PH_* phases in state.pxd); everything between two
decisions (events, decay, scoring, the next month's deal) runs inside `dragon_apply`. Printed
values come from `data.py`, copied into the C tables below when this module is imported.

Every automatic step emits a rule event (`ev_emit`, kinds in events.pxd). The search and the
playouts attach no sink, and must not pay: asking for the sink is a call into another module
(and a thread-local lookup), so each step asks once (`ev = ev_sink() != NULL` at the top of
run_flow, apply_card, ...) and passes the answer down as `ev`; every emit and every computation
done only for an event sits behind `if ev:`. Every victory point goes through `add_vp`, which
emits it.
"""

from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, int64_t, uint64_t
from libc.string cimport memset, memcpy

from engine.core.rng cimport Rng, rng_seed, rng_next, rng_below, rng_mix, rng_shuffle_u8
from engine.core.interface cimport GameDef, TERMINAL_PLAYER
from engine.core.eventlog cimport ev_emit, ev_sink, EV_NONE
from engine.dragon.state cimport *
from engine.dragon.events cimport *
from engine.dragon.knowledge cimport dragon_move_prior, dragon_evaluate
from engine.dragon.learned cimport dr_evaluate_learned

from engine.dragon import data as _data

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* Bit i set when byte i of w is not zero, for the 8 bytes of w (no SIMD, no branches):
       the high bit of each nonzero byte, then the eight high bits gathered by one multiply. */
    static inline unsigned int dr_nonzero8(uint64_t w) {
        uint64_t x = (((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | w)
                     & 0x8080808080808080ULL;
        return (unsigned int)(((x >> 7) * 0x0102040810204080ULL) >> 56);
    }
    /* Bit t set when p[t] != 0, for the 15 bytes at p (person types on the display): two
       overlapping 8-byte loads, bytes 0..7 and 7..14, both inside the 15 bytes. */
    static inline unsigned int dr_nonzero15(const unsigned char* p) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint64_t lo, hi;
        memcpy(&lo, p, 8);
        memcpy(&hi, p + 7, 8);
        return dr_nonzero8(lo) | (dr_nonzero8(hi) << 7);
    #else
        unsigned int m = 0;
        for (int t = 0; t < 15; t++) m |= (unsigned int)(p[t] != 0) << t;
        return m;
    #endif
    }
    static inline int dr_ctz(unsigned int x) { return __builtin_ctz(x); }
    static inline int dr_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    """
    unsigned int nonzero15 "dr_nonzero15"(const uint8_t* p) noexcept nogil
    int ctz "dr_ctz"(unsigned int x) noexcept nogil
    int ctz64 "dr_ctz64"(unsigned long long x) noexcept nogil

# ---------------------------------------------------------------------------------------------
# Tables, filled from data.py at import.

cdef uint8_t TYPE_KIND[N_TYPES]
cdef uint8_t TYPE_SYM[N_TYPES]
cdef uint8_t TYPE_VALUE[N_TYPES]
cdef uint8_t PAIR_A[N_PAIRS]
cdef uint8_t PAIR_B[N_PAIRS]
cdef uint64_t PAIRS_WITH[N_TYPES]   # bit i: draft pair i includes that type
cdef unsigned int PAIRED_TYPES = 0  # the types that occur in draft pairs
cdef uint8_t CARD_BASE[N_CARDS_MAX]
cdef int8_t CARD_SYM_KIND[N_CARDS_MAX]
cdef uint8_t GROUP_SIZE[MAX_PLAYERS + 1][2][MAX_PLAYERS]
cdef uint8_t START_DISPLAY[MAX_PLAYERS + 1][N_TYPES]
cdef uint8_t EVENT_TILES[N_MONTHS - 2]
cdef int START_YUAN, START_FLOORS, N_START_PALACES, WILDCARDS
cdef int FEE, TOPUP_TO, PRIV_SMALL_COST, TRIBUTE, CONTAGION, FESTIVAL_FIRST, FESTIVAL_SECOND
cdef int WALL_STEPS, WALL_YUAN, WALL_VP, QUAKE_FLOORS, TORNADO_CARDS, SUPER_MONTH
cdef int VP_PER_PERSON, SALE_PRICE, YUAN_PER_VP


def _load_tables() -> None:
    """Copy data.py into the C tables (and check it matches the enums of state.pxd)."""
    global START_YUAN, START_FLOORS, N_START_PALACES, WILDCARDS, FEE, TOPUP_TO, PRIV_SMALL_COST
    global TRIBUTE, CONTAGION, FESTIVAL_FIRST, FESTIVAL_SECOND, WALL_STEPS, WALL_YUAN, WALL_VP
    global PAIRED_TYPES
    global QUAKE_FLOORS, TORNADO_CARDS, SUPER_MONTH, VP_PER_PERSON, SALE_PRICE, YUAN_PER_VP
    d = _data
    assert len(d.KINDS) == N_KINDS and len(d.TYPES) == N_TYPES
    assert len(d.DRAFT_PAIRS) == N_PAIRS and len(d.CARDS) == N_CARDS_MAX
    assert len(d.WALL_BONUSES) == N_WALL_BONUSES and len(d.SUPER_EVENTS) == N_SUPER_EVENTS
    assert len(d.SCORE_SOURCES) == N_SOURCES and len(d.EVENT_TILES_AFTER_PEACE) == N_MONTHS - 2
    for i, t in enumerate(d.TYPES):
        TYPE_KIND[i] = t.kind
        TYPE_SYM[i] = t.symbols
        TYPE_VALUE[i] = t.value
        # The type numbering of state.pxd: young kind k = k, old kind k = k + 6.
        assert i == (t.kind + 6 if t.old else t.kind)
    PAIRED_TYPES = 0
    for i in range(N_TYPES):
        PAIRS_WITH[i] = 0
    for i, (a, b) in enumerate(d.DRAFT_PAIRS):
        PAIR_A[i] = a
        PAIR_B[i] = b
        PAIRS_WITH[a] |= (<uint64_t>1) << i
        PAIRS_WITH[b] |= (<uint64_t>1) << i
        PAIRED_TYPES |= (1u << a) | (1u << b)
    for i, (name, base) in enumerate(d.CARDS):
        CARD_BASE[i] = base
        CARD_SYM_KIND[i] = -1 if d.CARD_KIND[i] is None else d.CARD_KIND[i]
    for n in range(2, MAX_PLAYERS + 1):
        for w in range(2):
            sizes = d.GROUP_SIZES[n][w]
            assert len(sizes) == n and sum(sizes) == 7 + w
            for g in range(MAX_PLAYERS):
                GROUP_SIZE[n][w][g] = sizes[g] if g < n else 0
        for i, c in enumerate(d.tiles_per_type(n)):
            START_DISPLAY[n][i] = c
    for i, e in enumerate(d.EVENT_TILES_AFTER_PEACE):
        EVENT_TILES[i] = e
    START_YUAN = d.START_YUAN
    N_START_PALACES = len(d.START_PALACES)
    START_FLOORS = d.START_PALACES[0]
    WILDCARDS = d.WILDCARDS
    FEE = d.FEE_OCCUPIED_GROUP
    TOPUP_TO = d.TOPUP_TO
    PRIV_SMALL_COST = d.PRIVILEGE_SMALL_COST
    TRIBUTE = d.TRIBUTE_YUAN
    CONTAGION = d.CONTAGION_RELEASES
    FESTIVAL_FIRST, FESTIVAL_SECOND = d.FESTIVAL_VP
    WALL_STEPS = d.WALL_BONUS_STEPS
    WALL_YUAN = d.WALL_BONUS_YUAN
    WALL_VP = d.WALL_BONUS_VP
    QUAKE_FLOORS = d.EARTHQUAKE_FLOORS
    TORNADO_CARDS = d.TORNADO_CARDS
    SUPER_MONTH = d.SUPER_EVENT_MONTH - 1
    VP_PER_PERSON = d.FINAL_VP_PER_PERSON
    SALE_PRICE = d.FINAL_SALE_PRICE
    YUAN_PER_VP = d.FINAL_YUAN_PER_VP


_load_tables()

# ---------------------------------------------------------------------------------------------
# Small helpers on one player.

cdef inline int pal_floors(const DragonPlayer* pl, int p) noexcept nogil:
    return pl.palace[p] & 3


cdef inline int pal_persons(const DragonPlayer* pl, int p) noexcept nogil:
    return pl.palace[p] >> 2


cdef inline int popcount16(unsigned int x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline int cards_in_hand(const DragonPlayer* pl) noexcept nogil:
    return popcount16(pl.hand) + pl.wild


cdef inline void add_vp(DragonStruct* s, DragonPlayer* pl, int source, int vp, bint ev,
                        int cause, int b, int c) noexcept nogil:
    """The one place victory points change: `vp` from `source` (SRC_*), and (if `ev`: a sink
    is attached) its event EVK_VP_RESEARCH + source: a = vp, details b and c, d = the score
    after."""
    pl.vp[source] += vp
    pl.score += vp
    if ev and vp != 0:
        ev_emit(EVK_VP_RESEARCH + source, <int>(pl - s.p), cause, vp, b, c, pl.score)


cdef void person_add(DragonPlayer* pl, int palace, int ptype) noexcept nogil:
    """Put a person of `ptype` into `palace` (which has room), keeping keys ascending."""
    cdef uint16_t key = <uint16_t>(palace * N_TYPES + ptype)
    cdef int i = pl.n_persons
    while i > 0 and pl.person[i - 1] > key:
        pl.person[i] = pl.person[i - 1]
        i -= 1
    pl.person[i] = key
    pl.n_persons += 1
    pl.palace[palace] += 4
    pl.sym[TYPE_KIND[ptype]] += TYPE_SYM[ptype]


cdef void person_remove_key(DragonPlayer* pl, int key) noexcept nogil:
    """Take the (first) person with `key` out of its palace; the key must be present. Callers
    count the tile in `gone` (see `release_person`)."""
    cdef int i, n = pl.n_persons, ptype = key % N_TYPES, found = 0
    cdef uint16_t k
    # One pass: every person moves down one place after the first with `key` (the last place
    # keeps its old value, as before). A search, then a shifting loop, was compiled into a call
    # to memmove, dear for a few bytes.
    for i in range(n):
        k = pl.person[i]
        pl.person[i - found] = k
        found |= k == key
    if not found:
        return
    pl.n_persons -= 1
    pl.palace[key // N_TYPES] -= 4
    pl.sym[TYPE_KIND[ptype]] -= TYPE_SYM[ptype]


cdef inline void release_person(DragonStruct* s, DragonPlayer* pl, int key) noexcept nogil:
    """A person leaves the game ("libertado do serviço real"): its tile never comes back."""
    person_remove_key(pl, key)
    s.gone[key % N_TYPES] += 1


cdef void palace_remove(DragonPlayer* pl, int p) noexcept nogil:
    """Remove the empty palace `p`; later palaces move down one index (keys stay ascending)."""
    cdef int j
    for j in range(p, pl.n_palaces - 1):
        pl.palace[j] = pl.palace[j + 1]
    pl.n_palaces -= 1
    pl.palace[pl.n_palaces] = 0
    for j in range(pl.n_persons):
        if pl.person[j] // N_TYPES > p:
            pl.person[j] -= N_TYPES


cdef inline int inhabited_palaces(const DragonPlayer* pl) noexcept nogil:
    cdef int p, n = 0
    for p in range(pl.n_palaces):
        if pal_persons(pl, p) > 0:
            n += 1
    return n


cdef inline int total_floors(const DragonPlayer* pl) noexcept nogil:
    cdef int p, n = 0
    for p in range(pl.n_palaces):
        n += pal_floors(pl, p)
    return n


cdef int monk_count(const DragonPlayer* pl) noexcept nogil:
    """The player's monks (for events)."""
    cdef int i, n = 0
    for i in range(pl.n_persons):
        if TYPE_KIND[pl.person[i] % N_TYPES] == KIND_MONK:
            n += 1
    return n


cdef int monk_points(const DragonPlayer* pl) noexcept nogil:
    """Buddhas x floors of the monk's palace, summed over the player's monks."""
    cdef int i, key, ptype, vp = 0
    for i in range(pl.n_persons):
        key = pl.person[i]
        ptype = key % N_TYPES
        if TYPE_KIND[ptype] == KIND_MONK:
            vp += TYPE_SYM[ptype] * pal_floors(pl, key // N_TYPES)
    return vp


# ---------------------------------------------------------------------------------------------
# The person track.

cdef void move_marker(DragonStruct* s, int seat, int steps) noexcept nogil:
    """Advance a marker; arriving on an occupied space puts it on top of the stack."""
    if steps <= 0:
        return
    s.p[seat].track += steps
    s.stamp_counter += 1
    s.p[seat].stamp = s.stamp_counter


cdef inline bint ahead(const DragonStruct* s, int a, int b) noexcept nogil:
    """Seat a acts before seat b: further along the track, or on top of the same stack."""
    if s.p[a].track != s.p[b].track:
        return s.p[a].track > s.p[b].track
    return s.p[a].stamp > s.p[b].stamp


cdef inline void order_pair(uint64_t* a, uint64_t* b) noexcept nogil:
    """Compare-exchange of a sorting network: the larger value into a, the smaller into b."""
    cdef uint64_t x = a[0], y = b[0]
    a[0] = x if x > y else y
    b[0] = y if x > y else x


cdef inline void sorted_track_keys(const DragonStruct* s, uint64_t* k) noexcept nogil:
    # One integer per seat, (track, stamp, 7 - seat): x goes before y exactly when
    # ahead(s, x, y), and the earlier seat first on an equal (track, stamp), as the stable
    # insertion sort this replaces ordered them. Sorted in decreasing order by a fixed network of
    # compare-exchanges for the player count (1, 3, 5 or 9 of them for 2 to 5 seats), without
    # the branches of the insertion sort, which the processor mispredicted. The track is offset
    # by 32768, so that any int16 value (a test hook may set one below 0) keeps its order; the
    # absent seats' keys are 0, below every seat's (at least 3).
    cdef int n = s.opt.n_players, i
    for i in range(MAX_PLAYERS):
        k[i] = 0
        if i < n:
            k[i] = ((((<uint64_t>(s.p[i].track + 32768)) << 16) | s.p[i].stamp) << 3) \
                | <uint64_t>(7 - i)
    if n == 4:
        order_pair(&k[0], &k[1])
        order_pair(&k[2], &k[3])
        order_pair(&k[0], &k[2])
        order_pair(&k[1], &k[3])
        order_pair(&k[1], &k[2])
    elif n == 3:
        order_pair(&k[0], &k[1])
        order_pair(&k[1], &k[2])
        order_pair(&k[0], &k[1])
    elif n == 2:
        order_pair(&k[0], &k[1])
    else:
        order_pair(&k[0], &k[1])
        order_pair(&k[3], &k[4])
        order_pair(&k[2], &k[4])
        order_pair(&k[2], &k[3])
        order_pair(&k[0], &k[3])
        order_pair(&k[0], &k[2])
        order_pair(&k[1], &k[4])
        order_pair(&k[1], &k[3])
        order_pair(&k[1], &k[2])


cdef int dragon_track_order(const DragonStruct* s, int* out) noexcept nogil:
    cdef uint64_t k[MAX_PLAYERS]
    cdef int i, n = s.opt.n_players
    sorted_track_keys(s, k)
    for i in range(n):
        out[i] = 7 - <int>(k[i] & 7)
    return n


cdef void compute_order(DragonStruct* s) noexcept nogil:
    # The seats one by one (2 to 5 of them), not as a loop that gcc vectorises: a 16-byte load of
    # the keys just stored as 8-byte values could not be forwarded from those stores.
    cdef uint64_t k[MAX_PLAYERS]
    cdef int n = s.opt.n_players
    sorted_track_keys(s, k)
    s.order[0] = <uint8_t>(7 - (k[0] & 7))
    s.order[1] = <uint8_t>(7 - (k[1] & 7))
    if n > 2:
        s.order[2] = <uint8_t>(7 - (k[2] & 7))
    if n > 3:
        s.order[3] = <uint8_t>(7 - (k[3] & 7))
    if n > 4:
        s.order[4] = <uint8_t>(7 - (k[4] & 7))

# ---------------------------------------------------------------------------------------------
# Setup.

cdef void lay_event_row(DragonStruct* s) noexcept nogil:
    """Two Peace tiles, then the ten others drawn one by one left to right; a tile identical to a
    neighbour slides to the next free space (the whole draw is redone if one fits nowhere)."""
    cdef uint8_t tiles[N_MONTHS - 2]
    cdef int i, slot, t
    cdef bint placed, ok = False
    s.events[0] = EV_PEACE
    s.events[1] = EV_PEACE
    while not ok:
        memcpy(tiles, EVENT_TILES, sizeof(tiles))
        rng_shuffle_u8(&s.rng, tiles, N_MONTHS - 2)
        for slot in range(2, N_MONTHS):
            s.events[slot] = NONE8
        ok = True
        for i in range(N_MONTHS - 2):
            t = tiles[i]
            placed = False
            for slot in range(2, N_MONTHS):
                if s.events[slot] != NONE8 or s.events[slot - 1] == t:
                    continue
                if slot + 1 < N_MONTHS and s.events[slot + 1] == t:
                    continue
                s.events[slot] = <uint8_t>t
                placed = True
                break
            if not placed:
                ok = False
                break


cdef void dragon_init(DragonStruct* s, const DragonOptions* o, uint64_t seed) noexcept nogil:
    cdef int i, j, n = o.n_players
    cdef DragonPlayer* pl
    memset(s, 0, sizeof(DragonStruct))
    s.opt = o[0]
    rng_seed(&s.rng, seed)
    for i in range(n):
        pl = &s.p[i]
        pl.yuan = START_YUAN
        pl.hand = (1 << N_KINDS) - 1
        pl.wild = WILDCARDS
        pl.wall_unused = ((1 << N_WALL_BONUSES) - 1) if o.great_wall else 0
        pl.n_palaces = N_START_PALACES
        for j in range(N_START_PALACES):
            pl.palace[j] = START_FLOORS
        # All markers start on space 0, the oldest (seat 0) on top.
        pl.stamp = n - i
    s.stamp_counter = n
    for i in range(N_TYPES):
        s.display[i] = START_DISPLAY[n][i]
    lay_event_row(s)
    s.n_cards = 8 if o.great_wall else 7
    s.n_groups = n
    s.super_event = NO_SUPER_EVENT
    if o.super_events:
        if o.super_event_choice < N_SUPER_EVENTS:
            s.super_event = o.super_event_choice
        else:
            s.super_event = <uint8_t>rng_below(&s.rng, N_SUPER_EVENTS)
    s.release_palace = NONE8
    s.phase = PH_DRAFT
    s.cur = 0
    if ev_sink() != NULL:
        ev_emit(EVK_SETUP, EV_NONE, EV_NONE, START_YUAN, N_START_PALACES, START_FLOORS,
                N_KINDS + WILDCARDS)
        for i in range(N_MONTHS):
            ev_emit(EVK_EVENT_TILE, EV_NONE, EV_NONE, i + 1, s.events[i], EV_NONE, EV_NONE)
        if s.super_event != NO_SUPER_EVENT:
            # Public: the tile lies on month 7's event for all to see (rulebook, expansion II).
            ev_emit(EVK_SUPER_EVENT_SET, EV_NONE, EV_NONE, s.super_event,
                    1 if o.super_event_choice >= N_SUPER_EVENTS else 0, EV_NONE, EV_NONE)

# ---------------------------------------------------------------------------------------------
# Rounds: the players take turns in person-track order, fixed when the round begins.



cdef bint begin_turn(DragonStruct* s, int seat) noexcept nogil:
    """Whether `seat` has a decision in the current round's phase (and set it up)."""
    cdef DragonPlayer* pl = &s.p[seat]
    cdef int ph = s.phase
    if ph == PH_ACTION:
        return True
    if ph == PH_PERSON:
        return pl.hand != 0 or pl.wild > 0
    if ph == PH_RELEASE:
        if s.need[seat] > pl.n_persons:
            s.need[seat] = pl.n_persons
        s.last_choice = -1
        return s.need[seat] > 0
    if ph == PH_QUAKE:
        s.todo = <uint8_t>min(QUAKE_FLOORS, total_floors(pl))
        s.release_palace = NONE8
        return s.todo > 0
    if ph == PH_FLOOD:
        s.todo = <uint8_t>((pl.yuan + pl.rice + pl.fireworks) // 2)
        s.last_choice = 0
        return s.todo > 0
    if ph == PH_TORNADO:
        s.todo = <uint8_t>min(TORNADO_CARDS, cards_in_hand(pl))
        s.last_choice = 0
        return s.todo > 0
    if ph == PH_SUNRISE:
        # A young tile (types 0..8) on the display of a kind not taken yet this sunrise.
        return (nonzero15(s.display) & ~s.sunrise_taken & 0x1FF) != 0
    if ph == PH_CONTRACT:
        return pl.n_persons > 0
    return False


cdef bint seek_turn(DragonStruct* s) noexcept nogil:
    """From order_pos on, find the next seat with a decision; False when the round is over."""
    cdef int pos = s.order_pos, n = s.opt.n_players, seat
    if s.phase == PH_ACTION:
        # Every seat takes an action card (or tops up its money): no search.
        if pos < n:
            s.cur = s.order[pos]
            return True
        return False
    while pos < n:
        seat = s.order[pos]
        if begin_turn(s, seat):
            s.cur = <uint8_t>seat
            s.order_pos = <uint8_t>pos
            return True
        pos += 1
    s.order_pos = <uint8_t>pos
    return False


cdef bint start_round(DragonStruct* s, int phase) noexcept nogil:
    """Begin a round of `phase` in the current track order; False if nobody has a decision."""
    compute_order(s)
    s.phase = <uint8_t>phase
    s.order_pos = 0
    return seek_turn(s)


cdef void round_done(DragonStruct* s) noexcept nogil:
    if s.phase == PH_ACTION:
        if s.month < N_MONTHS - 1 and start_round(s, PH_PERSON):
            return
        s.flow = FLOW_EVENT
        s.event_pass = 0
    elif s.phase == PH_PERSON:
        s.flow = FLOW_EVENT
        s.event_pass = 0
    run_flow(s)


cdef void next_turn(DragonStruct* s) noexcept nogil:
    """The current seat's turn in this round is over: on to the next seat, or end the round."""
    s.order_pos += 1
    if not seek_turn(s):
        round_done(s)


cdef void finish_subturn(DragonStruct* s) noexcept nogil:
    """A building / placing step is over: back to the round it interrupted."""
    s.phase = s.resume
    next_turn(s)

# ---------------------------------------------------------------------------------------------
# Months and their automatic steps.

cdef void deal_cards(DragonStruct* s, bint ev) noexcept nogil:
    cdef uint8_t cards[N_CARDS_MAX]
    cdef int i, g, j, idx = 0, n = s.opt.n_players
    for i in range(s.n_cards):
        cards[i] = <uint8_t>i
    rng_shuffle_u8(&s.rng, cards, s.n_cards)
    for g in range(n):
        for j in range(GROUP_SIZE[n][s.opt.great_wall][g]):
            s.card_group[cards[idx]] = <uint8_t>g
            idx += 1
        s.group_dragons[g] = 0
    if ev:
        for g in range(n):
            idx = 0
            j = 0
            for i in range(s.n_cards):
                if s.card_group[i] == g:
                    idx |= 1 << i
                    j += 1
            ev_emit(EVK_GROUP, EV_NONE, EV_NONE, g + 1, idx, j, EV_NONE)


cdef void start_month(DragonStruct* s, bint ev) noexcept nogil:
    if ev:
        ev_emit(EVK_MONTH, EV_NONE, EV_NONE, s.month + 1, s.events[s.month],
                <int>s.super_event if s.month == SUPER_MONTH and s.super_event != NO_SUPER_EVENT
                else EV_NONE, EV_NONE)
    deal_cards(s, ev)
    start_round(s, PH_ACTION)


cdef bint start_release_round(DragonStruct* s, int mode) noexcept nogil:
    s.release_mode = <uint8_t>mode
    return start_round(s, PH_RELEASE)


cdef bint resolve_event(DragonStruct* s, bint ev) noexcept nogil:
    """Apply this month's event; True when a release round with decisions has begun."""
    cdef int i, n = s.opt.n_players, tile = s.events[s.month], pay, inh, least, first, second, f
    cdef int n_first, n_second
    cdef DragonPlayer* pl
    memset(s.need, 0, sizeof(s.need))
    if tile == EV_TRIBUTE:
        for i in range(n):
            pl = &s.p[i]
            pay = min(TRIBUTE, pl.yuan)
            pl.yuan -= pay
            s.need[i] = <uint8_t>(TRIBUTE - pay)
            if ev:
                ev_emit(EVK_TRIBUTE, i, EV_TRIBUTE, pay, TRIBUTE - pay, pl.yuan, EV_NONE)
        return start_release_round(s, REL_ANY)
    if tile == EV_DROUGHT:
        for i in range(n):
            pl = &s.p[i]
            inh = inhabited_palaces(pl)
            if pl.rice >= inh:
                pl.rice -= inh
                if ev:
                    ev_emit(EVK_DROUGHT, i, EV_DROUGHT, inh, inh, 0, pl.rice)
            else:
                s.need[i] = <uint8_t>(inh - pl.rice)
                if ev:
                    ev_emit(EVK_DROUGHT, i, EV_DROUGHT, inh, pl.rice, inh - pl.rice, 0)
                pl.rice = 0
        return start_release_round(s, REL_DROUGHT)
    if tile == EV_CONTAGION:
        for i in range(n):
            s.need[i] = <uint8_t>max(0, CONTAGION - s.p[i].sym[KIND_HEALER])
            if ev:
                ev_emit(EVK_CONTAGION, i, EV_CONTAGION, s.p[i].sym[KIND_HEALER], s.need[i],
                        EV_NONE, EV_NONE)
        return start_release_round(s, REL_ANY)
    if tile == EV_MONGOL:
        least = 1 << 30
        for i in range(n):
            pl = &s.p[i]
            add_vp(s, pl, SRC_MONGOL, pl.sym[KIND_WARRIOR], ev, EV_MONGOL, pl.sym[KIND_WARRIOR], 0)
            least = min(least, pl.sym[KIND_WARRIOR])
        for i in range(n):
            s.need[i] = 1 if s.p[i].sym[KIND_WARRIOR] == least else 0
            if ev and s.need[i]:
                ev_emit(EVK_MONGOL_FEWEST, i, EV_MONGOL, least, 1, EV_NONE, EV_NONE)
        return start_release_round(s, REL_ANY)
    if tile == EV_FESTIVAL:
        first = 0
        second = 0
        for i in range(n):
            first = max(first, s.p[i].fireworks)
        for i in range(n):
            f = s.p[i].fireworks
            if f < first and f > second:
                second = f
        if ev:
            n_first = 0
            n_second = 0
            for i in range(n):
                f = s.p[i].fireworks
                if f > 0 and f == first:
                    n_first += 1
                elif f > 0 and f == second:
                    n_second += 1
            ev_emit(EVK_FESTIVAL, EV_NONE, EV_FESTIVAL, first, second, n_first, n_second)
        for i in range(n):
            pl = &s.p[i]
            f = pl.fireworks
            if f <= 0:
                continue
            if f == first:
                add_vp(s, pl, SRC_FESTIVAL, FESTIVAL_FIRST, ev, EV_FESTIVAL, f, (f + 1) // 2)
            elif f == second:
                add_vp(s, pl, SRC_FESTIVAL, FESTIVAL_SECOND, ev, EV_FESTIVAL, f, (f + 1) // 2)
            else:
                continue
            pl.fireworks -= (f + 1) // 2
    return False


cdef bint score_wall(DragonStruct* s, int needed, int cause, bint ev) noexcept nogil:
    """Wall scoring: 1 VP per own section if the wall has `needed` sections, else the fewest
    builders release 1. `cause`: CAUSE_WALL (after a Mongol invasion) or CAUSE_WALL_FINAL."""
    cdef int i, n = s.opt.n_players, least = 1 << 30
    cdef bint complete = s.wall_len >= needed
    memset(s.need, 0, sizeof(s.need))
    if ev:
        ev_emit(EVK_WALL_SCORING, EV_NONE, cause, s.wall_len, needed, 1 if complete else 0,
                EV_NONE)
    if complete:
        for i in range(n):
            add_vp(s, &s.p[i], SRC_WALL, s.p[i].wall_built, ev, cause, s.p[i].wall_built, 0)
        return False
    for i in range(n):
        least = min(least, s.p[i].wall_built)
    for i in range(n):
        s.need[i] = 1 if s.p[i].wall_built == least else 0
        if ev and s.need[i]:
            ev_emit(EVK_WALL_FEWEST, i, cause, least, 1, EV_NONE, EV_NONE)
    return start_release_round(s, REL_ANY)


cdef void decay(DragonStruct* s, bint ev) noexcept nogil:
    cdef int i, p
    cdef DragonPlayer* pl
    for i in range(s.opt.n_players):
        pl = &s.p[i]
        p = pl.n_palaces - 1
        while p >= 0:
            if pal_persons(pl, p) == 0:
                pl.palace[p] -= 1
                if ev:
                    ev_emit(EVK_FLOOR_LOST, i, CAUSE_DECAY, p + 1, pal_floors(pl, p),
                            1 if pal_floors(pl, p) == 0 else 0, EV_NONE)
                if pal_floors(pl, p) == 0:
                    palace_remove(pl, p)
            p -= 1


cdef void month_scoring(DragonStruct* s, bint ev) noexcept nogil:
    cdef int i
    cdef DragonPlayer* pl
    for i in range(s.opt.n_players):
        pl = &s.p[i]
        add_vp(s, pl, SRC_PALACES, pl.n_palaces, ev, CAUSE_MONTH_SCORING, pl.n_palaces, 0)
        add_vp(s, pl, SRC_COURT_LADIES, pl.sym[KIND_COURT_LADY], ev, CAUSE_MONTH_SCORING,
               pl.sym[KIND_COURT_LADY], 0)
        add_vp(s, pl, SRC_PRIVILEGES, pl.priv_small + 2 * pl.priv_large, ev, CAUSE_MONTH_SCORING,
               pl.priv_small, pl.priv_large)


cdef void final_scoring(DragonStruct* s, bint ev) noexcept nogil:
    cdef int i, money
    cdef DragonPlayer* pl
    for i in range(s.opt.n_players):
        pl = &s.p[i]
        money = pl.yuan + SALE_PRICE * (pl.rice + pl.fireworks)
        add_vp(s, pl, SRC_PERSONS, VP_PER_PERSON * pl.n_persons, ev, CAUSE_FINAL_SCORING,
               pl.n_persons, 0)
        add_vp(s, pl, SRC_MONKS, monk_points(pl), ev, CAUSE_FINAL_SCORING,
               monk_count(pl) if ev else 0, 0)
        add_vp(s, pl, SRC_MONEY, money // YUAN_PER_VP, ev, CAUSE_FINAL_SCORING,
               money, pl.rice + pl.fireworks)
    if ev:
        emit_final_ranks(s)


cdef void emit_final_ranks(const DragonStruct* s) noexcept nogil:
    """The final places (the tie-break by the person track included), as events."""
    cdef int ranks[MAX_PLAYERS]
    cdef int i, j, same, n = s.opt.n_players
    _ranks(s, ranks)
    for i in range(n):
        same = 0
        for j in range(n):
            if s.p[j].score == s.p[i].score:
                same += 1
        ev_emit(EVK_FINAL_RANK, i, CAUSE_FINAL_SCORING, ranks[i] + 1, s.p[i].score,
                s.p[i].track, same)


cdef void volcano(DragonStruct* s, bint ev) noexcept nogil:
    """Every marker to space 0, the stack keeping the current order (leader on top)."""
    cdef int i, n = s.opt.n_players
    compute_order(s)
    for i in range(n):
        if ev:
            ev_emit(EVK_VOLCANO, s.order[i], CAUSE_SUPER + SE_VOLCANO, s.p[s.order[i]].track,
                    i + 1, EV_NONE, EV_NONE)
        s.p[s.order[i]].track = 0
        s.p[s.order[i]].stamp = <uint16_t>(s.stamp_counter + n - i)
    s.stamp_counter += n


cdef bint super_event(DragonStruct* s, bint ev) noexcept nogil:
    """Month 7's super event; True when a round with decisions has begun (or the event repeats)."""
    cdef int i, x, se = s.super_event, cause = CAUSE_SUPER + s.super_event
    cdef DragonPlayer* pl
    if ev:
        ev_emit(EVK_SUPER_EVENT, EV_NONE, cause, se, EV_NONE, EV_NONE, EV_NONE)
    if se == SE_LANTERN:
        for i in range(s.opt.n_players):
            add_vp(s, &s.p[i], SRC_SUPER_EVENT, VP_PER_PERSON * s.p[i].n_persons, ev, cause,
                   s.p[i].n_persons, 0)
    elif se == SE_BUDDHA:
        for i in range(s.opt.n_players):
            add_vp(s, &s.p[i], SRC_SUPER_EVENT, monk_points(&s.p[i]), ev, cause,
                   monk_count(&s.p[i]) if ev else 0, 0)
    elif se == SE_ASSASSINATION:
        for i in range(s.opt.n_players):
            if ev and (s.p[i].priv_small or s.p[i].priv_large):
                ev_emit(EVK_PRIVILEGES_LOST, i, cause, s.p[i].priv_small, s.p[i].priv_large,
                        EV_NONE, EV_NONE)
            s.p[i].priv_small = 0
            s.p[i].priv_large = 0
    elif se == SE_VOLCANO:
        volcano(s, ev)
    elif se == SE_EARTHQUAKE:
        if ev:
            for i in range(s.opt.n_players):
                x = total_floors(&s.p[i])
                ev_emit(EVK_QUAKE_DUE, i, cause, min(QUAKE_FLOORS, x), x, EV_NONE, EV_NONE)
        return start_round(s, PH_QUAKE)
    elif se == SE_FLOOD:
        if ev:
            for i in range(s.opt.n_players):
                pl = &s.p[i]
                x = pl.yuan + pl.rice + pl.fireworks
                ev_emit(EVK_FLOOD_DUE, i, cause, x, x // 2, EV_NONE, EV_NONE)
        return start_round(s, PH_FLOOD)
    elif se == SE_TORNADO:
        if ev:
            for i in range(s.opt.n_players):
                x = cards_in_hand(&s.p[i])
                ev_emit(EVK_TORNADO_DUE, i, cause, x, min(TORNADO_CARDS, x), EV_NONE, EV_NONE)
        return start_round(s, PH_TORNADO)
    elif se == SE_SUNRISE:
        s.sunrise_taken = 0
        return start_round(s, PH_SUNRISE)
    elif se == SE_CONTRACT:
        return start_round(s, PH_CONTRACT)
    return False


cdef void run_flow(DragonStruct* s) noexcept nogil:
    """Run the automatic month-end steps from s.flow until a decision is due or the game ends."""
    cdef bint ev = ev_sink() != NULL
    while True:
        if s.flow == FLOW_EVENT:
            s.flow = FLOW_WALL_MONGOL
            if resolve_event(s, ev):
                return
        elif s.flow == FLOW_WALL_MONGOL:
            s.flow = FLOW_SUPER
            if s.opt.great_wall and s.events[s.month] == EV_MONGOL:
                if score_wall(s, s.month + 1, CAUSE_WALL, ev):
                    return
        elif s.flow == FLOW_SUPER:
            s.flow = FLOW_DECAY
            if s.month == SUPER_MONTH and s.super_event != NO_SUPER_EVENT:
                if s.super_event == SE_ECLIPSE:
                    if s.event_pass == 0:
                        s.event_pass = 1
                        s.flow = FLOW_EVENT
                        if ev:
                            ev_emit(EVK_SUPER_EVENT, EV_NONE, CAUSE_SUPER + SE_ECLIPSE,
                                    SE_ECLIPSE, EV_NONE, EV_NONE, EV_NONE)
                            ev_emit(EVK_ECLIPSE, EV_NONE, CAUSE_SUPER + SE_ECLIPSE,
                                    s.events[s.month], EV_NONE, EV_NONE, EV_NONE)
                elif super_event(s, ev):
                    return
        elif s.flow == FLOW_DECAY:
            decay(s, ev)
            s.flow = FLOW_SCORE
        elif s.flow == FLOW_SCORE:
            month_scoring(s, ev)
            if s.month == N_MONTHS - 1:
                s.flow = FLOW_WALL_FINAL
            else:
                s.month += 1
                start_month(s, ev)
                return
        elif s.flow == FLOW_WALL_FINAL:
            s.flow = FLOW_FINAL
            if s.opt.great_wall and score_wall(s, WALL_MAX, CAUSE_WALL_FINAL, ev):
                return
        else:
            final_scoring(s, ev)
            s.phase = PH_OVER
            return

# ---------------------------------------------------------------------------------------------
# Legal actions.

cdef inline int fee_for(const DragonStruct* s, int card) noexcept nogil:
    return FEE if s.group_dragons[s.card_group[card]] > 0 else 0


cdef int push_keys(const DragonPlayer* pl, int base, int min_key, int only_palace, int still,
                   int* out, int n) noexcept nogil:
    """Append base + key for each distinct person key >= min_key (in `only_palace` if >= 0)
    that leaves at least `still` persons after it in key order (so that a canonical sequence of
    releases can be completed)."""
    cdef int i, key, prev = -1
    for i in range(pl.n_persons - still):
        key = pl.person[i]
        if key < min_key or key == prev:
            continue
        if only_palace >= 0 and key // N_TYPES != only_palace:
            continue
        out[n] = base + key
        n += 1
        prev = key
    return n


cdef int legal_drought(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    """Unsupplied palaces are chosen in ascending order, each releasing one of its persons; only
    palaces that leave enough inhabited palaces after them for the remaining releases qualify."""
    cdef int after[MAX_PALACES + 1]
    cdef int p, i, key, prev = -1, n = 0, need = s.need[s.cur]
    after[pl.n_palaces] = 0
    p = pl.n_palaces - 1
    while p >= 0:
        after[p] = after[p + 1] + (1 if pal_persons(pl, p) > 0 else 0)
        p -= 1
    for i in range(pl.n_persons):
        key = pl.person[i]
        p = key // N_TYPES
        if p <= s.last_choice or key == prev:
            continue
        if after[p + 1] < need - 1:
            continue
        out[n] = A_RELEASE + key
        n += 1
        prev = key
    return n


# Lists of actions from bit masks, a nibble at a time: ROWS[set][j][x] holds base + 4 j + i for
# each bit i of the nibble x (ascending, then zeros), the action ids of the bits 4 j .. 4 j + 3
# of a mask, so that a nibble's actions are one 16-byte copy and its bit count, whatever the bits
# (a loop over the bits took about 6 instructions and a branch per action).
cdef enum:
    ROW_CARD = 0            # base A_CARD: the action cards (bits 0..5)
    ROW_PLAY = 1            # base A_PLAY: the person types (bits 0..14)
    ROW_PLAY_EMPTY = 2      # base A_PLAY_EMPTY: the person kinds (bits 0..8)
    ROW_WILD = 3            # base A_WILD: the person types (bits 0..14)
    N_ROW_SETS = 4
    ROW_NIBBLES = 4         # masks of up to 16 bits

cdef int ROWS[N_ROW_SETS][ROW_NIBBLES][16][4]
cdef uint8_t NIBBLE_BITS[16]


def _load_rows() -> None:
    """Fill ROWS and NIBBLE_BITS (the action ids are the enums of state.pxd)."""
    bases = {ROW_CARD: A_CARD, ROW_PLAY: A_PLAY, ROW_PLAY_EMPTY: A_PLAY_EMPTY, ROW_WILD: A_WILD}
    for x in range(16):
        bits = [i for i in range(4) if (x >> i) & 1]
        NIBBLE_BITS[x] = len(bits)
        for r, base in bases.items():
            for j in range(ROW_NIBBLES):
                for k in range(4):
                    ROWS[r][j][x][k] = base + 4 * j + bits[k] if k < len(bits) else 0


_load_rows()


cdef inline int put_bits(int* out, int n, unsigned int m, int row_set, int nibbles) noexcept nogil:
    """Append ROWS[row_set]'s action for each bit of `m` (below bit 4 * nibbles), ascending, to
    out[0:n]; returns the new count. Writes up to 4 scratch values past it (out has room for
    MAX_LEGAL, far more than any list of this game)."""
    cdef unsigned int x
    cdef int j
    for j in range(nibbles):
        x = (m >> (4 * j)) & 15
        memcpy(&out[n], &ROWS[row_set][j][x][0], 4 * sizeof(int))
        n += NIBBLE_BITS[x]
    return n


cdef int legal_action_phase(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    cdef int c, fee, b, n
    cdef unsigned int cards = 0x3F
    if not (pl.yuan >= FEE and pl.yuan >= 0):
        # Not every card is affordable: those whose group has no dragon yet (no fee).
        cards = 0
        if pl.yuan >= 0:
            for c in range(CARD_PRIVILEGE):
                cards |= (<unsigned int>(s.group_dragons[s.card_group[c]] == 0)) << c
    n = put_bits(out, 0, cards & ((1u << s.n_cards) - 1), ROW_CARD, 2)
    fee = fee_for(s, CARD_PRIVILEGE)
    out[n] = A_PRIV_SMALL
    n += pl.yuan >= fee + PRIV_SMALL_COST
    out[n] = A_PRIV_LARGE
    n += pl.yuan >= fee + s.opt.large_privilege_cost
    if s.n_cards > CARD_WALL and s.wall_len < WALL_MAX and pl.yuan >= fee_for(s, CARD_WALL):
        for b in range(N_WALL_BONUSES):
            if (pl.wall_unused >> b) & 1:
                out[n] = A_WALL + b
                n += 1
    out[n] = A_TOPUP
    return n + 1


cdef int legal_person_phase(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    # By bit masks: types on the display, types and kinds of the cards in hand. A type is a kind
    # (young, bit k) or, for kinds 3..8, its old tile (bit k + 6); so a kind mask becomes a type
    # mask by (m & 0x1FF) | ((m & 0x1F8) << 6), and back by (m & 0x1FF) | ((m >> 6) & 0x1F8).
    cdef unsigned int shown = nonzero15(s.display)
    cdef unsigned int hand = pl.hand & 0x1FF
    cdef int n
    n = put_bits(out, 0, shown & (hand | ((hand & 0x1F8) << 6)), ROW_PLAY, 4)
    n = put_bits(out, n, hand & ~((shown & 0x1FF) | ((shown >> 6) & 0x1F8)), ROW_PLAY_EMPTY, 3)
    if pl.wild > 0:
        n = put_bits(out, n, shown, ROW_WILD, 4)
        if shown == 0:
            out[n] = A_WILD_EMPTY
            n += 1
    return n


cdef int legal_place(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    cdef int p, n = 0
    for p in range(pl.n_palaces):
        # Written always, counted when the palace has room (no branch to mispredict).
        out[n] = A_PLACE + p
        n += pal_persons(pl, p) < pal_floors(pl, p)
    if n == 0:
        n = push_keys(pl, A_REPLACE, 0, -1, 0, out, 0)
        out[n] = A_DISCARD_NEW
        n += 1
    return n


cdef int legal_build(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    cdef int p, n = 0
    for p in range(s.last_choice, pl.n_palaces):
        out[n] = A_BUILD + p
        n += pal_floors(pl, p) < 3
    if pl.n_palaces < MAX_PALACES:
        out[n] = A_BUILD + pl.n_palaces
        n += 1
    return n


cdef int legal_release(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    if s.release_mode == REL_DROUGHT:
        return legal_drought(s, pl, out)
    return push_keys(pl, A_RELEASE, max(0, s.last_choice), -1, s.need[s.cur] - 1, out, 0)


cdef int legal_start(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    out[0] = A_START
    out[1] = A_START + 1
    return 2


cdef int legal_draft(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    # The pairs not taken, less those with a type gone from the display.
    cdef uint64_t pairs = ~s.pairs_taken & ((<uint64_t>1 << N_PAIRS) - 1)
    cdef unsigned int k = ~nonzero15(s.display) & PAIRED_TYPES
    cdef int n = 0
    while k:
        pairs &= ~PAIRS_WITH[ctz(k)]
        k &= k - 1
    while pairs:
        out[n] = A_DRAFT + ctz64(pairs)
        n += 1
        pairs &= pairs - 1
    return n


cdef int legal_quake(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    cdef int p, n = 0
    if s.release_palace != NONE8:
        return push_keys(pl, A_RELEASE, 0, s.release_palace, 0, out, 0)
    for p in range(pl.n_palaces):
        out[n] = A_QUAKE + p
        n += 1
    return n


cdef int legal_flood(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    # Discards come in the order yuan, rice, fireworks; a resource qualifies while that
    # resource and the later ones still cover every discard left.
    cdef int n = 0
    if s.last_choice <= 0 and pl.yuan > 0 and pl.yuan + pl.rice + pl.fireworks >= s.todo:
        out[n] = A_FLOOD + 0
        n += 1
    if s.last_choice <= 1 and pl.rice > 0 and pl.rice + pl.fireworks >= s.todo:
        out[n] = A_FLOOD + 1
        n += 1
    if pl.fireworks >= s.todo:
        out[n] = A_FLOOD + 2
        n += 1
    return n


cdef int legal_tornado(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    # Cards go in kind order, wildcards last; a card qualifies while it and the cards after
    # it still cover every discard left.
    cdef int p, n = 0, i = pl.wild, k = N_KINDS - 1
    while k >= s.last_choice:
        if (pl.hand >> k) & 1:
            i += 1
            if i >= s.todo:
                break
        k -= 1
    # k is now the highest kind that still leaves enough cards after it.
    for p in range(s.last_choice, k + 1):
        if (pl.hand >> p) & 1:
            out[n] = A_TORNADO + p
            n += 1
    if pl.wild >= s.todo:
        out[n] = A_TORNADO + N_KINDS
        n += 1
    return n


cdef int legal_sunrise(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    cdef int k, n = 0
    for k in range(N_KINDS):
        if not (s.sunrise_taken >> k) & 1 and s.display[k] > 0:
            out[n] = A_SUNRISE + k
            n += 1
    return n


cdef int legal_contract(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    cdef int k, n = 0
    for k in range(N_KINDS):
        if pl.sym[k] > 0:
            out[n] = A_CONTRACT + k
            n += 1
    return n


cdef int legal_none(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil:
    return 0


ctypedef int (*LegalFn)(const DragonStruct* s, const DragonPlayer* pl, int* out) noexcept nogil

# The legal actions of each phase (legal_none: no decision, the game is over). Called through
# this table, as the decisions are applied (APPLY below): each phase's function saves only the
# registers it uses, where one dragon_legal with every phase inlined saved and restored six on
# every call.
cdef LegalFn LEGAL[16]
for _ph in range(16):
    LEGAL[_ph] = legal_none
LEGAL[PH_DRAFT] = legal_draft
LEGAL[PH_ACTION] = legal_action_phase
LEGAL[PH_BUILD] = legal_build
LEGAL[PH_PERSON] = legal_person_phase
LEGAL[PH_PLACE] = legal_place
LEGAL[PH_RELEASE] = legal_release
LEGAL[PH_QUAKE] = legal_quake
LEGAL[PH_FLOOD] = legal_flood
LEGAL[PH_TORNADO] = legal_tornado
LEGAL[PH_SUNRISE] = legal_sunrise
LEGAL[PH_CONTRACT] = legal_contract
LEGAL[PH_START] = legal_start


cdef inline int legal_of(const DragonStruct* s, int* out) noexcept nogil:
    return LEGAL[s.phase & 15](s, &s.p[s.cur], out)


cdef int dragon_legal(const DragonStruct* s, int* out) noexcept nogil:
    return legal_of(s, out)

# ---------------------------------------------------------------------------------------------
# Applying a decision.

cdef bint build_target_exists(const DragonPlayer* pl, int first) noexcept nogil:
    """Whether a floor can go on palace `first` or later, or start a new palace."""
    cdef int q
    if pl.n_palaces < MAX_PALACES:
        return True
    for q in range(first, pl.n_palaces):
        if pal_floors(pl, q) < 3:
            return True
    return False


cdef void begin_build(DragonStruct* s, int floors, int resume) noexcept nogil:
    s.todo = <uint8_t>floors
    s.last_choice = 0
    s.resume = <uint8_t>resume
    s.phase = PH_BUILD
    if floors <= 0 or not build_target_exists(&s.p[s.cur], 0):
        finish_subturn(s)


cdef void apply_card(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    cdef int card, b, fee, amount = 0
    cdef bint ev = ev_sink() != NULL
    if a == A_TOPUP:
        if ev:
            ev_emit(EVK_TOPUP, s.cur, EV_NONE, max(0, TOPUP_TO - pl.yuan), max(TOPUP_TO, pl.yuan),
                    EV_NONE, EV_NONE)
        if pl.yuan < TOPUP_TO:
            pl.yuan = TOPUP_TO
        next_turn(s)
        return
    if a < A_PRIV_SMALL:
        card = a - A_CARD
    elif a < A_WALL:
        card = CARD_PRIVILEGE
    else:
        card = CARD_WALL
    fee = fee_for(s, card)
    if ev and fee:
        ev_emit(EVK_FEE, s.cur, EV_NONE, fee, card, s.card_group[card] + 1, EV_NONE)
    pl.yuan -= fee
    s.group_dragons[s.card_group[card]] += 1
    if card < CARD_PRIVILEGE:
        # The card's symbols plus those on the player's persons of the matching kind.
        amount = CARD_BASE[card] + pl.sym[CARD_SYM_KIND[card]]
        if ev and card != CARD_RESEARCH:
            ev_emit(EVK_CARD, s.cur, EV_NONE, card, amount, pl.sym[CARD_SYM_KIND[card]], EV_NONE)
    if card == CARD_TAXES:
        pl.yuan += amount
    elif card == CARD_BUILD:
        begin_build(s, amount, PH_ACTION)
        return
    elif card == CARD_HARVEST:
        pl.rice += amount
    elif card == CARD_FIREWORKS:
        pl.fireworks += amount
    elif card == CARD_PARADE:
        move_marker(s, s.cur, amount)
    elif card == CARD_RESEARCH:
        add_vp(s, pl, SRC_RESEARCH, amount, ev, EV_NONE, pl.sym[KIND_SCHOLAR], CARD_BASE[card])
    elif a == A_PRIV_SMALL:
        if ev:
            ev_emit(EVK_CARD, s.cur, EV_NONE, CARD_PRIVILEGE, 1, 0, PRIV_SMALL_COST)
        pl.yuan -= PRIV_SMALL_COST
        pl.priv_small += 1
    elif a == A_PRIV_LARGE:
        if ev:
            ev_emit(EVK_CARD, s.cur, EV_NONE, CARD_PRIVILEGE, 2, 0, s.opt.large_privilege_cost)
        pl.yuan -= s.opt.large_privilege_cost
        pl.priv_large += 1
    else:
        b = a - A_WALL
        pl.wall_unused &= ~(1 << b)
        pl.wall_built += 1
        s.wall_owner[s.wall_len] = s.cur
        s.wall_bonus[s.wall_len] = <uint8_t>b
        s.wall_len += 1
        if ev:
            ev_emit(EVK_CARD, s.cur, EV_NONE, CARD_WALL, s.wall_len, 0, b)
        if b == WB_STEPS:
            move_marker(s, s.cur, WALL_STEPS)
        elif b == WB_RICE:
            pl.rice += 1
        elif b == WB_FLOOR:
            begin_build(s, 1, PH_ACTION)
            return
        elif b == WB_YUAN:
            pl.yuan += WALL_YUAN
        elif b == WB_FIREWORKS:
            pl.fireworks += 1
        else:
            add_vp(s, pl, SRC_WALL_BONUS, WALL_VP, ev, EV_NONE, s.wall_len, 0)
    next_turn(s)


cdef void apply_build(DragonStruct* s, DragonPlayer* pl, int p) noexcept nogil:
    if p == pl.n_palaces:
        pl.palace[p] = 1
        pl.n_palaces += 1
    else:
        pl.palace[p] += 1
    s.last_choice = <int16_t>p
    s.todo -= 1
    # Floors that could go nowhere (only if MAX_PALACES were ever reached) go back.
    if s.todo > 0 and build_target_exists(pl, p):
        return
    finish_subturn(s)


cdef void apply_person_card(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    cdef int t
    if a < A_PLAY_EMPTY:
        t = a - A_PLAY
        pl.hand &= ~(1 << TYPE_KIND[t])
    elif a < A_WILD:
        pl.hand &= ~(1 << (a - A_PLAY_EMPTY))
        next_turn(s)
        return
    elif a < A_WILD_EMPTY:
        t = a - A_WILD
        pl.wild -= 1
    else:
        pl.wild -= 1
        next_turn(s)
        return
    s.display[t] -= 1
    s.pending_type = <uint8_t>t
    s.resume = PH_PERSON
    s.phase = PH_PLACE


cdef void apply_place(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    cdef int t = s.pending_type, key
    if a < A_REPLACE:
        person_add(pl, a - A_PLACE, t)
        move_marker(s, s.cur, TYPE_VALUE[t])
    elif a < A_DISCARD_NEW:
        key = a - A_REPLACE
        if ev_sink() != NULL:
            ev_emit(EVK_RELEASE, s.cur, CAUSE_FULL_PALACES, key % N_TYPES, key // N_TYPES + 1, 0,
                    EV_NONE)
        release_person(s, pl, key)
        person_add(pl, key // N_TYPES, t)
        move_marker(s, s.cur, TYPE_VALUE[t])
    else:
        # The new person leaves the game and the marker stays.
        if ev_sink() != NULL:
            ev_emit(EVK_RELEASE, s.cur, CAUSE_FULL_PALACES, t, 0, 0, EV_NONE)
        s.gone[t] += 1
    s.pending_type = NONE8
    finish_subturn(s)


cdef int release_cause(const DragonStruct* s) noexcept nogil:
    """Why the release round in progress demands releases (for events): the month's event, or
    the wall (the flow step after the one that began the round tells which)."""
    if s.flow == FLOW_SUPER:
        return CAUSE_WALL
    if s.flow == FLOW_FINAL:
        return CAUSE_WALL_FINAL
    return s.events[s.month]


cdef void apply_release(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    cdef int key = a - A_RELEASE
    release_person(s, pl, key)
    s.need[s.cur] -= 1
    if ev_sink() != NULL:
        ev_emit(EVK_RELEASE, s.cur, release_cause(s), key % N_TYPES, key // N_TYPES + 1,
                s.need[s.cur] if pl.n_persons > 0 else 0, EV_NONE)
    if s.release_mode == REL_DROUGHT:
        s.last_choice = <int16_t>(key // N_TYPES)
    else:
        s.last_choice = <int16_t>key
    if s.need[s.cur] == 0 or pl.n_persons == 0:
        next_turn(s)


cdef void quake_step_done(DragonStruct* s, DragonPlayer* pl, int p) noexcept nogil:
    if pal_floors(pl, p) == 0:
        palace_remove(pl, p)
    s.release_palace = NONE8
    s.todo -= 1
    if s.todo == 0 or pl.n_palaces == 0:
        next_turn(s)


cdef void apply_quake(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    cdef int p
    if a < A_QUAKE:
        # The palace lost a floor below its persons: one of them leaves.
        p = s.release_palace
        if ev_sink() != NULL:
            ev_emit(EVK_RELEASE, s.cur, CAUSE_SUPER + SE_EARTHQUAKE, (a - A_RELEASE) % N_TYPES,
                    p + 1, 0, EV_NONE)
        release_person(s, pl, a - A_RELEASE)
        quake_step_done(s, pl, p)
        return
    p = a - A_QUAKE
    pl.palace[p] -= 1
    if ev_sink() != NULL:
        ev_emit(EVK_FLOOR_LOST, s.cur, CAUSE_SUPER + SE_EARTHQUAKE, p + 1, pal_floors(pl, p),
                1 if pal_floors(pl, p) == 0 else 0, EV_NONE)
    if pal_persons(pl, p) > pal_floors(pl, p):
        s.release_palace = <uint8_t>p
        return
    quake_step_done(s, pl, p)


cdef void apply_contract(DragonStruct* s, DragonPlayer* pl, int k) noexcept nogil:
    cdef int cause = CAUSE_SUPER + SE_CONTRACT
    cdef bint ev = ev_sink() != NULL
    if k == KIND_COURT_LADY or k == KIND_SCHOLAR:
        add_vp(s, pl, SRC_SUPER_EVENT, pl.sym[k], ev, cause, k, pl.sym[k])
        next_turn(s)
        return
    if k == KIND_MONK:
        add_vp(s, pl, SRC_SUPER_EVENT, monk_points(pl), ev, cause, k, pl.sym[k])
        next_turn(s)
        return
    # KIND_HEALER: mortars yield nothing outside a contagion (assumption, see README).
    if ev:
        ev_emit(EVK_CONTRACT, s.cur, cause, k, 0 if k == KIND_HEALER else pl.sym[k], EV_NONE,
                EV_NONE)
    if k == KIND_CRAFTSMAN:
        begin_build(s, pl.sym[k], PH_CONTRACT)
        return
    if k == KIND_TAX_COLLECTOR:
        pl.yuan += pl.sym[k]
    elif k == KIND_PYROTECHNIST:
        pl.fireworks += pl.sym[k]
    elif k == KIND_WARRIOR:
        move_marker(s, s.cur, pl.sym[k])
    elif k == KIND_FARMER:
        pl.rice += pl.sym[k]
    next_turn(s)


cdef void apply_draft(DragonStruct* s, int pair) noexcept nogil:
    """A draft pick: both tiles leave the display, the marker moves by both values, the first
    person moves into the first palace; the second waits for PH_START ("Agora e ao longo do
    jogo, os jogadores devem colocar cada pessoa abaixo de qualquer um dos seus palácios")."""
    cdef DragonPlayer* pl = &s.p[s.cur]
    cdef int a = PAIR_A[pair], b = PAIR_B[pair]
    s.pairs_taken |= (<uint64_t>1) << pair
    s.display[a] -= 1
    s.display[b] -= 1
    person_add(pl, 0, a)
    move_marker(s, s.cur, TYPE_VALUE[a] + TYPE_VALUE[b])
    s.pending_type = <uint8_t>b
    s.phase = PH_START


cdef void apply_start(DragonStruct* s, int together) noexcept nogil:
    """House the second starting person: in the first palace with the first (`together`) or in
    the second (the two 2-floor palaces are alike, so these are the only two outcomes); then
    the next seat drafts, or month 1 begins."""
    person_add(&s.p[s.cur], 0 if together else 1, s.pending_type)
    s.pending_type = NONE8
    if s.cur + 1 < s.opt.n_players:
        s.cur += 1
        s.phase = PH_DRAFT
    else:
        s.month = 0
        start_month(s, ev_sink() != NULL)


cdef void apply_build_at(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    apply_build(s, pl, a - A_BUILD)


cdef void apply_draft_pair(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    apply_draft(s, a - A_DRAFT)


cdef void apply_start_pair(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    apply_start(s, a - A_START)


cdef void apply_flood(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    if a == A_FLOOD:
        pl.yuan -= 1
    elif a == A_FLOOD + 1:
        pl.rice -= 1
    else:
        pl.fireworks -= 1
    s.last_choice = <int16_t>(a - A_FLOOD)
    s.todo -= 1
    if s.todo == 0:
        next_turn(s)


cdef void apply_tornado(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    if a == A_TORNADO + N_KINDS:
        pl.wild -= 1
    else:
        pl.hand &= ~(1 << (a - A_TORNADO))
    s.last_choice = <int16_t>(a - A_TORNADO)
    s.todo -= 1
    if s.todo == 0:
        next_turn(s)


cdef void apply_sunrise(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    s.sunrise_taken |= 1 << (a - A_SUNRISE)
    s.display[a - A_SUNRISE] -= 1
    s.pending_type = <uint8_t>(a - A_SUNRISE)
    s.resume = PH_SUNRISE
    s.phase = PH_PLACE


cdef void apply_contract_kind(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    apply_contract(s, pl, a - A_CONTRACT)


ctypedef void (*ApplyFn)(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil

cdef void apply_none(DragonStruct* s, DragonPlayer* pl, int a) noexcept nogil:
    pass


# The decision of each phase (apply_none: none, the game is over). Called through this table,
# the phases' code stays in functions of their own instead of one large dragon_apply, whose
# entry and exit (saving and restoring registers for the largest phase) every decision would
# pay. Every entry is set, so the call needs no test.
cdef ApplyFn APPLY[16]
for _ph in range(16):
    APPLY[_ph] = apply_none
APPLY[PH_ACTION] = apply_card
APPLY[PH_PERSON] = apply_person_card
APPLY[PH_PLACE] = apply_place
APPLY[PH_BUILD] = apply_build_at
APPLY[PH_RELEASE] = apply_release
APPLY[PH_DRAFT] = apply_draft_pair
APPLY[PH_START] = apply_start_pair
APPLY[PH_QUAKE] = apply_quake
APPLY[PH_FLOOD] = apply_flood
APPLY[PH_TORNADO] = apply_tornado
APPLY[PH_SUNRISE] = apply_sunrise
APPLY[PH_CONTRACT] = apply_contract_kind


cdef void dragon_apply(DragonStruct* s, int a) noexcept nogil:
    APPLY[s.phase & 15](s, &s.p[s.cur], a)

# ---------------------------------------------------------------------------------------------
# Entry points for tests that build positions by hand (DragonState._debug_*).

cdef void dragon_debug_start_round(DragonStruct* s, int phase) noexcept nogil:
    if not start_round(s, phase):
        round_done(s)


cdef void dragon_debug_run_flow(DragonStruct* s, int flow) noexcept nogil:
    s.flow = <uint8_t>flow
    run_flow(s)


cdef void dragon_debug_recount(DragonStruct* s) noexcept nogil:
    """Recompute every player's cached symbols and palace occupancy from its persons."""
    cdef int i, j, key
    cdef DragonPlayer* pl
    for i in range(s.opt.n_players):
        pl = &s.p[i]
        memset(pl.sym, 0, sizeof(pl.sym))
        for j in range(pl.n_palaces):
            pl.palace[j] &= 3
        for j in range(pl.n_persons):
            key = pl.person[j]
            pl.palace[key // N_TYPES] += 4
            pl.sym[TYPE_KIND[key % N_TYPES]] += TYPE_SYM[key % N_TYPES]

# ---------------------------------------------------------------------------------------------
# The C-level interface (engine/core/interface.pxd).

cdef int _num_players(const void* s) noexcept nogil:
    return (<const DragonStruct*>s).opt.n_players


cdef int _current_player(const void* s) noexcept nogil:
    cdef const DragonStruct* d = <const DragonStruct*>s
    if d.phase == PH_OVER:
        return TERMINAL_PLAYER
    return d.cur


cdef int _legal(const void* s, int* out) noexcept nogil:
    return legal_of(<const DragonStruct*>s, out)


cdef void _apply(void* s, int a) noexcept nogil:
    dragon_apply(<DragonStruct*>s, a)


cdef void _copy(const void* src, void* dst) noexcept nogil:
    memcpy(dst, src, sizeof(DragonStruct))


cdef void _determinize(void* s, int player, Rng* rng) noexcept nogil:
    # Everything on the table and every played card is public: what no player knows is the
    # future (the monthly action-card splits), which the state's RNG will deal. A new RNG
    # stream is a new future.
    (<DragonStruct*>s).rng.state = rng_next(rng)


cdef uint64_t _chance_signature(const void* s, int observer) noexcept nogil:
    # What the chance of a Dragon game has shown so far, hashed: the month and this month's
    # action-card split (the groups are dealt face up at each month's start; the event row
    # and the super event are fixed at the deal and public). Every seat's alike; the same in
    # every determinization of one information set, since a determinization only reseeds the
    # future. Reads only. A search that kept its tree from an earlier month drops it when this
    # changes (SearchConfig.reuse_reveals = 0): that tree's statistics were summed over the
    # splits the month did not deal.
    cdef const DragonStruct* d = <const DragonStruct*>s
    cdef uint64_t h = rng_mix(0x9E3779B97F4A7C15ULL, (<uint64_t>d.month << 8) | d.n_cards)
    cdef int i
    for i in range(d.n_cards):
        h = rng_mix(h, (<uint64_t>i << 8) | d.card_group[i])
    return h


cdef void _reset(void* s, uint64_t seed) noexcept nogil:
    cdef DragonOptions o = (<DragonStruct*>s).opt
    dragon_init(<DragonStruct*>s, &o, seed)


cdef bint _is_terminal(const void* s) noexcept nogil:
    return (<const DragonStruct*>s).phase == PH_OVER


cdef void _ranks(const void* s, int* out) noexcept nogil:
    # Victory points, then the person track (further ahead, then higher in a stack): a total
    # order, so no two seats share a position.
    cdef const DragonStruct* d = <const DragonStruct*>s
    cdef int i, j, n = d.opt.n_players, r
    for i in range(n):
        r = 0
        for j in range(n):
            if j == i:
                continue
            if d.p[j].score > d.p[i].score or (d.p[j].score == d.p[i].score and ahead(d, j, i)):
                r += 1
        out[i] = r


cdef void _returns(const void* s, double* out) noexcept nogil:
    cdef int ranks[MAX_PLAYERS]
    cdef int i, n = (<const DragonStruct*>s).opt.n_players
    _ranks(s, ranks)
    for i in range(n):
        out[i] = 1.0 if ranks[i] == 0 else 0.0


cdef void _scores(const void* s, double* out) noexcept nogil:
    cdef const DragonStruct* d = <const DragonStruct*>s
    cdef int i
    for i in range(d.opt.n_players):
        out[i] = d.p[i].score


cdef GameDef _GAMEDEF
_GAMEDEF.name = b"dragon"
_GAMEDEF.state_size = sizeof(DragonStruct)
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
_GAMEDEF.move_prior = dragon_move_prior
_GAMEDEF.evaluate = dragon_evaluate
_GAMEDEF.observe_action = NULL     # every decision is public
_GAMEDEF.chance_signature = _chance_signature  # the monthly action-card split
_GAMEDEF.score_scale = 15.0        # a typical winning margin in VP
_GAMEDEF.n_evaluators = 2
_GAMEDEF.evaluator_names[0] = b"hand"       # knowledge.pyx's projection softmax (`evaluate`)
_GAMEDEF.evaluators[0] = dragon_evaluate
_GAMEDEF.evaluator_names[1] = b"learned"    # learned.pyx: the model fitted by ai.learn (issue 38)
_GAMEDEF.evaluators[1] = dr_evaluate_learned


cdef const GameDef* dragon_gamedef() noexcept nogil:
    return &_GAMEDEF
