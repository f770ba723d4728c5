"""Attacking bots, written as users write bots today (`python:tests.ladder.guest_bots:FACTORY`),
for tests/ladder/test_guests.py: out of process (the default) each attack must fail, and be
charged to the attacker when it breaks the protocol; in process (`inproc:`) the peeker shows
that its search does find the referee when it is there to be found.
"""
from __future__ import annotations

import gc
import os
import random
import signal
import subprocess
import sys
import threading
import time
from typing import Any

# What the referee's process holds and a bot must never reach, by class name.
_REFEREE_THINGS = ("Referee", "StateGuard", "GameTask", "ProcessBot", "GameOutcome",
                   "BotSandbox", "LocalHeartbeat", "SharedHeartbeat", "WorkerSlot")


def _look_around(view: Any) -> list[str]:
    """Everything of the referee this process can find through the garbage collector and
    the stack: true states (a State that is no view, or has a seed), another seat's view, the
    referee's objects, other bots, the names the referee's loop uses for its seeds."""
    from engine.core.state import State

    found: list[str] = []
    me = view.viewer
    for obj in gc.get_objects():
        try:
            if isinstance(obj, State):
                if obj.viewer is None or obj.seed is not None:
                    found.append("a true state (gc)")
                elif obj.viewer != me:
                    found.append("another seat's view (gc)")
            elif type(obj).__name__ in _REFEREE_THINGS:
                found.append(f"a {type(obj).__name__} (gc)")
            elif type(obj).__name__.endswith("Bot") and hasattr(obj, "step"):
                found.append(f"another bot, a {type(obj).__name__} (gc)")
        except Exception:
            continue
    frame = sys._getframe()
    while frame is not None:
        for name, value in list(frame.f_locals.items()):
            if name in ("resample_seed", "referee", "guard", "task", "bots"):
                found.append(f"the local {name!r} of {frame.f_code.co_name}")
            elif isinstance(value, State) and (value.viewer is None or value.seed is not None):
                found.append(f"a true state in {frame.f_code.co_name}")
        frame = frame.f_back
    return found


class Peeker:
    """Looks for the referee at every decision; if it finds anything it says what on stderr
    and answers an illegal action (so a test sees it as a fault), else plays at random."""

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def step(self, view: Any) -> int:
        found = _look_around(view)
        if found:
            print("peeker found: " + "; ".join(sorted(set(found))), file=sys.stderr)
            return -12345
        return self.rng.choice(view.legal_actions())


def peeker() -> Peeker:
    return Peeker()


class Reader:
    """Tries at every decision to read the store at `path` and its SQLite companions (-wal,
    -shm); if any gives a byte it says so on stderr and answers an illegal action (a fault a
    test sees), else plays its first legal action."""

    def __init__(self, path: str) -> None:
        self.path = path

    def step(self, view: Any) -> int:
        found = []
        for name in (self.path, self.path + "-wal", self.path + "-shm"):
            try:
                with open(name, "rb") as file:
                    if file.read(16):
                        found.append(name)
            except OSError:
                pass
        if found:
            print("reader found: " + ", ".join(found), file=sys.stderr)
            return -12345
        return view.legal_actions()[0]


def reader(path: str) -> Reader:
    return Reader(path)


class Framer:
    """At its `after`-th decision leaves behind `sh -c "sleep 0.3; kill -SEGV <ppid>"` and a
    thread that ends its process 0.3 s later, then answers at once: whoever is thinking then
    must not be charged."""

    def __init__(self, after: str = "3") -> None:
        self.after = int(after)
        self.calls = 0

    def step(self, view: Any) -> int:
        self.calls += 1
        if self.calls == self.after:
            parent = os.getppid()
            subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -SEGV {parent}; kill -SEGV -1"],
                             start_new_session=True)
            threading.Thread(target=lambda: (time.sleep(0.3), os._exit(3)),
                             daemon=True).start()
        return view.legal_actions()[0]


def framer(after: str = "3") -> Framer:
    return Framer(after)


class Voider:
    """At its `after`-th decision has a child kill its parent and everything it can signal
    (`kill -KILL -1`), to void a game it is losing."""

    def __init__(self, after: str = "3") -> None:
        self.after = int(after)
        self.calls = 0

    def step(self, view: Any) -> int:
        self.calls += 1
        if self.calls == self.after:
            subprocess.run(["sh", "-c", f"kill -KILL {os.getppid()}; kill -KILL -1"],
                           check=False)
            time.sleep(1)
        return view.legal_actions()[0]


def voider(after: str = "3") -> Voider:
    return Voider(after)


class Misbehaves:
    """Plays its first legal action, then at its `after`-th decision does `how`:
    sleep (past any limit), garbage (writes a line that is no message on the protocol's
    pipe), flood (100 MB on it without a line end), exit (ends its process), close (closes its
    pipes and sleeps), thread (starts a non-daemon thread that never ends, then sleeps),
    memory (allocates 20 GB), fork (forks 1,000 times)."""

    def __init__(self, how: str, after: str = "3") -> None:
        self.how = how
        self.after = int(after)
        self.calls = 0

    def step(self, view: Any) -> int:
        self.calls += 1
        if self.calls < self.after:
            return view.legal_actions()[0]
        how = self.how
        print(f"misbehaves: about to {how}", file=sys.stderr, flush=True)
        if how == "sleep":
            time.sleep(3600)
        elif how in ("garbage", "flood"):
            data = b"this is not json\n" if how == "garbage" else b"x" * (100 << 20)
            for fd in _pipes_out():
                try:
                    os.write(fd, data)
                except OSError:
                    pass
            time.sleep(3600)
        elif how == "exit":
            os._exit(0)
        elif how == "close":
            for fd in [0, 1, *_pipes_out()]:
                try:
                    os.close(fd)
                except OSError:
                    pass
            time.sleep(3600)
        elif how == "thread":
            threading.Thread(target=lambda: time.sleep(3600), daemon=False).start()
            time.sleep(3600)
        elif how == "memory":
            hoard = bytearray(20 << 30)
            return len(hoard)
        elif how == "fork":
            for _ in range(1000):
                try:
                    if os.fork() == 0:
                        time.sleep(3600)
                        os._exit(0)
                except OSError:
                    break
            time.sleep(3600)
        return view.legal_actions()[0]


def _pipes_out() -> list[int]:
    """This process's descriptors above 2 (the adapter keeps the protocol's stdout there)."""
    try:
        return [int(fd) for fd in os.listdir("/proc/self/fd") if int(fd) > 2]
    except OSError:
        return []


def misbehaves(how: str = "sleep", after: str = "3") -> Misbehaves:
    return Misbehaves(how, after)


class Sneak:
    """Plays at random after signalling everything it can reach (`kill -STOP -1`, its
    parent): a bot in a sandbox of its own reaches nothing of the referee's."""

    def __init__(self) -> None:
        self.rng = random.Random(1)
        self.done = False

    def step(self, view: Any) -> int:
        if not self.done:
            self.done = True
            for target in (os.getppid(), -1):
                try:
                    os.kill(target, signal.SIGSTOP)
                except OSError:
                    pass
        return self.rng.choice(view.legal_actions())


def sneak() -> Sneak:
    return Sneak()
