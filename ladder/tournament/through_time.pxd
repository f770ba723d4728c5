# TrueSkill Through Time without drift, on plain C data: the C interface of through_time.pyx.
#
# The model (TrueSkill's): every bot b of a pool has one skill s_b ~ N(mu, sigma^2), the same in
# all its games (no drift: TrueSkill Through Time with gamma 0). In a game, a seat of bot b
# performs p = s_b + N(0, beta^2); seats are ranked by performance, consecutive places differing
# by more than `margin` (a win) or by at most `margin` (a draw: equal ranks).
#
# The fit is expectation propagation over every game of the pool at once: each game sends each
# of its seats' bots a Gaussian message; a bot's posterior is its prior times the messages of
# all its games. An entry may stand for several identical games (a count: it then sends all its
# copies' messages at once), but updating many copies at once overshoots and needs heavy
# damping, so `skills` enters one game an entry (through_time.pyx's GROUP). A sweep visits the
# entries in the order given and moves each entry's message toward what the game says given
# the rest (its cavity: the posterior without one copy); sweeps repeat until no bot's mean or
# deviation moves by more than a tolerance. The fixed point does not depend on the order of the games; the caller
# gives the entries in a canonical order, so that the result does not even depend on rounding.
#
# Gaussians are kept in natural parameters: pi = 1 / variance, tau = mean / variance;
# pi = 0 is the uniform message (a game that says nothing).

cdef enum:
    TT_MAX_SEATS = 64      # the most seats one game may have (the games have at most 5)

cdef struct TTModel:
    double mu               # the prior mean of every skill
    double sigma            # the prior deviation of every skill
    double beta             # the deviation of a seat's performance around its bot's skill
    double margin           # the draw margin on a difference of two performances

cdef struct TTPool:
    int n_games             # games in the pool
    int n_bots              # bots, numbered 0 .. n_bots - 1
    const int* start        # game g's seats are start[g] .. start[g + 1] - 1 (n_games + 1 entries)
    const int* bot          # each seat's bot
    const int* rank         # each seat's finishing position; a game's seats come in rank order
                            # (0 first; equal ranks are a draw)
    const double* weight    # 1 / the number of seats the seat's bot has in that game (a bot in
                            # several seats of one game counts the game once)
    const double* count     # how many identical games each entry stands for (n_games entries, > 0)
    double* msg_pi          # the game's message to each seat's bot (in, then out)
    double* msg_tau
    double* post_pi         # each bot's posterior (out; n_bots entries)
    double* post_tau

# The posteriors from the prior and the messages (post = prior x product of weighted messages).
cdef void tt_posteriors(TTPool* pool, const TTModel* model) noexcept nogil

# One game's new messages to its seats from their cavities (cav_pi/cav_tau: each seat's bot's
# posterior without this game), for `n` seats in rank order; the chain of performance
# differences is iterated until its messages settle. Returns 0, or -1 if n is out of range.
cdef int tt_game(int n, const int* rank, const double* cav_pi, const double* cav_tau,
                 const TTModel* model, double* out_pi, double* out_tau) noexcept nogil

# One sweep over the entries in order, updating messages and posteriors: each entry's messages
# move `damping` (0 < damping <= 1) of the way to what its game says given its cavity.
cdef void tt_sweep(TTPool* pool, const TTModel* model, double damping) noexcept nogil

# Sweeps until the largest change of any bot's mean or deviation in a sweep is below `tolerance`
# or `max_sweeps` were made; the damping starts at 1 and halves whenever a sweep moves more than
# the one before or swings back (an entry of many copies can overshoot). Returns the number of sweeps made,
# negated when the fit did not converge.
cdef int tt_fit(TTPool* pool, const TTModel* model, double tolerance,
                int max_sweeps) noexcept nogil
