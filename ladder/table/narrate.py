"""Narration: the rule events of a game as lines a person reads (no terminal I/O here).

The engines record every automatic step of the rules as an `Event` (engine/core/events.py);
this module turns a sequence of them into `Line`s: a header where a month (Dragon) or a round
(Mount Tai) begins, a section where a part of the game resolves (a month's end, a scoring, a
seasonal settlement, the game's end) and one line per event, or per seat where several events
of one seat belong together (`P0 +7 VP: 3 palaces +3, 2 court ladies +2, 1 large privilege +2`).
`tianti play`, `watch`, `replay` and the in-game `log` all narrate through it, so that they say
the same thing in the same words; `render` fits the lines to 80 columns.

A `Narrator` is stateful (the current month, whether the month's end has been announced), so a
game is narrated by feeding it every step in order: `setup(events)` once, then `step(events)`
after each decision. `story()` narrates a stretch of a finished or running game at once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from engine.core.events import Event
from engine.core.text import WIDTH, display_width, fill

# Line kinds, and how far each is indented.
HEADER, SECTION, MOVE, EVENT = "header", "section", "move", "event"
INDENT = {HEADER: 0, SECTION: 2, MOVE: 2, EVENT: 4}


@dataclass(frozen=True)
class Line:
    """One line of narration: its kind (header, section, move, event) and its text (unwrapped,
    without indentation: `render` adds both)."""

    kind: str
    text: str

    def __str__(self) -> str:
        return self.text


def render(lines: Iterable[Line], width: int = WIDTH) -> list[str]:
    """The lines as printed: a header as `== text ==` after a blank line, the others indented
    by kind and broken at spaces to at most `width` columns (continuations two columns deeper).
    """
    out: list[str] = []
    for line in lines:
        if line.kind == HEADER:
            out.append("")
            out.extend(_fit(f"== {line.text} ==", "", width))
        else:
            text = line.text
            if line.kind in (EVENT, SECTION):  # "the yufu is flipped ..." starts a sentence
                text = text[:1].upper() + text[1:]
            out.extend(_fit(text, " " * INDENT.get(line.kind, 4), width))
    return out


def _fit(text: str, lead: str, width: int) -> list[str]:
    if display_width(lead + text) <= width:
        return [lead + text]
    return [lead + part for part in fill(text, width - len(lead), "  ")]


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def _strip_who(text: str, who: str) -> str:
    """An event's text without its leading seat name ('P0 takes ...' -> 'takes ...')."""
    for prefix in (f"game end: {who} ", f"{who} seasonal settlement: ", f"{who}: ", f"{who} "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


# ---------------------------------------------------------------------------------------------
# The narrator: generic behaviour, then one subclass per game.


class Narrator:
    """Turns a game's events into lines, step by step. The generic narrator writes each event's
    own text; a game's narrator adds headers, sections and per-seat summaries."""

    game = ""

    def __init__(self, seat_name: Callable[[int], str] | None = None) -> None:
        self.seat_name = seat_name or (lambda seat: f"P{seat}")

    def who(self, seat: int | None) -> str:
        return "everyone" if seat is None else self.seat_name(seat)

    # -- what callers use ---------------------------------------------------------------------

    def setup(self, events: Sequence[Event]) -> list[Line]:
        """The lines of the game's setup (the events of `state.events(-1)`)."""
        return self.step(events)

    def step(self, events: Sequence[Event]) -> list[Line]:
        """The lines of one decision's automatic steps, in order."""
        out: list[Line] = []
        i = 0
        while i < len(events):
            key = self.group_key(events[i])
            j = i + 1
            if key is not None:
                while j < len(events) and self.group_key(events[j]) == key:
                    j += 1
            run = list(events[i:j])
            out.extend(self.before(run[0]))
            out.extend(self.run(key, run) if key is not None else self.one(run[0]))
            i = j
        return out

    def move(self, text: str) -> Line:
        """A decision's line (the caller words it: who played what)."""
        return Line(MOVE, text)

    # -- what a game's narrator overrides -----------------------------------------------------

    def group_key(self, event: Event) -> Any:
        """Events in a row with the same key (not None) are narrated together by `run`."""
        return None

    def before(self, event: Event) -> list[Line]:
        """Lines that come before `event` (a section opening)."""
        return []

    def one(self, event: Event) -> list[Line]:
        """The lines of a single event."""
        return [Line(EVENT, event.text)]

    def run(self, key: Any, events: list[Event]) -> list[Line]:
        """The lines of a run of events with the same group key."""
        return [line for e in events for line in self.one(e)]

    # -- helpers ------------------------------------------------------------------------------

    def per_seat(self, events: list[Event], part: Callable[[Event], str]) -> list[Line]:
        """One line per seat (in order of first appearance): 'P0: part; part'; events without
        a seat are lines of their own."""
        seats: dict[int | None, list[str]] = {}
        loose: list[Line] = []
        for e in events:
            if e.seat is None:
                loose.append(Line(EVENT, e.text))
            else:
                seats.setdefault(e.seat, []).append(part(e))
        return [Line(EVENT, f"{self.who(s)}: " + "; ".join(parts))
                for s, parts in seats.items()] + loose


# ---------------------------------------------------------------------------------------------
# In the Year of the Dragon.


class DragonNarrator(Narrator):
    """Dragon: a header per month (its event and action groups), a section at the month's end
    (the event resolving per player, decay, the month's scoring with one line per player), the
    Great Wall and the super events, and the final scoring per player."""

    game = "dragon"
    # Kinds that happen during the action phase (everything else belongs to a month's end).
    ACTION_KINDS = frozenset({"setup", "event_tile", "super_event_set", "month", "group", "fee",
                              "topup", "card", "vp_research", "vp_wall_bonus"})
    MONTH_SCORING = ("vp_palaces", "vp_court_ladies", "vp_privileges")
    FINAL_SCORING = ("vp_persons", "vp_monks", "vp_money")

    def __init__(self, seat_name: Callable[[int], str] | None = None,
                 month: int | None = None, events: Sequence[int] = ()) -> None:
        from engine.dragon import data

        super().__init__(seat_name)
        self.data = data
        self.month = month
        self.row: dict[int, int] = dict(enumerate(events, start=1))
        self.super_event: int | None = None
        self.month_end_open = False

    @classmethod
    def for_state(cls, state: Any, seat_name: Callable[[int], str] | None = None
                  ) -> "DragonNarrator":
        """A narrator that starts at `state` (its month and event row), for narrating from a
        position built mid-game rather than from the setup."""
        snap = state.snapshot()
        narrator = cls(seat_name, month=snap.get("month"), events=snap.get("events", ()))
        if snap.get("super_event", -1) is not None and snap.get("super_event", -1) >= 0:
            narrator.super_event = snap["super_event"]
        return narrator

    def setup(self, events: Sequence[Event]) -> list[Line]:
        lines = self.step(events)
        return lines + [Line(HEADER, "The starting draft: each player takes two persons")]

    def _event_name(self, month: int | None) -> str:
        if month is None or month not in self.row:
            return "the month's event"
        name = self.data.EVENTS[self.row[month]]
        if month == 7 and self.super_event is not None:
            name += f" and the super event {self.data.SUPER_EVENTS[self.super_event]}"
        return name

    def group_key(self, e: Event) -> Any:
        if e.kind == "event_tile":
            return "row"
        if e.kind in self.MONTH_SCORING and e.cause == "month scoring":
            return "month scoring"
        if e.kind in self.FINAL_SCORING:
            return "final scoring"
        if e.kind == "final_rank":
            return "ranking"
        if e.kind == "floor_lost" and e.cause == "decay":
            return "decay"
        return None

    def before(self, e: Event) -> list[Line]:
        if e.kind == "month":
            self.month = e.amounts["month"]
            self.row.setdefault(self.month, e.amounts["event"])
            self.month_end_open = False
            return []
        if e.kind == "super_event_set":
            self.super_event = e.amounts["super_event"]
        if e.kind in self.ACTION_KINDS or (e.kind == "release" and e.cause == "full palaces"):
            return []
        if self.month_end_open:
            return []
        self.month_end_open = True
        when = f"month {self.month}" if self.month is not None else "the month"
        return [Line(SECTION, f"End of {when}: {self._event_name(self.month)}")]

    def one(self, e: Event) -> list[Line]:
        if e.kind == "month":
            text = f"Month {e.amounts['month']}: {self.data.EVENTS[e.amounts['event']]}"
            if e.amounts["super_event"] >= 0:
                text += f", then the super event {self.data.SUPER_EVENTS[e.amounts['super_event']]}"
            return [Line(HEADER, text)]
        if e.kind in ("wall_scoring", "festival", "super_event", "eclipse"):
            return [Line(SECTION, e.text)]
        return [Line(EVENT, e.text)]

    def run(self, key: Any, events: list[Event]) -> list[Line]:
        if key == "row":
            names = [f"{e.amounts['month']} {self.data.EVENTS[e.amounts['event']]}"
                     for e in events]
            for e in events:
                self.row[e.amounts["month"]] = e.amounts["event"]
            return [Line(EVENT, "The year's events, month by month: " + ", ".join(names))]
        if key == "month scoring":
            when = f"Month {self.month} scoring" if self.month is not None else "Month scoring"
            return [Line(SECTION, f"{when} (1 VP a palace, 1 a court lady, 1 or 2 a "
                                  f"privilege):")] + self._vp_per_seat(events)
        if key == "final scoring":
            return [Line(SECTION, "Final scoring (2 VP a person, monks' buddhas x floors, "
                                  "1 VP per 3 yuan):")] + self._vp_per_seat(events)
        if key == "ranking":
            ranked = sorted(events, key=lambda e: e.amounts["place"])
            return [Line(SECTION, "The ranking:")] + [Line(EVENT, e.text) for e in ranked]
        if key == "decay":
            return [Line(SECTION, "Decay: every empty palace loses a floor")] + self.per_seat(
                events, self._decay_part)
        return super().run(key, events)

    @staticmethod
    def _decay_part(e: Event) -> str:
        palace = e.amounts["palace"]
        if e.amounts["gone"]:
            return f"palace {palace} is gone"
        return f"palace {palace} down to {_plural(e.amounts['floors_left'], 'floor')}"

    def _vp_per_seat(self, events: list[Event]) -> list[Line]:
        """One line per seat: its VP of this scoring summed, each source with its VP."""
        seats: dict[int, list[Event]] = {}
        for e in events:
            seats.setdefault(e.seat, []).append(e)
        lines = []
        for seat, mine in seats.items():
            total = sum(e.points for e in mine)
            parts = [self._vp_part(e) for e in mine]
            if len(parts) == 1:
                body = parts[0]
            else:
                body = ", ".join(f"{p} +{e.points}" for p, e in zip(parts, mine))
            lines.append(Line(EVENT, f"{self.who(seat)} +{total} VP: {body} "
                                     f"({mine[-1].amounts['score']} in all)"))
        return lines

    def _vp_part(self, e: Event) -> str:
        a = e.amounts
        if e.kind == "vp_palaces":
            return _plural(a["palaces"], "palace")
        if e.kind == "vp_court_ladies":
            return _plural(a["fans"], "court lady", "court ladies")
        if e.kind == "vp_privileges":
            parts = []
            if a["small"]:
                parts.append(f"{a['small']} small")
            if a["large"]:
                parts.append(f"{a['large']} large")
            count = a["small"] + a["large"]
            return " + ".join(parts) + (" privilege" if count == 1 else " privileges")
        if e.kind == "vp_persons":
            return _plural(a["persons"], "person")
        if e.kind == "vp_monks":
            return f"{_plural(a['monks'], 'monk')} (buddhas x floors)"
        if e.kind == "vp_money":
            sold = f" after selling {_plural(a['sold'], 'tile')}" if a["sold"] else ""
            return f"{a['yuan']} yuan{sold}"
        return e.kind


# ---------------------------------------------------------------------------------------------
# Mount Tai.


class MountTaiNarrator(Narrator):
    """Mount Tai: the setup in a few lines, a header per round, the turn order in one line, the
    event rewards, each seasonal settlement with one line per player, every step of the virtual
    player, and the game's end per player."""

    game = "mount-tai"
    SETTLEMENT_KINDS = frozenset({"settlement", "settle_building", "settle_land", "praise",
                                  "study_marker", "challenge_loss"})
    # Tutor reputation reasons scored at the game's end (events.py TUTOR_REASONS 7, 8, 9).
    FINAL_TUTOR_REASONS = (7, 8, 9)

    def __init__(self, seat_name: Callable[[int], str] | None = None) -> None:
        from engine.mount_tai import data, events, guide

        super().__init__(seat_name or events.seat_name)
        self.data, self.ev, self.guide = data, events, guide

    @classmethod
    def for_state(cls, state: Any, seat_name: Callable[[int], str] | None = None
                  ) -> "MountTaiNarrator":
        """A narrator that starts at `state` (Mount Tai keeps no context between steps)."""
        return cls(seat_name)

    def group_key(self, e: Event) -> Any:
        if e.kind in ("mountain_tile", "event_tile", "season_bonus", "praise_tile", "turn_order"):
            return e.kind
        if e.kind in ("pile_top", "blueprint_flip"):
            return e.kind
        if e.kind in self.SETTLEMENT_KINDS:
            return "settlement"
        if e.kind in ("final_talent", "final_result") or (
                e.kind == "tutor_reputation"
                and e.amounts["reason"] in self.FINAL_TUTOR_REASONS):
            return "final"
        return None

    def one(self, e: Event) -> list[Line]:
        if e.kind == "round_start":
            a = e.amounts
            half = "first" if a["half"] == 0 else "second"
            return [Line(HEADER, f"Round {a['round'] + 1} of {self.data.ROUNDS}: year {a['year'] + 1}, "
                                 f"{self.data.SEASONS[a['season']]}, {half} round of the season")]
        if e.kind == "praise":
            return [Line(EVENT, f"{self.who(e.seat)} {self._praise(e)}")]
        return [Line(EVENT, e.text)]

    def run(self, key: Any, events: list[Event]) -> list[Line]:
        ev, data = self.ev, self.data
        if key == "mountain_tile":
            quadrants: dict[int, list[str]] = {}
            for e in events:
                size = "large" if e.amounts["size"] == 3 else "small"
                quadrants.setdefault(e.amounts["quadrant"], []).append(
                    f"{size} {e.amounts['tile']}")
            parts = [f"{q}: {' + '.join(tiles)}" for q, tiles in quadrants.items()]
            return [Line(EVENT, "Setup: the mountain range tiles by quadrant: "
                                + "; ".join(parts))]
        if key == "event_tile":
            rounds: dict[int, list[str]] = {}
            for e in events:
                rounds.setdefault(e.amounts["round"] + 1, []).append(
                    ev.event_tile(e.amounts["tile"]).removeprefix("the "))
            parts = [f"round {r}: {' and '.join(tiles)}" for r, tiles in rounds.items()]
            return [Line(EVENT, "Setup: the event tiles of each year: " + "; ".join(parts))]
        if key == "season_bonus":
            parts = [f"{data.SEASONS[e.amounts['season']]} {data.EVENT_TYPES[e.amounts['type']]}"
                     for e in events]
            return [Line(EVENT, "Setup: the season's event bonus (+1): " + ", ".join(parts))]
        if key == "praise_tile":
            years: dict[int, list[str]] = {}
            for e in events:
                years.setdefault(e.amounts["year"] + 1, []).append(
                    f"{data.SEASONS[e.amounts['season']]} "
                    f"{self.guide.praise_name(e.amounts['praise'])}")
            parts = [f"year {y}: {', '.join(tiles)}" for y, tiles in years.items()]
            return [Line(EVENT, "Setup: the Eight Praises tiles: " + "; ".join(parts))]
        if key in ("pile_top", "blueprint_flip") and len(events) == 1:
            return self.one(events[0])
        if key == "pile_top":
            parts = [f"{ev.PILE_NAMES[e.amounts['pile']]} "
                     + (ev.TALENT_NAMES[e.amounts['talent']] if e.amounts["talent"] >= 0
                        else "(empty)") for e in events]
            return [Line(EVENT, "The talent piles show " + ", ".join(parts))]
        if key == "blueprint_flip":
            parts = [ev.BUILDING_NAMES[e.amounts["building"]] for e in events]
            left = events[-1].amounts["supply"]
            return [Line(EVENT, "Turned up into the blueprint area: " + ", ".join(parts)
                                + f" ({left} building tiles left face down)")]
        if key == "turn_order":
            parts = [e.text.removeprefix("turn order ").replace(": ", " ", 1) for e in events]
            return [Line(EVENT, "Turn order: " + ", ".join(parts))]
        if key == "settlement":
            return self._settlement(events)
        if key == "final":
            return [Line(SECTION, "Game end:")] + self.per_seat(events, self._final_part)
        return super().run(key, events)

    def _praise(self, e: Event) -> str:
        """An Eight Praises scoring in words: the tile's English name, what it counted, and the
        reputation (without the seat)."""
        a = e.amounts
        index = next((i for i, p in enumerate(self.data.PRAISES) if p.name == e.cause), -1)
        if index < 0:
            return _strip_who(e.text, self.who(e.seat))
        p = self.data.PRAISES[index]
        measure, count, need = self.ev.praise_terms(index, a["year"], a["measure"])
        measure = measure.split(" (")[0]
        if a["year"] == 0:
            rule = f"{need} for {p.year1_reputation}"
        else:
            rule = f"{p.year2_reputation} per {p.year2_unit}"
        return (f"Eight Praises {self.guide.praise_name(index)}: {measure} {count} "
                f"({rule}): {a['reputation']:+d} reputation")

    def _settlement(self, events: list[Event]) -> list[Line]:
        head: list[Line] = []
        rest = events
        if events[0].kind == "settlement":
            a = events[0].amounts
            head = [Line(SECTION, f"The {self.data.SEASONS[a['season']]} settlement of year "
                                  f"{a['year'] + 1}:")]
            rest = events[1:]

        def part(e: Event) -> str:
            if e.kind == "praise":
                return self._praise(e)
            return _strip_who(e.text, self.who(e.seat))

        return head + self.per_seat(rest, part)

    def _final_part(self, e: Event) -> str:
        return _strip_who(e.text, self.who(e.seat))


NARRATORS: dict[str, type[Narrator]] = {
    "dragon": DragonNarrator,
    "mount-tai": MountTaiNarrator,
}


def narrator_for(game: str, state: Any = None) -> Narrator:
    """The narrator of `game`; with `state`, one that starts at that position (its month ...)
    rather than at the setup."""
    cls = NARRATORS.get(game, Narrator)
    if state is not None and hasattr(cls, "for_state"):
        return cls.for_state(state)  # type: ignore[attr-defined]
    return cls()


# ---------------------------------------------------------------------------------------------
# Narrating a stretch of a game.


def seen_events(state: Any, move: int, seat: int | None = None) -> list[Event]:
    """The events of decision `move` (-1: the setup), only those `seat` saw when a seat is
    given (every event of both games is public today, but a game may hide some)."""
    events = state.events(move)
    if seat is None or type(state)._event_visible is _base_visible():
        return events
    raw = state.raw_events()[move + 1]
    return [e for e, r in zip(events, raw) if state._event_visible(tuple(r), seat)]


def _base_visible() -> Any:
    from engine.core.state import State

    return State._event_visible


@dataclass(frozen=True)
class Move:
    """A decision as narrated: who took it and what it was, in words."""

    player: int
    text: str
    note: str | None = None  # a line under the move (e.g. the AI's own estimate)


def story(state: Any, moves: Sequence[Move], start: int = 0, seat: int | None = None,
          mover: Callable[[int], str] | None = None, setup: bool | None = None) -> list[Line]:
    """The narration of `state`'s game from decision `start` on: each decision's line (from
    `moves`, one per decision of the history) followed by the lines of its automatic steps.
    The narrator is fed the steps before `start` silently, so that headers and sections know
    their month. `seat`: narrate only what that seat saw. `setup` (default: `start == 0`)
    includes the setup's lines."""
    mover = mover or (lambda p: f"P{p}")
    narrator = narrator_for(state.game.name)
    lines = narrator.setup(seen_events(state, -1, seat))
    out = list(lines) if (start == 0 if setup is None else setup) else []
    for i, m in enumerate(moves):
        step = narrator.step(seen_events(state, i, seat))
        if i >= start:
            out.append(narrator.move(f"{mover(m.player)}: {m.text}"))
            if m.note:
                out.append(Line(EVENT, m.note))
            out.extend(step)
    return out


def game_story(game: str, options: dict[str, Any], seed: int, actions: Sequence[int],
               mover: Callable[[int], str] | None = None) -> list[Line]:
    """The whole narration of a game record (options, seed, actions), replayed."""
    from engine.registry import load_game

    state = load_game(game, **options).new_initial_state(seed)
    moves = []
    for a in actions:
        moves.append(Move(state.current_player(), state.action_to_string(a)))
        state.apply_action(a)
    return story(state, moves, mover=mover)


__all__ = ["Line", "Move", "Narrator", "DragonNarrator", "MountTaiNarrator", "narrator_for",
           "render", "seen_events", "story", "game_story", "HEADER", "SECTION", "MOVE", "EVENT"]
