"""In the Year of the Dragon: the rule events as Python reads them.

The compiled rules (rules.pyx) emit raw events whose kind ids are the `EVK_*` enum of
`events.pxd`; `EVENT_TABLE` names them, in the same order, with their amounts and a one-line
text in a player's words. Seats are shown as "P0".."P4"; months, palaces and groups are counted
from 1, as players count them.
"""
from __future__ import annotations

from typing import Any, Callable

from engine.core.events import EventKind, EventTable
from engine.dragon import data

Ctx = dict[str, Any]

# Cause codes (events.pxd): the event tiles (EV_*), then the super events, then the others.
CAUSES: tuple[str, ...] = (
    data.EVENTS
    + data.SUPER_EVENTS
    + (
        "great wall",             # CAUSE_WALL: the wall scoring after a Mongol invasion
        "great wall final",       # CAUSE_WALL_FINAL: the wall scoring after month 12
        "month scoring",
        "final scoring",
        "full palaces",           # recruiting with every palace full
        "decay",
    )
)
CAUSE_SUPER = len(data.EVENTS)
CARD_NAMES: tuple[str, ...] = tuple(name for name, _ in data.CARDS)
PRIVILEGE = CARD_NAMES.index("privilege")
WALL_CARD = CARD_NAMES.index("build the wall")


def _n(count: int, word: str, plural: str | None = None) -> str:
    """'1 person', '2 persons' (or `plural`)."""
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def _person(t: int) -> str:
    return data.TYPES[t].name if 0 <= t < len(data.TYPES) else f"person type {t}"


def _a_person(t: int) -> str:
    """'a young monk', 'an old warrior'."""
    name = _person(t)
    return ("an " if name[0] in "aeiou" else "a ") + name


def _kind(k: int) -> str:
    return data.KINDS[k].name if 0 <= k < len(data.KINDS) else f"person kind {k}"


def _kinds(k: int) -> str:
    """The plural of a person kind: 'craftsmen', 'court ladies', 'monks'."""
    name = _kind(k)
    if name.endswith("man"):
        return name[:-3] + "men"
    if name.endswith("y"):
        return name[:-1] + "ies"
    return name + "s"


def _card(c: int) -> str:
    return CARD_NAMES[c] if 0 <= c < len(CARD_NAMES) else f"card {c}"


def _event(e: int) -> str:
    return data.EVENTS[e] if 0 <= e < len(data.EVENTS) else f"event tile {e}"


def _super(e: int) -> str:
    return data.SUPER_EVENTS[e] if 0 <= e < len(data.SUPER_EVENTS) else f"super event {e}"


def _cards(mask: int) -> str:
    return ", ".join(_card(c) for c in range(len(CARD_NAMES)) if (mask >> c) & 1) or "no cards"


# -- texts that need more than a template ----------------------------------------------------


def _month(c: Ctx) -> str:
    text = f"Month {c['month']} begins: {_event(c['event'])}"
    if c["super_event"] >= 0:
        text += f", then the super event {_super(c['super_event'])}"
    return text


def _card_text(c: Ctx) -> str:
    card, amount, symbols, extra = c["card"], c["amount"], c["from_persons"], c["extra"]
    if card == PRIVILEGE:
        size = "large" if amount == 2 else "small"
        return f"{c['who']} buys a {size} privilege ({_n(amount, 'dragon')}) for {extra} yuan"
    if card == WALL_CARD:
        return (f"{c['who']} builds Great Wall section {amount} and takes its bonus: "
                f"{data.WALL_BONUSES[extra] if 0 <= extra < len(data.WALL_BONUSES) else extra}")
    what = _n(amount, *{0: ("yuan", "yuan"), 1: ("palace floor to place", "palace floors to place"),
                        2: ("rice", "rice"), 3: ("fireworks tile", None),
                        4: ("step on the person track", "steps on the person track")}.get(
                            card, ("", "")))
    return (f"{c['who']} takes {_card(card)}: {what} "
            f"({amount - symbols} from the card + {symbols} from its persons)")


def _topup(c: Ctx) -> str:
    if c["gained"] == 0:  # 3 yuan or more already: the top-up gives nothing
        return f"{c['who']} takes no action and keeps its {c['yuan']} yuan (nothing to top up)"
    return f"{c['who']} takes no action: money topped up by {c['gained']} to {c['yuan']} yuan"


def _tribute(c: Ctx) -> str:
    text = f"{c['who']} pays {c['paid']} yuan imperial tribute"
    if c["missing"]:
        text += f", {c['missing']} short: must release {_n(c['missing'], 'person')}"
    return text + f" ({c['yuan_left']} yuan left)"


def _drought(c: Ctx) -> str:
    if c["inhabited"] == 0:
        return f"{c['who']} has no inhabited palace to supply in the drought"
    if c["unsupplied"] == 0:
        return (f"{c['who']} gives {c['rice_paid']} rice for "
                f"{_n(c['inhabited'], 'inhabited palace')} in the drought "
                f"({c['rice_left']} rice left)")
    return (f"{c['who']} has {c['rice_paid']} rice for {_n(c['inhabited'], 'inhabited palace')} "
            f"in the drought: {_n(c['unsupplied'], 'palace')} unsupplied, each releases a person")


def _contagion(c: Ctx) -> str:
    if c["releases"] == 0:
        return f"{c['who']}'s {_n(c['mortars'], 'mortar')} hold off the contagion"
    return (f"{c['who']} must release {_n(c['releases'], 'person')} to the contagion "
            f"({_n(c['mortars'], 'mortar')})")


def _festival(c: Ctx) -> str:
    if c["most"] == 0:
        return "Dragon festival: nobody has fireworks, nobody scores"
    text = (f"Dragon festival: {_n(c['at_most'], 'player')} with the most fireworks "
            f"({c['most']}) score 6 VP")
    if c["second"] > 0:
        text += f", {_n(c['at_second'], 'player')} with {c['second']} score 3 VP"
    return text


def _release(c: Ctx) -> str:
    where = "the newcomer" if c["palace"] == 0 else f"from palace {c['palace']}"
    text = f"{c['who']} releases {_a_person(c['person'])} ({where}, {c['cause']})"
    if c["still_owed"] > 0:
        text += f", {c['still_owed']} more to release"
    return text


def _wall_scoring(c: Ctx) -> str:
    when = "at the game's end" if c["cause"] == "great wall final" else "after the Mongols"
    built = f"{_n(c['built'], 'section')} built, {c['needed']} needed"
    if c["reached"]:
        return f"Great Wall scored {when}: {built}: 1 VP per section to its builders"
    return f"Great Wall scored {when}: {built}: the fewest builders release a person"


def _wall_fewest(c: Ctx) -> str:
    where = "at the game's end" if c["cause"] == "great wall final" else "after the Mongols"
    return (f"{c['who']} built the fewest wall sections ({c['sections']}) {where}: must release "
            f"{_n(c['releases'], 'person')}")


def _floor_lost(c: Ctx) -> str:
    why = "the earthquake takes a floor from" if c["cause"] != "decay" else "decay: empty"
    if c["gone"]:
        return f"{c['who']}: {why} palace {c['palace']}, which is gone"
    return f"{c['who']}: {why} palace {c['palace']} loses a floor ({c['floors_left']} left)"


def _contract(c: Ctx) -> str:
    what = {0: ("palace floor to place", "palace floors to place"), 2: ("yuan", "yuan"),
            3: ("fireworks tile", None), 4: ("step on the person track", None),
            7: ("rice", "rice")}.get(c["kind_chosen"])
    if what is None:
        return f"{c['who']} picks its {_kinds(c['kind_chosen'])} in the contract: nothing to gain"
    return (f"{c['who']} picks its {_kinds(c['kind_chosen'])} in the contract: "
            f"{_n(c['amount'], *what)}")


def _final_rank(c: Ctx) -> str:
    place = {1: "1st", 2: "2nd", 3: "3rd"}.get(c["place"], f"{c['place']}th")
    text = f"{c['who']} finishes {place} with {c['score']} VP"
    if c["tied"] > 1:
        text += (f" (tied on VP with {c['tied'] - 1} more: the person track, space "
                 f"{c['track']}, decides)")
    return text


def _vp(how: Callable[[Ctx], str]) -> Callable[[Ctx], str]:
    """A VP event's text: '<who> +<vp> VP <how>, <score> in all'."""
    return lambda c: f"{c['who']} +{c['vp']} VP {how(c)} ({c['score']} in all)"


def _vp_festival(c: Ctx) -> str:
    rank = "most" if c["vp"] == data.FESTIVAL_VP[0] else "second most"
    return (f"dragon festival: {rank} fireworks ({_n(c['fireworks'], 'tile')}), "
            f"returns {_n(c['returned'], 'tile')}")


def _vp_wall(c: Ctx) -> str:
    when = "at the game's end" if c["cause"] == "great wall final" else "after the Mongols"
    return f"Great Wall {when}: {_n(c['sections'], 'section')}"


def _vp_super(c: Ctx) -> str:
    if c["cause"] == "lantern festival":
        return f"lantern festival: {_n(c['detail'], 'person')}"
    if c["cause"] == "buddha":
        return f"buddha: {_n(c['detail'], 'monk')} (buddhas x floors)"
    if c["cause"] == "contract":
        kind = c["detail"]
        sym = {1: "fan", 5: "buddha", 8: "book"}.get(kind, "symbol")
        extra = " x floors" if kind == 5 else ""
        return f"contract: its {_kinds(kind)}, {_n(c['symbols'], sym)}{extra}"
    return f"super event {c['cause']}"


def _vp_money(c: Ctx) -> str:
    return (f"final scoring: {c['yuan']} yuan (after selling {_n(c['sold'], 'tile')} "
            f"of rice and fireworks for 2 each), 1 VP per 3")


# -- the table, in events.pxd order ----------------------------------------------------------

KINDS: tuple[EventKind, ...] = (
    EventKind("setup", ("yuan", "palaces", "floors", "cards"),
              "Setup: each player takes {yuan} yuan, {palaces} palaces of {floors} floors and "
              "{cards} person cards"),
    EventKind("event_tile", ("month", "event"),
              lambda c: f"Event row: month {c['month']} is {_event(c['event'])}"),
    EventKind("super_event_set", ("super_event", "drawn"),
              lambda c: f"Super event on month 7: {_super(c['super_event'])} "
                        f"({'drawn at random' if c['drawn'] else 'chosen'})"),
    EventKind("month", ("month", "event", "super_event"), _month),
    EventKind("group", ("group", "cards", "count"),
              lambda c: f"Action group {c['group']}: {_cards(c['cards'])}"),
    EventKind("fee", ("yuan", "card", "group"),
              lambda c: f"{c['who']} pays {c['yuan']} yuan to join group {c['group']} "
                        f"({_card(c['card'])}), which already holds a dragon"),
    EventKind("topup", ("gained", "yuan"), _topup),
    EventKind("card", ("card", "amount", "from_persons", "extra"), _card_text),
    EventKind("tribute", ("paid", "missing", "yuan_left"), _tribute),
    EventKind("drought", ("inhabited", "rice_paid", "unsupplied", "rice_left"), _drought),
    EventKind("contagion", ("mortars", "releases"), _contagion),
    EventKind("mongol_fewest", ("helmets", "releases"),
              lambda c: f"{c['who']} has the fewest helmets ({c['helmets']}) against the "
                        f"Mongols: must release {_n(c['releases'], 'person')}"),
    EventKind("festival", ("most", "second", "at_most", "at_second"), _festival),
    EventKind("eclipse", ("event",),
              lambda c: f"Solar eclipse: the {_event(c['event'])} happens a second time"),
    EventKind("release", ("person", "palace", "still_owed"), _release),
    EventKind("wall_scoring", ("built", "needed", "reached"), _wall_scoring),
    EventKind("wall_fewest", ("sections", "releases"), _wall_fewest),
    EventKind("super_event", ("super_event",),
              lambda c: f"Super event: {_super(c['super_event'])}"),
    EventKind("privileges_lost", ("small", "large"),
              lambda c: f"{c['who']} loses {_n(c['small'], 'small privilege')} and "
                        f"{_n(c['large'], 'large privilege')} to the assassination attempt"),
    EventKind("volcano", ("track", "place"),
              lambda c: f"{c['who']}'s person marker goes from space {c['track']} to 0 in the "
                        f"eruption, keeping place {c['place']} in the order"),
    EventKind("quake_due", ("floors", "has"),
              lambda c: f"{c['who']} must remove {_n(c['floors'], 'palace floor')} in the "
                        f"earthquake (has {_n(c['has'], 'floor')})"),
    EventKind("floor_lost", ("palace", "floors_left", "gone"), _floor_lost),
    EventKind("flood_due", ("total", "discards"),
              lambda c: f"{c['who']} must discard {c['discards']} of its {c['total']} yuan, "
                        f"rice and fireworks in the flood"),
    EventKind("tornado_due", ("cards", "discards"),
              lambda c: f"{c['who']} must discard {_n(c['discards'], 'person card')} of "
                        f"{c['cards']} in the tornado"),
    EventKind("contract", ("kind_chosen", "amount"), _contract),
    EventKind("final_rank", ("place", "score", "track", "tied"), _final_rank),
    # Victory points, one kind per score source (data.SCORE_SOURCES), each carrying `vp`.
    EventKind("vp_research", ("vp", "books", "base", "score"),
              _vp(lambda c: f"research: {c['base']} + {_n(c['books'], 'book')}"), points="vp"),
    EventKind("vp_festival", ("vp", "fireworks", "returned", "score"), _vp(_vp_festival),
              points="vp"),
    EventKind("vp_mongol", ("vp", "helmets", "unused", "score"),
              _vp(lambda c: f"Mongol invasion: {_n(c['helmets'], 'helmet')}"), points="vp"),
    EventKind("vp_palaces", ("vp", "palaces", "unused", "score"),
              _vp(lambda c: f"month scoring: {_n(c['palaces'], 'palace')}"), points="vp"),
    EventKind("vp_court_ladies", ("vp", "fans", "unused", "score"),
              _vp(lambda c: f"month scoring: court ladies, {_n(c['fans'], 'fan')}"),
              points="vp"),
    EventKind("vp_privileges", ("vp", "small", "large", "score"),
              _vp(lambda c: f"month scoring: privileges ({c['small']} small, {c['large']} "
                            f"large)"), points="vp"),
    EventKind("vp_wall", ("vp", "sections", "unused", "score"), _vp(_vp_wall), points="vp"),
    EventKind("vp_wall_bonus", ("vp", "section", "unused", "score"),
              _vp(lambda c: f"wall tile bonus (section {c['section']})"), points="vp"),
    EventKind("vp_super_event", ("vp", "detail", "symbols", "score"), _vp(_vp_super),
              points="vp"),
    EventKind("vp_persons", ("vp", "persons", "unused", "score"),
              _vp(lambda c: f"final scoring: {_n(c['persons'], 'person')}"), points="vp"),
    EventKind("vp_monks", ("vp", "monks", "unused", "score"),
              _vp(lambda c: f"final scoring: {_n(c['monks'], 'monk')} (buddhas x floors)"),
              points="vp"),
    EventKind("vp_money", ("vp", "yuan", "sold", "score"), _vp(_vp_money), points="vp"),
)

# The VP kinds follow the score sources one to one (EVK_VP_RESEARCH + SRC_*).
VP_KINDS: tuple[str, ...] = tuple(k.name for k in KINDS if k.points == "vp")
assert len(VP_KINDS) == len(data.SCORE_SOURCES)

EVENT_TABLE = EventTable(kinds=KINDS, causes=CAUSES)
