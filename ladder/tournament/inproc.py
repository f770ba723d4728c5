"""A user's bot inside the worker's process (`inproc:`, asked for by the user who trusts it and
wants the speed): what keeps it to its own seat as far as a process can.

Every other user's bot plays from a process of its own (`ladder.referee`), and tianti's own bots
print nothing, start nothing and change nothing: only `inproc:` seats are sandboxed here. A
`BotSandbox` sends such a bot's stdout and stderr to a file of its seat (kept with its fault,
never in the tournament's output), puts back what it changed of the process's signal handling
(the move watchdog's SIGALRM) after each of its calls, kills the processes it started at the end
of its game, and tells when it left threads running (the worker then plays no more games).
`note_own_signals` lets the local pool tell a worker killed by its bot from one killed from
outside.
"""
from __future__ import annotations

import ctypes
import io
import os
import shutil
import signal
import sys
import threading
import time
from typing import Any

from ladder.referee.players import placement
from ladder.referee.sandbox import children_of

# Characters of a bot's output kept with its fault.
OUTPUT_KEEP = 4000
# A seat's output file is cut back to its last _OUTPUT_TAIL bytes when it grows past _OUTPUT_TRIM.
_OUTPUT_TRIM = 1 << 20
_OUTPUT_TAIL = 1 << 16
_GUARDED_SIGNALS = tuple(getattr(signal, n) for n in ("SIGALRM", "SIGINT", "SIGTERM", "SIGHUP")
                         if hasattr(signal, n))


def is_guarded(spec: str) -> bool:
    """Whether a bot spec is a user's code asked to run inside this process (`inproc:`), which
    runs in a `BotSandbox`; every other user's bot plays from a process of its own."""
    return placement(spec) == "inproc"


def output_path(directory: str, seat: int) -> str:
    """The file that receives the output of `seat`'s bot in a worker's output directory."""
    return os.path.join(directory, f"seat{seat}.out")


def read_tail(path: str, limit: int = OUTPUT_KEEP) -> str:
    """The last `limit` characters of a file (decoded leniently); "" if there is none."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 4 * limit))
            data = f.read()
    except OSError:
        return ""
    text = data.decode("utf-8", "replace")
    return text[-limit:] if len(text) > limit else text


def with_output(message: str, output: str) -> str:
    """A fault's message with the bot's output put before it (the message's last line stays
    the error's own, which is what `tianti tournament show` prints)."""
    if not output.strip():
        return message
    return (f"[the bot's output, its last {len(output)} characters:]\n{output.rstrip()}\n"
            f"[end of the bot's output]\n{message}")


def descendants(pid: int | None = None) -> set[int]:
    """Every process below `pid` (default: this one) in the process tree (Linux; empty
    elsewhere)."""
    root = os.getpid() if pid is None else pid
    found: set[int] = set()
    stack = [root]
    while stack:
        for child in children_of(stack.pop()):
            if child not in found and child != root:
                found.add(child)
                stack.append(child)
    return found


def end_processes(pids: set[int] | None = None, keep: frozenset[int] = frozenset()) -> int:
    """Kill (SIGKILL) this process's descendants except `keep`, again and again until none is
    left (a bot's child may be forking), and reap those that were ours. Returns how many."""
    ended: set[int] = set()
    for _ in range(200):
        alive = {p for p in (descendants() if pids is None else pids) if p not in keep}
        if pids is not None:
            pids = {p for p in pids if os.path.exists(f"/proc/{p}")}
            alive = {p for p in alive if p in pids}
        if not alive:
            break
        for p in alive:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
            ended.add(p)
        for p in alive:
            try:
                os.waitpid(p, os.WNOHANG)
            except OSError:  # not our child (a grandchild: its parent is dying, or init reaps it)
                pass
        time.sleep(0.005)
    for p in ended:  # the last ones killed
        try:
            os.waitpid(p, os.WNOHANG)
        except OSError:
            pass
    return len(ended)


class BotSandbox:
    """The `CallGuard` of a process that plays tournament games (see `ai.match.CallGuard`).

    For the seats whose bot is the user's own code (`start_game(guarded)`):
    - its stdout and stderr (file descriptors 1 and 2 and `sys.stdout`/`sys.stderr`) go to
      its own file (`output_path`) during its calls, so nothing it prints reaches the
      tournament's output, and what it printed can be kept with its fault; a process it
      starts inherits that file;
    - after each of its calls, whatever it changed of the process's signal handling (the
      handlers of SIGALRM, SIGINT, SIGTERM, SIGHUP and the blocked signals, which the move
      watchdog relies on) and `sys.stdout`/`sys.stderr` are put back;
    - at the end of the game, `end_game` kills every process the game started (with
      `adopt_orphans`, this process first becomes the "subreaper" of its descendants on Linux,
      so even a daemon that detached itself comes back to be killed), and tells whether the
      bots left threads running (`tainted`: the process should not play another game).

    With `quiet_outside`, descriptors 1 and 2 point to `worker.out` in the directory between
    calls too (a bot's thread printing later does not reach the tournament's output either)."""

    def __init__(self, directory: str | None = None, quiet_outside: bool = False,
                 adopt_orphans: bool = False) -> None:
        self._own_directory = directory is None
        if directory is None:
            from ladder.tournament import tempdirs

            tempdirs.sweep()  # what killed workers (a Ray worker's) left
            directory = tempdirs.make("bots")
        self.directory = directory
        os.makedirs(self.directory, exist_ok=True)
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass
        if quiet_outside:
            quiet = os.open(os.path.join(self.directory, "worker.out"),
                            os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_TRUNC, 0o600)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            os.close(quiet)
        # what fds 1 and 2 are between calls
        self._outside = (os.dup(1), os.dup(2))
        self._stdout = self._stream(1)
        self._stderr = self._stream(2)
        sys.stdout, sys.stderr = self._stdout, self._stderr
        self._handlers = {sig: signal.getsignal(sig) for sig in _GUARDED_SIGNALS}
        self._mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
        self._fds: dict[int, int] = {}
        self._before: frozenset[int] = frozenset(descendants())
        self._threads = 0
        self.tainted = False
        if adopt_orphans:
            _become_subreaper()

    @staticmethod
    def _stream(fd: int) -> io.TextIOWrapper:
        return io.TextIOWrapper(io.BufferedWriter(io.FileIO(fd, "w", closefd=False)),
                                encoding="utf-8", errors="backslashreplace", line_buffering=True,
                                write_through=True)

    def start_game(self, guarded: set[int] | frozenset[int]) -> None:
        """A game starts; the bots of the seats in `guarded` are sandboxed."""
        self._close_files()
        for seat in guarded:
            self._fds[seat] = os.open(output_path(self.directory, seat),
                                      os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_TRUNC, 0o600)
        if self._fds:  # what `end_game` compares with (only a game with a sandboxed bot)
            self._threads = _thread_count()
            self._before = frozenset(descendants())

    def enter(self, seat: int) -> None:
        fd = self._fds.get(seat)
        if fd is not None:
            os.dup2(fd, 1)
            os.dup2(fd, 2)

    def leave(self, seat: int) -> None:
        fd = self._fds.get(seat)
        if fd is None:
            return
        for name, ours in (("stdout", self._stdout), ("stderr", self._stderr)):
            try:
                ours.flush()
            except (OSError, ValueError):  # the bot closed it
                ours = self._stream(1 if name == "stdout" else 2)
                setattr(self, "_" + name, ours)
            if getattr(sys, name) is not ours:
                setattr(sys, name, ours)
        os.dup2(self._outside[0], 1)
        os.dup2(self._outside[1], 2)
        for sig, handler in self._handlers.items():
            if signal.getsignal(sig) is not handler:
                signal.signal(sig, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, self._mask)
        try:
            if os.fstat(fd).st_size > _OUTPUT_TRIM:
                tail = read_tail(output_path(self.directory, seat), _OUTPUT_TAIL)
                os.ftruncate(fd, 0)
                os.write(fd, ("[... cut]\n" + tail).encode("utf-8", "replace"))
        except OSError:
            pass

    def output(self, seat: int) -> str:
        """The last part of what `seat`'s bot printed in this game ("" if it is not guarded)."""
        if seat not in self._fds:
            return ""
        return read_tail(output_path(self.directory, seat))

    def end_game(self) -> None:
        """The game is over: end the processes it started, note whether it left threads."""
        if self._fds:
            end_processes(keep=self._before)
            self.tainted = self.tainted or _thread_count() > self._threads
        self._close_files()

    def _close_files(self) -> None:
        for fd in self._fds.values():
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds.clear()

    def close(self) -> None:
        """Stop sandboxing (the output directory is removed if this made it)."""
        self._close_files()
        if self._own_directory:
            shutil.rmtree(self.directory, ignore_errors=True)


def _thread_count() -> int:
    """Threads of this process: the kernel's count on Linux (it also sees threads started
    behind the threading module's back), else the threading module's."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _become_subreaper() -> None:
    """Make orphaned descendants of this process its children (Linux), so that `end_game`
    can find a bot's detached daemons."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_CHILD_SUBREAPER = 36
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def note_own_signals(mark: Any) -> None:
    """Wrap the ways Python code sends a signal to its own process (`os.kill`, `os.killpg`,
    `signal.raise_signal`, `signal.pthread_kill`) so that, called by the main thread (where
    bots' calls run) or by a process a bot forked, they first call `mark()`: a worker killed by
    a signal after that killed itself (its bot did), not someone outside."""
    me = os.getpid()
    group = os.getpgrp()
    kill, killpg = os.kill, os.killpg
    raise_signal, pthread_kill = signal.raise_signal, signal.pthread_kill

    def mine() -> bool:
        return os.getpid() != me or threading.current_thread() is threading.main_thread()

    def noted_kill(pid: int, sig: int) -> None:
        if mine() and pid in (me, 0, -group, -1):
            mark()
        kill(pid, sig)

    def noted_killpg(pgid: int, sig: int) -> None:
        if mine() and pgid in (0, group):
            mark()
        killpg(pgid, sig)

    def noted_raise(sig: int) -> None:
        if mine():
            mark()
        raise_signal(sig)

    def noted_pthread_kill(tid: int, sig: int) -> None:
        if mine():
            mark()
        pthread_kill(tid, sig)

    os.kill = noted_kill  # type: ignore[assignment]
    os.killpg = noted_killpg  # type: ignore[assignment]
    signal.raise_signal = noted_raise  # type: ignore[assignment]
    signal.pthread_kill = noted_pthread_kill  # type: ignore[assignment]
