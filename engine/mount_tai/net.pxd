# Mount Tai: the net learned from the search's own play (ai/learn/net.py, issue 38): a value
# network (one hidden ReLU layer) predicting each seat's final reputation, and a policy head
# scoring the mover's legal actions. Inference only, nogil, on plain C arrays; the weights are
# loaded once into the module's `NetModel` from a versioned data file (net_model.json, format
# "tianti-net-model" version 2, or 1 without gates; `load_net` replaces it, refusing a bad file
# whole).
#
# Inputs z[n_in] of a seat: its features (knowledge.pxd's mt_features) standardized,
#   z[i] = (f[i] - mu[i]) / sd[i] for i < N_FEATURES,
# then a one-hot of the stage (decisions left, f[43], clipped to 0..NET_STAGES-1):
#   z[N_FEATURES + stage] = 1, so n_in = N_FEATURES + NET_STAGES.
# Value (reputation points): a linear part on the raw features plus a network on z, gated by
# the stage (gate[stage] in [0, 1], chosen on validation games; all 1 in a version-1 file),
#   v = sum_i lin[stage][i] * f[i]
#       + gate[stage] * (b2 + sum_j w2[j] * max(0, b1[j] + sum_i z[i] * w1[i][j]))
# Policy: for each legal action a with hand prior p(a) (knowledge.pxd's mt_move_prior),
#   score(a) = w_prior * clip(log p(a), -20, 0) + bias[a] + sum_i u[kind_of[a]][i] * z[i],
#   and the prior is the softmax of the scores over the legal actions.

from engine.mount_tai.knowledge cimport N_FEATURES
from engine.mount_tai.state cimport N_ACTIONS

cdef enum:
    NET_STAGES = 17              # decisions left 0..16
    NET_IN = N_FEATURES + NET_STAGES
    NET_MAX_HIDDEN = 64
    NET_MAX_KINDS = 32

ctypedef struct NetModel:
    bint ready                   # a model is loaded (else the functions below fall back)
    int players_mask             # bit k set: the net serves k-player tables (k = 1..4)
    int hidden                   # hidden units used, 1..NET_MAX_HIDDEN
    int n_kinds                  # action groups used, 1..NET_MAX_KINDS
    double mu[N_FEATURES]        # feature means (standardization)
    double sd[N_FEATURES]        # feature spreads, > 0
    double lin[NET_STAGES][N_FEATURES]   # the value's linear part per stage (raw features)
    double w1[NET_IN][NET_MAX_HIDDEN]
    double b1[NET_MAX_HIDDEN]
    double w2[NET_MAX_HIDDEN]
    double b2
    double temp[NET_STAGES]      # softmax temperature of the seats' values, per stage, > 0
    double gate[NET_STAGES]      # weight of the network's residual, per stage, in [0, 1]
    double w_prior               # weight of the clipped log hand prior
    double bias[N_ACTIONS]       # per action id
    int kind_of[N_ACTIONS]       # each action id's group, 0..n_kinds-1
    double u[NET_MAX_KINDS][NET_IN]

# z[NET_IN] of a feature vector f[N_FEATURES] (no checks: m must be ready).
cdef void net_inputs(const NetModel* m, const double* f, double* z) noexcept nogil

# The value head's prediction (final reputation) of features f and their inputs z.
cdef double net_value(const NetModel* m, const double* f, const double* z) noexcept nogil

# The policy head's probabilities of the n actions `actions` with hand priors prior[n] for the
# mover with inputs z, into out[n] (they sum to 1).
cdef void net_policy(const NetModel* m, const double* z, const int* actions, const double* prior,
                     int n, double* out) noexcept nogil

# The engine interface's `evaluate` by the net (the evaluation "net"): for a table size the net
# serves, each seat's share of the win, a softmax of the seats' predicted final reputations at
# the mover's stage's temperature; for other tables (and without a model) the linear "learned"
# evaluation. Never fails, allocates nothing.
cdef void mt_evaluate_net(const void* s, double* out) noexcept nogil

# The engine interface's `move_prior` contract by the net's policy (GameDef.learned_prior):
# for a table size the net serves, the policy's probabilities; otherwise the hand prior itself.
cdef void mt_net_prior(const void* s, const int* actions, int n, double* out) noexcept nogil
