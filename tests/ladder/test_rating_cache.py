"""Issue 35: a run's closing ladder fills the rating cache, and a cached `ladder show` neither
rates nor reads every stored game again, while saying exactly what a full recompute says
(games stored later make the cache fit their pools again, from the cache's bookmark)."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from ladder.tournament import ratings
from ladder.tournament.ratings import _ladder_of_games, bookmark, ladder
from ladder.tournament.schedule import plan
from ladder.tournament.store import Store
from ladder.tournament.worker import play_task
from tests.ladder.helpers import cli


class Counted:
    """Counts the calls of a function it stands in for."""

    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.fn(*args, **kwargs)


@pytest.fixture
def counters(monkeypatch: pytest.MonkeyPatch) -> dict[str, Counted]:
    """The per-game JSON parse of the store and the fits of a pool's ratings, counted."""
    parse = Counted(Store._json)
    rate = Counted(ratings.fit_pool)
    monkeypatch.setattr(Store, "_json", lambda self, *a, **k: parse(self, *a, **k))
    monkeypatch.setattr(ratings, "fit_pool", rate)
    return {"parse": parse, "rate": rate}


def _run(db: Path, *extra: object, deals: int = 8, seed: int = 3) -> dict:
    r = cli("tournament", "run", "--db", db, "-p", 3, "-b", "r=random", "-b", "h=heuristic",
            "-b", "r2=random", "--deals", deals, "--seed", seed, "--workers", 1, "--json", *extra)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _show(db: Path) -> list[dict]:
    r = cli("ladder", "show", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _full(db: Path) -> list[dict]:
    """The ladder from every game read and rated again in memory (the pre-cache way)."""
    with Store(db, create=False, write=False) as store:
        return [p.to_dict() for p in _ladder_of_games(store, None, None, None, None)]


def test_a_json_run_fills_the_cache_and_a_cached_show_reads_no_game(
        tmp_path: Path, counters: dict[str, Counted]) -> None:
    db = tmp_path / "c.db"
    summary = _run(db)
    games = summary["done"]
    assert games == 48
    with Store(db, create=False) as store:
        (last,) = store.conn.execute("SELECT MAX(id) FROM games").fetchone()
        assert bookmark(store) == last  # every game rated into the cache by the run itself
        cached = dict(((b, n) for b, n in store.conn.execute("SELECT bot, games FROM ratings")))
    assert cached == {"r": games, "h": games, "r2": games}
    rated_by_run = counters["rate"].calls
    assert rated_by_run == 1  # one fit of the pool: the run's own ladder is the cache's
    counters["parse"].calls = 0
    shown = _show(db)
    assert counters["rate"].calls == rated_by_run  # nothing rated again
    assert counters["parse"].calls == 1  # one pool: its options, read once; no game parsed
    assert shown == _full(db)
    assert shown[0] == summary["ladder"]
    assert cli("ladder", "recompute", "--db", db).exit_code == 0
    assert _show(db) == shown


def test_games_stored_later_are_rated_from_the_bookmark(tmp_path: Path,
                                                        counters: dict[str, Counted]) -> None:
    db = tmp_path / "later.db"
    _run(db, deals=4)
    with Store(db) as store:
        first = bookmark(store)
        spec = store.run(1).spec
        run = store.create_run(spec, planned=6)
        extra = [play_task(t) for t in plan(replace(spec, deals=1, seed=11), run)]
        for outcome in extra:
            store.save_game(outcome)
    before = counters["rate"].calls
    shown = _show(db)
    assert len(extra) == 6
    assert counters["rate"].calls - before == 1  # the one pool with new games, once
    with Store(db, create=False) as store:
        assert bookmark(store) == first + 6
    assert shown == _full(db)
    assert cli("ladder", "recompute", "--db", db).exit_code == 0
    assert _show(db) == shown


def test_a_second_run_in_the_pool_keeps_its_own_ladder(tmp_path: Path) -> None:
    """A run's own ladder rates its games alone; the cache rates the pool's games of all runs."""
    db = tmp_path / "two.db"
    _run(db, deals=3)
    second = _run(db, deals=3, seed=9)
    with Store(db, create=False) as store:
        (own,) = _ladder_of_games(store, None, None, None, 2)
        (pool,) = ladder(store)
    assert second["ladder"] == own.to_dict()
    assert all(r.games == 36 for r in pool.rows) and pool.to_dict() == _full(db)[0]


def test_a_store_without_the_cache_shows_the_same_ladder(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only store (or an old schema) rates in memory: the same rows as the cache's."""
    db = tmp_path / "ro.db"
    _run(db, deals=3)
    _run(db, deals=2, seed=9)
    cached = _show(db)
    monkeypatch.setattr(ratings, "can_cache", lambda store: False)
    with Store(db, create=False, write=False) as store:
        assert [p.to_dict() for p in ladder(store)] == cached == _full(db)
        (run2,) = ladder(store, run=2)
        assert run2.to_dict() == _ladder_of_games(store, None, None, None, 2)[0].to_dict()
