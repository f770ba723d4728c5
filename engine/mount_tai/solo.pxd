# Mount Tai: the virtual player of solo play (Solo Play, 1-2).
#
# The virtual player holds 3 tier I, 7 tier II and 6 tier III edict tiles of a second colour,
# face down, drawn at random in the order I -> II -> III, one per round. Its draw can take a
# building stack out of the blueprint area and (through a decision of the player) a wilderness
# talent; when first in turn order it flips an event tile without gaining anything.

from engine.core.rng cimport Rng
from engine.mount_tai.state cimport *

# Choose the virtual player's 16 tiles and their drawing order (setup). Draws from s.rng.
cdef void vp_deal(MTState* s) noexcept nogil

# The virtual player's policy decision: draw the next tile into the turn order area; a building
# plan on it removes the leftmost blueprint stack. Returns True when it shows recruitment and
# development and a wilderness talent is left, i.e. the player must now remove one.
cdef bint vp_draw(MTState* s) noexcept nogil

# The event space the virtual player flips in the current round (the larger number, then wine,
# money, grain, reputation), or -1 if none is left.
cdef int vp_event_choice(const MTState* s) noexcept nogil

# Determinization: the virtual player's undrawn tiles drawn afresh, per tier, from the tiles of
# that tier it has not drawn yet.
cdef void vp_redeal(MTState* s, Rng* rng) noexcept nogil
