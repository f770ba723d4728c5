# The Python-facing game state, generic over the C-level interface.
#
# A `State` owns one state block (`data`, `gdef.state_size` bytes, freed with the object) and
# reaches the rules only through `gdef` (engine/core/interface.pxd). Each game subclasses it to
# add what needs the game's own struct: text, snapshots, option handling.

from libc.stdint cimport uint64_t
from engine.core.interface cimport GameDef
from engine.core.eventlog cimport EventLog

cdef class State:
    cdef const GameDef* gdef     # the game's rule functions (static; never freed)
    cdef void* data              # this state's block, owned (malloc'd in _bind, freed on dealloc)
    cdef int* buf                # scratch for legal actions (gdef.max_legal_actions ints), owned
    cdef object _game            # the Game (name, options) this state belongs to: `game`
    cdef object _game_of         # a copy's or view's source Game, until `game` copies it
    cdef readonly object seed    # the chance seed the game started from (int); None in a view
    cdef readonly object viewer  # None for a true game; in a view, the seat it is the view of
    cdef list _history           # actions applied since the initial state (see _nhist)
    cdef list _resamples         # [history length, player, seed] of each determinization
    cdef list _events            # raw events per step: [0] the setup, [i + 1] action i's steps
    # Copies and views share the past instead of copying it (engine/core/VIEWS.md): `_nhist`
    # >= 0 says `_history` is another state's list, which only ever grows at its end, and this
    # state's history is its first `_nhist` actions; -1 says the list is this state's own.
    # `_nev` is the same for `_events`. A shared list is copied on this state's first change.
    cdef Py_ssize_t _nhist
    cdef Py_ssize_t _nev
    cdef bint _events_lent       # its own `_events` is shared: replace it, never an entry of it
    cdef list _seen              # games that filter events: per seat, the steps as it saw them

    # Allocate the blocks for `gdef` and attach `game`; the state content is left zeroed.
    cdef void _bind(self, const GameDef* gdef, object game) except *
    # A new, unbound instance of this state's own class.
    cdef State _blank(self)
    # The Game a copy or view of this state is to copy.
    cdef object _source_game(self)
    # Whether the Python int `v` is one of the legal actions (False outside the C int range).
    cdef bint _legal_int(self, object v) except -1
    # Clear `log` and attach it as this thread's event sink; returns the sink it replaces.
    cdef EventLog* _log_begin(self, EventLog* log) noexcept
    # Detach `log` (re-attaching `previous`) and keep its events as the setup's (`setup`) or as
    # the steps of the action just appended to the history.
    cdef void _log_end(self, EventLog* log, EventLog* previous, bint setup) except *
    # This state's history / events as lists of its own (copying what it shares, once): only
    # to change them. Reading reads `_events` in place, its first `_n_events()` steps.
    cdef list _own_history(self)
    cdef list _own_events(self)
    cdef Py_ssize_t _n_events(self)
    # Add `raw` events to the last step's (the test hooks' automatic steps).
    cdef void _extend_last_events(self, list raw) except *
    # Become a view of `viewer` holding the compiled block `raw` (exactly state_size bytes):
    # RecordError for a viewer that is not a seat or a block that breaks the invariants.
    cdef void _fill_view(self, bytes raw, object viewer) except *
    # The events `seat` saw, per step, in a list that only grows (its views share it).
    cdef list _seen_by(self, int seat)
