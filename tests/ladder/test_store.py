"""The SQLite store: schema, one record per game, no duplicates, clear errors on bad paths."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import engine
from ladder.tournament.schedule import TournamentSpec, plan
from ladder.tournament.store import Store, StoreError
from ladder.tournament.worker import play_task


def _spec() -> TournamentSpec:
    game = engine.load_game("dragon", players=2)
    return TournamentSpec("dragon", game.options, (("a", "random"), ("b", "random")), 2, seed=3)


def test_a_game_is_stored_once_with_its_seats(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        run = store.create_run(_spec(), planned=4)
        task = plan(_spec(), run)[0]
        outcome = play_task(task)
        first = store.save_game(outcome)
        assert first is not None
        assert store.save_game(outcome) is None  # the same (run, deal, seating) again
        assert store.completed_keys(run) == {task.key}
        (g,) = store.games()
        assert (g.id, g.run_id, g.deal, g.seating, g.seed) == (first, run, 0, 0, task.seed)
        assert g.actions == outcome.actions and len(g.move_times) == len(g.actions)
        assert [s["bot"] for s in g.seats] == ["a", "b"]
        assert [s["score"] for s in g.seats] == [s.score for s in outcome.seats]
        assert store.run(run).done == 1 and store.run(run).status == "running"


def test_a_bot_name_stands_for_one_spec(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.register_bots([("a", "random"), ("b", "random(seed=1)")])
        store.register_bots([("a", "random")])
        with pytest.raises(StoreError, match="the bot name 'b' already stands for "
                                             "'random\\(seed=1\\)'"):
            store.register_bots([("b", "random(seed=2)")])


def test_bad_paths_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        Store(tmp_path)
    with pytest.raises(StoreError, match="the directory .*nowhere does not exist"):
        Store(tmp_path / "nowhere" / "s.db")
    with pytest.raises(StoreError, match="there is no store at"):
        Store(tmp_path / "absent.db", create=False)
    junk = tmp_path / "notes.txt"
    junk.write_text("these are not the tables you are looking for\n" * 100)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        Store(junk)
    assert junk.read_text().startswith("these are not")
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE customers (id INTEGER)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(StoreError, match="not a tianti store"):
        Store(other)
    assert other.read_bytes() == before  # not even switched to WAL


def test_unknown_run_lists_the_known_ones(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        with pytest.raises(StoreError, match="there is no run 5 .* the store has no runs"):
            store.run(5)
        store.create_run(_spec(), planned=4)
        with pytest.raises(StoreError, match="recent runs: 1"):
            store.run(5)


def test_a_batch_of_games_is_one_transaction_all_or_none(tmp_path: Path) -> None:
    from dataclasses import replace

    with Store(tmp_path / "s.db") as store:
        run = store.create_run(_spec(), planned=4)
        tasks = plan(_spec(), run)
        outcomes = [play_task(t) for t in tasks[:3]]
        assert store.save_game(outcomes[0]) is not None
        # one stored already, one repeated within the batch: None for those two
        ids = store.save_games([outcomes[0], outcomes[1], outcomes[2], outcomes[1]])
        assert ids[0] is None and ids[3] is None and None not in ids[1:3]
        assert store.completed_keys(run) == {t.key for t in tasks[:3]}
        # a batch whose last game cannot be stored (a seat without its bot's name) stores none
        bad_seat = replace(outcomes[0].seats[0], bot=None)
        bad = replace(play_task(tasks[3]), seats=[bad_seat, *outcomes[0].seats[1:]])
        before = store.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        with pytest.raises(sqlite3.IntegrityError):
            store.save_games([replace(outcomes[0], deal=7), bad])
        assert store.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == before
        assert store.completed_keys(run) == {t.key for t in tasks[:3]}
