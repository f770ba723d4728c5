"""The bot's side of the protocol for any bot tianti can make: `python -m ladder.referee.adapter
SPEC` (and `tianti bot SPEC`) serve one bot over stdin/stdout.

SPEC is a bot spec (`random`, `strong`, `ismcts(iterations=500)`, `python:module:factory(...)`)
or `module:factory(...)` for a user's bot (found on PYTHONPATH, in the folder the referee was
started from, or among installed packages). The bot's code stays as it is: an object with
`step(view)`. At each decision the adapter rebuilds the seat's view in this process from what
the referee sent (the public history and seen events it keeps from the updates, and the view's
compiled block, a determinization drawn by the referee from a seed of its own) and calls
`step(view)`. The bot is made afresh for each game (a seeded bot plays a game the same way
whatever the process played before). Whatever the bot prints goes to stderr, never into the
protocol.
"""
from __future__ import annotations

import binascii
import hashlib
import os
import re
import sys
import traceback
from typing import Any, BinaryIO, Callable

from engine.core.errors import RecordError
from ladder.referee import protocol as P


def protocol_streams() -> tuple[BinaryIO, BinaryIO]:
    """The protocol's pipes, kept apart from the bot's prints: file descriptor 1 then points
    to stderr, so `print` (or a C library writing to fd 1) cannot corrupt the protocol."""
    out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return sys.stdin.buffer, out


_INT = frozenset([int])
# A lean move line as the referee writes it (protocol.lean_move_line): the adapter needs only
# its view, read without the json module (the line is the largest the adapter reads).
_LEAN_MOVE = re.compile(
    rb'\{"type":"move","move":-?[0-9]+,"time_ms":(?:null|[0-9.e+-]+),"legal":\[[0-9,\[\]nul]*\],'
    rb'"board":null,"private":\{\},"view":\{"state":"([A-Za-z0-9+/=]*)",'
    rb'"digest":"([0-9a-f]*)"\}\}\s*')


def lean_move(line: bytes) -> dict[str, Any] | None:
    """A lean move line as the message the adapter uses (its type and view), or None for any
    other line (then read with the json module)."""
    match = _LEAN_MOVE.fullmatch(line)
    if match is None:
        return None
    return {"type": "move", "view": {"state": match.group(1).decode("ascii"),
                                     "digest": match.group(2).decode("ascii")}}


class _Game:
    """What the bot holds of the game being played: what the updates said (each update's
    action and raw events checked once, as it arrives)."""

    def __init__(self, message: dict[str, Any]) -> None:
        self.game = str(message["game"])
        self.options = dict(message["options"])
        self.seat = int(message["seat"])
        self.actions: list[int] = []
        self.events: list[list[tuple[int, ...]]] = []
        self._first: Any = None  # the game's first view, restored from a whole record

    def update(self, message: dict[str, Any]) -> None:
        action = message.get("action")
        if action is not None:
            if isinstance(action, bool) or not isinstance(action, int):
                raise P.ProtocolError(f"an update's action is {P._shown(str(action))}")
            self.actions.append(action)
        step = [tuple(e["raw"]) for e in message.get("events", [])]
        for raw in step:  # seven ints (not bools) each
            if len(raw) != 7 or not _INT.issuperset(map(type, raw)):
                raise P.ProtocolError(f"an event's raw form is {P._shown(str(raw))}")
        self.events.append(step)

    def view(self, block: dict[str, str]) -> Any:
        """The seat's view from the move's compiled block: the first one of a game from a whole
        `tianti-view` record (State.from_record checks it all), the next ones from the block and
        what the updates held (checked as they came), so the cost does not grow with the game."""
        from engine.core.state import VIEW_FORMAT, VIEW_VERSION, State

        if self._first is None or not hasattr(self._first, "_view_from_block"):
            self._first = State.from_record({
                "format": VIEW_FORMAT, "version": VIEW_VERSION, "game": self.game,
                "options": self.options, "viewer": self.seat, "actions": self.actions,
                "events": [[list(e) for e in step] for step in self.events], "state": block["state"],
                "digest": block["digest"]})
            return self._first.clone()
        try:
            raw = binascii.a2b_base64(block["state"], strict_mode=True)
        except (TypeError, ValueError) as e:
            raise RecordError(f"the view's state is not valid base64: {e}") from None
        if hashlib.blake2b(raw, digest_size=16).hexdigest() != block["digest"]:
            raise RecordError("the view's state does not match its digest")
        return self._first._view_from_block(raw, self.seat, self.actions, self.events)


def serve(make: Callable[[], Any], name: str, options: dict[str, Any],
          infile: BinaryIO, outfile: BinaryIO, lean: bool = True) -> int:
    """Speak the protocol on (infile, outfile) for the bot `make()` returns, until `quit` or
    the end of input; `lean` asks for lean messages (the view is all it needs). The bot is made before the handshake is answered, so a bot that cannot
    be made refuses the handshake with the reason. Returns the exit code."""

    def send(message: dict[str, Any]) -> None:
        outfile.write(P.encode(message))
        outfile.flush()

    me = os.getpid()

    def forked_child_ends() -> None:
        """A process the bot forked that comes back here ends at once: only one process
        speaks for the bot."""
        if os.getpid() != me:
            os._exit(0)

    try:
        bot = make()
        problem = None
    except BaseException as e:  # SystemExit of a factory too: the referee gets the reason
        forked_child_ends()
        bot, problem = None, _describe(e)
    forked_child_ends()
    game: _Game | None = None
    for raw in infile:
        try:
            message = lean_move(raw) or P.decode(raw)
        except P.ProtocolError as e:
            send({"type": "error", "message": f"the adapter cannot read the referee: {e}"})
            return 2
        kind = message["type"]
        if kind == "hello":
            if problem is not None:
                send({"type": "error", "message": problem})
                return 1
            send({"type": "hello", "protocol": P.PROTOCOL_VERSION, "name": name,
                  "options": options, "wants": [P.WANT_VIEW, P.WANT_LEAN] if lean else [P.WANT_VIEW]})
        elif kind == "game":
            # each game gets a bot made afresh (as a tournament made one per game in its own
            # process): a seeded bot plays every game the same whatever came before it
            if game is not None:
                try:
                    bot, problem = make(), None
                except BaseException as e:
                    bot, problem = None, _describe(e)
                forked_child_ends()
            game = _Game(message)
            restart = getattr(bot, "restart", None)
            if callable(restart):
                restart()
        elif kind == "update" and game is not None:
            game.update(message)
        elif kind == "move" and game is not None:
            try:
                if bot is None:
                    raise RuntimeError(f"the bot could not be made for this game: {problem}")
                view = game.view(message["view"])
                answer = bot.step(view)
                forked_child_ends()
                if isinstance(answer, bool):
                    raise TypeError(f"step() returned {answer!r}, not an action id")
                outfile.write(b'{"type":"action","action":%d}\n' % int(answer.__index__()))
                outfile.flush()
            except BaseException as e:
                forked_child_ends()
                send({"type": "error", "message": _describe(e)})
        elif kind == "quit":
            return 0
    return 0


def _describe(e: BaseException) -> str:
    text = "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-4)).strip()
    return text if len(text) <= 2000 else "..." + text[-2000:]


def bot_maker(spec: str) -> tuple[Callable[[], Any], str]:
    """(a function making the bot `spec` names, the name it gives in the handshake). A spec of
    the form `module:factory(...)` is a user's bot (`python:module:factory(...)`)."""
    from ai.bots import make_bot, parse_spec

    spec = spec.strip()
    head = spec.split("(", 1)[0]
    if ":" in head and not head.startswith("python:"):
        spec = "python:" + spec
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    name, _ = parse_spec(spec)
    return (lambda: make_bot(spec)), name


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m ladder.referee.adapter SPEC", file=sys.stderr)
        return 2
    infile, outfile = protocol_streams()
    make, name = bot_maker(args[0])
    return serve(make, name, {"spec": args[0]}, infile, outfile)


if __name__ == "__main__":
    sys.exit(main())
