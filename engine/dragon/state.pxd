# In the Year of the Dragon: the game state as one plain C struct, and the action-id layout.
#
# A state is `DragonStruct`: fixed-size arrays of small integers, no pointers, so copying a state is
# one memcpy (see `engine/core/interface.pxd` for the contract every game meets). The rules that
# change it live in `rules.pyx`; the printed values they read live in `data.py`.
#
# Vocabulary (rulebook -> code): person kind ("tipo de pessoa") = one of 9 kinds; person type = a
# kind plus its age (young/old), 15 types; palace = a stack of 1..3 floors holding <= floors
# persons; person track = the turn-order track ("trilha de pessoas"); VP = score track points.

from libc.stdint cimport uint8_t, int8_t, uint16_t, int16_t, uint64_t
from engine.core.rng cimport Rng

cdef enum:
    MAX_PLAYERS = 5
    N_KINDS = 9             # person kinds, see KIND_* below
    N_TYPES = 15            # person types: young kind k = k (0..8); old kind k = k + 6 (9..14, k >= 3)
    N_MONTHS = 12
    N_CARDS_MAX = 8         # action cards: 7, or 8 with the Great Wall
    N_WALL_BONUSES = 6
    WALL_MAX = 12           # the wall has at most one section under each event tile
    N_SUPER_EVENTS = 10
    # A palace index bound. The rulebook sets no limit on palaces; this bound is never reached in
    # play: at most 14 persons hold palaces, and an uninhabited palace is gone within 3 decays, so
    # a player can own at most 14 inhabited palaces plus the floors built in the last three months
    # (<= 11 a month, 21 in month 7 with the Contract) as 1-floor palaces: 14 + 11 + 21 + 11 = 57.
    MAX_PALACES = 64
    MAX_PERSONS = 16        # 2 starting persons + 11 cards + 1 from the Sunrise = 14 at most
    N_PAIRS = 36            # unordered pairs of distinct kinds in the starting draft
    NO_SUPER_EVENT = 255    # `super_event` when the Super Events expansion is off
    NONE8 = 255             # "none" for uint8_t fields

# Person kinds (rulebook colours: beige, orange, yellow, purple, red, brown, blue, green, white).
cdef enum:
    KIND_CRAFTSMAN = 0      # hammers: floors when building
    KIND_COURT_LADY = 1     # fans: 1 VP each at month scoring
    KIND_TAX_COLLECTOR = 2  # 3 coins: yuan with Taxes
    KIND_PYROTECHNIST = 3   # rockets: fireworks tiles
    KIND_WARRIOR = 4        # helmets: parade steps and Mongol VP
    KIND_MONK = 5           # buddhas: x floors at game end
    KIND_HEALER = 6         # mortars: protect against contagion
    KIND_FARMER = 7         # rice bags: rice with Harvest
    KIND_SCHOLAR = 8        # books: VP with Research

# Action cards (the seven, plus the Great Wall's "build the wall").
cdef enum:
    CARD_TAXES = 0
    CARD_BUILD = 1
    CARD_HARVEST = 2
    CARD_FIREWORKS = 3
    CARD_PARADE = 4
    CARD_RESEARCH = 5
    CARD_PRIVILEGE = 6
    CARD_WALL = 7

# Event tiles.
cdef enum:
    EV_PEACE = 0
    EV_TRIBUTE = 1          # imperial tribute: pay 4 yuan
    EV_DROUGHT = 2          # 1 rice per inhabited palace
    EV_CONTAGION = 3        # release 3 - mortars persons
    EV_MONGOL = 4           # VP per helmet; fewest helmets release 1
    EV_FESTIVAL = 5         # dragon festival: fireworks majority

# Super events (expansion II), resolved in month 7 after the event, before decay and scoring.
cdef enum:
    SE_LANTERN = 0          # 2 VP per person
    SE_BUDDHA = 1           # monks score buddhas x floors
    SE_EARTHQUAKE = 2       # each player removes 2 palace floors
    SE_FLOOD = 3            # each player discards half of yuan + rice + fireworks
    SE_ECLIPSE = 4          # month 7's event happens a second time
    SE_VOLCANO = 5          # all person markers to space 0, order kept
    SE_TORNADO = 6          # each player discards 2 person cards
    SE_SUNRISE = 7          # each player takes a young person of a kind no one took before
    SE_ASSASSINATION = 8    # all privileges are discarded
    SE_CONTRACT = 9         # each player collects what one of its person kinds gives

# Wall tile bonuses (expansion I).
cdef enum:
    WB_STEPS = 0            # 3 person-track steps
    WB_RICE = 1             # 1 rice
    WB_FLOOR = 2            # 1 palace floor
    WB_YUAN = 3             # 2 yuan
    WB_FIREWORKS = 4        # 1 fireworks tile
    WB_VP = 5               # 3 VP

# Where victory points come from (DragonPlayer.vp[]; their sum is DragonPlayer.score).
cdef enum:
    SRC_RESEARCH = 0
    SRC_FESTIVAL = 1
    SRC_MONGOL = 2
    SRC_PALACES = 3         # month scoring: 1 per palace
    SRC_COURT_LADIES = 4    # month scoring: 1 per fan
    SRC_PRIVILEGES = 5      # month scoring: 1 per privilege dragon
    SRC_WALL = 6            # wall scorings
    SRC_WALL_BONUS = 7      # the 3-VP wall tile
    SRC_SUPER_EVENT = 8     # Lantern festival, Buddha, Contract
    SRC_PERSONS = 9         # game end: 2 per person
    SRC_MONKS = 10          # game end: buddhas x floors
    SRC_MONEY = 11          # game end: 1 per 3 yuan after selling rice and fireworks for 2 each
    N_SOURCES = 12

# The decision the current player faces (DragonStruct.phase).
cdef enum:
    PH_DRAFT = 0            # pick the starting pair of young persons
    PH_ACTION = 1           # take an action card (or top money up to 3 yuan)
    PH_BUILD = 2            # place one newly gained palace floor
    PH_PERSON = 3           # play a person card and pick the tile it recruits
    PH_PLACE = 4            # put the recruited person in a palace (or replace / let it go)
    PH_RELEASE = 5          # release a person (tribute, drought, contagion, Mongols, wall)
    PH_QUAKE = 6            # earthquake: remove a floor (then release from an overfull palace)
    PH_FLOOD = 7            # flood: discard one yuan, rice or fireworks tile
    PH_TORNADO = 8          # tornado: discard one person card
    PH_SUNRISE = 9          # sunrise: take a young person without a card
    PH_CONTRACT = 10        # contract: pick the person kind to collect from
    PH_OVER = 11            # the game has ended
    PH_START = 12           # after a draft pick: house the second starting person (with the
                            # first, or in the other palace); `pending_type` holds it

# Where the automatic month-end sequence stands (DragonStruct.flow).
cdef enum:
    FLOW_EVENT = 0          # resolve this month's event
    FLOW_WALL_MONGOL = 1    # after a Mongol invasion: score the wall (Great Wall)
    FLOW_SUPER = 2          # month 7: the super event
    FLOW_DECAY = 3
    FLOW_SCORE = 4
    FLOW_WALL_FINAL = 5     # after month 12: the last wall scoring
    FLOW_FINAL = 6          # final scoring, then the game is over

# Release modes (DragonStruct.release_mode).
cdef enum:
    REL_ANY = 0             # any person; several releases in canonical (ascending key) order
    REL_DROUGHT = 1         # one person from each chosen unsupplied palace, palaces ascending

# Action ids. Each decision is one integer; a person is named by its key = palace * N_TYPES + type.
cdef enum:
    A_DRAFT = 0                                   # + pair index (DRAFT_PAIRS in data.py)
    A_CARD = A_DRAFT + N_PAIRS                    # + CARD_TAXES..CARD_RESEARCH
    A_PRIV_SMALL = A_CARD + 6                     # privilege card, small (2 yuan, 1 dragon)
    A_PRIV_LARGE = A_CARD + 7                     # privilege card, large (6/7 yuan, 2 dragons)
    A_WALL = A_CARD + 8                           # + wall bonus: build the wall with that tile
    A_TOPUP = A_WALL + N_WALL_BONUSES             # no action: top money up to 3 yuan
    A_BUILD = A_TOPUP + 1                         # + palace index (== palace count: a new palace)
    A_PLAY = A_BUILD + MAX_PALACES + 1            # + type: play that kind's card, take that tile
    A_PLAY_EMPTY = A_PLAY + N_TYPES               # + kind: play the card of a kind with no tile left
    A_WILD = A_PLAY_EMPTY + N_KINDS               # + type: play a wildcard, take that tile
    A_WILD_EMPTY = A_WILD + N_TYPES               # play a wildcard with no tile left at all
    A_PLACE = A_WILD_EMPTY + 1                    # + palace: put the new person there
    A_REPLACE = A_PLACE + MAX_PALACES             # + key: release that person, new one in its place
    A_DISCARD_NEW = A_REPLACE + MAX_PALACES * N_TYPES  # palaces full: let the new person go
    A_RELEASE = A_DISCARD_NEW + 1                 # + key: release that person
    A_QUAKE = A_RELEASE + MAX_PALACES * N_TYPES   # + palace: the earthquake takes a floor from it
    A_FLOOD = A_QUAKE + MAX_PALACES               # + 0 yuan / 1 rice / 2 fireworks: discard one
    A_TORNADO = A_FLOOD + 3                       # + kind (9 = wildcard): discard that card
    A_SUNRISE = A_TORNADO + N_KINDS + 1           # + kind: take a young person of that kind
    A_CONTRACT = A_SUNRISE + N_KINDS              # + kind: collect from your persons of that kind
    A_START = A_CONTRACT + N_KINDS                # + 0: the starting persons one per palace;
                                                  # + 1: both in the first palace (PH_START)
    N_ACTIONS = A_START + 2
    MAX_LEGAL = 2 * MAX_PALACES                   # room for any legal-action list


# The options a game was created with; kept inside the state so `reset` can rebuild it.
ctypedef struct DragonOptions:
    uint8_t n_players           # 2..5
    uint8_t great_wall          # expansion I on (1) or off (0)
    uint8_t super_events        # expansion II on (1) or off (0)
    uint8_t super_event_choice  # SE_* chosen by the players, or NONE8 to draw one at random
    uint8_t large_privilege_cost  # yuan for a large privilege: 7 (10th Anniversary) or 6 (2007)


# One player's holdings. Palaces are numbered in the order they were built; a palace that decays
# away is removed and later ones move down one place.
ctypedef struct DragonPlayer:
    int16_t yuan
    int16_t rice                # rice tiles
    int16_t fireworks           # fireworks tiles
    int16_t score               # victory points, == sum(vp)
    int16_t track               # space on the person track
    uint16_t stamp              # arrival order on the track: on a shared space, higher = on top
    int16_t vp[N_SOURCES]       # victory points by source (SRC_*)
    uint16_t hand               # bit k: the person card of kind k is still in hand
    uint8_t wild                # wildcards ("?") still in hand, 0..2
    uint8_t priv_small          # small privileges held (1 dragon each)
    uint8_t priv_large          # large privileges held (2 dragons each)
    uint8_t wall_unused         # bit b: the wall tile with bonus b is not built yet
    uint8_t wall_built          # this player's tiles on the wall
    uint8_t n_palaces
    uint8_t n_persons
    uint8_t sym[N_KINDS]        # symbols on this player's persons, by kind (hammers, fans, ...)
    uint8_t palace[MAX_PALACES] # floors (bits 0-1, 1..3) | persons living there << 2 (0..floors)
    uint16_t person[MAX_PERSONS]  # persons as keys (palace * N_TYPES + type), ascending


# The whole game.
ctypedef struct DragonStruct:
    Rng rng                     # chance: event row, super event draw, monthly action-card split
    DragonOptions opt
    uint8_t phase               # PH_*: the decision now due
    uint8_t resume              # phase to continue after PH_BUILD / PH_PLACE (round of origin)
    uint8_t flow                # FLOW_*: next automatic month-end step
    uint8_t month               # 0..11 (month 1 is 0)
    uint8_t event_pass          # 0, or 1 while the Solar Eclipse repeats the event
    uint8_t super_event         # SE_* on month 7, or NO_SUPER_EVENT
    uint8_t cur                 # seat deciding now
    uint8_t order[MAX_PLAYERS]  # seats in person-track order, fixed when the current round began
    uint8_t order_pos           # index in `order` of the seat whose turn it is in this round
    uint8_t events[N_MONTHS]    # the event row, EV_* per month
    uint8_t display[N_TYPES]    # person tiles left on the display, by type
    uint8_t gone[N_TYPES]       # person tiles out of the game (released, or let go unplaced)
    uint8_t n_cards             # action cards in play: 7, or 8 with the Great Wall
    uint8_t n_groups            # action groups this month (= players)
    uint8_t card_group[N_CARDS_MAX]  # group of each action card this month
    uint8_t group_dragons[MAX_PLAYERS]  # dragons on each group this month
    uint8_t pending_type        # person type waiting to be placed (PH_PLACE, PH_START)
    uint8_t todo                # units left in the current multi-step decision
    int16_t last_choice         # canonical order: the previous choice of this multi-step decision
    uint8_t release_mode        # REL_* of the release round in progress
    uint8_t release_palace      # earthquake: palace that must release a person, or NONE8
    uint8_t need[MAX_PLAYERS]   # releases each seat owes in the current release round
    uint16_t sunrise_taken      # bit k: kind k was taken during the Sunrise
    uint8_t wall_len            # wall sections built, 0..12
    uint8_t wall_owner[WALL_MAX]  # seat that built each section
    uint8_t wall_bonus[WALL_MAX]  # the bonus of each section's tile (WB_*)
    uint16_t stamp_counter      # last stamp handed out on the person track
    uint64_t pairs_taken        # bit i: draft pair i was taken
    DragonPlayer p[MAX_PLAYERS]
