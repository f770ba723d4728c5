# The search core: determinized MCTS (PIMC) and information-set MCTS (SO- and MO-ISMCTS), written
# once for every game through the C-level interface (engine/core/interface.pxd).
#
# Memory: each worker owns its trees (node pools grown by realloc), its scratch states and its
# MAST table; a `Searcher` owns its workers and frees everything in __dealloc__. All search code
# runs without the GIL on plain C data; root-parallel workers run in separate threads and share
# nothing but the read-only root state and config.

from libc.stdint cimport int32_t, int8_t, uint64_t
from engine.core.interface cimport GameDef
from engine.core.rng cimport Rng

cdef enum:
    MODE_PIMC = 0           # K determinizations, a perfect-information UCT tree each
    MODE_ISMCTS = 1         # SO-ISMCTS: one tree over the searcher's information sets
    MODE_MO_ISMCTS = 2      # MO-ISMCTS: one tree per player, moves seen through observe_action

    REWARD_WIN = 0          # 1 for the winner, ties shared (the game's returns)
    REWARD_RANK = 1         # (players - 1 - rank) / (players - 1)
    REWARD_MARGIN = 2       # 0.5 + (own score - best other) / (2 * score_scale), clipped to [0, 1]

    PLAYOUT_RANDOM = 0      # uniform over legal actions
    PLAYOUT_HEURISTIC = 1   # epsilon-greedy over the game's move prior
    PLAYOUT_MAST = 2        # epsilon-greedy over the move-average rewards (per seat and action)
    PLAYOUT_SAMPLE = 3      # epsilon-random, else drawn in proportion to the game's move prior

    OPPONENTS_SEARCH = 0    # the other seats' decisions are nodes of the tree (max-n UCB)
    OPPONENTS_POLICY = 1    # the other seats play the playout policy inside the tree too

    FINAL_VISITS = 0        # the most visited root action
    FINAL_MEAN = 1          # the root action with the best mean reward (min. 1 visit)

    AGG_VISITS = 0          # PIMC: sum the root visits of every tree
    AGG_VOTE = 1            # PIMC: each tree votes for its most visited action

    NO_NODE = -1

    STOP_BUDGET = 0         # the search ran to its budget (or was never checked)
    STOP_CLEAR = 1          # the best root move could not be overtaken in what was left
    STOP_SOFT = 2           # past the soft limit and not a close decision


ctypedef struct SearchConfig:
    int mode                # MODE_*
    int determinizations    # PIMC: trees (K >= 1)
    int aggregate           # PIMC: AGG_*
    int reward              # REWARD_*
    int playout             # PLAYOUT_*
    double epsilon          # heuristic / MAST playouts: probability of a uniformly random move
    int cutoff              # playout steps before the game's evaluation scores the state (0: to the end)
    double c                # UCB1 exploration constant
    double bias             # progressive bias weight on the move prior (0: off)
    long long iterations    # iteration budget over all workers (0: none)
    double millis           # wall-clock budget in milliseconds (0: none)
    int final_move          # FINAL_*
    int reuse               # keep the tree between moves where it still applies (ISMCTS modes)
    int reuse_reveals       # with `reuse` (and without `chance`): keep it also after the game
                            # showed the searcher something hidden (its chance_signature
                            # changed). 0: start afresh then, since the kept statistics were
                            # summed over determinizations it now knows to be false
    int normalize           # UCB on each node's child means rescaled to [0, 1] (min..max of the
                            # node's children), so that rewards in a narrow band (a solo game's
                            # small goal chances) still steer the search; 0: raw means
    int evaluator           # cut-off evaluation: -1 the game's `evaluate`, else GameDef.evaluators[i]
    double goal_margin      # solo games with a goal: share of the terminal reward paid for the
                            # margin to the goal (0: reached or not only), see terminal_rewards
    int oracle              # diagnostics: search the root state as given, never determinized
                            # (on a referee's state: a clairvoyant bound; never given to bots)
    int chance              # chance nodes: after an action that changed the game's
                            # chance_signature (a hidden tile shown), descend into a child keyed by
                            # the new signature (key -2 - low 30 bits, mover -1) before the next
                            # decision, so that the tree branches on what the searcher will see
                            # (SO-ISMCTS; a PIMC tree's reveals have one outcome each; MO-ISMCTS
                            # does not key them)
    int chance_layers       # with `chance`: key at most this many chance layers on an iteration's
                            # path (the first reveals); deeper ones are averaged over. 0: all
    int worlds              # SO-ISMCTS: determinize from a fixed set of this many worlds per
                            # search, in turn (siblings compared on the same worlds: less noise);
                            # 0: a fresh determinization every iteration
    int action_keys         # SO-ISMCTS: key each edge by what its action does
                            # (GameDef.action_key: Mount Tai's face-down edicts of challenges 5-7
                            # by tile, not slot), so that below a reveal an edge means one thing
                            # in every determinization and the tree can follow what was shown;
                            # 0 (or a game without action_key): by the action id
    int prior               # the tree's prior (progressive bias, PUCT, expansion order): 0 the
                            # game's move_prior, 1 its learned_prior (Mount Tai: the net's policy)
    double puct             # PUCT weight: a child's score gains puct * prior * sqrt(avail) /
                            # (visits + 1), AlphaZero's term with ISMCTS's availability count
                            # for the parent's visits (0: off)
    double mix              # leaf value mixing (AlphaGo's lambda): an iteration's reward is
                            # (1 - mix) x its playout's + mix x the evaluation (`evaluator`) of
                            # the state the playout starts from; 0: the playout's alone
    double paranoia         # the other players' model at 3+ players (coalition reduction): each
                            # other seat's reward is (1 - paranoia) x its own + paranoia x
                            # (1 - the searcher's); 0: max-n (each plays for itself), 1:
                            # paranoid (all play against the searcher)
    int opponents           # SO-ISMCTS and PIMC trees at 2+ players: OPPONENTS_*. With
                            # OPPONENTS_POLICY the other seats' decisions inside the tree are
                            # played by the playout policy (an opponent model) instead of being
                            # searched: the tree holds the searcher's own decisions only, and
                            # its statistics go to them


# One edge-and-node of a tree: the edge from the parent, then the node's statistics. Children of
# a node form a singly linked list sorted by `key`.
ctypedef struct Node:
    int32_t parent          # index of the parent (NO_NODE for the root)
    int32_t child           # first child, or NO_NODE
    int32_t sibling         # next sibling, or NO_NODE
    int32_t key             # the action on the edge (its GameDef.action_key with action_keys;
                            # in another player's MO tree, its observation)
    int32_t visits          # iterations through this node
    int32_t avail           # iterations in which this edge was available (ISMCTS)
    double reward           # summed reward of `mover` over those iterations
    float prior             # move prior of the edge (progressive bias), normalized per node
    int8_t mover            # seat that took the edge


ctypedef struct Tree:
    Node* nodes             # the pool, owned (realloc'd as it grows)
    int32_t size            # nodes in use; nodes[0] is the root
    int32_t cap             # nodes allocated


ctypedef struct Worker:
    Tree* trees             # n_trees trees, owned
    int n_trees             # PIMC: K; SO-ISMCTS: 1; MO-ISMCTS: players
    Rng rng
    char* roots             # PIMC: the K determinized root states (state_size each), owned
    char* work              # scratch state, owned
    int* acts               # legal actions scratch (max_legal_actions), owned
    int* untried            # legal actions without a child yet (max_legal_actions), owned
    int* keys               # action_keys: the legal actions' keys, ascending, w.acts permuted
                            # to match (max_legal_actions), owned
    double* prior           # move prior scratch (max_legal_actions), owned
    double* mast_sum        # MAST: reward sums [players][num_distinct_actions], owned
    int* mast_count         # MAST: counts, same shape, owned
    int32_t* path           # node indices of the current iteration per tree [n_trees][path_cap]
    int* trail              # (mover, action) pairs of the current iteration, for MAST
    int path_cap            # room per tree in `path`
    int trail_cap           # pairs of room in `trail`
    long long iterations    # iterations run in the last search
    char pad[64]            # keeps the next worker's fields off this worker's last cache line
                            # (root-parallel threads write their own worker constantly)


# An early stop for one worker's search (the time manager, ai/time_manager.py): every `every`
# iterations the root's two most visited moves are compared. Before the soft limit the search
# stops when the gap between them exceeds `clear` times the iterations left until the soft limit
# (1: the best cannot be overtaken by then); after it, when the decision is not close (the gap is
# at least `close` times the best's visits) or the gap exceeds `clear` times the iterations left
# until the hard budget. Iterations left under a time budget are estimated from the rate so far.
ctypedef struct StopRule:
    int every               # iterations between checks (0: never stop early)
    int tree                # the worker's tree that holds the searcher's root
    long long soft_iters    # soft limit in this worker's iterations (0: none)
    double soft             # soft limit on the monotonic clock, seconds (0: none)
    double start            # the search's start on the monotonic clock
    double close            # close while gap < close * best visits
    double clear            # clear when gap > clear * iterations left
    int reason              # out: STOP_*
