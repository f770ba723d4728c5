"""Whole tournaments: records that replay, faulty bots, interrupted and concurrent runs, and the
errors that must come before any game is played."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

import engine
from engine.core.state import State
from ladder.tournament.backends import LocalBackend
from ladder.tournament.runner import play_run, start_run
from ladder.tournament.schedule import TournamentSpec
from ladder.tournament.store import Store
from tests.ladder.helpers import BOTS, cli, count_games, games, planned_keys, spawn, wait_for_games


def test_records_replay_to_the_recorded_scores_and_deals_are_duplicated(quality_db: Path) -> None:
    stored = games(quality_db)
    assert {(g.deal, g.seating) for g in stored} == planned_keys(quality_db, 1)
    seeds: dict[int, set[int]] = {}
    for g in stored:
        seeds.setdefault(g.deal, set()).add(g.seed)
        state = State.from_record(g.record())
        assert state.is_terminal()
        assert state.scores() == [s["score"] for s in g.seats]
        assert state.ranks() == [s["game_rank"] for s in g.seats]
        assert len(g.move_times) == len(g.actions)
    assert all(len(s) == 1 for s in seeds.values()) and len(seeds) == 4
    assert len({next(iter(s)) for s in seeds.values()}) == 4
    # every bot sat in every seat equally often
    seats = Counter((s["bot"], s["seat"]) for g in stored for s in g.seats)
    assert set(seats.values()) == {8} and len(seats) == 9


def test_bots_that_raise_hang_or_play_illegally_lose_with_the_error_recorded(tmp_path: Path) -> None:
    db = tmp_path / "bad.db"
    result = cli("tournament", "run", "--db", db, "-p", 4, "-b", "rand=random",
                 "-b", f"raises={BOTS}raises(after=2)", "-b", f"hangs={BOTS}hangs(after=2)",
                 "-b", f"illegal={BOTS}illegal(after=2)", "--seatings", "rotations",
                 "--deals", 1, "--move-timeout", 1.0, "--seed", 3, "--workers", 2,
                 "--no-progress")
    assert result.exit_code == 0, result.output
    assert "run 1 finished: 4 of 4 games stored" in result.output
    assert "12 seats lost by a fault" in result.output
    stored = games(db)
    assert len(stored) == 4
    # python: bots play from processes of their own: an action id that is not legal is
    # "invalid", a sleeper is killed at the limit
    expected = {"raises": ("error", "RuntimeError: this bot always fails here"),
                "hangs": ("timeout", "move time limit of 1 s"),
                "illegal": ("invalid", "which is not legal here")}
    for g in stored:
        by_bot = {s["bot"]: s for s in g.seats}
        assert by_bot["rand"]["fault"] is None and by_bot["rand"]["rank"] == 0
        for bot, (kind, text) in expected.items():
            fault = by_bot[bot]["fault"]
            assert fault is not None and fault["kind"] == kind and text in fault["message"]
            assert fault["move"] >= 2  # after its first two decisions
            assert by_bot[bot]["rank"] == 1  # the three faulted seats share the last place
        # the game was played to its end (a random bot took over) and replays
        state = State.from_record(g.record())
        assert state.is_terminal() and state.scores() == [s["score"] for s in g.seats]
    shown = cli("tournament", "show", 1, "--db", db, "--errors")
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("hangs timeout at decision") == 4
    assert "RuntimeError: this bot always fails here" in shown.output


@pytest.mark.parametrize("where", ["inproc:", ""])
def test_a_bot_beyond_interrupts_or_killing_its_process_loses_and_the_run_finishes(
        tmp_path: Path, where: str) -> None:
    """In the worker's process (inproc:), the worker is killed (the bot blocks the timer
    signal) or dies (the bot kills it); the pool restarts the game after the moves already
    played, that bot faulted. Out of process (the default), only the bot's own process ends:
    no worker is lost, and the kinds say what happened (timeout, crashed)."""
    game = engine.load_game("dragon", players=3)
    spec = TournamentSpec("dragon", game.options,
                          (("rand", "random"), ("deaf", f"{where}{BOTS}deaf(after=4)"),
                           ("dies", f"{where}{BOTS}dies(after=6)")),
                          deals=1, seatings="rotations", seed=5, move_timeout=0.3)
    with Store(tmp_path / "hard.db") as store:
        run = start_run(store, spec)
        backend = LocalBackend(2, kill_grace=0.3)
        report = play_run(store, run, backend, progress=False)
        assert report.status == "finished" and report.played == 3
        if where:
            assert backend.restarted_workers >= 6  # each game kills a worker twice
        else:
            assert backend.restarted_workers == 0
        stored = list(store.games())
    for g in stored:
        by_bot = {s["bot"]: s for s in g.seats}
        deaf, dies = by_bot["deaf"]["fault"], by_bot["dies"]["fault"]
        if where:
            assert deaf["kind"] == "timeout" and "worker process was killed" in deaf["message"]
            assert dies["kind"] == "error" and "killed by signal 9" in dies["message"]
        else:
            assert deaf["kind"] == "timeout" and "time limit of 0.3 s" in deaf["message"]
            # its SIGKILL to itself ends it, or, where it is PID 1 of a PID namespace of its
            # own (the kernel ignores that signal there), it plays on and answers illegally
            assert (dies["kind"] == "crashed" and "killed by signal 9" in dies["message"]
                    or dies["kind"] == "invalid" and "not legal here" in dies["message"])
        assert deaf["move"] >= 4 and dies["move"] >= 6
        assert by_bot["rand"]["rank"] == 0 and by_bot["deaf"]["rank"] == by_bot["dies"]["rank"] == 1
        state = State.from_record(g.record())
        assert state.is_terminal() and state.scores() == [s["score"] for s in g.seats]
        assert len(g.move_times) == len(g.actions)


def _slow_tournament(db: Path, *extra: object) -> subprocess.Popen:
    """A tournament whose games take a while without loading the CPU (bots sleep a little
    before each move): 3 players, 3 bots, 20 deals of 6 seatings = 120 games."""
    return spawn("tournament", "run", "--db", db, "-p", 3, "-b", f"s1={BOTS}slow(ms=0.3)",
                 "-b", f"s2={BOTS}slow(ms=0.3,seed=1)", "-b", "r=random", "--deals", 20,
                 "--seed", 9, "--workers", 2, "--no-progress", *extra)


def _assert_complete(db: Path, run: int = 1) -> None:
    stored = games(db, run)
    keys = [(g.deal, g.seating) for g in stored]
    assert len(keys) == len(set(keys))
    assert set(keys) == planned_keys(db, run)


def test_ctrl_c_loses_only_the_games_in_flight_and_resume_completes_the_plan(tmp_path: Path) -> None:
    db = tmp_path / "int.db"
    proc = _slow_tournament(db)
    wait_for_games(db, 10, proc)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C in a terminal: the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    # the command to copy goes on a line of its own when it does not fit after the text
    assert f"Resume with: tianti tournament resume 1 --db {db} --trust" in " ".join(err.split())
    stored = count_games(db)
    assert 10 <= stored < 120
    with Store(db, create=False) as store:
        assert store.run(1).status == "interrupted"
    result = cli("tournament", "resume", 1, "--db", db, "--workers", 2, "--no-progress",
                 "--trust")
    assert result.exit_code == 0, result.output
    assert f"playing the {120 - stored} missing" in result.output
    _assert_complete(db)
    again = cli("tournament", "resume", 1, "--db", db)
    assert again.exit_code == 0 and "run 1 is complete: 120 of 120" in again.output


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out.update(int(c) for c in text)
    return out


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_sigkill_leaves_no_worker_behind_and_resume_completes_the_plan(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    proc = _slow_tournament(db)
    wait_for_games(db, 10, proc)
    workers = _children(proc.pid)
    assert len(workers) >= 2
    os.kill(proc.pid, signal.SIGKILL)  # the tournament process alone
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{w}").exists() for w in workers), "orphaned workers"
    stored = count_games(db)
    assert 10 <= stored < 120
    listed = cli("tournament", "list", "--db", db)
    assert "stopped" in listed.output
    result = cli("tournament", "resume", 1, "--db", db, "--workers", 2, "--no-progress",
                 "--trust")
    assert result.exit_code == 0, result.output
    _assert_complete(db)


def test_two_tournaments_writing_one_store_at_once_both_complete(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    first = _slow_tournament(db, "--label", "first")
    second = _slow_tournament(db, "--label", "second")
    for proc in (first, second):
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, out + err
    with Store(db, create=False) as store:
        runs = store.runs()
    assert sorted(r.label for r in runs) == ["first", "second"]
    assert all(r.status == "finished" and r.done == 120 for r in runs)
    for r in runs:
        _assert_complete(db, r.id)


@pytest.mark.parametrize("args,message", [
    (["-b", "a=random", "-b", "b=genius", "-b", "c=random"],
     "bot 'b': unknown bot 'genius'; see `tianti bots`"),
    (["-b", "a=random(sed=1)", "-b", "b=random", "-b", "c=random"],
     "bot 'a': bot 'random' has no option 'sed' (did you mean seed?)"),
    (["-b", "a=random(seed=x)", "-b", "b=random", "-b", "c=random"],
     "option 'seed' must be int, got 'x'"),
    (["-b", "a=python:tests.ladder.nowhere:bot", "-b", "b=random", "-b", "c=random"],
     "No module named 'tests.ladder.nowhere'"),
    (["-b", f"a={BOTS}broken_factory", "-b", "b=random", "-b", "c=random"],
     "RuntimeError: cannot build this bot"),
    (["-b", "a b=random", "-b", "b=random", "-b", "c=random"], "the bot name 'a b' is not allowed"),
    (["-b", "a=random", "-b", "a=random", "-b", "c=random"], "repeated: a"),
    (["-b", "a=random", "-b", "b=random"], "2 bots for a 3-player game: name at least 3"),
    (["-b", "a=random", "-b", "b=random", "-b", "c=random", "-o", "dragons=3"],
     "unknown option 'dragons'"),
    ([], "name the bots: --bot NAME=SPEC"),
])
def test_a_malformed_tournament_is_refused_before_anything_is_stored(tmp_path: Path, args: list[str],
                                                                   message: str) -> None:
    db = tmp_path / "t.db"
    result = cli("tournament", "run", "--db", db, "-p", 3, "--no-progress", *args)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())  # an error too long for a line goes on
    assert not db.exists()


@pytest.mark.parametrize("content,message", [
    ('[bots\na = "random"\n', "is not valid TOML"),
    ('a = "random"\n', "needs a [bots] table"),
    ('[bots]\na = 3\n', "bots.a must be a spec string"),
    ('[bots]\na = "random"\nb = "genius"\nc = "random"\n', "bot 'b': unknown bot 'genius'"),
    ('[bots]\na = "random"\n[extra]\nx = 1\n', "unknown tables or keys: extra"),
])
def test_a_malformed_bots_file_is_refused(tmp_path: Path, content: str, message: str) -> None:
    db = tmp_path / "t.db"
    bots = tmp_path / "bots.toml"
    bots.write_text(content)
    result = cli("tournament", "run", "--db", db, "-p", 3, "--bots-file", bots)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not db.exists()


def test_a_bots_file_names_the_bots(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    bots = tmp_path / "bots.toml"
    bots.write_text('# three bots\n[bots]\nquick = "random(seed=1)"\n'
                    f'first = "{BOTS}first"\n')
    result = cli("tournament", "run", "--db", db, "-p", 3, "--bots-file", bots, "-b", "random",
                 "--deals", 1, "--seatings", "rotations", "--workers", 1, "--no-progress")
    assert result.exit_code == 0, result.output
    assert {s["bot"] for g in games(db) for s in g.seats} == {"quick", "first", "random"}
    missing = cli("tournament", "run", "--db", db, "-p", 3, "--bots-file", tmp_path / "no.toml")
    assert missing.exit_code == 2 and "the bots file" in missing.output and "does not exist" in missing.output


@pytest.mark.parametrize("kind", ["directory", "missing-dir", "not-sqlite", "foreign"])
def test_a_bad_store_path_is_refused_before_any_game(tmp_path: Path, kind: str) -> None:
    import sqlite3

    if kind == "directory":
        db, message = tmp_path, "is a directory"
    elif kind == "missing-dir":
        db, message = tmp_path / "no" / "t.db", "does not exist"
    elif kind == "not-sqlite":
        db, message = tmp_path / "notes.txt", "not a usable SQLite database"
        db.write_text("hello\n" * 200)
    else:
        db, message = tmp_path / "other.db", "not a tianti store"
        conn = sqlite3.connect(db)
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
        conn.close()
    result = cli("tournament", "run", "--db", db, "-p", 3, "-b", "a=random", "-b", "b=random",
                 "-b", "c=random", "--no-progress")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "games stored" not in result.output
    if kind == "not-sqlite":
        assert db.read_text() == "hello\n" * 200


def test_a_name_already_standing_for_another_spec_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    ok = cli("tournament", "run", "--db", db, "-p", 2, "-b", "a=random", "-b", f"b={BOTS}first",
             "--deals", 1, "--workers", 1, "--no-progress")
    assert ok.exit_code == 0, ok.output
    clash = cli("tournament", "run", "--db", db, "-p", 2, "-b", "a=random(seed=4)",
                "-b", f"b={BOTS}first", "--no-progress")
    assert clash.exit_code == 2
    assert "the bot name 'a' already stands for 'random'" in clash.output
    with Store(db, create=False) as store:
        assert len(store.runs()) == 1


class _FailingBackend:
    """Plays the first tasks in this process, says it is idle after the first game, then
    fails as a backend does when a game fails outside any bot's call."""

    workers = 1

    def __init__(self, db: Path, games: int) -> None:
        self.db = db
        self.games = games
        self.on_idle = None
        self.stored_when_idle = -1

    def run(self, tasks):  # type: ignore[no-untyped-def]
        from ladder.tournament.backends import GameFailure
        from ladder.tournament.worker import play_task

        for i, task in enumerate(tasks[:self.games]):
            yield play_task(task)
            if i == 0:
                self.on_idle()
                self.stored_when_idle = count_games(self.db)  # committed: read from outside
        raise GameFailure("a game failed outside any bot's call")

    def request_stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_games_held_in_a_batch_are_stored_when_idle_and_when_the_run_fails(tmp_path: Path) -> None:
    db = tmp_path / "batch.db"
    game = engine.load_game("dragon", players=2)
    spec = TournamentSpec("dragon", game.options, (("a", "random"), ("b", "random")), 5, seed=4)
    with Store(db) as store:
        run = start_run(store, spec)
        backend = _FailingBackend(db, 4)
        report = play_run(store, run, backend, progress=False)
        assert backend.stored_when_idle == 1  # the workers fell quiet: the game held is stored
        assert report.status == "failed" and "failed outside" in (report.failure or "")
        assert report.played == 4 and count_games(db) == 4  # stored on the way out
        assert store.run(run).status == "failed"


class _QuietBackend(_FailingBackend):
    """Plays every task in this process and stops when asked."""

    def run(self, tasks):  # type: ignore[no-untyped-def]
        from ladder.tournament.worker import play_task

        self.stop = False
        for task in tasks[:self.games]:
            if self.stop:
                return
            yield play_task(task)

    def request_stop(self) -> None:
        self.stop = True


def test_ctrl_c_while_a_batch_is_written_loses_no_game_and_miscounts_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Ctrl-Cs arrive once the first batch is committed but before it is counted (the
    second raised KeyboardInterrupt there, and the batch was written again and counted as
    duplicates): the batch is stored and counted once, the run
    stops as interrupted, and what is stored is what the report counts."""
    db = tmp_path / "ctrlc.db"
    game = engine.load_game("dragon", players=2)
    spec = TournamentSpec("dragon", game.options, (("a", "random"), ("b", "random")), 10, seed=4)
    real = Store.save_games
    calls = []

    def interrupted(self, outcomes):  # type: ignore[no-untyped-def]
        calls.append(len(outcomes))
        ids = real(self, outcomes)
        if len(calls) == 1:  # committed, not yet counted: the worst moment
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        return ids

    monkeypatch.setattr(Store, "save_games", interrupted)
    monkeypatch.setattr("ladder.tournament.runner._BATCH_GAMES", 3)
    with Store(db) as store:
        run = start_run(store, spec)
        report = play_run(store, run, _QuietBackend(db, 20), progress=False)
        assert report.status == "interrupted"
        assert calls[0] == 3 and report.duplicates == 0
        assert report.played == count_games(db) >= 3
        assert store.run(run).status == "interrupted"


def test_a_local_worker_holds_more_quick_games_and_two_slow_ones() -> None:
    """Quick games: up to 8 waiting in a worker's pipe (about 20 ms of games), so that it does
    not wait for the tournament process to be scheduled; slow games: two (one playing)."""
    backend = LocalBackend(2)
    assert backend._depth() == 2  # nothing played yet
    for seconds, games, depth in [(0.011, 10, 8), (0.05, 10, 4), (0.2, 10, 2), (60.0, 10, 2)]:
        backend._played = [seconds, games]
        assert backend._depth() == depth
