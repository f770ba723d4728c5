# Mount Tai: a player's edict area (the pyramid, or a solo challenge game's piles).
#
# Slots are numbered per layout (LAY_* in state.pxd); a slot is uncovered when no slot resting on
# it still holds its tile. Only uncovered tiles can be used or removed; a face-down tile (challenge
# games 5-7) turns face up as soon as it is uncovered. All functions are nogil and never fail.

from libc.stdint cimport uint32_t
from engine.core.rng cimport Rng
from engine.mount_tai.state cimport *

# The slots resting on `slot` in `layout` (a bit mask).
cdef uint32_t edict_covers(int layout, int slot) noexcept nogil

# The uncovered slots of `pl` (a bit mask over present slots), by table lookups.
cdef uint32_t edict_uncovered(const MTPlayer* pl, int layout) noexcept nogil

# The same answer recounted slot by slot (the reference the invariants check it against).
cdef uint32_t edict_uncovered_recount(const MTPlayer* pl, int layout) noexcept nogil

# Deal the edict area of `pl` for `layout` (face up, or covered tiles face down when `hidden`),
# drawing from `rng`. Challenge game 6 uses `tiered` stacks (I, II, II, III x4 per pile).
cdef void edict_deal(MTPlayer* pl, int layout, bint hidden, bint tiered, Rng* rng) noexcept nogil

# Take the tile out of `slot` (used or removed): it is gone; tier III tiles count in pl.tier3;
# newly uncovered face-down tiles turn face up. Returns the tile's number.
cdef int edict_take(MTPlayer* pl, int layout, int slot) noexcept nogil

# Draw afresh every face-down tile of `pl` from the tiles its owner has not seen, keeping each
# slot's tier when the layout fixes it (determinization).
cdef void edict_redeal(MTPlayer* pl, int layout, bint tiered, Rng* rng) noexcept nogil

# The tier (1..3) a face-down slot must hold, or 0 if any tile may lie there.
cdef int edict_slot_tier(int layout, bint tiered, int slot) noexcept nogil

# Number of slots of `layout`.
cdef int edict_slot_count(int layout) noexcept nogil
