"""Bots as guests (issue 35): a `python:` bot, written as today, plays from a sandboxed process of
its own, so nothing it does reaches the referee: it finds no true state, seed or other bot; it
cannot get another seat charged or its games voided; each way it breaks the protocol is its own
fault, of its own kind; the run finishes with nothing lost and no process left behind. The bots
are in tests/ladder/guest_bots.py."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from engine.core.state import State
from tests.ladder.helpers import cli, games

GUESTS = "python:tests.ladder.guest_bots:"
LINUX = Path("/proc/self/task").exists()


def _run(db: Path, *bots: str, timeout: float = 1.0, players: int = 2, deals: int = 1,
         workers: int = 1, game: str = "dragon") -> dict[str, Any]:
    args: list[Any] = ["tournament", "run", "--db", db, "--game", game, "-p", players]
    for bot in bots:
        args += ["-b", bot]
    result = cli(*args, "--seatings", "rotations", "--deals", deals, "--seed", 4,
                 "--move-timeout", timeout, "--workers", workers, "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _guests_alive() -> list[str]:
    """Processes still running a guest bot (by their command line)."""
    alive = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if "tests.ladder.guest_bots" in cmd and "pytest" not in cmd:
            alive.append(f"{pid}: {cmd}")
    return alive


def _no_guest_left() -> None:
    deadline = time.monotonic() + 5
    while _guests_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _guests_alive() == []


def _replays(g: Any) -> None:
    state = State.from_record(g.record())
    assert state.is_terminal() and state.scores() == [s["score"] for s in g.seats]


# -- peeking -------------------------------------------------------------------------------------

@pytest.mark.skipif(not LINUX, reason="needs Linux /proc")
def test_a_peeking_bot_finds_nothing_of_the_referee_out_of_process(tmp_path: Path) -> None:
    """The peeker searches the garbage collector and the stack at every decision for a true
    state, a seed, the referee's objects and other bots, and answers illegally if it finds any:
    out of process it never does; asked in-process (inproc:), it finds them all (the search
    works) and is charged for the illegal answer."""
    out = _run(tmp_path / "out.db", "r=random", f"peek={GUESTS}peeker")
    assert out["report"]["faults"] == 0 and out["done"] == 2
    assert out["placement"] == {"r": "builtin", "peek": "process"}
    inside = _run(tmp_path / "in.db", "r=random", f"peek=inproc:{GUESTS}peeker")
    assert inside["report"]["faults"] == 2 and inside["placement"]["peek"] == "inproc"
    for g in games(tmp_path / "in.db"):
        fault = next(s["fault"] for s in g.seats if s["bot"] == "peek")
        assert fault["kind"] == "illegal"
        for what in ("a true state (gc)", "a Referee (gc)", "another bot, a RandomBot",
                     "the local 'resample_seed'"):
            assert what in fault["message"]
    _no_guest_left()


# -- framing, voiding, signalling --------------------------------------------------------------

@pytest.mark.skipif(not LINUX, reason="needs Linux /proc")
@pytest.mark.parametrize("attacker", ["framer(after=3)", "voider(after=3)", "sneak"])
def test_a_bot_cannot_get_its_opponent_charged_or_its_games_voided(
        tmp_path: Path, attacker: str) -> None:
    """The framer leaves `kill -SEGV <its parent>` behind and a thread ending its process while
    the honest search thinks; the voider has a child `kill -KILL` its parent and everything it
    can; the sneak stops everything it can. None reaches the worker: nothing is voided, no
    worker is lost, the honest bot is never charged, and only a bot whose own process died is
    (crashed)."""
    db = tmp_path / "t.db"
    # the honest search thinks long enough (about 20 ms a decision) that the framer's exit, 0.3 s
    # after its third decision, lands in the game it attacked rather than after its end
    out = _run(db, "honest=ismcts(iterations=10000)", f"x={GUESTS}{attacker}", timeout=5.0)
    report = out["report"]
    assert report["status"] == "finished" and report["voided"] == 0 and out["done"] == 2
    stored = games(db)
    assert len(stored) == 2
    for g in stored:
        by_bot = {s["bot"]: s for s in g.seats}
        assert by_bot["honest"]["fault"] is None
        fault = by_bot["x"]["fault"]
        if attacker == "sneak":
            assert fault is None
        elif fault is None:
            # in a PID namespace the voider is its namespace's init: its `kill -KILL` of its
            # parent (0, outside) and of everything (-1) reach nothing that matters to it
            assert attacker.startswith("voider"), "the framer's own exit was not charged to it"
        else:
            assert fault is not None and fault["kind"] == "crashed", fault
            assert fault["move"] >= 4  # after its third decision
            assert by_bot["honest"]["rank"] == 0
        _replays(g)
    _no_guest_left()


@pytest.mark.skipif(not LINUX, reason="needs Linux /proc")
@pytest.mark.parametrize("where", ["cwd", "elsewhere"])
def test_the_store_is_hidden_from_bots_wherever_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """A `--db` store outside tianti's data folder, in a folder the bot can otherwise see (the
    folder the run starts in, which is on its PYTHONPATH, or any other folder outside /tmp, which
    its namespace replaces): the bot reads nothing of it or of its -wal and -shm files; of the
    folder the run starts in it reads nothing at all, of another folder what is not a store."""
    base = Path("/var/tmp") if os.access("/var/tmp", os.W_OK) else Path.home()
    folder = Path(tempfile.mkdtemp(prefix="tianti-store-test-", dir=base))
    try:
        os.chmod(folder, 0o755)
        (folder / "visible.txt").write_text("the bot may read this")
        db = folder / "t.db"
        if where == "cwd":
            monkeypatch.chdir(folder)
        out = _run(db, "r=random", f"x={GUESTS}reader(path={db})")
        assert out["report"]["status"] == "finished" and out["done"] == 2
        for g in games(db):
            by_bot = {s["bot"]: s for s in g.seats}
            assert by_bot["x"]["fault"] is None, by_bot["x"]["fault"]["message"]
        # the folder tianti runs in is hidden as a whole (issue 48): nothing of it is found
        out = _run(tmp_path / "c.db", "r=random",
                   f"x={GUESTS}reader(path={folder / 'visible.txt'})")
        seen = not all(s["fault"] is None for g in games(tmp_path / "c.db") for s in g.seats)
        assert seen == (where != "cwd")
        # the same bot does find a file it is meant to be able to see (the test can fail)
        other = Path(tempfile.mkdtemp(prefix="tianti-visible-test-", dir=base))
        os.chmod(other, 0o755)
        (other / "visible.txt").write_text("the bot may read this")
        out = _run(tmp_path / "u.db", "r=random",
                   f"x={GUESTS}reader(path={other / 'visible.txt'})")
        stored = games(tmp_path / "u.db")
        assert all(g.seats[0]["fault"] or g.seats[1]["fault"] for g in stored)
        assert any("reader found" in (s["fault"] or {}).get("message", "")
                   for g in stored for s in g.seats)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if "other" in locals():
            shutil.rmtree(other, ignore_errors=True)
    _no_guest_left()


@pytest.mark.skipif(not LINUX, reason="needs Linux /proc")
def test_bots_paused_between_turns_play_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TIANTI_BOT_LIMITS=pause=true: each bot process is stopped between its turns and runs again
    for its next one; the games are the same as without it (same seed, fixed-policy bots), with
    no fault and no process left behind."""
    bots = ("f=python:tests.ladder.bad_bots:first", "g=python:tests.ladder.bad_bots:greedy")
    plain = games(tmp_path / "plain.db") if _run(tmp_path / "plain.db", *bots, deals=2) else []
    monkeypatch.setenv("TIANTI_BOT_LIMITS", "pause=true")
    out = _run(tmp_path / "paused.db", *bots, deals=2)
    assert out["report"]["status"] == "finished" and out["done"] == 4
    paused = games(tmp_path / "paused.db")
    assert [g.record()["actions"] for g in paused] == [g.record()["actions"] for g in plain]
    assert all(s["fault"] is None for g in paused for s in g.seats)
    # no bot left stopped (other runs on the machine may have bad_bots playing, never stopped)
    deadline = time.monotonic() + 5
    while _stopped(b"tests.ladder.bad_bots") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _stopped(b"tests.ladder.bad_bots") == []


def _stopped(marker: bytes) -> list[int]:
    """Stopped processes whose command line holds `marker`."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if marker not in f.read():
                        continue
                with open(f"/proc/{pid}/stat", "rb") as f:
                    if f.read().rsplit(b")", 1)[1].split()[0] == b"T":
                        found.append(int(pid))
            except (OSError, IndexError):
                pass
    return found


# -- breaking the protocol: each its own kind -----------------------------------------------

@pytest.mark.skipif(not LINUX, reason="needs Linux /proc")
@pytest.mark.parametrize("how,kind,text", [
    ("sleep", "timeout", "time limit of 1 s"),
    ("garbage", "invalid", "no message"),
    ("flood", "invalid", "without a line end"),
    ("exit", "crashed", "exited with code 0"),
    ("close", "crashed", "closed its output"),
    ("thread", "timeout", "time limit of 1 s"),
    ("memory", "error", "MemoryError"),
    ("fork", "timeout", "time limit of 1 s"),
])
def test_a_bot_that_breaks_the_protocol_is_charged_with_its_kind(
        tmp_path: Path, how: str, kind: str, text: str) -> None:
    db = tmp_path / "t.db"
    start = time.monotonic()
    out = _run(db, "r=random", f"x={GUESTS}misbehaves(how={how},after=3)")
    assert out["report"]["status"] == "finished" and out["report"]["voided"] == 0
    assert time.monotonic() - start < 120
    stored = games(db)
    assert len(stored) == 2
    for g in stored:
        by_bot = {s["bot"]: s for s in g.seats}
        assert by_bot["r"]["fault"] is None and by_bot["r"]["rank"] == 0
        fault = by_bot["x"]["fault"]
        assert fault is not None and fault["kind"] == kind and text in fault["message"], fault
        assert f"misbehaves: about to {how}" in fault["message"]  # its stderr, kept
        assert fault["move"] >= 4
        _replays(g)
    _no_guest_left()


def test_in_process_is_asked_for_and_recorded(tmp_path: Path) -> None:
    """--in-process runs python: bots inside the worker; the stored spec and the summary say so."""
    db = tmp_path / "t.db"
    out = _run(db, "r=random", f"f=python:tests.ladder.bad_bots:first")
    assert out["placement"]["f"] == "process"
    result = cli("tournament", "run", "--db", tmp_path / "in.db", "-p", 2, "-b", "r=random",
                 "-b", "f=python:tests.ladder.bad_bots:first", "--in-process", "--deals", 1,
                 "--seatings", "rotations", "--workers", 1, "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["placement"] == {"r": "builtin", "f": "inproc"}
    shown = cli("tournament", "show", 1, "--db", tmp_path / "in.db")
    assert "f = inproc:python:tests.ladder.bad_bots:first" in shown.output
