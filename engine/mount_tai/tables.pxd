# Mount Tai: the printed values of data.py as one C struct, shared by every compiled module.
#
# `mt_tables()` returns the one static instance, filled when engine.mount_tai.tables is imported
# (which checks that data.py matches the enums of state.pxd). Modules keep the pointer in a
# module-level variable and read it without the GIL.

from libc.stdint cimport uint8_t, int8_t
from engine.mount_tai.state cimport *

ctypedef struct MTTables:
    # Edict tiles, by number 1..29 (index 0 unused).
    uint8_t tier[N_TILES + 1]  # 1, 2 or 3
    uint8_t n_effects[N_TILES + 1]          # 1 (tier I) or 2
    uint8_t effect[N_TILES + 1][2]          # E_* printed on the tile
    uint8_t tidy_max                        # removals in a tidy-up (2)
    uint8_t tidy_max_challenge              # removals in a tidy-up in challenge games 5-8 (4)
    # Costs and amounts (data.py names in capitals).
    uint8_t cultivate_cost, flat_times, mountain_times, reclaim_cost, town_cost
    uint8_t brew_max, celebration_grain, celebration_wine, celebration_rep
    uint8_t sacrifice_grain, sacrifice_wine, sacrifice_rep
    uint8_t farmland_grain, town_money
    uint8_t farmland_seasons, town_seasons  # bit season
    uint8_t start_res[3]  # money, grain, wine
    uint8_t start_rep[MAX_PLAYERS + 1][MAX_PLAYERS]  # by player count and seat
    # Talents.
    uint8_t talent_colour[N_TALENT_KINDS]  # 0 green, 1 yellow, 2 blue, 3 red
    uint8_t talent_source[N_TALENT_KINDS]  # 0 base, 1 promo, 2 fan
    uint8_t talent_min_players[N_TALENT_KINDS]
    uint8_t talent_copies[N_TALENT_KINDS]
    uint8_t recruit_cost[N_TALENT_KINDS]
    uint8_t level_cost[N_TALENT_KINDS][2]  # 1 -> 2, 2 -> 3
    uint8_t pile_colour[N_PILES]
    uint8_t pile_size[MAX_PLAYERS + 1][N_PILES]  # by player count (index 1 = solo)
    uint8_t sacr_celeb_bonus, sacr_sacrifice_bonus, agri_times, commerce_times, commerce_grain
    uint8_t brewer_times, pioneer_grain, pioneer_mountain_times, publicist_blue, publicist_bonus
    uint8_t trader_money, architect_discount, dugu_rep, vanguard_offset, vanguard_bonus
    uint8_t vanguard_rep, elder_celeb_money, elder_sacrifice_money, elder_rep
    uint8_t firstborn_gift[N_RES]
    uint8_t firstborn_praise
    uint8_t zheng_rep[2]
    uint8_t commerce_rep[2]
    uint8_t architect_rep[2]
    uint8_t max_red_observatory
    # Buildings.
    uint8_t building_cost[N_BUILDING_KINDS]
    uint8_t building_copies[N_BUILDING_KINDS]
    uint8_t building_promo[N_BUILDING_KINDS]
    uint8_t blueprint_kinds[MAX_PLAYERS + 1]
    uint8_t buildings_removed[MAX_PLAYERS + 1]
    uint8_t works_seasons, market_seasons, garrison_seasons  # bit season
    uint8_t works_grain, market_money, garrison_grain, academy_discount, observatory_cost
    # Events.
    uint8_t event_colour[N_EVENT_TILES]
    uint8_t event_kind[N_EVENT_TILES]
    int8_t event_amount[N_EVENT_TILES]
    uint8_t event_zero_tile, event_zero_colour, exchange_max, event_bonus
    uint8_t event_spaces[MAX_PLAYERS + 1][ROUNDS_PER_YEAR]  # bit space, by player count
    uint8_t bonus_types[N_SEASONS]
    # Eight Praises.
    uint8_t praise_y1_min[N_PRAISES]
    uint8_t praise_y1_rep[N_PRAISES]
    uint8_t praise_y2_unit[N_PRAISES]
    uint8_t praise_y2_rep[N_PRAISES]
    # Mountain tiles, MAP_* bits before rotation.
    uint8_t large[4][3][3]
    uint8_t small[4][2][2]
    uint8_t quadrants[MAX_PLAYERS + 1][MAX_PLAYERS]
    # Solo and the challenge.
    uint8_t virtual_draws[3]  # tiles drawn from I, II, III
    uint8_t virtual_priority[4]             # EV_* in the virtual player's order of preference
    uint8_t solo_goal
    uint8_t solo_publicist_players
    uint8_t goal[N_CHALLENGES]
    uint8_t bonus_level[N_CHALLENGES]       # carried talent's level (0 = none)
    uint8_t bonus_buildings[N_CHALLENGES]   # carried buildings
    uint8_t town_start[N_CHALLENGES]
    uint8_t g2_money_loss
    uint8_t stacks_tiered[7]                # tier of each depth of a challenge 6 pile
    uint8_t step_columns[6]
    # Grand Tutors.
    uint8_t tutor_min_players[N_TUTORS]
    uint8_t builder_toll, study_rep, teaching_rep, conspirator_rep, donation_max
    uint8_t donation_threshold[3]
    uint8_t donation_rep[3]
    uint8_t philanthropist_bonus
    uint8_t donation_final
    uint8_t commander_rep


# The tables (valid once engine.mount_tai.tables is imported).
cdef const MTTables* mt_tables() noexcept nogil
