"""In the Year of the Dragon: every printed value the rules read.

Sources: the rulebook (``shared/rules/year-of-the-dragon-rulebook-pt.txt``, 10th Anniversary
edition with both expansions) and the component data page (``shared/rules/dragon-components.md``)
for the numbers printed on the pieces. ``rules.pyx`` copies these tables into C arrays at import,
so a value changed here changes the compiled engine; the numbering of kinds, cards, events and
bonuses must match the enums in ``state.pxd`` (a test checks it).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class PersonKind:
    """A kind of person: its symbol and what its young/old tiles show."""

    name: str
    colour: str
    symbol: str
    young_symbols: int
    young_value: int
    old_symbols: int | None  # None: the kind comes young only
    old_value: int | None


# components.md, "Person tiles (9 kinds)". Index = KIND_* in state.pxd.
KINDS: tuple[PersonKind, ...] = (
    PersonKind("craftsman", "beige", "hammer", 1, 2, None, None),
    PersonKind("court lady", "orange", "fan", 1, 1, None, None),
    PersonKind("tax collector", "yellow", "coin", 3, 3, None, None),
    PersonKind("pyrotechnist", "purple", "rocket", 1, 5, 2, 3),
    PersonKind("warrior", "red", "helmet", 1, 5, 2, 3),
    PersonKind("monk", "brown", "buddha", 1, 6, 2, 2),
    PersonKind("healer", "blue", "mortar", 1, 4, 2, 1),
    PersonKind("farmer", "green", "rice bag", 1, 4, 2, 1),
    PersonKind("scholar", "white", "book", 2, 4, 3, 2),
)
N_KINDS = len(KINDS)


@dataclass(frozen=True)
class PersonType:
    """A person tile: a kind and an age. Type index: young = kind, old = kind + 6."""

    kind: int
    old: bool
    symbols: int
    value: int  # person-track steps when placed

    @property
    def name(self) -> str:
        k = KINDS[self.kind]
        if k.old_symbols is None:
            return k.name
        return f"{'old' if self.old else 'young'} {k.name}"


def _types() -> tuple[PersonType, ...]:
    young = [PersonType(i, False, k.young_symbols, k.young_value) for i, k in enumerate(KINDS)]
    old = [
        PersonType(i, True, k.old_symbols, k.old_value)
        for i, k in enumerate(KINDS)
        if k.old_symbols is not None
    ]
    return tuple(young + old)


TYPES: tuple[PersonType, ...] = _types()
N_TYPES = len(TYPES)
SPLIT_KINDS = tuple(i for i, k in enumerate(KINDS) if k.old_symbols is not None)


def tiles_per_type(players: int) -> list[int]:
    """Person tiles on the display at the start (rulebook, setup note; components.md).

    Unsplit kinds have 2N tiles; split kinds N+1 young and N-1 old.
    """
    counts = []
    for t in TYPES:
        if KINDS[t.kind].old_symbols is None:
            counts.append(2 * players)
        else:
            counts.append(players - 1 if t.old else players + 1)
    return counts


# Starting draft: unordered pairs of distinct kinds, index = position in this list.
DRAFT_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(N_KINDS), 2))

# Person cards: one per kind plus two wildcards ("?").
WILDCARDS = 2

# Setup (rulebook, "Cada jogador recebe"): 2 palaces of 2 floors, 6 yuan.
START_YUAN = 6
START_PALACES = (2, 2)

# Action cards, index = CARD_*: name and the base amount printed on the card.
CARDS: tuple[tuple[str, int], ...] = (
    ("taxes", 2),  # 2 coins
    ("build", 1),  # 1 hammer
    ("harvest", 1),  # 1 rice bag
    ("fireworks", 1),  # 1 rocket
    ("military parade", 1),  # 1 helmet
    ("research", 1),  # 1 book
    ("privilege", 0),
    ("build the wall", 0),  # Great Wall expansion
)
# Which kind's symbols add to each card's base amount (None: none).
CARD_KIND: tuple[int | None, ...] = (2, 0, 7, 3, 4, 8, None, None)

FEE_OCCUPIED_GROUP = 3  # yuan to enter a group that already holds a dragon
TOPUP_TO = 3  # "no action": take money up to 3 yuan
PRIVILEGE_SMALL_COST = 2
PRIVILEGE_LARGE_COSTS = (7, 6)  # 10th Anniversary (default), 2007 edition

# Group sizes after the monthly shuffle (components.md), by players, without / with the wall card.
GROUP_SIZES: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    2: ((4, 3), (4, 4)),
    3: ((3, 2, 2), (3, 3, 2)),
    4: ((2, 2, 2, 1), (2, 2, 2, 2)),
    5: ((2, 2, 1, 1, 1), (2, 2, 2, 1, 1)),
}

# Events, index = EV_*; the row holds 2 Peace tiles first, then 2 of each other kind shuffled.
EVENTS: tuple[str, ...] = (
    "peace",
    "imperial tribute",
    "drought",
    "contagion",
    "mongol invasion",
    "dragon festival",
)
EVENT_TILES_AFTER_PEACE = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
TRIBUTE_YUAN = 4
CONTAGION_RELEASES = 3
FESTIVAL_VP = (6, 3)

# Great Wall tiles, index = WB_*: the bonus printed on each of a player's six tiles.
WALL_BONUSES: tuple[str, ...] = (
    "3 person-track steps",
    "1 rice",
    "1 palace floor",
    "2 yuan",
    "1 fireworks tile",
    "3 VP",
)
WALL_BONUS_STEPS = 3
WALL_BONUS_YUAN = 2
WALL_BONUS_VP = 3

# Super events, index = SE_*, as named in the rulebook.
SUPER_EVENTS: tuple[str, ...] = (
    "lantern festival",
    "buddha",
    "earthquake",
    "flood",
    "solar eclipse",
    "volcanic eruption",
    "tornado",
    "sunrise",
    "assassination attempt",
    "contract",
)
SUPER_EVENT_MONTH = 7
EARTHQUAKE_FLOORS = 2
TORNADO_CARDS = 2

# Game end: 2 VP per person; rice and fireworks sell for 2 yuan each; 1 VP per 3 yuan.
FINAL_VP_PER_PERSON = 2
FINAL_SALE_PRICE = 2
FINAL_YUAN_PER_VP = 3

SCORE_SOURCES: tuple[str, ...] = (
    "research",
    "dragon festival",
    "mongol invasion",
    "palaces",
    "court ladies",
    "privileges",
    "great wall",
    "wall tile bonus",
    "super event",
    "persons",
    "monks",
    "money",
)

FLOOD_RESOURCES = ("yuan", "rice", "fireworks")
