"""The words around a reviewed decision, from the finished game as the seat saw it: which month
or round it was, the seat's situation in one line, and what followed it (the seat's own
events up to the end of that month or round).

These are read after the game, for the person; the estimates (ladder/review/analysis.py) never
see them. The situation line reads only the public board and the seat's own holdings.
"""
from __future__ import annotations

from typing import Any

from ladder.table.narrate import seen_events

def period(state: Any) -> tuple[str, int]:
    """The part of the game `state` is in: ("month", 6) in Dragon, ("round", 3) in Mount Tai,
    ("decision", n) otherwise."""
    snap = state.snapshot()
    if state.game.name == "dragon" and snap.get("month"):
        return "month", int(snap["month"])
    if snap.get("round") is not None and state.game.name == "mount-tai":
        return "round", int(snap["round"])
    return "decision", state.move_number()


def situation(state: Any, seat: int) -> str:
    """The seat's situation at a decision in one line (its own holdings and the public board)."""
    snap = state.snapshot()
    name = state.game.name
    try:
        me = snap["seats"][seat]
        if name == "dragon":
            from engine.dragon import data

            month = int(snap["month"])
            event = data.EVENTS[snap["events"][month - 1]] if 1 <= month <= 12 else "?"
            persons = sum(len(p["persons"]) for p in me["palaces"])
            return (f"{me['score']} VP, {me['yuan']} yuan, {me['rice']} rice, "
                    f"{me['fireworks']} fireworks, {_n(len(me['palaces']), 'palace')}, "
                    f"{_n(persons, 'person')}; this month: {event}")
        if name == "mount-tai":
            return (f"{me['reputation']} reputation, {me['money']} money, {me['grain']} grain, "
                    f"{me['wine']} wine, {_n(len(me['talents']), 'talent')}, "
                    f"{_n(sum(1 for b in me['buildings'] if b), 'building')} "
                    f"(year {snap['year']}, "
                    f"season {snap['season']})")
    except (KeyError, IndexError, TypeError):
        pass
    return state.decision_name()


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def followed(truth: Any, move: int, seat: int, at: tuple[str, int],
             periods: list[tuple[str, int]]) -> list[str]:
    """What followed decision `move` for `seat`, up to the end of its month or round: every
    event of the seat, in the order of the game (what it paid, gained, lost and scored, the
    month's scoring whole), as the seat saw them. `truth` is the game at its end, `at` the
    decision's period, `periods[i]` the period after the game's i-th decision (`period`)."""
    first = truth.move_number() - len(periods)   # a game built mid-way starts there
    out: list[str] = []
    for i in range(move, truth.move_number()):
        out += [e.text for e in seen_events(truth, i, seat) if e.seat == seat]
        if periods[i - first] != at:
            break
    return out


__all__ = ["followed", "period", "situation"]
