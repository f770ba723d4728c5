# Mount Tai: the shared supplies: the event area, the event bonus and Eight Praises tiles, the
# wilderness (talent piles) and the buildings (face-down supply + blueprint area).
#
# Everything here is nogil and allocation-free; the functions that draw chance use s.rng (setup,
# building flips) or the given rng (determinization).

from libc.stdint cimport uint8_t
from engine.core.rng cimport Rng
from engine.mount_tai.state cimport *

# Lay the event area (tiles per round and colour space by player count, tile "0" with promos),
# the event bonus tiles and the Eight Praises tiles of both years (Setup 2-3).
cdef void supply_lay_board(MTState* s) noexcept nogil

# Cards of each talent kind in this game's pool (before dealing), into counts[N_TALENT_KINDS]:
# the base box, promo and fan-designed cards by option, minus the 3-4-player-only cards in
# smaller games and the challenge's carried talent.
cdef void talent_pool(const MTState* s, uint8_t* counts) noexcept nogil

# Deal the wilderness piles (Setup 4) and the building supply and blueprint area (Setup 5).
cdef void supply_deal(MTState* s) noexcept nogil

# Take the top card of `pile` (it must have one) and turn the next one face up; returns its T_*.
cdef int pile_take(MTState* s, int pile) noexcept nogil

# Index in the blueprint area of building kind `kind`, or -1.
cdef int blueprint_index(const MTState* s, int kind) noexcept nogil

# Take one tile of `kind` from the blueprint area (it must be there) and refill the area.
cdef void blueprint_take(MTState* s, int kind) noexcept nogil

# Solo: remove the whole stack at blueprint position `idx`, slide the rest left, refill.
cdef void blueprint_discard(MTState* s, int idx) noexcept nogil

# Flip building tiles from the supply until the area shows as many kinds as the player count
# asks (stacking repeats), or the supply is empty.
cdef void blueprint_refill(MTState* s) noexcept nogil

# Determinization: the face-down talent cards drawn afresh from the unseen cards of their colour,
# and the face-down building supply reshuffled.
cdef void supply_redeal(MTState* s, Rng* rng) noexcept nogil

# Sort a[0:n] ascending (the supply's canonical order before supply_redeal shuffles it).
cdef void supply_sort(uint8_t* a, int n) noexcept nogil
