# The C-level game interface: what the search (ai/search) and the compiled playout loops call.
#
# Every game fills one `GameDef` with pointers to its `nogil` rule functions. A game state is an
# opaque, fixed-size block of plain C data (`state_size` bytes, no pointers to the heap), so a
# state is copied with `copy_state` (a memcpy) into any buffer of that size the caller owns.
# None of these functions allocate, raise, take the GIL or touch Python objects; all are safe to
# call from several threads on distinct states at once.
#
# Contract, for every function taking a state `s`:
# - `s` was made by the game's own initialiser (Python `Game.new_initial_state`) or `reset`, or is
#   a copy of such a state, or a state reached from one by `apply_action` / `determinize`.
# - The options (player count, expansions, ...) live inside the state: one GameDef serves every
#   option set of its game.
# - Chance (shuffles, draws) is resolved inside `apply_action`/`reset` by the RNG stored in the
#   state: a state and an action determine the next state exactly.

from libc.stdint cimport uint64_t
from engine.core.rng cimport Rng

# `current_player` returns this once the game is over.
cdef enum:
    TERMINAL_PLAYER = -4
    # Upper bound on any game's player count, for callers' fixed buffers.
    MAX_GAME_PLAYERS = 5
    # Named evaluations a game may offer besides `evaluate` (GameDef.evaluators).
    MAX_EVALUATORS = 6


# An evaluation: `evaluate`'s contract (a value per seat in [0, 1] into out[num_players]).
ctypedef void (*EvaluateFn)(const void* s, double* out) noexcept nogil


ctypedef struct GameDef:
    const char* name                # registry name ("dragon", "mount-tai")
    size_t state_size               # bytes of one state; buffers passed below hold this much
    int num_distinct_actions        # every action id is in [0, num_distinct_actions)
    int max_legal_actions           # no state has more legal actions: size of an `out` buffer

    # The number of seats (1..MAX_GAME_PLAYERS; 1 for a solo game) of this state's game.
    int (*num_players)(const void* s) noexcept nogil

    # The seat to decide now, or TERMINAL_PLAYER when the game is over. Every decision of the game
    # belongs to a seat: chance is never a player.
    int (*current_player)(const void* s) noexcept nogil

    # Writes the legal actions, sorted ascending and without repeats, into `out` (room for
    # `max_legal_actions`) and returns their count: >= 1 unless the game is over (then 0).
    int (*legal_actions)(const void* s, int* out) noexcept nogil

    # Plays `action`, which the caller guarantees is one of `legal_actions(s)` (the compiled
    # functions do not re-check: the Python `State` does). Runs every automatic step (events,
    # scoring, the next deal) until the next decision or the end.
    void (*apply_action)(void* s, int action) noexcept nogil

    # Copies the whole state `src` into `dst` (state_size bytes; the two must not overlap).
    void (*copy_state)(const void* src, void* dst) noexcept nogil

    # Turns `s` in place into a determinization from `player`'s point of view: everything that
    # player has seen stays as it is; every hidden or not-yet-drawn thing (face-down piles, future
    # shuffles, the state's RNG) is drawn afresh from `rng` consistently with what the player
    # knows. Calling it with the same state, player and rng state gives the same result.
    void (*determinize)(void* s, int player, Rng* rng) noexcept nogil

    # Re-initialises `s` as a new game with the options already stored in it and chance seeded by
    # `seed` (the same result as the Python `Game.new_initial_state(seed)` with those options).
    void (*reset)(void* s, uint64_t seed) noexcept nogil

    # True once the game is over.
    bint (*is_terminal)(const void* s) noexcept nogil

    # Final outcome per seat into `out[num_players]`: 1 for the winner, 0 for the others, the point
    # shared equally among seats tied after the game's tie-break (a solo game: 1 if its goal was
    # reached, else 0). Only meaningful when terminal.
    void (*returns)(const void* s, double* out) noexcept nogil

    # Current victory points per seat into `out[num_players]` (final totals once terminal).
    void (*scores)(const void* s, double* out) noexcept nogil

    # Finishing position per seat into `out[num_players]`: 0 = first; seats still tied after the
    # game's tie-break share the better position. Reflects the current scores when not terminal.
    void (*ranks)(const void* s, int* out) noexcept nogil

    # -- Optional game knowledge for the search (NULL / 0 when a game has none) -----------------

    # A cheap prior over the `n` legal actions `actions` of `s` (as `legal_actions` lists them):
    # a non-negative weight per action into `out[n]`, higher = more promising. Used by heuristic
    # playouts, progressive bias and the `heuristic` bot. Must not change `s`.
    void (*move_prior)(const void* s, const int* actions, int n, double* out) noexcept nogil

    # A heuristic value per seat in [0, 1] of a non-terminal `s` (an estimate of each seat's
    # share of the win; the values need not sum to 1), into `out[num_players]`. Used by cut-off
    # playouts in place of playing to the end.
    void (*evaluate)(const void* s, double* out) noexcept nogil

    # What seat `observer` sees when the player to move in `s` takes `action`: an id (>= 0) that
    # is the same for every action the observer cannot tell apart. NULL: all actions are public
    # (every observer sees the action itself). Used by MO-ISMCTS.
    int (*observe_action)(const void* s, int action, int observer) noexcept nogil

    # A typical winning margin in points, the scale of the "score margin" reward.
    double score_scale

    # Evaluations the search may be asked for by name instead of `evaluate` (a search config's
    # `evaluation`): `n_evaluators` names and functions, each with `evaluate`'s contract. One of
    # them is usually `evaluate` itself under its own name, so that a configuration can name the
    # evaluation it was tuned with and keep it when the default changes.
    int n_evaluators
    const char* evaluator_names[MAX_EVALUATORS]
    EvaluateFn evaluators[MAX_EVALUATORS]

    # Solo games: the score the seat must reach (the goal), for the search's goal-aware reward
    # (reached or not, and by how much). NULL when the game has no goal; only called on solo states.
    double (*goal)(const void* s) noexcept nogil

    # Hidden-at-deal things that `observer` has seen so far, as one id: equal for two states of
    # one information set before a reveal, different once a determinization's hidden choice is
    # shown (Mount Tai: the face-down edict tiles of challenges 5-7 turned face up, and a solo
    # game's virtual player's tiles as it draws them; Dragon: the month and its action-card
    # split, dealt face up at each month's start). A search with chance nodes keys a layer
    # of its tree by the id after an action that changed it, so that it plans on what it will
    # see instead of averaging over it. NULL: nothing is keyed.
    uint64_t (*chance_signature)(const void* s, int observer) noexcept nogil

    # What `action` (legal in `s`) does, as the mover sees it: an id in
    # [0, num_distinct_actions), distinct among the legal actions of `s`, and the same in every
    # state of one information set for actions that do the same thing, even where the game
    # names them by a place whose content differs between determinizations (Mount Tai: using
    # the edict tile in slot k is keyed by the tile, not the slot). A search keys its tree's
    # edges by it (SearchConfig.action_keys), so that a deep node's edge means one thing in
    # every determinization that reaches it. Must not change `s`. NULL: the action id itself.
    int (*action_key)(const void* s, int action) noexcept nogil

    # A learned prior over the `n` legal actions `actions` of `s`, with `move_prior`'s contract
    # (a non-negative weight per action into `out[n]`; Mount Tai: the net's policy, issue 38).
    # A search uses it instead of `move_prior` for its tree's prior when asked
    # (SearchConfig.prior). NULL: the game has none.
    void (*learned_prior)(const void* s, const int* actions, int n, double* out) noexcept nogil
