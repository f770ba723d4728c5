"""Old stores on the current schema: a schema-2 store written by the release before schema 3
(tests/fixtures/stores/schema2.db: 4 pools, 26 games; schema2.export.jsonl is its `tianti
ladder export`) is read as it is when opened for reading, and migrated in place, without
losing or changing a game, a seat, a run or the ladder, when opened for writing."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from ladder.tournament.ratings import bookmark, can_cache, head_to_head, history, ladder
from ladder.tournament.schedule import TournamentSpec, plan
from ladder.tournament.store import SCHEMA_VERSION, Store, pool_key
from ladder.tournament.worker import play_task

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "stores"


def _copy(tmp_path: Path) -> Path:
    db = tmp_path / "schema2.db"
    shutil.copyfile(FIXTURES / "schema2.db", db)
    return db


def _exported() -> list[dict[str, Any]]:
    lines = (FIXTURES / "schema2.export.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _everything(store: Store) -> dict[str, Any]:
    """What a user can get out of a store through the Store and ratings APIs."""
    return {
        "games": [g.to_dict() for g in store.games()],
        "runs": [r.to_dict() for r in store.runs()],
        "bots": store.bots(),
        "ladder": [p.to_dict() for p in ladder(store)],
        "h2h": [head_to_head(store, p).to_dict() for p in ladder(store)],
        "history": history(store, "mount-tai", 3),
    }


def _schema(db: Path) -> dict[str, Any]:
    """The store's tables (their columns and foreign keys) and indexes (their columns),
    SQLite's own tables left out (an upgraded table's SQL text differs in its spacing)."""
    conn = sqlite3.connect(db)
    try:
        out: dict[str, Any] = {}
        for kind, name, table in conn.execute(
                "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"):
            if kind == "table":
                out[name] = (conn.execute(f"PRAGMA table_info({name})").fetchall(),
                             conn.execute(f"PRAGMA foreign_key_list({name})").fetchall())
            else:
                out[name] = (table, conn.execute(f"PRAGMA index_info({name})").fetchall())
        return out
    finally:
        conn.close()


def test_a_schema_2_store_is_read_as_it_is(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    before = db.read_bytes()
    with Store(db, create=False, write=False) as store:
        assert store.version == 2 and not can_cache(store)
        assert [g.to_dict() for g in store.games()] == _exported()
        pools = ladder(store)
        assert len(pools) == 4 and sum(len(p.rows) for p in pools) > 0
        assert history(store, "mount-tai", 3)  # computed from the games
    assert db.read_bytes() == before


def test_a_schema_2_store_is_migrated_in_place_without_losing_a_game(tmp_path: Path) -> None:
    db = _copy(tmp_path)
    old_size = db.stat().st_size
    with Store(db, create=False, write=False) as store:
        old = _everything(store)
        old_keys = {k for (k,) in store.conn.execute("SELECT DISTINCT pool FROM games")}
    assert old["games"] == _exported()

    with Store(db, create=False) as store:  # for writing: migrated
        assert store.version == SCHEMA_VERSION == 3 and can_cache(store)
        assert _everything(store) == old
        keys = [k for (k,) in store.conn.execute("SELECT key FROM pools ORDER BY id")]
        assert set(keys) == old_keys and len(keys) == 4
        # the old release's cache (online TrueSkill) was emptied and is filled by the fit,
        # under the same keys
        assert bookmark(store) > 0
        assert {k for (k,) in store.conn.execute("SELECT DISTINCT pool FROM ratings")} <= old_keys
        (version,) = store.conn.execute(
            "SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert version == "3"
    # the pages of the pools' text and the rating history are given back
    assert db.stat().st_size < old_size
    # the same tables and indexes as a store made afresh
    with Store(tmp_path / "fresh.db"):
        pass
    assert _schema(db) == _schema(tmp_path / "fresh.db")
    assert "pools" in _schema(db) and "rating_history" not in _schema(db)

    # opened again: nothing to do; a new game joins its pool's existing row
    with Store(db, create=False) as store:
        assert _everything(store) == old
        first = store.game(1)
        spec = TournamentSpec(first.game, first.options, (("r", "random"), ("r2", "random")), 1,
                              seed=11)
        run = store.create_run(spec, planned=2)
        (new_id,) = store.save_games([play_task(plan(spec, run)[0])])
        (pool_id,) = store.conn.execute("SELECT pool_id FROM games WHERE id = ?",
                                        (new_id,)).fetchone()
        (first_pool,) = store.conn.execute("SELECT pool_id FROM games WHERE id = 1").fetchone()
        assert pool_id == first_pool
        assert store.conn.execute("SELECT COUNT(*) FROM pools").fetchone()[0] == 4
        assert [g.to_dict() for g in store.games("g.id <= 26")] == old["games"]
        dragon = [p for p in ladder(store) if p.key == pool_key(first.game, first.options)]
        assert sum(r.games for r in dragon[0].rows) == sum(
            r["games"] for p in old["ladder"] if p["game"] == "dragon"
            and p["options"] == first.options for r in p["rows"]) + 2


def test_a_schema_3_store_keeps_each_pool_once(tmp_path: Path) -> None:
    """The size bound of the schema: a game's row holds its pool's number, not its text."""
    db = tmp_path / "s.db"
    with Store(db) as store:
        game = _copy(tmp_path)
        with Store(game, create=False, write=False) as old:
            first = old.game(1)
        spec = TournamentSpec(first.game, first.options, (("a", "random"), ("b", "random")), 3,
                              seed=5)
        run = store.create_run(spec, planned=6)
        ids = store.save_games([play_task(t) for t in plan(spec, run)])
        assert None not in ids
        assert store.conn.execute("SELECT id, key FROM pools").fetchall() == [
            (1, pool_key(first.game, first.options))]
        assert store.conn.execute("SELECT DISTINCT typeof(pool_id), pool_id FROM games"
                                  ).fetchall() == [("integer", 1)]
        text = [name for _, name, kind, *_ in store.conn.execute("PRAGMA table_info(games)")
                if kind == "TEXT"]
        assert text == ["game", "options", "actions", "move_times", "worker", "finished_at"]
