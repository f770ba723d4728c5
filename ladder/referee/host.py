"""The referee's side of the bot protocol: a bot in a process of its own, driven like a bot.

`ProcessBot` is what `play_game` seats for an `exec:` or (by default) a `python:` bot. It
starts the program (through `ladder.referee.sandbox.spawn` when that is there), shakes hands,
and then serves game after game: `begin` (a new game, from the referee's hook), `observe`
(after every decision: what the seat saw of it), `step(view)` (a decision: the seat's view as a
protocol document, answered by an action id). Nothing of the bot's runs in the referee's
process: its answers are lines read from a pipe with a deadline (poll, no signals), and each
way it can fail is a `BotFault` of its own kind, which the referee records against its seat:

- "error": the bot said it failed (an `error` message, or it refused the handshake);
- "timeout": no answer within the move time limit (the process is killed);
- "invalid": a line that is no message, too long, or an action id that is not legal;
- "crashed": its process ended or closed its pipes (seen within `_CHECK_MS`, even when the
  sandbox's namespace wrapper still holds copies of them).

After a fault the process is killed; the seat is played by the referee's fallback bot.
"""
from __future__ import annotations

import errno
import os
import random
import select
import signal
import subprocess
import tempfile
import time
from typing import Any, Sequence

from ai.match import BotFault, plays_remotely
from ladder.referee import protocol as P

# How long a bot may take to answer the handshake when moves have no time limit: None (a
# person at `tianti play` may wait); under a limit, see `ai.match.setup_limit`.
_MESSAGE_LIMIT = 2000
# Bytes of output a bot may leave unread in its stdin before it is "crashed" (it stopped
# reading): updates are small, a game's are far below this.
_MAX_PENDING = 1 << 24
# How often (ms) a bot that has not answered yet is checked for having closed its pipes: a fast
# answer never waits for it; a bot that closed them is charged "crashed" within this much.
_CHECK_MS = 200


# The environment variable that overrides the sandbox's limits for every bot process, in
# `Limits.parse` form: TIANTI_BOT_LIMITS="memory_mb=2048,processes=16,network=true".
LIMITS_VAR = "TIANTI_BOT_LIMITS"


def bot_limits(text: str | None = None) -> Any:
    """The limits of a bot's sandbox: the defaults, overridden by `text` (a tournament's own
    $TIANTI_BOT_LIMITS, carried to where its games are played) or, if it is empty or None, by
    this process's $TIANTI_BOT_LIMITS (a bad value is a BotSpecError naming the variable)."""
    from ai.bots import BotSpecError
    from ladder.referee.sandbox import Limits

    text = (text or "").strip() or os.environ.get(LIMITS_VAR, "").strip()
    if not text:
        return Limits()
    try:
        return Limits.parse(text)
    except ValueError as e:
        raise BotSpecError(f"${LIMITS_VAR}: {e}") from None


def _spawn(argv: Sequence[str], pythonpath: Sequence[str], limits: str | None = None,
           hide: Sequence[str] = (), expose: Sequence[str] = (),
           conceal: Sequence[str] = ()) -> Any:
    """The bot's process: through the sandbox (its own folder, limits, namespaces) when
    `ladder.referee.sandbox` is there, else a plain child in its own session. `limits` as for
    `bot_limits`; `hide`: paths its sandbox hides (a store, with its SQLite companions);
    `expose`, `conceal`: as for `sandbox.spawn`."""
    try:
        from ladder.referee import sandbox
    except ImportError:
        sandbox = None  # type: ignore[assignment]
    if sandbox is not None:
        return sandbox.spawn(list(argv), limits=bot_limits(limits),
                             pythonpath=tuple(pythonpath), hide=tuple(hide),
                             expose=tuple(expose), conceal=tuple(conceal))
    return _PlainProcess(argv, pythonpath)


class _PlainProcess:
    """A bot process without a sandbox (the same face as the sandbox's BotProcess)."""

    def __init__(self, argv: Sequence[str], pythonpath: Sequence[str]) -> None:
        self._folder = tempfile.mkdtemp(prefix="tianti-bot-")
        self._err = open(os.path.join(self._folder, "stderr"), "w+b")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self._folder,
               "LANG": "C.UTF-8"}
        if pythonpath:
            env["PYTHONPATH"] = os.pathsep.join(pythonpath)
        self._proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._err, cwd=self._folder, env=env,
                                      start_new_session=True, close_fds=True)
        self.stdin = self._proc.stdin
        self.stdout = self._proc.stdout
        self.pid = self._proc.pid
        self.isolation = None

    def kill(self) -> None:
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            self._proc.kill()
        except OSError:
            pass

    def wait(self, timeout: float | None = None) -> int | None:
        try:
            return self._proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self, limit: int = 4000) -> str:
        try:
            self._err.flush()
            size = os.fstat(self._err.fileno()).st_size
            self._err.seek(max(0, size - 4 * limit))
            text = self._err.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        return text[-limit:]

    def close(self) -> None:
        import shutil

        self._err.close()
        shutil.rmtree(self._folder, ignore_errors=True)


def _ended(code: int | None) -> str:
    if code is None:
        return "closed its output"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return f"was killed by signal {-code} ({name})"
    return f"exited with code {code}"


@plays_remotely
class ProcessBot:
    """A bot that plays from a process of its own over the protocol (see the module doc).

    `argv` is the program; `move_timeout` the move time limit in seconds (None: none);
    `setup_timeout` how long the handshake may take; `limits` the sandbox's limits in
    $TIANTI_BOT_LIMITS's form (None or "": that variable's); `hide` paths its sandbox hides
    wherever they are (the tournament's store); `expose` paths it must see and `conceal`
    folders hidden from it but for those (see `sandbox.spawn`)."""

    def __init__(self, argv: Sequence[str], *, move_timeout: float | None = None,
                 setup_timeout: float | None = None, pythonpath: Sequence[str] = (),
                 referee: str = "tianti", transcript: bool = False,
                 limits: str | None = None, hide: Sequence[str] = (),
                 expose: Sequence[str] = (), conceal: Sequence[str] = ()) -> None:
        self.argv = list(argv)
        self.move_timeout = move_timeout
        self.name = ""
        self.options: dict[str, Any] = {}
        self.wants: frozenset[str] = frozenset()
        self.dead = False
        self.games = 0
        self._rng = random.Random(int.from_bytes(os.urandom(16), "little"))
        self._pending = bytearray()
        self._buffer = bytearray()
        self._heard = False  # whether it ever wrote anything (a timeout's hint)
        self._coder: P.EventCoder | None = None
        # (who, line) of every line, "referee" or "bot", when a transcript is wanted
        self.transcript: list[tuple[str, str]] | None = [] if transcript else None
        self._proc = _spawn(self.argv, pythonpath, limits, hide, expose, conceal)
        self._in = self._proc.stdin.fileno()
        self._out = self._proc.stdout.fileno()
        os.set_blocking(self._in, False)
        self._poller = select.poll()
        self._poller.register(self._out, select.POLLIN)
        self._writing = False
        self._with_view = False
        self.lean = False
        os.set_blocking(self._out, False)
        # stopped between its turns where its limits say `pause` (the sandbox's; else no-ops)
        self._pause = getattr(self._proc, "pause", lambda: None)
        self._resume = getattr(self._proc, "resume", lambda: None)
        try:
            self._handshake(referee, setup_timeout)
        except BaseException:
            self.kill()
            raise
        self._pause()

    def _handshake(self, referee: str, setup_timeout: float | None) -> None:
        deadline = None if setup_timeout is None else time.monotonic() + setup_timeout
        self._send(P.hello(referee))
        reply = self._read(deadline, "handshake", setup_timeout)
        if reply["type"] == "error":
            self._fail("error", f"the bot refused the handshake: {str(reply.get('message'))}")
        if reply["type"] != "hello":
            self._fail("invalid", f"answered the handshake with a {reply['type']!r} message")
        if reply.get("protocol") != P.PROTOCOL_VERSION:
            self._fail("error", f"speaks protocol {reply.get('protocol')!r}, not "
                                f"{P.PROTOCOL_VERSION}")
        self.name = str(reply.get("name", ""))[:200]
        options = reply.get("options", {})
        self.options = options if isinstance(options, dict) else {}
        wants = reply.get("wants", [])
        self.wants = frozenset(w for w in wants if isinstance(w, str)) \
            if isinstance(wants, list) else frozenset()
        self._with_view = P.WANT_VIEW in self.wants
        # lean messages for any bot that asks: one that plays from ids alone (the C example)
        # saves the referee the board and texts, most of its cost per decision
        self.lean = P.WANT_LEAN in self.wants

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def isolation(self) -> Any:
        return self._proc.isolation

    # -- the bot's calls (inside the referee's timed calls) ----------------------------------

    def restart(self) -> None:
        """A new game starts (the referee calls `begin` with it)."""
        if self.dead:
            raise BotFault("crashed", "the bot's process has ended")

    def step(self, view: Any) -> int:
        """The bot's answer to `view` (the mover's view), an action id it was offered."""
        if self.dead:
            raise BotFault("crashed", "the bot's process has ended")
        start = time.monotonic()
        limit = self.move_timeout
        deadline = None if limit is None else start + limit
        try:
            self._resume()
            seat = view.viewer
            block = None
            if self._with_view:
                fresh = view.resample_from_infostate(seat, self._rng.getrandbits(63))
                block = P.view_block(fresh)
            time_ms = None if limit is None else round(limit * 1000, 3)
            if self.lean:  # the line made directly (the same bytes as the json module's)
                ids = view.legal_actions()
                self._send_line(P.lean_move_line(view.move_number(), ids, time_ms, block))
            else:
                legal = P.legal_documents(view)
                ids = [a for a, _ in legal]
                self._send(P.move_message(view.move_number(), P.public_board(view, seat),
                                          legal, time_ms, block))
            reply = self._read(deadline, "move", limit)
            if reply["type"] == "error":
                self._fail("error", "the bot reported an error: "
                           + str(reply.get("message", ""))[:_MESSAGE_LIMIT])
            action = reply.get("action")
            if reply["type"] != "action" or isinstance(action, bool) \
                    or not isinstance(action, int):
                self._fail("invalid", f"answered a move with {P._shown(str(reply))}, not an "
                                      "action id")
            if action not in ids:
                self._fail("invalid", f"answered {action}, which is not legal here (it was "
                                      f"offered {len(ids)} legal action ids)")
            self._pause()
            return action
        except BaseException:  # a fault, or the referee's own interrupt: the process ends
            self.kill()
            raise

    # -- the referee's hooks (outside the bot's calls: they never block) ---------------------

    def begin(self, state: Any, seat: int) -> None:
        """A game starts with the referee's `state` (maybe part-way: its actions so far are
        sent as updates); `seat` is this bot's."""
        if self.dead:
            return
        self.games += 1
        self._coder = P.EventCoder(state.EVENT_TABLE)
        with_raw = self._with_view
        lean = self.lean
        limit = self.move_timeout
        self._send(P.game_message(state.game.name, dict(state.game.options),
                                  state.num_players(), seat,
                                  None if limit is None else round(limit * 1000, 3),
                                  self.games), flush=False)
        history = state.history()
        replay = state
        if history:  # a game resumed part-way: the moves so far, replayed from the start
            from engine.core.state import State

            replay = State.from_record({"game": state.game.name,
                                        "options": dict(state.game.options),
                                        "seed": state.seed, "actions": []})
        if lean:
            self._send_line(P.lean_update_line(-1, None, None,
                                               P.seen_raw_events(replay, -1, seat)), flush=False)
        else:
            self._send(P.update_message(-1, None, None, None,
                                        P.seen_events(replay, -1, seat, self._coder, with_raw)),
                       flush=False)
        for index, action in enumerate(history):
            player = replay.current_player()
            if lean:
                replay.apply_action(action)
                self._send_line(P.lean_update_line(index, player, action,
                                                   P.seen_raw_events(replay, index, seat)),
                                flush=False)
                continue
            text = replay.action_to_string(action)
            replay.apply_action(action)
            self._send(P.update_message(index, player, action, text,
                                        P.seen_events(replay, index, seat, self._coder,
                                                      with_raw)), flush=False)
        self.seat = seat

    def observe(self, state: Any, index: int, player: int, action: int, text: str) -> None:
        """Decision `index` was `action` by `player` (`text`, as the mover read it); `state`
        is the referee's, after it. The bot is sent what its seat saw, and the end if over."""
        if self.dead or self._coder is None:
            return
        if self.lean:
            self._send_line(P.lean_update_line(index, player, action,
                                               P.seen_raw_events(state, index, self.seat)),
                            flush=False)
        else:
            self._send(P.update_message(index, player, action, text, P.seen_events(
                state, index, self.seat, self._coder, self._with_view)), flush=False)
        if state.is_terminal():
            self._send(P.end_message(state.scores(), state.ranks()))

    # -- the pipes -------------------------------------------------------------------------------

    def _fail(self, kind: str, message: str) -> None:
        self.kill()
        raise BotFault(kind, message)

    def _crashed(self, what: str, how: str | None = None) -> None:
        code = None if how is not None else self._proc.wait(1.0)
        self.kill()
        tail = self.stderr_tail().strip()
        note = f"\n[the bot's stderr, its end:]\n{tail[-1500:]}" if tail else ""
        raise BotFault("crashed", f"the bot's process {how or _ended(code)} (at its {what})"
                                  f"{note}")

    def _pipe_closed(self) -> str | None:
        """"output"/"input" if the bot's processes hold that pipe end no more (the sandbox
        looks in /proc, as its namespace wrapper keeps the ends open); None otherwise."""
        check = getattr(self._proc, "pipe_closed", None)
        try:
            return check() if check is not None else None
        except Exception:
            return None

    def _send(self, message: dict[str, Any], flush: bool = True) -> None:
        """Queue a line; with `flush`, write what the pipe takes now (never blocks). Updates
        wait for the next move or end (one write, one wake-up of the bot, per decision)."""
        self._send_line(P.encode(message), flush)

    def _send_line(self, line: bytes, flush: bool = True) -> None:
        """`_send` of a line already encoded."""
        if self.transcript is not None:
            self.transcript.append(("referee", line.decode("ascii").rstrip("\n")))
        self._pending += line
        if flush:
            self._write_some()
        if len(self._pending) > _MAX_PENDING:
            self.kill()

    def _write_some(self) -> None:
        while self._pending and not self.dead:
            try:
                n = os.write(self._in, self._pending)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                self.dead = True  # found out at the next call
                return
            del self._pending[:n]

    def _silence_hint(self) -> str:
        """What a timeout's message adds about the bot's output: a bot that wrote nothing at
        all, or part of a line, most likely holds its answer in an output buffer it never
        flushed (C's stdio and Python's print both buffer a pipe)."""
        if self._buffer:
            return (f" (it wrote {len(self._buffer)} bytes without a line end: end each answer "
                    "with a newline and flush it)")
        if not self._heard:
            return (" (it wrote nothing at all: if it did answer, its output was never "
                    "flushed; a bot must flush stdout after each line, e.g. fflush(stdout) "
                    "in C, print(..., flush=True) in Python)")
        return ""

    def _read(self, deadline: float | None, what: str, limit: float | None) -> dict[str, Any]:
        """The bot's next message, flushing what is queued, within `deadline`."""
        if self.dead:
            self._crashed(what)
        poller = self._poller  # registered once (its output; its input while lines wait)
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[:newline + 1]
                if len(line) > P.MAX_LINE:
                    self._fail("invalid", f"wrote a line of {len(line)} bytes during {what} "
                                          f"(at most {P.MAX_LINE})")
                if not line.strip():
                    continue
                if self.transcript is not None:
                    self.transcript.append(("bot", line.decode("utf-8", "replace")))
                try:
                    return P.decode_reply(line)
                except P.ProtocolError as e:
                    self._fail("invalid", f"wrote something that is no message during {what}: "
                                          f"{e}")
            if len(self._buffer) > P.MAX_LINE:
                self._fail("invalid", f"wrote more than {P.MAX_LINE} bytes without a line end "
                                      f"during {what}")
            if self._pending and not self._writing:
                poller.register(self._in, select.POLLOUT)
                self._writing = True
            elif not self._pending and self._writing:
                poller.unregister(self._in)
                self._writing = False
            if deadline is None:
                timeout = _CHECK_MS
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._fail("timeout", f"no answer within the {what} time limit of "
                                          f"{limit:g} s; its process was killed"
                               + self._silence_hint())
                timeout = min(_CHECK_MS, max(1, int(left * 1000) + 1))
            events = poller.poll(timeout)
            if not events:  # quiet so far: has it closed its pipes behind the wrapper's back?
                closed = self._pipe_closed()
                if closed is not None:
                    self.dead = True
                    self._crashed(what, f"closed its {closed} pipe and can never answer")
            for fd, event in events:
                if fd == self._in:
                    if event & (select.POLLERR | select.POLLHUP):
                        self.dead = True
                        self._crashed(what)
                    self._write_some()
                    if self.dead:
                        self._crashed(what)
                elif event & (select.POLLIN | select.POLLHUP | select.POLLERR):
                    try:
                        chunk = os.read(self._out, 1 << 16)
                    except BlockingIOError:
                        continue
                    except OSError as e:
                        if e.errno == errno.EAGAIN:
                            continue
                        chunk = b""
                    if not chunk:
                        self.dead = True
                        self._crashed(what)
                    self._heard = True
                    self._buffer += chunk

    # -- the end ---------------------------------------------------------------------------------

    def stderr_tail(self) -> str:
        try:
            return self._proc.stderr_tail()
        except Exception:
            return ""

    def kill(self) -> None:
        """End the process and everything it started (idempotent)."""
        self.dead = True
        try:
            self._proc.kill()
        except Exception:
            pass
        try:
            self._proc.wait(1.0)
        except Exception:
            pass

    def close(self) -> None:
        """Say quit, give the bot a moment to go, then kill what is left."""
        if not self.dead:
            self._resume()
            self._send(P.QUIT)
            self._proc.wait(0.2)
        self.kill()
        closer = getattr(self._proc, "close", None)
        if closer is not None:
            try:
                closer()
            except Exception:
                pass
