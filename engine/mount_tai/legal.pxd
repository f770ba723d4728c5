# Mount Tai: the legal actions of the player to move (nogil, never failing; nothing is changed).
#
# Each function writes action ids (A_* in state.pxd) ascending into `out` (room for MAX_LEGAL)
# and returns their count.

from engine.mount_tai.state cimport MTState

# Every legal action of the current decision: >= 1 until the game is over (then 0).
cdef int mt_legal(const MTState* s, int* out) noexcept nogil
# PH_TIDY: further removals (canonical order), and stopping once the minimum is met.
cdef int legal_tidy(const MTState* s, int* out) noexcept nogil
# PH_CULTIVATE: the first placement (flat or mountain), or a further one of the same kind.
cdef int legal_cultivate(const MTState* s, int* out) noexcept nogil
# PH_WATER: the Descendant of Zheng's artificial water source, or none.
cdef int legal_water(const MTState* s, int* out) noexcept nogil
