# The Python-facing game state, generic over the C-level interface.
#
# A `State` owns one state block (`data`, `gdef.state_size` bytes, freed with the object) and
# reaches the rules only through `gdef` (engine/core/interface.pxd). Each game subclasses it to
# add what needs the game's own struct: text, snapshots, option handling.

from libc.stdint cimport uint64_t
from engine.core.interface cimport GameDef

cdef class State:
    cdef const GameDef* gdef     # the game's rule functions (static; never freed)
    cdef void* data              # this state's block, owned (malloc'd in _bind, freed on dealloc)
    cdef int* buf                # scratch for legal actions (gdef.max_legal_actions ints), owned
    cdef readonly object game    # the Game (name, options) this state belongs to
    cdef readonly uint64_t seed  # the chance seed the game started from
    cdef list _history           # actions applied since the initial state
    cdef list _resamples         # [history length, player, seed] of each determinization

    # Allocate the blocks for `gdef` and attach `game`; the state content is left zeroed.
    cdef void _bind(self, const GameDef* gdef, object game) except *
    # A new, unbound instance of this state's own class.
    cdef State _blank(self)
