"""The referee's cost per move (issue 35): the view built for each call into a bot at move 0
and at move 120 of a game (it must not grow with the move number), a whole refereed quick game
of tianti's own bots, and the closing ladder's TrueSkill update.

Compare the figures of one run with each other (the machine is shared and noisy).
"""
from __future__ import annotations

import random

import pytest
import trueskill

import engine
from ai.bots import make_bot
from ai.match import Referee, play_game
from ladder.tournament.ratings import ENV
from ladder.tournament.trueskill_ffa import rate_free_for_all


def _at_move(game: str, players: int, move: int):
    """A random game's state at decision `move` (seed fixed)."""
    rng = random.Random(3)
    seed = 0
    while True:
        state = engine.load_game(game, players=players).new_initial_state(seed)
        while state.move_number() < move and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state
        seed += 1


@pytest.mark.parametrize("move", [0, 60, 120])
@pytest.mark.parametrize("game", ["dragon", "mount-tai"])
def test_view_for_a_move(benchmark, game, move):
    """The view handed to the mover (`resample_from_infostate`) at decision `move`."""
    state = _at_move(game, 3, move)
    seat = state.current_player()
    view = benchmark(state.resample_from_infostate, seat, 12345)
    assert view.move_number() == move


@pytest.mark.parametrize("trusted", [True, False], ids=["own-bots", "guarded"])
def test_refereed_quick_game(benchmark, trusted):
    """One refereed Dragon 3p game of random/heuristic/random: tianti's own bots (trusted: no
    state guard) against the guarded referee of users' bots."""
    game = engine.load_game("dragon", players=3)
    seeds = iter(range(1 << 30))

    def one_game():
        seed = next(seeds)
        bots = [make_bot(f"random(seed={seed})"), make_bot(f"heuristic(seed={seed})"),
                make_bot(f"random(seed={seed + 1})")]
        return play_game(game.new_initial_state(seed), bots, resample_seed=seed,
                         referee=Referee(fallback_seed=seed, trusted=trusted), trusted=trusted)

    benchmark(one_game)


@pytest.mark.parametrize("how", ["trueskill_ffa", "package"])
def test_rate_a_three_player_game(benchmark, how):
    """The closing ladder's update after one 3-player game."""
    ratings = [ENV.create_rating(27.1, 3.2), ENV.create_rating(24.0, 2.9),
               ENV.create_rating(23.5, 3.4)]
    if how == "package":
        benchmark(lambda: ENV.rate([(r,) for r in ratings], ranks=[1, 0, 2]))
    else:
        benchmark(rate_free_for_all, ENV, ratings, [1, 0, 2])
    assert isinstance(ratings[0], trueskill.Rating)
