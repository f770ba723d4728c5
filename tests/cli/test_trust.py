"""Issue 12 (items 2-6): store errors as interruptions, checked and read-only stores, refused
commands that leave the disk alone, bad inputs as one-line errors with exit code 2, honest
pools, the end-of-run summary and the CLI conventions. Fast bots only (random, heuristic)."""
from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from typer.testing import Result
from typer.testing import CliRunner

from ladder.cli import app
from tests.cli.errors import error_message
from ladder.tournament.store import Store

runner = CliRunner()


def tianti(*args: object, env: dict[str, str] | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], env=env)


def one_line_error(result: Result, *fragments: str) -> None:
    """Exit code 2, no traceback, one error on stderr (tests/cli/errors.py)."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    message = error_message(result)
    for f in fragments:
        assert f in message, message


def small_run(db: Path, *extra: object, deals: int = 2,
              bots: tuple[str, ...] = ("h=heuristic", "r=random"),
              env: dict[str, str] | None = None) -> Result:
    args: list[object] = ["tournament", "run", "--db", db, "-p", 2, "--deals", deals, "--seed", 5,
                          "--workers", 1]
    for b in bots:
        args += ["-b", b]
    return tianti(*args, *extra, env=env)


@pytest.fixture(scope="module")
def run_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("trust") / "t.db"
    result = small_run(db)
    assert result.exit_code == 0, result.output
    return db


# -- bad inputs: one line, exit 2, nothing written -------------------------------------------

@pytest.mark.parametrize("spec, fragment", [
    ("ismcts(millis=nan)", "finite"),
    ("ismcts(millis=inf)", "finite"),
    ("ismcts(millis=1e18)", "more than the most allowed"),
    ("ismcts(iterations=1000000000000000000)", "more than the most allowed"),
    ("ismcts(iterations=10,iterations=20)", "given twice"),
    ("random(seed=-3)", "must not be negative"),
])
def test_bad_bot_budgets_are_refused_before_the_store_exists(tmp_path: Path, spec: str, fragment: str) -> None:
    db = tmp_path / "s.db"
    one_line_error(small_run(db, bots=(f"x={spec}", "r=random")), fragment)
    assert not db.exists()


@pytest.mark.parametrize("args, fragment", [
    (("-o", "players=3"), "-o players=3 contradicts --players 2"),
    (("--move-timeout", "nan"), "--move-timeout"),
    (("--move-timeout", "inf"), "--move-timeout"),
    (("--move-timeout", "1e18"), "--move-timeout"),
    (("--sprt", "0,nan"), "--sprt"),
    (("--sprt", "10,0"), "ELO0 < ELO1"),
    (("--sprt", "0,10", "--alpha", "0.7"), "--alpha"),
    (("--json", "--format", "csv"), "--json contradicts --format csv"),
])
def test_bad_run_options_are_one_line_errors(tmp_path: Path, args: tuple[str, ...], fragment: str) -> None:
    db = tmp_path / "s.db"
    one_line_error(small_run(db, *args), fragment)
    assert not db.exists()


def test_bots_file_that_never_ends_and_overlong_paths(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    one_line_error(tianti("tournament", "run", "--db", db, "--bots-file", "/dev/zero", "-p", 2),
                   "not a regular file")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (2 << 20))
    one_line_error(tianti("tournament", "run", "--db", db, "--bots-file", big, "-p", 2), "larger than")
    assert not db.exists()
    long_db = tmp_path / ("x" * 300 + ".db")
    for args in (("tournament", "list"), ("ladder", "show"), ("tournament", "show", 1)):
        one_line_error(tianti(*args, "--db", long_db), "File name too long")
    one_line_error(small_run(long_db), "File name too long")


def test_run_numbers_beyond_sqlite_are_unknown_runs(run_db: Path) -> None:
    for args in (("tournament", "resume", 2**70), ("tournament", "show", 2**70),
                 ("replay", 1, 2**70)):
        result = tianti(*args, "--db", run_db)
        one_line_error(result, "there is no")


def _dump(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_a_name_conflict_leaves_the_store_unchanged(run_db: Path) -> None:
    """(Compared by content: the file's bytes may change when SQLite checkpoints its journal
    into it, which is not a change of the store.)"""
    before = _dump(run_db)
    one_line_error(small_run(run_db, bots=("h=random", "r=random")), "already stands for")
    assert _dump(run_db) == before
    assert len(json.loads(tianti("tournament", "list", "--db", run_db, "--json").stdout)) == 1


# -- damaged and read-only stores -------------------------------------------------------------

def _copy(src: Path, dst: Path) -> Path:
    with Store(src, create=False, write=False) as s:
        s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    dst.write_bytes(src.read_bytes())
    return dst


def test_bad_json_in_a_row_is_a_clear_error(run_db: Path, tmp_path: Path) -> None:
    db = _copy(run_db, tmp_path / "bad.db")
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET actions = '[1, 2' WHERE id = 2")
    conn.commit()
    conn.close()
    one_line_error(tianti("tournament", "show", 1, "--db", db, "--games"), "game 2", "malformed")
    one_line_error(tianti("ladder", "export", "--db", db), "game 2", "malformed")
    # opening it to add games checks the rows first
    one_line_error(tianti("tournament", "resume", 1, "--db", db), "game 2", "malformed")
    one_line_error(small_run(db), "game 2", "malformed")


def test_a_store_with_damaged_pages_is_refused_for_writing(run_db: Path, tmp_path: Path) -> None:
    db = _copy(run_db, tmp_path / "damaged.db")
    data = bytearray(db.read_bytes())
    page = 4096
    for p in range(2, len(data) // page):  # keep the header page, scribble over the others
        data[p * page + 10: p * page + 400] = b"\xa5" * 390
    db.write_bytes(bytes(data))
    one_line_error(small_run(db), "damaged")
    for args in (("tournament", "list"), ("ladder", "show"), ("tournament", "show", 1)):
        result = tianti(*args, "--db", db)
        assert result.exit_code in (0, 2), result.output
        if result.exit_code == 2:
            one_line_error(result)


def test_a_read_only_store_is_fully_readable(run_db: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only file in a read-only folder: listed, shown, exported and rated in memory;
    adding to it is refused in one line. (As root, whom permissions do not stop, the store is
    told the file is read-only, and SQLite opens it read-only.)"""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = _copy(run_db, folder / "ro.db")
    with Store(run_db, create=False) as s:
        expected = [(r.bot, r.mu, r.sigma) for r in __import__("ladder.tournament.ratings")
                    .tournament.ratings.ladder(s)[0].rows]
    db.chmod(stat.S_IRUSR)
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.access(db, os.W_OK):
            import ladder.tournament.store

            real = os.access
            monkeypatch.setattr(
                ladder.tournament.store.os, "access",
                lambda p, mode, **k: False if (mode & os.W_OK and str(p).startswith(str(folder)))
                else real(p, mode, **k))
        listed = tianti("tournament", "list", "--db", db, "--json")
        assert listed.exit_code == 0, listed.output
        assert json.loads(listed.stdout)[0]["done"] == 4
        assert tianti("tournament", "show", 1, "--db", db).exit_code == 0
        assert len(tianti("ladder", "export", "--db", db).stdout.splitlines()) == 4
        shown = tianti("ladder", "show", "--db", db, "--json")
        assert shown.exit_code == 0, shown.output
        rows = json.loads(shown.stdout)[0]["rows"]
        assert [r["bot"] for r in rows] == [e[0] for e in expected]
        assert [(r["mu"], r["sigma"]) for r in rows] == [pytest.approx(e[1:]) for e in expected]
        assert tianti("ladder", "h2h", "--db", db).exit_code == 0
        one_line_error(small_run(db), "read-only")
        one_line_error(tianti("ladder", "recompute", "--db", db), "read-only")
        if os.geteuid() != 0:  # root's SQLite still makes its shared-memory files there
            assert sorted(p.name for p in folder.iterdir()) == ["ro.db"]
    finally:
        folder.chmod(stat.S_IRWXU)
        db.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_reading_commands_do_not_create_a_store(tmp_path: Path) -> None:
    db = tmp_path / "absent.db"
    for args in (("tournament", "list"), ("ladder", "show"), ("ladder", "h2h"),
                 ("ladder", "export"), ("tournament", "resume", 1)):
        one_line_error(tianti(*args, "--db", db), "there is no store")
    assert list(tmp_path.iterdir()) == []


# -- store errors during a run are interruptions ---------------------------------------------

def test_a_store_locked_by_another_process_interrupts_the_run(tmp_path: Path) -> None:
    db = tmp_path / "locked.db"
    first = small_run(db, "--deals", 1)
    assert first.exit_code == 0
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        # the coordinator opens the store, then another process takes the write lock
        from ladder.tournament import runner

        original = runner.play_run

        def lock_then_play(*a, **k):
            holder.execute("BEGIN IMMEDIATE")
            return original(*a, **k)

        runner.play_run = lock_then_play
        try:
            result = small_run(db, env={"TIANTI_BUSY_TIMEOUT": "0.2"})
        finally:
            runner.play_run = original
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 1, result.output
    err = result.stderr.splitlines()
    assert err[0].startswith("error: the store") and "locked" in err[0]
    assert "resume with: tianti tournament resume 2" in " ".join(result.stderr.split())
    runs = {r["id"]: r for r in json.loads(tianti("tournament", "list", "--db", db, "--json").stdout)}
    # not finished; (this test's process is the run's owner and still alive, so the run could
    # not even be marked interrupted while the lock was held: it reads as running, or as
    # stopped once the process is gone)
    assert runs[2]["status"] != "finished" and runs[2]["done"] < runs[2]["planned"]
    resumed = tianti("tournament", "resume", 2, "--db", db, "--force")
    assert resumed.exit_code == 0, resumed.output
    assert "run 2 finished: 4 of 4 games stored" in resumed.output


def test_a_full_disk_interrupts_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own "database or disk is full", produced by capping the file's pages."""
    db = tmp_path / "full.db"
    from ladder.tournament import runner

    original = runner.play_run

    def cap_then_play(store, *a, **k):
        (pages,) = store.conn.execute("PRAGMA page_count").fetchone()
        store.conn.execute(f"PRAGMA max_page_count = {pages}")
        return original(store, *a, **k)

    monkeypatch.setattr(runner, "play_run", cap_then_play)
    result = small_run(db, deals=20)
    assert result.exit_code == 1, result.output
    assert "disk is full" in result.stderr.splitlines()[0]
    monkeypatch.setattr(runner, "play_run", original)
    (run,) = json.loads(tianti("tournament", "list", "--db", db, "--json").stdout)
    assert run["status"] != "finished" and run["done"] < run["planned"] == 40


def test_set_status_tells_the_truth_whoever_calls_it(tmp_path: Path) -> None:
    """The rules behind concurrent resumes: a run with all its games is finished whatever a
    process asks; a run another live process has claimed is left to it; a finished run stays
    finished."""
    import subprocess
    import sys

    import engine
    from ladder.tournament.schedule import TournamentSpec, plan
    from ladder.tournament.worker import play_task

    game = engine.load_game("dragon", players=2)
    spec = TournamentSpec("dragon", game.options, (("a", "random"), ("b", "random")), 1, seed=3)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with Store(tmp_path / "s.db") as store:
            run = store.create_run(spec, planned=2)
            tasks = plan(spec, run)
            store.save_game(play_task(tasks[0]))
            store.conn.execute("UPDATE runs SET owner_pid = ? WHERE id = ?", (other.pid, run))
            assert store.set_status(run, "interrupted") == "running"  # the owner is alive
            store.save_game(play_task(tasks[1]))
            assert store.set_status(run, "interrupted") == "finished"  # all games stored
            assert store.set_status(run, "failed") == "finished"
            run2 = store.create_run(spec, planned=2)
            assert store.set_status(run2, "interrupted") == "interrupted"  # its own
    finally:
        other.kill()
        other.wait()


def test_two_forced_resumes_at_once_leave_a_complete_run_finished(tmp_path: Path) -> None:
    from tests.ladder.helpers import spawn

    db = tmp_path / "c.db"
    assert small_run(db, deals=6).exit_code == 0
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DELETE FROM seats WHERE game_id > 2")
    conn.execute("DELETE FROM games WHERE id > 2")
    conn.execute("UPDATE runs SET status = 'interrupted', finished_at = NULL")
    conn.close()
    procs = [spawn("tournament", "resume", 1, "--db", db, "--force", "--workers", 1)
             for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    (run,) = json.loads(tianti("tournament", "list", "--db", db, "--json").stdout)
    assert run["status"] == "finished" and run["done"] == run["planned"] == 12
    for out, _ in outputs:
        assert "run 1 finished: 12 of 12 games stored" in out or "is complete" in out


# -- pools -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pools_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("pools") / "pools.db"
    common = ("--deals", 2, "--seed", 3, "--workers", 1, "--db", db)
    for extra in ((), ("-o", "great_wall=true")):
        r = tianti("tournament", "run", "-g", "dragon", "-p", 2, "-b", "h=heuristic",
                   "-b", "r=random", *extra, *common)
        assert r.exit_code == 0, r.output
    r = tianti("tournament", "run", "-g", "mount-tai", "-o", "solo=true", "-b", "r=random",
               "-b", "h=heuristic", *common)
    assert r.exit_code == 0, r.output
    return db


def test_the_base_game_the_great_wall_and_solo_are_pools_apart(pools_db: Path) -> None:
    pools = json.loads(tianti("ladder", "show", "--db", pools_db, "--json").stdout)
    titles = [p["title"] for p in pools]
    assert titles == ["dragon, 2 players", "dragon, 2 players, great_wall=true",
                      "mount-tai, 1 player, solo=true"]
    for p in pools[:2]:
        assert all(r["games"] == 4 for r in p["rows"])
    solo = pools[2]
    assert solo["solo_goal"] and all(r["mu"] is None for r in solo["rows"])
    # a solo game is won only when its goal is reached: recount from the replays
    from engine.core.state import State

    stored = [json.loads(line) for line in tianti("ladder", "export", "--db", pools_db, "-o",
                                                  "solo=true").stdout.splitlines()]
    assert len(stored) == 4
    for row in solo["rows"]:
        goals = sum(State.from_record(g["record"]).goal_reached() for g in stored
                    if g["seats"][0]["bot"] == row["bot"])
        assert row["wins"] == goals and row["win_rate"] == goals / 2
    only = json.loads(tianti("ladder", "show", "--db", pools_db, "-o", "great_wall=true",
                             "--json").stdout)
    assert [p["title"] for p in only] == ["dragon, 2 players, great_wall=true"]
    h2h = json.loads(tianti("ladder", "h2h", "--db", pools_db, "-g", "dragon", "--json").stdout)
    assert len(h2h) == 2 and h2h[1]["variant"] == {"great_wall": True}
    one_line_error(tianti("ladder", "show", "--db", pools_db, "-o", "great_wal=true"),
                   "no such option")
    text = tianti("ladder", "show", "--db", pools_db).output
    assert "dragon, 2 players, great_wall=true" in text and "goal rate" in text
    ambiguous = tianti("ladder", "plot", "--db", pools_db, "-g", "dragon", "--out",
                       pools_db.parent / "x.png")
    one_line_error(ambiguous, "several pools", "-o great_wall=true")


def test_a_schema_1_store_is_read_as_it_is_and_upgraded_for_writing(pools_db: Path, tmp_path: Path) -> None:
    db = _copy(pools_db, tmp_path / "v1.db")
    conn = sqlite3.connect(db)
    conn.executescript("""
        DROP INDEX games_by_rules; ALTER TABLE games DROP COLUMN pool_id; ALTER TABLE games DROP COLUMN goal_reached;
        DROP TABLE pools; DROP TABLE ratings;
        CREATE TABLE ratings (game TEXT, players INTEGER, bot TEXT, mu REAL, sigma REAL,
                              games INTEGER, PRIMARY KEY (game, players, bot));
        CREATE TABLE rating_history (game_id INTEGER, bot TEXT, mu REAL, sigma REAL,
                                     PRIMARY KEY (game_id, bot));
        UPDATE meta SET value = '1' WHERE key = 'schema_version';
        UPDATE meta SET value = '0' WHERE key = 'ratings_last_game';
    """)
    conn.commit()
    conn.close()
    expected = json.loads(tianti("ladder", "show", "--db", pools_db, "--json").stdout)
    before = db.read_bytes()
    assert json.loads(tianti("ladder", "show", "--db", db, "--json").stdout) == expected
    assert db.read_bytes() == before  # read as it is
    r = tianti("tournament", "run", "--db", db, "-g", "fusion", "-b", "a=random", "-b",
               "b=random", "--deals", 1, "--workers", 1)
    assert r.exit_code == 0, r.output
    with Store(db, create=False, write=False) as s:
        assert s.version == 3
    after = json.loads(tianti("ladder", "show", "--db", db, "--json").stdout)
    assert [p for p in after if p["game"] != "fusion"] == expected


# -- the end of a run ----------------------------------------------------------------------------

def test_the_run_ends_with_its_ladder_and_the_elo_difference(run_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "end.db"
    result = small_run(db, deals=3, bots=("r1=random", "r2=random"))
    assert result.exit_code == 0, result.output
    assert "run 1: dragon, 2 players" in result.output
    assert "wins % (95%)" in result.output
    assert "r1 against r2:" in result.output and "likelihood of superiority" in result.output
    data = json.loads(small_run(tmp_path / "end2.db", "--json", deals=3,
                                bots=("r1=random", "r2=random")).stdout)
    assert data["report"]["status"] == "finished" and data["done"] == 6
    rows = data["ladder"]["rows"]
    assert {r["bot"] for r in rows} == {"r1", "r2"}
    for r in rows:
        assert r["win_low"] <= r["win_rate"] <= r["win_high"]
        assert r["conservative"] == pytest.approx(r["mu"] - 3 * r["sigma"])
    pair = data["pair"]
    assert pair["games"] == 6 and pair["wins"] + pair["losses"] + pair["draws"] == 6
    assert 0 <= pair["los"] <= 1
    table = list(csv.DictReader(io.StringIO(small_run(tmp_path / "end3.db", "--format", "csv",
                                                     deals=1).stdout)))
    assert {r["bot"] for r in table} == {"h", "r"}


# -- CLI conventions ------------------------------------------------------------------------------

def test_version_short_help_and_completion() -> None:
    v = tianti("--version")
    assert v.exit_code == 0 and v.output.startswith("tianti ")
    for args in (("-h",), ("tournament", "-h"), ("tournament", "run", "-h"), ("ladder", "show", "-h")):
        r = tianti(*args)
        assert r.exit_code == 0 and "Usage" in r.output
    assert "--install-completion" in tianti("--help").output
    run_help = tianti("tournament", "run", "--help").output
    assert "--sprt" in run_help and "--format" in run_help


def test_every_data_command_takes_format(run_db: Path) -> None:
    for args in (("games",), ("bots",), ("tournament", "list", "--db", run_db),
                 ("tournament", "show", 1, "--db", run_db), ("ladder", "show", "--db", run_db),
                 ("ladder", "h2h", "--db", run_db)):
        as_json = tianti(*args, "--format", "json")
        assert as_json.exit_code == 0, (args, as_json.output)
        assert json.loads(as_json.stdout) == json.loads(tianti(*args, "--json").stdout)
        as_csv = tianti(*args, "--format", "csv")
        assert as_csv.exit_code == 0 and len(list(csv.reader(io.StringIO(as_csv.stdout)))) >= 2


def test_o_is_option_everywhere(run_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    assert tianti("ladder", "export", "--db", run_db, "--out", out).exit_code == 0
    assert len(out.read_text().splitlines()) == 4
    one_line_error(tianti("ladder", "export", "--db", run_db, "-o", out), "--out")
    assert len(tianti("ladder", "export", "--db", run_db, "-o", "players=2").stdout.splitlines()) == 4
    one_line_error(tianti("ladder", "plot", "--db", run_db, "-o", "x.png"), "--out")


def test_no_color_and_no_progress_frames_off_a_terminal(run_db: Path, tmp_path: Path) -> None:
    r = runner.invoke(app, ["tournament", "show", "1", "--db", str(run_db)], color=True,
                      env={"NO_COLOR": "1"})
    assert r.exit_code == 0 and "\x1b[" not in r.output
    r = runner.invoke(app, ["tournament", "show", "1", "--db", str(run_db)], color=True)
    assert "\x1b[" in r.output  # colour when asked for and NO_COLOR unset
    result = small_run(tmp_path / "p.db")
    assert "\r" not in result.stderr and "%|" not in result.stderr


# -- the sequential test ---------------------------------------------------------------------------

def _sprt_run(db: Path, bots: tuple[str, ...], seed: int = 1) -> dict:
    result = tianti("tournament", "run", "--db", db, "-p", 2, *[a for b in bots for a in ("-b", b)],
                    "--deals", 400, "--seed", seed, "--workers", 1, "--sprt", "0,100", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_sprt_accepts_h1_for_a_stronger_bot_and_h0_for_two_copies(tmp_path: Path) -> None:
    strong = _sprt_run(tmp_path / "h1.db", ("h=heuristic", "r=random"))
    assert strong["sprt"]["result"] == "H1" and strong["status"] == "finished"
    assert strong["sprt"]["llr"] >= strong["sprt"]["upper"]
    assert strong["done"] == strong["sprt"]["games"] < strong["planned"] == 800
    equal = _sprt_run(tmp_path / "h0.db", ("a=random", "b=random"))
    assert equal["sprt"]["result"] == "H0" and equal["status"] == "finished"
    assert equal["sprt"]["llr"] <= equal["sprt"]["lower"]
    assert equal["sprt"]["games"] < equal["planned"]
    # complete: resuming plays nothing
    again = tianti("tournament", "resume", 1, "--db", tmp_path / "h0.db")
    assert again.exit_code == 0 and "its sequential test has decided" in again.output


def test_sprt_is_resumable_to_the_same_verdict(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    whole = _sprt_run(db, ("a=random", "b=random"), seed=2)
    conn = sqlite3.connect(db, isolation_level=None)
    half = whole["done"] // 2
    conn.execute("DELETE FROM seats WHERE game_id IN (SELECT id FROM games WHERE deal >= ?)",
                 (half // 2,))
    conn.execute("DELETE FROM games WHERE deal >= ?", (half // 2,))
    conn.execute("UPDATE runs SET status = 'interrupted', finished_at = NULL")
    conn.close()
    resumed = tianti("tournament", "resume", 1, "--db", db, "--json")
    assert resumed.exit_code == 0, resumed.output
    data = json.loads(resumed.stdout)
    assert data["sprt"]["result"] == whole["sprt"]["result"]
    assert data["sprt"]["games"] == whole["sprt"]["games"]
    assert data["sprt"]["llr"] == pytest.approx(whole["sprt"]["llr"])


def test_the_progress_bar_carries_the_llr_and_its_bounds() -> None:
    from ladder.tournament.runner import RunReport, Standings, _postfix
    from ladder.tournament.sprt import SprtSpec, SprtState

    report = RunReport(1, 10, 0)
    report.sprt = SprtState(SprtSpec(0, 10), "a")
    report.sprt.add(0.75, 2)
    text = _postfix(report, Standings(), 1.0)
    assert "LLR" in text and "[-2.94, +2.94]" in text


def test_sprt_llr_matches_the_normal_approximation() -> None:
    """LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v) over the observations and the prior."""
    from ladder.tournament.sprt import PRIOR, expected_score, llr

    obs = [1.0, 0.5, 0.75, 0.25, 1.0, 0.5]
    xs = obs + [x for x, _ in PRIOR]
    ws = [1.0] * len(obs) + [w for _, w in PRIOR]
    n = sum(ws)
    m = sum(x * w for x, w in zip(xs, ws)) / n
    v = sum(w * (x - m) ** 2 for x, w in zip(xs, ws)) / n
    s0, s1 = expected_score(0), expected_score(50)
    assert llr(obs, 0, 50) == pytest.approx(n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v))
    assert expected_score(0) == 0.5 and expected_score(400) == pytest.approx(10 / 11)
