"""Dragon positions where one move is clearly right; the strong bot must find it in at least 9
of 10 seeds."""
from __future__ import annotations

from typing import Callable

import pytest

from engine.dragon import data
from engine.dragon.game import LAYOUT
from tests.ai.clear_moves import assert_found
from tests.dragon.helpers import blank_month, card, kind_index, place, play, started, type_index

SPEC = "strong(iterations=6000,seed={seed})"
ALL4 = [["taxes", "build"], ["harvest", "fireworks"], ["military parade", "research"],
        ["privilege"]]


def harvest_before_drought():
    """Drought this month, three inhabited palaces, no rice: harvest (two farmers: 5 rice)."""
    s = started(players=2)
    blank_month(s, 5, "drought", groups=[["harvest", "research", "taxes", "build"],
                                          ["fireworks", "military parade", "privilege"]])
    s._debug_set_player(0, yuan=6, rice=0, palaces=[
        (2, ["old farmer", "young farmer"]), (2, ["court lady"]), (2, ["craftsman"])])
    s._debug_set_player(1, rice=5)
    s._debug_start_round("action")
    return s, {card("harvest")}


def healer_before_contagion():
    """Contagion this month, no healer: recruit a healer (old saves two persons)."""
    s = started(players=2)
    blank_month(s, 6, "contagion")
    s._debug_set_player(0, palaces=[(3, ["craftsman", "court lady", "young monk"]), (3, [])],
                        hand=["healer", "farmer", "scholar", "craftsman"], wildcards=0)
    s._debug_start_round("person")
    return s, {play("old healer"), play("young healer")}


def taxes_before_tribute():
    """Tribute this month with no money: taxes with two tax collectors gives 8."""
    s = started(players=2)
    blank_month(s, 4, "imperial tribute", groups=[["taxes", "research"],
                                                  ["harvest", "fireworks", "build", "military parade", "privilege"]])
    s._debug_set_player(0, yuan=0, palaces=[(2, ["tax collector", "tax collector"]),
                                            (2, ["court lady", "craftsman"])])
    s._debug_start_round("action")
    return s, {card("taxes")}


def fireworks_before_festival():
    """Dragon festival this month; the rival has 2 fireworks, we have none: fireworks (3 tiles
    with two old pyrotechnists) wins the 6 VP."""
    s = started(players=2)
    blank_month(s, 8, "dragon festival", groups=[["fireworks", "taxes"],
                                                 ["harvest", "research", "build", "military parade", "privilege"]])
    s._debug_set_player(0, fireworks=0, yuan=2, palaces=[(2, ["old pyrotechnist", "old pyrotechnist"])])
    s._debug_set_player(1, fireworks=2)
    s._debug_start_round("action")
    return s, {card("fireworks")}


def warrior_before_mongols():
    """Mongol invasion this month; the rival has a warrior, we have none: recruit a warrior."""
    s = started(players=2)
    blank_month(s, 9, "mongol invasion")
    s._debug_set_player(0, palaces=[(3, ["craftsman", "court lady"]), (2, ["young monk"])],
                        hand=["warrior", "farmer", "craftsman"], wildcards=0)
    s._debug_set_player(1, palaces=[(2, ["young warrior", "craftsman"])])
    s._debug_start_round("person")
    return s, {play("old warrior"), play("young warrior")}


def research_in_the_last_month():
    """Month 12, two old scholars: research is 7 VP; nothing else comes close."""
    s = started(players=2)
    blank_month(s, 12, "peace", groups=[["research", "taxes"],
                                        ["harvest", "fireworks", "build", "military parade", "privilege"]])
    s._debug_set_player(0, yuan=0, palaces=[(3, ["old scholar", "old scholar", "craftsman"])])
    s._debug_start_round("action")
    return s, {card("research")}


def wildcard_healer_before_contagion():
    """Contagion this month, no healer card left but a wildcard: a healer saves two persons."""
    s = started(players=2)
    blank_month(s, 6, "contagion")
    s._debug_set_player(0, palaces=[(3, ["craftsman", "court lady", "young monk"]), (2, ["young farmer"])],
                        hand=["farmer", "scholar", "craftsman"], wildcards=1)
    s._debug_start_round("person")
    return s, {LAYOUT["wild"] + type_index("old healer"), LAYOUT["wild"] + type_index("young healer")}


def build_room_before_recruiting():
    """Every palace full and a person to recruit this month: build (two craftsmen, 3 floors)."""
    s = started(players=2)
    blank_month(s, 3, "peace", groups=[["build", "fireworks"],
                                       ["harvest", "taxes", "research", "military parade", "privilege"]])
    s._debug_set_player(0, yuan=1, palaces=[(2, ["craftsman", "craftsman"]), (1, ["court lady"])])
    s._debug_start_round("action")
    return s, {card("build")}


def flood_keeps_the_rice():
    """Flood with a drought next month and just enough rice: discard yuan, never rice."""
    s = started(players=2, super_event="flood")
    s._debug_set_player(0, yuan=2, rice=2, fireworks=0,
                        palaces=[(2, ["craftsman", "court lady"]), (2, ["young monk"])])
    s._debug_set_player(1, yuan=0, rice=0, fireworks=0)
    blank_month(s, 7, "peace")
    events = [data.EVENTS[e] for e in s.snapshot()["events"]]
    events[7] = "drought"
    s._debug_set_board(events=events)
    s._debug_run_from("event")
    assert s.snapshot()["phase"] == "flood" and s.current_player() == 0
    return s, {LAYOUT["flood"] + 0}


def keep_the_palace_inhabited():
    """Tribute releases one person: release from the palace with two persons, not the lone
    court lady whose palace would then decay."""
    s = started(players=2)
    s._debug_set_player(0, yuan=3, palaces=[(2, ["craftsman", "craftsman"]), (3, ["court lady"])])
    blank_month(s, 5, "imperial tribute")
    s._debug_run_from("event")
    assert s.current_player() == 0
    return s, {LAYOUT["release"] + type_index("craftsman")}


POSITIONS: dict[str, Callable] = {
    "harvest before a drought": harvest_before_drought,
    "healer before a contagion": healer_before_contagion,
    "taxes before a tribute": taxes_before_tribute,
    "fireworks before a festival": fireworks_before_festival,
    "warrior before the Mongols": warrior_before_mongols,
    "research in the last month": research_in_the_last_month,
    "wildcard healer before a contagion": wildcard_healer_before_contagion,
    "build room before recruiting": build_room_before_recruiting,
    "flood keeps the rice": flood_keeps_the_rice,
    "keep a palace inhabited": keep_the_palace_inhabited,
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_strong_bot_finds_the_clear_move(name: str) -> None:
    state, right = POSITIONS[name]()
    assert_found(name, state, right, SPEC)
