"""Temporary folders of killed workers are removed (issue 48): a process's bot-output folder is
named after it, and the next sweep (a new pool, a new sandbox) removes those of processes that
are gone, and nothing else."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from ladder.tournament import tempdirs

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def tmp_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def aged(path: Path, seconds: float = 60) -> Path:
    path.mkdir()
    (path / "seat-0.out").write_text("what a bot printed")
    old = time.time() - seconds
    os.utime(path, (old, old))
    return path


def test_only_old_folders_of_gone_processes_are_swept(tmp_temp: Path) -> None:
    gone = dead_pid()
    swept = [aged(tmp_temp / f"tianti-bots-{gone}-abc"),
             aged(tmp_temp / f"tianti-worker-{gone}-xyz"),
             aged(tmp_temp / f"tianti-bot-check-{gone}")]
    kept = [aged(tmp_temp / f"tianti-bots-{os.getpid()}-own"),  # this process's
            aged(tmp_temp / f"tianti-bots-{os.getppid()}-alive"),  # a running process's
            aged(tmp_temp / f"tianti-bots-{gone}-young", seconds=0),  # just made
            aged(tmp_temp / f"tianti-other-{gone}-abc"),  # not tianti's kind
            aged(tmp_temp / "tianti-bots-abc")]  # no pid: an older release's, left alone
    assert tempdirs.sweep() == 3
    assert not any(p.exists() for p in swept)
    assert all(p.exists() for p in kept)


def test_a_killed_process_s_folder_is_removed_by_the_next_sandbox(
        tmp_temp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that made its BotSandbox and was killed outright leaves its folder; the next
    BotSandbox made (another worker's) removes it."""
    code = ("import os, signal\nfrom ladder.tournament.inproc import BotSandbox\n"
            "b = BotSandbox()\nprint(b.directory, flush=True)\nos.kill(os.getpid(), 9)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, env={**os.environ, "TMPDIR": str(tmp_temp)}, timeout=120)
    left = Path(done.stdout.strip())
    assert left.parent == tmp_temp and left.name.startswith("tianti-bots-"), done
    assert left.exists()
    old = time.time() - 60
    os.utime(left, (old, old))
    from ladder.tournament.inproc import BotSandbox

    monkeypatch.setattr(sys, "stdout", sys.stdout)  # the sandbox replaces them: put back after
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    sandbox = BotSandbox()
    try:
        assert not left.exists()
        assert Path(sandbox.directory).name.startswith(f"tianti-bots-{os.getpid()}-")
    finally:
        sandbox.close()
    assert not Path(sandbox.directory).exists()


def test_make_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        tempdirs.make("stuff")
