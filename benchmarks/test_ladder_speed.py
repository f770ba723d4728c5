"""The ladder of a store whose ratings are all cached (issue 35): what `tianti ladder show`
costs once a run has filled the cache, against reading and rating every game again.

The store is made once per session: 1,200 quick games (Dragon, 3 players, random, heuristic
and random, every seating), played in this process and stored game by game. Compare the
figures of one run with each other (the machine is shared and noisy).
"""
from __future__ import annotations

from typing import Iterator

import pytest

import engine
from ladder.tournament.ratings import _ladder_of_games, bookmark, ladder, update_ratings
from ladder.tournament.schedule import TournamentSpec, plan
from ladder.tournament.store import Store
from ladder.tournament.worker import play_task

GAMES = 1200


@pytest.fixture(scope="module")
def cached_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    game = engine.load_game("dragon", players=3)
    spec = TournamentSpec("dragon", game.options, (("r", "random"), ("h", "heuristic"),
                                                   ("r2", "random")), GAMES // 6, seed=1)
    store = Store(tmp_path_factory.mktemp("ladder") / "bench.db")
    run = store.create_run(spec, planned=GAMES)
    for task in plan(spec, run):
        store.save_game(play_task(task))
    update_ratings(store)
    (last,) = store.conn.execute("SELECT MAX(id) FROM games").fetchone()
    assert bookmark(store) == last
    yield store
    store.close()


def test_cached_ladder(benchmark, cached_store: Store) -> None:
    """`ladder show` with every rating cached: the statistics counted by SQLite, each pool's
    options read once, nothing rated."""
    (pool,) = benchmark(ladder, cached_store)
    assert all(r.games == GAMES for r in pool.rows)


def test_ladder_from_every_game(benchmark, cached_store: Store) -> None:
    """For comparison: every game read (its options parsed) and rated again in memory, as a
    store that cannot hold the cache is shown."""
    (pool,) = benchmark.pedantic(_ladder_of_games, (cached_store, None, None, None, None),
                                 rounds=3)
    assert all(r.games == GAMES for r in pool.rows)


def _simulated_pool(n: int, bots: int, players: int, seed: int) -> list[list[tuple[str, int]]]:
    """`n` games of `players` seats among `bots` bots of spread strengths (performance: the
    strength plus normal noise of TrueSkill's beta)."""
    import random

    rng = random.Random(seed)
    skill = [rng.gauss(25.0, 3.0) for _ in range(bots)]
    games = []
    for _ in range(n):
        seated = rng.sample(range(bots), players)
        perf = {b: skill[b] + rng.gauss(0.0, 25 / 6) for b in seated}
        order = sorted(seated, key=lambda b: -perf[b])
        games.append([(f"bot{b}", order.index(b)) for b in seated])
    return games


@pytest.mark.parametrize("n", [2400, 24000])
def test_fit_a_pool_from_scratch(benchmark, n: int) -> None:
    """A pool's ratings from all its games at once (what `recompute`, and the cache for a pool
    with new games, does): 8 bots, 3 players."""
    from ladder.tournament.ratings import ENV, MARGIN
    from ladder.tournament.through_time import skills

    games = _simulated_pool(n, 8, 3, seed=3)
    fitted = benchmark.pedantic(skills, (games,), dict(mu=ENV.mu, sigma=ENV.sigma,
                                                       beta=ENV.beta, margin=MARGIN), rounds=3)
    assert len(fitted) == 8
