"""Playing a tournament's games where they run: a worker process of the local pool or a Ray task.

`play_task` turns a `GameTask` into a `GameOutcome`: it builds the bots from their specs (a bot
that has a `seed` option and was not given one gets a seed derived from the deal and its name,
so every game is reproducible), plays the game under a `Referee`, and collects the result.

Move time limits are enforced in two layers. In the process that plays, a watchdog thread
watches the heartbeat and, when a bot's call runs past the limit, sends SIGALRM to the main
thread, whose handler raises `MoveTimeout` inside the bot (this stops Python loops and blocking
sleeps). A bot stuck where signals cannot reach it (compiled code holding the GIL, signals
blocked) is the local pool's business: its parent process reads the heartbeat from shared memory,
kills the worker, and restarts the game after the moves already played with that bot faulted
(see `ladder.tournament.backends`).

A user's bot plays from a process of its own (`ladder.referee`), kept by the worker from game to
game. Only a bot the user asked to run in this process (`inproc:`) runs here, in a `BotSandbox`
(`ladder.tournament.inproc`); every piece of its code runs in a timed call of the referee's
(making it, looking up its methods, its moves, its destructor).
"""
from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import threading
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ai.bots import describe_bots, parse_spec
from ai.match import (Fault, MoveTimeout, Referee, derived_seed, forfeit_ranks, play_game,
                      setup_limit)
from engine.registry import load_game
from ladder.referee.host import ProcessBot
from ladder.referee.players import make_player, placement
from ladder.tournament.inproc import BotSandbox, is_guarded, note_own_signals, with_output
from ladder.tournament.schedule import GameTask

# Decisions a shared heartbeat can hold (longer games are restarted from scratch when killed).
HEARTBEAT_CAPACITY = 1 << 15
_FAULTS_BYTES = 1 << 15


@dataclass
class SeatOutcome:
    """One seat of a finished game. `rank` is the finishing position with faulted seats last
    (0 = first), `game_rank` the one the rules gave; `fault` is a `Fault.to_dict()` or None."""

    seat: int
    bot: str
    spec: str
    score: int
    rank: int
    game_rank: int
    fault: dict[str, Any] | None
    moves: int
    think_seconds: float
    max_move_seconds: float


@dataclass
class GameOutcome:
    """A finished game as the store keeps it: what was planned, every decision, the result.

    The decisions, their times and the options travel as JSON text, encoded where the game was
    played: the tournament process then stores them without work of its own (it has one core
    for all the workers' games)."""

    run_id: int
    deal: int
    seating: int
    game: str
    options_json: str
    seed: int
    resample_seed: int
    actions_json: str
    move_times_json: str  # seconds per decision, to the microsecond
    seats: list[SeatOutcome]
    duration: float  # seconds spent in the worker on this game
    cpu_seconds: float = 0.0  # processor time the worker spent on it
    worker: str = ""
    faults: list[dict[str, Any]] = field(default_factory=list)

    @property
    def key(self) -> tuple[int, int]:
        return (self.deal, self.seating)

    @property
    def options(self) -> dict[str, Any]:
        return json.loads(self.options_json)

    @property
    def actions(self) -> list[int]:
        return json.loads(self.actions_json)

    @property
    def move_times(self) -> list[float]:
        return json.loads(self.move_times_json)

    def record(self) -> dict[str, Any]:
        """The engine's game record (what `State.from_record` replays); its version is the one
        the options and actions were written under (a stored game keeps none)."""
        from engine.core.state import stored_record

        return stored_record(self.game, self.options, self.seed, list(self.actions))


@dataclass
class VoidedGame:
    """A planned game that could not be played for reasons no bot is to blame for (its worker
    was killed or froze outside any bot's call, or failed there, as often as the retry limit
    allows): it is stored as such, nobody's loss, and counts in no rating."""

    run_id: int
    deal: int
    seating: int
    game: str
    seed: int
    error: str
    worker: str = ""

    @property
    def key(self) -> tuple[int, int]:
        return (self.deal, self.seating)


class LocalHeartbeat:
    """A heartbeat in the playing process's own memory (what a Ray task uses)."""

    def __init__(self) -> None:
        self.in_move = False
        self.seat = -1
        self.index = -1
        self.started = 0.0
        self.serial = 0
        self.expired = -1
        self.limit: float | None = None  # of the call in progress

    def start_task(self, task: GameTask) -> None:
        self.in_move = False

    def begin(self, seat: int, index: int, limit: float | None) -> None:
        self.seat = seat
        self.index = index
        self.limit = limit
        self.started = time.monotonic()
        self.serial += 1
        self.in_move = True

    def end(self) -> None:
        self.in_move = False

    def applied(self, index: int, action: int, seconds: float) -> None:
        pass

    def faulted(self, faults: list[Fault]) -> None:
        pass


class WorkerSlot:
    """Shared memory between a local worker process and the pool: the heartbeat header, the
    actions and move times played so far in the current game, and its faults as JSON."""

    # header fields; SELF_SIGNAL is the SERIAL of the last bot call during which the process
    # sent a signal to itself (see note_own_signals), -1 if none
    TASK, IN_MOVE, SEAT, INDEX, STARTED, N_ACTIONS, SERIAL, FAULTS_LEN, LIMIT, SELF_SIGNAL = range(10)
    HEADER = 10

    def __init__(self, ctx: Any) -> None:
        self.header = ctx.RawArray(ctypes.c_double, self.HEADER)
        self.actions = ctx.RawArray(ctypes.c_int64, HEARTBEAT_CAPACITY)
        self.times = ctx.RawArray(ctypes.c_double, HEARTBEAT_CAPACITY)
        self.faults = ctx.RawArray(ctypes.c_char, _FAULTS_BYTES)

    def reset(self) -> None:
        for i in range(self.HEADER):
            self.header[i] = 0.0
        self.header[self.TASK] = -1.0
        self.header[self.SELF_SIGNAL] = -1.0

    def snapshot(self) -> dict[str, Any]:
        """What the parent needs after killing the worker: the game so far and who was moving."""
        h = self.header
        n = int(h[self.N_ACTIONS])
        flen = int(h[self.FAULTS_LEN])
        faults = json.loads(self.faults.raw[:flen].decode()) if flen > 0 else []
        return {
            "task": int(h[self.TASK]), "in_move": h[self.IN_MOVE] > 0, "seat": int(h[self.SEAT]),
            "self_signal": h[self.IN_MOVE] > 0 and h[self.SELF_SIGNAL] == h[self.SERIAL],
            "index": int(h[self.INDEX]), "started": h[self.STARTED],
            "overflow": n > HEARTBEAT_CAPACITY,
            "actions": list(self.actions[:min(n, HEARTBEAT_CAPACITY)]),
            "times": list(self.times[:min(n, HEARTBEAT_CAPACITY)]), "faults": faults,
        }

    def progress(self) -> tuple[float, float]:
        """(calls begun, decisions applied): what changes while the worker gets on."""
        return self.header[self.SERIAL], self.header[self.N_ACTIONS]

    def in_move_since(self) -> tuple[int, float, float | None] | None:
        """(task serial, start time, time limit) of the bot call in progress, or None."""
        h = self.header
        if h[self.IN_MOVE] > 0:
            limit = h[self.LIMIT]
            return int(h[self.TASK]), h[self.STARTED], limit if limit > 0 else None
        return None


class SharedHeartbeat:
    """A heartbeat written into a `WorkerSlot` (the local pool's workers use it)."""

    def __init__(self, slot: WorkerSlot) -> None:
        self.slot = slot
        # memoryviews: item access is several times cheaper than the ctypes arrays'
        self._h = memoryview(slot.header).cast("B").cast("d")
        self._a = memoryview(slot.actions).cast("B").cast("q")
        self._t = memoryview(slot.times).cast("B").cast("d")
        self.expired = -1

    @property
    def in_move(self) -> bool:
        return self._h[WorkerSlot.IN_MOVE] > 0

    @property
    def started(self) -> float:
        return self._h[WorkerSlot.STARTED]

    @property
    def serial(self) -> int:
        return int(self._h[WorkerSlot.SERIAL])

    @property
    def limit(self) -> float | None:
        limit = self._h[WorkerSlot.LIMIT]
        return limit if limit > 0 else None

    def start_task(self, serial: int, task: GameTask) -> None:
        h = self._h
        h[WorkerSlot.IN_MOVE] = 0.0
        h[WorkerSlot.N_ACTIONS] = 0.0
        h[WorkerSlot.FAULTS_LEN] = 0.0
        for i, (a, t) in enumerate(zip(task.prefix_actions, task.prefix_times)):
            self.applied(i, a, t)
        if task.prefix_faults:
            self._write_faults(list(task.prefix_faults))
        h[WorkerSlot.TASK] = float(serial)

    def begin(self, seat: int, index: int, limit: float | None) -> None:
        h = self._h
        h[WorkerSlot.SEAT] = seat
        h[WorkerSlot.INDEX] = index
        h[WorkerSlot.LIMIT] = limit or 0.0
        h[WorkerSlot.STARTED] = time.monotonic()
        h[WorkerSlot.SERIAL] += 1.0
        h[WorkerSlot.IN_MOVE] = 1.0

    def end(self) -> None:
        self._h[WorkerSlot.IN_MOVE] = 0.0

    def mark_self_signal(self) -> None:
        """The bot being called is sending a signal to its own process."""
        self._h[WorkerSlot.SELF_SIGNAL] = self._h[WorkerSlot.SERIAL]

    def applied(self, index: int, action: int, seconds: float) -> None:
        if index < HEARTBEAT_CAPACITY:
            self._a[index] = action
            self._t[index] = seconds
        self._h[WorkerSlot.N_ACTIONS] = index + 1

    def faulted(self, faults: list[Fault]) -> None:
        self._write_faults([f.to_dict() for f in faults])

    def _write_faults(self, faults: list[dict[str, Any]]) -> None:
        data = json.dumps(faults).encode()
        if len(data) > _FAULTS_BYTES:  # keep the faults, shorten their messages
            data = json.dumps([{**f, "message": f["message"][:200]} for f in faults]).encode()
        data = data[:_FAULTS_BYTES]
        self.slot.faults[:len(data)] = data
        self._h[WorkerSlot.FAULTS_LEN] = len(data)


# -- the move watchdog (one per process) --------------------------------------------------------

_watched: Any = None  # the heartbeat the SIGALRM handler and the watchdog thread look at
# the watchdog's own reference (a local worker wraps signal.pthread_kill to notice a bot's use)
_pthread_kill = signal.pthread_kill


def _on_alarm(signum: int, frame: Any) -> None:
    hb = _watched
    if hb is not None and hb.in_move and hb.expired == hb.serial:
        raise MoveTimeout()


def _watch(main_thread_id: int) -> None:
    """The watchdog thread: interrupts the main thread when a bot's call runs past the limit."""
    while True:
        hb = _watched
        limit = hb.limit if hb is not None and hb.in_move else None
        if not limit:
            time.sleep(0.02)
            continue
        time.sleep(min(0.05, limit / 10))
        serial = hb.serial
        if not hb.in_move or hb.expired == serial:
            continue
        started = hb.started
        if time.monotonic() - started > limit and hb.serial == serial:
            hb.expired = serial
            _pthread_kill(main_thread_id, signal.SIGALRM)


_watchdog_thread: threading.Thread | None = None


def install_watchdog(hb: Any) -> bool:
    """Start interrupting over-long bot calls reported to `hb` (the thread starts once per
    process; a later call switches it to the new heartbeat). False where it cannot work (not the
    main thread, no SIGALRM): then a move past the limit is only detected when it returns."""
    global _watched, _watchdog_thread
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        return False
    _watched = hb
    if _watchdog_thread is None:
        signal.signal(signal.SIGALRM, _on_alarm)
        _watchdog_thread = threading.Thread(
            target=_watch, args=(threading.main_thread().ident,),
            name="tianti-move-watchdog", daemon=True)
        _watchdog_thread.start()
    return True


# -- playing a task ------------------------------------------------------------------------------

_seeded_bots: dict[str, bool] | None = None


def _seed_override(spec: str, game_seed: int, name: str) -> dict[str, Any]:
    """{'seed': ...} for a registered bot with a seed option that the spec leaves unset."""
    global _seeded_bots
    if _seeded_bots is None:
        _seeded_bots = {b["name"]: "seed" in b["options"] for b in describe_bots()}
    if placement(spec) == "process":
        return {}
    bot_name, raw = parse_spec(spec)
    if "seed" in raw or not _seeded_bots.get(bot_name, False):
        return {}
    return {"seed": derived_seed(game_seed, "bot", name)}


def worker_name() -> str:
    """host:pid of this process (the host asked once per process)."""
    global _worker_name
    pid = os.getpid()
    if _worker_name is None or _worker_name[0] != pid:
        _worker_name = (pid, f"{socket.gethostname()}:{pid}")
    return _worker_name[1]


_worker_name: tuple[int, str] | None = None


def play_task(task: GameTask, heartbeat: Any = None,
              sandbox: BotSandbox | None = None) -> GameOutcome:
    """Play one planned game to the end under the tournament's rules for faults.

    Every call into a bot's code is a timed call of the referee's: making it, looking up its
    methods, each of its moves and, at the end, letting it go (its destructor). With a
    `sandbox`, the seats of users' bots asked in-process (`inproc:`) are sandboxed (see
    `BotSandbox`) and a fault of theirs carries what they printed."""
    start = time.perf_counter()
    cpu_start = time.process_time()
    hb = heartbeat if heartbeat is not None else LocalHeartbeat()
    game = load_game(task.game, **task.options)
    # the options as the game was made, before any bot's code runs (the views share `game`)
    options_json = json.dumps(game.options, sort_keys=True)
    state = game.new_initial_state(task.seed)
    movers: list[int] = []
    for a in task.prefix_actions:
        movers.append(state.current_player())
        state.apply_action(a)
    guarded = {seat for seat, (_, spec) in enumerate(task.bots) if is_guarded(spec)}
    if sandbox is not None:
        sandbox.start_game(guarded)
    try:
        referee = Referee(task.move_timeout, hb, fallback_seed=task.seed,
                          faults=[Fault.from_dict(f) for f in task.prefix_faults],
                          guard=sandbox if guarded else None, trusted=not guarded)
        bots: list[Any] = []
        for seat, (name, spec) in enumerate(task.bots):
            if seat in referee.faulted_seats():
                bots.append(None)  # play_game seats the fallback bot there
                continue
            overrides = _seed_override(spec, task.seed, name)
            made = _running(_kept_key(task, seat))
            if made is None:
                made, _, fault = referee.call(seat, -1, _make, spec, overrides,
                                              referee.move_timeout, task.origin,
                                              task.bot_limits, task.hide, task.user_path,
                                              limit=referee.setup_limit())
            else:
                fault = None
            if fault is not None:
                fault.message = "the bot could not be made: " + fault.message
                referee.add_fault(fault)
            bots.append(made)
            made = None
        bots_made = list(bots)
        # no user's code in this process (tianti's own bots; python: and exec: bots play from
        # processes of their own): no state guard
        result = play_game(state, bots, resample_seed=task.resample_seed, referee=referee,
                           trusted=referee.trusted)
        _let_go(referee, bots, len(result.actions))
        faults = list(referee.faults)
        if len(faults) > len(result.faults):  # a destructor faulted: it ranks last too
            result.ranks = forfeit_ranks(result.game_ranks, {f.seat for f in faults})
        for f in faults[len(task.prefix_faults):]:
            if sandbox is not None and f.seat in guarded:
                f.message = with_output(f.message, sandbox.output(f.seat))
            elif type(bots_made[f.seat]) is ProcessBot and f.kind != "crashed":
                # (a crash's message carries its stderr already)
                f.message = with_output(f.message, bots_made[f.seat].stderr_tail())
        _keep_processes(task, bots_made)
    finally:
        if sandbox is not None:
            sandbox.end_game()
    move_times = [round(t, 6) for t in task.prefix_times] + [round(t, 6) for t in result.move_times]
    movers += result.movers
    first = {f.seat: f for f in reversed(faults)}  # the first fault of each seat
    times: list[list[float]] = [[] for _ in task.bots]  # each seat's move times
    for t, m in zip(move_times, movers):
        times[m].append(t)
    seats = []
    for seat, (name, spec) in enumerate(task.bots):
        mine = times[seat]
        seats.append(SeatOutcome(
            seat=seat, bot=name, spec=spec, score=int(result.scores[seat]),
            rank=int(result.ranks[seat]), game_rank=int(result.game_ranks[seat]),
            fault=first[seat].to_dict() if seat in first else None, moves=len(mine),
            think_seconds=sum(mine), max_move_seconds=max(mine, default=0.0)))
    return GameOutcome(
        run_id=task.run_id, deal=task.deal, seating=task.seating, game=task.game,
        options_json=options_json, seed=task.seed,
        resample_seed=task.resample_seed, actions_json=_compact(result.actions),
        move_times_json=_compact(move_times), seats=seats,
        duration=time.perf_counter() - start, cpu_seconds=time.process_time() - cpu_start,
        worker=worker_name(),
        faults=[f.to_dict() for f in faults])


def _make(spec: str, overrides: dict[str, Any], move_timeout: float | None = None,
          origin: str = "", limits: str = "", hide: tuple[str, ...] = (),
          user_path: str = "") -> Any:
    """A bot made from its spec (the body of a timed call); a bot in a process of its own is
    started and has shaken hands (it may take the setup time limit). `origin`, `limits`,
    `hide` and `user_path`: the task's (see `GameTask`)."""
    return make_player(spec, move_timeout=move_timeout, setup_timeout=setup_limit(move_timeout),
                       origin=origin, limits=limits, hide=hide, user_path=user_path,
                       **overrides)


# The bots in processes of their own that this worker keeps between games, by seat, spec and
# where the tournament runs and what it hides (`_kept_key`): a process serves game after game,
# always one seat of a game.
_Key = tuple[int, str, str, str, tuple[str, ...]]
_processes: dict[_Key, ProcessBot] = {}


def _kept_key(task: GameTask, seat: int) -> _Key:
    return (seat, task.bots[seat][1], task.origin, task.bot_limits, task.hide)


def _running(key: _Key) -> ProcessBot | None:
    """The live process bot kept for `key` (see `_kept_key`), if any."""
    bot = _processes.get(key)
    if bot is not None and bot.dead:
        bot.close()
        del _processes[key]
        return None
    return bot


def _keep_processes(task: GameTask, bots: list[Any]) -> None:
    """Keep the live process bots of a finished game for the next; end the others."""
    for seat, bot in enumerate(bots):
        if type(bot) is not ProcessBot:
            continue
        key = _kept_key(task, seat)
        if _processes.get(key) not in (None, bot):
            _processes.pop(key).close()
        if bot.dead:
            bot.close()
            _processes.pop(key, None)
        else:
            _processes[key] = bot


def close_processes() -> None:
    """Quit every process bot this worker keeps."""
    for bot in list(_processes.values()):
        bot.close()
    _processes.clear()


def _let_go(referee: Referee, bots: list[Any], index: int) -> None:
    """Drop each bot (the only references are in `bots`) inside a timed call of its seat, so
    that its destructor runs where a fault is its own; a fault there is recorded at `index`."""
    for seat in range(len(bots)):
        if bots[seat] is None:
            continue
        holder = [bots[seat]]
        bots[seat] = None
        _, _, fault = referee.call(seat, index, holder.clear)
        if fault is not None and seat not in referee.faulted_seats():
            fault.message = "letting the bot go at the end of the game: " + fault.message
            referee.add_fault(fault)


def _compact(values: list[Any]) -> str:
    return json.dumps(values, separators=(",", ":"))


_heartbeat: LocalHeartbeat | None = None
_sandbox: BotSandbox | None = None


def _process_heartbeat() -> LocalHeartbeat:
    global _heartbeat
    if _heartbeat is None:
        _heartbeat = LocalHeartbeat()
        install_watchdog(_heartbeat)
    return _heartbeat


def _process_sandbox() -> BotSandbox:
    """This process's sandbox (a Ray worker's: its own output stays in Ray's logs)."""
    global _sandbox
    if _sandbox is None:
        _sandbox = BotSandbox()
    return _sandbox


def kill_group(pid: int | None) -> None:
    """SIGKILL the process group a worker leads (it, and what its bots started), if any."""
    if pid is None:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (so a SIGKILLed tournament leaves no
    workers behind); elsewhere the closed pipe ends the worker at its next task."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def worker_main(conn: Connection, slot: WorkerSlot, parent_pid: int,
                output_dir: str | None = None) -> None:
    """A local pool worker: plays the tasks the pool sends until told to stop or orphaned.

    Ctrl-C reaches the whole process group; the worker ignores it and lets the tournament
    process decide (it stops handing out games and ends the workers). The worker leads its own
    process group, so that the pool can kill it with every process its bots started; its bots'
    output goes to files in `output_dir` (see `BotSandbox`). After a game whose bots left
    threads running, it plays no more: it exits and the pool starts a fresh one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()
    if os.getppid() != parent_pid:
        return
    try:
        os.setpgrp()
    except OSError:
        pass
    hb = SharedHeartbeat(slot)
    install_watchdog(hb)
    note_own_signals(hb.mark_self_signal)
    sandbox = BotSandbox(output_dir, quiet_outside=True, adopt_orphans=True)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            close_processes()
            return
        if message is None:
            close_processes()
            return
        serial, task = message
        hb.start_task(serial, task)
        try:
            reply: tuple[str, int, Any] = ("done", serial, play_task(task, hb, sandbox))
        except Exception:
            reply = ("failed", serial, traceback.format_exc())
        hb.end()
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return
        if sandbox.tainted or reply[0] == "failed":
            close_processes()
            return  # a fresh process for the next game
