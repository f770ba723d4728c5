"""A real Ray cluster on this machine for the tests: nodes started with `ray start`, as a person
would on two machines, kept apart from any other Ray on the machine.

Every node runs on a loopback address (127.0.0.2: Ray rewrites 127.0.0.1 to the machine's
network address), with one CPU, token authentication off, and its own temporary folder
($RAY_TMPDIR), by which its processes are found and killed at the end; `ray stop` is never
used (it would stop every Ray on the machine). Nodes import tianti from this checkout.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.ladder.helpers import REPO

HOST = "127.0.0.2"
RAY = str(Path(sys.executable).with_name("ray"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class RayNodes:
    """Ray nodes of one test cluster. `env` is what every process of the cluster (and the
    tournament connecting to it) runs with."""

    def __init__(self) -> None:
        # short: Ray's unix sockets live below it and their paths are limited to 107 bytes
        self.tmp = Path(tempfile.mkdtemp(prefix="tianti-ray-", dir="/tmp"))
        self.port = _free_port()
        self.address = f"{HOST}:{self.port}"
        self.env = {**os.environ, "RAY_TMPDIR": str(self.tmp), "RAY_AUTH_MODE": "disabled",
                    "PYTHONPATH": str(REPO), "RAY_USAGE_STATS_ENABLED": "0"}
        self.env.pop("RAY_ADDRESS", None)
        self.raylets: list[int] = []  # the raylet of each node, in start order (head first)

    def _ray(self, *args: str) -> None:
        before = set(self._raylet_pids())
        done = subprocess.run([RAY, "start", *args, "--node-ip-address", HOST, "--num-cpus", "1",
                               "--disable-usage-stats"], env=self.env, cwd=REPO,
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"ray start {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        new = set(self._raylet_pids()) - before
        assert len(new) == 1, new
        self.raylets.append(new.pop())

    def start_head(self) -> "RayNodes":
        self._ray("--head", "--port", str(self.port), "--include-dashboard=false")
        return self

    def add_node(self) -> int:
        """Start one more node (1 CPU); returns its index (the head is 0)."""
        self._ray("--address", self.address)
        return len(self.raylets) - 1

    def kill_node(self, index: int) -> None:
        """SIGKILL a node's raylet and every process it started (its Ray workers, its agents),
        all at once, as a preempted machine goes."""
        tree = [self.raylets[index]]
        for pid in tree:  # grows as it goes: the raylet's descendants
            try:
                with open(f"/proc/{pid}/task/{pid}/children") as f:
                    tree.extend(int(c) for c in f.read().split())
            except OSError:
                continue
        for pid in tree:
            try:
                os.kill(pid, signal.SIGSTOP)  # nothing of the node may run on while it dies
            except OSError:
                pass
        for pid in tree:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def wait_for_cpus(self, n: int, timeout: float = 60) -> None:
        """Wait until the cluster counts n CPUs on live nodes."""
        code = ("import ray, json; ray.init(address=%r, logging_level='ERROR'); "
                "print(json.dumps(ray.cluster_resources().get('CPU', 0)))" % self.address)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run([sys.executable, "-c", code], env=self.env, capture_output=True,
                                 text=True, timeout=60).stdout.strip().splitlines()
            if out and json.loads(out[-1]) >= n:
                return
            time.sleep(0.5)
        raise AssertionError(f"the cluster did not reach {n} CPUs in {timeout} s")

    def _mine(self) -> list[int]:
        """Every process whose environment names this cluster's temporary folder."""
        marker = f"RAY_TMPDIR={self.tmp}".encode()
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if marker in f.read().split(b"\0"):
                        pids.append(int(entry))
            except OSError:
                continue
        return pids

    def _raylet_pids(self) -> list[int]:
        out = []
        for pid in self._mine():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if f.read().split(b"\0")[0].endswith(b"/raylet"):
                        out.append(pid)
            except OSError:
                continue
        return out

    def stop(self) -> None:
        """Kill this cluster's processes (and only them), then remove its folder."""
        for _ in range(3):
            pids = self._mine()
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.5)
        shutil.rmtree(self.tmp, ignore_errors=True)


def tianti(nodes: RayNodes, *args: Any, cwd: Path = REPO) -> subprocess.Popen:
    """Start `tianti ARGS...` as its own process, with the cluster's environment (stdout and
    stderr are pipes: the test reads what a user would see)."""
    return subprocess.Popen([sys.executable, "-m", "ladder.cli", *[str(a) for a in args]],
                            cwd=cwd, env=nodes.env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
