# Mount Tai: scoring: the Eight Praises tiles at settlement, the game-end scoring (level 3
# talent skills, the Grand Tutors' end rules) and the final ranking with its tie-break.
# All nogil, allocation-free, never failing.

from engine.mount_tai.state cimport *

# What Eight Praises tile `praise` (PR_*) counts for `seat` in `year` (0 or 1).
cdef int praise_measure(const MTState* s, int seat, int praise, int year) noexcept nogil

# The reputation tile `praise` gives `seat` in `year`: year 1 the reward once if the condition is
# met, year 2 the reward per unit, repeatedly.
cdef int praise_reward(const MTState* s, int seat, int praise, int year) noexcept nogil

# The reputation the level 3 skill of talent `kind` gives `seat` at game end (the Yin-Yang
# Master's copies the best other player's card; the Secretary's is its extra policy decision,
# worth 0 here).
cdef int skill3_value(const MTState* s, int seat, int kind) noexcept nogil

# Game end: every level 3 skill, then the Grand Tutors' end rules (study markers, conspirator
# targets, the donation track).
cdef void final_scoring(MTState* s) noexcept nogil

# Finishing positions into out[n_players] (0 = first): reputation, then the resources of the
# season bonus tiles' types, spring to winter; seats still tied share the better position.
cdef void mt_ranks(const MTState* s, int* out) noexcept nogil

# Whether a solo game has reached its goal (challenge game goal, or the plain solo goal).
cdef bint solo_goal_reached(const MTState* s) noexcept nogil

# The solo goal in reputation.
cdef int solo_goal(const MTState* s) noexcept nogil
