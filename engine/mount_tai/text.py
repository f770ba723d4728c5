"""Mount Tai as text: the board, each decision and each action in words.

Works on `MountTaiState.snapshot()` (plain Python data), never on the C struct.
"""
from __future__ import annotations

from typing import Any

from engine.core.text import COMPACT_WIDTH, WIDTH, display_width, fill, fit_lines, pad, wrap
from engine.mount_tai import data, guide

Snapshot = dict[str, Any]

CELL_CHARS = {0: ".", 1: "S", 2: "F", 3: "T", 4: "A"}
PILE_NAMES = ("green", "yellow", "blue", "red 1", "red 2")
# The fief grid's one-line key (the `legend` command prints it too).
FIEF_KEY = ("Key: fief (row,col) as the choices name them, digit = layer; S settlement, "
            "F farmland, T town, A ascent, ~ water, w artificial water, * tribe (s f t a: "
            "on a tribe), . barren")
# Short effect names for the lists of edict tiles.
SHORT_EFFECTS = ("cultivate", "reclaim", "town", "recruit", "build", "brew", "celebrate",
                 "sacrifice")
RES = data.RESOURCES


def _layout() -> dict[str, int]:
    from engine.mount_tai.game import LAYOUT

    return LAYOUT


def cell_name(cell: int) -> str:
    a, b = divmod(cell, 4)
    return f"({a},{b}) layer {min(a, b) + 1}"


def talent_name(k: int) -> str:
    return data.TALENTS[k].name


def building_name(k: int) -> str:
    return data.BUILDINGS[k].name


def effect_name(e: int) -> str:
    return data.EFFECTS[e]


def tile_text(n: int) -> str:
    """An edict tile: its number, tier and effects."""
    tier = data.TIER_OF[n]
    effects = [effect_name(e) for e in data.EDICT_EFFECTS[n]]
    how = {1: "", 2: " (one of)", 3: " (both)"}[tier]
    return f"edict {n} [{'I' * tier}]{how}: {' / '.join(effects)}"


def event_text(tile: int) -> str:
    e = data.EVENT_TILES[tile]
    colour = data.EVENT_COLOURS[e.colour]
    if e.kind == data.EV_EXCHANGE:
        return f"{colour} exchange (money <-> grain)"
    if e.kind == data.EV_ZERO:
        return f"{colour} tile 0 (nothing)"
    return f"{colour} {e.amount:+d} {data.EVENT_TYPES[e.kind]}"


def _map_cell(snap: Snapshot, seat: int, cell: int) -> int:
    """Map bits of fief cell `cell` of `seat` (mirrors mountain.pxd's to_map)."""
    q = snap["seats"][seat]["quadrant"]
    a, b = divmod(cell, 4)
    r, c = {0: (a, b), 1: (a, 7 - b), 2: (7 - a, 7 - b), 3: (7 - a, b)}[q]
    return snap["map"][r * 8 + c]


def _seat_name(snap: Snapshot, e: Any) -> str:
    return "virtual player" if e == "virtual" else f"player {e}"


def action_text(snap: Snapshot, a: int) -> str:
    """One action in words for the player to move in `snap`."""
    L = _layout()
    cur = snap["current_player"]
    seat = snap["seats"][cur] if cur is not None else None
    phase = snap["phase"]
    if not 0 <= a < L["end"]:
        return f"action {a} (no such action)"

    def slot_tile(slot: int) -> str:
        t = seat["slots"][slot] if seat and slot < len(seat["slots"]) else None
        return f"edict {t}" if isinstance(t, int) else f"slot {slot}"

    if a < L["tidy"]:
        s = a - L["use"]
        t = seat["slots"][s] if seat and s < len(seat["slots"]) else None
        return f"use {tile_text(t)}" if isinstance(t, int) else f"use slot {a}"
    if a < L["remove"]:
        return f"tidy up: remove {slot_tile(a - L['tidy'])}"
    if a < L["swap"]:
        why = {"tidy-up": "tidy up: also remove"}.get(phase, "remove")
        return f"{why} {slot_tile(a - L['remove'])}"
    if a < L["effect"]:
        return f"swap {slot_tile(a - L['swap'])}"
    if a < L["flat"]:
        return f"execute {effect_name(a - L['effect'])}"
    if a < L["mountain"]:
        return f"flat-land cultivation at {cell_name(a - L['flat'])}"
    if a < L["water"]:
        c = a - L["mountain"]
        return "mountain cultivation: ascend the summit" if c == 15 else \
            f"mountain cultivation at {cell_name(c)}"
    if a < L["reclaim"]:
        return f"artificial water source at {cell_name(a - L['water'])}"
    if a < L["town"]:
        return f"reclaim farmland at {cell_name(a - L['reclaim'])}"
    if a < L["recruit"]:
        return f"build a town at {cell_name(a - L['town'])}"
    if a < L["develop"]:
        p = a - L["recruit"]
        pile = snap["piles"][p]
        who = talent_name(pile[0]) if pile and isinstance(pile[0], int) else "?"
        verb = {"observatory": "take (Observatory)", "virtual talent": "remove"}.get(phase, "recruit")
        return f"{verb} the {who} ({PILE_NAMES[p]} pile)"
    if a < L["build"]:
        i = a - L["develop"]
        k, level = seat["talents"][i] if seat and i < len(seat["talents"]) else (0, 0)
        return f"develop the {talent_name(k)} to level {level + 1} (card {i + 1})"
    if a < L["amount"]:
        return f"build the {building_name(a - L['build'])}"
    if a < L["event"]:
        k = a - L["amount"]
        return {
            "brew": f"brew {k} grain into wine",
            "celebrate": f"celebrate paying {k} money instead of wine",
            "sacrifice": "sacrifice paying 1 money instead of wine" if k else "sacrifice paying wine",
            "donate": f"donate {k} {RES[snap['donation_kind']]}",
        }.get(phase, f"amount {k}")
    if a < L["exchange"]:
        c = a - L["event"]
        r = snap["round"] % 8
        t = snap["events"][r][c]
        return f"activate the {event_text(t)} event" if t is not None else f"event space {c}"
    if a < L["resource"]:
        k = a - L["exchange"]
        if phase == "trade":
            return "trade 1 money for 1 grain" if k < 3 else "trade 1 grain for 1 money"
        return f"exchange {k + 1} money for grain" if k < 3 else f"exchange {k - 2} grain for money"
    if a < L["seat"]:
        r = RES[a - L["resource"]]
        return f"donate {r}" if phase == "donate kind" else f"take the reward as {r}"
    if a < L["bonus_talent"]:
        i = a - L["seat"]
        if phase == "commander":
            return f"take reputation from player {i}"
        return f"study marker to player {i}"
    if a < L["bonus_building"]:
        return f"carry the {talent_name(a - L['bonus_talent'])} into this game"
    if a < L["yes"]:
        return f"carry the {building_name(a - L['bonus_building'])} into this game"
    if a == L["yes"]:
        return "change 1 grain into 1 wine"
    return {
        "policy": "pass (no edict tile left)",
        "tidy-up": "stop removing",
        "effect": "stop (skip the remaining effects)",
        "cultivate": "stop cultivating",
        "water": "no artificial water",
        "remove": "keep the edict tiles",
        "reclaim": "stop reclaiming",
        "town": "stop building towns",
        "agricultural wine": "keep the grain",
        "brewer wine": "keep the grain",
        "observatory": "take no red talent",
        "exchange": "exchange nothing",
        "trade": "no trade",
        "swap": "swap nothing",
        "architect": "no architect action",
    }.get(phase, "pass")


def decision_text(snap: Snapshot) -> str:
    """What the player to move must decide now."""
    cur = snap["current_player"]
    if cur is None:
        return "the game is over"
    who = f"player {cur}"
    phase = snap["phase"]
    what = {
        "bonus talent": "chooses the talent carried from the previous challenge game",
        "bonus building": "chooses a building carried from the previous challenge game",
        "policy": "makes a policy decision (use an edict tile or tidy up)",
        "tidy-up": f"may remove more edict tiles ({snap['removals']} removed)",
        "effect": f"chooses which effect of edict {snap['tile']} to execute",
        "cultivate": "cultivates barren land",
        "water": "may place an artificial water source",
        "remove": f"removes an uncovered edict tile ({snap['remove_context']})",
        "reclaim": "reclaims farmland",
        "agricultural wine": "may change 1 grain into 1 wine (agricultural official)",
        "town": "builds a town",
        "recruit": "recruits or develops a talent",
        "build": "takes a building from the blueprint area",
        "observatory": "may take a red talent for 1 money (observatory)",
        "brew": "chooses how much grain to brew",
        "celebrate": "chooses how much money to pay instead of wine (village elder)",
        "sacrifice": "chooses wine or money for the sacrifice (village elder)",
        "event": "activates an event tile",
        "exchange": "may exchange money and grain (exchange event)",
        "yin-yang": f"chooses the resource of a {snap['reward']}-point reward (yin-yang master)",
        "brewer wine": "may change 1 grain into 1 wine (brewer)",
        "trade": "may trade 1 money and 1 grain (trader)",
        "swap": "may swap two uncovered edict tiles (secretary)",
        "architect": "may build a town / reclaim farmland (architect)",
        "scholar": "chooses who takes the study marker (scholar)",
        "donate kind": "chooses the resource everyone may donate (philanthropist)",
        "donate": f"chooses how much {RES[snap['donation_kind']]} to donate",
        "commander": "chooses an opponent to take reputation from (commander)",
        "virtual talent": "removes a wilderness talent (the virtual player recruits)",
    }.get(phase, phase)
    return f"{who} {what}"


def _fief_lines(snap: Snapshot, i: int) -> list[str]:
    """The fief as a 4x4 grid labelled with the row and column numbers the choices use
    ("(row,col)"): layer digit + content (S settlement, F farmland, T town, A ascent, ~ water,
    w artificial water, * tribe, . barren; see FIEF_KEY); row 0 / column 0 are the outer edges."""
    seat = snap["seats"][i]
    lines = ["r\\c 0  1  2  3"]
    for a in range(4):
        row = []
        for b in range(4):
            cell = a * 4 + b
            content = seat["cells"][cell]
            bits = _map_cell(snap, i, cell)
            ch = CELL_CHARS[content]
            if content == 0:
                ch = "~" if bits & 1 else "w" if bits & 4 else "*" if bits & 2 else "."
            elif bits & 2:
                ch = ch.lower()
            row.append(f"{min(a, b) + 1}{ch}")
        lines.append(f"{a:>3} " + " ".join(row))
    return lines


def edicts_up(seat: dict[str, Any]) -> list[str]:
    """A seat's uncovered edict tiles, each with its effects in short words."""
    out = []
    for slot in seat["uncovered"]:
        t = seat["slots"][slot]
        if t in (None, "?"):
            continue
        effects = [SHORT_EFFECTS[e] for e in data.EDICT_EFFECTS[t]]
        joint = {1: "", 2: "/", 3: "+"}[data.TIER_OF[t]]
        out.append(f"{t} {joint.join(effects)}")
    return out


def solo_header(snap: Snapshot) -> str | None:
    """The solo goal and, in a challenge game, its special rule (None in a multi-player game)."""
    opts = snap["options"]
    if not opts.get("solo") and not opts.get("challenge"):
        return None
    c = opts.get("challenge")
    if c:
        ch = data.CHALLENGES[int(c) - 1]
        return (f"Solo challenge game {c} of 8: reach {ch.goal} reputation; special rule: "
                f"{ch.rule}")
    return f"Solo game against the virtual player: reach {data.SOLO_GOAL} reputation"


def praise_line(snap: Snapshot) -> str:
    """This season's Eight Praises tile: its English name and condition."""
    year = snap["year"]
    p = snap["praises"][year - 1][snap["season"]]
    return (f"Eight Praises this season: {guide.praise_name(p)}, year {year}: "
            f"{guide.praise_condition(p, year)}")


def _edict_lines(snap: Snapshot, i: int) -> list[str]:
    seat = snap["seats"][i]
    slots = seat["slots"]
    unc = set(seat["uncovered"])

    def show(slot: int) -> str:
        t = slots[slot]
        if t is None:
            return "  "
        if t == "?":
            return "??"
        return f"{t:2d}" + ("" if slot in unc else "")

    def mark(slot: int) -> str:
        return f"[{show(slot)}]" if slot in unc else f" {show(slot)} "

    lines = []
    if snap["layout"] == "pyramid":
        for tier, base, side in ((1, 25, 2), (2, 16, 3), (3, 0, 4)):
            for r in range(side):
                cells = "".join(mark(base + r * side + c) for c in range(side))
                lines.append(f"    {'I' * tier:>3} {cells}")
    else:
        cols = (7, 7, 7, 7) if snap["layout"] == "stacks" else tuple(data.STEP_COLUMNS)
        base = 0
        for j, depth in enumerate(cols):
            cells = "".join(mark(base + d) for d in range(depth))
            lines.append(f"    pile {j + 1}: {cells}")
            base += depth
    return lines


def _round_facts(snap: Snapshot) -> tuple[str, int, int, str, str]:
    """The season's name, the year, the round index (0-15), the event bonus and the season's
    Eight Praises tile."""
    season = data.SEASONS[snap["season"]]
    year = snap["year"]
    bonus = RES[snap["season_bonus"][snap["season"]]]
    praise = data.PRAISES[snap["praises"][year - 1][snap["season"]]].name
    return season, year, min(snap["round"], 15), bonus, praise


def board_text(snap: Snapshot, summary: dict | None = None) -> str:
    """The whole visible board, one block per player."""
    n = snap["players"]
    season, year, r, bonus, praise = _round_facts(snap)
    out = [f"Mount Tai: round {min(snap['round'] + 1, 16)}/16, year {year} {season} "
           f"(event bonus: {bonus})", praise_line(snap)]
    solo = solo_header(snap)
    if solo:
        out.append(solo)
    out.append("Turn order: " + ", ".join(_seat_name(snap, e) for e in snap["order"]))
    events = []
    for c, t in enumerate(snap["events"][r % 8]):
        if t is None:
            continue
        used = " (flipped)" if snap["events_used"][r % 8][c] else ""
        events.append(event_text(t) + used)
    out.append("Events: " + "; ".join(events))
    out.append("Season bonus tiles: " + ", ".join(
        f"{data.SEASONS[j]} {RES[b]}" for j, b in enumerate(snap["season_bonus"])))
    for y in range(2):
        out.extend(wrap(f"Eight Praises year {y + 1}: ", [
            f"{data.SEASONS[j]} {guide.praise_name(p)} {guide.praise_condition(p, y + 1)}"
            for j, p in enumerate(snap["praises"][y])], WIDTH, sep="; "))
    out.append("Blueprint area: " + (", ".join(
        f"{building_name(k)} x{c}" for k, c in snap["blueprint"]) or "empty")
        + f" (supply {snap['supply_count']} face down)")
    piles = []
    for j, pile in enumerate(snap["piles"]):
        if pile:
            top = talent_name(pile[0]) if isinstance(pile[0], int) else "?"
            piles.append(f"{PILE_NAMES[j]}: {top} (+{len(pile) - 1} face down)")
        else:
            piles.append(f"{PILE_NAMES[j]}: empty")
    out.append("Wilderness: " + "; ".join(piles))
    if snap["options"].get("solo"):
        drawn = ", ".join(str(t) for t in snap["virtual_drawn"]) or "none"
        out.append(f"Virtual player: edict tiles drawn {drawn}; "
                   f"{snap['virtual_left']} face down")
    for i in range(n):
        seat = snap["seats"][i]
        tutor = f", tutor: {data.TUTORS[seat['tutor']]}" if seat["tutor"] is not None else ""
        out.append(f"Player {i}: money {seat['money']}, grain {seat['grain']}, wine "
                   f"{seat['wine']}, reputation {seat['reputation']}{tutor}")
        talents = ", ".join(f"{talent_name(k)} {lv}" for k, lv in seat["talents"]) or "none"
        buildings = ", ".join(building_name(k) for k in seat["buildings"]) or "none"
        out.append(f"  talents: {talents}; buildings: {buildings}")
        if snap["options"].get("grand_tutors"):
            out.append(f"  study markers {seat['study']}, donation track {seat['donation']}")
        out.append("  fief:")
        out.extend("    " + line for line in _fief_lines(snap, i))
        out.append("  edicts ([n] uncovered):")
        out.extend(_edict_lines(snap, i))
    if snap["current_player"] is not None:
        out.append("Now: " + decision_text(snap))
    elif summary is not None:
        line = "Final: " + ", ".join(
            f"player {i} {rep} reputation (rank {summary['ranks'][i] + 1})"
            for i, rep in enumerate(summary["reputation"]))
        if "goal" in summary:
            line += f"; goal {summary['goal']}: " + ("reached" if summary["goal_reached"]
                                                       else "not reached")
        out.append(line)
    out.append(FIEF_KEY)
    return fit_lines("\n".join(out), WIDTH)


def compact_text(snap: Snapshot, viewer: int | None = None, width: int = COMPACT_WIDTH) -> str:
    """The board in about 30 lines of `width` columns (78 by default: with the two columns of
    `tianti play`'s change marker, 80), for play in a terminal: each fief's labelled grid
    beside its player's resources, talents, buildings and usable edict tiles."""
    n = snap["players"]
    season, year, r, bonus, _ = _round_facts(snap)
    out = [f"Round {min(snap['round'] + 1, 16)} of 16: year {year} of 2, {season} | event "
           f"bonus: +1 {bonus}"]
    out.extend(fill(praise_line(snap), width, "  "))
    solo = solo_header(snap)
    if solo:
        out.extend(fill(solo, width, "  "))
    out.append("Turn order: " + ", ".join(_seat_name(snap, e) for e in snap["order"]))
    events = [event_text(t) + (" (used)" if snap["events_used"][r % 8][c] else "")
              for c, t in enumerate(snap["events"][r % 8]) if t is not None]
    out.extend(wrap("Events: ", events, width, sep="; "))
    out.extend(wrap("Buildings to plan: ", [f"{building_name(k)} ({c})"
                                            for k, c in snap["blueprint"]] or ["none"],
                    width, sep="; "))
    piles = [f"{PILE_NAMES[j]} {talent_name(p[0]) if p and isinstance(p[0], int) else '-'}"
             for j, p in enumerate(snap["piles"])]
    out.extend(wrap("Talents to recruit: ", piles, width, sep="; "))
    for i in range(n):
        seat = snap["seats"][i]
        who = f"P{i} you" if i == viewer else f"P{i}"
        grid = _fief_lines(snap, i)
        gw = max(display_width(g) for g in grid) + 2
        room = width - gw
        side = wrap(f"{who}: ", [f"money {seat['money']}", f"grain {seat['grain']}",
                                 f"wine {seat['wine']}", f"reputation {seat['reputation']}"],
                    room)
        talents = [f"{talent_name(k)} level {lv}" for k, lv in seat["talents"]] or ["none"]
        side.extend(wrap("  talents: ", talents, room))
        buildings = [building_name(k) for k in seat["buildings"]] or ["none"]
        side.extend(wrap("  buildings: ", buildings, room))
        if seat["tutor"] is not None:
            side.append(f"  grand tutor: {data.TUTORS[seat['tutor']]}")
        side.extend(wrap("  edicts up: ", edicts_up(seat) or ["none"], room))
        for k in range(max(len(grid), len(side))):
            g = grid[k] if k < len(grid) else ""
            sd = side[k] if k < len(side) else ""
            out.append((pad(g, gw) + sd).rstrip())
    out.extend(fill(FIEF_KEY, width, "  "))
    if snap["options"].get("solo"):
        out.extend(wrap("Virtual player's edicts: ", [str(t) for t in snap["virtual_drawn"]]
                        + [f"({snap['virtual_left']} face down)"], width, sep=" "))
    return "\n".join(out)
