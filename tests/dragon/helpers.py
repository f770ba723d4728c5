"""Helpers to build rulebook positions of In the Year of the Dragon for tests."""
from __future__ import annotations

from typing import Any

import engine
from engine.dragon import data
from engine.dragon.game import LAYOUT, DragonState

CARD_NAMES = [name for name, _ in data.CARDS]


def new_game(players: int = 4, seed: int = 1, **options: Any) -> DragonState:
    return engine.load_game("dragon", players=players, **options).new_initial_state(seed)


def started(players: int = 4, seed: int = 1, **options: Any) -> DragonState:
    """A game at month 1's action phase, after a draft of the first legal pairs, each pair
    housed one person per palace (the first legal choice)."""
    s = new_game(players, seed, **options)
    while s.snapshot()["phase"] in ("draft", "start"):
        s.apply_action(s.legal_actions()[0])
    return s


def blank_month(s: DragonState, month: int, event: str, *, groups=None, tracks=None) -> None:
    """Set the month and its event, and give seats 0..n-1 the acting order 0 first."""
    events = [data.EVENTS[e] for e in s.snapshot()["events"]]
    events[month - 1] = event
    s._debug_set_board(month=month, events=events, groups=groups)
    n = s.num_players()
    for i in range(n):
        s._debug_set_player(i, track=(tracks[i] if tracks else 100 - 10 * i))


def card(name: str) -> int:
    """The action id of taking the action card `name` (not privilege / wall)."""
    return LAYOUT["card"] + CARD_NAMES.index(name)


def type_index(name: str) -> int:
    return [t.name for t in data.TYPES].index(name)


def kind_index(name: str) -> int:
    return [k.name for k in data.KINDS].index(name)


def release(palace: int, person: str) -> int:
    """Release the person `person` from palace `palace` (0-based)."""
    return LAYOUT["release"] + palace * data.N_TYPES + type_index(person)


def play(person: str) -> int:
    return LAYOUT["play"] + type_index(person)


def place(palace: int) -> int:
    return LAYOUT["place"] + palace


def build(palace: int) -> int:
    return LAYOUT["build"] + palace


def seat(s: DragonState, i: int) -> dict:
    return s.snapshot()["seats"][i]


def persons(s: DragonState, i: int) -> list[list[str]]:
    """Each palace's persons by name."""
    return [[data.TYPES[t].name for t in p["persons"]] for p in seat(s, i)["palaces"]]


def floors(s: DragonState, i: int) -> list[int]:
    return [p["floors"] for p in seat(s, i)["palaces"]]


def play_out_turn(s: DragonState, seat_index: int, action: int) -> None:
    assert s.current_player() == seat_index, (s.current_player(), seat_index, s.decision_name())
    s.apply_action(action)


def short_wall_after_the_mongols() -> DragonState:
    """The Great Wall example: 3 players, a wall of 2 sections (seats 0 and 1) when the Mongols
    of month 5 come; seat 2 has 2 helmets, the others 1. Run to the first release."""
    s = started(players=3, great_wall=True)
    for i in range(3):
        s._debug_set_player(i, score=0, palaces=[(2, ["old warrior", "craftsman"])])
    s._debug_set_player(2, palaces=[(3, ["old warrior", "young warrior", "craftsman"])])
    s._debug_set_board(wall=[(0, "1 rice"), (1, "1 rice")])
    blank_month(s, 5, "mongol invasion")
    s._debug_run_from("event")
    return s
