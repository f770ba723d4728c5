from engine.dragon.state cimport DragonStruct

# In the Year of the Dragon: the game knowledge the search may use (engine/core/interface.pxd,
# "Optional game knowledge"). Cheap, hand-written estimates; nothing here changes a state.

# A weight per legal action (higher = more promising) for the player to move: the value of what
# the action gains now (resources, VP, persons, safety against the coming events) minus what it
# costs, as a softmax-style positive weight. `actions` are as dragon_legal lists them.
cdef void dragon_move_prior(const void* s, const int* actions, int n, double* out) noexcept nogil

# Each seat's estimated share of the win in [0, 1]: a softmax over projected final scores
# (current VP + month scorings still to come + final scoring of what is held now).
cdef void dragon_evaluate(const void* s, double* out) noexcept nogil

cdef enum:
    N_PARTS = 6         # terms of the hand projection (projection_parts in knowledge.pyx)
    N_FEATURES = 55     # values written by dr_features (FEATURE_NAMES in knowledge.pyx)

# The seat's projected final score, the value `dragon_evaluate` softmaxes: its VP so far plus
# parts[0] the month scorings still to come (inhabited palaces, fans, privilege dragons), parts[1]
# the 2 VP per person at the end, parts[2] the monks' buddhas x floors, parts[3] the money at the
# end (yuan, rice and fireworks at 2 yuan, 3 yuan a VP), minus parts[4] the VP this and next
# month's tribute or drought may cost, plus parts[5] a small person-track term.
cdef double projection_parts(const DragonStruct* s, int seat, double* parts) noexcept nogil

# Action cards `seat` has still to take (0..12): the stage a learned evaluation is fitted by.
cdef int dr_decisions_left(const DragonStruct* s, int seat) noexcept nogil

# The features of `seat`'s position for a learned evaluation, into out[N_FEATURES]
# (FEATURE_NAMES in knowledge.pyx, in this order):
#  0 bias (1); 1 projection (projection_parts' total); 2 score (VP so far); 3-8 the projection's
#  parts (scorings, persons, monks, money, shortfall, track); 9-11 yuan, rice, fireworks;
#  12 track (space), 13 track_rank (seats ahead of it in the track order); 14-16 small and large
#  privileges, their dragons; 17-20 palaces, floors, inhabited palaces, room (free places);
#  21-24 persons, their distinct kinds, the sum of their printed values, the old ones;
#  25-33 symbols by kind (hammers, fans, coins, rockets, helmets, buddhas, mortars, rice bags,
#  books); 34 person cards in hand, 35 wildcards, 36 wall sections built (Great Wall);
#  37-41 tributes, droughts, contagions, Mongol invasions, festivals still to resolve (this
#  month's while its action and person rounds last); 42 super event still ahead (1/0);
#  43 months left (12 - month index); 44 decisions_left (dr_decisions_left);
#  45 projection minus the best other seat's, 46 minus the others' mean, 47 score minus the best
#  other score, 48 fireworks minus the most of another seat, 49 helmets minus the fewest of
#  another seat; 50-54 players_1..players_5 one-hot. Public information only; never changes `s`.
cdef void dr_features(const void* s, int seat, double* out) noexcept nogil
