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
