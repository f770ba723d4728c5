"""Where a tournament's games are played: a pool of local worker processes, or Ray tasks.

Both backends take the list of games still to play and yield each `GameOutcome` as soon as it
is finished (in whatever order the games finish); `request_stop()` (from a signal handler) makes
`run` stop handing out games and return, and `close()` ends whatever is still running: those
games in flight are the only ones an interrupted tournament loses.

The local pool (`LocalBackend`) gives each worker process a pipe and a `WorkerSlot` of shared
memory, in which the worker's referee keeps a heartbeat: which game, which seat's bot is being
called since when, and the moves played so far. The in-process watchdog (see
`ladder.tournament.worker`) interrupts a bot that runs past the move time limit; when that does not
work (the bot blocks signals, or holds the GIL in compiled code) or the worker process dies in a
bot's call (a crash in compiled code, `os._exit`), the pool kills or buries the worker, starts a
new one, and sends the game again with the moves already played and that bot faulted, so the game
still finishes with the fault on record.

Whose fault a lost worker is, as well as the heartbeat can tell: a worker that exits (with a code),
crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, ...), signals itself (see
`ladder.tournament.inproc.note_own_signals`) or ignores the interrupt past the grace time *during
a bot's call* is that bot's fault. A worker killed by another signal (`kill -9` from outside, the
machine's OOM killer), stopped from outside (SIGSTOP) for longer than the grace time, stalled
outside any bot's call (`stall_limit`), or whose game fails outside any bot's call, is nobody's:
the game goes back in the queue, up to `_RETRIES` times, and then is stored as a voided game
(`VoidedGame`: nobody's loss, in no rating). Each worker leads its own process group, and is
killed with it, so that processes its bots started die with it.

The Ray backend (`RayBackend`) plays chunks of games as Ray tasks (one CPU each) on an existing
cluster, or on a local Ray instance it starts; each task streams its games back one by one as
they end. A task lost with its node or its Ray worker gives its games back to the queue (nobody
is charged, nothing is stored twice); a game whose worker died on a live node is played again
in a watched process (a one-process local pool inside a Ray task), so that a bot that kills its
process or ignores the interrupt is faulted exactly as on the local backend. The user's own
`python:` bot modules travel with the run as Ray `py_modules`.
"""
from __future__ import annotations

import importlib.util
import json
import math
import multiprocessing
import os
import re
import selectors
import shutil
import signal
import socket
import sys
import sysconfig
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from typing import Any, Callable, Iterable, Iterator, Protocol

from engine.core.errors import TiantiError
from ladder.tournament.schedule import GameTask
from ladder.tournament import tempdirs
from ladder.tournament.inproc import output_path, read_tail, with_output
from ladder.tournament.worker import (GameOutcome, LocalHeartbeat, VoidedGame, WorkerSlot,
                                      install_watchdog, kill_group, play_task, worker_main,
                                      _process_sandbox)

BACKENDS = ("local", "ray")
# How many games each local worker holds at once (one playing, the rest waiting in its pipe):
# _PER_WORKER, and for quick games up to _MAX_PER_WORKER, about _QUEUED_SECONDS of games (so that
# a worker does not wait for this process, however late it is scheduled, to hand it the next).
_PER_WORKER = 2
_MAX_PER_WORKER = 8
_QUEUED_SECONDS = 0.02
# How often the pool looks at its workers' heartbeats and process states (seconds): its limits
# are seconds long, and reading /proc after every game would cost quick games their rate.
_POLICE_EVERY = 0.05
# Retries of a game whose worker was lost for reasons outside any bot's call (then it is voided).
_RETRIES = 2
# How long a worker may make no progress outside any bot's call, or start none of the games it
# was sent, before it is deemed stuck (killed; its games go to a new worker, nobody charged).
STALL_SECONDS = 120.0
# Signals a process sends itself by crashing (in compiled code): the bot running then did it.
_CRASH_SIGNALS = frozenset(getattr(signal, n) for n in (
    "SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGSYS", "SIGTRAP", "SIGXCPU", "SIGXFSZ")
    if hasattr(signal, n))


class BackendError(TiantiError):
    """A backend cannot start (Ray missing, a cluster unreachable, a bad worker count)."""


class GameFailure(TiantiError):
    """A game failed outside any bot's call (the tournament cannot go on without it)."""


class Backend(Protocol):
    """What the runner needs of a backend."""

    name: str
    workers: int

    def run(self, tasks: list[GameTask]) -> Iterator[GameOutcome]:
        """Play the tasks; yields each outcome when its game is over."""
        ...

    def request_stop(self) -> None:
        """Stop handing out games (safe to call from a signal handler)."""
        ...

    def close(self) -> None:
        """End every worker (games still in flight are lost)."""
        ...


def default_workers() -> int:
    """The machine's cores (those this process may run on)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    slot: WorkerSlot
    output_dir: str = ""  # where its bots' output goes (see ladder.tournament.inproc.BotSandbox)
    assigned: dict[int, GameTask] = field(default_factory=dict)  # serial -> task, in send order
    progress: tuple[float, float] = (-1.0, -1.0)  # the heartbeat's progress when last seen ...
    progress_at: float = 0.0  # ... and since when it has not changed
    stopped_since: float | None = None  # since when its process is seen stopped (SIGSTOP)
    task_seen: int = -2  # the game its heartbeat last named (-1: none yet) ...
    task_seen_at: float = field(default_factory=time.monotonic)  # ... and since when


class LocalBackend:
    """A pool of `workers` processes on this machine (see the module docstring).

    `kill_grace` is how long past the move time limit a bot may stay silent after the watchdog's
    interrupt before its worker process is killed (default: the limit itself, at least 2 s);
    it is also how long a worker may be seen stopped (SIGSTOP) before it is replaced.
    `stall_limit` is how long a worker may make no progress outside any bot's call."""

    name = "local"

    def __init__(self, workers: int | None = None, kill_grace: float | None = None,
                 stall_limit: float = STALL_SECONDS) -> None:
        workers = default_workers() if workers is None else workers
        if workers < 1:
            raise BackendError(f"--workers must be at least 1, got {workers}")
        self.workers = workers
        self.kill_grace = kill_grace
        self.stall_limit = stall_limit
        tempdirs.sweep()  # folders that workers of killed tournaments left
        self._ctx = multiprocessing.get_context("spawn")
        self._pool: list[_Worker] = []
        # one selector for the whole run (multiprocessing's wait() builds one per call)
        self._selector = selectors.DefaultSelector()
        self._stop = False
        self._serial = 0
        self.restarted_workers = 0
        self._failed_starts = 0
        self._played = [0.0, 0]  # seconds the games took in their workers, games
        # called (by `run`, between games) when no worker has sent anything for a while: the
        # tournament stores the games it holds (see ladder.runner)
        self.on_idle: Callable[[], None] | None = None

    def request_stop(self) -> None:
        self._stop = True

    def _start_worker(self, slot: WorkerSlot | None = None) -> _Worker:
        slot = slot if slot is not None else WorkerSlot(self._ctx)
        slot.reset()
        parent_end, child_end = self._ctx.Pipe(duplex=True)
        output_dir = tempdirs.make("worker")
        process = self._ctx.Process(target=worker_main,
                                    args=(child_end, slot, os.getpid(), output_dir),
                                    name="tianti-worker", daemon=True)
        process.start()
        child_end.close()
        worker = _Worker(process, parent_end, slot, output_dir, progress_at=time.monotonic())
        self._pool.append(worker)
        self._selector.register(parent_end, selectors.EVENT_READ, worker)
        self._selector.register(process.sentinel, selectors.EVENT_READ, worker)
        return worker

    def _forget(self, worker: _Worker) -> None:
        """Take a worker out of the pool and the selector, and close its pipe."""
        for fileobj in (worker.conn, worker.process.sentinel):
            try:
                self._selector.unregister(fileobj)
            except (KeyError, ValueError):
                pass
        if worker in self._pool:
            self._pool.remove(worker)
        worker.conn.close()
        kill_group(worker.process.pid)  # what its bots started, if still there
        shutil.rmtree(worker.output_dir, ignore_errors=True)

    def _kill(self, worker: _Worker) -> None:
        """Kill a worker and every process of its group (what its bots started)."""
        kill_group(worker.process.pid)
        worker.process.kill()
        worker.process.join(5)

    def _grace(self, timeout: float) -> float:
        return self.kill_grace if self.kill_grace is not None else max(2.0, timeout)

    def run(self, tasks: list[GameTask]) -> Iterator[GameOutcome | VoidedGame]:
        pending: deque[GameTask] = deque(tasks)
        retries: dict[tuple[int, int], int] = {}
        self._selector = selectors.DefaultSelector()
        for _ in range(min(self.workers, len(pending))):
            self._start_worker()
        policed = 0.0
        while not self._stop:
            self._dispatch(pending)
            if not any(w.assigned for w in self._pool):
                break
            ready: dict[_Worker, set[Any]] = {}
            for key, _ in self._selector.select(timeout=0.1):
                ready.setdefault(key.data, set()).add(key.fileobj)
            if not ready and self.on_idle is not None:
                self.on_idle()
            for worker, which in ready.items():
                if worker in self._pool:
                    yield from self._collect(worker, worker.process.sentinel in which,
                                             pending, retries)
            if time.monotonic() - policed >= _POLICE_EVERY:
                yield from self._police(pending, retries)
                policed = time.monotonic()

    def _depth(self) -> int:
        """How many games a worker holds (see _PER_WORKER), from the games played so far."""
        seconds, games = self._played
        if games < 8:
            return _PER_WORKER
        if seconds <= 0:
            return _MAX_PER_WORKER
        return max(_PER_WORKER, min(_MAX_PER_WORKER, int(_QUEUED_SECONDS * games / seconds)))

    def _dispatch(self, pending: deque[GameTask]) -> None:
        depth = self._depth()
        for worker in self._pool:
            while pending and len(worker.assigned) < depth and not self._stop:
                task = pending.popleft()
                self._serial += 1
                try:
                    worker.conn.send((self._serial, task))
                except (BrokenPipeError, OSError):
                    pending.appendleft(task)
                    break  # the worker is dead; its sentinel tells the loop
                worker.assigned[self._serial] = task

    def _collect(self, worker: _Worker, ended: bool, pending: deque[GameTask],
                 retries: dict[tuple[int, int], int]) -> Iterator[GameOutcome | VoidedGame]:
        """Read a worker's reply (the selector saw its pipe readable); once its process has
        `ended`, read what it sent before dying, then bury it. (Connection.poll is avoided on
        the common path: it builds a selector on every call.)"""
        try:
            while True:
                if ended and not worker.conn.poll():
                    break
                kind, serial, payload = worker.conn.recv()
                task = worker.assigned.pop(serial)
                if kind != "done":  # the worker ends itself after this (it may be spoilt)
                    why = f"the game failed outside any bot's call:\n{payload}"
                    voided = self._retry(task, pending, retries, why)
                    if voided is not None:
                        yield voided
                else:
                    self._played[0] += payload.duration
                    self._played[1] += 1
                    yield payload
                if not ended:
                    return
        except (EOFError, OSError):  # the pipe closed: the process is gone or going
            worker.process.join(5)
        if worker.process.is_alive():
            return
        code = worker.process.exitcode
        snap = worker.slot.snapshot()
        if code is not None and code < 0:
            how = f"was killed by signal {-code} ({_signal_name(-code)})"
        else:
            how = f"exited with code {code}"
        charge: tuple[str, str] | None = None
        if snap["in_move"] and (code is None or code >= 0 or -code in _CRASH_SIGNALS
                                or snap["self_signal"]):
            charge = ("error", f"its worker process {how} during this bot's call")
        where = (f"during the call of seat {snap['seat']}'s bot at decision {snap['index']}, "
                 f"not by that bot" if snap["in_move"] else "outside any bot's call")
        yield from self._bury(worker, pending, retries, charge,
                              f"its worker process {how} {where}")

    def _police(self, pending: deque[GameTask],
                retries: dict[tuple[int, int], int]) -> list[VoidedGame]:
        """Kill workers whose bot ignored the watchdog's interrupt for too long, and workers
        stopped or stuck for reasons outside any bot's call."""
        now = time.monotonic()
        voided: list[VoidedGame] = []
        for worker in list(self._pool):
            header = worker.slot.header
            task = int(header[WorkerSlot.TASK])
            if task != worker.task_seen:
                worker.task_seen, worker.task_seen_at = task, now
            if task not in worker.assigned:  # not playing: starting, between games or idle
                worker.progress_at, worker.stopped_since = now, None
                if worker.assigned and now - worker.task_seen_at > self.stall_limit:
                    self._kill(worker)  # it holds games and starts none of them
                    voided += self._bury(
                        worker, pending, retries, None,
                        f"its worker process started none of the games it was sent for "
                        f"{now - worker.task_seen_at:.0f} s and was killed")
                continue
            stopped = _is_stopped(worker.process.pid)
            if stopped and worker.stopped_since is None:
                worker.stopped_since = now
            elif not stopped:
                worker.stopped_since = None
            progress = worker.slot.progress()
            if progress != worker.progress:
                worker.progress, worker.progress_at = progress, now
            snap_in_move = header[WorkerSlot.IN_MOVE] > 0
            self_signal = snap_in_move and (header[WorkerSlot.SELF_SIGNAL]
                                            == header[WorkerSlot.SERIAL])
            busy = worker.slot.in_move_since()
            limit = busy[2] if busy is not None else None
            grace = self._grace(limit if limit is not None else 0.0)
            if worker.stopped_since is not None and now - worker.stopped_since > grace:
                self._kill(worker)
                if self_signal:
                    charge = ("timeout", "the bot stopped its own worker process (SIGSTOP), "
                              "which was killed")
                    voided += self._bury(worker, pending, retries, charge, "")
                else:
                    voided += self._bury(
                        worker, pending, retries, None,
                        f"its worker process was stopped from outside for over {grace:g} s "
                        f"and was killed")
            elif (busy is not None and limit is not None and now - busy[1] > limit + grace
                  and (self_signal or not stopped)):  # stopped from outside: wait for the above
                self._kill(worker)
                voided += self._bury(
                    worker, pending, retries,
                    ("timeout", f"no answer within the time limit of {limit:g} s; the bot "
                     f"ignored the interrupt and its worker process was killed after "
                     f"{now - busy[1]:.1f} s"), "")
            elif busy is None and now - worker.progress_at > self.stall_limit:
                self._kill(worker)
                voided += self._bury(
                    worker, pending, retries, None,
                    f"its worker process made no progress for {now - worker.progress_at:.0f} s "
                    f"outside any bot's call and was killed")
        return voided

    def _retry(self, task: GameTask, pending: deque[GameTask],
               retries: dict[tuple[int, int], int], why: str) -> VoidedGame | None:
        """Put a game lost for nobody's fault back in the queue, or void it past the limit."""
        retries[task.key] = retries.get(task.key, 0) + 1
        if retries[task.key] > _RETRIES:
            return VoidedGame(task.run_id, task.deal, task.seating, task.game, task.seed,
                              f"lost {retries[task.key]} times for reasons outside any bot's "
                              f"call; the last time: {why}")
        pending.appendleft(task)
        return None

    def _bury(self, worker: _Worker, pending: deque[GameTask],
              retries: dict[tuple[int, int], int], charge: tuple[str, str] | None,
              why: str) -> list[VoidedGame]:
        """A worker is gone: send its games again and replace it. The game it was playing
        continues from the moves already played with the bot in whose call it died faulted
        (`charge`: the fault's kind and message, with what the bot printed), or, when no bot is
        to blame (`charge` None), is retried as it was sent (`_retry`, `why`)."""
        snap = worker.slot.snapshot()
        voided: list[VoidedGame] = []
        if snap["task"] < 0:  # it died before starting any game: it cannot start at all?
            self._failed_starts += 1
            if self._failed_starts >= 3:
                raise BackendError(
                    f"worker processes die as they start (the last one: {why}); if tianti runs "
                    f"from a script, guard the script's code with `if __name__ == '__main__':`")
        else:
            self._failed_starts = 0
        output = read_tail(output_path(worker.output_dir, snap["seat"])) if charge else ""
        self._forget(worker)
        for serial, task in reversed(list(worker.assigned.items())):
            if serial != snap["task"]:
                pending.appendleft(task)  # never started
            elif snap["in_move"] and charge is not None:
                kind, message = charge
                fault = {"seat": snap["seat"], "move": snap["index"], "kind": kind,
                         "message": with_output(message, output)}
                prefix = ([], []) if snap["overflow"] else (snap["actions"], snap["times"])
                pending.appendleft(replace(
                    task, prefix_actions=tuple(prefix[0]), prefix_times=tuple(prefix[1]),
                    prefix_faults=tuple(snap["faults"]) + (fault,)))
            else:
                lost = self._retry(task, pending, retries, why)
                if lost is not None:
                    voided.append(lost)
        worker.assigned.clear()
        self.restarted_workers += 1
        if pending and not self._stop:
            self._start_worker(worker.slot)
        return voided

    def close(self) -> None:
        for worker in self._pool:
            if worker.assigned:
                kill_group(worker.process.pid)  # games in flight are dropped
                worker.process.kill()
            else:
                try:
                    worker.conn.send(None)
                except (BrokenPipeError, OSError):
                    pass
        deadline = time.monotonic() + 5
        for worker in list(self._pool):
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(1)
            self._forget(worker)
        self._selector.close()


# -- the Ray backend -------------------------------------------------------------------------------

# A game lost with its Ray worker or node this many times stops the run (resumably).
RAY_MAX_LOSSES = 3
# How long a run waits for a CPU when the cluster has none left, before it stops (resumably).
RAY_NO_CPU_WAIT = 120.0
# How often the tournament process looks at the cluster's nodes (seconds).
_RAY_POLL = 1.0
# Games longer than this (seconds, on average) go out one per Ray task: nothing to amortize.
_RAY_LONG_GAME = 0.25
# The first thing every Ray task yields: (_HELLO, node id, pid).
_HELLO = "tianti-node"
# Extra runtime environment for the Ray tasks, as JSON (merged with the shipped bot modules).
RUNTIME_ENV_VAR = "TIANTI_RAY_RUNTIME_ENV"
# Exit status of a Ray worker that ends itself because a bot ignored the move watchdog.
_DEAF_EXIT = 70


class ClusterLost(BackendError):
    """The cluster cannot finish the run: the same game was lost with its node or worker again
    and again, or no CPU was left for too long. The run stops resumably."""


def _node_hello() -> tuple[str, str, int]:
    import ray

    return (_HELLO, ray.get_runtime_context().get_node_id(), os.getpid())


_escalating: list[Any] = [None, None]  # [heartbeat, grace] the escalation thread looks at
_escalation_thread: threading.Thread | None = None


def _escalate() -> None:
    """End this process when a bot ignores the watchdog's interrupt for longer than the grace
    (default: its time limit, at least 2 s). In a Ray worker nothing else can stop such a bot; its
    death tells the tournament to play the game again in a watched child process, where the bot
    is stopped and faulted for the timeout as on the local backend."""
    while True:
        time.sleep(0.1)
        hb, grace = _escalating
        if hb is None or not hb.in_move or hb.expired != hb.serial or not hb.limit:
            continue
        limit = hb.limit
        if time.monotonic() - hb.started > limit + (grace if grace is not None else max(2.0, limit)):
            os._exit(_DEAF_EXIT)


def ray_play_stream(tasks: list[GameTask], kill_grace: float | None = None) -> Iterator[Any]:
    """A Ray task's body (a streaming generator): first where it runs (`_HELLO`, node id, pid),
    then each game's `GameOutcome` (or ("failed", traceback)) as soon as that game is over, so
    the tournament stores it at once and a lost node costs only the game it was playing."""
    global _escalation_thread
    yield _node_hello()
    hb = LocalHeartbeat()
    install_watchdog(hb)
    _escalating[:] = [hb, kill_grace]
    if _escalation_thread is None:
        _escalation_thread = threading.Thread(target=_escalate, daemon=True,
                                              name="tianti-deaf-bot-escalation")
        _escalation_thread.start()
    sandbox = _process_sandbox()
    for task in tasks:
        hb.start_task(task)
        try:
            outcome: Any = play_task(task, hb, sandbox)
        except Exception:
            outcome = ("failed", traceback.format_exc())
        hb.end()
        yield outcome


def ray_play_watched(tasks: list[GameTask], kill_grace: float | None = None) -> Iterator[Any]:
    """A Ray task's body for games whose Ray worker died on a live node: the games are played by
    a one-process local pool inside the task, whose parent watches the heartbeat, so that a bot
    that kills its process (or ignores the interrupt) is faulted and the game finished, exactly
    as on the local backend; a worker killed from outside simply plays the game again."""
    yield _node_hello()
    pool = LocalBackend(workers=1, kill_grace=kill_grace)
    try:
        yield from pool.run(tasks)
    finally:
        pool.close()


def shipped_modules(specs: Iterable[str]) -> list[str]:
    """The files or package folders of the `python:` bot modules among `specs` that live in the
    user's folders (not installed in site-packages, not part of Python or tianti): these travel
    to the cluster with the tournament. A module inside a package ships its whole top-level
    package."""
    paths = sysconfig.get_paths()
    excluded = {os.path.realpath(paths[k]) for k in ("purelib", "platlib", "stdlib", "platstdlib")}
    out: list[str] = []
    for spec in specs:
        name = spec.split("(", 1)[0].strip()
        if name.startswith("inproc:"):
            name = name[len("inproc:"):]
        if not name.startswith("python:"):
            continue
        top = name.split(":")[1].split(".")[0] if name.count(":") >= 2 else ""
        if not top or top in ("engine", "ai", "ladder"):
            continue
        try:
            found = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            found = None
        if found is None:
            continue
        if found.submodule_search_locations:
            path = list(found.submodule_search_locations)[0]
        elif found.origin and found.origin.endswith(".py"):
            path = found.origin
        else:
            continue  # built in, or a compiled extension (install it on the nodes)
        real = os.path.realpath(path)
        if any(real == e or real.startswith(e + os.sep) for e in excluded):
            continue
        if real not in out:
            out.append(real)
    return out


def runtime_env_for(specs: Iterable[str]) -> dict[str, Any]:
    """The Ray runtime environment of a tournament's bots: the user's own bot modules as
    `py_modules` (see `shipped_modules`), plus whatever $TIANTI_RAY_RUNTIME_ENV (a JSON object
    in Ray's runtime_env format, e.g. {"pip": ["torch"], "py_modules": ["/src/mylib"]}) adds."""
    env: dict[str, Any] = {}
    modules = shipped_modules(specs)
    extra = os.environ.get(RUNTIME_ENV_VAR, "").strip()
    if extra:
        try:
            more = json.loads(extra)
        except json.JSONDecodeError as e:
            raise BackendError(f"${RUNTIME_ENV_VAR} is not JSON: {e}") from None
        if not isinstance(more, dict):
            raise BackendError(f"${RUNTIME_ENV_VAR} must be a JSON object (Ray's runtime_env)")
        modules += [m for m in more.pop("py_modules", []) if m not in modules]
        env.update(more)
    if modules:
        env["py_modules"] = modules
    return env


@dataclass(eq=False)
class _Flight:
    """A Ray task in flight: the games it has not yet sent back (in the order it plays them),
    whether it plays them in a watched process, and where it runs (once it said so)."""

    games: deque[GameTask]
    watched: bool
    node: str | None = None
    pid: int | None = None


@dataclass
class _Node:
    number: int
    address: str
    cpus: float
    alive: bool
    head: bool


class RayBackend:
    """Games as Ray tasks, on the cluster at `address` or on a local Ray instance started here
    with `workers` CPUs (default: the machine's cores).

    Each task plays a few games (which amortizes Ray's per-task cost; one game per task once
    games take more than a quarter of a second) and streams each outcome back as soon as its game
    is over, so games are stored as they finish. Up to two tasks per live CPU are in flight, and
    the count follows the cluster as nodes join or leave.

    A task that fails for a reason outside the bots (its node died, its worker was killed, its
    object was lost) gives its games back to the queue: the game it was playing is played again
    (nothing was stored of it, nobody is charged), the others were not started. When the task's
    node is still alive the worker itself died, possibly by a bot's doing: that game is played
    again in a watched process (`ray_play_watched`), where a bot that kills its process or
    ignores the move interrupt is faulted as on the local backend. The same game lost
    `max_losses` times, or no CPU in the cluster for `no_cpu_wait` seconds, stops the run
    (resumably) with a `ClusterLost`.

    Ray stays quiet: its worker logs are not forwarded, its logging is at ERROR, and the cluster
    errors its driver prints on stdout become one line of ours (`on_event`, stderr by default)."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None,
                 chunk: int | None = None, kill_grace: float | None = None,
                 max_losses: int = RAY_MAX_LOSSES, no_cpu_wait: float = RAY_NO_CPU_WAIT,
                 bots: Iterable[str] = ()) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError(
                "the Ray backend needs Ray, which is not installed: pip install 'tianti[ray]'"
            ) from None
        self._ray = ray
        if workers is not None and workers < 1:
            raise BackendError(f"--workers must be at least 1, got {workers}")
        self.chunk = chunk
        self.kill_grace = kill_grace
        self.max_losses = max_losses
        self.no_cpu_wait = no_cpu_wait
        self.on_event: Callable[[str], None] = _to_stderr
        self.on_idle: Callable[[], None] | None = None  # as LocalBackend's
        self._stop = False
        self._flights: dict[Any, _Flight] = {}
        self._nodes: dict[str, _Node] = {}
        self._used: set[str] = set()
        self._lost: dict[str, int] = {}  # lost node -> games re-queued, until reported
        self.replayed = 0
        self.capacity_seconds = 0.0
        self._no_cpu_since: float | None = None
        self._polled = time.monotonic()
        self._unquiet = _quiet_ray(self._ray_says)
        self._started = not ray.is_initialized()
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": "ERROR", "ignore_reinit_error": True}
        # the user's bot modules travel with the job (Ray uploads local folders only there)
        self.runtime_env = runtime_env_for(sorted(set(bots)))
        if self.runtime_env:
            options["runtime_env"] = self.runtime_env
        if address:
            _check_reachable(address)
        try:
            if address:
                ray.init(address=address, **options)
            elif self._started and not os.environ.get("RAY_ADDRESS"):
                # "local": a new instance even if a `ray start` runs on this machine
                ray.init(address="local", num_cpus=workers or default_workers(), **options)
            else:
                ray.init(**options)
        except (Exception, SystemExit) as e:  # ConnectionError, ValueError, RuntimeError ...
            self._unquiet()
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            hint = ""
            if address and os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
                hint = ("\nIf the cluster uses token authentication (`ray start --head` turns it "
                        "on when ~/.ray/auth_token exists), set RAY_AUTH_MODE=token here, with "
                        "the cluster's token in ~/.ray/auth_token or $RAY_AUTH_TOKEN.")
            raise BackendError(f"cannot start or reach {where}: {e}{hint}") from None
        self._poll(first=True)
        self.workers = max(1, self.live_cpus)
        self.peak_workers = self.workers

    # -- what the runner reads --------------------------------------------------------------

    @property
    def live_cpus(self) -> int:
        """CPUs of the cluster's live nodes (as of the last look)."""
        return int(sum(n.cpus for n in self._nodes.values() if n.alive))

    @property
    def nodes_used(self) -> int:
        """Nodes on which this run's tasks ran."""
        return len(self._used)

    def request_stop(self) -> None:
        self._stop = True

    # -- the cluster ---------------------------------------------------------------------------

    def _poll(self, first: bool = False) -> None:
        """Look at the cluster's nodes: note joins and losses (one line each), follow the live
        CPUs, and stop the run after `no_cpu_wait` seconds without any."""
        now = time.monotonic()
        before = self.live_cpus
        self.capacity_seconds += before * (now - self._polled)
        self._polled = now
        # the head first (the node numbers of the events are those of first sight)
        for info in sorted(self._ray.nodes(),
                           key=lambda n: "node:__internal_head__" not in n.get("Resources", {})):
            node_id, alive = info["NodeID"], bool(info["Alive"])
            cpus = float(info.get("Resources", {}).get("CPU", 0.0)) if alive else 0.0
            node = self._nodes.get(node_id)
            if node is None:
                if not alive:
                    continue  # dead before this run started
                node = self._nodes[node_id] = _Node(
                    len(self._nodes) + 1, str(info.get("NodeManagerAddress", "?")), cpus, True,
                    "node:__internal_head__" in info.get("Resources", {}))
                if not first:
                    self._event(f"node {node.number} joined ({node.address}, {_cpus(cpus)}): "
                                f"{self._census()}")
            elif node.alive and not alive:
                node.alive, node.cpus = False, 0.0
                self._lost.setdefault(node_id, 0)
            elif alive:
                node.cpus = cpus
        if first:
            return
        live = self.live_cpus
        if live:
            self.workers = live
            self.peak_workers = max(self.peak_workers, live)
            self._no_cpu_since = None
        elif self._no_cpu_since is None:
            self._no_cpu_since = now
            self._event(f"no CPU left in the cluster: waiting up to {self.no_cpu_wait:g} s for a "
                        f"node to join")
        elif now - self._no_cpu_since > self.no_cpu_wait:
            raise ClusterLost(f"the Ray cluster has had no CPU for {self.no_cpu_wait:g} s: "
                              f"stopping here (the games played so far are stored)")

    def _census(self) -> str:
        alive = [n for n in self._nodes.values() if n.alive]
        return (f"{len(alive)} node{'s' if len(alive) != 1 else ''}, "
                f"{_cpus(sum(n.cpus for n in alive))}")

    def _alive(self, node_id: str) -> bool:
        """Whether Ray still counts `node_id` alive (asked afresh)."""
        try:
            self._poll()
        except ClusterLost:
            pass
        node = self._nodes.get(node_id)
        return node is not None and node.alive

    def _report_losses(self) -> None:
        """One line per lost node, once none of its tasks is still in flight."""
        for node_id in list(self._lost):
            if any(f.node == node_id for f in self._flights.values()):
                continue
            games = self._lost.pop(node_id)
            node = self._nodes.get(node_id)
            which = f"node {node.number} of {len(self._nodes)}" if node else "a node"
            where = f" ({node.address})" if node else ""
            self._event(f"{which} lost{where}: {games} game{'s' if games != 1 else ''} "
                        f"re-queued; {self._census()} left")

    def _event(self, message: str) -> None:
        self.on_event(f"ray: {message}")

    def _ray_says(self, message: str) -> None:
        """A cluster error Ray's driver would have printed on stdout: what this backend reports
        itself (a raylet's or a worker's death) is dropped, anything else becomes one line."""
        text = message.strip()
        if not text or any(s in text for s in _REPORTED_BY_US):
            return
        self._event(text.splitlines()[0][:200])

    # -- playing -------------------------------------------------------------------------------

    def run(self, tasks: list[GameTask]) -> Iterator[GameOutcome]:
        ray = self._ray
        options: dict[str, Any] = {"num_cpus": 1, "max_retries": 0, "num_returns": "streaming"}
        plain = ray.remote(**options)(ray_play_stream)
        watched = ray.remote(**options)(ray_play_watched)
        queue: deque[GameTask] = deque(tasks)
        watch: deque[GameTask] = deque()
        losses: dict[tuple[int, int], int] = {}
        timing = [0.0, 0]  # game seconds, games
        while not self._stop and (queue or watch or self._flights):
            if time.monotonic() - self._polled >= _RAY_POLL:
                self._poll()
            limit = 2 * max(1, self.live_cpus)
            while (watch or queue) and len(self._flights) < limit and not self._stop:
                if watch:
                    games, body, is_watched = [watch.popleft()], watched, True
                else:
                    size = self._chunk_size(len(queue), timing)
                    games = [queue.popleft() for _ in range(min(size, len(queue)))]
                    body, is_watched = plain, False
                gen = body.remote(games, self.kill_grace)
                self._flights[gen] = _Flight(deque(games), is_watched)
            if not self._flights:
                break
            ready, _ = ray.wait(list(self._flights), num_returns=1, timeout=0.2)
            if not ready and self.on_idle is not None:
                self.on_idle()
            for gen in ready:
                outcome = self._receive(gen, queue, watch, losses)
                if outcome is not None:
                    timing[0] += getattr(outcome, "duration", 0.0)  # a VoidedGame has none
                    timing[1] += 1
                    yield outcome
            self._report_losses()
        self.capacity_seconds += self.live_cpus * (time.monotonic() - self._polled)
        self._polled = time.monotonic()

    def _chunk_size(self, remaining: int, timing: list[float]) -> int:
        if self.chunk:
            return self.chunk
        if timing[1] and timing[0] / timing[1] >= _RAY_LONG_GAME:
            return 1
        return max(1, min(8, math.ceil(remaining / (4 * max(1, self.live_cpus)))))

    def _receive(self, gen: Any, queue: deque[GameTask], watch: deque[GameTask],
                 losses: dict[tuple[int, int], int]) -> GameOutcome | None:
        """Take the next thing a task sent: where it runs, a finished game, or its failure."""
        ray = self._ray
        flight = self._flights[gen]
        try:
            ref = next(gen)
        except StopIteration:
            del self._flights[gen]
            queue.extendleft(reversed(flight.games))  # not expected: the task ended early
            return None
        try:
            item = ray.get(ref)
        except ray.exceptions.RayTaskError as e:  # an exception of tianti's inside the task
            del self._flights[gen]
            cause = getattr(e, "cause", None)
            if isinstance(cause, (GameFailure, BackendError)):
                raise type(cause)(str(cause)) from None
            raise BackendError(
                f"a Ray task of the tournament failed on node {self._number(flight.node)}: "
                f"{cause if cause is not None else e}\n(every node needs tianti installed, the "
                f"same version as here)") from None
        except ray.exceptions.RuntimeEnvSetupError as e:
            del self._flights[gen]
            raise BackendError(f"the cluster could not set up the tournament's runtime "
                               f"environment (the bot modules shipped with it): {e}") from None
        except ray.exceptions.RayError as e:  # the worker, its node or an object was lost
            del self._flights[gen]
            if not self._stop:
                self._lose(flight, e, queue, watch, losses)
            return None
        if isinstance(item, tuple) and item and item[0] == _HELLO:
            flight.node, flight.pid = item[1], item[2]
            self._used.add(item[1])
            return None
        task = flight.games.popleft()
        if isinstance(item, tuple):
            raise GameFailure(f"game (deal {task.deal}, seating {task.seating}) failed outside "
                              f"any bot's move:\n{item[1]}")
        return item

    def _lose(self, flight: _Flight, error: Exception, queue: deque[GameTask],
              watch: deque[GameTask], losses: dict[tuple[int, int], int]) -> None:
        """A task was lost: its games go back (see the class docstring)."""
        ray = self._ray
        games = list(flight.games)
        node_id = flight.node or _node_in(str(error))
        node_died = isinstance(error, (ray.exceptions.NodeDiedError,
                                       ray.exceptions.LocalRayletDiedError))
        if node_id is not None and not node_died:
            node_died = not self._alive(node_id)
        if not games:
            return
        first = games[0]
        losses[first.key] = losses.get(first.key, 0) + 1
        what = f"game (deal {first.deal}, seating {first.seating})"
        if losses[first.key] >= self.max_losses:
            raise ClusterLost(
                f"{what} was lost {losses[first.key]} times with its Ray worker or node (the last "
                f"time: {_first_line(error)}); stopping here (the games played so far are stored)")
        self.replayed += 1
        if node_died:
            queue.extendleft(reversed(games[1:]))
            (watch if flight.watched else queue).appendleft(first)
            key = node_id or "?"
            self._lost[key] = self._lost.get(key, 0) + len(games)
            if node_id in self._nodes and self._nodes[node_id].alive:
                self._nodes[node_id].alive, self._nodes[node_id].cpus = False, 0.0
            return
        queue.extendleft(reversed(games[1:]))
        watch.append(first)
        where = f"node {self._number(node_id)}"
        self._event(f"a Ray worker died on {where} while playing {what} "
                    f"({type(error).__name__}): playing it again in a watched process")

    def _number(self, node_id: str | None) -> str:
        node = self._nodes.get(node_id) if node_id else None
        return str(node.number) if node else "?"

    def close(self) -> None:
        ray = self._ray
        for gen in list(self._flights):
            try:
                ray.cancel(gen, force=True)
            except Exception:
                pass
        self._flights.clear()
        try:
            if self._started:
                ray.shutdown()
        finally:
            self._unquiet()


# What Ray's driver prints about events this backend reports itself.
_REPORTED_BY_US = ("Raylet is terminated", "worker died or was killed",
                   "node it was running on is dead", "has been marked dead")


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _cpus(n: float) -> str:
    return f"{n:g} CPU{'s' if n != 1 else ''}"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _node_in(message: str) -> str | None:
    """The node id a Ray error message names, if any."""
    found = re.search(r"node ID: ([0-9a-f]{56})", message)
    return found.group(1) if found else None


def _quiet_ray(report: Callable[[str], None]) -> Callable[[], None]:
    """Route the cluster errors Ray's driver prints on stdout to `report`; returns the undo.

    Ray's driver runs a thread (`listen_error_messages`) that prints every error the cluster
    publishes (a raylet's death with 20 lines of its log, a worker's death) on stdout, whatever
    `log_to_driver` says, which would break `--json`; it calls the module's
    `print_to_stdstream`, which is replaced here for as long as the backend lives."""
    try:
        import ray._private.worker as ray_worker
    except ImportError:
        return lambda: None
    original = getattr(ray_worker, "print_to_stdstream", None)
    if original is None:
        return lambda: None

    def to_us(data: dict[str, Any], ignore_prefix: bool = False, **_: Any) -> None:
        for line in data.get("lines", []):
            report(str(line))

    ray_worker.print_to_stdstream = to_us

    def undo() -> None:
        if getattr(ray_worker, "print_to_stdstream", None) is to_us:
            ray_worker.print_to_stdstream = original

    return undo


def _is_stopped(pid: int | None) -> bool:
    """Whether a process is stopped (SIGSTOP, a debugger): Linux /proc; False elsewhere."""
    if pid is None:
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return False
    state = text[text.rfind(b")") + 2:text.rfind(b")") + 3]
    return state in (b"T", b"t")


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a cluster address nothing listens at (Ray itself retries for minutes)."""
    target = address.split("://", 1)[-1]
    host, colon, port = target.rpartition(":")
    if not colon or not port.isdigit():
        return  # "auto", "local" or a form Ray resolves itself
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout).close()
    except OSError as e:
        raise BackendError(
            f"cannot start or reach the Ray cluster at {address!r}: nothing answers at "
            f"{host}:{port} ({e.strerror or e})") from None


def make_backend(name: str, workers: int | None = None, address: str | None = None,
                 bots: Iterable[str] = ()) -> Backend:
    """The backend called `name` ("local" or "ray"); `bots` are the specs it will play (the Ray
    backend ships the user's own `python:` bot modules to the cluster)."""
    if name == "local":
        if address:
            raise BackendError("--address is for the Ray backend (add --backend ray)")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers, bots=bots)
    raise BackendError(f"unknown backend {name!r}; allowed: {', '.join(BACKENDS)}")

