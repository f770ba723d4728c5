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
    """Make edict `number` an uncovered tile of seat i and return its slot: if it lies covered,
    it swaps places with an uncovered tile (or moves to an empty top slot); if it is gone, it
    comes back on an empty top slot (or in place of an uncovered tile)."""
    me = seat(s, i)
    slots, unc = me["slots"], me["uncovered"]
    empty_top = [x for x in range(25, 29) if slots[x] is None]
    if number in slots:
        here = slots.index(number)
        if here in unc:
            return here
        target = unc[0] if unc else empty_top[0]
        s._debug_set_player(i, tiles={target: number, here: slots[target] or 0})
        return target
    target = empty_top[0] if empty_top else unc[0]
    s._debug_set_player(i, tiles={target: number})
    return target


def use_tile(s: MountTaiState, i: int, number: int) -> None:
    """Seat i (to move in its policy decision) uses edict `number`."""
    assert s.current_player() == i and s.snapshot()["phase"] == "policy", s.decision_name()
    s.apply_action(act("use", uncover(s, i, number)))


def dry(s: MountTaiState) -> None:
    """No water and no tribes anywhere on the mountain."""
    s._debug_set_board(water=set(), tribes=set())


def policy_position(players: int = 4, seed: int = 1, seat_index: int = 0, **options: Any) -> MountTaiState:
    """A fresh game on a dry mountain, with `seat_index`'s policy decision due."""
    s = new_game(players, seed, **options)
    dry(s)
    s._debug_policy(seat_index)
    return s


def event_reward_example() -> tuple[MountTaiState, int]:
    """The rulebook's event activation: red holds 8 money, the season's bonus is money, and the
    red +2 money event tile lies on space 3; run to red's event choice. Returns the state and
    that tile's index."""
    s = new_game(4)
    red_money_2 = next(i for i, e in enumerate(data.EVENT_TILES)
                       if e.colour == 3 and e.kind == data.EV_MONEY and e.amount == 2)
    s._debug_set_board(round=0, events={0: [0, 8, 16, red_money_2]},
                       season_bonus=["money", "grain", "wine", "reputation"],
                       order=[RED, GREEN, YELLOW, BLUE])
    s._debug_set_player(RED, money=8)
    s._debug_run_from("events")
    return s, red_money_2
