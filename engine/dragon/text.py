"""In the Year of the Dragon as text: the board, each decision and each action in words.

Works on `DragonState.snapshot()` (plain Python data), never on the C struct.
"""
from __future__ import annotations

from typing import Any

from engine.core.text import COMPACT_WIDTH, WIDTH, fit_lines, wrap
from engine.dragon import data

Snapshot = dict[str, Any]


def _layout() -> dict[str, int]:
    from engine.dragon.game import LAYOUT

    return LAYOUT


def _n_types() -> int:
    return data.N_TYPES


def type_name(t: int) -> str:
    return data.TYPES[t].name


def kind_name(k: int) -> str:
    return data.KINDS[k].name


def kind_plural(k: int) -> str:
    """The kind's name in the plural: craftsmen, court ladies, monks."""
    name = data.KINDS[k].name
    if name.endswith("man"):
        return name[:-3] + "men"
    if name.endswith("y") and name[-2:-1] not in ("a", "e", "o", "u"):
        return name[:-1] + "ies"
    return name + "s"


def card_name(c: int) -> str:
    return data.CARDS[c][0]


def event_name(e: int) -> str:
    return data.EVENTS[e]


def _palace_desc(palace: dict[str, Any]) -> str:
    n = len(palace["persons"])
    floors = palace["floors"]
    return f"{floors} floor{'s' if floors != 1 else ''}, {n} person{'s' if n != 1 else ''}"


def _card_amount(seat: dict[str, Any] | None, card: int) -> int:
    """What the card gives `seat` (its printed amount plus the seat's symbols; the printed
    amount alone when no seat is to move)."""
    base = data.CARDS[card][1]
    kind = data.CARD_KIND[card]
    return base + (seat["symbols"][kind] if kind is not None and seat is not None else 0)


def _card_gain(seat: dict[str, Any] | None, card: int) -> str:
    amount = _card_amount(seat, card)
    return {
        0: f"+{amount} yuan",
        1: f"+{amount} floor{'s' if amount != 1 else ''}",
        2: f"+{amount} rice",
        3: f"+{amount} fireworks",
        4: f"+{amount} track step{'s' if amount != 1 else ''}",
        5: f"+{amount} VP",
    }[card]


def _group_fee(snap: Snapshot, card: int) -> str:
    for g, cards in enumerate(snap["groups"]):
        if card in cards:
            fee = data.FEE_OCCUPIED_GROUP if snap["group_dragons"][g] > 0 else 0
            return f"group {g + 1}" + (f", pay {fee} yuan" if fee else "")
    return "?"


def action_text(snap: Snapshot, a: int) -> str:
    """One action in words for the player to move in `snap` (any action id, legal now or not,
    and also once the game is over: then without that player's numbers)."""
    L = _layout()
    nt = _n_types()
    cur = snap["current_player"]
    seat = snap["seats"][cur] if cur is not None else None
    if not 0 <= a < L["end"]:
        return f"action {a} (no such action)"
    if a < L["card"]:
        x, y = data.DRAFT_PAIRS[a - L["draft"]]
        return f"draft {kind_name(x)} + {kind_name(y)}"
    if a < L["privilege_small"]:
        c = a - L["card"]
        return f"{card_name(c)} ({_group_fee(snap, c)}): {_card_gain(seat, c)}"
    if a == L["privilege_small"]:
        return f"small privilege ({_group_fee(snap, 6)}): {data.PRIVILEGE_SMALL_COST} yuan for 1 dragon"
    if a == L["privilege_large"]:
        cost = snap["options"]["large_privilege_cost"]
        return f"large privilege ({_group_fee(snap, 6)}): {cost} yuan for 2 dragons"
    if a < L["topup"]:
        b = a - L["wall"]
        return f"build the wall ({_group_fee(snap, 7)}): tile with {data.WALL_BONUSES[b]}"
    if a == L["topup"]:
        if seat is None:
            return f"no action: money up to {data.TOPUP_TO} yuan"
        gain = max(0, data.TOPUP_TO - seat["yuan"])
        return f"no action: money up to {data.TOPUP_TO} yuan (+{gain})"
    if a < L["play"]:
        p = a - L["build"]
        if seat is None:
            return f"floor on palace {p + 1}"
        palaces = seat["palaces"]
        if p >= len(palaces):
            return "floor for a new palace"
        f = palaces[p]["floors"]
        return f"floor on palace {p + 1} ({f} -> {f + 1} floors)"
    if a < L["play_empty"]:
        t = a - L["play"]
        return f"recruit {type_name(t)} (with the {kind_name(data.TYPES[t].kind)} card)"
    if a < L["wild"]:
        k = a - L["play_empty"]
        return f"play the {kind_name(k)} card (none left: recruits nobody)"
    if a < L["wild_empty"]:
        t = a - L["wild"]
        return f"wildcard: recruit {type_name(t)}"
    if a == L["wild_empty"]:
        return "play a wildcard (no person left: recruits nobody)"
    if a < L["replace"]:
        p = a - L["place"]
        who = type_name(snap["pending_type"]) if snap["pending_type"] is not None else "person"
        palaces = seat["palaces"] if seat is not None else []
        desc = _palace_desc(palaces[p]) if p < len(palaces) else "no such palace yet"
        return f"place the {who} in palace {p + 1} ({desc})"
    if a < L["discard_new"]:
        key = a - L["replace"]
        who = type_name(snap["pending_type"]) if snap["pending_type"] is not None else "newcomer"
        return f"replace the {type_name(key % nt)} in palace {key // nt + 1} with the {who}"
    if a == L["discard_new"]:
        who = type_name(snap["pending_type"]) if snap["pending_type"] is not None else "newcomer"
        return f"let the {who} go (palaces full)"
    if a < L["quake"]:
        key = a - L["release"]
        return f"release the {type_name(key % nt)} from palace {key // nt + 1}"
    if a < L["flood"]:
        p = a - L["quake"]
        palaces = seat["palaces"] if seat is not None else []
        desc = _palace_desc(palaces[p]) if p < len(palaces) else "?"
        return f"earthquake: palace {p + 1} loses a floor ({desc})"
    if a < L["tornado"]:
        return f"flood: discard 1 {data.FLOOD_RESOURCES[a - L['flood']]}"
    if a < L["sunrise"]:
        k = a - L["tornado"]
        if k == data.N_KINDS:
            return "tornado: discard a wildcard"
        return f"tornado: discard the {kind_name(k)} card"
    if a < L["contract"]:
        return f"sunrise: take a {type_name(a - L['sunrise'])}"
    if a < L["start"]:
        k = a - L["contract"]
        return f"contract: collect from your {kind_plural(k)}"
    who = type_name(snap["pending_type"]) if snap["pending_type"] is not None else "second person"
    if a == L["start"]:
        return f"put the {who} in the other palace (one person in each)"
    return f"put the {who} in the same palace as the first (the other stays empty and decays)"


def decision_text(snap: Snapshot) -> str:
    """What the player to move must decide now."""
    cur = snap["current_player"]
    phase = snap["phase"]
    if cur is None:
        return "the game is over"
    who = f"player {cur}"
    if phase == "draft":
        return f"{who} drafts two starting persons"
    if phase == "start":
        return f"{who} houses the second starting person, the {type_name(snap['pending_type'])}"
    if phase == "action":
        return f"{who} chooses an action (month {snap['month']})"
    if phase == "build":
        return f"{who} places a new palace floor ({snap['todo']} left)"
    if phase == "person":
        return f"{who} plays a person card"
    if phase == "place":
        return f"{who} houses the {type_name(snap['pending_type'])}"
    if phase == "release":
        ev = event_name(snap["events"][snap["month"] - 1])
        if snap.get("release_cause") == "wall":
            ev = "the wall did not reach the Mongols: fewest wall sections"
        elif snap.get("release_cause") == "wall final":
            ev = "final wall scoring: fewest wall sections"
        n = snap["need"][cur]
        if snap["release_mode"] == "drought":
            return (f"{who} must release a person from each unsupplied palace "
                    f"({n} to go; {ev})")
        return f"{who} must release {n} person{'s' if n != 1 else ''} ({ev})"
    if phase == "earthquake":
        if snap["release_palace"] is not None:
            return f"{who} releases a person from palace {snap['release_palace'] + 1} (earthquake)"
        return f"{who} removes a palace floor ({snap['todo']} left; earthquake)"
    if phase == "flood":
        return f"{who} discards {snap['todo']} more (flood)"
    if phase == "tornado":
        return f"{who} discards {snap['todo']} more person card(s) (tornado)"
    if phase == "sunrise":
        return f"{who} takes a young person (sunrise)"
    if phase == "contract":
        return f"{who} chooses a person kind to collect from (contract)"
    return f"{who}: {phase}"


def _seat_lines(snap: Snapshot, i: int) -> list[str]:
    seat = snap["seats"][i]
    marker = "  <- to move" if snap["current_player"] == i else ""
    priv = ""
    if seat["privileges_small"] or seat["privileges_large"]:
        priv = f"privileges {seat['privileges_small']} small / {seat['privileges_large']} large"
    lines = wrap(f"Player {i}: ", [f"{seat['score']} VP", f"{seat['yuan']} yuan",
                                   f"{seat['rice']} rice", f"{seat['fireworks']} fireworks"]
                 + ([priv] if priv else []) + [f"track {seat['track']}{marker}"], WIDTH)
    cards = [kind_name(k) for k in seat["hand"]]
    if seat["wildcards"]:
        cards.append(f"{seat['wildcards']} wildcard{'s' if seat['wildcards'] != 1 else ''}")
    lines.extend(wrap("  cards: ", cards or ["none"], WIDTH))
    for p, palace in enumerate(seat["palaces"]):
        # The notation of the compact board (compact_text), which the legend explains.
        persons = [type_name(t) for t in palace["persons"]]
        empty = ["empty"] * (palace["floors"] - len(persons))
        lines.extend(wrap(f"  palace {p + 1} ({_plural(palace['floors'], 'floor')}): ",
                          persons + empty, WIDTH))
    if not seat["palaces"]:
        lines.append("  no palaces")
    if snap["options"]["great_wall"]:
        tiles = [data.WALL_BONUSES[b] for b in seat["wall_unused"]] or ["none"]
        lines.extend(wrap("  wall tiles left: ", tiles, WIDTH))
    return lines


def board_text(snap: Snapshot, history: list[int] | None = None) -> str:
    """The whole board, readably."""
    opts = snap["options"]
    extras = []
    if opts["great_wall"]:
        extras.append("Great Wall")
    if snap["super_event"] is not None:
        extras.append(f"Super Event: {data.SUPER_EVENTS[snap['super_event']]}")
    head = f"In the Year of the Dragon - {snap['players']} players"
    if extras:
        head += " [" + ", ".join(extras) + "]"
    if snap["phase"] in ("draft", "start"):
        head += " - starting draft"
    elif snap["phase"] == "over":
        head += " - game over"
    else:
        head += f" - month {snap['month']} of 12"
    lines = [head]
    month = snap["month"]
    cells = []
    for m, e in enumerate(snap["events"], start=1):
        name = event_name(e)
        if m == data.SUPER_EVENT_MONTH and snap["super_event"] is not None:
            name += " + " + data.SUPER_EVENTS[snap["super_event"]]
        if snap["phase"] not in ("draft", "start", "over") and m == month:
            cells.append(f"[{m} {name}]")
        else:
            cells.append(f"{m} {name}")
    lines.extend(wrap("Events: ", cells, WIDTH, sep=" | "))
    if opts["great_wall"]:
        wall = " ".join(f"P{owner}" for owner, _ in snap["wall"])
        lines.append(f"Wall: {len(snap['wall'])}/12 sections" + (f" ({wall})" if wall else ""))
    if snap["phase"] not in ("draft", "start", "over"):
        groups = []
        for g, cards in enumerate(snap["groups"]):
            dragons = snap["group_dragons"][g]
            mark = "" if not dragons else " (taken)" if dragons == 1 else f" (taken {dragons}x)"
            groups.append(f"{g + 1}: " + ", ".join(card_name(c) for c in sorted(cards)) + mark)
        lines.extend(wrap("Action groups: ", groups, WIDTH, sep=" | "))
    disp = [f"{type_name(t)} {n}" for t, n in enumerate(snap["display"]) if n]
    lines.extend(wrap("Persons on display: ", disp, WIDTH))
    order = " > ".join(
        f"P{i} ({snap['seats'][i]['track']})" for i in snap["track_order"]
    )
    lines.extend(wrap("Person track (acting order): ", order.split(" > "), WIDTH, sep=" > "))
    for i in range(snap["players"]):
        lines.extend(_seat_lines(snap, i))
    if snap["phase"] == "over":
        lines.extend(wrap("Final: ", [f"P{i} {s['score']} VP"
                                      for i, s in enumerate(snap["seats"])], WIDTH))
    else:
        lines.append("Now: " + decision_text(snap))
    if history is not None:
        lines.append(f"Moves so far: {len(history)}")
    return fit_lines("\n".join(lines), WIDTH)


# Short card names for the action groups (the choices use the full names).
_SHORT_CARD = ("taxes", "build", "harvest", "fireworks", "parade", "research", "privilege", "wall")


def _old_type(kind: int) -> int:
    """The type index of the old tile of a split kind."""
    return next(t for t, pt in enumerate(data.TYPES) if pt.kind == kind and pt.old)


def _plural(n: int, word: str, plural: str | None = None) -> str:
    """`n word`, with the plural when n is not 1."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _event_row(snap: Snapshot, first: int) -> list[str]:
    """The events from month `first` (1-based) on, each with its month's number."""
    out = []
    for m, e in enumerate(snap["events"], start=1):
        if m < first:
            continue
        name = event_name(e)
        if m == data.SUPER_EVENT_MONTH and snap["super_event"] is not None:
            name += " + super event"
        out.append(f"{m} {name}")
    return out


def _privileges(seat: dict[str, Any]) -> str:
    """A seat's privileges in words ('' when it has none)."""
    parts = []
    if seat["privileges_small"]:
        parts.append(f"{seat['privileges_small']} small")
    if seat["privileges_large"]:
        parts.append(f"{seat['privileges_large']} large")
    return ", privileges " + " + ".join(parts) if parts else ""


def compact_text(snap: Snapshot, viewer: int | None = None, width: int = COMPACT_WIDTH) -> str:
    """The board in at most about 30 lines of `width` columns (78 by default: with the two
    columns of `tianti play`'s change marker, 80), in words, for play in a terminal."""
    month = snap["month"]
    playing = snap["phase"] not in ("draft", "start", "over")
    events = snap["events"]
    lines: list[str] = []
    if playing:
        head = f"Month {month} of 12, event: {event_name(events[month - 1])}"
        upcoming = _event_row(snap, month + 1)[:3]
        # The last month has no "next:" (an empty one reads as if something were missing).
        lines.extend(wrap(head + " | next: ", upcoming, width) if upcoming
                     else [head + " (the last month)"])
    else:
        lines.append("Starting draft (month 1 of 12 comes next)"
                     if snap["phase"] in ("draft", "start") else "Game over")
        lines.extend(wrap("Events by month: ", _event_row(snap, 1), width))
    extras = []
    if snap["super_event"] is not None:
        extras.append(f"super event in month {data.SUPER_EVENT_MONTH}: "
                      f"{data.SUPER_EVENTS[snap['super_event']]}")
    if snap["options"]["great_wall"]:
        extras.append(f"Great Wall: {len(snap['wall'])} of 12 sections built")
    if extras:
        lines.extend(wrap("", extras, width, sep=" | "))
    if playing:
        groups = []
        for g, cards in enumerate(snap["groups"]):
            d = snap["group_dragons"][g]
            mark = "" if not d else " (taken)" if d == 1 else f" (taken {d}x)"
            groups.append(f"{g + 1}: " + ", ".join(_SHORT_CARD[c] for c in sorted(cards)) + mark)
        lines.append(f"Action groups (a taken group costs {data.FEE_OCCUPIED_GROUP} yuan "
                     "to join):")
        lines.extend(wrap("  ", groups, width, sep=" | "))
    order = [f"P{i} {snap['seats'][i]['track']}" for i in snap["track_order"]]
    lines.append("Person track (acting order): " + " > ".join(order))
    disp = []
    for k, kind in enumerate(data.KINDS):
        young = snap["display"][k]
        if kind.old_symbols is None:
            disp.append(f"{kind.name} {young}")
        else:
            disp.append(f"{kind.name} {young}/{snap['display'][_old_type(k)]}")
    lines.extend(wrap("Persons left (young/old): ", disp, width))
    for i, seat in enumerate(snap["seats"]):
        who = "you" if i == viewer else ""
        mover = " <- to move" if snap["current_player"] == i else ""
        head = f"P{i}{' ' + who if who else ''}: "
        lines.extend(wrap(head, [f"{seat['score']} VP", f"{seat['yuan']} yuan",
                                 f"{seat['rice']} rice",
                                 f"{seat['fireworks']} fireworks{_privileges(seat)}{mover}"],
                          width))
        palaces = []
        for p, pal in enumerate(seat["palaces"]):
            persons = [type_name(t) for t in pal["persons"]]
            persons += ["empty"] * (pal["floors"] - len(persons))
            palaces.append(f"{p + 1} ({_plural(pal['floors'], 'floor')}): " + ", ".join(persons))
        lines.extend(wrap("   palace ", palaces or ["none"], width, sep=" | "))
        if i == viewer:
            cards = [kind_name(k) for k in seat["hand"]]
            if seat["wildcards"]:
                cards.append(_plural(seat["wildcards"], "wildcard"))
            lines.extend(wrap("   cards: ", cards or ["none"], width))
    return "\n".join(lines)
