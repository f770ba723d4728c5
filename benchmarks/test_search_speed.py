"""Search speed: ISMCTS at the opening of a 4-player Dragon game and a 3-player Mount Tai game,
with one and two threads, beside OpenSpiel's Python ISMCTS on the same position.

Every benchmark runs one search of a fixed number of iterations (the total over threads), so
iterations per second = ITERATIONS / mean time; `extra_info` records the rate. Compare figures
within one run (`make bench`, or `pytest benchmarks/test_search_speed.py --benchmark-only`):
threads=2 against threads=1, ours against OpenSpiel's.
"""
from __future__ import annotations

from typing import Any

import pytest

import engine
from ai.benchmark import positions
from ai.bots import make_bot

ITERATIONS = 20000       # ours, per search
THEIR_ITERATIONS = 200   # OpenSpiel's Python ISMCTS, per search
OPENINGS = [("dragon", 4), ("mount-tai", 3)]


def _opening(game: str, players: int) -> Any:
    return positions(engine.load_game(game, players=players), seed=0)["opening"]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game,players", OPENINGS)
def test_ismcts_opening(benchmark: Any, game: str, players: int, threads: int) -> None:
    """One random-playout ISMCTS search of ITERATIONS iterations from the opening."""
    state = _opening(game, players)
    bot = make_bot(f"ismcts(iterations={ITERATIONS},playout=random,reuse=false,"
                   f"threads={threads},seed=1)")

    def search() -> dict[str, Any]:
        bot.restart()
        return bot.analyse(state)

    result = benchmark.pedantic(search, rounds=5, warmup_rounds=1)
    assert result["iterations"] == ITERATIONS
    benchmark.extra_info["iterations_per_second"] = ITERATIONS / benchmark.stats.stats.mean
    benchmark.extra_info["bytes_per_node"] = result["node_bytes"]


@pytest.mark.parametrize("game,players", OPENINGS)
def test_openspiel_ismcts_opening(benchmark: Any, game: str, players: int) -> None:
    """OpenSpiel's Python ISMCTS (random rollouts) on the same opening, through
    engine/openspiel.py (needs the `openspiel` extra)."""
    pytest.importorskip("pyspiel")
    from openspiel_side_by_side import OpenSpielISMCTS

    import engine.openspiel as eo

    state = _opening(game, players)
    os_game = eo.load(game, players=players, rng_seed=0)
    theirs = OpenSpielISMCTS(os_game, THEIR_ITERATIONS, 0.7, seed=1)

    def search() -> tuple[int, float, int]:
        theirs.restart()
        return theirs.search(state)

    benchmark.pedantic(search, rounds=3, warmup_rounds=0)
    benchmark.extra_info["iterations_per_second"] = THEIR_ITERATIONS / benchmark.stats.stats.mean


LEAF_VALUES = ["", ",mix=0.5,evaluation=hand", ",mix=0.5,evaluation=learned",
               ",cutoff=16,evaluation=learned"]


@pytest.mark.parametrize("extra", LEAF_VALUES, ids=["playouts", "mix-hand", "mix-learned",
                                                    "cutoff16-learned"])
def test_leaf_value_cost(benchmark: Any, extra: str) -> None:
    """`strong`'s Dragon search (2 players, the midgame position) with a value at the leaf:
    mixed into each playout's reward, or in place of the playout's end. The same iterations
    each, so the ratio of times is the cost (or the saving) of the value."""
    state = positions(engine.load_game("dragon", players=2), seed=0)["midgame"]
    bot = make_bot(f"strong(iterations=5000,reuse=false,seed=1{extra})")

    def search() -> dict[str, Any]:
        bot.restart()
        return bot.analyse(state)

    result = benchmark.pedantic(search, rounds=5, warmup_rounds=1)
    assert result["iterations"] == 5000
    benchmark.extra_info["iterations_per_second"] = 5000 / benchmark.stats.stats.mean
