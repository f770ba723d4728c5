"""What a bot's sandbox costs to start: `python -c pass` run to its end as a plain subprocess,
through `sandbox.spawn` (with this machine's namespaces, as `probe()` reports them), and through
the fallback (process group, rlimits and, as root, a uid of its own). Compare the means within one
run: `nice .venv/bin/python -m pytest benchmarks/test_sandbox_spawn.py --benchmark-only`.

A bot process serves many games in a row (issue 35), so this is paid once per bot and tournament
worker, not per game.
"""
from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from ladder.referee import sandbox

# The system's interpreter when this one is closed to other users (the fallback cannot bind it
# through a mount namespace), so that the three figures run the same program.
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def test_plain_subprocess(benchmark: Any) -> None:
    """The baseline: Popen, wait."""
    benchmark.pedantic(lambda: subprocess.run([PYTHON, "-c", "pass"], check=True),
                       rounds=10, warmup_rounds=1)


def _sandboxed() -> None:
    bot = sandbox.spawn([PYTHON, "-c", "pass"])
    status = bot.wait(30)
    bot.kill()
    assert status == 0, bot.stderr_tail()


def test_sandboxed(benchmark: Any) -> None:
    """spawn (namespaces, mounts, uid drop where the machine allows), wait, kill."""
    benchmark.extra_info["isolation"] = sandbox.probe().summary()
    benchmark.pedantic(_sandboxed, rounds=10, warmup_rounds=1)


def test_sandboxed_fallback(benchmark: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same as if the kernel refused namespaces."""
    monkeypatch.setattr(sandbox, "_try_namespaces", lambda mode, tools: "refused")
    sandbox._plan.cache_clear()
    try:
        benchmark.extra_info["isolation"] = sandbox.probe().summary()
        benchmark.pedantic(_sandboxed, rounds=10, warmup_rounds=1)
    finally:
        monkeypatch.undo()
        sandbox._plan.cache_clear()
