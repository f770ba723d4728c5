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


def old_insertion_sort(values: list[int]) -> list[int]:
    """The oracle: supply_redeal's sort before it counted (the insertion sort it repeated),
    kept here as it was written in supply.pyx."""
    a = list(values)
    for j in range(1, len(a)):
        v = a[j]
        k = j - 1
        while k >= 0 and a[k] > v:
            a[k + 1] = a[k]
            k -= 1
        a[k + 1] = v
    return a


def test_the_supplys_order_before_the_redeal_is_the_old_sorts():
    """supply_redeal rebuilds the supply from counts: the order it shuffles is the one the
    old insertion sort gave, for random supplies and for every supply of random games."""
    from engine.mount_tai.supply import sorted_supply

    rng = random.Random(5)
    for _ in range(3000):
        values = [rng.randrange(8) for _ in range(rng.randrange(25))]
        assert sorted_supply(values) == old_insertion_sort(values)
    odd = [255, 0, 9, 9, 200, 1]  # any byte is counted (a restored view's block is not trusted)
    assert sorted_supply(odd) == old_insertion_sort(odd)
    with pytest.raises(ValueError, match="at most 24"):
        sorted_supply([0] * 25)
    seen = 0
    for options in TABLES:
        for seed in range(3):
            state, play = load_game("mount-tai", **options).new_initial_state(seed), random.Random(seed)
            while not state.is_terminal():
                supply = state.snapshot()["supply"]
                assert sorted_supply(supply) == old_insertion_sort(supply)
                view = state.resample_from_infostate(state.current_player(), seed)
                assert sorted(view.snapshot()["supply"]) == sorted(supply)  # only reordered
                seen += len(supply) > 1
                state.apply_action(play.choice(state.legal_actions()))
    assert seen > 500
