"""Mount Tai in our own words: the texts of `tianti rules mount-tai` and of `explain` at the
`tianti play` prompt, written from the rulebook (``shared/rules/mount-tai-rulebook.txt``) and
the reading notes; the numbers come from ``data.py`` so that a corrected value shows here too.

Every table is keyed by the names in ``data.py`` (talents, buildings, effects, challenges ...):
a test lists those names and fails when one has no text here.
"""
from __future__ import annotations

from typing import Any

from engine.core.guide import Topic
from engine.mount_tai import data

# Eight Praises of Mount Tai trial tiles: the Chinese name (data.PRAISES[i].name) -> the English
# name (the rulebook gives "How magnificent!" for 壮矣; the others are ours, from the glosses
# "矣 is an exclamatory particle", "赫 means brilliant", "駭 means to startle") and each year's
# condition in words.
PRAISES: dict[str, tuple[str, str, str]] = {
    "高矣": ("How lofty!", "a tile of yours on layer 2: 5 reputation",
             "2 reputation per layer holding one of your tiles (4 layers)"),
    "壮矣": ("How magnificent!", "2 farmlands: 5 reputation", "2 reputation per farmland"),
    "極矣": ("How supreme!", "2 buildings: 5 reputation", "2 reputation per building"),
    "赫矣": ("How brilliant!", "5 money: 5 reputation", "1 reputation per 2 money"),
    "特矣": ("How exceptional!", "a talent at level 2: 5 reputation",
             "5 reputation per talent at level 3"),
    "駭矣": ("How startling!", "5 grain: 5 reputation", "1 reputation per 2 grain"),
    "大矣": ("How vast!", "2 towns: 5 reputation", "2 reputation per town"),
    "惑矣": ("How bewitching!", "3 wine: 5 reputation", "1 reputation per wine"),
}


def praise_name(index: int) -> str:
    """An Eight Praises tile as 'How lofty! (高矣)'."""
    name = data.PRAISES[index].name
    return f"{PRAISES[name][0]} ({name})"


def praise_condition(index: int, year: int) -> str:
    """The condition and reward of Eight Praises tile `index` in year 1 or 2."""
    return PRAISES[data.PRAISES[index].name][1 if year == 1 else 2]


# ---------------------------------------------------------------------------------------------
# Entries keyed by data.py's names.

D = data

EFFECTS: dict[str, str] = {
    "barren land cultivation": (
        f"Flat-land: place up to {D.FLAT_CULTIVATIONS} settlements, each next to one of your "
        f"tiles on the same layer, {D.CULTIVATE_COST} money each. Or mountain: 1 settlement "
        "next to one of your tiles one layer up or down, for 1 money; on the summit this is "
        "the ascent (it allows the sacrifice to heaven). Never on water; diagonals do not "
        "count."),
    "farmland reclamation": (
        f"Turn one settlement into farmland for {D.RECLAIM_COST} money, free next to a water "
        "source at the same height or higher (water flows down; water outside your fief "
        "counts). Farmland yields grain at settlements."),
    "building a town": (
        f"Turn one settlement into a town for {D.TOWN_COST} money. Towns yield money at "
        "settlements."),
    "recruitment and development": (
        f"Recruit: take the face-up talent of a pile for {D.RECRUIT_COST} money (one talent "
        f"per colour), at level 1. Or develop: raise one of your talents a level, "
        f"{D.LEVEL_UP_COSTS[0]} money to level 2, {D.LEVEL_UP_COSTS[1]} money to level 3; "
        "each level adds its skill to the ones below."),
    "building plan": (
        "Take a building you do not have yet from the blueprint area and pay its cost; its "
        "ability works from then on. The area is refilled."),
    "brewing": f"Pay 1 to {D.BREW_MAX} grain and gain as much wine.",
    "celebration": (
        f"Pay {D.CELEBRATION_GRAIN} grain and {D.CELEBRATION_WINE} wine: gain "
        f"{D.CELEBRATION_REPUTATION} reputation."),
    "sacrifice to heaven": (
        f"Only after your ascent to the summit: pay {D.SACRIFICE_GRAIN} grain and "
        f"{D.SACRIFICE_WINE} wine, gain {D.SACRIFICE_REPUTATION} reputation."),
}

TIERS: dict[str, str] = {
    "I": ("Tiles 1-4, one effect, executed whenever it can be, on top of the pyramid (2x2): "
          "the four you start with."),
    "II": ("Tiles 5-13, two effects of which you must execute one that can be done (3x3, the "
           "middle layer)."),
    "III": ("Tiles 14-29, two effects; you may execute both, in the order you choose (4x4, "
            "bottom)."),
    "tidy-up": (
        "Instead of using a tile, remove one uncovered tile and may remove a second (up to 4 "
        "in challenge games 5-8); the lowest removed number goes to the turn-order area. By "
        "default it only sets the turn order (-o tidy_up_effect=true also executes it)."),
    "turn order": (
        "After everyone has placed a tile, the lowest number acts first next round (ties keep "
        "the previous order): small tiles buy the first choice of events."),
}

TALENTS: dict[str, str] = {
    t.name: f"{D.COLOURS[t.colour]}" + (" (promo)" if t.source == "promo" else
                                         " (fan design)" if t.source == "fan" else "")
    + (f", 3-4 players only" if t.min_players >= 3 else "")
    + f". Level 1: {t.skills[0]}. Level 2: {t.skills[1]}. Level 3: {t.skills[2]}."
    for t in D.TALENTS
}
# What the card's skills mean beyond their short printed words.
TALENT_NOTES: dict[str, str] = {
    "agricultural official": "A farmland builder's card.",
    "commercial official": "For a town economy.",
    "sacrifice official": "Makes celebrations and sacrifices worth more; level 3 rewards many "
                          "developed talents.",
    "brewer": "Wine for celebrations and sacrifices, and for its level 3.",
    "administrative official": "Digs into your edict pyramid faster, towards the low numbers "
                               "and the tier III tiles.",
    "pioneer": "For a climb up the mountain.",
    "publicist": "Better events; level 3 rewards leading the resource tracks.",
    "trader": "Turns money and grain into each other at every settlement.",
    "yin-yang master": "Rewards being first in turn order.",
    "architect": "Cheaper and more buildings.",
    "dugu wei": "A lone specialist: its level 3 pays 15 if it is your only talent.",
    "firstborn grandchild": "Resources at once and more from the Eight Praises.",
    "vanguard": "Makes your tiles count lower for turn order.",
    "village elder": "Money can replace wine in celebrations and sacrifices.",
    "secretary": "Reorders your edict tiles; level 3 gives an extra policy decision.",
    "descendant of zheng": "Water where you want it, for free reclamations.",
}
TALENTS = {k: v + " " + TALENT_NOTES[k] for k, v in TALENTS.items()}

BUILDINGS: dict[str, str] = {
    b.name: f"costs {b.cost} money" + (" (promo)" if b.source == "promo" else "")
    + f"; {b.ability}."
    for b in D.BUILDINGS
}

EVENTS: dict[str, str] = {
    "yellow": "Tax collection: gain money (a few tiles lose 1 money).",
    "green": "Hunting and gathering: gain grain.",
    "blue": "Envoy hospitality: gain reputation.",
    "red": "Special events: mostly wine, sometimes money, grain or reputation; one red tile "
           "is the exchange event.",
    "exchange": f"Exchange 1 to {D.EXCHANGE_MAX} money for as much grain, or grain for "
                "money (plus the season's bonus if it matches).",
    "0": "The promo tile 0 gives nothing, not even the season's bonus.",
    "season bonus": f"Each season has a bonus type (money, grain, wine or reputation): an "
                    f"event reward of that type gives {D.EVENT_BONUS_AMOUNT} more.",
}

PRAISE_ENTRIES: dict[str, str] = {
    f"{english} ({name})": f"year 1: {y1}; year 2: {y2}."
    for name, (english, y1, y2) in PRAISES.items()
}

CHALLENGES: dict[str, str] = {}
for _i, _c in enumerate(D.CHALLENGES, start=1):
    _start = []
    if _c.bonus_talent_level:
        _start.append(f"starts with the carried talent at level {_c.bonus_talent_level}")
    if _c.bonus_buildings:
        _start.append(f"starts with {_c.bonus_buildings} carried building"
                      + ("s" if _c.bonus_buildings > 1 else ""))
    if _c.town_start:
        _start.append("the first settlement is a town")
    CHALLENGES[f"game {_i}"] = (
        f"goal {_c.goal} reputation; special rule: {_c.rule}"
        + (f"; {'; '.join(_start)}" if _start else "") + f"; bonus for the next game: {_c.carries}.")

TUTORS: dict[str, str] = {
    "master builder": "Another player who builds the kind of building you last built pays "
                      "you 1 reputation (they cannot build it with none).",
    "scholar": "4 players only. After each settlement whoever gained most from the Eight "
               "Praises takes a study marker (worth 3 at game end); you gain 1 each time "
               "another player takes one.",
    "conspirator": "At game end 5 majorities (farmland, towns, buildings, talent levels, wine) "
                   "give 4 reputation each, shared when tied; your share is doubled.",
    "philanthropist": "After each settlement everyone may donate up to 3 of a resource; the "
                      "donation track pays 1, 2, 3 reputation at 3, 8, 14 (you 1 more each "
                      "time) and 6 to the leaders at game end.",
    "commander": "After each settlement, if you are first in turn order, take 2 reputation "
                 "from an opponent.",
}

GUIDE: dict[str, Topic] = {
    "overview": Topic(
        "Mount Tai: overview", "what the game is about and how it is won",
        (
            "1 to 4 players govern fiefs on the slopes of Mount Tai for 2 years of 4 seasons, "
            "2 rounds a season (16 rounds). Each round you use one edict tile from your "
            "pyramid: its number sets the turn order, its effects develop your fief (settle, "
            "farm, build towns), recruit talents, plan buildings, brew wine and hold "
            "celebrations. After every second round a seasonal settlement pays your land and "
            "scores the season's Eight Praises tile. The most reputation at the end wins; ties "
            "go to the season bonus resources (spring's first).",
            "Topics: setup, round, actions, edicts, fief, talents, buildings, events, "
            "praises, settlement, scoring, solo, challenges, tutors.",
        ),
    ),
    "setup": Topic(
        "Setup", "what each player starts with",
        (
            f"Each player starts with {D.START_MONEY} money, {D.START_GRAIN} grain, "
            f"{D.START_WINE} wine, a settlement on the outer corner of a 4x4 fief of the "
            "mountain, and 29 edict tiles in a pyramid: tier III 4x4 at the bottom, II 3x3, "
            "I 2x2 on top (only the four tier I tiles are uncovered). With 3-4 players the "
            "third and fourth seats get 1 reputation. Talents lie in 5 piles (green, yellow, "
            "blue, two red), buildings in the blueprint area, event tiles for each round.",
        ),
    ),
    "round": Topic(
        "A round (a turn)", "policy decision, turn order, events",
        (
            "1. Policy decision, in turn order: place one uncovered edict tile in the "
            "turn-order area and execute its effects by its tier, or tidy up (see edicts).",
            "2. Turn order: lowest tile number first, ties keep the previous order.",
            "3. Events, in the new turn order: each player activates one event tile of the "
            "round and takes its reward (+1 if of the season's bonus type).",
            "After every second round comes the seasonal settlement (see settlement).",
        ),
    ),
    "actions": Topic("The actions (edict effects)", "the eight effects an edict tile carries",
                     ("A tier I or II tile's effect must be executed when it can be (skipped "
                      "only when it cannot); a tier III tile's two effects may be executed. "
                      "-o optional_edict_effects=true makes every effect optional.",),
                     EFFECTS),
    "edicts": Topic("Edict tiles", "the three tiers, the tidy-up and the turn order",
                    ("Your 29 tiles form a pyramid; a tile is usable when no tile of the layer "
                     "above rests on it. Low numbers act early; high numbers do more.",),
                    TIERS),
    "fief": Topic(
        "The fief and the mountain", "layers, water, how the board names cells",
        (
            "Your fief is a 4x4 quarter of the mountain. The board and the choices name a "
            "cell (row,col): row 0 and column 0 are the outer edges, where your first "
            "settlement stands at (0,0); (3,3) is your part of the summit. A cell's layer is "
            "1 + the smaller of row and col: layer 1 is the rim, 4 the summit.",
            "Letters: S settlement, F farmland, T town, A your ascent marker on the summit, "
            "~ a water source, w an artificial water source, * a primitive tribe, . barren; "
            "a lower-case letter is on a tribe cell.",
        ),
    ),
    "talents": Topic("Talents", "every talent card at each level",
                     ("Recruit for 1 money (one per colour; red talents are one card each), "
                      "develop for 2 then 3 money. Each level adds a skill; level 3 skills "
                      "score at game end.",), TALENTS),
    "buildings": Topic("Buildings", "every building: its cost and ability",
                       ("At most one building of each kind per player.",), BUILDINGS),
    "events": Topic("Events", "the event tiles by colour", (), EVENTS),
    "praises": Topic(
        "The Eight Praises of Mount Tai", "the eight trial tiles, year 1 and year 2",
        ("Each season's settlement scores that season's tile: in year 1 once if you meet its "
         "condition, in year 2 once per unit, repeatedly. The English names are ours.",),
        PRAISE_ENTRIES),
    "settlement": Topic(
        "Seasonal settlement", "what happens after every second round",
        ("Buildings first, then talents, then the land: 1 grain per farmland (spring and "
         "autumn) and 1 money per town (summer and winter; -o seasonal_yields=false: every "
         "season), then the season's Eight Praises tile. After year 1's winter the event tiles "
         "turn face up again.",),
    ),
    "scoring": Topic(
        "Game end", "final scoring and ties",
        ("After 16 rounds each level 3 talent scores its skill; the most reputation wins. "
         "Ties: more of spring's bonus resource, then summer's, autumn's, winter's.",),
    ),
    "solo": Topic(
        "Solo play and the virtual player", "the virtual player's turn",
        (
            f"You play against a virtual player that only places edict tiles: "
            f"{D.VIRTUAL_DRAWS[1]} of tier I, {D.VIRTUAL_DRAWS[2]} of II and "
            f"{D.VIRTUAL_DRAWS[3]} of III, drawn at random in that order. You always start.",
            "Its turn: after your policy decision it draws a tile for the turn order. If the "
            "tile includes building plan, the leftmost building kind of the blueprint area is "
            "removed; if it includes recruitment, you remove a talent from the wilderness. "
            "When it is first in turn order it takes an event first: the larger number, then "
            "wine, money, grain, reputation; it gains nothing from it.",
            f"Goal: {D.SOLO_GOAL} reputation at game end (-o solo=true).",
        ),
    ),
    "challenges": Topic("The solo challenge", "the eight linked challenge games",
                        ("Eight games (-o challenge=N), each with a goal and a special rule; "
                         "winning one lets you carry a talent or building into the next "
                         "(-o bonus_talent=..., -o bonus_buildings=...).",), CHALLENGES),
    "tutors": Topic("Grand Tutors", "the variant's five tutor cards",
                    ("With -o grand_tutors=true each player draws a tutor card with a "
                     "lasting skill.",), TUTORS),
}

LEGEND = """Mount Tai: the board's words
  Round R of 16: year, season; event bonus: the reward type that gets +1.
  Eight Praises this season: the tile settled at this season's end.
  Buildings to plan (N): the blueprint area, N tiles of the kind left.
  Talents to recruit: the face-up talent of each pile.
  The fief grid: rows and columns 0-3 as the choices' (row,col); each cell is
    its layer (1 rim .. 4 summit) and what is on it: S settlement, F farmland,
    T town, A ascent, ~ water, w artificial water, * tribe, . barren;
    lower case: on a tribe cell.
  edicts up: your usable edict tiles, number and effects: a/b = one of them
    (tier II), a+b = both (tier III).
  Virtual player's edicts: the tiles it has drawn (solo play).
  A "* " before a line: it changed since your last decision."""


def explain_action(snap: dict[str, Any], action: int) -> str:
    """The guide's paragraph on the choice `action` of the player to move in `snap`."""
    from engine.mount_tai.game import LAYOUT as L

    seat = snap["seats"][snap["current_player"]] if snap["current_player"] is not None else None
    if action < L["tidy"]:
        tile = seat["slots"][action - L["use"]] if seat else None
        if isinstance(tile, int):
            tier = D.TIER_OF[tile]
            parts = [f"{D.EFFECTS[e]}: {EFFECTS[D.EFFECTS[e]]}" for e in D.EDICT_EFFECTS[tile]]
            return (f"Tier {'I' * tier}: {TIERS['I' * tier]} " + " ".join(parts)
                    + f" Turn order: tile {tile}.")
        return TIERS["turn order"]
    if action < L["effect"]:
        return TIERS["tidy-up"]
    if action < L["flat"]:
        name = D.EFFECTS[action - L["effect"]]
        return EFFECTS[name]
    if action < L["reclaim"]:
        return EFFECTS["barren land cultivation"] + " " + GUIDE["fief"].paragraphs[0]
    if action < L["town"]:
        return EFFECTS["farmland reclamation"]
    if action < L["recruit"]:
        return EFFECTS["building a town"]
    if action < L["develop"]:
        pile = snap["piles"][action - L["recruit"]]
        if pile and isinstance(pile[0], int):
            name = D.TALENTS[pile[0]].name
            return f"{name}: {TALENTS[name]}"
        return EFFECTS["recruitment and development"]
    if action < L["build"]:
        i = action - L["develop"]
        if seat and i < len(seat["talents"]):
            name = D.TALENTS[seat["talents"][i][0]].name
            return f"{name}: {TALENTS[name]} " + EFFECTS["recruitment and development"]
        return EFFECTS["recruitment and development"]
    if action < L["amount"]:
        name = D.BUILDINGS[action - L["build"]].name
        return f"{name}: {BUILDINGS[name]}"
    if action < L["exchange"]:
        return EVENTS["season bonus"]
    if action < L["resource"]:
        return EVENTS["exchange"]
    if action < L["bonus_talent"]:
        return ""
    if action < L["bonus_building"]:
        name = D.TALENTS[action - L["bonus_talent"]].name
        return f"{name}: {TALENTS[name]}"
    if action < L["yes"]:
        name = D.BUILDINGS[action - L["bonus_building"]].name
        return f"{name}: {BUILDINGS[name]}"
    return ""
