"""Adversarial arguments for every public method of the States and Games (tests/engine/fuzz_worker.py).

The fuzzer runs in a child process: a crash of the compiled code (a segfault on an unchecked
seat, say) then fails this test with the case that caused it, instead of killing pytest.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_fuzzer(group: str, tmp_path: Path) -> None:
    """Run the fuzzer's `group` in a child process; fail with its report, or with the case
    running when it died."""
    trace = tmp_path / f"fuzz-{group}.trace"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = subprocess.run(
        [sys.executable, "-m", "tests.engine.fuzz_worker", "--group", group, "--trace", str(trace)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    if proc.returncode < 0 or (proc.returncode != 0 and "failures" not in proc.stdout):
        lines = trace.read_text().splitlines() if trace.exists() else []
        last = lines[-1] if lines else "(none)"
        pytest.fail(
            f"the fuzzer died (exit status {proc.returncode}) during the case: {last}\n"
            f"{proc.stderr[-3000:]}"
        )
    assert proc.returncode == 0, proc.stdout[-20000:]
    assert " 0 failures" in proc.stdout.splitlines()[0]


def test_public_methods_survive_adversarial_arguments(tmp_path: Path) -> None:
    """Wrong types, bools, out-of-range and huge seats/indices/actions, lying __index__, bad
    seeds and records: each call answers or raises an accepted error, and a refused call
    leaves the state unchanged (raw_bytes, history, to_json)."""
    run_fuzzer("core", tmp_path)


# The engine core's own cases: apply_action / is_legal with ints outside the C int range and with
# a lying __index__ (converted once: the value checked is the value played);
# resample_from_infostate's player; from_record / from_json replaying huge actions or resample
# seats, and deeply nested JSON.
def test_state_core_survives_adversarial_arguments(tmp_path: Path) -> None:
    """The same for the cases that only engine/core/state.pyx can fix (see the comment)."""
    run_fuzzer("lead", tmp_path)
