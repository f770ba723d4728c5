"""Engine speed: compiled random playouts, and the Python-facing State calls for comparison.

Compare the figures of one run with each other (the machine is shared and noisy); the CLI
`tianti bench playouts` gives the headline games-per-second figure.
"""
from __future__ import annotations

import random

import pytest

import engine
from engine.core.playout import random_playouts


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_dragon_compiled_random_games(benchmark, players):
    """100 random full games inside the compiled core (reset + legal + apply per decision)."""
    state = engine.load_game("dragon", players=players).new_initial_state(0)
    result = benchmark(random_playouts, state, games=100, seed=1)
    benchmark.extra_info["decisions_per_game"] = result["decisions_per_game"]


def test_dragon_compiled_random_games_with_expansions(benchmark):
    state = engine.load_game("dragon", players=4, great_wall=True,
                             super_events=True).new_initial_state(0)
    benchmark(random_playouts, state, games=100, seed=1)


def test_dragon_python_state_random_game(benchmark):
    """One 4-player random game through the Python State API (legality-checked apply)."""
    game = engine.load_game("dragon", players=4)
    rng = random.Random(0)

    def one_game():
        s = game.new_initial_state(rng.randrange(1 << 32))
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        return s

    benchmark(one_game)


def test_dragon_clone(benchmark):
    s = engine.load_game("dragon", players=4).new_initial_state(0)
    benchmark(s.clone)


def test_dragon_resample(benchmark):
    s = engine.load_game("dragon", players=4).new_initial_state(0)
    benchmark(s.resample_from_infostate, 0, 7)
