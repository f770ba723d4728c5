# In the Year of the Dragon: the game knowledge the search may use (engine/core/interface.pxd,
# "Optional game knowledge"). Cheap, hand-written estimates; nothing here changes a state.

# A weight per legal action (higher = more promising) for the player to move: the value of what
# the action gains now (resources, VP, persons, safety against the coming events) minus what it
# costs, as a softmax-style positive weight. `actions` are as dragon_legal lists them.
cdef void dragon_move_prior(const void* s, const int* actions, int n, double* out) noexcept nogil

# Each seat's estimated share of the win in [0, 1]: a softmax over projected final scores
# (current VP + month scorings still to come + final scoring of what is held now).
cdef void dragon_evaluate(const void* s, double* out) noexcept nogil
