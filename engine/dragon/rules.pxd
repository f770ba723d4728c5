# In the Year of the Dragon: the compiled rules (nogil functions over DragonStruct).
#
# All functions assume a state built by `dragon_init` (or a copy of one) and never allocate,
# raise or take the GIL. `dragon_apply` requires a legal action (one `dragon_legal` lists); the
# Python `DragonStruct` checks that before calling it.

from libc.stdint cimport uint64_t
from engine.core.interface cimport GameDef
from engine.dragon.state cimport DragonStruct, DragonOptions

# A new game with options `o`, chance seeded by `seed`: setup done, the first draft pick is due.
cdef void dragon_init(DragonStruct* s, const DragonOptions* o, uint64_t seed) noexcept nogil

# Legal actions of the player to move, ascending, into `out` (room for MAX_LEGAL); returns the
# count, 0 once the game is over. May write scratch values past the count (within MAX_LEGAL).
cdef int dragon_legal(const DragonStruct* s, int* out) noexcept nogil

# Plays a legal `action` and every automatic step after it, up to the next decision.
cdef void dragon_apply(DragonStruct* s, int action) noexcept nogil

# Seats in person-track order (the player acting first first) into `out`; returns the count.
cdef int dragon_track_order(const DragonStruct* s, int* out) noexcept nogil

# The C-level interface of this game (engine/core/interface.pxd), a static table.
cdef const GameDef* dragon_gamedef() noexcept nogil

# Test hooks (used by DragonState._debug_* to set up rulebook positions; never by the rules):
# begin a round of `phase` in track order (or end it at once if nobody has a decision),
cdef void dragon_debug_start_round(DragonStruct* s, int phase) noexcept nogil
# continue the automatic month-end sequence from step `flow` (FLOW_*),
cdef void dragon_debug_run_flow(DragonStruct* s, int flow) noexcept nogil
# and rebuild the cached per-player symbols and palace occupancy from the persons lists.
cdef void dragon_debug_recount(DragonStruct* s) noexcept nogil
