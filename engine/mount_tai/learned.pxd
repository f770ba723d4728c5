# Mount Tai: the evaluation learned from self-play (ai/learn). A linear model per table (the plain
# solo game, each challenge game, 2, 3, 4 players: a file gives weights per table size, and may give
# some solo tables their own) and stage of the game (the decisions a seat has left, 0..16) over
# knowledge.pxd's features predicts each seat's final reputation; its weights are the data files of
# this package, loaded at import: eval_model.json (the evaluation "learned"), eval_model_v2.json
# ("learned-v2", the model issue 14's first two steps were tuned with) and eval_model_v3.json
# ("learned-v3", its third step's), kept for the bots named after them.
# All functions are nogil, allocation-free and never fail; without a model they fall back to the
# hand-written knowledge (mt_projection, mt_evaluate).

# Predicted final reputation of `seat` in `s` (MTState), by the "learned" model.
cdef double mt_learned_projection(const void* s, int seat) noexcept nogil

# Each seat's value in [0, 1] into out[n_players] (the engine interface's `evaluate`): several
# seats, a softmax of the predictions with the stage's fitted temperature; solo, the chance of
# reaching the goal, P(final >= goal) with the stage's held-out error spread.
cdef void mt_evaluate_learned(const void* s, double* out) noexcept nogil

# The same with the "learned-v2" model.
cdef void mt_evaluate_learned_v2(const void* s, double* out) noexcept nogil

# The same with the "learned-v3" model.
cdef void mt_evaluate_learned_v3(const void* s, double* out) noexcept nogil
