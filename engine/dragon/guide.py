"""In the Year of the Dragon in our own words: the texts of `tianti rules dragon` and of
`explain` at the `tianti play` prompt, written from the rulebook (Portuguese, 10th Anniversary
edition with both expansions), ``dragon-components.md`` and ``RULES.md``; the numbers come from
``data.py`` so that a corrected value shows here too.

The entries are keyed by the names in ``data.py`` (KINDS, CARDS, EVENTS, SUPER_EVENTS,
WALL_BONUSES): a test lists those names and fails when one has no text here.
"""
from __future__ import annotations

from typing import Any

from engine.core.guide import Topic
from engine.dragon import data

_FEE = data.FEE_OCCUPIED_GROUP
_TRIBUTE = data.TRIBUTE_YUAN
_FIRST, _SECOND = data.FESTIVAL_VP

PERSONS: dict[str, str] = {
    "craftsman": "1 hammer. Each hammer adds a floor to the Build action. Young only; "
                 "2 person-track steps.",
    "court lady": "1 fan. Scores 1 VP at every month's end. Young only; 1 step.",
    "tax collector": "3 coins. Each adds 3 yuan to the Taxes action. Young only; 3 steps.",
    "pyrotechnist": "Rockets (young 1, old 2): each adds a fireworks tile to the Fireworks "
                    "action, for the dragon festival. Young 5 steps, old 3.",
    "warrior": "Helmets (young 1, old 2): each adds a step to the Military parade and counts "
               "against the Mongol invasion (1 VP per helmet; fewest helmets lose a person). "
               "Young 5 steps, old 3.",
    "monk": "Buddhas (young 1, old 2): at game end each buddha scores the number of floors of "
            "its palace. Young 6 steps, old 2.",
    "healer": "Mortars (young 1, old 2): each mortar saves one person from the contagion "
              "(which takes 3). Young 4 steps, old 1.",
    "farmer": "Rice bags (young 1, old 2): each adds a rice tile to the Harvest action, to feed "
              "palaces in a drought. Young 4 steps, old 1.",
    "scholar": "Books (young 2, old 3): each adds 1 VP to the Research action. "
               "Young 4 steps, old 2.",
}

ACTIONS: dict[str, str] = {
    "taxes": "Gain 2 yuan plus 3 per tax collector (3 coins each).",
    "build": "Gain 1 palace floor plus 1 per hammer (craftsmen). Place each floor on a palace "
             "(at most 3 floors) or start a new palace with it.",
    "harvest": "Gain 1 rice tile plus 1 per rice bag (farmers). Rice feeds your inhabited "
               "palaces in a drought.",
    "fireworks": "Gain 1 fireworks tile plus 1 per rocket (pyrotechnists), for the dragon "
                 "festival (and 2 yuan each at game end).",
    "military parade": "Move your person marker 1 step plus 1 per helmet (warriors): further "
                       "ahead acts first and wins ties.",
    "research": "Gain 1 VP plus 1 per book (scholars).",
    "privilege": f"Buy a privilege: small for {data.PRIVILEGE_SMALL_COST} yuan (1 dragon) or "
                 f"large for {data.PRIVILEGE_LARGE_COSTS[0]} yuan (2 dragons; "
                 f"{data.PRIVILEGE_LARGE_COSTS[1]} in the 2007 edition). Every month's end each "
                 "dragon scores 1 VP for the rest of the game.",
    "build the wall": "Great Wall: place one of your six wall tiles on the next section of "
                      "the wall (12 at most) and take its printed bonus at once.",
    "no action": f"Take no action card: take money up to {data.TOPUP_TO} yuan.",
}

EVENTS: dict[str, str] = {
    "peace": "Nothing happens (months 1 and 2 are always peace).",
    "imperial tribute": f"Each player pays {_TRIBUTE} yuan and releases 1 person for each yuan "
                        "missing.",
    "drought": "Each inhabited palace needs 1 rice tile; you choose which palaces go without "
               "if you are short, and each of those releases 1 person.",
    "contagion": f"Each player releases {data.CONTAGION_RELEASES} persons, 1 fewer per mortar "
                 "(healers).",
    "mongol invasion": "Each player scores 1 VP per helmet (warriors); the player(s) with the "
                       "fewest helmets, zero included, release 1 person. With the Great Wall, "
                       "the wall is scored after it.",
    "dragon festival": f"Players with at least one fireworks tile take part: the most tiles "
                       f"score {_FIRST} VP, the next count below {_SECOND} VP (ties share); "
                       "each scorer returns half its tiles, rounded up.",
}

SUPER_EVENTS: dict[str, str] = {
    "lantern festival": f"Every player scores {data.FINAL_VP_PER_PERSON} VP per person, as at "
                        "game end.",
    "buddha": "Every player scores its monks as at game end: buddhas x floors of the palace.",
    "earthquake": f"In person-track order each player removes {data.EARTHQUAKE_FLOORS} palace "
                  "floors of its choice; a palace left with more persons than floors releases "
                  "the extra ones.",
    "flood": "In person-track order each player discards half of its yuan + rice + fireworks "
             "tiles together (rounded down), in any mix.",
    "solar eclipse": "Month 7's event happens a second time.",
    "volcanic eruption": "Every person marker goes back to step 0 of the person track, keeping "
                         "the acting order (the leader on top of the stack).",
    "tornado": f"Each player discards {data.TORNADO_CARDS} person cards of its choice (so "
               "months 10 to 12 have no card left to play).",
    "sunrise": "In person-track order each player takes a young person from the display, no "
               "card needed, of a kind nobody took in this sunrise, houses it and moves its "
               "marker.",
    "assassination attempt": "Every player loses all its privileges, without compensation, "
                             "before month 7 is scored.",
    "contract": "In person-track order each player picks a kind of person it has and gains "
                "what those persons' symbols give (farmers rice, scholars VP per book, monks "
                "buddhas x floors ...), without the action card's base amount.",
}

WALL: dict[str, str] = {
    "3 person-track steps": f"Move your person marker {data.WALL_BONUS_STEPS} steps.",
    "1 rice": "Take 1 rice tile.",
    "1 palace floor": "Add 1 floor to a palace (or start a new one).",
    "2 yuan": f"Take {data.WALL_BONUS_YUAN} yuan.",
    "1 fireworks tile": "Take 1 fireworks tile.",
    "3 VP": f"Score {data.WALL_BONUS_VP} VP.",
}

GUIDE: dict[str, Topic] = {
    "overview": Topic(
        "In the Year of the Dragon: overview",
        "what the game is about and how it is won",
        (
            "2 to 5 players rule Chinese provinces for the 12 months of a year. Every month "
            "brings an event, known from the start, that costs persons (tribute, drought, "
            "contagion, Mongols) or rewards preparation (the dragon festival). You house "
            "persons in palaces; their symbols make your actions stronger and protect you from "
            "the events. Whoever has the most victory points (VP) after the final scoring wins; "
            "ties go to the player further ahead on the person track.",
            "Topics: setup, month, actions, persons, events, super-events, wall, scoring.",
        ),
    ),
    "setup": Topic(
        "Setup",
        "what each player starts with; the starting draft",
        (
            f"Each player starts with {len(data.START_PALACES)} palaces of "
            f"{data.START_PALACES[0]} floors, {data.START_YUAN} yuan, 0 VP, and 11 person "
            "cards: one per kind of person and 2 wildcards. The 12 event tiles lie in a row: "
            "peace in months 1 and 2, the other ten shuffled (never two equal ones side by "
            "side).",
            "Starting draft: in seat order each player takes two young persons of different "
            "kinds (not the same pair as another player), moves its person marker by their "
            "steps and houses them: one in each palace, or both in one palace (the other then "
            "stays empty and loses a floor at each decay, but needs no rice in a drought).",
        ),
    ),
    "month": Topic(
        "A month (a turn)",
        "the phases of each of the 12 months",
        (
            "1. Action: the action cards are shuffled into groups (one group per player). In "
            "person-track order, each player puts its dragon on a group and takes one card of "
            f"it. A group another dragon already holds costs {_FEE} yuan to join. Instead of a "
            f"card a player may take money up to {data.TOPUP_TO} yuan.",
            "2. Person: in person-track order, each player plays one of its person cards and "
            "recruits a person of that kind from the display (a wildcard: any kind; young or "
            "old for the kinds that have both), houses it on an empty floor and moves its "
            "marker by the person's steps. With every palace full, replace a person or let the "
            "newcomer go. Month 12 has no person phase (11 cards for 11 months).",
            "3. Event: the month's event happens (see events); in month 7 the super event "
            "follows if playing with it.",
            "4. Decay: each uninhabited palace loses a floor (a 1-floor palace disappears).",
            "5. Scoring: 1 VP per palace, per court lady and per privilege dragon.",
        ),
    ),
    "actions": Topic(
        "The actions",
        "the action cards: what each gives",
        ("Each card gives its base amount plus one per matching symbol on your persons.",),
        ACTIONS,
    ),
    "persons": Topic(
        "The persons",
        "the nine kinds of person, their symbols and steps",
        (
            "Each person shows symbols of its kind and the steps the person marker moves when "
            "it is placed. Five kinds come young (fewer symbols, more steps) and old (more "
            "symbols, fewer steps); craftsman, court lady and tax collector only young. At "
            f"game end each person scores {data.FINAL_VP_PER_PERSON} VP.",
        ),
        PERSONS,
    ),
    "events": Topic(
        "The events",
        "the six monthly events",
        ("Where players choose (who to release, which palace goes unfed), they do so in "
         "person-track order. Releasing a person removes it from the game.",),
        EVENTS,
    ),
    "super-events": Topic(
        "The super events (expansion II)",
        "the ten super events of month 7",
        ("One super event, drawn at random (or chosen: -o super_event=NAME), happens in month "
         "7 after the month's event, before decay and scoring.",),
        SUPER_EVENTS,
    ),
    "wall": Topic(
        "The Great Wall (expansion I)",
        "the eighth action card and the six wall tiles",
        (
            "The 'build the wall' card joins the action cards. Each player has six wall tiles "
            "with different bonuses; building places one on the next of 12 wall sections and "
            "gives its bonus.",
            "After each Mongol invasion: if the wall has reached that month's tile, each "
            "builder scores 1 VP per tile it placed; if not, the player(s) with the fewest "
            "tiles (zero included) release 1 person. After month 12 the same with the full "
            "wall of 12 sections.",
        ),
        WALL,
    ),
    "scoring": Topic(
        "Final scoring",
        "how the game ends",
        (
            f"After month 12: {data.FINAL_VP_PER_PERSON} VP per person; each monk scores its "
            f"buddhas x its palace's floors; rice and fireworks tiles sell for "
            f"{data.FINAL_SALE_PRICE} yuan each; then 1 VP per {data.FINAL_YUAN_PER_VP} yuan. "
            "Ties: further ahead on the person track wins.",
        ),
    ),
}

LEGEND = """In the Year of the Dragon: the board's words
  Month M of 12, event: the event at this month's end; next: the months after
    it. Before month 1: "Events by month", every month's event.
  super event in month 7 (expansion): its extra event; Great Wall: the wall's
    sections built so far, of 12.
  Action groups: the action cards of this month by group; "(taken)": a dragon
    is already there, so joining costs 3 yuan; "taken 2x": two dragons.
  Person track: each player's steps; further ahead acts first (acting order).
  Persons left (young/old): tiles on the display, young/old for split kinds.
  P0 you: VP, yuan, rice, fireworks tiles; privileges: small (1 dragon) and
    large (2 dragons), each dragon 1 VP per month; "<- to move": deciding now.
  palace N (F floors): who lives there; "empty" is a free floor.
  cards: your person cards left; a wildcard recruits any kind.
  A "* " before a line: it changed since your last decision.
The full board (`board`, the game's end, `tianti watch` and `replay`) adds:
  Events: all twelve months, [this month] in brackets.
  Wall: sections built of 12, with who built each; wall tiles left: a player's
    unused wall tiles (Great Wall).
  Persons on display: the tiles left, young and old apart.
  Player N: the same numbers, "track T": steps on the person track.
  palace N (F floors), cards: as above, for every player.
  Now: who decides what; Final: the final scores."""


def choice_group(snap: dict[str, Any], action: int) -> tuple[str, str] | None:
    """For a long list of choices, which `tianti play` shows grouped so that the board stays
    in view: the heading of `action`'s group and its short label under it (None: the choice
    is shown whole). Recruiting with a card or with a wildcard, one person type each."""
    from engine.dragon.game import LAYOUT as L
    from engine.dragon.text import type_name

    if L["play"] <= action < L["play_empty"]:
        return "recruit with its card", type_name(action - L["play"])
    if L["wild"] <= action < L["wild_empty"]:
        return "recruit with a wildcard", type_name(action - L["wild"])
    return None


def explain_action(snap: dict[str, Any], action: int) -> str:
    """The guide's paragraph on the choice `action` of the player to move in `snap`."""
    from engine.dragon.game import LAYOUT as L

    if action < L["card"]:
        return GUIDE["setup"].paragraphs[1]
    if action < L["privilege_small"]:
        name = data.CARDS[action - L["card"]][0]
        return ACTIONS[name] + f" Joining a taken group costs {_FEE} yuan."
    if action < L["wall"]:
        return ACTIONS["privilege"]
    if action < L["topup"]:
        bonus = data.WALL_BONUSES[action - L["wall"]]
        return ACTIONS["build the wall"] + " This tile: " + WALL[bonus]
    if action == L["topup"]:
        return ACTIONS["no action"]
    if action < L["play"]:
        return ACTIONS["build"]
    if action < L["replace"]:
        kind = None
        if action < L["play_empty"]:
            kind = data.TYPES[action - L["play"]].kind
        elif L["wild"] <= action < L["wild_empty"]:
            kind = data.TYPES[action - L["wild"]].kind
        elif L["place"] <= action and snap.get("pending_type") is not None:
            kind = data.TYPES[snap["pending_type"]].kind
        if kind is not None:
            return f"{data.KINDS[kind].name}: {PERSONS[data.KINDS[kind].name]}"
        return GUIDE["month"].paragraphs[1]
    if action < L["quake"]:
        return ("Releasing a person removes it from the game; the events and full palaces "
                "make you choose whom.")
    if action < L["flood"]:
        return SUPER_EVENTS["earthquake"]
    if action < L["tornado"]:
        return SUPER_EVENTS["flood"]
    if action < L["sunrise"]:
        return SUPER_EVENTS["tornado"]
    if action < L["contract"]:
        return SUPER_EVENTS["sunrise"]
    if action < L["start"]:
        return SUPER_EVENTS["contract"]
    return GUIDE["setup"].paragraphs[1]
