# cython: language_level=3
"""In the Year of the Dragon: a move prior and an evaluation for the search.

Everything is valued in victory points: what an action gains (yuan, rice, persons, VP) and what
the coming events will cost if the player is unprepared. The values are rough on purpose (the
search corrects them); they must only be cheap and point the right way.
"""

from libc.math cimport exp
from libc.string cimport memset
from libc.stdint cimport uint8_t

from engine.core.shares cimport win_shares

from engine.dragon.state cimport *
from engine.core.state cimport State as CoreState

from engine.dragon import data as _data

# Rough exchange rates, in VP.
cdef double YUAN_VP = 0.3           # a yuan (3 yuan = 1 VP at the end; more useful in play)
cdef double RICE_VP = 0.55          # a rice tile (sells for 2 yuan; protects in droughts)
cdef double FIREWORK_VP = 0.6       # a fireworks tile (sells for 2 yuan; scores in festivals)
cdef double STEP_VP = 0.12          # a person-track step (turn order, tie-break)
cdef double PERSON_LOSS_VP = 3.0    # losing a person to an event (2 final VP + its use)
cdef double TEMPERATURE = 1.2       # softmax temperature turning values into prior weights
cdef double EVAL_TEMPERATURE = 8.0  # VP difference that makes a seat e times likelier to win

cdef int SUPER_MONTH_INDEX = _data.SUPER_EVENT_MONTH - 1   # 0-based month of the super event
cdef uint8_t TYPE_KIND[N_TYPES]
cdef uint8_t TYPE_SYM[N_TYPES]
cdef uint8_t TYPE_VALUE[N_TYPES]
cdef uint8_t PAIR_A[N_PAIRS]
cdef uint8_t PAIR_B[N_PAIRS]
for _i, _t in enumerate(_data.TYPES):
    TYPE_KIND[_i] = _t.kind
    TYPE_SYM[_i] = _t.symbols
    TYPE_VALUE[_i] = _t.value
for _i, (_a, _b) in enumerate(_data.DRAFT_PAIRS):
    PAIR_A[_i] = _a
    PAIR_B[_i] = _b

# ---------------------------------------------------------------------------------------------
# Reading the board.

cdef inline int floors_of(const DragonPlayer* pl, int p) noexcept nogil:
    return pl.palace[p] & 3


cdef inline int persons_of(const DragonPlayer* pl, int p) noexcept nogil:
    return pl.palace[p] >> 2


cdef int events_ahead(const DragonStruct* s, int event, int first, int last) noexcept nogil:
    """How many of months first..last (0-based, inclusive) hold `event`."""
    cdef int m, n = 0
    for m in range(max(first, 0), min(last, N_MONTHS - 1) + 1):
        if s.events[m] == event:
            n += 1
    return n


cdef inline int scorings_left(const DragonStruct* s) noexcept nogil:
    """Month scorings still to come, this month's included."""
    return N_MONTHS - s.month


cdef int room(const DragonPlayer* pl) noexcept nogil:
    cdef int p, r = 0
    for p in range(pl.n_palaces):
        r += floors_of(pl, p) - persons_of(pl, p)
    return r


cdef int inhabited(const DragonPlayer* pl) noexcept nogil:
    cdef int p, n = 0
    for p in range(pl.n_palaces):
        if persons_of(pl, p) > 0:
            n += 1
    return n


cdef int tallest_with_room(const DragonPlayer* pl) noexcept nogil:
    cdef int p, best = 0
    for p in range(pl.n_palaces):
        if persons_of(pl, p) < floors_of(pl, p) and floors_of(pl, p) > best:
            best = floors_of(pl, p)
    return best


ctypedef struct Outlook:
    # Events still to come that a person placed now can meet (this month's included when the
    # person arrives before the event), by EV_*; festivals and droughts from the month after,
    # since rockets and rice bags only pay through a later action.
    int ahead[6]


cdef void outlook(const DragonStruct* s, Outlook* o) noexcept nogil:
    cdef int m, first
    cdef bint now = (s.phase == PH_PERSON or s.phase == PH_PLACE or s.phase == PH_DRAFT
                     or s.phase == PH_START)
    first = s.month if now else s.month + 1
    memset(o, 0, sizeof(Outlook))
    for m in range(first, N_MONTHS):
        if s.events[m] == EV_MONGOL or s.events[m] == EV_CONTAGION:
            o.ahead[s.events[m]] += 1
        elif m > first:
            o.ahead[s.events[m]] += 1


cdef double person_value(const DragonStruct* s, const DragonPlayer* pl, int t, int floors,
                         const Outlook* o) noexcept nogil:
    """What a person of type `t` is worth to its holder from now on, in VP (`floors`: of its
    palace, for monks; 0 = not placed yet: use the tallest palace with room)."""
    cdef int k = TYPE_KIND[t], sym = TYPE_SYM[t]
    cdef int left = scorings_left(s)
    cdef double v = 2.0 + STEP_VP * TYPE_VALUE[t] * (left / 12.0)
    if k == KIND_CRAFTSMAN:
        v += sym * 0.12 * left
    elif k == KIND_COURT_LADY:
        v += sym * left
    elif k == KIND_TAX_COLLECTOR:
        v += sym * YUAN_VP * 0.25 * left
    elif k == KIND_PYROTECHNIST:
        v += sym * 1.2 * o.ahead[EV_FESTIVAL]
    elif k == KIND_WARRIOR:
        v += sym * (1.0 + 0.5) * o.ahead[EV_MONGOL]
        v += sym * 0.08 * left
    elif k == KIND_MONK:
        if floors == 0:
            floors = max(2, tallest_with_room(pl))
        v += sym * floors * (0.7 + 0.3 * left / 12.0)
    elif k == KIND_HEALER:
        v += sym * 2.2 * o.ahead[EV_CONTAGION]
    elif k == KIND_FARMER:
        v += sym * 1.6 * o.ahead[EV_DROUGHT]
        v += sym * 0.05 * left
    elif k == KIND_SCHOLAR:
        v += sym * 0.22 * left
    return v


cdef double held_value(const DragonStruct* s, const DragonPlayer* pl, int key,
                       const Outlook* o) noexcept nogil:
    cdef int p = key // N_TYPES
    cdef double v = person_value(s, pl, key % N_TYPES, floors_of(pl, p), o)
    # The last person of a palace keeps it from decaying (a palace is worth a VP a month).
    if persons_of(pl, p) == 1:
        v += 0.5 * min(floors_of(pl, p), scorings_left(s))
    return v


cdef double shortfall_risk(const DragonStruct* s, const DragonPlayer* pl, int yuan, int rice) noexcept nogil:
    """VP the player stands to lose in this month's (and, halved, next month's) event with
    `yuan` and `rice` in hand."""
    cdef double risk = 0.0, w
    cdef int m, ev, k
    for k in range(2):
        m = s.month + k
        if m >= N_MONTHS:
            break
        w = 1.0 if k == 0 else 0.5
        ev = s.events[m]
        if ev == EV_TRIBUTE:
            risk += w * PERSON_LOSS_VP * max(0, 4 - yuan)
        elif ev == EV_DROUGHT:
            risk += w * PERSON_LOSS_VP * max(0, inhabited(pl) + (1 if k == 0 else 0) - rice)
    return risk

# ---------------------------------------------------------------------------------------------
# Action values.

cdef double card_value(const DragonStruct* s, const DragonPlayer* pl, int a) noexcept nogil:
    cdef int card, fee = 0, gain, left = scorings_left(s), cost = 0, yuan = pl.yuan, rice = pl.rice
    cdef int b, g
    cdef double v = 0.0, base_risk = shortfall_risk(s, pl, pl.yuan, pl.rice)
    if a == A_TOPUP:
        gain = max(0, 3 - pl.yuan)
        return gain * YUAN_VP + base_risk - shortfall_risk(s, pl, pl.yuan + gain, rice) - 0.3
    if a < A_PRIV_SMALL:
        card = a - A_CARD
    elif a < A_WALL:
        card = CARD_PRIVILEGE
    else:
        card = CARD_WALL
    g = s.card_group[card]
    if s.group_dragons[g] > 0:
        fee = 3
    yuan -= fee
    if card == CARD_TAXES:
        gain = 2 + pl.sym[KIND_TAX_COLLECTOR]
        yuan += gain
        v = gain * YUAN_VP
    elif card == CARD_BUILD:
        gain = 1 + pl.sym[KIND_CRAFTSMAN]
        v = (3.0 if room(pl) == 0 else 0.6) + (gain - 1) * 0.5 * left / 12.0
    elif card == CARD_HARVEST:
        gain = 1 + pl.sym[KIND_FARMER]
        rice += gain
        v = gain * RICE_VP * 0.5
    elif card == CARD_FIREWORKS:
        gain = 1 + pl.sym[KIND_PYROTECHNIST]
        v = gain * (FIREWORK_VP + 1.0 * events_ahead(s, EV_FESTIVAL, s.month, s.month + 2))
    elif card == CARD_PARADE:
        gain = 1 + pl.sym[KIND_WARRIOR]
        v = gain * STEP_VP * 2.0
    elif card == CARD_RESEARCH:
        v = 1 + pl.sym[KIND_SCHOLAR]
    elif a == A_PRIV_SMALL:
        yuan -= 2
        v = left - 2 * YUAN_VP
    elif a == A_PRIV_LARGE:
        yuan -= s.opt.large_privilege_cost
        v = 2 * left - s.opt.large_privilege_cost * YUAN_VP
    else:
        b = a - A_WALL
        v = 1.0  # a section towards the wall scorings
        if b == WB_STEPS:
            v += 3 * STEP_VP
        elif b == WB_RICE:
            rice += 1
            v += RICE_VP
        elif b == WB_FLOOR:
            v += 1.5 if room(pl) == 0 else 0.4
        elif b == WB_YUAN:
            yuan += 2
            v += 2 * YUAN_VP
        elif b == WB_FIREWORKS:
            v += FIREWORK_VP
        else:
            v += 3.0
    v -= fee * YUAN_VP
    # Being ready for the coming events is worth what they would otherwise take.
    v += base_risk - shortfall_risk(s, pl, yuan, rice)
    return v


cdef double build_value(const DragonStruct* s, const DragonPlayer* pl, int p) noexcept nogil:
    cdef int left = scorings_left(s), k, i, key
    cdef double v
    if p >= pl.n_palaces:
        # A new palace scores every month, but decays unless someone moves in.
        return 0.8 if room(pl) == 0 else 0.25
    v = 0.3
    if persons_of(pl, p) == floors_of(pl, p):
        v += 1.5  # room for the next person
    # Monks score their palace's height.
    for i in range(pl.n_persons):
        key = pl.person[i]
        if key // N_TYPES == p and TYPE_KIND[key % N_TYPES] == KIND_MONK:
            v += TYPE_SYM[key % N_TYPES]
    return v


cdef double place_value(const DragonStruct* s, const DragonPlayer* pl, int t, int p) noexcept nogil:
    cdef double v = 0.0
    if persons_of(pl, p) == 0:
        v += 1.0  # keeps the palace from decaying
    if TYPE_KIND[t] == KIND_MONK:
        v += TYPE_SYM[t] * floors_of(pl, p)
    else:
        # Leave tall palaces' room for monks.
        v -= 0.1 * floors_of(pl, p)
    return v


cdef double release_value(const DragonStruct* s, const DragonPlayer* pl, int key,
                          const Outlook* o) noexcept nogil:
    """Higher = better to release (the least valuable person first)."""
    return 20.0 - held_value(s, pl, key, o)


cdef double card_keep_value(const DragonStruct* s, const DragonPlayer* pl, int k,
                            const Outlook* o) noexcept nogil:
    """What a person card of kind k (9 = a wildcard) is still worth: its best tile."""
    cdef int t
    cdef double best = 0.0, v
    for t in range(N_TYPES):
        if s.display[t] > 0 and (k == N_KINDS or TYPE_KIND[t] == k):
            v = person_value(s, pl, t, 0, o)
            if v > best:
                best = v
    return best


cdef double action_value(const DragonStruct* s, int a, const Outlook* o) noexcept nogil:
    cdef const DragonPlayer* pl = &s.p[s.cur]
    cdef int ph = s.phase, t, k, key, p
    cdef double v
    if ph == PH_ACTION:
        return card_value(s, pl, a)
    if ph == PH_BUILD:
        return build_value(s, pl, a - A_BUILD)
    if ph == PH_PERSON:
        if a < A_PLAY_EMPTY:
            t = a - A_PLAY
            return person_value(s, pl, t, 0, o) - (0.0 if room(pl) > 0 else 2.5)
        if a < A_WILD:
            return 0.0
        if a < A_WILD_EMPTY:
            t = a - A_WILD
            # A wildcard spends flexibility: keep it unless the tile beats the kind cards.
            return person_value(s, pl, t, 0, o) - 1.0 - (0.0 if room(pl) > 0 else 2.5)
        return 0.0
    if ph == PH_PLACE:
        t = s.pending_type
        if a < A_REPLACE:
            return place_value(s, pl, t, a - A_PLACE)
        if a < A_DISCARD_NEW:
            key = a - A_REPLACE
            return (person_value(s, pl, t, floors_of(pl, key // N_TYPES), o)
                    - held_value(s, pl, key, o))
        return 0.0
    if ph == PH_RELEASE or (ph == PH_QUAKE and a < A_QUAKE):
        return release_value(s, pl, a - A_RELEASE, o)
    if ph == PH_START:
        # The second starting person: its own palace (keeps it from decaying) or beside the
        # first (the other palace is then empty until a recruit or a build fills it); valued
        # as any placement, which favours one per palace without ruling out sharing.
        return place_value(s, pl, s.pending_type, 0 if a == A_START + 1 else 1)
    if ph == PH_DRAFT:
        return (person_value(s, pl, PAIR_A[a - A_DRAFT], 2, o)
                + person_value(s, pl, PAIR_B[a - A_DRAFT], 2, o))
    if ph == PH_QUAKE:
        p = a - A_QUAKE
        v = 0.0
        if persons_of(pl, p) < floors_of(pl, p):
            v += 2.0  # nobody has to leave
        if persons_of(pl, p) == 0:
            v += 1.0
        return v
    if ph == PH_FLOOD:
        k = a - A_FLOOD
        if k == 0:
            return -YUAN_VP - (PERSON_LOSS_VP if events_ahead(s, EV_TRIBUTE, s.month + 1, s.month + 2) and pl.yuan <= 4 else 0.0)
        if k == 1:
            return -RICE_VP - (PERSON_LOSS_VP if events_ahead(s, EV_DROUGHT, s.month + 1, s.month + 2) and pl.rice <= inhabited(pl) else 0.0)
        return -FIREWORK_VP - (1.5 if events_ahead(s, EV_FESTIVAL, s.month + 1, s.month + 3) else 0.0)
    if ph == PH_TORNADO:
        return -card_keep_value(s, pl, a - A_TORNADO, o)
    if ph == PH_SUNRISE:
        return person_value(s, pl, a - A_SUNRISE, 0, o)
    if ph == PH_CONTRACT:
        k = a - A_CONTRACT
        if k == KIND_COURT_LADY or k == KIND_SCHOLAR:
            return pl.sym[k]
        if k == KIND_TAX_COLLECTOR:
            return pl.sym[k] * YUAN_VP
        if k == KIND_FARMER:
            return pl.sym[k] * RICE_VP
        if k == KIND_PYROTECHNIST:
            return pl.sym[k] * FIREWORK_VP
        if k == KIND_WARRIOR:
            return pl.sym[k] * STEP_VP
        if k == KIND_CRAFTSMAN:
            return pl.sym[k] * 0.5
        if k == KIND_MONK:
            v = 0.0
            for p in range(pl.n_persons):
                key = pl.person[p]
                if TYPE_KIND[key % N_TYPES] == KIND_MONK:
                    v += TYPE_SYM[key % N_TYPES] * floors_of(pl, key // N_TYPES)
            return v
        return 0.0
    return 0.0


cdef void dragon_move_prior(const void* vs, const int* actions, int n, double* out) noexcept nogil:
    cdef const DragonStruct* s = <const DragonStruct*>vs
    cdef int i
    cdef double best = -1e300
    cdef Outlook o
    outlook(s, &o)
    for i in range(n):
        out[i] = action_value(s, actions[i], &o)
        if out[i] > best:
            best = out[i]
    for i in range(n):
        out[i] = exp((out[i] - best) / TEMPERATURE)

# ---------------------------------------------------------------------------------------------
# Evaluation.

cdef double projection_parts(const DragonStruct* s, int seat, double* parts) noexcept nogil:
    """The seat's projected final score (what `dragon_evaluate` compares), and into
    parts[N_PARTS] its terms: month scorings still to come, the final 2 VP a person, the monks'
    buddhas x floors, money at the end, the event shortfall risk, the track tie-break term."""
    cdef const DragonPlayer* pl = &s.p[seat]
    cdef int j, key
    # Scorings still to come: the current month's has not happened before the month-end flow.
    cdef int left = N_MONTHS - s.month
    cdef double monks = 0.0
    for j in range(pl.n_persons):
        key = pl.person[j]
        if TYPE_KIND[key % N_TYPES] == KIND_MONK:
            monks += TYPE_SYM[key % N_TYPES] * (pl.palace[key // N_TYPES] & 3)
    parts[0] = left * (inhabited(pl) + pl.sym[KIND_COURT_LADY] + pl.priv_small + 2 * pl.priv_large)
    parts[1] = 2 * pl.n_persons
    parts[2] = monks
    parts[3] = (pl.yuan + 2 * (pl.rice + pl.fireworks)) / 3.0
    parts[4] = shortfall_risk(s, pl, pl.yuan, pl.rice)
    parts[5] = STEP_VP * pl.track * 0.2
    # Whole numbers are exact in a double: the same sum as the former one-line expression.
    return pl.score + parts[0] + parts[1] + parts[2] + parts[3] - parts[4] + parts[5]


cdef void dragon_evaluate(const void* vs, double* out) noexcept nogil:
    cdef const DragonStruct* s = <const DragonStruct*>vs
    cdef int i, n = s.opt.n_players
    cdef double est[MAX_PLAYERS]
    cdef double parts[N_PARTS]
    for i in range(n):
        est[i] = projection_parts(s, i, parts)
    win_shares(est, n, EVAL_TEMPERATURE, out)


def evaluate(state) -> list[float]:
    """The hand-written evaluation of a Dragon state: each seat's share of the win (the search's
    leaf value), for comparing it with a learned model (ai/learn/fit.py)."""
    cdef CoreState st = <CoreState?>state
    cdef double out[MAX_PLAYERS]
    if st.gdef.name != b"dragon":
        raise ValueError(f"evaluate: a Dragon state is needed, got {st.game.name!r}")
    dragon_evaluate(st.data, out)
    return [out[i] for i in range(st.gdef.num_players(st.data))]


def eval_temperature() -> float:
    """The softmax temperature of `evaluate` (VP): the win shares are a softmax of the
    `projection` features divided by it."""
    return EVAL_TEMPERATURE

# ---------------------------------------------------------------------------------------------
# Features for a learned evaluation (ai/learn: self-play, a ridge fit per stage): the hand
# projection, its parts and the holdings they come from, the seat against the others, the events
# ahead. Dragon's board is public, so a view of any seat gives the same features as the truth.

FEATURE_NAMES = (
    "bias", "projection", "score", "scorings_part", "persons_part", "monks_part", "money_part",
    "shortfall", "track_part",
    "yuan", "rice", "fireworks", "track", "track_rank", "priv_small", "priv_large", "dragons",
    "palaces", "floors", "inhabited", "room", "persons", "person_kinds", "person_values", "old",
    "hammers", "fans", "coins", "rockets", "helmets", "buddhas", "mortars", "rice_bags", "books",
    "cards", "wildcards", "wall_built",
    "tribute_ahead", "drought_ahead", "contagion_ahead", "mongol_ahead", "festival_ahead",
    "super_ahead", "months_left", "decisions_left",
    "projection_lead", "projection_vs_mean", "score_lead", "fireworks_lead", "helmets_over_min",
    "players_1", "players_2", "players_3", "players_4", "players_5",
)
assert len(FEATURE_NAMES) == N_FEATURES


cdef inline int popcount(unsigned int m) noexcept nogil:
    cdef int k = 0
    while m:
        k += 1
        m &= m - 1
    return k


cdef int dr_decisions_left(const DragonStruct* s, int seat) noexcept nogil:
    """Action cards the seat has still to take: the months left, less this month's if the seat
    has taken it already (the action round is past, or past the seat in the track order)."""
    cdef int i, pos = -1, ph = s.phase
    cdef bint acted
    if ph == PH_OVER:
        return 0
    if ph == PH_DRAFT or ph == PH_START:
        return N_MONTHS
    if ph == PH_BUILD or ph == PH_PLACE:
        ph = s.resume
    if ph == PH_ACTION:
        for i in range(s.opt.n_players):
            if s.order[i] == seat:
                pos = i
        # The seat at order_pos is deciding now (not yet acted) unless this is its Build step.
        acted = pos < s.order_pos or (pos == s.order_pos and s.phase == PH_BUILD)
    else:
        acted = True
    return N_MONTHS - s.month - (1 if acted else 0)


cdef void dr_features(const void* vs, int seat, double* out) noexcept nogil:
    cdef const DragonStruct* s = <const DragonStruct*>vs
    cdef const DragonPlayer* pl = &s.p[seat]
    cdef const DragonPlayer* q
    cdef double parts[N_PARTS]
    cdef double proj[MAX_PLAYERS]
    cdef int i, j, k, key, t, n = s.opt.n_players, first, rank = 0, floors = 0, kinds = 0
    cdef int values = 0, old = 0
    cdef int ahead[6]
    cdef double best_other = -1e300, sum_other = 0.0, best_score = -1e300, best_fw = -1e300
    cdef double min_helmets = 1e300
    for i in range(n):
        proj[i] = projection_parts(s, i, parts)
    out[1] = projection_parts(s, seat, parts)
    out[0] = 1.0
    out[2] = pl.score
    for i in range(N_PARTS):
        out[3 + i] = parts[i]
    out[9] = pl.yuan
    out[10] = pl.rice
    out[11] = pl.fireworks
    out[12] = pl.track
    for i in range(n):
        q = &s.p[i]
        if i != seat and (q.track > pl.track or (q.track == pl.track and q.stamp > pl.stamp)):
            rank += 1
    out[13] = rank
    out[14] = pl.priv_small
    out[15] = pl.priv_large
    out[16] = pl.priv_small + 2 * pl.priv_large
    out[17] = pl.n_palaces
    for i in range(pl.n_palaces):
        floors += floors_of(pl, i)
    out[18] = floors
    out[19] = inhabited(pl)
    out[20] = room(pl)
    out[21] = pl.n_persons
    for k in range(N_KINDS):
        for j in range(pl.n_persons):
            if TYPE_KIND[pl.person[j] % N_TYPES] == k:
                kinds += 1
                break
    for j in range(pl.n_persons):
        t = pl.person[j] % N_TYPES
        values += TYPE_VALUE[t]
        if t >= N_KINDS:
            old += 1
    out[22] = kinds
    out[23] = values
    out[24] = old
    for k in range(N_KINDS):
        out[25 + k] = pl.sym[k]
    out[34] = popcount(pl.hand)
    out[35] = pl.wild
    out[36] = pl.wall_built
    # Events still to resolve: this month's too while its action and person rounds last.
    first = s.month if (s.phase <= PH_PLACE or s.phase == PH_START) else s.month + 1
    for k in range(6):
        ahead[k] = events_ahead(s, k, first, N_MONTHS - 1)
    out[37] = ahead[EV_TRIBUTE]
    out[38] = ahead[EV_DROUGHT]
    out[39] = ahead[EV_CONTAGION]
    out[40] = ahead[EV_MONGOL]
    out[41] = ahead[EV_FESTIVAL]
    out[42] = 1.0 if (s.super_event != NO_SUPER_EVENT and s.month <= SUPER_MONTH_INDEX
                      and first <= SUPER_MONTH_INDEX) else 0.0
    out[43] = N_MONTHS - s.month
    out[44] = dr_decisions_left(s, seat)
    for i in range(n):
        if i == seat:
            continue
        q = &s.p[i]
        sum_other += proj[i]
        if proj[i] > best_other:
            best_other = proj[i]
        if q.score > best_score:
            best_score = q.score
        if q.fireworks > best_fw:
            best_fw = q.fireworks
        if q.sym[KIND_WARRIOR] < min_helmets:
            min_helmets = q.sym[KIND_WARRIOR]
    out[45] = out[1] - best_other
    out[46] = out[1] - sum_other / (n - 1)
    out[47] = pl.score - best_score
    out[48] = pl.fireworks - best_fw
    out[49] = pl.sym[KIND_WARRIOR] - min_helmets
    for i in range(5):
        out[50 + i] = 1.0 if n == i + 1 else 0.0


def features(state, seat) -> list[float]:
    """The learned evaluation's features of `seat` in a Dragon state (FEATURE_NAMES order; the
    board is public, so any seat's view gives the truth's values)."""
    from engine.core.args import check_seat
    cdef CoreState st = <CoreState?>state
    cdef double out[N_FEATURES]
    if st.gdef.name != b"dragon":
        raise ValueError(f"features: a Dragon state is needed, got {st.game.name!r}")
    dr_features(st.data, check_seat(state, seat), out)
    return [out[i] for i in range(N_FEATURES)]
