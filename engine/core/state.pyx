# cython: language_level=3
"""The Python-facing `State`: OpenSpiel's State API over a game's compiled C state.

Everything here is generic: the rules are reached only through the game's `GameDef`. Games
subclass `State` for what needs their own struct (board text, action names, snapshots).

Two faces of the engine live here besides the OpenSpiel API:
- Events: every `apply_action` (and a game's setup) records the rule events the compiled rules
  emit (engine/core/eventlog.pxd); `events()` reads them as `engine.core.events.Event`s.
- Views: `resample_from_infostate(seat, seed)` returns a view (see engine/core/VIEWS.md): what
  that seat knows, everything else drawn afresh, with no seed, record or accessor that leads
  back to the true game.
"""

import base64
import copy
import hashlib
import json
import operator
import os

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset, memcmp
from libc.stdint cimport uint64_t

from engine.core.interface cimport GameDef, TERMINAL_PLAYER, MAX_GAME_PLAYERS
from engine.core.rng cimport Rng, rng_seed
from engine.core.eventlog cimport EventLog, RawEvent, ev_attach
from engine.core.args import as_index, check_seat, safe_repr as _safe_repr
from engine.core.errors import IllegalActionError, RecordError
from engine.core.events import EMPTY_TABLE, Event

TERMINAL = TERMINAL_PLAYER
RECORD_FORMAT = "tianti-record"
RECORD_VERSION = 3
# Record versions `from_record` replays. Version 1: records written before the rules change of
# issue 13; version 2: before that of issue 36 (Mount Tai's year-one 高矣). They replay under the
# old rules (each game's `_legacy_record_options` and `_legacy_record_fill` say how), and such a
# state's `to_record` is a current record of the same game.
RECORD_VERSIONS = (1, 2, 3)
VIEW_FORMAT = "tianti-view"
VIEW_VERSION = 1
_SEED_LIMIT = 1 << 64
_INT_MIN = -(1 << 31)
_INT_MAX = (1 << 31) - 1


# What a new state starts from (shared; never changed in place).
_NO_ACTIONS = []
_NO_EVENTS = [[]]
# Game classes copied as plain objects (no copying hooks of their own), by class.
_PLAIN_GAMES = {}


def _own_game(game):
    """A copy of `game` with its own options dict: a state handed to a bot must not share the
    Game object (and its options) with the referee's state. (What `copy.copy` does for a plain
    Game, without its generic machinery: it runs for every view.)"""
    cls = type(game)
    plain = _PLAIN_GAMES.get(cls)
    if plain is None:
        plain = _PLAIN_GAMES[cls] = not hasattr(cls, "__slots__") and all(
            getattr(cls, name, None) is getattr(object, name, None)
            for name in ("__copy__", "__reduce__", "__reduce_ex__", "__getstate__",
                         "__setstate__", "__new__"))
    if plain:
        other = object.__new__(cls)
        other.__dict__.update(game.__dict__)
    else:
        other = copy.copy(game)
    other.options = dict(game.options)
    return other


def normalize_seed(seed) -> int:
    """A seed as an unsigned 64-bit int; None draws one from the operating system (below 2**63,
    so that it fits the store's SQLite integers)."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little") >> 1
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed < _SEED_LIMIT:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed


cdef class State:
    """A game position; see DESIGN.md ("The engine interface") for the API."""

    # The game's event kinds (games set their own table).
    EVENT_TABLE = EMPTY_TABLE

    def __init__(self, *args, **kwargs):
        raise TypeError(
            f"{type(self).__name__} is not made directly: use load_game(...).new_initial_state()"
            " or State.from_json()"
        )

    def __cinit__(self):
        self.data = NULL
        self.buf = NULL
        self.seed = None
        self.viewer = None
        # a new state shares empty lists (never changed: copied on the first change), so that
        # the views and clones that set their own make no list they do not keep
        self._history = _NO_ACTIONS
        self._nhist = 0
        self._resamples = _NO_ACTIONS
        self._events = _NO_EVENTS
        self._nev = 1
        self._events_lent = False
        self._seen = None

    def __dealloc__(self):
        free(self.data)
        free(self.buf)

    cdef void _bind(self, const GameDef* gdef, object game) except *:
        self.gdef = gdef
        self._game = game
        self.data = malloc(gdef.state_size)
        self.buf = <int*>malloc(gdef.max_legal_actions * sizeof(int))
        if self.data == NULL or self.buf == NULL:
            raise MemoryError()
        memset(self.data, 0, gdef.state_size)

    cdef State _blank(self):
        return type(self).__new__(type(self))

    @property
    def game(self):
        """The Game (name, options) this state belongs to. A copy or a view has a Game object of
        its own (made when first asked for: most views are played without it), so that nothing
        done to it reaches the state it was made from."""
        if self._game is None:
            self._game = _own_game(self._game_of)
            self._game_of = None
        return self._game

    cdef object _source_game(self):
        """The Game a copy or view of this state copies (its own or, not yet copied, its
        source's)."""
        return self._game if self._game is not None else self._game_of

    cdef EventLog* _log_begin(self, EventLog* log) noexcept:
        log.n = 0
        log.dropped = 0
        return ev_attach(log)

    cdef void _log_end(self, EventLog* log, EventLog* previous, bint setup) except *:
        cdef int i
        cdef RawEvent* e
        ev_attach(previous)
        step = []
        for i in range(log.n):
            e = &log.ev[i]
            step.append((e.kind, e.seat, e.cause, e.a, e.b, e.c, e.d))
        if log.dropped:
            raise RuntimeError(f"the event log overflowed ({log.dropped} events lost): a bug")
        if setup:
            self._events = [step]
            self._nev = -1
            self._events_lent = False
            self._seen = None
        else:
            self._own_events().append(step)

    cdef list _own_history(self):
        if self._nhist >= 0:
            self._history = self._history[:self._nhist]
            self._nhist = -1
        return self._history

    cdef list _own_events(self):
        if self._nev >= 0:
            self._events = self._events[:self._nev]
            self._nev = -1
        return self._events

    cdef Py_ssize_t _n_events(self):
        return self._nev if self._nev >= 0 else len(self._events)

    cdef void _extend_last_events(self, list raw) except *:
        events = self._own_events()
        if self._events_lent:  # others read its entries: a new list of its own
            self._events = events = list(events)
            self._events_lent = False
        last = len(events) - 1  # (no negative index: wraparound is off in the games)
        events[last] = list(events[last]) + raw
        self._seen = None  # the steps seen so far changed: filtered again when asked

    cdef list _seen_by(self, int seat):
        cdef Py_ssize_t i, n = self._nev if self._nev >= 0 else len(self._events)
        if self._seen is None:
            self._seen = [None] * MAX_GAME_PLAYERS
        seen = self._seen[seat]
        if seen is None:
            self._seen[seat] = seen = []
        # Only the steps since the last view of this seat are filtered: a view costs the same
        # at any move. The list only grows, so the views made from it share it.
        for i in range(len(seen), n):
            seen.append([raw for raw in self._events[i] if self._event_visible(raw, seat)])
        return seen

    def seat_index(self, value, str what="player") -> int:
        """`value` as a seat of this game: TypeError for a non-integer, ValueError naming `what`
        and the allowed range for an integer that is not a seat."""
        return check_seat(self, value, what)

    # -- the game flow --------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to decide now, or TERMINAL (-4) once the game is over."""
        return self.gdef.current_player(self.data)

    def num_players(self) -> int:
        return self.gdef.num_players(self.data)

    def is_terminal(self) -> bool:
        return bool(self.gdef.is_terminal(self.data))

    def legal_actions(self) -> list:
        """The legal actions of the player to move, ascending ([] once the game is over)."""
        cdef int n = self.gdef.legal_actions(self.data, self.buf)
        return [self.buf[i] for i in range(n)]

    cdef bint _legal_int(self, object v) except -1:
        """Whether the Python int `v` is one of the legal actions."""
        cdef int i, n
        if not _INT_MIN <= v <= _INT_MAX:
            return False
        cdef int a = v
        n = self.gdef.legal_actions(self.data, self.buf)
        for i in range(n):
            if self.buf[i] == a:
                return True
        return False

    def is_legal(self, action) -> bool:
        """Whether `action` (an integer, not a bool) is legal now; never raises."""
        if type(action) is int:  # the common case without a call (a bool's type is bool)
            return self._legal_int(action)
        try:
            v = as_index(action, "action")
        except TypeError:
            return False
        return self._legal_int(v)

    def apply_action(self, action) -> None:
        """Play `action` (an int from legal_actions()). An illegal one raises
        IllegalActionError and leaves the state unchanged. The argument is converted to an int
        once: the value checked is the value played. The rule events of the steps that follow
        are then `events()`."""
        cdef EventLog log
        cdef EventLog* previous
        if type(action) is int:  # the common case without a call (a bool's type is bool)
            v = action
        else:
            try:
                v = as_index(action, "action")
            except TypeError as e:
                raise IllegalActionError(
                    f"action {_safe_repr(action)} is not legal: {e}") from None
        if not self._legal_int(v):
            raise IllegalActionError(self._illegal_message(v))
        cdef int a = v
        previous = self._log_begin(&log)
        self.gdef.apply_action(self.data, a)
        self._own_history().append(a)
        self._log_end(&log, previous, False)

    def _illegal_message(self, action) -> str:
        action = _safe_repr(action) if not isinstance(action, int) else action
        if self.is_terminal():
            return f"action {action!r} is not legal: the game is over"
        legal = self.legal_actions()
        shown = ", ".join(f"{a} ({self.action_to_string(a)})" for a in legal[:12])
        more = f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
        return (
            f"action {action!r} is not legal for player {self.current_player()} "
            f"({self.decision_name()}); legal actions: {shown}{more}"
        )

    def decision_name(self) -> str:
        """What kind of decision is due now, in words (games override)."""
        return "decision"

    def history(self) -> list:
        """The actions applied since the initial state."""
        if self._nhist >= 0:
            return self._history[:self._nhist]
        return list(self._history)

    def move_number(self) -> int:
        return self._nhist if self._nhist >= 0 else len(self._history)

    # -- events ---------------------------------------------------------------------------------

    def events(self, move=None) -> list:
        """The rule events of the last decision's automatic steps (before any decision: the
        setup's); with `move`, those of decision number `move` (-1: the setup)."""
        cdef Py_ssize_t moves = self.move_number()
        if move is None:
            move = moves - 1
        m = as_index(move, "move")
        if not -1 <= m < moves:
            raise ValueError(f"move must be in -1..{moves - 1}, got {m}")
        # read in place: a copy's or view's shared past is its prefix, copied only to change it
        if m + 1 >= self._n_events():  # a view restored without events of the past
            return []
        table = self.EVENT_TABLE
        return [table.decode(m, raw) for raw in self._events[m + 1]]

    def event_history(self) -> list:
        """Every rule event since the setup, in order (each knows its `move`)."""
        cdef Py_ssize_t i
        table = self.EVENT_TABLE
        events = self._events  # read in place (its first `_n_events()` steps are this state's)
        return [table.decode(i - 1, raw) for i in range(self._n_events()) for raw in events[i]]

    def raw_events(self) -> list:
        """The raw events per step ([0] the setup, [i + 1] decision i), as (kind, seat, cause,
        a, b, c, d) tuples: the compact form records and tests use."""
        cdef Py_ssize_t i
        events = self._events  # read in place (its first `_n_events()` steps are this state's)
        return [list(events[i]) for i in range(self._n_events())]

    def seen_raw_events(self, move, seat) -> list:
        """The raw events of decision `move` (-1: the setup) that `seat` saw, as tuples (what a
        view of the seat holds for that step): only that step is read, so the cost does not
        grow with the game (the bot protocol sends them one step at a time). `move` None: the
        last step, as `events()` reads it."""
        cdef Py_ssize_t n = self.move_number()
        m = n - 1 if move is None else as_index(move, "move")
        if not -1 <= m < n:
            raise ValueError(f"move must be in -1..{n - 1}, got {m}")
        cdef int s = self.seat_index(seat, "seat")
        # a copy or view reads only its own prefix of a shared list (_nev, see state.pxd)
        if m + 1 >= (self._nev if self._nev >= 0 else len(self._events)):
            return []
        return [raw for raw in self._events[m + 1] if self._event_visible(raw, s)]

    def _event_visible(self, tuple raw, int seat) -> bool:
        """Whether `seat` saw event `raw` happen (games with private events override)."""
        return True

    # -- outcome --------------------------------------------------------------------------------

    def returns(self) -> list:
        """1 for the winner, 0 for the others (ties after the tie-break share the point);
        all zeros before the end."""
        cdef double out[MAX_GAME_PLAYERS]
        cdef int n = self.gdef.num_players(self.data)
        if not self.gdef.is_terminal(self.data):
            return [0.0] * n
        self.gdef.returns(self.data, out)
        return [out[i] for i in range(n)]

    def scores(self) -> list:
        """Victory points per seat (the final totals once the game is over)."""
        cdef double out[MAX_GAME_PLAYERS]
        cdef int n = self.gdef.num_players(self.data)
        self.gdef.scores(self.data, out)
        return [int(out[i]) for i in range(n)]

    def ranks(self) -> list:
        """Finishing position per seat, 0 = first (by the current scores before the end)."""
        cdef int out[MAX_GAME_PLAYERS]
        cdef int n = self.gdef.num_players(self.data)
        self.gdef.ranks(self.data, out)
        return [out[i] for i in range(n)]

    # -- game knowledge (for bots and tests) ----------------------------------------------------

    def move_prior(self) -> list | None:
        """The game's prior weight of each legal action (in legal_actions order), or None if
        the game has no move prior."""
        cdef int n
        cdef double* out
        if self.gdef.move_prior == NULL or self.gdef.is_terminal(self.data):
            return None
        n = self.gdef.legal_actions(self.data, self.buf)
        out = <double*>malloc(n * sizeof(double))
        if out == NULL:
            raise MemoryError()
        try:
            self.gdef.move_prior(self.data, self.buf, n, out)
            return [out[i] for i in range(n)]
        finally:
            free(out)

    def evaluate(self) -> list | None:
        """The game's heuristic value per seat in [0, 1], or None if it has none."""
        cdef double out[MAX_GAME_PLAYERS]
        if self.gdef.evaluate == NULL:
            return None
        self.gdef.evaluate(self.data, out)
        return [out[i] for i in range(self.gdef.num_players(self.data))]

    def chance_signature(self, player) -> int | None:
        """The id of the hidden-at-deal things seen so far (GameDef.chance_signature: public,
        the same in every determinization of `player`'s information set until a hidden choice
        is shown), or None if the game keys none. What the search's chance nodes branch on."""
        cdef int p = self.seat_index(player)
        if self.gdef.chance_signature == NULL:
            return None
        return self.gdef.chance_signature(self.data, p)

    def action_key(self, action) -> int:
        """What the legal `action` does, as an id the search keys its tree by
        (GameDef.action_key): the same in every determinization of the mover's information set
        for actions that do the same thing; the action itself where the game names every
        action by what it does. IllegalActionError for an action that is not legal now."""
        try:
            v = as_index(action, "action")
        except TypeError as e:
            raise IllegalActionError(f"action {_safe_repr(action)} is not legal: {e}") from None
        if not self._legal_int(v):
            raise IllegalActionError(self._illegal_message(v))
        if self.gdef.action_key == NULL:
            return v
        return self.gdef.action_key(self.data, v)

    # -- copies and determinization -------------------------------------------------------------

    def clone(self) -> State:
        """A deep, independent copy (history and events included; a view's clone is a view)."""
        cdef State other = self._blank()
        other._bind(self.gdef, None)
        other._game_of = self._source_game()
        self.gdef.copy_state(self.data, other.data)
        other.seed = self.seed
        other.viewer = self.viewer
        # the past is shared, not copied: each reads its own prefix, and copies it to change it
        other._history = self._history
        other._nhist = self.move_number()
        other._events = self._events
        other._nev = self._nev if self._nev >= 0 else len(self._events)
        if self._nev < 0:
            self._events_lent = True
        if self._resamples:
            other._resamples = [list(r) for r in self._resamples]
        return other

    def is_view(self) -> bool:
        """Whether this is a seat's view (from `resample_from_infostate`), not a true game."""
        return self.viewer is not None

    def resample_from_infostate(self, player, seed) -> State:
        """A view of `player`'s seat: a full state equal to this one in everything `player`
        knows (the board, the public history, the events it saw), with everything hidden or not
        yet drawn drawn afresh from `seed`. It carries no seed or record of this game: its
        `to_json` restores the view, never the truth (engine/core/VIEWS.md)."""
        cdef Rng rng
        cdef int seat
        if type(player) is int and 0 <= player < self.gdef.num_players(self.data):
            seat = player  # the common case without a call
        else:
            seat = self.seat_index(player, "player")
        cdef uint64_t s = normalize_seed(seed)
        cdef State other = self._blank()
        other._bind(self.gdef, None)
        other._game_of = self._source_game()
        self.gdef.copy_state(self.data, other.data)
        rng_seed(&rng, s)
        self.gdef.determinize(other.data, seat, &rng)
        other.seed = None
        other.viewer = seat
        # The public history and the seen events are shared with this state, not copied (a
        # view costs the same at any move): the view reads its own prefix of lists that only
        # grow at their end, and copies them before it changes them (VIEWS.md, "A view").
        other._history = self._history
        other._nhist = self.move_number()
        other._nev = self._nev if self._nev >= 0 else len(self._events)
        if type(self)._event_visible is State._event_visible:  # the game shows every event
            other._events = self._events
            if self._nev < 0:
                self._events_lent = True
        else:
            other._events = self._seen_by(seat)
        return other

    # -- records --------------------------------------------------------------------------------

    def to_record(self) -> dict:
        """The game record: options, seed and actions, which `from_record` replays to this very
        state. A view's record is its own (`tianti-view`: the view's compiled state, the public
        history and the events its seat saw), and restores the view, not the game."""
        if self.viewer is not None:
            return self._view_record()
        record = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": dict(self.game.options),
            "seed": self.seed,
            "actions": self.history(),
        }
        if self._resamples:
            record["resamples"] = [list(r) for r in self._resamples]
        return record

    def to_json(self) -> str:
        return json.dumps(self.to_record(), separators=(",", ":"))

    def _view_record(self) -> dict:
        raw = self.raw_bytes()
        return {
            "format": VIEW_FORMAT,
            "version": VIEW_VERSION,
            "game": self.game.name,
            "options": dict(self.game.options),
            "viewer": self.viewer,
            "actions": self.history(),
            "events": [[list(e) for e in self._events[i]] for i in range(self._n_events())],
            "state": base64.b64encode(raw).decode("ascii"),
            "digest": hashlib.blake2b(raw, digest_size=16).hexdigest(),
        }

    def _validate_raw(self) -> list:
        """Problems with this state's compiled block (games override with their invariant
        checks); a restored view must pass them before it is used."""
        return []

    @staticmethod
    def _view_from_record(dict record) -> State:
        from engine.registry import load_game

        for key in ("game", "options", "viewer", "actions", "state", "digest"):
            if key not in record:
                raise RecordError(f"view record lacks the field {key!r}")
        if not isinstance(record["options"], dict):
            raise RecordError("the record's 'options' must be an object")
        try:
            game = load_game(record["game"], **record["options"])
        except ValueError as e:
            raise RecordError(f"the record's game cannot be loaded: {e}") from None
        cdef State state = game.new_initial_state(0)
        try:
            raw = base64.b64decode(record["state"], validate=True)
        except (TypeError, ValueError) as e:
            raise RecordError(f"the view's state is not valid base64: {e}") from None
        if len(raw) != state.gdef.state_size:
            raise RecordError(
                f"the view's state has {len(raw)} bytes; {record['game']} needs "
                f"{state.gdef.state_size}"
            )
        if hashlib.blake2b(raw, digest_size=16).hexdigest() != record["digest"]:
            raise RecordError("the view's state does not match its digest (the file was changed)")
        actions = record["actions"]
        if not isinstance(actions, list) or any(
            isinstance(a, bool) or not isinstance(a, int) for a in actions
        ):
            raise RecordError("the record's 'actions' must be a list of integers")
        events = record.get("events", [])
        if not isinstance(events, list) or any(
            not isinstance(step, list)
            or any(not isinstance(e, list) or len(e) != 7
                   or any(isinstance(x, bool) or not isinstance(x, int) for x in e) for e in step)
            for step in events
        ):
            raise RecordError("the record's 'events' must be lists of 7 integers per event")
        state._fill_view(raw, record["viewer"])
        state._history = list(actions)
        state._nhist = -1
        state._events = [[tuple(e) for e in step] for step in events] or [[]]
        state._nev = -1
        state._seen = None
        return state

    cdef void _fill_view(self, bytes raw, object viewer) except *:
        """This state becomes a view of `viewer` holding the compiled block `raw` (its size
        already checked): RecordError for a viewer that is not a seat or a block that breaks
        the game's invariants. What `from_record` and `_view_from_block` share."""
        memcpy(self.data, <const char*>raw, self.gdef.state_size)
        try:
            seat = self.seat_index(viewer, "viewer")
        except (TypeError, ValueError) as e:
            raise RecordError(f"the view's {e}") from None
        problems = self._validate_raw()
        if problems:
            raise RecordError(f"the view's state is inconsistent: {problems[0]}")
        self.seed = None
        self.viewer = seat

    def _view_from_block(self, raw, viewer, list actions, list events) -> State:
        """A view of `viewer`'s seat in this state's game from the parts of a `tianti-view`
        record already read and checked by the caller: the compiled block (`raw`, bytes), the
        public history (`actions`, ints) and the seen events (`events`, one list of 7-int tuples
        per step, kept as given: they are never changed in place). The bot adapter builds one
        per decision this way, without decoding and checking the whole record again (a cost
        that grew with the game). RecordError if the block does not fit the game or breaks its
        invariants, as `from_record` would say."""
        if not isinstance(raw, bytes):
            raise RecordError(f"the view's state must be bytes, not {type(raw).__name__}")
        cdef bytes block = raw
        if len(block) != self.gdef.state_size:
            raise RecordError(
                f"the view's state has {len(block)} bytes; {self.game.name} needs "
                f"{self.gdef.state_size}"
            )
        cdef State other = self._blank()
        other._bind(self.gdef, _own_game(self.game))
        other._fill_view(block, viewer)
        other._history = list(actions)
        other._events = list(events) or [[]]
        other._nhist = -1  # both lists are this view's own (state.pxd) ...
        other._nev = -1
        other._events_lent = True  # ... but their steps are the caller's: never changed in place
        return other

    @staticmethod
    def from_record(record) -> State:
        """Replay a record (a dict as `to_record` gives), or restore a view from its record;
        RecordError says what is wrong."""
        from engine.registry import game_class, load_game

        if not isinstance(record, dict):
            raise RecordError(f"a game record must be a JSON object, got {type(record).__name__}")
        if record.get("format") == VIEW_FORMAT:
            return State._view_from_record(record)
        if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise RecordError(f"not a tianti game record (format {record.get('format')!r})")
        for key in ("game", "options", "seed", "actions"):
            if key not in record:
                raise RecordError(f"game record lacks the field {key!r}")
        version = record.get("version", RECORD_VERSION)
        if isinstance(version, bool) or version not in RECORD_VERSIONS:
            raise RecordError(
                f"the record's version is {version!r}; this tianti replays versions "
                f"{', '.join(map(str, RECORD_VERSIONS))}")
        options = record["options"]
        if not isinstance(options, dict):
            raise RecordError("the record's 'options' must be an object")
        try:
            if version < RECORD_VERSION:
                options = game_class(record["game"])._legacy_record_options(dict(options), version)
            game = load_game(record["game"], **options)
        except ValueError as e:
            raise RecordError(f"the record's game cannot be loaded: {e}") from None
        try:
            state = game.new_initial_state(record["seed"])
        except ValueError as e:
            raise RecordError(f"the record's seed is invalid: {e}") from None
        actions = record["actions"]
        if not isinstance(actions, list):
            raise RecordError("the record's 'actions' must be a list of integers")
        resamples = record.get("resamples", [])
        if not isinstance(resamples, list) or any(
            not isinstance(r, list) or len(r) != 3 or not all(isinstance(x, int) for x in r)
            for r in resamples
        ):
            raise RecordError("the record's 'resamples' must be a list of [move, player, seed]")
        pending = sorted(resamples)
        for i, a in enumerate(actions):
            while pending and pending[0][0] == i:
                _, player, seed = pending.pop(0)
                state = _resampled(state, player, seed)
            if isinstance(a, bool) or not isinstance(a, int):
                raise RecordError(f"action #{i} of the record is {a!r}, not an integer")
            try:
                state.apply_action(a)
                if version < RECORD_VERSION:
                    # Decisions the older rules took by themselves: applied here, so they are
                    # in the history (and the state's own record) but not the record's indices.
                    for b in game._legacy_record_fill(
                            state, version, actions[i + 1] if i + 1 < len(actions) else None):
                        state.apply_action(b)
            except IllegalActionError as e:
                raise RecordError(f"action #{i} of the record does not replay: {e}") from None
        for _, player, seed in pending:
            if _ != len(actions):
                raise RecordError(f"a resample at move {_} is past the record's end")
            state = _resampled(state, player, seed)
        return state

    @staticmethod
    def from_json(text) -> State:
        """Replay a JSON game record (see `to_json`)."""
        try:
            record = json.loads(text)
        except (TypeError, json.JSONDecodeError) as e:
            raise RecordError(f"the game record is not valid JSON: {e}") from None
        except RecursionError:
            raise RecordError("the game record is not valid JSON: nested too deeply") from None
        return State.from_record(record)

    def __reduce__(self):
        return (_from_json, (self.to_json(),))

    # -- text -----------------------------------------------------------------------------------

    def action_to_string(self, action) -> str:
        """The action in words (games override)."""
        return str(action)

    def string_to_action(self, text) -> int:
        """An action from its number, its name (as action_to_string gives it) or an unambiguous
        prefix of the name, among the legal actions; ValueError otherwise."""
        legal = self.legal_actions()
        t = str(text).strip()
        if t.lstrip("-").isdigit():
            a = int(t)
            if a in legal:
                return a
            raise IllegalActionError(self._illegal_message(a))
        shown = {a: self.action_to_string(a) for a in legal}
        names = {a: name.lower() for a, name in shown.items()}
        key = t.lower()
        exact = [a for a, name in names.items() if name == key]
        if len(exact) == 1:
            return exact[0]
        prefixed = [a for a, name in names.items() if name.startswith(key)]
        if len(prefixed) == 1:
            return prefixed[0]
        def listing(actions):
            names = [shown[a] for a in actions]
            more = f"; ... ({len(names)} in all)" if len(names) > 8 else ""
            return "; ".join(names[:8]) + more
        if not prefixed:
            raise IllegalActionError(f"no legal action is called {t!r}; legal: {listing(legal)}")
        raise IllegalActionError(f"{t!r} is ambiguous: {listing(prefixed)}")

    def information_state_string(self, player) -> str:
        """Everything `player` knows, as text (games override)."""
        raise NotImplementedError

    # -- raw access -----------------------------------------------------------------------------

    @property
    def state_size(self) -> int:
        """Bytes of the compiled state."""
        return self.gdef.state_size

    def raw_bytes(self) -> bytes:
        """The compiled state as bytes (equal bytes = identical states)."""
        return (<char*>self.data)[:self.gdef.state_size]

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        cdef State o = <State>other
        return (
            o.gdef == self.gdef
            and memcmp(o.data, self.data, self.gdef.state_size) == 0
        )

    __hash__ = None

    def __repr__(self) -> str:
        view = "" if self.viewer is None else f" view of P{self.viewer}"
        return (
            f"<{type(self).__name__} {self.game.name} players={self.num_players()} "
            f"move={self.move_number()}{' over' if self.is_terminal() else ''}{view}>"
        )


def stored_record(str game, dict options, seed, list actions) -> dict:
    """The game record of a game kept without a record version (a ladder store's row: the
    game's complete options, its seed and decisions): the game says which version they were
    written under."""
    from engine.registry import game_class

    return {"format": RECORD_FORMAT,
            "version": game_class(game)._stored_record_version(options, actions),
            "game": game, "options": options, "seed": seed, "actions": actions}


def legacy_fill(State state, int version, next_action) -> tuple:
    """Replaying a record of an older `version` step by step: the decisions the older rules took
    by themselves after the action just applied to `state` (`next_action`: the record's next
    one, None at its end), as `from_record` applies them."""
    if version >= RECORD_VERSION:
        return ()
    return tuple(state.game._legacy_record_fill(state, version, next_action))


def _resampled(State state, player, seed) -> State:
    """A record's determinization entry replayed (records written before views existed)."""
    try:
        return state.resample_from_infostate(player, seed)
    except (TypeError, ValueError) as e:
        raise RecordError(f"a resample entry of the record is invalid: {e}") from None


def _from_json(text):
    return State.from_json(text)
