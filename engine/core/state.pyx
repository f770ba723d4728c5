# cython: language_level=3
"""The Python-facing `State`: OpenSpiel's State API over a game's compiled C state.

Everything here is generic: the rules are reached only through the game's `GameDef`. Games
subclass `State` for what needs their own struct (board text, action names, snapshots).
"""

import json
import operator
import os

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset, memcmp
from libc.stdint cimport uint64_t

from engine.core.interface cimport GameDef, TERMINAL_PLAYER, MAX_GAME_PLAYERS
from engine.core.rng cimport Rng, rng_seed
from engine.core.errors import IllegalActionError, RecordError

TERMINAL = TERMINAL_PLAYER
RECORD_FORMAT = "tianti-record"
RECORD_VERSION = 1
_SEED_LIMIT = 1 << 64


def normalize_seed(seed) -> int:
    """A seed as an unsigned 64-bit int; None draws one from the operating system."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed < _SEED_LIMIT:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed


cdef class State:
    """A game position; see DESIGN.md ("The engine interface") for the API."""

    def __cinit__(self):
        self.data = NULL
        self.buf = NULL
        self._history = []
        self._resamples = []

    def __dealloc__(self):
        free(self.data)
        free(self.buf)

    cdef void _bind(self, const GameDef* gdef, object game) except *:
        self.gdef = gdef
        self.game = game
        self.data = malloc(gdef.state_size)
        self.buf = <int*>malloc(gdef.max_legal_actions * sizeof(int))
        if self.data == NULL or self.buf == NULL:
            raise MemoryError()
        memset(self.data, 0, gdef.state_size)

    cdef State _blank(self):
        return type(self).__new__(type(self))

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

    def is_legal(self, action) -> bool:
        cdef int i, a, n
        try:
            a = operator.index(action)
        except TypeError:
            return False
        if isinstance(action, bool):
            return False
        n = self.gdef.legal_actions(self.data, self.buf)
        for i in range(n):
            if self.buf[i] == a:
                return True
        return False

    def apply_action(self, action) -> None:
        """Play `action` (an int from legal_actions()). An illegal one raises
        IllegalActionError and leaves the state unchanged."""
        if not self.is_legal(action):
            raise IllegalActionError(self._illegal_message(action))
        a = operator.index(action)
        self.gdef.apply_action(self.data, a)
        self._history.append(a)

    def _illegal_message(self, action) -> str:
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
        return list(self._history)

    def move_number(self) -> int:
        return len(self._history)

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

    # -- copies and determinization -------------------------------------------------------------

    def clone(self) -> State:
        """A deep, independent copy (history included)."""
        cdef State other = self._blank()
        other._bind(self.gdef, self.game)
        self.gdef.copy_state(self.data, other.data)
        other.seed = self.seed
        other._history = list(self._history)
        other._resamples = [list(r) for r in self._resamples]
        return other

    def resample_from_infostate(self, int player, seed) -> State:
        """A determinization: a full state equal to this one in everything `player` knows, with
        everything hidden or not yet drawn drawn afresh from `seed`."""
        cdef Rng rng
        cdef uint64_t s = normalize_seed(seed)
        n = self.num_players()
        if not 0 <= player < n:
            raise ValueError(f"player must be a seat in 0..{n - 1}, got {player}")
        cdef State other = self.clone()
        rng_seed(&rng, s)
        self.gdef.determinize(other.data, player, &rng)
        other._resamples.append([len(self._history), player, s])
        return other

    # -- records --------------------------------------------------------------------------------

    def to_record(self) -> dict:
        """The game record: options, seed and actions (plus any determinizations), which
        `from_record` replays to this very state."""
        record = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": dict(self.game.options),
            "seed": self.seed,
            "actions": list(self._history),
        }
        if self._resamples:
            record["resamples"] = [list(r) for r in self._resamples]
        return record

    def to_json(self) -> str:
        return json.dumps(self.to_record(), separators=(",", ":"))

    @staticmethod
    def from_record(record) -> State:
        """Replay a record (a dict as `to_record` gives); RecordError says what is wrong."""
        from engine.registry import load_game

        if not isinstance(record, dict):
            raise RecordError(f"a game record must be a JSON object, got {type(record).__name__}")
        if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise RecordError(f"not a tianti game record (format {record.get('format')!r})")
        for key in ("game", "options", "seed", "actions"):
            if key not in record:
                raise RecordError(f"game record lacks the field {key!r}")
        options = record["options"]
        if not isinstance(options, dict):
            raise RecordError("the record's 'options' must be an object")
        try:
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
                state = state.resample_from_infostate(player, seed)
            if isinstance(a, bool) or not isinstance(a, int):
                raise RecordError(f"action #{i} of the record is {a!r}, not an integer")
            try:
                state.apply_action(a)
            except IllegalActionError as e:
                raise RecordError(f"action #{i} of the record does not replay: {e}") from None
        for _, player, seed in pending:
            if _ != len(actions):
                raise RecordError(f"a resample at move {_} is past the record's end")
            state = state.resample_from_infostate(player, seed)
        return state

    @staticmethod
    def from_json(text) -> State:
        """Replay a JSON game record (see `to_json`)."""
        try:
            record = json.loads(text)
        except (TypeError, json.JSONDecodeError) as e:
            raise RecordError(f"the game record is not valid JSON: {e}") from None
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

    def information_state_string(self, int player) -> str:
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
        return (
            f"<{type(self).__name__} {self.game.name} players={self.num_players()} "
            f"move={len(self._history)}{' over' if self.is_terminal() else ''}>"
        )


def _from_json(text):
    return State.from_json(text)
