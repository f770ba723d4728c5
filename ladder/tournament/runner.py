"""Running a tournament: plan it, hand the missing games to a backend, store each as it ends.

`start_run` records a new run; `play_run` plays whatever of a run is not yet in the store (all
of it for a new run, the rest for a resumed one), with a progress bar, and handles Ctrl-C: the
first SIGINT (or SIGTERM) stops handing out games and ends the workers, so only the games in
flight are lost; the run is marked "interrupted" and can be resumed. A second Ctrl-C stops at
once (still without losing a finished game: those in hand are stored on the way out).

Finished games are stored a few at a time (`_Batch`), one transaction for each batch: at most
`_BATCH_GAMES` games or `_BATCH_SECONDS` seconds' worth, and whatever is held as soon as the
workers fall quiet for a moment (the backend's `on_idle`), so that a quick game does not pay a
commit of its own. A tournament process killed outright (SIGKILL) loses the batch in hand with
the games in flight; `tournament resume` plays them again.

A store error while the run goes on (another process holding the write lock past the busy
timeout, a full disk, a damaged file) stops it the same way: the run is interrupted, not
finished, and `RunReport.failure` says why in one line. A run with a sequential test
(`ladder.tournament.sprt`) also stops, finished, as soon as the test decides.
"""
from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from tqdm import tqdm

try:
    import resource
except ImportError:  # not POSIX
    resource = None  # type: ignore[assignment]

from ladder.tournament.backends import Backend, BackendError, GameFailure
from ladder.referee.host import LIMITS_VAR
from ladder.tournament.schedule import GameTask, TournamentSpec, check, count_seatings, plan
from ladder.tournament.sprt import DealTracker, SprtSpec, SprtState
from ladder.tournament.store import Store, StoreError
from ladder.tournament.worker import GameOutcome, VoidedGame


@dataclass
class RunReport:
    """What one `play_run` did. `worker_seconds` is the time the games took inside their
    workers; the rest of `wall_seconds` x workers is the tournament's overhead."""

    run_id: int
    planned: int
    done_before: int
    played: int = 0
    duplicates: int = 0
    faults: int = 0
    voided: int = 0  # games stored as voided (lost for reasons outside any bot's call)
    wall_seconds: float = 0.0
    worker_seconds: float = 0.0
    worker_cpu_seconds: float = 0.0  # processor time of the games inside their workers
    parent_cpu_seconds: float = 0.0  # processor time of this process (dispatch, storing, bar)
    workers: int = 1
    status: str = "running"
    failure: str | None = None
    store_failure: bool = False  # the failure is the store's: the run was interrupted
    in_flight_lost: int = 0
    sprt: SprtState | None = None
    nodes: int | None = None  # Ray: the nodes whose workers played games of this run
    replayed: int = 0  # Ray: games played again after their worker or node was lost
    capacity_seconds: float | None = None  # Ray: live CPUs x time (the cluster changes size)

    @property
    def done(self) -> int:
        return self.done_before + self.played + self.voided

    @property
    def games_per_minute(self) -> float:
        return 60.0 * self.played / self.wall_seconds if self.wall_seconds > 0 else 0.0

    @property
    def game_seconds(self) -> float:
        """Mean time of a game inside its worker."""
        return self.worker_seconds / self.played if self.played else 0.0

    @property
    def overhead_seconds(self) -> float:
        """Mean time per game spent outside the game itself (dispatch, pipes, storing), per
        worker: wall x workers / games - game time."""
        if not self.played:
            return 0.0
        capacity = (self.capacity_seconds if self.capacity_seconds is not None
                    else self.wall_seconds * self.workers)
        return max(0.0, capacity / self.played - self.game_seconds)

    @property
    def game_cpu_seconds(self) -> float:
        """Mean processor time of a game inside its worker."""
        return self.worker_cpu_seconds / self.played if self.played else 0.0

    @property
    def parent_cpu_per_game(self) -> float:
        """Processor time this process spent per game (handing it out, storing it)."""
        return self.parent_cpu_seconds / self.played if self.played else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run_id, "planned": self.planned, "done": self.done,
                "played": self.played, "duplicates": self.duplicates, "faults": self.faults,
                "voided": self.voided,
                "status": self.status, "failure": self.failure,
                "wall_seconds": round(self.wall_seconds, 3), "workers": self.workers,
                "games_per_minute": round(self.games_per_minute, 1),
                "game_ms": round(1000 * self.game_seconds, 3),
                "overhead_ms": round(1000 * self.overhead_seconds, 3),
                "game_cpu_ms": round(1000 * self.game_cpu_seconds, 3),
                "parent_cpu_ms": round(1000 * self.parent_cpu_per_game, 3),
                "sprt": self.sprt.to_dict() if self.sprt is not None else None,
                "nodes": self.nodes, "replayed": self.replayed}


@dataclass
class Standings:
    """The run's results so far, for the progress bar's leader: games and finishing positions."""

    games: dict[str, int] = field(default_factory=dict)
    places: dict[str, int] = field(default_factory=dict)  # sum of (rank + 1)

    def add(self, bot: str, rank: int) -> None:
        self.games[bot] = self.games.get(bot, 0) + 1
        self.places[bot] = self.places.get(bot, 0) + rank + 1

    def leader(self) -> tuple[str, float] | None:
        if not self.games:
            return None
        bot = min(self.games, key=lambda b: (self.places[b] / self.games[b], b))
        return bot, self.places[bot] / self.games[bot]


def start_run(store: Store, spec: TournamentSpec, label: str | None = None) -> int:
    """Record a new run (its plan is checked first); returns its id."""
    planned = check(spec)
    return store.create_run(spec, planned, label)


def sprt_tracker(store: Store, run_id: int, spec: TournamentSpec) -> DealTracker | None:
    """The sequential test of a run, fed with its stored games (None for a fixed-length run)."""
    if spec.sprt is None:
        return None
    tracker = DealTracker(SprtSpec.from_dict(spec.sprt), spec.bots[0][0],
                          count_seatings(len(spec.bots), spec.players, spec.seatings))
    by_game: dict[tuple[int, int], list[tuple[str, int]]] = {}
    keyed = store.conn.execute(
        "SELECT g.deal, g.seating, s.bot, s.rank FROM games g JOIN seats s ON s.game_id = g.id"
        " WHERE g.run_id = ? ORDER BY g.deal, g.seating, s.seat", (run_id,)).fetchall()
    for deal, seating, bot, rank in keyed:
        by_game.setdefault((deal, seating), []).append((bot, rank))
    for (deal, _), seats in by_game.items():
        tracker.add_game(deal, seats)
    return tracker


def missing_tasks(store: Store, run_id: int) -> list[GameTask]:
    """The planned games of a run that are not stored yet, in plan order (none once its
    sequential test has decided)."""
    info = store.run(run_id)
    tracker = sprt_tracker(store, run_id, info.spec)
    if tracker is not None and tracker.state.result is not None:
        return []
    done = store.completed_keys(run_id)
    # the bots' processes are started from here wherever the games are played (a Ray node);
    # the store they are written to is hidden from every bot, wherever it is
    return [t for t in plan(info.spec, run_id, origin=os.getcwd(),
                            bot_limits=os.environ.get(LIMITS_VAR, "").strip(),
                            hide=(os.path.abspath(store.path),),
                            user_path=os.environ.get("PATH", ""))
            if t.key not in done]


class _StopOnSignal:
    """While active: the first SIGINT/SIGTERM asks the backend to stop, a second one raises
    KeyboardInterrupt. Only in the main thread (elsewhere signals cannot be caught)."""

    def __init__(self, backend: Backend, out: TextIO | None) -> None:
        self.backend = backend
        self.out = out
        self.signalled = False
        self._saved: dict[int, Any] = {}

    def _handle(self, signum: int, frame: Any) -> None:
        if self.signalled:
            raise KeyboardInterrupt
        self.signalled = True
        self.backend.request_stop()
        if self.out is not None:
            print("\nstopping: the games being played are dropped (Ctrl-C again to stop at once)",
                  file=self.out, flush=True)

    def __enter__(self) -> "_StopOnSignal":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._saved[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)


class _HeldSignals:
    """While active (main thread only): SIGINT and SIGTERM are held, not acted on, so that a
    Ctrl-C cannot cut a batch's transaction from the counting of its games; on leaving, each
    held signal is handed to the handler it would have reached (with `deliver`), or only
    noted in `got` (the run's clean-up, which must close the backend and set the status)."""

    def __init__(self, deliver: bool = True) -> None:
        self.deliver = deliver
        self.got: list[tuple[int, Any]] = []
        self._saved: dict[int, Any] = {}

    def __enter__(self) -> "_HeldSignals":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._saved[sig] = signal.signal(sig, lambda n, f: self.got.append((n, f)))
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)
        if not self.deliver:
            return
        held, self.got = self.got, []
        for signum, frame in held:
            handler = self._saved.get(signum)
            if callable(handler):
                handler(signum, frame)
            elif handler == signal.SIG_DFL:
                raise KeyboardInterrupt


def play_run(
    store: Store,
    run_id: int,
    backend: Backend,
    progress: bool | None = None,
    out: TextIO | None = None,
) -> RunReport:
    """Play the run's missing games on `backend` (which this closes), storing each as it ends.

    `progress`: draw the progress bar (None: only when `out` is a terminal, so that a
    redirected stderr gets no carriage-return frames)."""
    out = out if out is not None else sys.stderr
    if progress is None:
        progress = bool(getattr(out, "isatty", lambda: False)())
    info = store.run(run_id)
    tasks = missing_tasks(store, run_id)
    report = RunReport(run_id, info.planned, info.planned - len(tasks), workers=backend.workers)
    tracker = sprt_tracker(store, run_id, info.spec)
    if tracker is not None:
        report.sprt = tracker.state
        report.done_before = store.run(run_id).done
    standings = Standings()
    for bot, n, places in store.conn.execute(
            "SELECT s.bot, COUNT(*), SUM(s.rank + 1) FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE g.run_id = ? GROUP BY s.bot", (run_id,)):
        standings.games[bot], standings.places[bot] = n, places
    # The bar is as wide as the terminal (read at every update, so that it follows a resize),
    # and its text after the bar keeps what fits there, the sequential test's LLR first.
    bar = tqdm(total=info.planned, initial=report.done_before, unit="game", file=out,
               disable=not progress, ncols=_columns(), smoothing=0.05, mininterval=0.5,
               desc=f"run {run_id}",
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                          "[{elapsed}<{remaining}]{postfix}")
    if hasattr(backend, "on_event"):  # a cluster's events: one line each, above the bar
        backend.on_event = lambda message: bar.write(message, file=out)
    start = time.monotonic()
    cpu_start = _cpu()
    stopper = _StopOnSignal(backend, out if progress else None)
    status = "finished"
    batch = _Batch(store, report, standings)
    if hasattr(backend, "on_idle"):
        backend.on_idle = batch.flush
    try:
        with stopper:
            for outcome in backend.run(tasks):
                batch.add(outcome)
                if tracker is not None:
                    tracker.add_game(outcome.deal, [(s.bot, s.rank) for s in outcome.seats])
                    if tracker.state.result is not None:
                        backend.request_stop()
                if progress:
                    bar.ncols = _columns()
                    room = bar.ncols - _BAR_MIN - len(f"run {run_id}: 100%||  "
                                                      f"{info.planned}/{info.planned} "
                                                      f"[00:00:00<00:00:00], ")
                    bar.set_postfix_str(_postfix(report, standings, time.monotonic() - start,
                                                 getattr(backend, "live_cpus", None), room),
                                        refresh=False)
                bar.update(1)
            batch.flush()
        decided = tracker is not None and tracker.state.result is not None
        if not decided and (stopper.signalled or report.done < info.planned):
            status = "interrupted"
    except KeyboardInterrupt:
        status = "interrupted"
    except (sqlite3.Error, StoreError) as e:
        status = "interrupted"
        report.store_failure = True
        report.failure = _failure_text(store, e)
    except (GameFailure, BackendError) as e:
        status = "failed"
        report.failure = str(e)
    finally:
        with _HeldSignals(deliver=False):  # a further Ctrl-C loses nothing from here on
            if batch.pending:  # stopped by an exception: store the finished games in hand
                try:
                    batch.flush()
                except (sqlite3.Error, StoreError) as e:
                    if report.failure is None:
                        report.store_failure = True
                        report.failure = _failure_text(store, e)
                    status = "interrupted"
            report.wall_seconds = time.monotonic() - start
            report.parent_cpu_seconds = _cpu() - cpu_start
            backend.close()
            if hasattr(backend, "nodes_used"):  # a cluster: what it looked like over the run
                report.workers = backend.peak_workers
                report.nodes = backend.nodes_used
                report.replayed = backend.replayed
                report.capacity_seconds = backend.capacity_seconds
            bar.close()
            report.status = status
            try:
                report.status = store.set_status(run_id, status, report.wall_seconds)
                report.done_before = store.run(run_id).done - report.played
            except (sqlite3.Error, StoreError) as e:
                # the store cannot even take the status: the run stays unfinished in it (listed as
                # stopped once this process is gone), which is the truth
                if report.failure is None:
                    report.store_failure = True
                    report.failure = _failure_text(store, e)
                if report.status == "finished":
                    report.status = "interrupted"
    return report


# A batch of finished games is stored once it holds this many games, or once its first game
# has waited this long (see the module docstring).
_BATCH_GAMES = 500
_BATCH_SECONDS = 0.5


class _Batch:
    """The finished games not yet stored (see the module docstring); counts each one into the
    report and the standings once it is stored."""

    def __init__(self, store: Store, report: RunReport, standings: Standings) -> None:
        self.store = store
        self.report = report
        self.standings = standings
        self.pending: list[GameOutcome] = []
        self.since = 0.0  # when the first pending game arrived

    def add(self, outcome: GameOutcome | VoidedGame) -> None:
        if isinstance(outcome, VoidedGame):  # rare: stored at once, after the games held
            self.flush()
            if self.store.save_void(outcome):
                self.report.voided += 1
            else:
                self.report.duplicates += 1
            return
        if not self.pending:
            self.since = time.monotonic()
        self.pending.append(outcome)
        if (len(self.pending) >= _BATCH_GAMES
                or time.monotonic() - self.since >= _BATCH_SECONDS):
            self.flush()

    def flush(self) -> None:
        """Store the games held, in one transaction."""
        if not self.pending:
            return
        with _HeldSignals():  # stored and counted as one, whatever Ctrl-C does meanwhile
            ids = self.store.save_games(self.pending)
            stored, self.pending = self.pending, []
            self._count(stored, ids)

    def _count(self, stored: list[GameOutcome], ids: list[int | None]) -> None:
        """Count the games just stored (a None id: stored before, a duplicate)."""
        report, standings = self.report, self.standings
        for outcome, game_id in zip(stored, ids):
            if game_id is None:
                report.duplicates += 1
                continue
            report.played += 1
            report.worker_seconds += outcome.duration
            report.worker_cpu_seconds += outcome.cpu_seconds
            for s in outcome.seats:
                standings.add(s.bot, s.rank)
                if s.fault is not None:
                    report.faults += 1


def _failure_text(store: Store, e: Exception) -> str:
    """One line on what went wrong with the store."""
    return store.explain(e) if isinstance(e, sqlite3.Error) else str(e)


def _cpu() -> float:
    """Processor time of this process so far (user + system)."""
    if resource is None:
        return time.process_time()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# The fewest columns the bar itself keeps when the terminal is narrow.
_BAR_MIN = 6


def _columns() -> int:
    """The terminal's width (COLUMNS when set; 80 when it cannot be known)."""
    return shutil.get_terminal_size((80, 24)).columns


def _postfix(report: RunReport, standings: Standings, elapsed: float,
             cpus: int | None = None, room: int | None = None) -> str:
    """The text after the progress bar: the sequential test's LLR and bounds, the rate, the
    faults and the leader, in that order of importance, as many as fit in `room` columns
    (None: all; the LLR is kept even when it does not fit)."""
    rate = 60.0 * report.played / elapsed if elapsed > 0 else 0.0
    parts = [f"{rate:,.0f} games/min"
             + (f" on {cpus} CPU{'s' if cpus != 1 else ''}" if cpus is not None else "")]
    if report.faults:
        parts.append(f"{report.faults} fault{'s' if report.faults != 1 else ''}")
    lead = standings.leader()
    if lead is not None:
        parts.append(f"leader {lead[0]} (mean place {lead[1]:.2f})")
    if report.sprt is not None:
        parts.insert(0, report.sprt.text())
    kept: list[str] = []
    for i, part in enumerate(parts):
        text = ", ".join([*kept, part])
        if room is None or len(text) <= room or (i == 0 and report.sprt is not None):
            kept.append(part)
    return ", ".join(kept)
