# Mount Tai: the game knowledge the search may use (engine/core/interface.pxd, "Optional game
# knowledge"). Cheap, hand-written estimates in reputation points; nothing here changes a state.
# All three functions are nogil, allocation-free and never fail; they read only what every player
# can see (plus the state's own face-down order, which a determinized state has redrawn).

# A weight per legal action (higher = more promising) for the player to move in `s` (an MTState):
# what the action is worth in reputation (what it gains now, what it builds towards the coming
# seasonal settlements, Eight Praises tiles, level 3 talent skills and the summit, and for an
# edict tile the turn order it buys for the event phase) minus what it costs, turned into
# exp((value - best) / temperature), so the best action weighs 1 and every weight is in (0, 1].
# `actions` are the n >= 1 legal actions as mt_legal lists them; `out` has room for n.
cdef void mt_move_prior(const void* s, const int* actions, int n, double* out) noexcept nogil

# Each seat's estimated share of the win, in [0, 1], into out[n_players]: a softmax over the
# seats' projected final reputation (mt_projection). Solo: the chance of reaching the goal, a
# logistic curve of the projection around the goal.
cdef void mt_evaluate(const void* s, double* out) noexcept nogil

# Projected final reputation of `seat` in `s`: reputation now, plus what the rest of the game's
# settlements should pay (yields, Eight Praises tiles), the level 3 skills (a share of them for
# lower levels), the use of talents, buildings, settlements and the summit still to come, and
# what the money, grain and wine held are still worth.
cdef double mt_projection(const void* s, int seat) noexcept nogil

cdef enum:
    N_FEATURES = 68     # values written by mt_features (FEATURE_NAMES in knowledge.pyx)

# The features of `seat`'s position in `s` for a learned evaluation, into out[N_FEATURES]: the
# projection and its parts (Eight Praises, summit, talents, resources, yields), the holdings they
# come from (resources, fief, buildings, each talent kind's level), the decisions left, the player
# count, the challenge game and its goal, the virtual player's draws. Public information and the
# seat's own holdings only; never changes `s`.
cdef void mt_features(const void* s, int seat, double* out) noexcept nogil
