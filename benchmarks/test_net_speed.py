"""The net's cost in the search (issue 38): `strong` at 5,000 iterations from the 2-player Mount
Tai middle game of ai.benchmark.positions (deal 0), with today's options and with the net as the cut-off's value and as the PUCT prior.
Compare the rows within one run (`pytest benchmarks/test_net_speed.py --benchmark-only`);
`extra_info` records the iterations per second.
"""
from __future__ import annotations

from typing import Any

import pytest

import engine
from ai.benchmark import positions
from ai.bots import make_bot

ITERATIONS = 5000
OPTIONS = ["", "evaluation=net,", "prior=net,puct=2.0,", "evaluation=net,prior=net,puct=2.0,"]


def _position() -> Any:
    return positions(engine.load_game("mount-tai", players=2), seed=0)["midgame"]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o.rstrip(",") or "strong")
def test_strong_with_the_net(benchmark: Any, options: str) -> None:
    """One search of ITERATIONS iterations, tree dropped between rounds."""
    state = _position()
    bot = make_bot(f"strong(iterations={ITERATIONS},{options}reuse=false,seed=1)")

    def search() -> dict[str, Any]:
        bot.restart()
        return bot.analyse(state)

    result = benchmark.pedantic(search, rounds=5, warmup_rounds=1)
    assert result["iterations"] == ITERATIONS
    benchmark.extra_info["iterations_per_second"] = ITERATIONS / benchmark.stats.stats.mean
