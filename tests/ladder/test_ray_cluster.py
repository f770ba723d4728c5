"""Tournaments on a real two-node Ray cluster (started with `ray start` on this machine): a node
lost mid-run costs nothing, a node joining mid-run gets work, Ray stays off stdout, and a
`python:` bot from a folder of the user's travels to the nodes.

Marked `cluster` (each test starts its own nodes, ~30 s): `pytest -m "not cluster"` skips them."""
from __future__ import annotations

import json
import re
import subprocess
import textwrap
from collections import Counter
from pathlib import Path
from typing import Iterator

import pytest

from tests.ladder.helpers import games, planned_keys, wait_for_games

pytest.importorskip("ray")
from tests.ladder.ray_nodes import RayNodes, tianti  # noqa: E402

pytestmark = pytest.mark.cluster

# 3-player Dragon, 8 deals x 6 seatings = 48 games of ~0.3 s (the search bot's iterations)
TOURNAMENT = ["-p", 3, "-b", "r=random", "-b", "h=heuristic", "-b", "s=ismcts(iterations=1500)",
              "--deals", 8, "--seed", 5, "--no-progress", "--json"]


@pytest.fixture
def nodes() -> Iterator[RayNodes]:
    cluster = RayNodes()
    try:
        yield cluster.start_head()
    finally:
        cluster.stop()


def _finish(proc: subprocess.Popen, timeout: float = 240) -> tuple[int, dict, str]:
    """Wait for the tournament; its exit code, its stdout as one JSON document, its stderr."""
    out, err = proc.communicate(timeout=timeout)
    try:
        report = json.loads(out)  # the whole of stdout: nothing of Ray's may be in it
    except json.JSONDecodeError:
        raise AssertionError(f"stdout is not one JSON document:\n{out}\n--- stderr:\n{err}")
    return proc.returncode, report.get("report", report), err  # the run's figures


def _all_stored_once(db: Path) -> None:
    stored = games(db, 1)
    keys = Counter((g.deal, g.seating) for g in stored)
    assert set(keys) == planned_keys(db, 1)
    assert set(keys.values()) == {1}
    charged = [(g.deal, g.seating, s) for g in stored for s in g.seats if s["fault"] is not None]
    assert not charged, f"a bot was charged: {charged}"


def test_a_node_lost_mid_run_costs_nothing(nodes: RayNodes, tmp_path: Path) -> None:
    """The second node's raylet is killed while it plays: its games go back to the queue and
    are played on the head, nobody is charged, no game is stored twice, the run finishes (exit
    0) with one line of ours on stderr, and stdout stays one JSON document."""
    second = nodes.add_node()
    nodes.wait_for_cpus(2)
    db = tmp_path / "t.db"
    proc = tianti(nodes, "tournament", "run", "--db", db, "--backend", "ray",
                  "--address", nodes.address, *TOURNAMENT)
    wait_for_games(db, 6, proc)
    nodes.kill_node(second)
    code, report, err = _finish(proc)
    assert code == 0, err
    assert report["status"] == "finished" and report["done"] == report["planned"] == 48
    assert report["faults"] == 0 and report["duplicates"] == 0
    assert report["nodes"] == 2
    _all_stored_once(db)
    lines = [line for line in err.splitlines() if line.strip()]
    lost = [line for line in lines if re.fullmatch(
        r"ray: node 2 of 2 lost \(127\.0\.0\.2\): \d+ games? re-queued; 1 node, 1 CPU left", line)]
    # The line comes once Ray declares the node dead (seconds after the kill). A node killed
    # between two of its games holds none, and on a quiet machine the head may finish the run
    # before Ray's verdict: then there is nothing to report, and nothing was lost (above).
    assert len(lost) <= 1, err
    if not lost:
        assert report["done"] == 48 and not lines, err
    # Ray's own words (the raylet's death with its log) reach neither stdout nor stderr
    assert not any("Raylet is terminated" in line or "state-dump" in line for line in lines), err
    assert all(line.startswith("ray: ") for line in lines), err


def test_a_node_joining_mid_run_gets_work_and_a_users_bot_travels(
        nodes: RayNodes, tmp_path: Path) -> None:
    """The run starts on the head alone (1 CPU); a second node joins while it plays and takes
    games (the summary counts two nodes, the live CPUs follow). One of the bots is a `python:`
    module in a folder of the user's that no node has on its path: it is shipped with the run,
    and the new node plays it without a fault."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "firstbot.py").write_text(textwrap.dedent("""
        class First:
            def step(self, state):
                return state.legal_actions()[0]

        def make():
            return First()
    """))
    db = tmp_path / "t.db"
    proc = tianti(nodes, "tournament", "run", "--db", db, "--backend", "ray",
                  "--address", nodes.address, "-p", 3, "-b", "mine=python:firstbot:make",
                  "-b", "h=heuristic", "-b", "s=ismcts(iterations=2000)",
                  "--deals", 10, "--seed", 5, "--no-progress",
                  "--json", cwd=folder)
    wait_for_games(db, 3, proc)
    # On one machine Ray's workers could import the module from the tournament's folder (Ray
    # puts the driver's current folder on their path): move it away, so that the new node's
    # workers, which import it fresh, find it only in what was shipped with the run.
    folder.rename(tmp_path / "moved")
    nodes.add_node()
    code, report, err = _finish(proc)
    assert code == 0, err
    assert report["status"] == "finished" and report["done"] == report["planned"] == 60
    assert report["nodes"] == 2 and report["workers"] == 2, report
    _all_stored_once(db)
    assert any(s["bot"] == "mine" for g in games(db, 1) for s in g.seats)
    assert re.search(r"^ray: node 2 joined \(127\.0\.0\.2, 1 CPU\): 2 nodes, 2 CPUs$", err,
                     re.MULTILINE), err
    nodes_of = {g.worker for g in games(db, 1)}
    assert len(nodes_of) >= 2  # at least two worker processes played (one on each node)
