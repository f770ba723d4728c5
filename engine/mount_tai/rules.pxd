# Mount Tai: the compiled rules (nogil functions over MTState).
#
# All functions assume a state built by `mt_init` (or a copy of one) and never allocate, raise or
# take the GIL. `mt_apply` requires a legal action (one `mt_legal` lists); the Python
# `MountTaiState` checks that before calling it. The legal actions are in legal.pxd.

from libc.stdint cimport uint64_t
from engine.core.interface cimport GameDef
from engine.mount_tai.state cimport MTState, MTOptions

# A new game with options `o`, chance seeded by `seed`: setup done, the first decision is due
# (a challenge game's carried bonus, or the start player's first policy decision).
cdef void mt_init(MTState* s, const MTOptions* o, uint64_t seed) noexcept nogil

# Plays a legal `action` and every automatic step after it, up to the next decision.
cdef void mt_apply(MTState* s, int action) noexcept nogil

# The C-level interface of this game (engine/core/interface.pxd), a static table.
cdef const GameDef* mt_gamedef() noexcept nogil

# Test hooks (used by MountTaiState._debug_* to set up rulebook positions; never by the rules).
# Start the policy decision of `seat` now (the rest of the round follows in turn order).
cdef void mt_debug_policy(MTState* s, int seat) noexcept nogil
# Run the automatic flow from step `flow` (FLOW_*), position 0, sub-step 0.
cdef void mt_debug_flow(MTState* s, int flow) noexcept nogil
