# In the Year of the Dragon: the evaluation learned from self-play (issue 38; ai/LEARN_DRAGON.md).
# A linear model per table size (2, 3, 4 players) and stage of the game (the action cards a seat
# has still to take, 0..12) over knowledge.pxd's 55 features predicts each seat's final VP; its
# weights are the package's data file eval_model.json, loaded at import into C arrays.
# All functions are nogil, allocation-free and never fail. Tables the model was not fitted on
# (solo, 5 players) and a process with no model loaded get the hand-written evaluation
# (knowledge.pxd's dragon_evaluate) instead.

# Predicted final VP of `seat` in `s` (a DragonStruct); the hand projection where the model has
# no table for `s`.
cdef double dr_learned_projection(const void* s, int seat) noexcept nogil

# Each seat's share of the win in [0, 1] into out[n_players] (the engine interface's `evaluate`
# contract): a softmax of the predictions at the temperature fitted for the table size and the
# stage of the seat to move.
cdef void dr_evaluate_learned(const void* s, double* out) noexcept nogil
