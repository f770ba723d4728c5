"""Making a tournament's own-code bots once before it stores anything (`check_bots`): a
constructor that raises, hangs, exits or kills its process is a `BotSetupError` naming the bot,
found in a process of its own, sandboxed and timed as a worker would be.
"""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from multiprocessing.connection import Connection
from typing import Any

from ai.match import Referee, setup_limit
from engine.core.errors import TiantiError
from ladder.referee.host import ProcessBot
from ladder.referee.players import make_player, placement
from ladder.tournament.inproc import BotSandbox, output_path, read_tail
from ladder.tournament.worker import LocalHeartbeat, die_with_parent, install_watchdog, kill_group


def is_foreign(spec: str) -> bool:
    """Whether a bot spec names a user's own code (`python:module:factory`, `exec:` programs,
    `inproc:python:...`), which is checked before a tournament; tianti's own bots print
    nothing, start nothing and change nothing."""
    return placement(spec) != "builtin"


class BotSetupError(TiantiError):
    """A bot cannot be made: its constructor raised, ran past its time, or ended its process."""


# How long the checking process may take to start (imports) before its first bot.
_PROBE_START_SECONDS = 120.0


def check_bots(bots: list[tuple[str, str]], move_timeout: float | None) -> None:
    """Make each (name, spec) bot once, in a fresh process as a worker would (sandboxed, its
    time limited to `setup_limit(move_timeout)`), before a tournament stores anything: a
    constructor that raises, hangs, exits or kills its process is a `BotSetupError` naming the
    bot. The process and whatever the bots started end here; nothing they print gets out."""
    if not bots:
        return
    import multiprocessing
    from multiprocessing.connection import wait

    limit = setup_limit(move_timeout)
    grace = max(2.0, limit) if limit is not None else None
    ctx = multiprocessing.get_context("spawn")
    reader, writer = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_probe_main, args=(writer, list(bots), limit),
                          name="tianti-bot-check", daemon=True)
    process.start()
    writer.close()
    current: int | None = None  # the bot being made
    deadline: float | None = time.monotonic() + _PROBE_START_SECONDS

    def who(i: int) -> str:
        return f"bot {bots[i][0]!r} ({bots[i][1]})"

    try:
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = wait([reader, process.sentinel], timeout)
            if reader in ready:
                try:
                    message = reader.recv()
                except (EOFError, OSError):
                    message = None
                if message is not None:
                    if message[0] == "start":
                        current = message[1]
                        deadline = None if limit is None else time.monotonic() + limit + grace
                    elif message[0] == "made":
                        _, i, error, output = message
                        if error is not None:
                            raise BotSetupError(f"{who(i)} cannot be made: {error}"
                                                + _output_note(output))
                        current, deadline = None, time.monotonic() + _PROBE_START_SECONDS
                    elif message[0] == "done":
                        return
                    continue
            if process.sentinel in ready or not process.is_alive():
                process.join(5)
                code = process.exitcode
                how = (f"was killed by signal {-code}" if code is not None and code < 0
                       else f"exited with code {code}")
                if current is None:
                    raise BotSetupError(f"the process checking the bots {how} before making one")
                raise BotSetupError(
                    f"{who(current)} cannot be made: its process {how} while it was being made"
                    + _output_note(read_tail(output_path(_probe_dir(process.pid), current))))
            if not ready:  # the deadline passed
                if current is None:
                    raise BotSetupError("the process checking the bots did not start in "
                                        f"{_PROBE_START_SECONDS:g} s")
                raise BotSetupError(
                    f"{who(current)} cannot be made: not made within the time limit of "
                    f"{limit:g} s (ten moves' time, at most a minute unless a move may take "
                    f"longer); its process was killed")
    finally:
        reader.close()
        kill_group(process.pid)
        process.join(5)
        shutil.rmtree(_probe_dir(process.pid), ignore_errors=True)


def _output_note(output: str, lines: int = 5) -> str:
    """The last lines a bot printed, for an error message ("" if it printed nothing)."""
    tail = [line for line in output.strip().splitlines() if line.strip()][-lines:]
    if not tail:
        return ""
    return "\n  its last output:\n" + "\n".join("    " + line[:200] for line in tail)


def _probe_dir(pid: int) -> str:
    return os.path.join(tempfile.gettempdir(), f"tianti-bot-check-{pid}")  # tempdirs' form


def _probe_main(conn: Connection, bots: list[tuple[str, str]], limit: float | None) -> None:
    """The checking process of `check_bots`: makes each bot under the watchdog and the
    sandbox, and lets it go again, reporting each step through `conn`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    try:
        os.setpgrp()
    except OSError:
        pass
    hb = LocalHeartbeat()
    install_watchdog(hb)
    sandbox = BotSandbox(_probe_dir(os.getpid()), quiet_outside=True, adopt_orphans=True)
    referee = Referee(None, hb, guard=sandbox)
    sandbox.start_game(set(range(len(bots))))
    for i, (_, spec) in enumerate(bots):
        conn.send(("start", i))
        made, _, fault = referee.call(i, -1, _make_checked, spec, limit, limit=limit)
        if fault is None and isinstance(made, _SpecProblem):
            error: str | None = made.message
        elif fault is not None:
            error = fault.message.strip().splitlines()[-1] if fault.kind == "error" else fault.message
        elif type(made) is ProcessBot:
            error = None
            made.close()
        else:
            error = None
            holder = [made]
            made = None
            _, _, fault = referee.call(i, -1, holder.clear, limit=limit)
            if fault is not None:
                error = "its destructor failed: " + fault.message.strip().splitlines()[-1]
        made = None
        conn.send(("made", i, error, sandbox.output(i)))
    sandbox.end_game()
    conn.send(("done",))


class _SpecProblem:
    """A spec that names no bot that can be made (BotSpecError), said plainly."""

    def __init__(self, message: str) -> None:
        self.message = message


def _make_checked(spec: str, limit: float | None = None) -> Any:
    from ai.bots import BotSpecError

    try:
        return make_player(spec, setup_timeout=limit)
    except BotSpecError as e:
        return _SpecProblem(str(e))
