"""Random games finish in every mode, with distinct action names at every decision."""
from __future__ import annotations

import random

import pytest

from tests.mount_tai.helpers import new_game

MODES = [dict(players=2), dict(players=3), dict(players=4, promos=False),
         dict(players=4, grand_tutors=True), dict(solo=True)] + [dict(challenge=g) for g in range(1, 9)]


@pytest.mark.parametrize("opts", MODES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_finish_with_named_actions(opts):
    rng = random.Random(7)
    for g in range(3):
        s = new_game(seed=rng.randrange(10**6), **opts)
        steps = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal, s.decision_name()
            names = [s.action_to_string(a) for a in legal]
            assert all(names) and len(set(names)) == len(names), names
            a = rng.choice(legal)
            assert s.string_to_action(s.action_to_string(a)) == a
            s.apply_action(a)
            steps += 1
        assert s.snapshot()["round"] == 16
        assert "Final:" in str(s)
