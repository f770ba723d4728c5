# Mount Tai: the game state as one plain C struct, and the action-id layout.
#
# A state is `MTState`: fixed-size arrays of small integers, no pointers, so copying a state is one
# memcpy (the contract of engine/core/interface.pxd). The rules that change it live in rules.pyx
# and the modules it uses (mountain, edicts, supply, solo, scoring); the printed values they read
# live in data.py (copied into C by tables.pyx).
#
# Vocabulary (rulebook -> code): edict tile = a numbered tile 1..29 of a player's colour; slot = a
# place of the player's edict area (the pyramid, or a challenge game's piles); fief = the player's
# 4x4 quarter of the mountain, cell (a, b) at local index a * 4 + b, a and b the distances from the
# fief's outer edges (first settlement at (0, 0), the summit quarter at (3, 3)); map = the whole
# 8x8 mountain (water sources and tribes, global index row * 8 + column); wilderness = the talent
# piles; blueprint area = the face-up building stacks; virtual player = the solo opponent.

from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint32_t, uint64_t
from engine.core.rng cimport Rng

cdef enum:
    MAX_PLAYERS = 4         # seats
    MAX_ORDER = 4           # entries of the turn order (the seats; solo: the seat and the virtual)
    VIRTUAL = 4             # the virtual player's id in `order` (solo play)
    N_SLOTS = 29            # places of an edict area (29 tiles per colour)
    N_TILES = 29            # edict tile numbers 1..29
    N_CELLS = 16            # cells of a fief
    SUMMIT_CELL = 15        # the fief's quarter of the summit, cell (3, 3)
    MAP_SIDE = 8
    MAP_CELLS = 64
    N_EFFECTS = 8           # edict effects, E_*
    N_TALENT_KINDS = 16     # T_*
    N_COLOURS = 4           # talent colours: green, yellow, blue, red
    N_BUILDING_KINDS = 8    # B_*
    N_PILES = 5             # wilderness piles: green, yellow, blue, red, red
    PILE_MAX = 3            # cards in one pile at most
    MAX_TALENTS = 8         # talent cards one player can hold (4 colours, a 2nd red, 2 carried)
    N_ROUNDS = 16
    ROUNDS_PER_YEAR = 8
    N_SEASONS = 4
    N_EVENT_SPACES = 4      # colour spaces of one round of the event area
    N_EVENT_TILES = 33      # 32 printed + tile "0"
    N_PRAISES = 8
    N_RES = 4               # money, grain, wine, reputation
    N_REP_SOURCES = 8       # SRC_*
    SUPPLY_MAX = 24         # face-down building tiles at most (18 + 2 promo)
    BLUEPRINT_MAX = 4       # kinds face up in the blueprint area at most
    VIRTUAL_TILES = 16      # the virtual player's face-down tiles (3 + 7 + 6)
    N_TUTORS = 5            # TU_*
    N_CHALLENGES = 8
    PASS_NUMBER = 30        # turn-order number of a player who had no tile to place
    NONE8 = 255             # "none" in uint8_t fields
    NO_BONUS = 254          # MTOptions.bonus_*: the previous challenge game gave no bonus

# Resources (MTPlayer.res). Index = data.RESOURCES.
cdef enum:
    RES_MONEY = 0
    RES_GRAIN = 1
    RES_WINE = 2
    RES_REP = 3

# Where reputation came from (MTPlayer.rep_src). Index = data.REPUTATION_SOURCES.
cdef enum:
    SRC_START = 0
    SRC_EVENTS = 1
    SRC_PRAISES = 2
    SRC_CELEBRATION = 3
    SRC_SACRIFICE = 4
    SRC_TALENTS = 5         # talent skills during play (Firstborn, Dugu Wei, Publicist, ...)
    SRC_FINAL = 6           # level 3 talent skills at game end
    SRC_TUTORS = 7          # Grand Tutor rules (may be negative: tolls, the Commander)

# Edict effects. Index = data.EFFECTS.
cdef enum:
    E_CULTIVATE = 0
    E_RECLAIM = 1
    E_TOWN = 2
    E_RECRUIT = 3
    E_BUILD = 4
    E_BREW = 5
    E_CELEBRATE = 6
    E_SACRIFICE = 7
    ACT_TIDY = 8            # bit of MTPlayer.prev_actions / cur_actions for the tidy-up

# What lies on a fief cell (MTPlayer.cell).
cdef enum:
    C_EMPTY = 0             # barren (or a water source: see MTState.map)
    C_SETTLEMENT = 1
    C_FARMLAND = 2
    C_TOWN = 3
    C_ASCENT = 4            # the player's ascent marker on the summit

# Bits of MTState.map.
cdef enum:
    MAP_WATER = 1           # a printed water source
    MAP_TRIBE = 2           # a primitive tribe
    MAP_ARTIFICIAL = 4      # an artificial water source (Descendant of Zheng)

# Talent kinds. Index = data.TALENTS.
cdef enum:
    T_AGRI = 0
    T_COMMERCE = 1
    T_SACRIFICE = 2
    T_BREWER = 3
    T_ADMIN = 4
    T_PIONEER = 5
    T_PUBLICIST = 6
    T_TRADER = 7
    T_YINYANG = 8
    T_ARCHITECT = 9
    T_DUGU = 10
    T_FIRSTBORN = 11
    T_VANGUARD = 12
    T_ELDER = 13
    T_SECRETARY = 14
    T_ZHENG = 15

# Building kinds. Index = data.BUILDINGS.
cdef enum:
    B_GRANARY = 0
    B_MINT = 1
    B_WORKS = 2
    B_MARKET = 3
    B_ACADEMY = 4
    B_YUFU = 5
    B_GARRISON = 6
    B_OBSERVATORY = 7

# Event tile kinds. Index = data.EVENT_TYPES (the first four equal RES_*).
cdef enum:
    EV_MONEY = 0
    EV_GRAIN = 1
    EV_WINE = 2
    EV_REPUTATION = 3
    EV_EXCHANGE = 4
    EV_ZERO = 5

# Eight Praises tiles. Index = data.PRAISES.
cdef enum:
    PR_HEIGHT = 0
    PR_FARMLAND = 1
    PR_BUILDINGS = 2
    PR_MONEY = 3
    PR_TALENTS = 4
    PR_GRAIN = 5
    PR_TOWNS = 6
    PR_WINE = 7

# Grand Tutors. Index = data.TUTORS.
cdef enum:
    TU_MASTER_BUILDER = 0
    TU_SCHOLAR = 1
    TU_CONSPIRATOR = 2
    TU_PHILANTHROPIST = 3
    TU_COMMANDER = 4

# Edict area layouts (MTOptions.layout).
cdef enum:
    LAY_PYRAMID = 0         # slots 0-15 tier III 4x4, 16-24 tier II 3x3, 25-28 tier I 2x2
    LAY_STACKS = 1          # challenge 6-7: 4 piles of 7, slot = pile * 7 + depth (0 = top)
    LAY_STEPS = 2           # challenge 8: 6 columns of 2..7, slots column by column, top first

# The decision the current player faces (MTState.phase).
cdef enum:
    PH_BONUS_TALENT = 0     # solo challenge setup: the talent carried from the previous game
    PH_BONUS_BUILDING = 1   # solo challenge setup: a building carried from the previous game
    PH_POLICY = 2           # use an uncovered edict tile, or tidy up (pass if none is left)
    PH_TIDY = 3             # tidy-up: remove another uncovered tile, or stop
    PH_EFFECT = 4           # execute one of the tile's remaining effects, or stop
    PH_CULTIVATE = 5        # place a settlement (flat or mountain), or stop after the first
    PH_WATER = 6            # Descendant of Zheng 1: place an artificial water source, or not
    PH_REMOVE = 7           # remove an uncovered edict tile (MTState.remove_ctx says why)
    PH_RECLAIM = 8          # turn a settlement into farmland (or stop after the first)
    PH_AGRI_WINE = 9        # Agricultural Official 1: change 1 grain into 1 wine, or not
    PH_TOWN = 10            # turn a settlement into a town (or stop after the first)
    PH_RECRUIT = 11         # recruit a face-up talent, or develop a held one
    PH_BUILD = 12           # take a building from the blueprint area
    PH_OBSERVATORY = 13     # Observatory: pay 1 money for a face-up red talent, or not
    PH_BREW = 14            # how much grain to brew
    PH_CELEBRATE = 15       # Village Elder 1: money paid instead of wine
    PH_SACRIFICE = 16       # Village Elder 2: 1 money instead of 1 wine, or not
    PH_EVENT = 17           # activate one of the round's event tiles
    PH_EXCHANGE = 18        # the exchange event: how much money <-> grain
    PH_YINYANG = 19         # Yin-Yang Master 2: the resource an event reward is taken in
    PH_BREWER_WINE = 20     # Brewer 2 at settlement: change 1 grain into 1 wine, or not
    PH_TRADE = 21           # Trader 1 at settlement: 1 money <-> 1 grain, or not
    PH_SWAP = 22            # Secretary 2 at settlement: swap two uncovered edict tiles
    PH_ARCHITECT = 23       # Architect 2 at settlement: a town / a reclamation, or not
    PH_SCHOLAR = 24         # Scholar's holder: who of the tied players takes the study marker
    PH_DONATE_KIND = 25     # Philanthropist: the first player picks the resource to donate
    PH_DONATE = 26          # Philanthropist: how much to donate
    PH_COMMANDER = 27       # Commander's holder: the opponent to take reputation from
    PH_VIRTUAL_TALENT = 28  # solo: the virtual player's recruitment removes a wilderness talent
    PH_OVER = 29            # the game has ended
    N_PHASES = 30

# Where the automatic flow stands (MTState.flow).
cdef enum:
    FLOW_SETUP = 0          # solo challenge setup choices
    FLOW_POLICY = 1         # policy decision phase, seat order[order_pos]
    FLOW_ORDER = 2          # turn order change phase
    FLOW_EVENTS = 3         # event activation phase, seat order[order_pos]
    FLOW_SETTLE = 4         # seasonal settlement of seat order[order_pos], step `sub`
    FLOW_SETTLE_END = 5     # after every seat's settlement (tutors, challenge 2), step `sub`
    FLOW_SECRETARY = 6      # game end: Secretary 3's extra policy decisions
    FLOW_FINAL = 7          # final scoring

# Why a PH_REMOVE decision is due (MTState.remove_ctx).
cdef enum:
    RM_TRIBE = 0            # Administrative Official 1: cultivated a primitive tribe (mandatory)
    RM_ADMIN = 1            # Administrative Official 2 at settlement (mandatory)
    RM_SECRETARY = 2        # Secretary 1 after a building plan (optional)

# Steps of a cultivation or a building plan in progress (MTState.mode).
cdef enum:
    CM_NONE = 0             # cultivation: no placement yet (flat or mountain still open)
    CM_FLAT = 1             # flat-land placements under way
    CM_MOUNTAIN = 2         # mountain placements under way
    CM_AFTER = 3            # placements over: the tribes' removals, then the artificial water
    CM_WATER_DONE = 4       # the artificial water decided
    BM_OBSERVATORY = 10     # after a building plan: the Observatory's talent
    BM_SECRETARY = 11       # ... then the Secretary's discard
    BM_DONE = 12

# Where PH_RECLAIM / PH_TOWN decisions return (MTState.ctx).
cdef enum:
    CTX_POLICY = 0          # an edict effect
    CTX_ARCHITECT = 1       # Architect 2 at settlement

# Action ids. Each decision is one integer.
cdef enum:
    A_USE = 0                               # + slot: place that edict tile, execute it
    A_TIDY = A_USE + N_SLOTS                # + slot: tidy-up, removing that tile first
    A_REMOVE = A_TIDY + N_SLOTS             # + slot: remove that uncovered tile
    A_SWAP = A_REMOVE + N_SLOTS             # + slot: Secretary 2 swaps that tile
    A_EFFECT = A_SWAP + N_SLOTS             # + E_*: execute that effect of the tile now
    A_FLAT = A_EFFECT + N_EFFECTS           # + cell: flat-land cultivation there
    A_MOUNTAIN = A_FLAT + N_CELLS           # + cell: mountain cultivation there (summit: ascent)
    A_WATER = A_MOUNTAIN + N_CELLS          # + cell: artificial water source there
    A_RECLAIM = A_WATER + N_CELLS           # + cell: reclaim that settlement
    A_TOWN = A_RECLAIM + N_CELLS            # + cell: build a town on that settlement
    A_RECRUIT = A_TOWN + N_CELLS            # + pile: recruit (or take, or remove) its top card
    A_DEVELOP = A_RECRUIT + N_PILES         # + talent index: level it up
    A_BUILD = A_DEVELOP + MAX_TALENTS       # + B_*: build that kind
    A_AMOUNT = A_BUILD + N_BUILDING_KINDS   # + k (0..6): grain brewed, money paid, donated
    A_EVENT = A_AMOUNT + 7                  # + colour space: activate that event tile
    A_EXCHANGE = A_EVENT + N_EVENT_SPACES   # + k: k < 3: k+1 money -> grain; else k-2 grain -> money
    A_RESOURCE = A_EXCHANGE + 6             # + RES_*: take / donate that resource
    A_SEAT = A_RESOURCE + N_RES             # + seat: choose that player
    A_BONUS_TALENT = A_SEAT + MAX_PLAYERS   # + T_*: carry that talent into this game
    A_BONUS_BUILDING = A_BONUS_TALENT + N_TALENT_KINDS  # + B_*: carry that building
    A_YES = A_BONUS_BUILDING + N_BUILDING_KINDS         # yes (a "may" skill)
    A_PASS = A_YES + 1                      # no / stop / skip / pass (nothing to place)
    N_ACTIONS = A_PASS + 1
    MAX_LEGAL = 64                          # room for any legal-action list


# The options a game was created with; kept inside the state so `reset` can rebuild it.
ctypedef struct MTOptions:
    uint8_t n_players       # seats: 1 (solo) or 2..4
    uint8_t promos          # crowdfunding content: promo talents and buildings, tile "0"
    uint8_t fan_talents     # the fan-designed talents (5 red cards)
    uint8_t grand_tutors    # each player draws a Grand Tutor
    uint8_t solo            # solo play with the virtual player
    uint8_t challenge       # solo challenge game 1..8, 0 = none
    uint8_t tidy_effect     # the tidy-up tile's effect may be executed (the other reading)
    uint8_t seasonal_yields # farmland yields in spring/autumn, towns in summer/winter
    uint8_t bonus_talent    # challenge: carried talent T_*, NONE8 = choose at setup, NO_BONUS
    uint8_t bonus_building[2]  # challenge: carried buildings B_*, NONE8 / NO_BONUS likewise
    uint8_t layout          # LAY_* of the edict areas (challenge 6-8 change it)
    uint8_t hidden_edicts   # challenge 5-7: covered tiles lie face down until uncovered
    uint8_t optional_effects  # every edict effect may be skipped (the engine's earlier reading;
                              # default 0: a tier I or II effect is executed when it can be)
    uint8_t legacy          # option legacy_readings (records before issue 13): talents settle
                            # before the Works Office, Free Market and Garrison, year-two 高矣
                            # counts the highest layer (optional_effects is then set too)
    uint8_t gao_yi_above    # option gao_yi_above_layer_1 (records before issue 36): year-one
                            # 高矣 pays for a tile on any layer above 1 (legacy sets it too)


# One player's holdings.
ctypedef struct MTPlayer:
    int16_t res[N_RES]              # money, grain, wine, reputation (RES_*); never negative
    int16_t rep_src[N_REP_SOURCES]  # reputation by source (SRC_*); sums to res[RES_REP]
    uint8_t slot_tile[N_SLOTS]      # the edict tile number (1..29) dealt to each slot, 0 = none
    uint32_t present                # bit k: slot k still holds its tile
    uint32_t faceup                 # bit k: slot k's tile is face up (known to everyone)
    uint32_t gone                   # bit n-1: edict tile n was used or removed (seen by all)
    uint8_t cell[N_CELLS]           # C_* on each fief cell
    uint8_t n_talents               # talent cards held
    uint8_t talent[MAX_TALENTS]     # T_* of each card, in the order taken
    uint8_t level[MAX_TALENTS]      # each card's level, 1..3
    uint8_t carried                 # bit i: card i is a challenge bonus (outside the colour rule)
    uint8_t buildings               # bit k: holds building kind k
    uint8_t tier3                   # tier III tiles used or removed (Administrative Official 3)
    uint8_t firsts                  # times first in turn order while holding the Vanguard
    uint8_t turn_number             # this round's number in the turn order area (0 = none yet)
    uint8_t tutor                   # TU_* of the Grand Tutor, NONE8 without
    uint8_t study                   # study markers held (Scholar)
    uint8_t donation                # space on the donation track (Philanthropist)
    uint16_t praise_gain            # reputation from the current settlement's Eight Praises
    uint16_t prev_actions           # challenge 3: bit E_* / ACT_TIDY done in the previous round
    uint16_t cur_actions            # ... and in this round so far


# The whole game.
ctypedef struct MTState:
    Rng rng                         # chance: setup, building flips, the virtual player's draws
    MTOptions opt
    uint8_t phase                   # PH_*: the decision now due
    uint8_t flow                    # FLOW_*: where the automatic flow continues
    uint8_t round                   # 0..15 (year = round / 8, season = round % 8 / 2)
    uint8_t cur                     # seat deciding now
    uint8_t n_order                 # entries of `order`
    uint8_t order[MAX_ORDER]        # turn order: seats (and VIRTUAL in solo), first first
    uint8_t order_pos               # index in `order` of the entry acting in this phase
    uint8_t sub                     # step within a seat's settlement / the settlement's end
    uint8_t quadrant[MAX_PLAYERS]   # quadrant (0..3) of each seat's fief
    uint8_t map[MAP_CELLS]          # MAP_* bits of every mountain cell
    uint8_t large_at[4]             # large mountain tile lying in each quadrant (for text)
    uint8_t rot_large[4]            # its rotation, quarter turns
    uint8_t small_at[4]             # small mountain tile in each quadrant
    uint8_t rot_small[4]
    uint8_t event_tile[ROUNDS_PER_YEAR][N_EVENT_SPACES]  # tile id per round and colour space, NONE8 = unused space
    uint8_t event_used[ROUNDS_PER_YEAR]  # bit c: space c's tile was flipped this year
    uint8_t season_bonus[N_SEASONS]      # the event bonus tile's type (EV_MONEY..EV_REPUTATION)
    uint8_t praise[2][N_SEASONS]         # Eight Praises tile (PR_*) of each year and season
    uint8_t pile[N_PILES][PILE_MAX]      # wilderness: T_* per pile, [0] = the face-up top
    uint8_t pile_n[N_PILES]              # cards left in each pile
    uint8_t talent_seen[N_TALENT_KINDS]  # cards of each kind that have been face up (public)
    uint8_t supply[SUPPLY_MAX]           # face-down building pile, next flip = supply[supply_n-1]
    uint8_t supply_n
    uint8_t bp_kind[BLUEPRINT_MAX]       # blueprint area, left to right: building kind...
    uint8_t bp_count[BLUEPRINT_MAX]      # ...and the tiles stacked there
    uint8_t bp_n                         # kinds face up
    uint8_t builder_mark                 # Master Builder's marked building kind, NONE8
    uint8_t study_left                   # study markers not yet handed out
    uint8_t donation_kind                # RES_* chosen for this settlement's donation
    uint8_t vp_tiles[VIRTUAL_TILES]      # the virtual player's tiles in drawing order
    uint8_t vp_next                      # tiles drawn so far (vp_tiles[:vp_next] are public)
    uint8_t vp_number                    # the virtual player's number this round (0 = none)
    uint8_t carried_talent               # challenge: T_* carried into this game, NONE8 = none
    uint8_t carried_building[2]          # challenge: B_* carried into this game, NONE8 = none
    # The decision in progress.
    uint8_t tile                    # edict tile being executed (0 = none)
    uint8_t effects_left            # bit E_*: effects of `tile` not yet executed
    uint8_t effects_todo            # effects that may still be executed (I, II: 1; III: 2)
    uint8_t may_stop                # 1: the tile's effects may be left unexecuted (tier III, the
                                    # tidy-up's tile, option optional_edict_effects); 0: one is due
    uint8_t removals                # tiles removed so far in this tidy-up
    uint8_t removals_max            # most removals this tidy-up allows
    uint8_t low_tile                # lowest number removed in this tidy-up
    uint32_t removed_mask           # slots removed in this tidy-up
    int8_t last                     # canonical order: the previous choice of a repeated step
    uint8_t mode                    # CM_* / BM_*: the step of a cultivation or building plan
    uint8_t left                    # repetitions left of the current step
    uint16_t placed                 # cultivation: cells settled in this action
    uint8_t tribes                  # Administrative Official 1 removals still due
    uint8_t remove_ctx              # RM_*: why PH_REMOVE is due
    uint8_t ctx                     # CTX_*: where PH_RECLAIM / PH_TOWN return
    int8_t reward                   # Yin-Yang Master 2: the event reward waiting for its type
    uint8_t swap_first              # Secretary 2: the first slot chosen, NONE8
    uint8_t ties                    # Scholar: bit seat = tied for this settlement's study marker
    MTPlayer p[MAX_PLAYERS]
