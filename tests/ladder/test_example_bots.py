"""The example bots of examples/bots (`first.c`, built here with gcc, and the plain-Python
`greedy_points.py`) play tournaments against `strong` as `exec:` programs, on the local backend
and on a real two-node Ray cluster (started with `ray start` on this machine).

The bots are named as a user in their own folder would: `exec:./first` and `exec:python3
greedy_points.py palace`, relative to the folder the tournament runs in, with the sandbox's
limits changed for the run ($TIANTI_BOT_LIMITS in the tournament's environment only, never in
the Ray nodes'). A third program checks, from inside its sandbox, that the changed limit is the
one it got. Every planned game is stored once, no seat is charged a fault (strong's least of
all), and when the run is over no process of these bots is left.

`strong(iterations=200)` (a few milliseconds a move, not the default second) keeps each test
under a minute. Marked `cluster`: `pytest -m "not cluster"` skips them."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path
from typing import Iterator

import pytest

from tests.ladder.helpers import REPO, games, planned_keys

pytestmark = [pytest.mark.cluster,
              pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")]

STRONG = "strong(iterations=200)"
# the limit the run asks for, and what the probe must find in its own process
LIMITS = "open_files=200"
# the probe: answers the handshake only if its sandbox has the run's limit on open files, then
# plays the first legal action (standard library only, like greedy_points.py)
PROBE = textwrap.dedent("""
    import json, resource, sys
    want = int(sys.argv[1])
    got = resource.getrlimit(resource.RLIMIT_NOFILE)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            if got != (want, want):
                reply = {"type": "error", "message": f"open files limit {got}, not {want}"}
            else:
                reply = {"type": "hello", "protocol": 1, "name": "probe", "options": {}}
        elif message["type"] == "move":
            reply = {"type": "action", "action": message["legal"][0][0]}
        elif message["type"] == "quit":
            break
        else:
            continue
        print(json.dumps(reply), flush=True)
""")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's folder with the two examples (the C one built) and the probe."""
    here = tmp_path_factory.mktemp("mybots")
    # open to others, as a project folder usually is (pytest makes its folders 0700): run as
    # root, a bot gets a uid of its own, which must be able to read its program there
    here.chmod(0o755)
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-o", str(here / "first"),
                    str(REPO / "examples/bots/first.c")], check=True)
    shutil.copy(REPO / "examples/bots/greedy_points.py", here / "greedy_points.py")
    (here / "probe.py").write_text(PROBE)
    return here


def _bots() -> list[str]:
    return ["-b", "c=exec:./first", "-b", "py=exec:python3 greedy_points.py palace",
            "-b", f"probe=exec:python3 probe.py {LIMITS.split('=')[1]}", "-b", f"s={STRONG}"]


# Dragon, 4 players (the three programs and strong at every table), 2 deals x 4 rotations
RUN = ["-p", 4, *_bots(), "--deals", 2, "--seatings", "rotations", "--seed", 35,
       "--move-timeout", 10, "--no-progress", "--json"]
PLANNED = 8


def _run(args: list, cwd: Path, env: dict[str, str]) -> dict:
    """`tianti ARGS` in `cwd` as its own process; its JSON document (exit code 0)."""
    proc = subprocess.run([sys.executable, "-m", "ladder.cli", *[str(a) for a in args]],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"stdout is not one JSON document:\n{proc.stdout}\n{proc.stderr}")
    return report


def _bot_processes(folder: Path) -> list[str]:
    """The command lines of running processes that name `folder` (the bots, their sandboxes)."""
    marker = str(folder).encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                line = f.read()
        except OSError:
            continue
        if marker in line:
            found.append(line.replace(b"\0", b" ").decode(errors="replace"))
    return found


def _none_left(folder: Path, wait: float = 20.0) -> None:
    """No process of the bots is left (Ray ends a job's workers, and so their bots, shortly
    after the job: wait a little for that)."""
    deadline = time.monotonic() + wait
    while (left := _bot_processes(folder)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, left


def _check(db: Path, doc: dict) -> None:
    report = doc.get("report", doc)  # the run's figures
    assert report["status"] == "finished", report
    assert report["done"] == report["planned"] == PLANNED
    assert report["faults"] == 0 and report["duplicates"] == 0
    assert doc["placement"] == {"c": "process", "py": "process", "probe": "process",
                                   "s": "builtin"}
    stored = games(db, 1)
    keys = Counter((g.deal, g.seating) for g in stored)
    assert set(keys) == planned_keys(db, 1) and set(keys.values()) == {1}
    seats = [s for g in stored for s in g.seats]
    assert Counter(s["bot"] for s in seats) == {b: PLANNED for b in ("c", "py", "probe", "s")}
    assert [s for s in seats if s["fault"]] == []
    assert all(s["moves"] > 0 for s in seats)


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "TIANTI_BOT_LIMITS": LIMITS}
    env.pop("TIANTI_DB", None)
    return env


def test_the_examples_play_strong_on_the_local_backend(folder: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    report = _run(["tournament", "run", "--db", db, *RUN, "--workers", 2], folder, _env())
    _check(db, report)
    _none_left(folder)


@pytest.fixture(scope="module")
def nodes() -> Iterator["RayNodes"]:
    pytest.importorskip("ray")
    from tests.ladder.ray_nodes import RayNodes

    cluster = RayNodes()
    cluster.env.pop("TIANTI_BOT_LIMITS", None)  # the nodes know nothing of the run's limits
    try:
        cluster.start_head()
        cluster.add_node()
        cluster.wait_for_cpus(2)
        yield cluster
    finally:
        cluster.stop()


def test_the_examples_play_strong_on_a_two_node_ray_cluster(
        nodes: "RayNodes", folder: Path, tmp_path: Path) -> None:
    """The same tournament on the cluster: the Ray workers run in folders and environments of
    Ray's, yet the relative commands name the user's programs and the probe gets the run's
    limit; both nodes play."""
    db = tmp_path / "t.db"
    doc = _run(["tournament", "run", "--db", db, "--backend", "ray", "--address",
                nodes.address, *RUN], folder, {**nodes.env, "TIANTI_BOT_LIMITS": LIMITS})
    _check(db, doc)
    assert doc.get("report", doc)["nodes"] == 2, doc
    _none_left(folder)
