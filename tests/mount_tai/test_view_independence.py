"""A view of a seat depends on what the seat knows and on the caller's seed, never on the order
of what is hidden: two games that the seat cannot tell apart (two views of one game, which
differ in the face-down piles and the supply's order) give the same view for the same seed.
`tianti review` relies on it, since it makes its views from a seed the user can know."""
from __future__ import annotations

import random

import pytest

from engine.registry import load_game

TABLES = [{"players": 2}, {"players": 4}, {"players": 1, "solo": True},
          {"players": 1, "solo": True, "challenge": 6}]


@pytest.mark.parametrize("options", TABLES, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()))
def test_a_view_does_not_depend_on_the_order_of_hidden_things(options: dict) -> None:
    game = load_game("mount-tai", **options)
    compared = differing_truths = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        for step in range(60):
            if state.is_terminal():
                break
            if step % 10 == 0:
                seat = state.current_player()
                one = state.resample_from_infostate(seat, 11)
                two = state.resample_from_infostate(seat, 22)
                assert one.information_state_string(seat) == two.information_state_string(seat)
                differing_truths += one.raw_bytes() != two.raw_bytes()
                assert (one.resample_from_infostate(seat, 7).raw_bytes()
                        == two.resample_from_infostate(seat, 7).raw_bytes())
                compared += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared >= 20 and differing_truths >= compared // 2  # the two truths did differ
