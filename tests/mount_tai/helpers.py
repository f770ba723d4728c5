"""Helpers to build rulebook positions of Mount Tai for tests."""
from __future__ import annotations

import random
from typing import Any

import engine
from engine.mount_tai import data
from engine.mount_tai.game import BUILDING_NAMES, LAYOUT, TALENT_NAMES, MountTaiState

RED, GREEN, YELLOW, BLUE = range(4)


def new_game(players: int = 4, seed: int = 1, **options: Any) -> MountTaiState:
    if options.get("solo") or options.get("challenge"):
        return engine.load_game("mount-tai", **options).new_initial_state(seed)
    return engine.load_game("mount-tai", players=players, **options).new_initial_state(seed)


def play_random(s: MountTaiState, seed: int = 0, until=None) -> MountTaiState:
    """Random legal actions until the end (or until `until(s)` holds)."""
    rng = random.Random(seed)
    while not s.is_terminal() and not (until and until(s)):
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def seat(s: MountTaiState, i: int) -> dict:
    return s.snapshot()["seats"][i]


def cell(a: int, b: int) -> int:
    return a * 4 + b


def act(name: str, k: int = 0) -> int:
    """The action id `LAYOUT[name] + k`."""
    return LAYOUT[name] + k


def effect(name: str) -> int:
    return LAYOUT["effect"] + data.EFFECTS.index(name)


def talent(name: str) -> int:
    return TALENT_NAMES.index(name)


def building(name: str) -> int:
    return BUILDING_NAMES.index(name)


def slot_of(s: MountTaiState, i: int, number: int) -> int:
    return seat(s, i)["slots"].index(number)


def uncover(s: MountTaiState, i: int, number: int) -> int:
    """Put edict `number` on top of seat i's pyramid (swapping it with a tier I slot if needed,
    to keep the pyramid a permutation) and return its slot, which is uncovered."""
    slots = seat(s, i)["slots"]
    top = 25  # tier I slot (0, 0)
    here = slots.index(number)
    if here != top:
        s._debug_set_player(i, tiles={top: number, here: slots[top]})
    return top
