"""Bots for the Ray tests, named in specs as `python:tests.ladder.cluster_bots:FACTORY`."""
from __future__ import annotations

import multiprocessing
import os
import signal
from typing import Any


class KillsItsHost:
    """At its `after`-th decision kills the process that hosts its game from outside: the
    parent of the process it plays in when that is a watched child (on Ray: the Ray worker),
    else its own process. Each time it is played its Ray task is lost for a reason the tournament
    cannot pin on the bot, so that the same game is lost again and again."""

    def __init__(self, after: str | int = 3) -> None:
        self.after = int(after)
        self.calls = 0

    def step(self, state: Any) -> int:
        self.calls += 1
        if self.calls > self.after:
            watched = multiprocessing.parent_process() is not None
            os.kill(os.getppid() if watched else os.getpid(), signal.SIGKILL)
        return state.legal_actions()[0]


def kills_its_host(after: str | int = 3) -> KillsItsHost:
    return KillsItsHost(after)
