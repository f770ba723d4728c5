"""Mount Tai: every printed value the rules read, in one place.

Source: ``shared/rules/mount-tai-rulebook.txt`` (the authority) and the reading notes
``shared/rules/mount-tai-notes.md``. A value the rulebook states cites its section in a comment;
a value it does not print carries a ``# assumption: ...`` comment saying what was chosen and why,
so that it can be corrected here without touching the rules code.

The compiled modules copy these tables into C arrays when they are imported (``tables.pyx``);
the order of every tuple below is the numbering of the matching enum in ``state.pxd`` (a test
checks it).
"""
from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------
# Time.

YEARS = 2  # "The game lasts 2 years in total." (Game Flow)
SEASONS = ("spring", "summer", "autumn", "winter")  # "spring, summer, autumn, winter" (Game Flow)
ROUNDS_PER_SEASON = 2  # "Each season has 2 rounds" (Game Flow)
ROUNDS = YEARS * len(SEASONS) * ROUNDS_PER_SEASON  # 16 (reading notes, section 1)

# ---------------------------------------------------------------------------------------------
# Resources and reputation. Index = RES_* in state.pxd.

RESOURCES = ("money", "grain", "wine", "reputation")
# "money on 6, grain on 2, and wine on 0" (Player Setup 3).
START_MONEY = 6
START_GRAIN = 2
START_WINE = 0
# "Players in 3rd and 4th place gain 1 point of reputation compensation (in a 3-player game, only
# the 3rd player gains 1 point; in a 2-player game there is none)" (Player Setup 5).
START_REPUTATION = {1: (0,), 2: (0, 0), 3: (0, 0, 1), 4: (0, 0, 1, 1)}

# Where reputation comes from (the final summary; index = SRC_* in state.pxd).
REPUTATION_SOURCES = (
    "start compensation",
    "events",
    "eight praises",
    "celebration",
    "sacrifice to heaven",
    "talents during play",
    "talents at game end",
    "grand tutors",
)

# ---------------------------------------------------------------------------------------------
# Edict tiles (Edict Tile Introduction). Index = E_* in state.pxd.

EFFECTS = (
    "barren land cultivation",
    "farmland reclamation",
    "building a town",
    "recruitment and development",
    "building plan",
    "brewing",
    "celebration",
    "sacrifice to heaven",
)
E_CULTIVATE, E_RECLAIM, E_TOWN, E_RECRUIT, E_BUILD, E_BREW, E_CELEBRATE, E_SACRIFICE = range(8)

TILES_PER_COLOUR = 29  # "116 Edict Tiles (29 each in 4 colors)" (Components)
# Tiers (Phase 1): I = 1-4 (one effect), II = 5-13 (two, do one), III = 14-29 (two, do both).
TIER_OF = {n: (1 if n <= 4 else 2 if n <= 13 else 3) for n in range(1, 30)}

# The effects printed on each tile. The rulebook's examples fix: 4 = recruitment and development
# (the recruitment example, a tier I tile with one effect); 7 includes farmland reclamation; 9
# includes building plan; 10 includes barren land cultivation; 11 includes recruitment and
# development; 12 includes building a town.
# assumption: every other content. Tiles 1-3 carry one basic effect each; over the 54 effect
# slots every effect appears 6-7 times (cultivation, reclamation, town, recruitment, brewing and
# celebration 7, building plan and sacrifice 6), celebration and sacrifice mostly on tier III,
# and no tile carries the same effect twice.
EDICT_EFFECTS: dict[int, tuple[int, ...]] = {
    1: (E_CULTIVATE,),
    2: (E_RECLAIM,),
    3: (E_BREW,),
    4: (E_RECRUIT,),  # rulebook: recruitment example
    5: (E_CULTIVATE, E_TOWN),
    6: (E_BREW, E_RECRUIT),
    7: (E_RECLAIM, E_BREW),  # rulebook: reclamation example (7 includes reclamation)
    8: (E_TOWN, E_CELEBRATE),
    9: (E_BUILD, E_CULTIVATE),  # rulebook: building plan example (9 includes building plan)
    10: (E_CULTIVATE, E_RECLAIM),  # rulebook: cultivation examples (10 includes cultivation)
    11: (E_RECRUIT, E_BUILD),  # rulebook: virtual player example (11 includes recruitment)
    12: (E_TOWN, E_BREW),  # rulebook: town example (12 includes building a town)
    13: (E_SACRIFICE, E_RECLAIM),
    14: (E_CULTIVATE, E_TOWN),
    15: (E_RECLAIM, E_RECRUIT),
    16: (E_BUILD, E_BREW),
    17: (E_CELEBRATE, E_CULTIVATE),
    18: (E_SACRIFICE, E_TOWN),
    19: (E_RECRUIT, E_CELEBRATE),
    20: (E_RECLAIM, E_BUILD),
    21: (E_BREW, E_SACRIFICE),
    22: (E_TOWN, E_CELEBRATE),
    23: (E_CULTIVATE, E_RECRUIT),
    24: (E_BUILD, E_SACRIFICE),
    25: (E_BREW, E_CELEBRATE),
    26: (E_RECLAIM, E_TOWN),
    27: (E_RECRUIT, E_SACRIFICE),
    28: (E_BUILD, E_CELEBRATE),
    29: (E_SACRIFICE, E_CELEBRATE),
}
# A tile no player placed (all its tiles gone): its turn-order number.
# assumption: a player with no uncovered edict tile left passes; for turn order it counts as 30,
# after every real tile (ties keep the previous order as usual).
PASS_TILE_NUMBER = 30

# The pyramid (Player Setup 1): III 4x4, II 3x3 on top, I 2x2 on top of that.
PYRAMID_SIDES = {3: 4, 2: 3, 1: 2}

# Tidy-up (Phase 1, 2): remove one uncovered tile, then optionally a second; the lowest-numbered
# removed tile goes to the turn-order area.
TIDY_MIN_REMOVALS = 1
TIDY_MAX_REMOVALS = 2
# Solo challenge games 5-8: "the player removes 1 uncovered edict tile, and this may be executed
# at most 4 times".
TIDY_MAX_REMOVALS_CHALLENGE = 4

# ---------------------------------------------------------------------------------------------
# Action costs and yields (Edict Tile Introduction; reading notes, section 1).

CULTIVATE_COST = 1  # "The player pays 1 money for each cultivation."
FLAT_CULTIVATIONS = 2  # "This may be done at most 2 times."
MOUNTAIN_CULTIVATIONS = 1  # "This may be done at most once."
RECLAIM_COST = 2  # "pays 2 money to reclaim it ... adjacent to a water source, no payment"
TOWN_COST = 1  # "pays 1 money to build a town"
RECRUIT_COST = 1  # "The player then pays 1 money." (Recruitment)
LEVEL_UP_COSTS = (2, 3)  # "Level 1 -> Level 2 ... pay 2 money"; "Level 2 -> Level 3 ... 3 money"
BREW_MAX = 3  # "The player pays 1 to 3 grain and gains the same number of wine."
CELEBRATION_GRAIN = 3  # "The player pays 3 grain and 3 wine, and gains 6 reputation."
CELEBRATION_WINE = 3
CELEBRATION_REPUTATION = 6
SACRIFICE_GRAIN = 2  # "The player pays 2 grain and 1 wine, and gains 6 reputation."
SACRIFICE_WINE = 1
SACRIFICE_REPUTATION = 6

# Seasonal settlement: "For each farmland ... 1 grain"; "For each town ... 1 money".
FARMLAND_GRAIN = 1
TOWN_MONEY = 1
# assumption (reading): farmland yields in spring and autumn, towns in summer and winter. The
# settlement example says "This settlement is in spring, so for each farmland the player gains 1
# grain", and the buildings that "replace the original settlement method" follow the same split
# (Works Office: farmland in spring and autumn; Free Market: towns in summer and winter; Military
# Garrison adds farmland grain in summer and winter). The option `seasonal_yields=False` makes
# both yield in every season instead.
FARMLAND_SEASONS = (0, 2)
TOWN_SEASONS = (1, 3)

# ---------------------------------------------------------------------------------------------
# The mountain (Setup 1; Player Setup 2; Barren Land Cultivation).
#
# Geometry (reading notes, section 2, the suggested reading): an 8x8 grid, one 4x4 quadrant per
# fief; a fief cell is named by (a, b) = its distance from the fief's two outer edges, so (0, 0)
# is the outer corner where the first settlement stands and (3, 3) is the fief's quarter of the
# summit. Height = min(a, b) + 1: layer 1 (7 cells, the main board), layer 2 (5 cells, on a large
# mountain range tile), layer 3 (3 cells, on a small tile), layer 4 (the summit).
FIEF_SIDE = 4
SUMMIT_HEIGHT = 4
# Which quadrant each seat's fief is. Quadrants: 0 = top-left, 1 = top-right, 2 = bottom-right,
# 3 = bottom-left (clockwise, as the players sit).
# assumption: with 2 players the fiefs are opposite each other; with 3 the fourth stays empty.
QUADRANTS = {1: (0,), 2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}

# Mountain range tiles, as printed from above before rotation: "W" a water source, "T" a
# primitive tribe, "." plain. A large tile is 3x3 and lies on fief cells (1..3, 1..3) (only its
# L-shaped rim of 5 cells stays visible: the small tile covers the rest); a small tile is 2x2
# on (2..3, 2..3) (3 cells visible under the summit). Positions and rotations are random at
# setup (Setup 1).
# assumption: the printed layouts. Every large tile has one water source on its rim and the
# centre of one side, so a random rotation decides whether it shows; two large and two small
# tiles carry a primitive tribe. A primitive tribe is a cultivable cell; its only rule in the
# rulebook is the Administrative Official's level 1 skill ("cultivates at a primitive tribe").
LARGE_TILES = (
    ("W..", "...", ".T."),
    (".W.", "...", "..."),
    ("..W", "..T", "..."),
    ("...", "W..", "..W"),
)
SMALL_TILES = (
    ("W.", ".."),
    (".T", ".."),
    ("T.", "W."),
    ("..", ".W"),
)
# assumption: layer 1 (the main board's rim) shows no water source and no tribe.

# Water (Farmland Reclamation): a tile is next to water when an orthogonal neighbour holds a
# water source at the same height or higher ("a location lower than the water source is
# considered adjacent, and so are the left and right sides; a higher position is not"); water
# outside the player's fief counts too.

# ---------------------------------------------------------------------------------------------
# Talents (Talent Cards). Index = T_* in state.pxd.

COLOURS = ("green", "yellow", "blue", "red")


@dataclass(frozen=True)
class Talent:
    """A talent card kind: its name, colour, the box it comes from and its costs."""

    name: str
    chinese: str
    colour: int  # index in COLOURS
    source: str  # "base", "promo" (crowdfunding) or "fan" (fan-designed)
    min_players: int  # "used only in 3- and 4-player games" -> 3
    copies: int  # cards of this kind in the box
    recruit_cost: int = RECRUIT_COST
    level_costs: tuple[int, int] = LEVEL_UP_COSTS
    skills: tuple[str, str, str] = ("", "", "")  # level 1, 2, 3 in words


# "13 Talent Cards (3 each in green, yellow and blue; 4 in red)" (Components); crowdfunding
# "4 Talent Cards (red)" and "5 Fan Design Talent Cards (red)".
# assumption: the three cards of a colour ("their skills differ slightly") are identical copies
# with the printed skills, and every card costs 1 to recruit and 2 / 3 to level up as the
# recruitment and development rules state.
TALENTS: tuple[Talent, ...] = (
    Talent("agricultural official", "農事官", 0, "base", 1, 3, skills=(
        "reclamation: may change 1 grain into 1 wine",
        "reclamation may be performed 3 times",
        "game end: 1 reputation per farmland")),
    Talent("commercial official", "商業官", 1, "base", 1, 3, skills=(
        "town construction: may gain 1 grain",
        "town construction may be performed 2 times",
        "game end: 3 reputation per 2 towns")),
    Talent("sacrifice official", "祭祀官", 2, "base", 1, 3, skills=(
        "celebration: +3 reputation",
        "sacrifice to heaven: +2 reputation",
        "game end: 1 reputation per level of every talent held")),
    Talent("brewer", "醸酒工", 3, "base", 1, 1, skills=(
        "brewing may be performed 2 times",
        "settlement: may change 1 grain into 1 wine",
        "game end: 1 reputation per wine")),
    Talent("administrative official", "政事官", 3, "base", 1, 1, skills=(
        "tidy-up or cultivation at a primitive tribe: remove 1 more uncovered edict tile",
        "settlement: remove 1 uncovered edict tile",
        "game end: 1 reputation per tier III edict tile used or removed")),
    Talent("pioneer", "開拓者", 3, "base", 1, 1, skills=(
        "barren land cultivation: gain 1 grain",
        "mountain cultivation may be performed 2 times",
        "game end: 1 reputation per tile on layer 2 or 3")),
    Talent("publicist", "公關家", 3, "base", 1, 1, skills=(
        "blue event: +1 reputation",
        "yellow, green or red event: reward +1",
        "game end: reputation = players for each resource track you lead")),
    Talent("trader", "商易員", 3, "promo", 1, 1, skills=(
        "settlement: may exchange 1 money for 1 grain or 1 grain for 1 money",
        "anyone activates the exchange event: gain 3 money",
        "game end: 1 reputation per grain + money pair")),
    Talent("yin-yang master", "陰陽家", 3, "promo", 3, 1, skills=(
        "turn order ties: you go first",
        "first in turn order: may take an event reward as another resource",
        "game end: copy another player's talent's level 3 skill")),
    Talent("architect", "建築師", 3, "promo", 1, 1, skills=(
        "building plan costs 1 money less",
        "settlement: town (spring, autumn) or reclamation (summer, winter) once",
        "game end: 3 reputation per 2 buildings")),
    Talent("dugu wei", "獨弧威", 3, "promo", 3, 1, skills=(
        "first in turn order: +1 reputation",
        "settlement: +1 of each resource you alone lead",
        "game end: 15 reputation if this is your only talent")),
    Talent("firstborn grandchild", "初孫", 3, "fan", 1, 1, skills=(
        "gain 1 money, 1 grain, 1 wine and 1 reputation",
        "settlement: +1 reputation when an Eight Praises condition is met",
        "game end: score the year 2 winter Eight Praises tile once more")),
    Talent("vanguard", "先鋒", 3, "fan", 1, 1, skills=(
        "turn order: your tile counts 1 less",
        "first in turn order: event reward +1",
        "game end: 2 reputation per time first in turn order")),
    Talent("village elder", "老村長", 3, "fan", 1, 1, skills=(
        "celebration: may pay up to 3 money instead of wine",
        "sacrifice to heaven: may pay 1 money instead of 1 wine",
        "game end: 3 reputation per building")),
    Talent("secretary", "中書通事", 3, "fan", 1, 1, skills=(
        "building plan: may discard 1 uncovered edict tile",
        "settlement: may swap 2 uncovered edict tiles",
        "game end: one more policy decision before scoring")),
    Talent("descendant of zheng", "鄭の末裔", 3, "fan", 1, 1, skills=(
        "after cultivation: may create an artificial water source",
        "cultivation may cross a water source",
        "game end: 3 reputation per 2 tiles next to water")),
)
(T_AGRI, T_COMMERCE, T_SACRIFICE, T_BREWER, T_ADMIN, T_PIONEER, T_PUBLICIST, T_TRADER,
 T_YINYANG, T_ARCHITECT, T_DUGU, T_FIRSTBORN, T_VANGUARD, T_ELDER, T_SECRETARY,
 T_ZHENG) = range(16)

# Skill amounts.
SACRIFICE_OFFICIAL_CELEBRATION_BONUS = 3  # level 1: "gains an additional 3 reputation"
SACRIFICE_OFFICIAL_SACRIFICE_BONUS = 2  # level 2: "gains an additional 2 reputation"
AGRI_RECLAIM_TIMES = 3  # level 2: "may be performed 3 times"
COMMERCE_TOWN_TIMES = 2  # level 2: "may be performed 2 times"
COMMERCE_TOWN_GRAIN = 1  # level 1: "may gain 1 grain"
BREWER_BREW_TIMES = 2  # level 1: "this action may be performed 2 times"
PIONEER_GRAIN = 1  # level 1: "gains 1 grain"
PIONEER_MOUNTAIN_TIMES = 2  # level 2: "may be performed 2 times"
PUBLICIST_BLUE_REPUTATION = 1  # level 1
PUBLICIST_EVENT_BONUS = 1  # level 2
TRADER_EXCHANGE_MONEY = 3  # level 2: "immediately gains 3 money"
# assumption: the event icon on the Trader card (not reproduced in the source) is the special
# exchange event.
ARCHITECT_DISCOUNT = 1  # level 1
DUGU_ONLY_TALENT_REPUTATION = 15  # level 3
VANGUARD_TILE_OFFSET = 1  # levels 1 and 2: "subtract 1"
# assumption: the level 1 and level 2 "subtract 1" are one and the same (not cumulative).
VANGUARD_EVENT_BONUS = 1  # level 2
VANGUARD_REPUTATION_PER_FIRST = 2  # level 3: "twice the number of times"
ELDER_CELEBRATION_MONEY = 3  # level 1: "up to 3 money"
ELDER_SACRIFICE_MONEY = 1  # level 2
ELDER_REPUTATION_PER_BUILDING = 3  # level 3
FIRSTBORN_GIFT = (1, 1, 1, 1)  # level 1: 1 money, 1 grain, 1 wine and 1 reputation
FIRSTBORN_PRAISE_BONUS = 1  # level 2
ZHENG_REPUTATION = (3, 2)  # level 3: 3 reputation for every 2 tiles next to water
COMMERCE_REPUTATION = (3, 2)  # level 3: 3 reputation for every 2 towns
ARCHITECT_REPUTATION = (3, 2)  # level 3: 3 reputation for every 2 building tiles

# Talent supply (Setup 4): cards per pile by player count. Piles 0-2 = green, yellow, blue;
# piles 3-4 = the red pile split in two.
PILE_COLOURS = (0, 1, 2, 3, 3)
PILE_SIZES = {2: (1, 1, 1, 2, 2), 3: (2, 2, 2, 2, 2), 4: (3, 3, 3, 2, 2)}
# Solo (Solo Play, 1): "reduce each [red] pile to one card. The remaining 3 colours' talent
# cards are one of each type."
PILE_SIZES_SOLO = (1, 1, 1, 1, 1)
# Solo challenge: "the wilderness area in challenge mode is set up the same way as in a 2-player
# game" -> PILE_SIZES[2].
MAX_RED_TALENTS_WITH_OBSERVATORY = 2  # Observatory: "The player may hold 2 red talent cards."

# ---------------------------------------------------------------------------------------------
# Buildings (Building Tiles). Index = B_* in state.pxd.


@dataclass(frozen=True)
class Building:
    name: str
    chinese: str
    source: str  # "base" or "promo"
    copies: int
    cost: int
    ability: str


# "18 Building Tiles (3 each of 6 kinds)" (Components) and "remove one of each of the 6 kinds"
# (Setup 5): six kinds in the base box, i.e. the four basic ones plus the Imperial Academy and
# the Yufu (listed under "Promo Building Tile Abilities" but counted in the base box). The
# Observatory and the Military Garrison are the crowdfunding's "2 Building Tiles" (Setup 5).
# Costs: the Works Office costs 3 (building plan example).
# assumption: every other cost (not printed in the source): 2 for the simple yields and the
# discounts, 3 for the buildings that multiply the land's yield.
BUILDINGS: tuple[Building, ...] = (
    Building("granary", "糧倉", "base", 3, 2, "settlement: +1 grain"),
    Building("mint", "鑄幣所", "base", 3, 2, "settlement: +1 money"),
    Building("works office", "工官", "base", 3, 3,
             "spring and autumn settlement: 2 grain per farmland (instead of 1)"),
    Building("free market", "集貿所", "base", 3, 3,
             "summer and winter settlement: 2 money per town (instead of 1)"),
    Building("imperial academy", "太學", "base", 3, 2, "recruitment costs 1 money less"),
    Building("yufu", "虞府", "base", 3, 2, "barren land cultivation is free"),
    Building("military garrison", "軍屯", "promo", 1, 3,
             "summer and winter settlement: +1 grain per farmland"),
    Building("observatory", "天文台", "promo", 1, 2,
             "when built: may pay 1 money for a red talent; may hold 2 red talents"),
)
B_GRANARY, B_MINT, B_WORKS, B_MARKET, B_ACADEMY, B_YUFU, B_GARRISON, B_OBSERVATORY = range(8)
WORKS_SEASONS = (0, 2)  # "In the spring and autumn seasonal settlement phases"
WORKS_GRAIN_PER_FARMLAND = 2
MARKET_SEASONS = (1, 3)  # "In the summer and winter seasonal settlement phases"
MARKET_MONEY_PER_TOWN = 2
GARRISON_SEASONS = (1, 3)  # "In the summer and winter seasonal settlement phases"
GARRISON_GRAIN_PER_FARMLAND = 1
ACADEMY_DISCOUNT = 1  # "reduced by 1 money (The cost may be reduced to 0 money.)"
OBSERVATORY_TALENT_COST = 1  # "After paying 1 money, the player immediately chooses a red talent"
# Blueprint area (Setup 5): flip until 4 different kinds (4 players) or 3 (2-3 players).
BLUEPRINT_KINDS = {1: 3, 2: 3, 3: 3, 4: 4}
# "In a 2- or 3-player game, remove one of each of the 6 kinds of building tiles."
BUILDINGS_REMOVED_PER_KIND = {1: 1, 2: 1, 3: 1, 4: 0}

# ---------------------------------------------------------------------------------------------
# Events (Phase 3; Event Tiles). Event types: index = EV_* in state.pxd.

EVENT_TYPES = ("money", "grain", "wine", "reputation", "exchange", "nothing")
EV_MONEY, EV_GRAIN, EV_WINE, EV_REPUTATION, EV_EXCHANGE, EV_ZERO = range(6)
# Event colours: the colour spaces of each round of the event area.
EVENT_COLOURS = ("yellow", "green", "blue", "red")


@dataclass(frozen=True)
class EventTile:
    colour: int  # index in EVENT_COLOURS
    kind: int  # EV_*
    amount: int  # signed; 0 for the exchange and "0" tiles


# 32 tiles, 8 per colour (Components). Yellow: tax collection gains money; green: hunting and
# gathering gains grain; blue: envoy hospitality gains reputation; red: special events.
# Samples printed (Event Tiles): yellow +3 +2 -1 +3 +2 money; blue +3 +2 +1; green +3 +2 +1;
# red +1 wine; one special exchange tile; the event example shows a red event giving 2 money.
# assumption: the values beyond the samples, and the red mix (wine mostly, the example's 2
# money, one grain, one reputation and the exchange tile).
EVENT_TILES: tuple[EventTile, ...] = (
    # yellow 0-7
    EventTile(0, EV_MONEY, 3), EventTile(0, EV_MONEY, 2), EventTile(0, EV_MONEY, -1),
    EventTile(0, EV_MONEY, 3), EventTile(0, EV_MONEY, 2), EventTile(0, EV_MONEY, 1),
    EventTile(0, EV_MONEY, 2), EventTile(0, EV_MONEY, 1),
    # green 8-15
    EventTile(1, EV_GRAIN, 3), EventTile(1, EV_GRAIN, 2), EventTile(1, EV_GRAIN, 1),
    EventTile(1, EV_GRAIN, 3), EventTile(1, EV_GRAIN, 2), EventTile(1, EV_GRAIN, 1),
    EventTile(1, EV_GRAIN, 2), EventTile(1, EV_GRAIN, 2),
    # blue 16-23
    EventTile(2, EV_REPUTATION, 3), EventTile(2, EV_REPUTATION, 2),
    EventTile(2, EV_REPUTATION, 1), EventTile(2, EV_REPUTATION, 2),
    EventTile(2, EV_REPUTATION, 1), EventTile(2, EV_REPUTATION, 3),
    EventTile(2, EV_REPUTATION, 2), EventTile(2, EV_REPUTATION, 1),
    # red 24-31
    EventTile(3, EV_WINE, 1), EventTile(3, EV_WINE, 1), EventTile(3, EV_WINE, 2),
    EventTile(3, EV_MONEY, 2), EventTile(3, EV_GRAIN, 2), EventTile(3, EV_REPUTATION, 2),
    EventTile(3, EV_WINE, 1), EventTile(3, EV_EXCHANGE, 0),
    # the crowdfunding tile "0" (index 32): "cannot gain any resource", no bonus
    EventTile(2, EV_ZERO, 0),
)
EVENT_ZERO_TILE = 32
# "You may also mix in event tile 0 and, after randomly removing one blue event card, place the
# tiles" (Setup 2): tile 0 replaces a random blue tile.
EVENT_ZERO_REPLACES_COLOUR = 2
EXCHANGE_MAX = 3  # "Exchange 1, 2 or 3 money for 1, 2 or 3 grain, or ... grain for money"
# The colour spaces used in each round of a year, by player count (Setup 2: "in a 2- or 3-player
# game, place them according to the player-count marks in the event area").
# assumption: one tile per player each round; with 3 players the left-out colour rotates, with 2
# the two colours used alternate, so each colour serves the same number of rounds.
EVENT_SPACES: dict[int, tuple[tuple[int, ...], ...]] = {
    4: tuple((0, 1, 2, 3) for _ in range(8)),
    3: tuple(tuple(c for c in range(4) if c != r % 4) for r in range(8)),
    2: tuple(((0, 2) if r % 2 == 0 else (1, 3)) for r in range(8)),
}
# Event bonus tiles: "4 Event Bonus Tiles", one per season, placed at random (Setup 2); a gain
# of the bonus tile's type gets +1 (Phase 3). assumption: the four types are the four rewards.
EVENT_BONUS_TYPES = (EV_MONEY, EV_GRAIN, EV_WINE, EV_REPUTATION)
EVENT_BONUS_AMOUNT = 1
# A reward of a type the player cannot pay (the -1 money tile at 0 money) takes what there is.
# assumption: resources never go below 0.

# ---------------------------------------------------------------------------------------------
# Eight Praises of Mount Tai trial tiles. Index = PR_* in state.pxd.


@dataclass(frozen=True)
class Praise:
    name: str
    pinyin: str
    measure: str  # what is counted
    year1_at_least: int  # year 1: condition "holds at least this many"
    year1_reputation: int
    year2_unit: int  # year 2: reputation per this many units...
    year2_reputation: int  # ...this much, repeatedly


# Year 1 / Year 2 Eight Praises tiles (Eight Praises section), reward 5 in year 1.
# "高矣" year 2: "each layer of the personal fief the player has reached (4 layers in total)" =
# the layers holding one of the player's tiles (the ascent marker for the summit). Layers are not
# always reached in order: the Descendant of Zheng's level 2 cultivates across a water source,
# from layer 1 to layer 3, and {1, 3} is two layers, not three. Year 1: "cultivates the 2nd
# layer", read the same way = layer 2 holds a tile; its measure counts layers 1 and 2 (layer 1
# holds the first development site), at least 2 pays, so {1, 3} pays nothing (issue 36; option
# gao_yi_above_layer_1: any tile above layer 1 pays, the earlier reading). See READINGS.
# "特矣" year 1: "holds 1 level 2 talent card"; assumption: a level 3 card also qualifies.
PRAISES: tuple[Praise, ...] = (
    Praise("高矣", "gao yi", "layers reached", 2, 5, 1, 2),
    Praise("壮矣", "zhuang yi", "farmland", 2, 5, 1, 2),
    Praise("極矣", "ji yi", "buildings", 2, 5, 1, 2),
    Praise("赫矣", "he yi", "money", 5, 5, 2, 1),
    Praise("特矣", "te yi", "talents at level 2+ (year 1) / level 3 (year 2)", 1, 5, 1, 5),
    Praise("駭矣", "hai yi", "grain", 5, 5, 2, 1),
    Praise("大矣", "da yi", "towns", 2, 5, 1, 2),
    Praise("惑矣", "huo yi", "wine", 3, 5, 1, 1),
)
(PR_HEIGHT, PR_FARMLAND, PR_BUILDINGS, PR_MONEY, PR_TALENTS, PR_GRAIN, PR_TOWNS,
 PR_WINE) = range(8)

# ---------------------------------------------------------------------------------------------
# Solo play (Solo Play).

# "Draw 3 edict tiles from [I], 7 from [II] and 6 from [III]" (Solo Play, 1), drawn I -> II -> III.
VIRTUAL_DRAWS = {1: 3, 2: 7, 3: 6}
# "the larger number, then wine, money, grain, reputation" (Solo Play, 2.5).
VIRTUAL_EVENT_PRIORITY = (EV_WINE, EV_MONEY, EV_GRAIN, EV_REPUTATION)
# assumption: the exchange and "0" tiles count as number 0 and come after every reward type.
# assumption: a plain solo game (no challenge) has challenge game 1's goal, 80 reputation (game
# 1's setup and rules are "unchanged" from solo play).
SOLO_GOAL = 80
# assumption: the Publicist's "reputation equal to the number of players" is 1 in solo play.
SOLO_PUBLICIST_PLAYERS = 1


@dataclass(frozen=True)
class Challenge:
    goal: int  # reputation at game end
    rule: str  # the game's special rule, in words
    bonus_talent_level: int  # level of the talent carried from the previous game (0: none)
    bonus_buildings: int  # buildings carried from the previous game
    town_start: bool  # the first settlement is a town
    tidy_removals: int  # most removals in one tidy-up
    edict_layout: str  # "pyramid", "pyramid_hidden", "stacks_tiered", "stacks_random", "steps"
    carries: str  # the bonus this game gives for the next, in words


# Solo Challenge Mode, games 1-8.
CHALLENGES: tuple[Challenge, ...] = (
    Challenge(80, "unchanged", 0, 0, False, 2, "pyramid",
              "keep one talent card for game 2"),
    Challenge(80, "after each seasonal settlement, lose 1 money", 1, 0, False, 2, "pyramid",
              "keep one building tile for game 3"),
    Challenge(82, "may not perform the action taken in the previous round", 0, 1, False, 2,
              "pyramid", "keep one talent card for game 4"),
    Challenge(82, "no event unless first in turn order", 1, 0, True, 2, "pyramid",
              "keep one talent card for game 5"),
    Challenge(85, "tiers II and III face down until uncovered; tidy-up removes up to 4", 2, 0,
              False, 4, "pyramid_hidden", "keep one building tile for game 6"),
    Challenge(85, "4 piles of I, II, II, III x4; tidy-up removes up to 4", 0, 1, False, 4,
              "stacks_tiered", "keep 1 building tile and 1 talent card for game 7"),
    Challenge(90, "4 random piles of 7; tidy-up removes up to 4", 1, 1, False, 4,
              "stacks_random", "keep 2 building tiles for game 8"),
    Challenge(90, "6 stepped columns of 2-7, all face up; tidy-up removes up to 4", 0, 2, False,
              4, "steps", "none"),
)
CHALLENGE_G2_MONEY_LOSS = 1  # game 2: "after each seasonal settlement, the player loses 1 money"
# Game 6: each pile from the top: 1 [I], 2 [II] (face down), 4 [III] (face down).
STACKS_TIERED = (1, 2, 2, 3, 3, 3, 3)
STACKS = 4
STACK_DEPTH = 7
# Game 8: "6 columns. Column 1 has 2 edict tiles, and each following column has one more";
# "the 4 edict tiles [I] are placed in the top 2 columns, and the rest at random".
# assumption: the "top 2 columns" are columns 1 and 2 (5 places): the four tier I tiles and one
# random tile are shuffled there.
STEP_COLUMNS = (2, 3, 4, 5, 6, 7)

# ---------------------------------------------------------------------------------------------
# Grand Tutors (Grand Tutor Cards). Index = TU_* in state.pxd.
#
# The FAQ describes five of the eight cards, each only through a clarification; the three others
# are not described anywhere in the source and are not in the game. Each card's missing rules are
# assumptions, completed as follows (numbers below).
TUTORS = ("master builder", "scholar", "conspirator", "philanthropist", "commander")
TU_MASTER_BUILDER, TU_SCHOLAR, TU_CONSPIRATOR, TU_PHILANTHROPIST, TU_COMMANDER = range(5)
TUTOR_MIN_PLAYERS = (2, 4, 2, 2, 2)  # "Scholars may be used only in 4-player games."
# Master Builder (匠師): assumption: whenever the holder builds, the master builder marker moves
# onto that building kind. Another player who builds the marked kind ("uses that building") loses
# 1 reputation and the holder gains 1; with 0 reputation that player cannot build it (FAQ).
MASTER_BUILDER_TOLL = 1
# Scholar (好學者): assumption: after each seasonal settlement the player who gained the most
# reputation from that season's Eight Praises tile takes a study marker (8 markers, one per
# settlement); ties go to the tied player with more of the season's bonus-tile resource (FAQ),
# and if still tied the Scholar's holder chooses among them (FAQ: "you choose"); nobody gained ->
# the marker is discarded (FAQ). The holder gains SCHOLAR_TEACHING_REPUTATION whenever another
# player takes a marker; every marker held at game end is worth STUDY_MARKER_REPUTATION.
STUDY_MARKERS = 8
STUDY_MARKER_REPUTATION = 3
SCHOLAR_TEACHING_REPUTATION = 1
# Conspirator (密謀者): assumption: the 5 conspirator target markers are 5 majorities scored at
# game end: most farmland, most towns, most buildings, most talent levels, most wine (settlement
# tiles are not farmland or towns, FAQ). Each gives CONSPIRATOR_TARGET_REPUTATION to the leader
# (a count above 0); tied leaders divide it, rounding down (FAQ); the holder's share is doubled.
CONSPIRATOR_TARGETS = ("farmland", "towns", "buildings", "talent levels", "wine")
CONSPIRATOR_TARGET_REPUTATION = 4
# Philanthropist (慈善家): assumption: after each seasonal settlement there is a donation: the
# first player in turn order chooses the resource (money, grain or wine), then in turn order each
# player donates 0 to DONATION_MAX of it, moving up the donation track. Reaching 3, 8 and 14
# gives 1, 2 and 3 reputation, and each time the holder gains 1 more (FAQ). At game end the
# players furthest on the track (above 0) divide DONATION_FINAL_REPUTATION, rounding down (FAQ).
DONATION_RESOURCES = (0, 1, 2)
DONATION_MAX = 3
DONATION_THRESHOLDS = ((3, 1), (8, 2), (14, 3))
PHILANTHROPIST_BONUS = 1
DONATION_FINAL_REPUTATION = 6
# Commander (指揮官): assumption: after each seasonal settlement, if the holder is first in turn
# order, the holder chooses an opponent who loses up to COMMANDER_REPUTATION reputation, and the
# holder gains COMMANDER_REPUTATION ("if the opponent has no reputation, you gain 2 reputation
# directly", FAQ).
COMMANDER_REPUTATION = 2

# ---------------------------------------------------------------------------------------------
# Readings of the rules the code makes where the rulebook leaves a choice (the rules code follows
# these; they are listed here so that every assumption is in one place).

READINGS: tuple[str, ...] = (
    "rulebook (Phase 1): a tier I tile's effect 'is executed', a tier II player 'choose[s] one "
    "of the two and execute[s] it': so a tier I or II effect is carried out whenever one can "
    "be (no stopping), and skipped only when none can (the tile then only sets the turn "
    "order); tier III effects 'may be executed', each optional, in the order the player "
    "chooses. Option optional_edict_effects=True: every effect is optional, so any tile can "
    "be placed for its number alone (the engine's earlier reading).",
    "assumption: the tidy-up's tile only sets the turn order (option tidy_up_effect=True: the "
    "player may then execute it by its tier, the other reading of the red sentence; its "
    "effects stay optional, 'may choose whether or not to execute it').",
    "rulebook (Phase 4, 1): 'First settle the building tiles, then settle the talent cards': "
    "every building pays first (Granary, Mint, and the Works Office, Free Market and Military "
    "Garrison on the farmland and towns held before any talent acts), then the talents, then "
    "the land's own yields (farmland grain, town money, unless the Works Office or the Free "
    "Market replaced them this season). So the Brewer's and the Trader's settlement skills see "
    "the buildings' grain and money, and an Architect's settlement farmland or town yields "
    "only as land.",
    "rulebook (Eight Praises, year 2): 高矣 counts the layers of the fief holding a tile of "
    "the player ('each layer ... the player has reached'), not the highest layer: with the "
    "Descendant of Zheng's level 2 layers {1, 3} are two layers.",
    "rulebook (Eight Praises, year 1): '高矣: If the player cultivates the 2nd layer of their "
    "personal fief through barren land cultivation, the player gains 5 reputation.' Reading: "
    "layer 2 holds one of the player's tiles; layers {1, 3} (the Descendant of Zheng's level 2 "
    "crossing a water source from layer 1 to layer 3) do not pay. Why: the 2nd layer is named, "
    "and year two's 高矣 is read by the layers holding a tile; a player who crossed over layer "
    "2 has not cultivated it. Option gao_yi_above_layer_1=True: any tile above layer 1 pays "
    "(the engine's reading before issue 36; records made before it replay so). Test: "
    "test_gao_yi_year_1_needs_a_tile_on_layer_2.",
    "assumption: the Administrative Official's level 1 and 2 removals are mandatory while an "
    "uncovered tile is left ('removes'); its level 1 removal in a tidy-up counts among the "
    "tidy-up's tiles; the Secretary's level 1 discard is optional ('may').",
    "assumption: the Descendant of Zheng's artificial water source is placed at most once per "
    "cultivation action, on a barren dry cell of the player's fief (not the summit) next to a "
    "settlement placed by that action; it is a water source for every rule.",
    "assumption: the Observatory's 1 money for a red talent is not a recruitment (the Imperial "
    "Academy does not reduce it).",
    "assumption: the Publicist's level 2, the Vanguard's level 2 and the Yin-Yang Master's level "
    "2 apply to plain rewards, not to the exchange event or tile 0.",
    "assumption: a reward below 0 (the -1 money tile) takes what the player has.",
    "assumption: the season's +1 is added to the printed amount before it is paid, so the -1 "
    "money tile in a money season pays 0 (and the Publicist's level 2 +1 on a yellow tile "
    "likewise raises it to 0, then 1).",
    "assumption: with the Yin-Yang Master's level 2 the season's +1 follows the resource the "
    "reward is taken in: a reward matching the season's bonus tile taken as another kind "
    "loses its +1, and one taken in the bonus kind gains it.",
    "assumption: challenge game 3's 'may not perform the action taken in the previous round' "
    "counts the tidy-up as an action (no tidy-up twice running) and recruitment and "
    "development as one action (the edict effect), as every other effect.",
    "rulebook (Solo Challenge Mode, game 3): 'in the policy decision phase, the player may not "
    "perform the action taken in the previous round.'; the Secretary's level 3: 'At game end, "
    "before reputation is calculated, the player performs one additional policy decision "
    "phase, and then reputation is calculated as normal.' Reading: the rule holds in that extra "
    "phase too: the actions of the last round (the tidy-up included) may not be performed in "
    "it. Why: the Secretary's text calls it a policy decision phase, the challenge's rule "
    "covers the policy decision phase, and neither text exempts the extra one; the round "
    "before it is the game's last. Test: "
    "test_challenge_3_secretary_extra_decision_not_the_last_rounds_action.",
    "rulebook (5. Building Plan, the action effect): 'If the number of building tiles in the "
    "blueprint area is less than the number specified for the player count, replenish it "
    "from the supply pile according to the rules for the start of the game (in a 2- or "
    "3-player game, flip 3 different kinds of building tiles; in a 4-player game, flip 4 "
    "different kinds of building tiles).' Reading: the number is of kinds showing: the area "
    "is refilled when fewer than 3 (4 players: 4) kinds show, flipping until that many kinds "
    "show, a tile of a kind already there stacked on it; taking one tile of a stack leaves "
    "the area as it is. "
    "Why: the number specified is a number of kinds ('flip 3 different kinds'), setup stacks "
    "tiles of the same name ('stack them together'), and the solo rules refill an empty "
    "space of the area, which a stack leaves only when its last tile is taken. Test: "
    "test_blueprint_refills_when_fewer_kinds_show.",
    "assumption: the Descendant of Zheng's level 3 'next to a water source' uses the farmland "
    "reclamation's rule (orthogonal, water flows downhill: water at the same height or higher "
    "counts, also outside the fief).",
    "assumption: a level 3 Yin-Yang Master copying Dugu Wei's level 3 ('15 reputation if this "
    "is your only talent') applies it to the copier's own talents: 15 when the Yin-Yang Master "
    "is the player's only card.",
    "assumption: the Publicist's level 3 'reputation equal to the number of players' counts 1 "
    "player in solo play (the virtual player holds no resources).",
    "assumption: challenge game 8's 'top 2 columns' are columns 1 and 2 (2 + 3 = 5 places): "
    "the four tier I tiles and one random tile are shuffled there.",
    "assumption: the Firstborn Grandchild's level 1 gift comes whenever the card enters the "
    "talent area (recruited, taken with the Observatory, or carried into a challenge game).",
    "assumption: the Yin-Yang Master's level 3 copies the best level 3 skill among the other "
    "players' cards for its holder (any level of the card; not the Secretary's extra policy "
    "decision, not another Yin-Yang Master).",
    "assumption: talents settle in the order brewer, trader, administrative official, "
    "secretary, architect (after every building); several skills of the same card kind act "
    "once.",
    "assumption: a carried challenge talent or building is taken out of the game's supply.",
    "assumption: a player with no uncovered edict tile passes its policy decision.",
    "reading: each player's summit quarter is the player's part of the shared summit tile; "
    "several players may ascend.",
    "not implemented: the Huizhou Merchants and Pingyao Branch promo tiles (listed among the "
    "crowdfunding contents, but no rule for them is printed in the source), and the three "
    "Grand Tutor cards the FAQ does not describe.",
)
