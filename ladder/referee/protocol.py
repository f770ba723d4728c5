"""The bot protocol: versioned JSON lines between the referee and a bot's own process.

Every message is one JSON object on one line (UTF-8, ASCII-escaped by the referee), with a
`"type"`. The referee writes `hello`, `game`, `update`, `move`, `end` and `quit`; the bot
answers `hello` with `hello`, and each `move` with `action` (or `error`). docs/PROTOCOL.md is
the reference, with a transcript of a real game.

What a seat is sent is what the seat knows, nothing more:

- `public_board` is the board every seat sees (the hidden parts left out, never shown as
  drawn: a tianti view is a determinization, so this module does not read a view's hidden
  part);
- the public history and the events the seat saw arrive as `update`s, one per decision, each
  carrying only what changed (the referee's cost per message does not grow with the game);
- a tianti bot (the adapter) may ask for the view's compiled block (`"wants": ["view"]`): a
  determinization drawn from a seed of the referee's own (never the game's), with which it
  rebuilds a playable view.
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from typing import Any, Sequence

PROTOCOL_VERSION = 1
# The longest line a bot may write (its replies are short); longer is "invalid".
MAX_LINE = 1 << 16

# What a bot may ask for in its hello: the view's compiled block (with raw events), and lean
# messages (no board, no texts: ids and raw events only; for a bot that rebuilds its view).
WANT_VIEW = "view"
WANT_LEAN = "lean"


class ProtocolError(ValueError):
    """A line that is not a message of this protocol."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as its line (ASCII JSON, no spaces, ending with a newline)."""
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=True) + "\n").encode("ascii")


def decode(line: bytes | str) -> dict[str, Any]:
    """A line as a message (a JSON object with a string "type"); ProtocolError otherwise."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("the line is not UTF-8") from None
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        raise ProtocolError(f"not JSON: {_shown(line)}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"not a message (a JSON object with a \"type\"): {_shown(line)}")
    return message


def _shown(text: str, limit: int = 120) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "...")


# -- what a seat sees ------------------------------------------------------------------------

def public_board(state: Any, seat: int) -> Any:
    """The board as `seat` sees it, as plain JSON data, from the truth or from any view of the
    seat alike (tests/ladder/test_protocol.py checks both give the same document).

    - Mount Tai: `snapshot(hidden=False)`, which leaves out what no seat sees (the order of
      the face-down piles and of the building supply, the virtual player's undrawn tiles,
      face-down edicts shown as "?");
    - Dragon: `snapshot()`: its whole board is public (only the future splits of the action
      cards are unknown, and they are not in it);
    - any other game: `{"text": information_state_string(seat)}`."""
    name = getattr(state.game, "name", "")
    if name == "mount-tai":
        return state.snapshot(hidden=False)
    if name == "dragon":
        return state.snapshot()
    return {"text": state.information_state_string(seat)}


def _overrides_visibility(state: Any) -> bool:
    """Whether the game hides some events from some seats (overrides `_event_visible`)."""
    from engine.core.state import State

    return getattr(type(state), "_event_visible", None) is not getattr(State, "_event_visible")


class EventCoder:
    """Turns the events of one step into protocol events (and back into raw events, for the
    adapter's view record) with a game's `EventTable`."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self._kind_ids = {k.name: i for i, k in enumerate(table.kinds)}

    def raw(self, event: Any) -> list[int]:
        """The raw form (kind, seat, cause, a, b, c, d) of a decoded event."""
        kind_id = self._kind_ids.get(event.kind, -1)
        cause = -1
        if event.cause is not None and kind_id >= 0:
            kind = self.table.kinds[kind_id]
            causes = list(kind.causes if kind.causes is not None else self.table.causes)
            if event.cause in causes:
                cause = causes.index(event.cause)
            elif str(event.cause).startswith("cause "):
                cause = int(str(event.cause)[6:])
        values = [int(v) for v in event.amounts.values()] + [-1] * (4 - len(event.amounts))
        return [kind_id, -1 if event.seat is None else int(event.seat), cause, *values[:4]]

    def document(self, event: Any, with_raw: bool, lean: bool = False) -> dict[str, Any]:
        if lean:
            return {"raw": self.raw(event)}
        doc: dict[str, Any] = {"kind": event.kind, "seat": event.seat, "cause": event.cause,
                               "amounts": dict(event.amounts), "points": event.points,
                               "text": event.text}
        if with_raw:
            doc["raw"] = self.raw(event)
        return doc


def seen_events(state: Any, move: int, seat: int, coder: EventCoder,
                with_raw: bool = False, lean: bool = False) -> list[dict[str, Any]]:
    """The events of step `move` (-1: the setup) that `seat` saw, as protocol documents: only
    that step is read, so the cost does not grow with the game."""
    if _overrides_visibility(state):
        raws = state.raw_events()[move + 1]
        events = [state.EVENT_TABLE.decode(move, tuple(r)) for r in raws
                  if state._event_visible(tuple(r), seat)]
    else:
        events = state.events(move)
    return [coder.document(e, with_raw, lean) for e in events]


def seen_raw_events(state: Any, move: int, seat: int) -> list[tuple[int, ...]]:
    """The raw events of step `move` (-1: the setup) that `seat` saw, as the seat's view holds
    them (seven integers each, engine/core/VIEWS.md): what a lean update carries. Only that step
    is read (the cost does not grow with the game)."""
    own = getattr(state, "seen_raw_events", None)
    if own is not None:
        return own(move, seat)
    raws = state.raw_events()[move + 1]  # an engine built before seen_raw_events
    return [tuple(r) for r in raws if state._event_visible(tuple(r), seat)]


def _ints(values: Sequence[int]) -> str:
    return ",".join([str(int(v)) for v in values])


def _int_or_null(value: int | None) -> str:
    return "null" if value is None else str(int(value))


def lean_update_line(move: int, player: int | None, action: int | None,
                     raws: Sequence[Sequence[int]]) -> bytes:
    """`encode(update_message(...))` of a lean update (no text, events as `{"raw": [...]}`),
    written without the json module: the same bytes (tests/ladder/test_protocol.py checks),
    made at a fraction of the cost, since it is made for every seat at every decision."""
    if all(len(r) == 7 for r in raws):  # every event's raw form (bytes formatting: faster)
        events = b",".join([b'{"raw":[%d,%d,%d,%d,%d,%d,%d]}' % tuple(r) for r in raws])
    else:
        events = ",".join(['{"raw":[' + _ints(r) + "]}" for r in raws]).encode("ascii")
    return (b'{"type":"update","move":%d,"player":%b,"action":%b,"text":null,"events":[%b]}\n'
            % (move, _NULL if player is None else b"%d" % player,
               _NULL if action is None else b"%d" % action, events))


_NULL = b"null"


def lean_move_line(move: int, legal: Sequence[int], time_ms: float | None,
                   view: dict[str, str] | None) -> bytes:
    """`encode(move_message(...))` of a lean move (no board, legal actions as `[id, null]`),
    written without the json module: the same bytes (tests/ladder/test_protocol.py checks)."""
    pairs = ",".join(["[%d,null]" % a for a in legal])
    tail = "" if view is None else (f',"view":{{"state":{_string(view["state"])},'
                                    f'"digest":{_string(view["digest"])}}}')
    limit = "null" if time_ms is None else (repr(float(time_ms)) if math.isfinite(time_ms)
                                            else json.dumps(time_ms))
    return (f'{{"type":"move","move":{int(move)},"time_ms":{limit},'
            f'"legal":[{pairs}],"board":null,"private":{{}}{tail}}}\n').encode("ascii")


def _string(text: str) -> str:
    """A JSON string: base64 and hex (a view block's) as they are, anything else escaped."""
    plain = text.isascii() and not text.encode("ascii").translate(None, _PLAIN_BYTES)
    return f'"{text}"' if plain else json.dumps(text)


# The characters of base64 and hex, which JSON writes as they are (a bytes deletion table:
# checking a whole view block this way costs a fraction of a regular expression's scan).
_PLAIN_BYTES = (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
_ACTION = re.compile(rb'\{"type":"action","action":(0|[1-9][0-9]{0,17})\}')


def decode_reply(line: bytes) -> dict[str, Any]:
    """`decode` of a bot's line, with the usual answer to a move (`{"type":"action",
    "action":N}` written exactly so, as the adapter and most bots write it) read without the
    json module."""
    match = _ACTION.fullmatch(line.strip())
    if match is not None:
        return {"type": "action", "action": int(match.group(1))}
    return decode(line)


def legal_documents(view: Any, lean: bool = False) -> list[list[Any]]:
    """The legal actions of the seat to move as [id, text] pairs ([id, null] when lean)."""
    if lean:
        return [[a, None] for a in view.legal_actions()]
    return [[a, view.action_to_string(a)] for a in view.legal_actions()]


def view_block(view: Any) -> dict[str, str]:
    """A view's compiled block (base64) and digest: what, with the public history and the seen
    events the bot already holds, makes a `tianti-view` record (engine/core/VIEWS.md)."""
    raw = view.raw_bytes()
    return {"state": base64.b64encode(raw).decode("ascii"),
            "digest": hashlib.blake2b(raw, digest_size=16).hexdigest()}


# -- the messages ------------------------------------------------------------------------------

def hello(referee: str) -> dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "referee": referee}


def game_message(game: str, options: dict[str, Any], players: int, seat: int,
                 move_ms: float | None, number: int) -> dict[str, Any]:
    return {"type": "game", "number": number, "game": game, "options": options,
            "players": players, "seat": seat, "time": {"move_ms": move_ms}}


def update_message(move: int, player: int | None, action: int | None, text: str | None,
                   events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "update", "move": move, "player": player, "action": action, "text": text,
            "events": events}


def move_message(move: int, board: Any, legal: list[list[Any]], time_ms: float | None,
                 view: dict[str, str] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "move", "move": move, "time_ms": time_ms,
                               "legal": legal, "board": board, "private": {}}
    if view is not None:
        message["view"] = view
    return message


def end_message(scores: Sequence[int], ranks: Sequence[int]) -> dict[str, Any]:
    return {"type": "end", "scores": [int(s) for s in scores], "ranks": [int(r) for r in ranks]}


QUIT: dict[str, Any] = {"type": "quit"}
