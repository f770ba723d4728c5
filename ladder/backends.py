"""Where a tournament's games are played: a pool of local worker processes, or Ray tasks.

Both backends take the list of games still to play and yield each `GameOutcome` as soon as it
is finished (in whatever order the games finish); `request_stop()` (from a signal handler) makes
`run` stop handing out games and return, and `close()` ends whatever is still running: those
games in flight are the only ones an interrupted tournament loses.

The local pool (`LocalBackend`) gives each worker process a pipe and a `WorkerSlot` of shared
memory, in which the worker's referee keeps a heartbeat: which game, which seat's bot is being
called since when, and the moves played so far. The in-process watchdog (see `ladder.worker`)
interrupts a bot that runs past the move time limit; when that does not work (the bot blocks
signals, or holds the GIL in compiled code) or the worker process dies in a bot's call (a crash
in compiled code, `os._exit`), the pool kills or buries the worker, starts a new one, and sends
the game again with the moves already played and that bot faulted, so the game still finishes
with the fault on record.

Whose fault a lost worker is, as well as the heartbeat can tell: a worker that exits (with a
code), crashes (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, ...), signals itself (see
`ladder.worker._note_own_signals`) or ignores the interrupt past the grace time *during a bot's
call* is that bot's fault. A worker killed by another signal (`kill -9` from outside, the
machine's OOM killer), stopped from outside (SIGSTOP) for longer than the grace time, stalled
outside any bot's call (`stall_limit`), or whose game fails outside any bot's call, is nobody's:
the game goes back in the queue, up to `_RETRIES` times, and then is stored as a voided game
(`VoidedGame`: nobody's loss, in no rating). Each worker leads its own process group, and is
killed with it, so that processes its bots started die with it.

The Ray backend (`RayBackend`) plays chunks of games as Ray tasks (one CPU each) on an existing
cluster, or on a local Ray instance it starts. The in-process watchdog works there too; a bot
that can only be stopped by killing its process is not handled on Ray (see `RayBackend`).
"""
from __future__ import annotations

import math
import multiprocessing
import os
import selectors
import shutil
import signal
import socket
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from typing import Any, Iterator, Protocol

from engine.core.errors import TiantiError
from ladder.schedule import GameTask
from ladder.worker import (GameOutcome, VoidedGame, WorkerSlot, output_path, play_chunk,
                           read_tail, with_output, worker_main)

BACKENDS = ("local", "ray")
# How many games each local worker holds at once (one playing, the rest waiting in its pipe).
_PER_WORKER = 2
# Retries of a game whose worker was lost for reasons outside any bot's call (then it is voided).
_RETRIES = 2
# How long a worker may make no progress outside any bot's call before it is deemed stuck.
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
    output_dir: str = ""  # where its bots' output goes (see ladder.worker.BotSandbox)
    assigned: dict[int, GameTask] = field(default_factory=dict)  # serial -> task, in send order
    progress: tuple[float, float] = (-1.0, -1.0)  # the heartbeat's progress when last seen ...
    progress_at: float = 0.0  # ... and since when it has not changed
    stopped_since: float | None = None  # since when its process is seen stopped (SIGSTOP)


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
        self._ctx = multiprocessing.get_context("spawn")
        self._pool: list[_Worker] = []
        # one selector for the whole run (multiprocessing's wait() builds one per call)
        self._selector = selectors.DefaultSelector()
        self._stop = False
        self._serial = 0
        self.restarted_workers = 0
        self._failed_starts = 0

    def request_stop(self) -> None:
        self._stop = True

    def _start_worker(self, slot: WorkerSlot | None = None) -> _Worker:
        slot = slot if slot is not None else WorkerSlot(self._ctx)
        slot.reset()
        parent_end, child_end = self._ctx.Pipe(duplex=True)
        output_dir = tempfile.mkdtemp(prefix="tianti-worker-")
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
        _kill_group(worker.process.pid)  # what its bots started, if still there
        shutil.rmtree(worker.output_dir, ignore_errors=True)

    def _kill(self, worker: _Worker) -> None:
        """Kill a worker and every process of its group (what its bots started)."""
        _kill_group(worker.process.pid)
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
        while not self._stop:
            self._dispatch(pending)
            if not any(w.assigned for w in self._pool):
                break
            ready: dict[_Worker, set[Any]] = {}
            for key, _ in self._selector.select(timeout=0.1):
                ready.setdefault(key.data, set()).add(key.fileobj)
            for worker, which in ready.items():
                if worker in self._pool:
                    yield from self._collect(worker, worker.process.sentinel in which,
                                             pending, retries)
            yield from self._police(pending, retries)

    def _dispatch(self, pending: deque[GameTask]) -> None:
        for worker in self._pool:
            while pending and len(worker.assigned) < _PER_WORKER and not self._stop:
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
            if int(header[WorkerSlot.TASK]) not in worker.assigned:
                worker.progress_at, worker.stopped_since = now, None
                continue  # not playing (or between games)
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
                _kill_group(worker.process.pid)  # games in flight are dropped
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


class RayBackend:
    """Games as Ray tasks, on the cluster at `address` or on a local Ray instance started here
    with `workers` CPUs (default: the machine's cores).

    Games go out in chunks (one task plays a few games, which amortizes Ray's per-task cost) and
    each game is still stored on its own. The move watchdog runs in each Ray worker; a bot that
    ignores its interrupt, or kills its process, is not recovered on Ray: the first hangs its
    task, the second stops the tournament with an error naming the game (use the local backend
    to find which bot does it)."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None,
                 chunk: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError(
                "the Ray backend needs Ray, which is not installed: pip install 'tianti[ray]'"
            ) from None
        self._ray = ray
        if workers is not None and workers < 1:
            raise BackendError(f"--workers must be at least 1, got {workers}")
        self._started = not ray.is_initialized()
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": "ERROR", "ignore_reinit_error": True}
        if address:
            _check_reachable(address)
        try:
            if address:
                ray.init(address=address, **options)
            elif self._started and not os.environ.get("RAY_ADDRESS"):
                ray.init(num_cpus=workers or default_workers(), **options)
            else:
                ray.init(**options)
        except (Exception, SystemExit) as e:  # ConnectionError, ValueError, RuntimeError ...
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            raise BackendError(f"cannot start or reach {where}: {e}") from None
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.chunk = chunk
        self._remote = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
        self._in_flight: dict[Any, list[GameTask]] = {}
        self._stop = False

    def request_stop(self) -> None:
        self._stop = True

    def run(self, tasks: list[GameTask]) -> Iterator[GameOutcome]:
        ray = self._ray
        size = self.chunk or max(1, min(8, math.ceil(len(tasks) / (4 * self.workers))))
        chunks = deque(tasks[i:i + size] for i in range(0, len(tasks), size))
        while not self._stop and (chunks or self._in_flight):
            while chunks and len(self._in_flight) < 2 * self.workers:
                chunk = chunks.popleft()
                self._in_flight[self._remote.remote(chunk)] = chunk
            done, _ = ray.wait(list(self._in_flight), num_returns=1, timeout=0.2)
            for ref in done:
                chunk = self._in_flight.pop(ref)
                try:
                    results = ray.get(ref)
                except Exception as e:
                    if self._stop:  # Ctrl-C reached Ray's workers too: the run is stopping
                        return
                    games = ", ".join(f"(deal {t.deal}, seating {t.seating})" for t in chunk)
                    raise GameFailure(
                        f"a Ray task playing the games {games} died: {e}\nA bot that crashes "
                        f"its process is only recovered by the local backend.") from None
                for task, result in zip(chunk, results):
                    if isinstance(result, tuple):
                        raise GameFailure(
                            f"game (deal {task.deal}, seating {task.seating}) failed outside any "
                            f"bot's move:\n{result[1]}")
                    yield result

    def close(self) -> None:
        ray = self._ray
        for ref in list(self._in_flight):
            try:
                ray.cancel(ref, force=True)
            except Exception:
                pass
        self._in_flight.clear()
        if self._started:
            ray.shutdown()


def _kill_group(pid: int | None) -> None:
    """SIGKILL the process group a worker leads (it, and what its bots started)."""
    if pid is None:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


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


def make_backend(name: str, workers: int | None = None, address: str | None = None) -> Backend:
    """The backend called `name` ("local" or "ray")."""
    if name == "local":
        if address:
            raise BackendError("--address is for the Ray backend (add --backend ray)")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers)
    raise BackendError(f"unknown backend {name!r}; allowed: {', '.join(BACKENDS)}")
