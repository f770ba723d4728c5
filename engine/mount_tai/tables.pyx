# cython: language_level=3
"""Mount Tai: data.py copied into the C tables every compiled module reads (see tables.pxd)."""

from libc.string cimport memset

from engine.mount_tai.state cimport *
from engine.mount_tai import data as _data

cdef MTTables _T


cdef const MTTables* mt_tables() noexcept nogil:
    return &_T


def _season_bits(seasons) -> int:
    bits = 0
    for x in seasons:
        bits |= 1 << x
    return bits


def _map_bits(ch: str) -> int:
    return {"W": MAP_WATER, "T": MAP_TRIBE, ".": 0}[ch]


def _load() -> None:
    """Fill `_T` from data.py, checking the numbering against state.pxd's enums."""
    d = _data
    memset(&_T, 0, sizeof(MTTables))
    assert len(d.EFFECTS) == N_EFFECTS and len(d.TALENTS) == N_TALENT_KINDS
    assert len(d.BUILDINGS) == N_BUILDING_KINDS and len(d.EVENT_TILES) == N_EVENT_TILES
    assert len(d.PRAISES) == N_PRAISES and len(d.RESOURCES) == N_RES
    assert len(d.REPUTATION_SOURCES) == N_REP_SOURCES and len(d.TUTORS) == N_TUTORS
    assert len(d.CHALLENGES) == N_CHALLENGES and d.TILES_PER_COLOUR == N_TILES
    assert d.PASS_TILE_NUMBER == PASS_NUMBER and d.ROUNDS == N_ROUNDS
    assert (d.E_CULTIVATE, d.E_SACRIFICE) == (E_CULTIVATE, E_SACRIFICE)
    assert (d.T_AGRI, d.T_ZHENG, d.T_SECRETARY) == (T_AGRI, T_ZHENG, T_SECRETARY)
    assert (d.B_GRANARY, d.B_OBSERVATORY) == (B_GRANARY, B_OBSERVATORY)
    assert (d.EV_MONEY, d.EV_EXCHANGE, d.EV_ZERO) == (EV_MONEY, EV_EXCHANGE, EV_ZERO)
    assert (d.PR_HEIGHT, d.PR_WINE) == (PR_HEIGHT, PR_WINE)
    assert (d.TU_MASTER_BUILDER, d.TU_COMMANDER) == (TU_MASTER_BUILDER, TU_COMMANDER)
    for n in range(1, N_TILES + 1):
        effects = d.EDICT_EFFECTS[n]
        _T.tier[n] = d.TIER_OF[n]
        _T.n_effects[n] = len(effects)
        assert len(effects) == (1 if d.TIER_OF[n] == 1 else 2)
        assert len(set(effects)) == len(effects)
        for j, e in enumerate(effects):
            _T.effect[n][j] = e
    _T.tidy_max = d.TIDY_MAX_REMOVALS
    _T.tidy_max_challenge = d.TIDY_MAX_REMOVALS_CHALLENGE
    _T.cultivate_cost = d.CULTIVATE_COST
    _T.flat_times = d.FLAT_CULTIVATIONS
    _T.mountain_times = d.MOUNTAIN_CULTIVATIONS
    _T.reclaim_cost = d.RECLAIM_COST
    _T.town_cost = d.TOWN_COST
    _T.brew_max = d.BREW_MAX
    _T.celebration_grain = d.CELEBRATION_GRAIN
    _T.celebration_wine = d.CELEBRATION_WINE
    _T.celebration_rep = d.CELEBRATION_REPUTATION
    _T.sacrifice_grain = d.SACRIFICE_GRAIN
    _T.sacrifice_wine = d.SACRIFICE_WINE
    _T.sacrifice_rep = d.SACRIFICE_REPUTATION
    _T.farmland_grain = d.FARMLAND_GRAIN
    _T.town_money = d.TOWN_MONEY
    _T.farmland_seasons = _season_bits(d.FARMLAND_SEASONS)
    _T.town_seasons = _season_bits(d.TOWN_SEASONS)
    _T.start_res[0] = d.START_MONEY
    _T.start_res[1] = d.START_GRAIN
    _T.start_res[2] = d.START_WINE
    for n, reps in d.START_REPUTATION.items():
        assert len(reps) == n
        for i, r in enumerate(reps):
            _T.start_rep[n][i] = r
    for k, t in enumerate(d.TALENTS):
        _T.talent_colour[k] = t.colour
        _T.talent_source[k] = ("base", "promo", "fan").index(t.source)
        _T.talent_min_players[k] = t.min_players
        _T.talent_copies[k] = t.copies
        _T.recruit_cost[k] = t.recruit_cost
        _T.level_cost[k][0] = t.level_costs[0]
        _T.level_cost[k][1] = t.level_costs[1]
    assert len(d.PILE_COLOURS) == N_PILES
    for j, c in enumerate(d.PILE_COLOURS):
        _T.pile_colour[j] = c
    for n, sizes in list(d.PILE_SIZES.items()) + [(1, d.PILE_SIZES_SOLO)]:
        for j, size in enumerate(sizes):
            assert size <= PILE_MAX
            _T.pile_size[n][j] = size
    _T.sacr_celeb_bonus = d.SACRIFICE_OFFICIAL_CELEBRATION_BONUS
    _T.sacr_sacrifice_bonus = d.SACRIFICE_OFFICIAL_SACRIFICE_BONUS
    _T.agri_times = d.AGRI_RECLAIM_TIMES
    _T.commerce_times = d.COMMERCE_TOWN_TIMES
    _T.commerce_grain = d.COMMERCE_TOWN_GRAIN
    _T.brewer_times = d.BREWER_BREW_TIMES
    _T.pioneer_grain = d.PIONEER_GRAIN
    _T.pioneer_mountain_times = d.PIONEER_MOUNTAIN_TIMES
    _T.publicist_blue = d.PUBLICIST_BLUE_REPUTATION
    _T.publicist_bonus = d.PUBLICIST_EVENT_BONUS
    _T.trader_money = d.TRADER_EXCHANGE_MONEY
    _T.architect_discount = d.ARCHITECT_DISCOUNT
    _T.dugu_rep = d.DUGU_ONLY_TALENT_REPUTATION
    _T.vanguard_offset = d.VANGUARD_TILE_OFFSET
    _T.vanguard_bonus = d.VANGUARD_EVENT_BONUS
    _T.vanguard_rep = d.VANGUARD_REPUTATION_PER_FIRST
    _T.elder_celeb_money = d.ELDER_CELEBRATION_MONEY
    _T.elder_sacrifice_money = d.ELDER_SACRIFICE_MONEY
    _T.elder_rep = d.ELDER_REPUTATION_PER_BUILDING
    for j in range(N_RES):
        _T.firstborn_gift[j] = d.FIRSTBORN_GIFT[j]
    _T.firstborn_praise = d.FIRSTBORN_PRAISE_BONUS
    _T.zheng_rep[0], _T.zheng_rep[1] = d.ZHENG_REPUTATION
    _T.commerce_rep[0], _T.commerce_rep[1] = d.COMMERCE_REPUTATION
    _T.architect_rep[0], _T.architect_rep[1] = d.ARCHITECT_REPUTATION
    _T.max_red_observatory = d.MAX_RED_TALENTS_WITH_OBSERVATORY
    for k, b in enumerate(d.BUILDINGS):
        _T.building_cost[k] = b.cost
        _T.building_copies[k] = b.copies
        _T.building_promo[k] = 1 if b.source == "promo" else 0
    for n in range(1, MAX_PLAYERS + 1):
        _T.blueprint_kinds[n] = d.BLUEPRINT_KINDS[n]
        _T.buildings_removed[n] = d.BUILDINGS_REMOVED_PER_KIND[n]
    assert len(d.BLUEPRINT_KINDS) == MAX_PLAYERS and max(d.BLUEPRINT_KINDS.values()) <= BLUEPRINT_MAX
    assert sum(b.copies for b in d.BUILDINGS) <= SUPPLY_MAX
    _T.works_seasons = _season_bits(d.WORKS_SEASONS)
    _T.market_seasons = _season_bits(d.MARKET_SEASONS)
    _T.garrison_seasons = _season_bits(d.GARRISON_SEASONS)
    _T.works_grain = d.WORKS_GRAIN_PER_FARMLAND
    _T.market_money = d.MARKET_MONEY_PER_TOWN
    _T.garrison_grain = d.GARRISON_GRAIN_PER_FARMLAND
    _T.academy_discount = d.ACADEMY_DISCOUNT
    _T.observatory_cost = d.OBSERVATORY_TALENT_COST
    for i, e in enumerate(d.EVENT_TILES):
        _T.event_colour[i] = e.colour
        _T.event_kind[i] = e.kind
        _T.event_amount[i] = e.amount
    _T.event_zero_tile = d.EVENT_ZERO_TILE
    _T.event_zero_colour = d.EVENT_ZERO_REPLACES_COLOUR
    _T.exchange_max = d.EXCHANGE_MAX
    _T.event_bonus = d.EVENT_BONUS_AMOUNT
    assert d.EXCHANGE_MAX == 3  # the A_EXCHANGE layout of state.pxd
    spaces = dict(d.EVENT_SPACES)
    spaces[1] = spaces[2]  # solo play is set up as a 2-player game
    for n, rounds in spaces.items():
        assert len(rounds) == ROUNDS_PER_YEAR
        for r, cols in enumerate(rounds):
            _T.event_spaces[n][r] = _season_bits(cols)
            assert len(cols) == (2 if n == 1 else n)
    for s, b in enumerate(d.EVENT_BONUS_TYPES):
        _T.bonus_types[s] = b
    for i, p in enumerate(d.PRAISES):
        _T.praise_y1_min[i] = p.year1_at_least
        _T.praise_y1_rep[i] = p.year1_reputation
        _T.praise_y2_unit[i] = p.year2_unit
        _T.praise_y2_rep[i] = p.year2_reputation
    assert len(d.LARGE_TILES) == 4 and len(d.SMALL_TILES) == 4
    for t, rows in enumerate(d.LARGE_TILES):
        for r in range(3):
            for c in range(3):
                _T.large[t][r][c] = _map_bits(rows[r][c])
    for t, rows in enumerate(d.SMALL_TILES):
        for r in range(2):
            for c in range(2):
                _T.small[t][r][c] = _map_bits(rows[r][c])
    for n, qs in d.QUADRANTS.items():
        for i, q in enumerate(qs):
            _T.quadrants[n][i] = q
    _T.virtual_draws[0] = d.VIRTUAL_DRAWS[1]
    _T.virtual_draws[1] = d.VIRTUAL_DRAWS[2]
    _T.virtual_draws[2] = d.VIRTUAL_DRAWS[3]
    assert sum(d.VIRTUAL_DRAWS.values()) == VIRTUAL_TILES
    for i, e in enumerate(d.VIRTUAL_EVENT_PRIORITY):
        _T.virtual_priority[i] = e
    _T.solo_goal = d.SOLO_GOAL
    _T.solo_publicist_players = d.SOLO_PUBLICIST_PLAYERS
    for g, ch in enumerate(d.CHALLENGES):
        _T.goal[g] = ch.goal
        _T.bonus_level[g] = ch.bonus_talent_level
        _T.bonus_buildings[g] = ch.bonus_buildings
        _T.town_start[g] = 1 if ch.town_start else 0
        assert ch.bonus_buildings <= 2
    _T.g2_money_loss = d.CHALLENGE_G2_MONEY_LOSS
    assert len(d.STACKS_TIERED) == 7 and d.STACKS * d.STACK_DEPTH <= N_SLOTS
    for i, t in enumerate(d.STACKS_TIERED):
        _T.stacks_tiered[i] = t
    assert len(d.STEP_COLUMNS) == 6 and sum(d.STEP_COLUMNS) <= N_SLOTS
    for i, c in enumerate(d.STEP_COLUMNS):
        _T.step_columns[i] = c
    for i, m in enumerate(d.TUTOR_MIN_PLAYERS):
        _T.tutor_min_players[i] = m
    _T.builder_toll = d.MASTER_BUILDER_TOLL
    _T.study_rep = d.STUDY_MARKER_REPUTATION
    _T.teaching_rep = d.SCHOLAR_TEACHING_REPUTATION
    _T.conspirator_rep = d.CONSPIRATOR_TARGET_REPUTATION
    _T.donation_max = d.DONATION_MAX
    assert d.DONATION_MAX <= 6 and len(d.DONATION_THRESHOLDS) == 3
    for i, (at, rep) in enumerate(d.DONATION_THRESHOLDS):
        _T.donation_threshold[i] = at
        _T.donation_rep[i] = rep
    _T.philanthropist_bonus = d.PHILANTHROPIST_BONUS
    _T.donation_final = d.DONATION_FINAL_REPUTATION
    _T.commander_rep = d.COMMANDER_REPUTATION
    assert d.STUDY_MARKERS == 2 * N_SEASONS


_load()
