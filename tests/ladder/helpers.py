"""Shared helpers of the ladder tests: running the CLI in-process or as a real process."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from typer.testing import Result
from typer.testing import CliRunner

from ladder.cli import app
from ladder.tournament.schedule import plan
from ladder.tournament.store import Store, StoredGame

REPO = Path(__file__).resolve().parents[2]
BOTS = "python:tests.ladder.bad_bots:"
_runner = CliRunner()


def cli(*args: Any) -> Result:
    """Run `tianti ARGS...` in this process; returns Typer's Result."""
    return _runner.invoke(app, [str(a) for a in args])


def spawn(*args: Any, **kwargs: Any) -> subprocess.Popen:
    """Start `tianti ARGS...` as its own process (in its own session, like a terminal job)."""
    env = dict(os.environ)
    env.pop("TIANTI_DB", None)
    return subprocess.Popen([sys.executable, "-m", "ladder.cli", *[str(a) for a in args]],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, **kwargs)


def games(db: Path, run: int | None = None) -> list[StoredGame]:
    with Store(db, create=False) as store:
        if run is None:
            return list(store.games())
        return list(store.games(where="g.run_id = ?", params=(run,)))


def planned_keys(db: Path, run: int) -> set[tuple[int, int]]:
    with Store(db, create=False) as store:
        return {t.key for t in plan(store.run(run).spec, run)}


def count_games(db: Path) -> int:
    """Stored games, read the way another process would (0 before the store exists)."""
    if not db.exists():
        return 0
    import sqlite3

    conn = sqlite3.connect(db, timeout=30)
    try:
        return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0
    finally:
        conn.close()


def wait_for_games(db: Path, n: int, proc: subprocess.Popen, timeout: float = 120) -> int:
    """Wait until at least n games are stored (fails if the process ends first)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stored = count_games(db)
        if stored >= n:
            return stored
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"the tournament ended early ({proc.returncode}):\n{out}\n{err}")
        time.sleep(0.05)
    raise AssertionError(f"fewer than {n} games stored after {timeout} s")
