"""Rule events as Python sees them: what the rules did on their own, readable and structured.

The compiled rules emit raw events (engine/core/eventlog.pxd: a kind id, a seat, a cause code and
up to four amounts). Each game names its kinds in an `EventTable` (its `events.py`): the kind's
name, what each amount means, its causes and a one-line text. `State.events()` gives the events
of the last step as `Event`s; a game record replays with its events, because they are produced
again by the replay.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

# The raw form the State keeps: (kind, seat, cause, a, b, c, d), all ints, -1 = none.
RawEvent = tuple[int, int, int, int, int, int, int]
NONE = -1


@dataclass(frozen=True)
class Event:
    """One automatic step of the rules.

    `move` is the index in the history of the decision whose automatic steps produced the event
    (-1: the game's setup); `seat` the seat concerned (None: everyone or no one; a game may
    name a non-seat actor with a number of its own, e.g. Mount Tai's virtual player); `cause` why,
    in words (the month's event, a building, ...) or None; `amounts` the numbers by name;
    `points` the victory points / reputation this event gives `seat` (0 for most kinds: the
    points of a game are the sum of its scoring events); `text` the line a player reads."""

    move: int
    kind: str
    seat: int | None
    cause: str | None
    amounts: Mapping[str, int]
    text: str
    points: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move, "kind": self.kind, "seat": self.seat, "cause": self.cause,
            "amounts": dict(self.amounts), "points": self.points, "text": self.text,
        }


# A kind's text: a str.format template over `who` ("P2" or "everyone"), `seat`, `cause` and
# the amounts by name, or a function of that same dict.
TextRule = str | Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class EventKind:
    """What one kind id of a game's events means."""

    name: str                           # e.g. "tribute"
    fields: tuple[str, ...] = ()        # the names of the amounts a, b, c, d, in order
    text: TextRule = "{who}: {kind}"    # the one-line text
    causes: Sequence[str] | None = None  # cause code -> name (None: the table's causes)
    points: str | None = None           # the amount that is points scored by `seat`, if any


@dataclass(frozen=True)
class EventTable:
    """A game's event kinds, indexed by the kind ids its rules emit."""

    kinds: tuple[EventKind, ...]
    causes: Sequence[str] = ()          # default cause code -> name for every kind
    seat_name: Callable[[int], str] = field(default=lambda seat: f"P{seat}")

    def __post_init__(self) -> None:
        for kind in self.kinds:
            if len(kind.fields) > 4:
                raise ValueError(f"event kind {kind.name!r} has more than four amounts")
            if kind.points is not None and kind.points not in kind.fields:
                raise ValueError(f"event kind {kind.name!r}: points field {kind.points!r} unknown")
        names = [k.name for k in self.kinds]
        if len(set(names)) != len(names):
            raise ValueError("event kind names must be distinct")

    def kind(self, name: str) -> EventKind:
        for k in self.kinds:
            if k.name == name:
                return k
        raise KeyError(name)

    def cause_name(self, kind: EventKind, code: int) -> str | None:
        if code == NONE:
            return None
        causes = kind.causes if kind.causes is not None else self.causes
        if 0 <= code < len(causes):
            return causes[code]
        return f"cause {code}"

    def decode(self, move: int, raw: RawEvent) -> Event:
        """The readable event of one raw event produced by decision `move`."""
        kind_id, seat, cause, *values = raw
        if not 0 <= kind_id < len(self.kinds):
            return Event(move, f"unknown-{kind_id}", None if seat == NONE else seat, None,
                         {}, f"(unknown event {raw})")
        kind = self.kinds[kind_id]
        amounts = {name: values[i] for i, name in enumerate(kind.fields)}
        cause_text = self.cause_name(kind, cause)
        who = "everyone" if seat == NONE else self.seat_name(seat)
        ctx: dict[str, Any] = dict(amounts, who=who, seat=None if seat == NONE else seat,
                                   cause=cause_text, kind=kind.name)
        try:
            text = kind.text(ctx) if callable(kind.text) else kind.text.format(**ctx)
        except (KeyError, IndexError, ValueError) as e:  # a wrong template must not hide the event
            text = f"{who}: {kind.name} {amounts} ({type(e).__name__}: {e})"
        points = amounts[kind.points] if kind.points is not None and seat != NONE else 0
        return Event(move, kind.name, None if seat == NONE else seat, cause_text, amounts,
                     text, points)


# A game without event kinds of its own (e.g. a test game).
EMPTY_TABLE = EventTable(kinds=())
