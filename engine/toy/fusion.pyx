# cython: language_level=3
"""Strategy fusion: the smallest game where determinizing once (PIMC) is wrong and an
information-set search is right.

Player 0 either plays SAFE (wins with probability 0.6, drawn when played) or GAMBLEs and then
guesses LEFT or RIGHT, winning if the guess matches a coin that is hidden from everyone until
the end. Exact values: SAFE 0.6, GAMBLE 0.5, so SAFE is optimal. A perfect-information search
on a determinization knows the coin and values GAMBLE at 1.0. Player 1 never moves; it wins
when player 0 loses.
"""

from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset, memcpy

from engine.core.interface cimport GameDef, TERMINAL_PLAYER
from engine.core.rng cimport Rng, rng_seed, rng_next, rng_below, rng_uniform
from engine.core.eventlog cimport EventLog, ev_emit, EV_NONE
from engine.core.state cimport State

from engine.core.args import as_index, check_seat
from engine.core.events import EventKind, EventTable
from engine.core.game import Game, Option

cdef enum:
    SAFE = 0
    GAMBLE = 1
    LEFT = 2
    RIGHT = 3
    N_ACTIONS = 4

# Rule events (see EVENTS below for their names and texts).
cdef enum:
    EV_SAFE_DRAW = 0      # seat 0 played safe: a = 1 if the draw won, else 0
    EV_COIN_SHOWN = 1     # the coin is turned face up at the end: a = 0 left, 1 right
    EV_POINT = 2          # seat scores a = 1 point (the winner)

SAFE_WIN_PROBABILITY = 0.6
cdef double P_SAFE = SAFE_WIN_PROBABILITY

ctypedef struct Fusion:
    Rng rng
    uint8_t coin        # 0 = left, 1 = right: hidden from both players
    uint8_t stage       # 0: safe or gamble; 1: guess; 2: over
    uint8_t won         # player 0 won


cdef void fusion_init(Fusion* s, uint64_t seed) noexcept nogil:
    memset(s, 0, sizeof(Fusion))
    rng_seed(&s.rng, seed)
    s.coin = <uint8_t>rng_below(&s.rng, 2)


cdef int _players(const void* s) noexcept nogil:
    return 2


cdef int _current(const void* s) noexcept nogil:
    return TERMINAL_PLAYER if (<const Fusion*>s).stage == 2 else 0


cdef int _legal(const void* vs, int* out) noexcept nogil:
    cdef const Fusion* s = <const Fusion*>vs
    if s.stage == 0:
        out[0] = SAFE
        out[1] = GAMBLE
        return 2
    if s.stage == 1:
        out[0] = LEFT
        out[1] = RIGHT
        return 2
    return 0


cdef void _apply(void* vs, int a) noexcept nogil:
    cdef Fusion* s = <Fusion*>vs
    if a == SAFE:
        s.won = 1 if rng_uniform(&s.rng) < P_SAFE else 0
        s.stage = 2
        ev_emit(EV_SAFE_DRAW, 0, EV_NONE, s.won, 0, 0, 0)
    elif a == GAMBLE:
        s.stage = 1
    else:
        s.won = 1 if (a - LEFT) == s.coin else 0
        s.stage = 2
    if s.stage == 2:
        ev_emit(EV_COIN_SHOWN, EV_NONE, EV_NONE, s.coin, 0, 0, 0)
        ev_emit(EV_POINT, 0 if s.won else 1, EV_NONE, 1, 0, 0, 0)


cdef void _copy(const void* src, void* dst) noexcept nogil:
    memcpy(dst, src, sizeof(Fusion))


cdef void _determinize(void* vs, int player, Rng* rng) noexcept nogil:
    cdef Fusion* s = <Fusion*>vs
    if s.stage < 2:
        s.coin = <uint8_t>rng_below(rng, 2)
    s.rng.state = rng_next(rng)


cdef void _reset(void* vs, uint64_t seed) noexcept nogil:
    fusion_init(<Fusion*>vs, seed)


cdef bint _terminal(const void* s) noexcept nogil:
    return (<const Fusion*>s).stage == 2


cdef void _scores(const void* vs, double* out) noexcept nogil:
    cdef const Fusion* s = <const Fusion*>vs
    out[0] = s.won
    out[1] = 1 - s.won if s.stage == 2 else 0


cdef void _returns(const void* vs, double* out) noexcept nogil:
    _scores(vs, out)


cdef void _ranks(const void* vs, int* out) noexcept nogil:
    cdef const Fusion* s = <const Fusion*>vs
    out[0] = 0 if s.won else 1
    out[1] = 1 - out[0]


cdef GameDef _GAMEDEF
_GAMEDEF.name = b"fusion"
_GAMEDEF.state_size = sizeof(Fusion)
_GAMEDEF.num_distinct_actions = N_ACTIONS
_GAMEDEF.max_legal_actions = 2
_GAMEDEF.num_players = _players
_GAMEDEF.current_player = _current
_GAMEDEF.legal_actions = _legal
_GAMEDEF.apply_action = _apply
_GAMEDEF.copy_state = _copy
_GAMEDEF.determinize = _determinize
_GAMEDEF.reset = _reset
_GAMEDEF.is_terminal = _terminal
_GAMEDEF.returns = _returns
_GAMEDEF.scores = _scores
_GAMEDEF.ranks = _ranks
_GAMEDEF.score_scale = 1.0

ACTION_NAMES = ("safe", "gamble", "left", "right")

EVENTS = EventTable(kinds=(
    EventKind("safe-draw", ("won",),
              lambda e: f"{e['who']} plays safe and {'wins' if e['won'] else 'loses'} the draw"),
    EventKind("coin-shown", ("side",),
              lambda e: f"the coin is turned over: {('left', 'right')[e['side']]}"),
    EventKind("point", ("points",), "{who} wins: +{points} point", points="points"),
))


class FusionGame(Game):
    """Strategy fusion (a test game): safe 0.6, or gamble on a hidden coin (0.5)."""

    NAME = "fusion"
    TITLE = "Strategy fusion (a two-move test game for the search)"
    OPTIONS = (Option("players", int, 2, "always 2 (player 1 never moves)", choices=(2,)),)

    @property
    def num_distinct_actions(self) -> int:
        return N_ACTIONS

    def _new_state(self, seed):
        return FusionState._create(self, seed)


cdef class FusionState(State):
    EVENT_TABLE = EVENTS

    @staticmethod
    def _create(game, seed):
        cdef EventLog log
        cdef EventLog* previous
        cdef FusionState st = FusionState.__new__(FusionState)
        st._bind(&_GAMEDEF, game)
        st.seed = seed
        previous = st._log_begin(&log)
        fusion_init(<Fusion*>st.data, <uint64_t>seed)
        st._log_end(&log, previous, True)
        return st

    def action_to_string(self, action) -> str:
        """The action's name (any integer: one that is no action says so)."""
        a = as_index(action, "action")
        return ACTION_NAMES[a] if 0 <= a < N_ACTIONS else f"action {a}"

    def information_state_string(self, player) -> str:
        """The seat and the moves so far."""
        player = check_seat(self, player, "player")
        return f"p{player} " + " ".join(ACTION_NAMES[a] for a in self.history())

    def __str__(self) -> str:
        cdef Fusion* s = <Fusion*>self.data
        stage = ("choose safe or gamble", "guess left or right", "over")[s.stage]
        return f"strategy fusion: {stage}" + (f", player 0 {'won' if s.won else 'lost'}" if s.stage == 2 else "")
