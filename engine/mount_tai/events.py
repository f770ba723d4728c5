"""Mount Tai's rule events: what each kind id of events.pxd means, and its line of text.

The compiled rules emit raw events (kind, seat, cause, a, b, c, d; engine/core/eventlog.pxd);
`EVENT_TABLE` names them in the order of the `EV_*` enum of events.pxd (a test checks the two
agree) and words them as a player would, with the English names of data.py. The kinds whose
`points` is "reputation" carry every change of a seat's reputation, so that a seat's events sum
to its final reputation (`State.scores()`).
"""
from __future__ import annotations

from typing import Any

from engine.core.events import EventKind, EventTable
from engine.mount_tai import data

VIRTUAL_SEAT = 4  # the virtual player's id (state.pxd VIRTUAL) as an event's seat

TALENT_NAMES = tuple(t.name for t in data.TALENTS)
BUILDING_NAMES = tuple(b.name for b in data.BUILDINGS)
PRAISE_NAMES = tuple(p.name for p in data.PRAISES)
TUTOR_NAMES = data.TUTORS
LAYOUT_NAMES = ("pyramid", "stacks", "steps")
PILE_NAMES = ("green", "yellow", "blue", "red 1", "red 2")  # as the choices and the board name them
CELL_START = ("barren", "settlement", "farmland", "town", "ascent")
ORDINALS = ("1st", "2nd", "3rd", "4th")
TIERS = ("", "I", "II", "III")

# Reasons of "tutor reputation" (events.pxd TR_*), as "{who} {rep} reputation: <reason>".
TUTOR_REASONS = (
    "Master Builder toll for building the marked {building} (paid to P{other})",
    "Master Builder toll from P{other} for the marked {building}",
    "Scholar teaching (P{other} took a study marker)",
    "donation track reached space {count}",
    "Philanthropist: P{other} reached donation space {count}",
    "Commander: taken by P{other}",
    "Commander: taken from P{other}",
    "{count} study marker(s) at game end",
    "conspirator target: most {target}",
    "furthest on the donation track ({count}) at game end",
)


def seat_name(seat: int) -> str:
    """"P0".."P3", or "virtual player" for the solo opponent."""
    return "virtual player" if seat == VIRTUAL_SEAT else f"P{seat}"


def res(kind: int) -> str:
    return data.RESOURCES[kind] if 0 <= kind < len(data.RESOURCES) else f"resource {kind}"


def signed(n: int) -> str:
    return f"{n:+d}"


def event_tile(tile: int) -> str:
    """An event tile in words: colour and printed reward."""
    if not 0 <= tile < len(data.EVENT_TILES):
        return f"event tile {tile}"
    e = data.EVENT_TILES[tile]
    colour = data.EVENT_COLOURS[e.colour]
    if e.kind == data.EV_EXCHANGE:
        return f"the {colour} exchange event (money for grain, or grain for money)"
    if e.kind == data.EV_ZERO:
        return f"the {colour} tile 0 (nothing)"
    return f"the {colour} event {e.amount:+d} {data.EVENT_TYPES[e.kind]}"


def edict(tile: int) -> str:
    """An edict tile: its number, tier and effects."""
    if tile not in data.TIER_OF:
        return f"edict {tile}"
    effects = " / ".join(data.EFFECTS[e] for e in data.EDICT_EFFECTS[tile])
    return f"edict {tile} [{TIERS[data.TIER_OF[tile]]}] ({effects})"


def _name(names: tuple[str, ...], i: int) -> str:
    return names[i] if 0 <= i < len(names) else str(i)


def skill(kind: int, level: int) -> str:
    """A talent's skill of one level, named and quoted from data.py."""
    if not 0 <= kind < len(data.TALENTS) or not 1 <= level <= 3:
        return f"talent {kind} level {level}"
    return f"{data.TALENTS[kind].name} level {level} ({data.TALENTS[kind].skills[level - 1]})"


def code(e: dict[str, Any], names: tuple[str, ...]) -> int:
    """The index of the event's cause (a name decoded by the table) in `names`; -1 if none."""
    try:
        return names.index(e["cause"])
    except ValueError:
        return -1


def _season(i: int) -> str:
    return data.SEASONS[i] if 0 <= i < 4 else f"season {i}"


def _mountain(e: dict) -> str:
    size = "large" if e["size"] == 3 else "small"
    return (f"setup: {size} mountain range tile {e['tile']} laid in quadrant {e['quadrant']}, "
            f"turned {e['turns']} quarter turn(s)")


def _start(e: dict) -> str:
    first = e["cause"]
    comp = f" and {e['reputation']} reputation (compensation)" if e["reputation"] else ""
    return (f"{e['who']} starts with {e['money']} money, {e['grain']} grain, {e['wine']} wine"
            f"{comp}; first {first} in the fief corner")


def _pile_top(e: dict) -> str:
    pile = _name(PILE_NAMES, e["pile"])
    if e["talent"] < 0:
        return f"the {pile} talent pile is empty"
    return (f"the {pile} talent pile shows the {_name(TALENT_NAMES, e['talent'])} face up "
            f"({e['cards']} card(s) in the pile)")


def _turn_order(e: dict) -> str:
    n = e["number"]
    number = "passed" if n == data.PASS_TILE_NUMBER else f"number {n}"
    if e["seat"] == VIRTUAL_SEAT and n == 0:
        number = "no tile"
    vanguard = ", the Vanguard's -1" if e["vanguard"] else ""
    return f"turn order {_name(ORDINALS, e['position'])}: {e['who']} ({number}{vanguard})"


def _event_flipped(e: dict) -> str:
    what = event_tile(e["tile"])
    if e["seat"] == VIRTUAL_SEAT:
        return f"virtual player flips {what} (and gains nothing)"
    return f"{e['who']} activates {what}"


def _reward(e: dict) -> str:
    bonus = " (season bonus +1 included)" if e["bonus"] else ""
    return f"{e['who']} {signed(e['amount'])} {res(e['resource'])} from the event{bonus}"


def _tidy(e: dict) -> str:
    low = e["lowest"]
    return (f"{e['who']} tidies up: {e['removed']} edict tile(s) removed, the lowest is "
            f"number {low}")


def _settle_building(e: dict) -> str:
    per = ""
    if e["tiles"]:
        per = f" ({e['tiles']} {'farmland' if e['resource'] == 1 else 'town(s)'})"
    return (f"{e['who']} seasonal settlement: {signed(e['amount'])} {res(e['resource'])} from "
            f"the {e['cause']}{per}")


def _settle_land(e: dict) -> str:
    what = "farmland" if e["cause"] == "farmland" else "town(s)"
    return (f"{e['who']} seasonal settlement: {signed(e['amount'])} {res(e['resource'])} from "
            f"{e['tiles']} {what}")


# Year one's 高矣 in the rulebook's words (Eight Praises): "If the player cultivates the 2nd
# layer of their personal fief through barren land cultivation" (data.py: layer 2 holds a tile;
# its measure is 2 then, 1 if not).
GAO_YI_YEAR1_NEEDS = "needs it cultivated through barren land cultivation"


def praise_terms(index: int, year: int, measure: int) -> tuple[str, str, str]:
    """Eight Praises tile `index` (data.PRAISES) scored in `year` (0: year one) with `measure`,
    in words: what it counts, the count, and the condition (year one) or rate (year two),
    without the reward. The one source of the praise event's text and the narration of
    `tianti play`. Year one's 高矣 counts no number but whether the 2nd layer is cultivated
    (records of the earlier reading, gao_yi_above_layer_1, paid the same way: measure 2+)."""
    p = data.PRAISES[index]
    if year != 0:
        return p.measure, str(measure), f"{p.year2_reputation} reputation per {p.year2_unit}"
    if index == data.PR_HEIGHT:
        return ("2nd layer", "cultivated" if measure >= p.year1_at_least else "not cultivated",
                GAO_YI_YEAR1_NEEDS)
    return p.measure, str(measure), f"needs {p.year1_at_least}"


def _praise(e: dict) -> str:
    i = code(e, PRAISE_NAMES)
    p = data.PRAISES[i] if 0 <= i < len(data.PRAISES) else None
    if p is None:
        return f"{e['who']} {signed(e['reputation'])} reputation: Eight Praises"
    measure, count, rule = praise_terms(i, e["year"], e["measure"])
    cond = f"{measure}: {count}, {rule}"
    return (f"{e['who']} {signed(e['reputation'])} reputation: Eight Praises {p.name} "
            f"({p.pinyin}; {cond})")


def _study(e: dict) -> str:
    if e["seat"] is None:
        return "nobody gained from the Eight Praises: the season's study marker is discarded"
    return (f"{e['who']} takes a study marker (Eight Praises gain {e['gain']}; "
            f"{e['markers']} held)")


def _tutor_rep(e: dict) -> str:
    reason = e["reason"]
    template = TUTOR_REASONS[reason] if 0 <= reason < len(TUTOR_REASONS) else "reason {reason}"
    text = template.format(
        other=e["other"], count=e["count"], reason=reason,
        building=_name(BUILDING_NAMES, e["count"]),
        target=_name(data.CONSPIRATOR_TARGETS, e["count"]),
    )
    return (f"{e['who']} {signed(e['reputation'])} reputation: "
            f"{e['cause']} ({text})")


def _final_result(e: dict) -> str:
    if e["goal"] >= 0:
        reached = "reached" if e["reached"] else "missed"
        return (f"game end: {e['who']} has {e['reputation']} reputation, goal {e['goal']} "
                f"{reached}")
    return (f"game end: {e['who']} finishes {_name(ORDINALS, e['rank'])} with "
            f"{e['reputation']} reputation")


KINDS: tuple[EventKind, ...] = (
    EventKind("mountain_tile", ("quadrant", "tile", "turns", "size"), _mountain),
    EventKind("event_tile", ("round", "space", "tile"),
              lambda e: f"setup: {event_tile(e['tile'])} lies on round {e['round'] + 1} of "
                        f"each year"),
    EventKind("season_bonus", ("season", "type"),
              lambda e: f"setup: the {_season(e['season'])} event bonus tile is "
                        f"{data.EVENT_TYPES[e['type']]} (+1)"),
    EventKind("praise_tile", ("year", "season", "praise"),
              lambda e: f"setup: Eight Praises tile {PRAISE_NAMES[e['praise']]} "
                        f"({data.PRAISES[e['praise']].measure}) for the {_season(e['season'])} "
                        f"of year {e['year'] + 1}"),
    EventKind("player_start", ("money", "grain", "wine", "reputation"), _start,
              causes=CELL_START, points="reputation"),
    EventKind("edicts_dealt", ("face_up", "face_down"),
              lambda e: f"{e['who']}'s edict area ({e['cause']}): {e['face_up']} tile(s) face "
                        f"up, {e['face_down']} face down",
              causes=LAYOUT_NAMES),
    EventKind("tutor_drawn", ("tutor",),
              lambda e: f"{e['who']} draws the Grand Tutor {_name(TUTOR_NAMES, e['tutor'])}"),
    EventKind("virtual_dealt", ("tier1", "tier2", "tier3"),
              lambda e: f"the virtual player's {e['tier1']} tier I, {e['tier2']} tier II and "
                        f"{e['tier3']} tier III edict tiles lie face down"),
    EventKind("carried_talent", ("talent", "level"),
              lambda e: f"{e['who']} carries the {_name(TALENT_NAMES, e['talent'])} at level "
                        f"{e['level']} from the previous challenge game"),
    EventKind("carried_building", ("building",),
              lambda e: f"{e['who']} carries the {_name(BUILDING_NAMES, e['building'])} from the "
                        f"previous challenge game"),
    EventKind("pile_top", ("pile", "talent", "cards"), _pile_top),
    EventKind("blueprint_flip", ("building", "position", "count", "supply"),
              lambda e: f"the {_name(BUILDING_NAMES, e['building'])} is flipped into the "
                        f"blueprint area (stack {e['position'] + 1}: {e['count']} tile(s); "
                        f"{e['supply']} left face down)"),
    EventKind("round_start", ("round", "year", "season", "half"),
              lambda e: f"round {e['round'] + 1} begins: year {e['year'] + 1}, "
                        f"{_season(e['season'])}, {'first' if e['half'] == 0 else 'second'} "
                        f"round of the season"),
    EventKind("events_renewed", (),
              lambda e: "year 2: every event tile is face up again"),
    EventKind("turn_order", ("position", "number", "vanguard"), _turn_order),
    EventKind("vanguard_first", ("times",),
              lambda e: f"{e['who']} is first in turn order with the vanguard "
                        f"({e['times']} time(s))"),
    EventKind("event_flipped", ("tile", "space", "round"), _event_flipped),
    EventKind("no_event", (),
              lambda e: f"{e['who']} activates no event ({e['cause']})",
              causes=("no event tile is left", "challenge game 4: only when first")),
    EventKind("event_reward", ("resource", "amount", "bonus", "reputation"), _reward,
              points="reputation"),
    EventKind("reward_bonus", ("level", "bonus"),
              lambda e: f"{e['who']} event reward {signed(e['bonus'])}: "
                        f"{skill(code(e, TALENT_NAMES), e['level'])}",
              causes=TALENT_NAMES),
    EventKind("tidy_up", ("removed", "lowest"), _tidy),
    EventKind("edict_revealed", ("slot", "tile"),
              lambda e: f"{e['who']}'s {edict(e['tile'])} is uncovered and turns face up "
                        f"(slot {e['slot']})"),
    EventKind("skill_resource", ("level", "resource", "amount"),
              lambda e: f"{e['who']} {signed(e['amount'])} {res(e['resource'])}: "
                        f"{skill(code(e, TALENT_NAMES), e['level'])}",
              causes=TALENT_NAMES),
    EventKind("skill_reputation", ("reputation", "level"),
              lambda e: f"{e['who']} {signed(e['reputation'])} reputation: "
                        f"{skill(code(e, TALENT_NAMES), e['level'])}",
              causes=TALENT_NAMES, points="reputation"),
    EventKind("firstborn_gift", ("money", "grain", "wine", "reputation"),
              lambda e: f"{e['who']} +{e['money']} money, +{e['grain']} grain, +{e['wine']} "
                        f"wine, {signed(e['reputation'])} reputation: "
                        f"{skill(data.T_FIRSTBORN, 1)}",
              points="reputation"),
    EventKind("celebration", ("reputation", "grain", "wine", "money"),
              lambda e: f"{e['who']} {signed(e['reputation'])} reputation: celebration (paid "
                        f"{e['grain']} grain, {e['wine']} wine, {e['money']} money)",
              points="reputation"),
    EventKind("sacrifice_heaven", ("reputation", "grain", "wine", "money"),
              lambda e: f"{e['who']} {signed(e['reputation'])} reputation: sacrifice to heaven "
                        f"(paid {e['grain']} grain, {e['wine']} wine, {e['money']} money)",
              points="reputation"),
    EventKind("settlement", ("season", "year"),
              lambda e: f"{_season(e['season'])} seasonal settlement of year {e['year'] + 1}"),
    EventKind("settle_building", ("resource", "amount", "tiles"), _settle_building,
              causes=BUILDING_NAMES),
    EventKind("settle_land", ("resource", "amount", "tiles"), _settle_land,
              causes=("farmland", "towns")),
    EventKind("praise", ("reputation", "measure", "year", "season"), _praise,
              causes=PRAISE_NAMES, points="reputation"),
    EventKind("study_marker", ("markers", "gain"), _study),
    EventKind("tutor_reputation", ("reputation", "other", "reason", "count"), _tutor_rep,
              causes=TUTOR_NAMES, points="reputation"),
    EventKind("challenge_loss", ("money",),
              lambda e: f"{e['who']} loses {e['money']} money after the settlement "
                        f"(challenge game 2)"),
    EventKind("final_talent", ("reputation", "card"),
              lambda e: f"{e['who']} {signed(e['reputation'])} reputation at game end: "
                        f"{skill(code(e, TALENT_NAMES), 3)}",
              causes=TALENT_NAMES, points="reputation"),
    EventKind("final_result", ("reputation", "rank", "goal", "reached"), _final_result),
    EventKind("virtual_draw", ("tile", "left", "tier"),
              lambda e: f"virtual player draws {edict(e['tile'])} into the turn order area "
                        f"({e['left']} tile(s) left face down)"),
    EventKind("virtual_build", ("building", "count"),
              lambda e: f"virtual player's building plan: the "
                        f"{_name(BUILDING_NAMES, e['building'])} stack ({e['count']} tile(s)) "
                        f"leaves the blueprint area"),
    EventKind("virtual_recruit", ("tile",),
              lambda e: f"virtual player's recruitment (edict {e['tile']}): P0 removes a "
                        f"wilderness talent"),
)


EVENT_TABLE = EventTable(kinds=KINDS, seat_name=seat_name)
