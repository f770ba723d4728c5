"""Invariants over many seeded random games, for every player count and expansion mix."""
from __future__ import annotations

import itertools
import random

import pytest

from engine.dragon import data
from engine.dragon.invariants import check, random_game_sweep
from tests.dragon.helpers import new_game

MIXES = list(itertools.product([2, 3, 4, 5], [False, True], [False, True]))


@pytest.mark.parametrize("players, wall, supers", MIXES)
def test_compiled_sweep(players, wall, supers):
    """700 games per mix (11,200 in all), every invariant checked after every step."""
    state = new_game(players, great_wall=wall, super_events=supers)
    result = random_game_sweep(state, 700, seed=1000 * players + 10 * wall + supers)
    assert result["violations"] == [], result
    assert result["steps"] > 700 * 40 * players


def test_checker_catches_a_broken_state():
    s = new_game(3)
    assert check(s) == []
    s._debug_set_player(0, yuan=-1)
    assert "resource" in check(s)
    s = new_game(3)
    s._debug_set_board(display={"craftsman": 0})
    assert "supply" in check(s)


def recount_final(seat: dict) -> dict:
    persons = [t for p in seat["palaces"] for t in p["persons"]]
    monks = sum(
        data.TYPES[t].symbols * p["floors"]
        for p in seat["palaces"] for t in p["persons"]
        if data.KINDS[data.TYPES[t].kind].name == "monk"
    )
    money = (seat["yuan"] + 2 * (seat["rice"] + seat["fireworks"])) // 3
    return {"persons": 2 * len(persons), "monks": monks, "money": money}


@pytest.mark.parametrize("players, wall, supers", [(2, False, False), (3, True, False),
                                                   (4, False, True), (5, True, True)])
def test_scores_agree_with_a_recount(players, wall, supers):
    """Month scoring and final scoring recounted in Python from the board, step by step."""
    rng = random.Random(players)
    for g in range(40):
        s = new_game(players, seed=rng.randrange(10**9), great_wall=wall, super_events=supers)
        prev = s.snapshot()
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            snap = s.snapshot()
            if snap["month"] != prev["month"] or snap["phase"] == "over":
                # Between these two snapshots came decay and the month scoring: recount it
                # from the board as it stands after the scoring (palaces, ladies, dragons).
                for i, (a, b) in enumerate(zip(prev["seats"], snap["seats"])):
                    if prev["phase"] in ("draft", "start"):
                        continue
                    ladies = sum(1 for p in b["palaces"] for t in p["persons"]
                                 if data.TYPES[t].kind == 1)
                    dragons = b["privileges_small"] + 2 * b["privileges_large"]
                    if snap["phase"] != "over":
                        assert b["vp"]["palaces"] - a["vp"]["palaces"] == len(b["palaces"])
                        assert b["vp"]["court ladies"] - a["vp"]["court ladies"] == ladies
                        assert b["vp"]["privileges"] - a["vp"]["privileges"] == dragons
            prev = snap
        for seat in s.snapshot()["seats"]:
            assert sum(seat["vp"].values()) == seat["score"]
            got = {k: seat["vp"][k] for k in ("persons", "monks", "money")}
            assert got == recount_final(seat)
            assert seat["vp"]["persons"] >= 0
        assert s.snapshot()["month"] == 12
