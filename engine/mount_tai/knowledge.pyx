# cython: language_level=3
"""Mount Tai: a move prior and an evaluation for the search (see knowledge.pxd).

Everything is valued in reputation through one projection of a player's final reputation,
V(holdings): reputation now; plus what the coming seasonal settlements pay (farmland, towns and
buildings' yields, valued at what a money / grain / wine is still worth by then, and the Eight
Praises tiles: a year-1 threshold met or approached, a year-2 rate per unit); plus talents (their
level 3 skill, a share of it below level 3, and the use of their lower skills); plus unconverted
settlements, the climb to the summit (sacrifices to heaven) and what the resources held are still
worth. An action's value is V after it minus V before it, computed on a small summary of the
player's holdings (`Hold`), so the prior costs a few dozen projections per decision. The values
are rough on purpose (the search corrects them); they must only be cheap and point the right way.
"""

from libc.math cimport exp
from libc.stdint cimport uint8_t, uint32_t

from engine.core.shares cimport win_shares

from engine.mount_tai.state cimport *
from engine.mount_tai.tables cimport MTTables, mt_tables
from engine.mount_tai.players cimport has_skill
from engine.mount_tai.mountain cimport cell_height, next_to_water, can_cultivate
from engine.mount_tai.checks cimport season_of, uncovered, builder_toll_blocks, colour_room
from engine.mount_tai.scoring cimport solo_goal
from engine.mount_tai.solo cimport vp_event_choice
from engine.core.state cimport State as CoreState

cdef extern from *:
    """
    static inline int mt_ctz32k(unsigned int x) { return __builtin_ctz(x); }
    """
    int ctz "mt_ctz32k"(unsigned int x) noexcept nogil

cdef const MTTables* T = mt_tables()

cdef double NEG = -1e30     # "impossible"
cdef int CASH = 3           # money a player wants at hand (see W_CASH)

# ---------------------------------------------------------------------------------------------
# Weights (reputation points unless said otherwise). `_set_weights` changes them for tuning.

cdef enum:
    W_TEMP = 0          # prior: softmax temperature
    W_EVAL_TEMP         # evaluation: reputation difference making a seat e times likelier to win
    W_EVAL_EARLY        # ... growing by this share of itself per game still to play (R / 16)
    W_SOLO_TEMP         # solo evaluation: logistic scale around the goal (grows as eval_temp)
    W_FUTURE            # solo: reputation still to come from future decisions, per R^2
    W_MONEY             # a money while there is time to use it
    W_CASH              # more for each of the first CASH money (what most actions need at once)
    W_PAIR              # a grain with a wine beside it (half a celebration's worth of each)
    W_SPARE_GRAIN       # a grain beyond the wine (it can still be brewed)
    W_SPARE_WINE        # a wine beyond the grain
    W_HORIZON_M         # rounds left below which money loses its value linearly
    W_HORIZON_G         # the same for grain and wine
    W_SETTLE            # an unconverted settlement, beyond the yields it can bring
    W_SETTLE_SHARE      # share of a settlement's conversion value credited before converting
    W_NEAR_PARTIAL      # year-1 Eight Praises not met yet: share of (progress^2 x reward), this season
    W_FAR_PARTIAL       # ... for a later season
    W_FAR_RES           # resources held now, counted for a later season's tile
    W_POT1              # share of a level 3 skill's value credited at level 1
    W_POT2              # ... at level 2
    W_CLIMB             # share of the summit's value credited for the layers climbed
    W_SACRIFICES        # sacrifices expected per sacrifice tile still in the edict area
    W_CELEBRATIONS      # celebrations expected per celebration tile (Sacrifice Official 1)
    W_DENY              # event: weight of what the next player gets from what is left
    W_TIDY              # a tile thrown away by a tidy-up or removal: this share of its value
    W_ORDER_LATER       # chance a player still to decide goes before, if it can
    N_W

_W_NAMES = ("temp", "eval_temp", "eval_early", "solo_temp", "future", "money", "cash", "pair", "spare_grain", "spare_wine",
            "horizon_m", "horizon_g", "settle", "settle_share", "near_partial", "far_partial",
            "far_res", "pot1", "pot2", "climb", "sacrifices", "celebrations", "deny", "tidy",
            "order_later")
_W_DEFAULTS = (1.0, 6.0, 1.0, 6.0, 0.2, 0.8, 0.4, 1.8, 0.7, 0.25,
               6.0, 5.0, 1.0, 0.6, 0.5, 0.6,
               0.3, 0.3, 0.6, 0.5, 0.6, 0.6, 0.5, 0.5,
               0.6)
assert len(_W_NAMES) == len(_W_DEFAULTS) == N_W

cdef double W[N_W]
for _i in range(N_W):
    W[_i] = _W_DEFAULTS[_i]


def _set_weights(**weights) -> dict:
    """Change knowledge weights by name (tuning experiments only: not thread-safe with a search
    running); returns every weight. Unknown names raise ValueError."""
    for name, value in weights.items():
        if name not in _W_NAMES:
            raise ValueError(f"unknown weight {name!r}; known: {', '.join(_W_NAMES)}")
        W[_W_NAMES.index(name)] = float(value)
    fill_yields()
    return {name: W[i] for i, name in enumerate(_W_NAMES)}

# ---------------------------------------------------------------------------------------------
# A player's holdings in brief, and the context they are valued in.

ctypedef struct Hold:
    int money, grain, wine, rep
    int farms, towns, settlements
    int wet             # settlements next to water (free reclamation)
    int wet_tiles       # settlement, farmland and town tiles next to water (Descendant of Zheng)
    int height          # highest layer reached, 1..4
    int layer_bits      # bit k-1: layer k holds one of the player's tiles (高矣 year 2 counts them)
    int l23             # tiles on layers 2-3 (Pioneer)
    int ascent          # 1 once on the summit
    int buildings       # bit per B_*
    int n_talents
    int carried         # bit i: card i is a challenge bonus (outside the colour rule)
    int tier3           # tier III tiles used or removed
    int firsts          # times first with the Vanguard
    uint8_t kind[MAX_TALENTS]
    uint8_t level[MAX_TALENTS]


ctypedef struct Ctx:
    const MTState* s
    int seat
    int n_players
    int R               # policy decisions left to the seat (the current one included)
    int k0              # first settlement (0..7; 8 = none) still to come for the seat
    int acts_to[8]      # policy decisions left before settlement k
    double vm, vg, vw   # what a money, grain, wine is worth now (roughly: see feast)
    double farm_u, town_u, works_u, market_u, garrison_u, all_g, all_m  # yields to come, valued
    int sac_tiles       # sacrifice / celebration effects on tiles still in the edict area
    int cel_tiles
    int exchanges       # exchange event tiles still to come (Trader 2)
    int other_max[3]    # the other seats' highest money, grain, wine (Publicist 3)
    int forbidden       # challenge 3: effects barred this round (bit E_*)
    # Cultivation targets, found once per call (cult_n < 0: not yet).
    int cult_n
    uint8_t cult_cell[2 * N_CELLS]
    uint8_t cult_mountain[2 * N_CELLS]
    uint8_t cult_class[2 * N_CELLS]    # what settling there changes in a Hold (settle_class)


cdef inline double clamp01(double x) noexcept nogil:
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


cdef inline double fade(double rounds, double horizon) noexcept nogil:
    """What a resource is still worth with `rounds` policy decisions left, as a share of full."""
    return clamp01(rounds / horizon)


cdef void hold_of(const MTState* s, int seat, Hold* h) noexcept nogil:
    cdef const MTPlayer* pl = &s.p[seat]
    cdef int l, c, ht, i
    cdef bint wet
    h.money = pl.res[RES_MONEY]
    h.grain = pl.res[RES_GRAIN]
    h.wine = pl.res[RES_WINE]
    h.rep = pl.res[RES_REP]
    h.farms = 0
    h.towns = 0
    h.settlements = 0
    h.wet = 0
    h.wet_tiles = 0
    h.height = 1
    h.layer_bits = 1
    h.l23 = 0
    h.ascent = 0
    for l in range(N_CELLS):
        c = pl.cell[l]
        if c == C_EMPTY:
            continue
        if c == C_ASCENT:
            h.ascent = 1
            h.height = 4
            h.layer_bits |= 8
            continue
        ht = cell_height(l)
        h.layer_bits |= 1 << (ht - 1)
        if ht > h.height:
            h.height = ht
        if 2 <= ht <= 3:
            h.l23 += 1
        wet = next_to_water(s, seat, l)
        if wet:
            h.wet_tiles += 1
        if c == C_SETTLEMENT:
            h.settlements += 1
            if wet:
                h.wet += 1
        elif c == C_FARMLAND:
            h.farms += 1
        else:
            h.towns += 1
    h.buildings = pl.buildings
    h.n_talents = pl.n_talents
    h.carried = pl.carried
    for i in range(pl.n_talents):
        h.kind[i] = pl.talent[i]
        h.level[i] = pl.level[i]
    h.tier3 = pl.tier3
    h.firsts = pl.firsts


cdef inline bint h_building(const Hold* h, int kind) noexcept nogil:
    return (h.buildings >> kind) & 1


cdef inline int h_level(const Hold* h, int kind) noexcept nogil:
    cdef int i, best = 0
    for i in range(h.n_talents):
        if h.kind[i] == kind and h.level[i] > best:
            best = h.level[i]
    return best


cdef inline int h_count_buildings(const Hold* h) noexcept nogil:
    cdef int k, n = 0
    for k in range(N_BUILDING_KINDS):
        n += (h.buildings >> k) & 1
    return n


cdef int seat_index(const MTState* s, int seat) noexcept nogil:
    cdef int i
    for i in range(s.n_order):
        if s.order[i] == seat:
            return i
    return 0


cdef enum:
    Y_FARM = 0, Y_TOWN, Y_WORKS, Y_MARKET, Y_GARRISON, Y_ALL_G, Y_ALL_M, N_Y

# The yields still to come from settlement k0 on, valued (Ctx.farm_u ... all_m), by
# [seasonal_yields][k0]: they depend on the weights and tables only, so they are computed when the
# weights are set instead of in every ctx_of.
cdef double YIELDS[2][9][N_Y]


cdef void fill_yields() noexcept nogil:
    cdef int seasonal, k0, k, season, bit, rk, i
    cdef double vm_k, vg_k
    cdef bint farm_s, town_s
    cdef double* y
    for seasonal in range(2):
        for k0 in range(9):
            y = YIELDS[seasonal][k0]
            for i in range(N_Y):
                y[i] = 0.0
            for k in range(k0, 8):
                season = k & 3
                bit = 1 << season
                rk = 14 - 2 * k
                vm_k = W[W_MONEY] * fade(rk, W[W_HORIZON_M])
                vg_k = 0.5 * W[W_PAIR] * fade(rk, W[W_HORIZON_G])
                farm_s = (not seasonal) or (T.farmland_seasons & bit)
                town_s = (not seasonal) or (T.town_seasons & bit)
                if farm_s:
                    y[Y_FARM] += T.farmland_grain * vg_k
                if town_s:
                    y[Y_TOWN] += T.town_money * vm_k
                if T.works_seasons & bit:
                    y[Y_WORKS] += (T.works_grain - (T.farmland_grain if farm_s else 0)) * vg_k
                if T.market_seasons & bit:
                    y[Y_MARKET] += (T.market_money - (T.town_money if town_s else 0)) * vm_k
                if T.garrison_seasons & bit:
                    y[Y_GARRISON] += T.garrison_grain * vg_k
                y[Y_ALL_G] += vg_k
                y[Y_ALL_M] += vm_k


fill_yields()

# Grain a farmland tile yields at settlement k (0..7), by [seasonal_yields][k][2 * Works Office +
# Military Garrison], and money a town yields, by [seasonal_yields][k][Free Market]: the
# settlements' yields as praises() adds them up.
cdef int GRAIN_PER_FARM[2][8][4]
cdef int MONEY_PER_TOWN[2][8][2]


cdef void fill_per_tile_yields() noexcept nogil:
    cdef int seasonal, k, bit, works, garrison, market, g
    cdef bint farm_s, town_s
    for seasonal in range(2):
        for k in range(8):
            bit = 1 << (k & 3)
            farm_s = (not seasonal) or (T.farmland_seasons & bit)
            town_s = (not seasonal) or (T.town_seasons & bit)
            for works in range(2):
                for garrison in range(2):
                    g = 0
                    if works and (T.works_seasons & bit):
                        g = T.works_grain
                    elif farm_s:
                        g = T.farmland_grain
                    if garrison and (T.garrison_seasons & bit):
                        g += T.garrison_grain
                    GRAIN_PER_FARM[seasonal][k][2 * works + garrison] = g
            for market in range(2):
                if market and (T.market_seasons & bit):
                    MONEY_PER_TOWN[seasonal][k][market] = T.market_money
                elif town_s:
                    MONEY_PER_TOWN[seasonal][k][market] = T.town_money
                else:
                    MONEY_PER_TOWN[seasonal][k][market] = 0


fill_per_tile_yields()

# Sacrifice and celebration effects printed on each edict tile (ctx_of counts them per call).
cdef uint8_t SACRIFICES_ON[N_TILES + 1]
cdef uint8_t CELEBRATIONS_ON[N_TILES + 1]
for _t in range(N_TILES + 1):
    SACRIFICES_ON[_t] = sum(1 for _i in range(T.n_effects[_t]) if T.effect[_t][_i] == E_SACRIFICE)
    CELEBRATIONS_ON[_t] = sum(1 for _i in range(T.n_effects[_t]) if T.effect[_t][_i] == E_CELEBRATE)


cdef void ctx_of(const MTState* s, int seat, Ctx* c) noexcept nogil:
    cdef int r = s.round, k, tile, j, i
    cdef int acting_now
    cdef const MTPlayer* pl = &s.p[seat]
    cdef uint32_t m
    cdef const double* y
    c.s = s
    c.seat = seat
    c.n_players = s.opt.n_players
    c.cult_n = -1
    # Policy decisions left, and the first settlement still to come for this seat.
    if s.flow >= FLOW_SECRETARY or s.phase == PH_OVER or r >= N_ROUNDS:
        c.R = 0
        c.k0 = 8
    else:
        acting_now = 1 if s.flow <= FLOW_POLICY else 0
        c.R = N_ROUNDS - r - 1 + acting_now
        c.k0 = r >> 1
        if r & 1 and (s.flow == FLOW_SETTLE_END or
                      (s.flow == FLOW_SETTLE and seat_index(s, seat) < s.order_pos)):
            c.k0 += 1
        for k in range(8):
            c.acts_to[k] = 2 * k + 1 - r + acting_now
            if c.acts_to[k] < 0:
                c.acts_to[k] = 0
    c.vm = W[W_MONEY] * fade(c.R, W[W_HORIZON_M])
    c.vg = 0.5 * W[W_PAIR] * fade(c.R, W[W_HORIZON_G])     # rough per-unit values
    c.vw = c.vg
    # Yields still to come, each valued at what it will be worth when it comes (YIELDS).
    y = YIELDS[1 if s.opt.seasonal_yields else 0][c.k0]
    c.farm_u = y[Y_FARM]
    c.town_u = y[Y_TOWN]
    c.works_u = y[Y_WORKS]
    c.market_u = y[Y_MARKET]
    c.garrison_u = y[Y_GARRISON]
    c.all_g = y[Y_ALL_G]
    c.all_m = y[Y_ALL_M]
    # Celebrations and sacrifices the seat's edict area still offers.
    c.sac_tiles = 0
    c.cel_tiles = 0
    m = pl.present
    while m:
        j = ctz(m)
        m &= m - 1
        tile = pl.slot_tile[j]
        c.sac_tiles += SACRIFICES_ON[tile]
        c.cel_tiles += CELEBRATIONS_ON[tile]
    # Exchange tiles still to come (this year's rounds from now, and all of next year's).
    c.exchanges = 0
    if c.R > 0:
        for k in range(r % ROUNDS_PER_YEAR, ROUNDS_PER_YEAR):
            for j in range(N_EVENT_SPACES):
                tile = s.event_tile[k][j]
                if tile != NONE8 and T.event_kind[tile] == EV_EXCHANGE:
                    c.exchanges += 1 if r >= ROUNDS_PER_YEAR else 2
    for j in range(3):
        c.other_max[j] = 0
        for i in range(s.opt.n_players):
            if i != seat and s.p[i].res[j] > c.other_max[j]:
                c.other_max[j] = s.p[i].res[j]
    c.forbidden = pl.prev_actions if s.opt.challenge == 3 else 0

# ---------------------------------------------------------------------------------------------
# The projection V(holdings).

cdef double praise_credit(const Ctx* c, int k, int pr, double m, bint resource) noexcept nogil:
    """What settlement k's Eight Praises tile `pr` is expected to pay for measure `m` held."""
    cdef int year = k >> 2, need, unit
    cdef bint near = k == c.k0
    cdef double v, frac
    if year == 0:
        need = T.praise_y1_min[pr]
        if m >= need:
            v = T.praise_y1_rep[pr]
        elif c.acts_to[k] > 0 or (resource and near):
            frac = m / need
            v = T.praise_y1_rep[pr] * frac * frac * (W[W_NEAR_PARTIAL] if near else W[W_FAR_PARTIAL])
        else:
            v = 0.0
    else:
        unit = T.praise_y2_unit[pr]
        if near:
            v = (<int>m // unit) * T.praise_y2_rep[pr]
        else:
            v = m * T.praise_y2_rep[pr] / unit
    if resource and not near:
        v *= W[W_FAR_RES]
    return v


cdef double praises(const Ctx* c, const Hold* h) noexcept nogil:
    cdef const MTState* s = c.s
    cdef int k, season, pr, year, l2 = 0, l3 = 0, l1 = 0, i, nb = h_count_buildings(h)
    cdef double money = h.money, grain = h.grain, wine = h.wine, v = 0.0, m
    for i in range(h.n_talents):
        if h.level[i] >= 3:
            l3 += 1
        elif h.level[i] == 2:
            l2 += 1
        else:
            l1 += 1
    cdef int seasonal = 1 if s.opt.seasonal_yields else 0
    cdef int farm_kind = 2 * h_building(h, B_WORKS) + h_building(h, B_GARRISON)
    cdef int town_kind = h_building(h, B_MARKET)
    cdef int granary = h_building(h, B_GRANARY), mint = h_building(h, B_MINT)
    for k in range(c.k0, 8):
        season = k & 3
        year = k >> 2
        # The settlement's yields come before its Eight Praises tile (whole numbers: the sums
        # are exact in any order).
        grain += GRAIN_PER_FARM[seasonal][k][farm_kind] * h.farms + granary
        money += MONEY_PER_TOWN[seasonal][k][town_kind] * h.towns + mint
        pr = s.praise[year][season]
        if pr == PR_HEIGHT:
            if s.opt.legacy:    # legacy_readings: the highest layer (before issue 13)
                v += praise_credit(c, k, pr, h.height, False)
            elif year == 0 and not s.opt.gao_yi_above:
                # Year 1: layers 1 and 2 (scoring.praise_measure): a tile on layer 2 pays.
                v += praise_credit(c, k, pr, 1 + ((h.layer_bits >> 1) & 1), False)
            else:
                v += praise_credit(c, k, pr, (h.layer_bits & 1) + ((h.layer_bits >> 1) & 1)
                                   + ((h.layer_bits >> 2) & 1) + ((h.layer_bits >> 3) & 1), False)
        elif pr == PR_FARMLAND:
            v += praise_credit(c, k, pr, h.farms, False)
        elif pr == PR_BUILDINGS:
            v += praise_credit(c, k, pr, nb, False)
        elif pr == PR_TOWNS:
            v += praise_credit(c, k, pr, h.towns, False)
        elif pr == PR_MONEY:
            v += praise_credit(c, k, pr, money, True)
        elif pr == PR_GRAIN:
            v += praise_credit(c, k, pr, grain, True)
        elif pr == PR_WINE:
            v += praise_credit(c, k, pr, wine, True)
        elif year == 0:
            # Cards at level 2 or more; a level 1 card is half way there.
            m = l2 + l3
            if m < 1 and l1 > 0:
                m = 0.5
            v += praise_credit(c, k, pr, m, False)
        else:
            # Cards at level 3, and a share for those that can still get there in time.
            v += praise_credit(c, k, pr, l3, False)
            if c.acts_to[k] >= 1:
                v += T.praise_y2_rep[pr] * W[W_POT2] * l2
            if c.acts_to[k] >= 2:
                v += T.praise_y2_rep[pr] * W[W_POT1] * l1
    return v


cdef double sacrifice_gain(const Ctx* c, const Hold* h) noexcept nogil:
    """Reputation one sacrifice to heaven nets, less what it uses."""
    cdef double g = T.sacrifice_rep - T.sacrifice_grain * c.vg - T.sacrifice_wine * c.vw
    if h_level(h, T_SACRIFICE) >= 2:
        g += T.sacr_sacrifice_bonus
    return g if g > 0.0 else 0.0


cdef double summit(const Ctx* c, const Hold* h) noexcept nogil:
    """The sacrifices to heaven the summit opens, and a share of them for the climb so far."""
    cdef double n, val
    cdef int need
    n = c.sac_tiles
    if n > c.R * 0.5:
        n = c.R * 0.5
    val = sacrifice_gain(c, h) * n * W[W_SACRIFICES]
    if h.ascent:
        return val
    need = 2 * (4 - h.height) - 1   # policy decisions to reach the summit, roughly
    if c.R <= need:
        return 0.0
    return val * W[W_CLIMB] * (h.height - 1) / 3.0


cdef double skill3(const Ctx* c, const Hold* h, int kind) noexcept nogil:
    """What talent `kind`'s level 3 skill should pay at game end for these holdings."""
    cdef int i, r, tracks = 0
    cdef double v
    if kind == T_AGRI:
        return h.farms
    if kind == T_COMMERCE:
        return h.towns * T.commerce_rep[0] / <double>T.commerce_rep[1]
    if kind == T_SACRIFICE:
        v = 0.0
        for i in range(h.n_talents):
            v += h.level[i]
        return v
    if kind == T_BREWER:
        return h.wine
    if kind == T_ADMIN:
        return h.tier3 + 0.6 * c.R
    if kind == T_PIONEER:
        return h.l23
    if kind == T_PUBLICIST:
        if h.money > 0 and h.money >= c.other_max[0]:
            tracks += 1
        if h.grain > 0 and h.grain >= c.other_max[1]:
            tracks += 1
        if h.wine > 0 and h.wine >= c.other_max[2]:
            tracks += 1
        return tracks * (T.solo_publicist_players if c.s.opt.solo else c.n_players)
    if kind == T_TRADER:
        return h.money if h.money < h.grain else h.grain
    if kind == T_ARCHITECT:
        return h_count_buildings(h) * T.architect_rep[0] / <double>T.architect_rep[1]
    if kind == T_DUGU:
        return T.dugu_rep if h.n_talents == 1 else 0.0
    if kind == T_FIRSTBORN:
        return 4.0
    if kind == T_VANGUARD:
        return T.vanguard_rep * (h.firsts + 0.3 * c.R)
    if kind == T_ELDER:
        return T.elder_rep * h_count_buildings(h)
    if kind == T_SECRETARY:
        return 3.0      # one more policy decision at the end
    if kind == T_ZHENG:
        return h.wet_tiles * T.zheng_rep[0] / <double>T.zheng_rep[1]
    return 4.0          # Yin-Yang Master: a copy of another player's best


cdef double skill_use(const Ctx* c, const Hold* h, int kind, int level) noexcept nogil:
    """What talent `kind`'s level 1 and 2 skills should bring over the rest of the game."""
    cdef double t = clamp01(c.R / 8.0), v = 0.0, n
    cdef int settles = 8 - c.k0
    if kind == T_AGRI:
        v = 0.2 * t
        if level >= 2:
            v += 0.5 * h.settlements * t
    elif kind == T_COMMERCE:
        v = 0.3 * h.settlements * t
        if level >= 2:
            v += 0.4 * h.settlements * t
    elif kind == T_SACRIFICE:
        n = c.cel_tiles
        if n > c.R / 3.0:
            n = c.R / 3.0
        v = T.sacr_celeb_bonus * n * W[W_CELEBRATIONS]
        if level >= 2 and h.ascent:
            n = c.sac_tiles
            if n > c.R * 0.5:
                n = c.R * 0.5
            v += T.sacr_sacrifice_bonus * n * W[W_SACRIFICES]
    elif kind == T_BREWER:
        v = 0.5 * t
        if level >= 2:
            v += 0.25 * settles
    elif kind == T_PIONEER:
        v = 0.4 * t
        if level >= 2:
            v += 0.5 * t
    elif kind == T_PUBLICIST:
        v = 0.25 * c.R
        if level >= 2:
            v += 0.3 * c.R
    elif kind == T_TRADER:
        v = 0.15 * settles
        if level >= 2:
            v += T.trader_money * c.exchanges * 0.5 * c.vm
    elif kind == T_ARCHITECT:
        v = 0.5 * t
        if level >= 2:
            v += 0.5 * settles * (1.0 if h.settlements > 0 else 0.4)
    elif kind == T_FIRSTBORN:
        if level >= 2:
            v = 0.5 * settles
    elif kind == T_VANGUARD:
        v = 0.2 * c.R
        if level >= 2:
            v += 0.2 * c.R
    elif kind == T_ELDER:
        v = 0.5 * t
        if level >= 2:
            v += 0.3 * t
    elif kind == T_ZHENG:
        v = 0.5 * t
        if level >= 2:
            v += 0.3 * t
    elif kind == T_DUGU:
        v = 0.2 * c.R
        if level >= 2:
            v += 0.3 * settles
    elif kind == T_YINYANG:
        v = 0.1 * c.R
        if level >= 2:
            v += 0.2 * c.R
    return v


cdef double talents(const Ctx* c, const Hold* h) noexcept nogil:
    cdef int i, L
    cdef double v = 0.0, reach
    for i in range(h.n_talents):
        L = h.level[i]
        if L >= 3:
            v += skill3(c, h, h.kind[i])
        elif c.R > 3 - L - 1:
            # A share of the level 3 skill, less when few decisions are left to train it.
            reach = clamp01(c.R / (3.0 * (3 - L)))
            v += skill3(c, h, h.kind[i]) * (W[W_POT1] if L == 1 else W[W_POT2]) * reach
        v += skill_use(c, h, h.kind[i], L)
    return v


cdef double feast(const Ctx* c, const Hold* h) noexcept nogil:
    """What the grain and wine held are worth: celebrations (and sacrifices) take both, so a
    grain with a wine beside it is worth most, a spare grain can still be brewed, a spare wine
    waits for grain; pairs beyond what the seat's remaining tiles can celebrate count as spare."""
    cdef double f = fade(c.R, W[W_HORIZON_G]), cap
    cdef int pairs = h.grain if h.grain < h.wine else h.wine
    cdef int eg = h.grain - pairs, ew = h.wine - pairs
    cdef double turns = (c.R + 1) // 2
    cap = 3.0 * (c.cel_tiles if c.cel_tiles < turns else turns)
    if h.ascent:
        cap += c.sac_tiles if c.sac_tiles < turns else turns
    if pairs > cap:
        eg += <int>(pairs - cap)
        ew += <int>(pairs - cap)
        pairs = <int>cap
    return f * (W[W_PAIR] * pairs + W[W_SPARE_GRAIN] * eg + W[W_SPARE_WINE] * ew)


cdef double value(const Ctx* c, const Hold* h) noexcept nogil:
    """The projection of the seat's final reputation with holdings `h`."""
    return value_parts(c, h, NULL)


cdef double value_parts(const Ctx* c, const Hold* h, double* parts) noexcept nogil:
    """`value`, and when `parts` is not NULL its terms into parts[0..4]: resources (money and
    feast), yields of farmland and towns, Eight Praises, summit, talents (for the features)."""
    cdef double v = h.rep, t, farm, town, dry, wet, x
    x = h.money * c.vm + feast(c, h)
    if parts != NULL:
        parts[0] = x
    v += x
    v += W[W_CASH] * (h.money if h.money < CASH else CASH) * clamp01((c.R - 1) / 4.0)
    # Yields to come.
    x = h.farms * c.farm_u + h.towns * c.town_u
    if parts != NULL:
        parts[1] = x
    v += x
    if h_building(h, B_WORKS):
        v += h.farms * c.works_u
    if h_building(h, B_MARKET):
        v += h.towns * c.market_u
    if h_building(h, B_GARRISON):
        v += h.farms * c.garrison_u
    if h_building(h, B_GRANARY):
        v += c.all_g
    if h_building(h, B_MINT):
        v += c.all_m
    x = praises(c, h)
    if parts != NULL:
        parts[2] = x
    v += x
    # Settlements still to become farmland or towns, while there is time: a share of the better
    # conversion (farmland is free next to water).
    t = clamp01((c.R - 1) / 4.0) * W[W_SETTLE_SHARE]
    if t > 0.0 and h.settlements > 0:
        farm = c.farm_u
        if h_building(h, B_WORKS):
            farm += c.works_u
        if h_building(h, B_GARRISON):
            farm += c.garrison_u
        town = c.town_u - T.town_cost * c.vm
        if h_building(h, B_MARKET):
            town += c.market_u
        dry = farm - T.reclaim_cost * c.vm
        if town > dry:
            dry = town
        wet = farm if farm > town else town
        v += t * ((h.settlements - h.wet) * (W[W_SETTLE] + (dry if dry > 0 else 0.0))
                  + h.wet * (W[W_SETTLE] + wet))
    # Buildings that only save costs.
    t = clamp01(c.R / 8.0)
    if h_building(h, B_ACADEMY):
        v += 0.4 * t
    if h_building(h, B_YUFU):
        v += 0.8 * t
    if h_building(h, B_OBSERVATORY):
        v += 0.3 * t
    x = summit(c, h)
    if parts != NULL:
        parts[3] = x
    v += x
    x = talents(c, h)
    if parts != NULL:
        parts[4] = x
    v += x
    return v

# ---------------------------------------------------------------------------------------------
# What actions do to the holdings.

cdef void h_settle(const Ctx* c, Hold* h, int l) noexcept nogil:
    """A settlement (or the ascent marker) placed on fief cell l."""
    cdef int ht
    if l == SUMMIT_CELL:
        h.ascent = 1
        h.height = 4
        h.layer_bits |= 8
        return
    ht = cell_height(l)
    h.layer_bits |= 1 << (ht - 1)
    h.settlements += 1
    if next_to_water(c.s, c.seat, l):
        h.wet += 1
        h.wet_tiles += 1
    if ht > h.height:
        h.height = ht
    if 2 <= ht <= 3:
        h.l23 += 1


cdef void h_convert(Hold* h, bint wet, bint town) noexcept nogil:
    """A settlement (next to water or not) turned into a town or farmland; costs not included."""
    h.settlements -= 1
    if wet:
        h.wet -= 1
    if town:
        h.towns += 1
    else:
        h.farms += 1


cdef inline void h_add_res(Hold* h, int kind, int n) noexcept nogil:
    if kind == RES_MONEY:
        h.money = h.money + n if h.money + n > 0 else 0
    elif kind == RES_GRAIN:
        h.grain = h.grain + n if h.grain + n > 0 else 0
    elif kind == RES_WINE:
        h.wine = h.wine + n if h.wine + n > 0 else 0
    else:
        h.rep = h.rep + n if h.rep + n > 0 else 0


cdef void h_gain_talent(Hold* h, int kind, int level, bint carried) noexcept nogil:
    if h.n_talents >= MAX_TALENTS:
        return
    h.kind[h.n_talents] = <uint8_t>kind
    h.level[h.n_talents] = <uint8_t>level
    if carried:
        h.carried |= 1 << h.n_talents
    h.n_talents += 1
    if kind == T_FIRSTBORN:
        h.money += T.firstborn_gift[RES_MONEY]
        h.grain += T.firstborn_gift[RES_GRAIN]
        h.wine += T.firstborn_gift[RES_WINE]
        h.rep += T.firstborn_gift[RES_REP]


cdef inline bint h_may_take(const Hold* h, int kind) noexcept nogil:
    """The colour rule on projected holdings (the rules' own colour_room)."""
    return colour_room(h.kind, h.n_talents, h.carried, h_building(h, B_OBSERVATORY), kind)


cdef inline int h_recruit_cost(const Hold* h, int kind) noexcept nogil:
    cdef int cost = T.recruit_cost[kind] - (T.academy_discount if h_building(h, B_ACADEMY) else 0)
    return cost if cost > 0 else 0


cdef inline int h_build_cost(const Hold* h, int kind) noexcept nogil:
    cdef int cost = T.building_cost[kind] - (T.architect_discount if h_level(h, T_ARCHITECT) >= 1 else 0)
    return cost if cost > 0 else 0


cdef inline int h_cultivate_cost(const Hold* h) noexcept nogil:
    return 0 if h_building(h, B_YUFU) else T.cultivate_cost

# ---------------------------------------------------------------------------------------------
# The best each edict effect can do: the projection after it (NEG if it cannot be done), and the
# holdings it leaves in `out`.

cdef enum:
    N_SETTLE_CLASSES = 10


cdef int settle_class(const Ctx* c, int l) noexcept nogil:
    """Cells whose h_settle changes a Hold alike share a class (0..N_SETTLE_CLASSES - 1): the
    summit, or the cell's layer and whether it is next to water."""
    if l == SUMMIT_CELL:
        return N_SETTLE_CLASSES - 1
    return 2 * (cell_height(l) - 1) + (1 if next_to_water(c.s, c.seat, l) else 0)


cdef void find_cultivation(Ctx* c) noexcept nogil:
    cdef int l, n = 0
    cdef bint across = has_skill(&c.s.p[c.seat], T_ZHENG, 2)
    for l in range(N_CELLS):
        if can_cultivate(c.s, c.seat, l, False, across, -1):
            c.cult_cell[n] = <uint8_t>l
            c.cult_mountain[n] = 0
            c.cult_class[n] = <uint8_t>settle_class(c, l)
            n += 1
        if can_cultivate(c.s, c.seat, l, True, across, -1):
            c.cult_cell[n] = <uint8_t>l
            c.cult_mountain[n] = 1
            c.cult_class[n] = <uint8_t>settle_class(c, l)
            n += 1
    c.cult_n = n


cdef double best_cultivation(Ctx* c, const Hold* h, Hold* out) noexcept nogil:
    """One placement, or two on flat land (two mountain ones with the Pioneer 2); second
    placements only on the cells open from the start."""
    cdef int cost = h_cultivate_cost(h), i, j, mountain
    cdef int top[2][2]          # [mountain][rank]: index into cult_cell
    cdef double topv[2][2]
    cdef double v, best = NEG
    cdef Hold a, b
    cdef int times[2]
    cdef double seen[N_SETTLE_CLASSES]     # value after settling a cell of each class
    cdef int have = 0, k                   # bit k: seen[k] is set
    if h.money < cost:
        return NEG
    if c.cult_n < 0:
        find_cultivation(c)
    times[0] = T.flat_times
    times[1] = T.pioneer_mountain_times if h_level(h, T_PIONEER) >= 2 else T.mountain_times
    for mountain in range(2):
        top[mountain][0] = -1
        top[mountain][1] = -1
        topv[mountain][0] = NEG
        topv[mountain][1] = NEG
    for i in range(c.cult_n):
        k = c.cult_class[i]
        if not (have >> k) & 1:
            a = h[0]
            a.money -= cost
            if h_level(h, T_PIONEER) >= 1:
                a.grain += T.pioneer_grain
            h_settle(c, &a, c.cult_cell[i])
            seen[k] = value(c, &a)
            have |= 1 << k
        v = seen[k]
        mountain = c.cult_mountain[i]
        if v > topv[mountain][0]:
            topv[mountain][1] = topv[mountain][0]
            top[mountain][1] = top[mountain][0]
            topv[mountain][0] = v
            top[mountain][0] = i
        elif v > topv[mountain][1]:
            topv[mountain][1] = v
            top[mountain][1] = i
        if v > best:
            best = v
            out[0] = h[0]
            out.money -= cost
            if h_level(h, T_PIONEER) >= 1:
                out.grain += T.pioneer_grain
            h_settle(c, out, c.cult_cell[i])
    for mountain in range(2):
        i = top[mountain][0]
        j = top[mountain][1]
        if times[mountain] >= 2 and j >= 0 and h.money >= 2 * cost:
            a = h[0]
            a.money -= 2 * cost
            if h_level(h, T_PIONEER) >= 1:
                a.grain += T.pioneer_grain
            h_settle(c, &a, c.cult_cell[i])
            h_settle(c, &a, c.cult_cell[j])
            v = value(c, &a)
            if v > best:
                best = v
                out[0] = a
    return best


cdef double best_conversion(const Ctx* c, const Hold* h, bint town, Hold* out) noexcept nogil:
    """Reclamations (up to 3 with the Agricultural Official 2) or towns (2 with the Commercial
    Official 2), each on the best kind of settlement: free farmland next to water, towns away
    from it."""
    cdef int times, t, wet, cost
    cdef double v, vb, best = NEG
    cdef Hold cur = h[0], a, pick
    cdef bint any_
    if town:
        times = T.commerce_times if h_level(h, T_COMMERCE) >= 2 else 1
    else:
        times = T.agri_times if h_level(h, T_AGRI) >= 2 else 1
    for t in range(times):
        any_ = False
        vb = NEG
        for wet in range(2):
            if wet and cur.wet <= 0:
                continue
            if not wet and cur.settlements - cur.wet <= 0:
                continue
            if town:
                cost = T.town_cost
            else:
                cost = 0 if wet else T.reclaim_cost
            if cur.money < cost:
                continue
            a = cur
            a.money -= cost
            h_convert(&a, wet, town)
            if town and h_level(h, T_COMMERCE) >= 1:
                a.grain += T.commerce_grain
            v = value(c, &a)
            if v > vb:
                vb = v
                pick = a
                any_ = True
        if not any_ or (t > 0 and vb <= best):
            break
        best = vb
        cur = pick
        out[0] = pick
    return best


cdef double best_recruit(const Ctx* c, const Hold* h, Hold* out) noexcept nogil:
    cdef const MTState* s = c.s
    cdef int pile, k, i, cost
    cdef double v, best = NEG
    cdef Hold a
    for pile in range(N_PILES):
        if s.pile_n[pile] == 0:
            continue
        k = s.pile[pile][0]
        cost = h_recruit_cost(h, k)
        if not h_may_take(h, k) or h.money < cost:
            continue
        a = h[0]
        a.money -= cost
        h_gain_talent(&a, k, 1, False)
        v = value(c, &a)
        if v > best:
            best = v
            out[0] = a
    for i in range(h.n_talents):
        if h.level[i] >= 3:
            continue
        cost = T.level_cost[h.kind[i]][h.level[i] - 1]
        if h.money < cost:
            continue
        a = h[0]
        a.money -= cost
        a.level[i] += 1
        v = value(c, &a)
        if v > best:
            best = v
            out[0] = a
    return best


cdef double best_build(const Ctx* c, const Hold* h, Hold* out) noexcept nogil:
    cdef const MTState* s = c.s
    cdef int i, k, cost
    cdef double v, best = NEG
    cdef Hold a
    for i in range(s.bp_n):
        k = s.bp_kind[i]
        cost = h_build_cost(h, k)
        if h_building(h, k) or h.money < cost or builder_toll_blocks(s, c.seat, k):
            continue
        a = h[0]
        a.money -= cost
        a.buildings |= 1 << k
        v = value(c, &a)
        if v > best:
            best = v
            out[0] = a
    return best


cdef double best_brew(const Ctx* c, const Hold* h, Hold* out) noexcept nogil:
    cdef int hi = T.brew_max * (T.brewer_times if h_level(h, T_BREWER) >= 1 else 1), k
    cdef double v, best = NEG
    cdef Hold a
    if hi > h.grain:
        hi = h.grain
    if hi > 6:
        hi = 6
    for k in range(1, hi + 1):
        a = h[0]
        a.grain -= k
        a.wine += k
        v = value(c, &a)
        if v > best:
            best = v
            out[0] = a
    return best


cdef inline int elder_money(const Hold* h) noexcept nogil:
    cdef int m
    if h_level(h, T_ELDER) < 1:
        return 0
    m = T.elder_celeb_money
    if h.money < m:
        m = h.money
    if T.celebration_wine < m:
        m = T.celebration_wine
    return m


cdef void h_celebrate(Hold* h, int money) noexcept nogil:
    h.grain -= T.celebration_grain
    h.wine -= T.celebration_wine - money
    h.money -= money
    h.rep += T.celebration_rep + (T.sacr_celeb_bonus if h_level(h, T_SACRIFICE) >= 1 else 0)


cdef void h_sacrifice(Hold* h, int money) noexcept nogil:
    h.grain -= T.sacrifice_grain
    if money:
        h.money -= T.elder_sacrifice_money
    else:
        h.wine -= T.sacrifice_wine
    h.rep += T.sacrifice_rep + (T.sacr_sacrifice_bonus if h_level(h, T_SACRIFICE) >= 2 else 0)


cdef double best_celebration(const Ctx* c, const Hold* h, Hold* out) noexcept nogil:
    cdef int lo = T.celebration_wine - h.wine, hi = elder_money(h), m
    cdef double v, best = NEG
    cdef Hold a
    if lo < 0:
        lo = 0
    if h.grain < T.celebration_grain:
        return NEG
    for m in range(lo, hi + 1):
        a = h[0]
        h_celebrate(&a, m)
        v = value(c, &a)
        if v > best:
            best = v
            out[0] = a
    return best


cdef double best_sacrifice(const Ctx* c, const Hold* h, Hold* out) noexcept nogil:
    cdef double v, best = NEG
    cdef Hold a
    cdef int m
    if not h.ascent or h.grain < T.sacrifice_grain:
        return NEG
    for m in range(2):
        if m == 0 and h.wine < T.sacrifice_wine:
            continue
        if m == 1 and (h_level(h, T_ELDER) < 2 or h.money < T.elder_sacrifice_money):
            continue
        a = h[0]
        h_sacrifice(&a, m)
        v = value(c, &a)
        if v > best:
            best = v
            out[0] = a
    return best


cdef double best_effect(Ctx* c, const Hold* h, int e, Hold* out) noexcept nogil:
    if (c.forbidden >> e) & 1:
        return NEG
    if e == E_CULTIVATE:
        return best_cultivation(c, h, out)
    if e == E_RECLAIM:
        return best_conversion(c, h, False, out)
    if e == E_TOWN:
        return best_conversion(c, h, True, out)
    if e == E_RECRUIT:
        return best_recruit(c, h, out)
    if e == E_BUILD:
        return best_build(c, h, out)
    if e == E_BREW:
        return best_brew(c, h, out)
    if e == E_CELEBRATE:
        return best_celebration(c, h, out)
    return best_sacrifice(c, h, out)

# ---------------------------------------------------------------------------------------------
# Edict tiles, turn order and events.

ctypedef struct Scratch:
    double base             # V of the mover's holdings now
    int have_single         # effects whose best is in `single` (bit E_*)
    double single[N_EFFECTS]
    Hold single_h[N_EFFECTS]
    int n_ev                # the round's event values for the mover, best first
    double ev[N_EVENT_SPACES]
    # order_gain's parts that do not depend on the tile's number, computed at its first call
    # (it is asked once per edict action; these were recomputed each time).
    int settle_have         # bit k: settle_seen[k] is set
    double settle_seen[N_SETTLE_CLASSES]    # the projection after a cultivation, by settle_class
    int have_order          # 1 once the fields below are set
    double second           # solo: the mover's best event after the virtual player's pick
    int opp_num[MAX_PLAYERS]    # other seat's turn number (Vanguard offset applied), or its
                                # lowest uncovered tile if it has not placed one yet
    int opp_kind[MAX_PLAYERS]   # 0: the mover itself; 1: placed, goes after on a tie;
                                # 2: placed, goes first on a tie; 3: not placed yet
    int vp_n                # solo: the virtual player's candidate next tiles (-1: it has none)
    int vp_tie              # solo: 1 if the mover goes first on equal numbers
    uint8_t vp_left[N_TILES]    # solo: those candidates' numbers


cdef double single_effect(Ctx* c, const Hold* h, Scratch* x, int e, Hold* out) noexcept nogil:
    """best_effect from the mover's current holdings, computed once per call."""
    if not (x.have_single >> e) & 1:
        x.single[e] = best_effect(c, h, e, &x.single_h[e])
        x.have_single |= 1 << e
    if x.single[e] > NEG:
        out[0] = x.single_h[e]
    return x.single[e]


cdef double then_effect(Ctx* c, const Hold* h, Scratch* x, int first, int second) noexcept nogil:
    """The projection after `first` then (if it helps) `second`; NEG if `first` cannot be done."""
    cdef Hold a, b
    cdef double va = single_effect(c, h, x, first, &a), vb
    if va <= NEG:
        return NEG
    vb = best_effect(c, &a, second, &b)
    return vb if vb > va else va


cdef double tile_gain(Ctx* c, const Hold* h, Scratch* x, int tile) noexcept nogil:
    """What executing edict `tile` by its tier is worth now. A tier III tile (or any tile with
    the option optional_edict_effects) may be left unexecuted, so it is worth at least 0; a
    tier I or II effect is due when one can be done, so such a tile is worth its best possible
    effect, which may be a loss (0 only when none can be done)."""
    cdef int e1 = T.effect[tile][0], e2, tier = T.tier[tile]
    cdef bint due = tier < 3 and not c.s.opt.optional_effects
    cdef double best = NEG if due else x.base, v
    cdef Hold a
    v = single_effect(c, h, x, e1, &a)
    if v > best:
        best = v
    if T.n_effects[tile] > 1:
        e2 = T.effect[tile][1]
        v = single_effect(c, h, x, e2, &a)
        if v > best:
            best = v
        if tier == 3:
            v = then_effect(c, h, x, e1, e2)
            if v > best:
                best = v
            v = then_effect(c, h, x, e2, e1)
            if v > best:
                best = v
    if best <= NEG:
        best = x.base       # no effect can be done: the tile is placed for its number alone
    return best - x.base


cdef double event_gain(const Ctx* c, const Hold* h, double base, int tile, bint first) noexcept nogil:
    """What flipping event `tile` gives the seat of `c`, in projection (the exchange at its
    best)."""
    cdef const MTState* s = c.s
    cdef const MTPlayer* pl = &s.p[c.seat]
    cdef int kind = T.event_kind[tile], amount = T.event_amount[tile], bonus = s.season_bonus[season_of(s)]
    cdef int k
    cdef double v, best = base
    cdef Hold a
    if kind == EV_ZERO:
        return 0.0
    if kind == EV_EXCHANGE:
        for k in range(1, T.exchange_max + 1):
            if h.money >= k:
                a = h[0]
                a.money -= k
                a.grain += k + (T.event_bonus if bonus == RES_GRAIN else 0)
                v = value(c, &a)
                if v > best:
                    best = v
            if h.grain >= k:
                a = h[0]
                a.grain -= k
                a.money += k + (T.event_bonus if bonus == RES_MONEY else 0)
                v = value(c, &a)
                if v > best:
                    best = v
        return best - base
    a = h[0]
    if T.event_colour[tile] == 2 and has_skill(pl, T_PUBLICIST, 1):
        a.rep += T.publicist_blue
    if T.event_colour[tile] != 2 and has_skill(pl, T_PUBLICIST, 2):
        amount += T.publicist_bonus
    if first and has_skill(pl, T_VANGUARD, 2):
        amount += T.vanguard_bonus
    if kind == bonus:
        amount += T.event_bonus
    h_add_res(&a, kind, amount)
    return value(c, &a) - base


cdef void round_events(const Ctx* c, const Hold* h, Scratch* x) noexcept nogil:
    """The mover's gain from each event tile of this round still face up, best first."""
    cdef const MTState* s = c.s
    cdef int r = s.round % ROUNDS_PER_YEAR, j, i, tile
    cdef double v
    x.n_ev = 0
    if s.round >= N_ROUNDS:
        return
    for j in range(N_EVENT_SPACES):
        tile = s.event_tile[r][j]
        if tile == NONE8 or (s.event_used[r] >> j) & 1:
            continue
        v = event_gain(c, h, x.base, tile, False)
        i = x.n_ev
        while i > 0 and x.ev[i - 1] < v:
            x.ev[i] = x.ev[i - 1]
            i -= 1
        x.ev[i] = v
        x.n_ev += 1


cdef int min_uncovered_number(const MTState* s, int seat) noexcept nogil:
    cdef uint32_t m = uncovered(s, seat)
    cdef int best = PASS_NUMBER, t
    while m:
        t = s.p[seat].slot_tile[ctz(m)]
        m &= m - 1
        if t < best:
            best = t
    return best


cdef void vp_candidates(const MTState* s, Scratch* x) noexcept nogil:
    """Solo: the tiles the virtual player may draw next (the undrawn tiles of the tier it is
    drawing: the tier order is public, I x3, II x7, III x6), into x.vp_n / vp_left / vp_tie."""
    cdef int tier, i, t
    cdef uint32_t drawn = 0
    x.vp_tie = 1 if seat_index(s, 0) < seat_index(s, VIRTUAL) else 0
    if s.vp_next >= VIRTUAL_TILES:
        x.vp_n = -1
        return
    tier = T.tier[s.vp_tiles[s.vp_next]]
    for i in range(s.vp_next):
        drawn |= 1u << (s.vp_tiles[i] - 1)
    x.vp_n = 0
    for t in range(1, N_TILES + 1):
        if T.tier[t] != tier or (drawn >> (t - 1)) & 1:
            continue
        x.vp_left[x.vp_n] = <uint8_t>t
        x.vp_n += 1


cdef double vp_first_chance(const Scratch* x, int number) noexcept nogil:
    """Solo: the chance the player's `number` goes before the virtual player's next tile (drawn
    at random from vp_candidates)."""
    cdef int i, t, later = 0
    if x.vp_n < 0:
        return 1.0
    for i in range(x.vp_n):
        t = x.vp_left[i]
        if t > number or (t == number and x.vp_tie):
            later += 1
    return later / <double>x.vp_n if x.vp_n > 0 else 1.0


cdef void order_parts(const Ctx* c, Scratch* x) noexcept nogil:
    """The parts of order_gain common to every number: the solo second choice, and where each
    other seat stands in the turn order."""
    cdef const MTState* s = c.s
    cdef int o, on, me = c.seat, r, j, tile, pick
    cdef double v
    cdef Hold h
    x.have_order = 1
    if s.opt.solo:
        vp_candidates(s, x)
        x.second = 0.0
        if s.opt.challenge != 4:
            # The virtual player takes its favourite first; the mover gets the best of the rest.
            pick = vp_event_choice(s)
            r = s.round % ROUNDS_PER_YEAR
            hold_of(s, me, &h)
            for j in range(N_EVENT_SPACES):
                tile = s.event_tile[r][j]
                if j == pick or tile == NONE8 or (s.event_used[r] >> j) & 1:
                    continue
                v = event_gain(c, &h, x.base, tile, False)
                if v > x.second:
                    x.second = v
        return
    for o in range(s.opt.n_players):
        if o == me:
            x.opp_kind[o] = 0
        elif s.p[o].turn_number != 0:
            on = s.p[o].turn_number
            if has_skill(&s.p[o], T_VANGUARD, 1):
                on -= T.vanguard_offset
            x.opp_num[o] = on
            x.opp_kind[o] = 2 if seat_index(s, o) < seat_index(s, me) else 1
        else:
            x.opp_num[o] = min_uncovered_number(s, o)
            x.opp_kind[o] = 3


cdef double order_gain(const Ctx* c, Scratch* x, int number) noexcept nogil:
    """The event the mover can expect with `number` in the turn order area this round."""
    cdef const MTState* s = c.s
    cdef int o, i, kind
    cdef double pos = 0.0, f, p, v
    if s.flow != FLOW_POLICY or x.n_ev == 0:
        return 0.0
    if not x.have_order:
        order_parts(c, x)
    if has_skill(&s.p[c.seat], T_VANGUARD, 1):
        number -= T.vanguard_offset
    if s.opt.solo:
        p = vp_first_chance(x, number)
        return p * x.ev[0] + (1.0 - p) * x.second
    for o in range(s.opt.n_players):
        kind = x.opp_kind[o]
        if kind == 1 or kind == 2:
            if x.opp_num[o] < number or (x.opp_num[o] == number and kind == 2):
                pos += 1.0
        elif kind == 3 and x.opp_num[o] < number:
            pos += W[W_ORDER_LATER]
    i = <int>pos
    f = pos - i
    v = x.ev[i] * (1.0 - f) if i < x.n_ev else 0.0
    if i + 1 < x.n_ev:
        v += x.ev[i + 1] * f
    return v

# ---------------------------------------------------------------------------------------------
# Action values.

cdef double tier3_bonus(const Ctx* c, const Hold* h, const Scratch* x, int tile) noexcept nogil:
    """The Administrative Official's level 3 counts tier III tiles used or removed."""
    cdef Hold a
    if T.tier[tile] != 3 or h_level(h, T_ADMIN) == 0:
        return 0.0
    a = h[0]
    a.tier3 += 1
    return value(c, &a) - x.base


cdef double cell_value(Ctx* c, const Hold* h, const Scratch* x, int l, bint town) noexcept nogil:
    """Turning the settlement on cell l into a town or farmland (costs paid)."""
    cdef bint wet = next_to_water(c.s, c.seat, l)
    cdef Hold a = h[0]
    if town:
        a.money -= T.town_cost
        if h_level(h, T_COMMERCE) >= 1:
            a.grain += T.commerce_grain
    else:
        a.money -= 0 if wet else T.reclaim_cost
    h_convert(&a, wet, town)
    return value(c, &a) - x.base


cdef double talent_gain(const Ctx* c, const Hold* h, const Scratch* x, int kind, int level,
                        int cost, bint carried) noexcept nogil:
    cdef Hold a = h[0]
    a.money -= cost
    h_gain_talent(&a, kind, level, carried)
    return value(c, &a) - x.base


cdef double res_change(const Ctx* c, const Hold* h, const Scratch* x, int dm, int dg, int dw) noexcept nogil:
    cdef Hold a = h[0]
    a.money += dm
    a.grain += dg
    a.wine += dw
    return value(c, &a) - x.base


cdef double next_player_best(const MTState* s, int except_space) noexcept nogil:
    """What the next player to flip an event this round gets at best from the tiles left."""
    cdef int nxt, r = s.round % ROUNDS_PER_YEAR, j, tile
    cdef Ctx c
    cdef Hold h
    cdef double base, v, best = 0.0
    if s.order_pos + 1 >= s.n_order:
        return 0.0
    nxt = s.order[s.order_pos + 1]
    if nxt == VIRTUAL or (s.opt.challenge == 4):
        return 0.0
    ctx_of(s, nxt, &c)
    hold_of(s, nxt, &h)
    base = value(&c, &h)
    for j in range(N_EVENT_SPACES):
        tile = s.event_tile[r][j]
        if j == except_space or tile == NONE8 or (s.event_used[r] >> j) & 1:
            continue
        v = event_gain(&c, &h, base, tile, False)
        if v > best:
            best = v
    return best


cdef double action_value(Ctx* c, const Hold* h, Scratch* x, int a) noexcept nogil:
    cdef const MTState* s = c.s
    cdef const MTPlayer* pl = &s.p[c.seat]
    cdef int ph = s.phase, slot, tile, k, other, e, r, low
    cdef double v, w
    cdef Hold b
    if a == A_PASS:
        return 0.1 if ph == PH_SWAP else 0.0
    if ph == PH_POLICY:
        if a < A_TIDY:
            tile = pl.slot_tile[a - A_USE]
            return tile_gain(c, h, x, tile) + order_gain(c, x, tile) + tier3_bonus(c, h, x, tile)
        tile = pl.slot_tile[a - A_TIDY]
        v = tile_gain(c, h, x, tile)
        return (order_gain(c, x, tile) - W[W_TIDY] * (v if v > 0 else 0.0)
                + tier3_bonus(c, h, x, tile) - 0.3)
    if ph == PH_TIDY or ph == PH_REMOVE:
        tile = pl.slot_tile[a - A_REMOVE]
        v = tile_gain(c, h, x, tile)
        w = tier3_bonus(c, h, x, tile) - W[W_TIDY] * (v if v > 0 else 0.0)
        if ph == PH_TIDY:
            low = s.low_tile if tile > s.low_tile else tile
            w += order_gain(c, x, low) - order_gain(c, x, s.low_tile) - 0.3
        return w
    if ph == PH_EFFECT:
        e = a - A_EFFECT
        v = single_effect(c, h, x, e, &b)
        if s.effects_todo >= 2:
            for other in range(N_EFFECTS):
                if other != e and (s.effects_left >> other) & 1:
                    w = then_effect(c, h, x, e, other)
                    if w > v:
                        v = w
        return v - x.base
    if ph == PH_CULTIVATE:
        # Cells of one class leave the same holdings: one projection per class.
        k = (a - A_MOUNTAIN) if a >= A_MOUNTAIN else (a - A_FLAT)
        r = settle_class(c, k)
        if not (x.settle_have >> r) & 1:
            b = h[0]
            b.money -= h_cultivate_cost(h)
            if s.mode == CM_NONE and h_level(h, T_PIONEER) >= 1:
                b.grain += T.pioneer_grain
            h_settle(c, &b, k)
            x.settle_seen[r] = value(c, &b)
            x.settle_have |= 1 << r
        return x.settle_seen[r] - x.base
    if ph == PH_WATER:
        return water_gain(c, a - A_WATER)
    if ph == PH_RECLAIM or (ph == PH_ARCHITECT and a < A_TOWN):
        return cell_value(c, h, x, a - A_RECLAIM, False)
    if ph == PH_TOWN or ph == PH_ARCHITECT:
        return cell_value(c, h, x, a - A_TOWN, True)
    if ph == PH_AGRI_WINE or ph == PH_BREWER_WINE:
        return res_change(c, h, x, 0, -1, 1)
    if ph == PH_RECRUIT:
        if a < A_DEVELOP:
            k = s.pile[a - A_RECRUIT][0]
            return talent_gain(c, h, x, k, 1, h_recruit_cost(h, k), False)
        k = a - A_DEVELOP
        b = h[0]
        b.money -= T.level_cost[b.kind[k]][b.level[k] - 1]
        b.level[k] += 1
        return value(c, &b) - x.base
    if ph == PH_OBSERVATORY:
        k = s.pile[a - A_RECRUIT][0]
        return talent_gain(c, h, x, k, 1, T.observatory_cost, False)
    if ph == PH_VIRTUAL_TALENT:
        # The virtual player's recruitment: take away what the mover wants least.
        k = s.pile[a - A_RECRUIT][0]
        return -talent_gain(c, h, x, k, 1, 0, False)
    if ph == PH_BUILD or ph == PH_BONUS_BUILDING:
        k = (a - A_BUILD) if ph == PH_BUILD else (a - A_BONUS_BUILDING)
        b = h[0]
        if ph == PH_BUILD:
            b.money -= h_build_cost(h, k)
        b.buildings |= 1 << k
        return value(c, &b) - x.base
    if ph == PH_BONUS_TALENT:
        k = a - A_BONUS_TALENT
        return talent_gain(c, h, x, k, T.bonus_level[s.opt.challenge - 1], 0, True)
    if ph == PH_BREW:
        k = a - A_AMOUNT
        return res_change(c, h, x, 0, -k, k)
    if ph == PH_CELEBRATE:
        b = h[0]
        h_celebrate(&b, a - A_AMOUNT)
        return value(c, &b) - x.base
    if ph == PH_SACRIFICE:
        b = h[0]
        h_sacrifice(&b, a - A_AMOUNT)
        return value(c, &b) - x.base
    if ph == PH_EVENT:
        k = a - A_EVENT
        r = s.round % ROUNDS_PER_YEAR
        v = event_gain(c, h, x.base, s.event_tile[r][k], s.order_pos == 0)
        return v - W[W_DENY] * next_player_best(s, k)
    if ph == PH_EXCHANGE or ph == PH_TRADE:
        k = a - A_EXCHANGE
        e = T.event_bonus if ph == PH_EXCHANGE else 0
        r = s.season_bonus[season_of(s)]
        if k < 3:
            return res_change(c, h, x, -(k + 1), k + 1 + (e if r == RES_GRAIN else 0), 0)
        return res_change(c, h, x, k - 2 + (e if r == RES_MONEY else 0), -(k - 2), 0)
    if ph == PH_YINYANG:
        k = a - A_RESOURCE
        b = h[0]
        h_add_res(&b, k, s.reward + (T.event_bonus if k == s.season_bonus[season_of(s)] else 0))
        return value(c, &b) - x.base
    if ph == PH_SWAP:
        return 0.0
    if ph == PH_SCHOLAR:
        return 1.0 if a - A_SEAT == c.seat else 0.0
    if ph == PH_DONATE_KIND:
        k = a - A_RESOURCE
        return -(c.vm if k == RES_MONEY else (c.vg if k == RES_GRAIN else c.vw))
    if ph == PH_DONATE:
        return donation_gain(c, h, x, a - A_AMOUNT)
    if ph == PH_COMMANDER:
        return 0.01 * s.p[a - A_SEAT].res[RES_REP]
    return 0.0


cdef double water_gain(const Ctx* c, int l) noexcept nogil:
    """Descendant of Zheng 1: an artificial water source on cell l: settlements it makes free to
    reclaim, and tiles it puts next to water (its level 3 skill)."""
    cdef const MTPlayer* pl = &c.s.p[c.seat]
    cdef int o, a = l >> 2, b = l & 3, oa, ob, ht = cell_height(l)
    cdef double v = 0.0
    for o in range(N_CELLS):
        if not (C_SETTLEMENT <= pl.cell[o] <= C_TOWN):
            continue
        oa = o >> 2
        ob = o & 3
        if (a - oa) * (a - oa) + (b - ob) * (b - ob) != 1 or cell_height(o) > ht:
            continue
        if next_to_water(c.s, c.seat, o):
            continue
        v += 0.5
        if pl.cell[o] == C_SETTLEMENT:
            v += T.reclaim_cost * c.vm
    return v


cdef double donation_gain(const Ctx* c, const Hold* h, const Scratch* x, int k) noexcept nogil:
    """Philanthropist: donating k of the chosen resource (thresholds pay reputation)."""
    cdef const MTPlayer* pl = &c.s.p[c.seat]
    cdef int kind = c.s.donation_kind, j, before = pl.donation
    cdef double v = 0.0
    cdef Hold a = h[0]
    h_add_res(&a, kind, -k)
    for j in range(3):
        if before < T.donation_threshold[j] <= before + k:
            a.rep += T.donation_rep[j]
    v = value(c, &a) - x.base
    return v + 0.2 * k * clamp01(c.R / 6.0)     # towards the final majority

# ---------------------------------------------------------------------------------------------
# The interface functions.

cdef void mt_move_prior(const void* vs, const int* actions, int n, double* out) noexcept nogil:
    cdef const MTState* s = <const MTState*>vs
    cdef Ctx c
    cdef Hold h
    cdef Scratch x
    cdef int i
    cdef double best = NEG, t = W[W_TEMP]
    ctx_of(s, s.cur, &c)
    hold_of(s, s.cur, &h)
    x.base = value(&c, &h)
    x.have_single = 0
    x.n_ev = 0
    x.have_order = 0
    x.settle_have = 0
    if s.phase == PH_POLICY or s.phase == PH_TIDY:
        round_events(&c, &h, &x)
    for i in range(n):
        out[i] = action_value(&c, &h, &x, actions[i])
        if out[i] > best:
            best = out[i]
    for i in range(n):
        out[i] = exp((out[i] - best) / t)


cdef double mt_projection(const void* vs, int seat) noexcept nogil:
    cdef const MTState* s = <const MTState*>vs
    cdef Ctx c
    cdef Hold h
    ctx_of(s, seat, &c)
    hold_of(s, seat, &h)
    return value(&c, &h)


cdef void mt_evaluate(const void* vs, double* out) noexcept nogil:
    cdef const MTState* s = <const MTState*>vs
    cdef int i, n = s.opt.n_players
    cdef double est[MAX_PLAYERS]
    cdef double temp
    cdef Ctx c
    cdef Hold h
    # The further the end, the less the projection says.
    ctx_of(s, 0, &c)
    if s.opt.solo:
        # What later decisions add (the projection values holdings only), then the chance of
        # reaching the goal.
        hold_of(s, 0, &h)
        temp = W[W_SOLO_TEMP] * (1.0 + W[W_EVAL_EARLY] * c.R / <double>N_ROUNDS)
        est[0] = value(&c, &h) + W[W_FUTURE] * c.R * c.R - solo_goal(s)
        out[0] = 1.0 / (1.0 + exp(-est[0] / temp))
        return
    for i in range(n):
        est[i] = mt_projection(vs, i)
    temp = W[W_EVAL_TEMP] * (1.0 + W[W_EVAL_EARLY] * c.R / <double>N_ROUNDS)
    win_shares(est, n, temp, out)

# ---------------------------------------------------------------------------------------------
# Features for a learned evaluation (engine/mount_tai/learned.pyx): the projection, its parts and
# the raw holdings they are computed from, so that a model fitted on self-play can correct the
# hand-written values where they are wrong. Public information and the seat's own holdings only.

FEATURE_NAMES = (
    "bias", "projection", "rep", "money", "grain", "wine", "pairs", "farms", "towns",
    "settlements", "wet", "wet_tiles", "height", "layers", "l23", "ascent",
    "granary", "mint", "works", "market", "academy", "yufu", "garrison", "observatory",
    "agri", "commerce", "sacrifice", "brewer", "admin", "pioneer", "publicist", "trader",
    "yinyang", "architect", "dugu", "firstborn", "vanguard", "elder", "secretary", "zheng",
    "n_talents", "tier3", "firsts", "decisions_left", "praises", "summit", "talents",
    "resources", "yields", "sacrifice_tiles", "celebration_tiles", "exchanges",
    "players_1", "players_2", "players_3", "players_4",
    "challenge_1", "challenge_2", "challenge_3", "challenge_4", "challenge_5", "challenge_6",
    "challenge_7", "challenge_8", "goal", "virtual_drawn", "tiles_left", "turn_number",
)
assert len(FEATURE_NAMES) == N_FEATURES


cdef void mt_features(const void* vs, int seat, double* out) noexcept nogil:
    cdef const MTState* s = <const MTState*>vs
    cdef const MTPlayer* pl = &s.p[seat]
    cdef Ctx c
    cdef Hold h
    cdef int i, k = 0, L
    cdef uint32_t m
    cdef double parts[5]
    ctx_of(s, seat, &c)
    hold_of(s, seat, &h)
    out[0] = 1.0
    out[1] = value_parts(&c, &h, parts)
    out[2] = h.rep
    out[3] = h.money
    out[4] = h.grain
    out[5] = h.wine
    out[6] = h.grain if h.grain < h.wine else h.wine
    out[7] = h.farms
    out[8] = h.towns
    out[9] = h.settlements
    out[10] = h.wet
    out[11] = h.wet_tiles
    out[12] = h.height
    m = <uint32_t>h.layer_bits
    while m:
        k += 1
        m &= m - 1
    out[13] = k
    out[14] = h.l23
    out[15] = h.ascent
    for i in range(N_BUILDING_KINDS):
        out[16 + i] = (h.buildings >> i) & 1
    for i in range(N_TALENT_KINDS):
        out[24 + i] = h_level(&h, i)
    out[40] = h.n_talents
    out[41] = h.tier3
    out[42] = h.firsts
    out[43] = c.R
    out[44] = parts[2]
    out[45] = parts[3]
    out[46] = parts[4]
    out[47] = parts[0]
    out[48] = parts[1]
    out[49] = c.sac_tiles
    out[50] = c.cel_tiles
    out[51] = c.exchanges
    for i in range(4):
        out[52 + i] = 1.0 if s.opt.n_players == i + 1 else 0.0
    for i in range(N_CHALLENGES):
        out[56 + i] = 1.0 if s.opt.challenge == i + 1 else 0.0
    out[64] = solo_goal(s) if s.opt.solo else 0.0
    out[65] = s.vp_next if s.opt.solo else 0.0
    k = 0
    m = pl.present
    while m:
        k += 1
        m &= m - 1
    out[66] = k
    out[67] = pl.turn_number


def features(state, seat):
    """The learned evaluation's features of `seat` in a Mount Tai state (FEATURE_NAMES order).

    Like the hand-written projection, the counts of celebration and sacrifice effects read the
    seat's own edict area, face-down tiles included (challenges 5-7): a bot calls this on its
    view, where those tiles are drawn afresh, never on the referee's state."""
    from engine.core.args import check_seat
    cdef CoreState st = <CoreState?>state
    cdef double out[N_FEATURES]
    if st.gdef.name != b"mount-tai":
        raise ValueError(f"features: a Mount Tai state is needed, got {st.game.name!r}")
    mt_features(st.data, check_seat(state, seat), out)
    return [out[i] for i in range(N_FEATURES)]
