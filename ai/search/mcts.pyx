# cython: language_level=3
"""The search core: PIMC, SO-ISMCTS and MO-ISMCTS over any game's C-level interface.

`Searcher` is the Python face; everything per iteration (determinize, select, expand, playout,
backpropagate) runs in the nogil functions below on plain C data. Chance is handled open-loop:
the tree branches on decisions only, and every iteration's chance outcomes come from that
iteration's determinization.
"""

import math
import threading
import time

cimport cython
from libc.math cimport log, sqrt, INFINITY
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int32_t, uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from engine.core.interface cimport GameDef, EvaluateFn, MAX_GAME_PLAYERS
from engine.core.rng cimport Rng, rng_seed, rng_next, rng_below, rng_uniform
from engine.core.state cimport State
from engine.core.args import check_seat

MODES = {"pimc": MODE_PIMC, "ismcts": MODE_ISMCTS, "mo-ismcts": MODE_MO_ISMCTS}
REWARDS = {"win": REWARD_WIN, "rank": REWARD_RANK, "margin": REWARD_MARGIN}
OPPONENTS = {"search": OPPONENTS_SEARCH, "policy": OPPONENTS_POLICY}
PLAYOUTS = {"random": PLAYOUT_RANDOM, "heuristic": PLAYOUT_HEURISTIC, "mast": PLAYOUT_MAST,
            "sample": PLAYOUT_SAMPLE}
FINALS = {"visits": FINAL_VISITS, "mean": FINAL_MEAN}
AGGREGATES = {"visits": AGG_VISITS, "vote": AGG_VOTE}
STOP_NAMES = {STOP_BUDGET: "budget", STOP_CLEAR: "clear", STOP_SOFT: "soft"}

cdef enum:
    DEF_NODES = 1024         # nodes a tree starts with


cdef int _evaluator_index(const GameDef* g, object name) except -2:
    """GameDef.evaluators index of the evaluation `name` (-1: the game's default `evaluate`)."""
    cdef int i
    if name is None:
        return -1
    names = [g.evaluator_names[i].decode() for i in range(g.n_evaluators)]
    if name in names:
        return names.index(name)
    game = g.name.decode()
    known = ", ".join(names) if names else "none but its default"
    raise ValueError(f"{game} has no evaluation {name!r}; it has: {known}")
NODE_BYTES = sizeof(Node)
PRIORS = {"hand": 0, "net": 1}

ctypedef void (*PriorFn)(const void* s, const int* actions, int n, double* out) noexcept nogil


cdef extern from "stdlib.h" nogil:
    int posix_memalign(void** out, size_t alignment, size_t size)


cdef void* line_alloc(size_t n) noexcept nogil:
    """`n` zeroed bytes on whole cache lines of their own (freed with free), or NULL. Every
    per-worker block the main thread allocates comes from here: blocks of two workers side by
    side on one cache line would make the threads fight over it (false sharing)."""
    cdef void* p = NULL
    cdef size_t m = (n + 63) & ~(<size_t>63)
    if m == 0:
        m = 64
    if posix_memalign(&p, 64, m) != 0:
        return NULL
    memset(p, 0, m)
    return p


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9

# ---------------------------------------------------------------------------------------------
# Trees.

cdef int tree_init(Tree* t) noexcept nogil:
    t.nodes = <Node*>line_alloc(DEF_NODES * sizeof(Node))
    if t.nodes == NULL:
        return -1
    t.cap = DEF_NODES
    tree_clear(t)
    return 0


cdef void tree_clear(Tree* t) noexcept nogil:
    """Just a root."""
    t.size = 1
    memset(&t.nodes[0], 0, sizeof(Node))
    t.nodes[0].parent = NO_NODE
    t.nodes[0].child = NO_NODE
    t.nodes[0].sibling = NO_NODE
    t.nodes[0].key = -1
    t.nodes[0].mover = -1


cdef int32_t tree_add(Tree* t, int32_t parent, int key, int mover, float prior) noexcept nogil:
    """A new child of `parent` on edge `key`, inserted in key order; NO_NODE if out of memory."""
    cdef Node* grown
    cdef int32_t idx, prev, cur
    if t.size == t.cap:
        grown = <Node*>realloc(t.nodes, 2 * t.cap * sizeof(Node))
        if grown == NULL:
            return NO_NODE
        t.nodes = grown
        t.cap *= 2
    idx = t.size
    t.size += 1
    t.nodes[idx].parent = parent
    t.nodes[idx].child = NO_NODE
    t.nodes[idx].key = key
    t.nodes[idx].visits = 0
    t.nodes[idx].avail = 0
    t.nodes[idx].reward = 0.0
    t.nodes[idx].prior = prior
    t.nodes[idx].mover = <signed char>mover
    prev = NO_NODE
    cur = t.nodes[parent].child
    while cur != NO_NODE and t.nodes[cur].key < key:
        prev = cur
        cur = t.nodes[cur].sibling
    t.nodes[idx].sibling = cur
    if prev == NO_NODE:
        t.nodes[parent].child = idx
    else:
        t.nodes[prev].sibling = idx
    return idx


cdef int32_t tree_find(const Tree* t, int32_t parent, int key) noexcept nogil:
    cdef int32_t cur = t.nodes[parent].child
    while cur != NO_NODE and t.nodes[cur].key < key:
        cur = t.nodes[cur].sibling
    if cur != NO_NODE and t.nodes[cur].key == key:
        return cur
    return NO_NODE


cdef int tree_reroot(Tree* t, int32_t new_root) noexcept nogil:
    """Keep only the subtree under `new_root`, compacted, with it as the root. -1: no memory."""
    cdef Node* fresh
    cdef int32_t* order
    cdef int32_t* remap
    cdef int32_t head = 0, tail = 0, old, c, i, n
    if new_root == 0:
        return 0
    order = <int32_t*>malloc(t.size * sizeof(int32_t))
    remap = <int32_t*>malloc(t.size * sizeof(int32_t))
    if order == NULL or remap == NULL:
        free(order)
        free(remap)
        return -1
    order[tail] = new_root
    tail += 1
    while head < tail:
        old = order[head]
        remap[old] = head
        head += 1
        c = t.nodes[old].child
        while c != NO_NODE:
            order[tail] = c
            tail += 1
            c = t.nodes[c].sibling
    n = tail
    fresh = <Node*>line_alloc(max(n, DEF_NODES) * sizeof(Node))
    if fresh == NULL:
        free(order)
        free(remap)
        return -1
    for i in range(n):
        fresh[i] = t.nodes[order[i]]
        fresh[i].parent = NO_NODE if i == 0 else remap[fresh[i].parent]
        fresh[i].child = NO_NODE if fresh[i].child == NO_NODE else remap[fresh[i].child]
        if i == 0:
            fresh[i].sibling = NO_NODE
        elif fresh[i].sibling != NO_NODE:
            fresh[i].sibling = remap[fresh[i].sibling]
    free(t.nodes)
    free(order)
    free(remap)
    t.nodes = fresh
    t.size = n
    t.cap = max(n, DEF_NODES)
    return 0

# ---------------------------------------------------------------------------------------------
# Rewards and playouts.

cdef void terminal_rewards(const GameDef* g, const SearchConfig* cfg, const void* s, int n,
                           double* out) noexcept nogil:
    cdef int ranks[MAX_GAME_PLAYERS]
    cdef double sc[MAX_GAME_PLAYERS]
    cdef int i, j
    cdef double best, scale
    if n == 1:
        # Solo: the game's outcome (goal reached or not) is what counts; with `goal_margin`, a
        # share of the reward is the margin to the goal (+-2 score_scale spans it), so the search
        # still tells lines apart when all reach the goal or none does.
        g.returns(s, out)
        if cfg.goal_margin > 0 and g.goal != NULL:
            g.scores(s, sc)
            scale = g.score_scale if g.score_scale > 0 else 20.0
            out[0] = ((1.0 - cfg.goal_margin) * out[0] + cfg.goal_margin
                      * min(1.0, max(0.0, 0.5 + (sc[0] - g.goal(s)) / (4.0 * scale))))
    elif cfg.reward == REWARD_RANK:
        g.ranks(s, ranks)
        for i in range(n):
            out[i] = (n - 1 - ranks[i]) / <double>(n - 1)
    elif cfg.reward == REWARD_MARGIN:
        g.scores(s, sc)
        scale = g.score_scale if g.score_scale > 0 else 20.0
        for i in range(n):
            best = -INFINITY
            for j in range(n):
                if j != i and sc[j] > best:
                    best = sc[j]
            out[i] = min(1.0, max(0.0, 0.5 + (sc[i] - best) / (2.0 * scale)))
    else:
        g.returns(s, out)


cdef int argmax_random(const double* v, int n, Rng* rng) noexcept nogil:
    """Index of the largest value, ties broken uniformly at random."""
    cdef int i, best = 0, ties = 1
    for i in range(1, n):
        if v[i] > v[best]:
            best = i
            ties = 1
        elif v[i] == v[best]:
            ties += 1
            if rng_below(rng, ties) == 0:
                best = i
    return best


cdef int sample_weighted(const double* v, int n, Rng* rng) noexcept nogil:
    """An index drawn with probability v[i] / sum(v) (v >= 0); uniform if all are 0."""
    cdef int i
    cdef double total = 0.0, r
    for i in range(n):
        total += v[i]
    if not total > 0.0:
        return rng_below(rng, n)
    r = rng_uniform(rng) * total
    for i in range(n - 1):
        r -= v[i]
        if r < 0.0:
            return i
    return n - 1


def _debug_sample_weighted(weights, int draws, uint64_t seed) -> list:
    """Test hook: how often `sample_weighted` draws each index of `weights` in `draws` draws."""
    cdef int n = len(weights), i
    cdef double* v = <double*>malloc(max(n, 1) * sizeof(double))
    cdef Rng r
    if v == NULL:
        raise MemoryError()
    counts = [0] * n
    try:
        for i in range(n):
            v[i] = float(weights[i])
        rng_seed(&r, seed)
        for _ in range(draws):
            counts[sample_weighted(v, n, &r)] += 1
    finally:
        free(v)
    return counts


cdef int trail_push(Worker* w, int* length, int mover, int action) noexcept nogil:
    cdef int* grown
    if length[0] == w.trail_cap:
        grown = <int*>realloc(w.trail, 4 * w.trail_cap * sizeof(int))
        if grown == NULL:
            return -1
        w.trail = grown
        w.trail_cap *= 2
    w.trail[2 * length[0]] = mover
    w.trail[2 * length[0] + 1] = action
    length[0] += 1
    return 0


cdef inline int playout_kind(const GameDef* g, const SearchConfig* cfg) noexcept nogil:
    """The playout policy in force: cfg.playout, or random where it needs the game's move
    prior and the game has none."""
    if (cfg.playout == PLAYOUT_HEURISTIC or cfg.playout == PLAYOUT_SAMPLE) and g.move_prior == NULL:
        return PLAYOUT_RANDOM
    return cfg.playout


cdef void playout(Worker* w, const GameDef* g, const SearchConfig* cfg, int n_players,
                  int* trail_len, double* rewards) noexcept nogil:
    """From w.work to the end (or the cut-off), then the rewards of every seat (mixed with the
    evaluation of w.work as it was, with `cfg.mix`)."""
    cdef int i
    cdef int kind = playout_kind(g, cfg)
    cdef bint track = cfg.playout == PLAYOUT_MAST
    cdef EvaluateFn evaluate = g.evaluate if cfg.evaluator < 0 else g.evaluators[cfg.evaluator]
    cdef double leaf[MAX_GAME_PLAYERS]
    if cfg.mix > 0.0 and evaluate != NULL and not g.is_terminal(w.work):
        evaluate(w.work, leaf)
        _playout_to_end(w, g, cfg, n_players, trail_len, rewards, kind, track, evaluate)
        for i in range(n_players):
            rewards[i] = (1.0 - cfg.mix) * rewards[i] + cfg.mix * leaf[i]
        return
    _playout_to_end(w, g, cfg, n_players, trail_len, rewards, kind, track, evaluate)


cdef inline int policy_action(Worker* w, const GameDef* g, const SearchConfig* cfg,
                              const void* s, int n, int mover, int kind) noexcept nogil:
    """The playout policy's move among the legal actions w.acts[:n] of `s` (`kind`: PLAYOUT_*,
    already fallen back to random where the game has no move prior)."""
    cdef int i, a, na = g.num_distinct_actions
    if n == 1:
        return w.acts[0]
    if kind == PLAYOUT_RANDOM or rng_uniform(&w.rng) < cfg.epsilon:
        return w.acts[rng_below(&w.rng, n)]
    if kind == PLAYOUT_HEURISTIC:
        g.move_prior(s, w.acts, n, w.prior)
        return w.acts[argmax_random(w.prior, n, &w.rng)]
    if kind == PLAYOUT_SAMPLE:
        g.move_prior(s, w.acts, n, w.prior)
        return w.acts[sample_weighted(w.prior, n, &w.rng)]
    for i in range(n):
        a = mover * na + w.acts[i]
        w.prior[i] = (w.mast_sum[a] / w.mast_count[a]) if w.mast_count[a] > 0 else 1.0
    return w.acts[argmax_random(w.prior, n, &w.rng)]


cdef inline void _playout_to_end(Worker* w, const GameDef* g, const SearchConfig* cfg,
                                 int n_players, int* trail_len, double* rewards, int kind,
                                 bint track, EvaluateFn evaluate) noexcept nogil:
    cdef int steps = 0, n, a, mover
    cdef void* s = w.work
    while not g.is_terminal(s):
        if cfg.cutoff > 0 and steps >= cfg.cutoff and evaluate != NULL:
            evaluate(s, rewards)
            return
        mover = g.current_player(s)
        n = g.legal_actions(s, w.acts)
        a = policy_action(w, g, cfg, s, n, mover, kind)
        if track:
            trail_push(w, trail_len, mover, a)
        g.apply_action(s, a)
        steps += 1
    terminal_rewards(g, cfg, s, n_players, rewards)

# ---------------------------------------------------------------------------------------------
# One iteration.

cdef int path_push(Worker* w, int tree, int* depth, int32_t node) noexcept nogil:
    """Append `node` to tree `tree`'s path; grows the path arrays when full."""
    cdef int32_t* grown
    cdef int t, i
    if depth[0] == w.path_cap:
        grown = <int32_t*>malloc(w.n_trees * 2 * w.path_cap * sizeof(int32_t))
        if grown == NULL:
            return -1
        for t in range(w.n_trees):
            for i in range(w.path_cap):
                grown[t * 2 * w.path_cap + i] = w.path[t * w.path_cap + i]
        free(w.path)
        w.path = grown
        w.path_cap *= 2
    w.path[tree * w.path_cap + depth[0]] = node
    depth[0] += 1
    return 0


cdef int sort_keys(Worker* w, const GameDef* g, const void* s, int n) noexcept nogil:
    """w.keys[:n] = the action keys of the legal actions w.acts[:n] of `s`, ascending, with
    w.acts permuted to match (an insertion sort: the keys are nearly in order)."""
    cdef int i, j, k, a
    for i in range(n):
        k = g.action_key(s, w.acts[i])
        a = w.acts[i]
        j = i
        while j > 0 and w.keys[j - 1] > k:
            w.keys[j] = w.keys[j - 1]
            w.acts[j] = w.acts[j - 1]
            j -= 1
        w.keys[j] = k
        w.acts[j] = a
    return n


cdef int32_t select_or_expand(Worker* w, const GameDef* g, const SearchConfig* cfg, Tree* t,
                              int32_t node, const void* s, int n, int mover, const int* keys,
                              int* action, bint* expanded) noexcept nogil:
    """At `node` with the legal actions w.acts[:n] of state `s`, whose edge keys are keys[:n]
    (ascending; w.acts itself without action keys): count availability, then either add a
    child for an untried action (expanded = True) or pick the best child by UCB1 (plus
    progressive bias). Returns the child and its action in `action`, or NO_NODE if memory ran
    out."""
    cdef int32_t c = t.nodes[node].child, best = NO_NODE, child
    cdef int i, u = 0, pick, best_i = -1
    cdef double score, best_score = -INFINITY, total, mean, lo = 0.0, hi = 1.0, span = 1.0
    cdef Node* nd
    cdef PriorFn prior_fn = g.move_prior if cfg.prior == 0 else g.learned_prior
    if cfg.normalize and c != NO_NODE:
        lo = INFINITY
        hi = -INFINITY
        child = c
        while child != NO_NODE:
            if t.nodes[child].visits > 0 and t.nodes[child].key >= 0:
                mean = t.nodes[child].reward / t.nodes[child].visits
                lo = mean if mean < lo else lo
                hi = mean if mean > hi else hi
            child = t.nodes[child].sibling
        span = hi - lo
        if not span > 1e-9:
            lo = 0.0
            span = 1.0
    for i in range(n):
        while c != NO_NODE and t.nodes[c].key < keys[i]:
            c = t.nodes[c].sibling
        if c != NO_NODE and t.nodes[c].key == keys[i]:
            nd = &t.nodes[c]
            nd.avail += 1
            score = ((nd.reward / nd.visits - lo) / span
                     + cfg.c * sqrt(log(<double>nd.avail) / nd.visits))
            if cfg.bias > 0:
                score += cfg.bias * nd.prior / (nd.visits + 1.0)
            if cfg.puct > 0:
                score += cfg.puct * nd.prior * sqrt(<double>nd.avail) / (nd.visits + 1.0)
            if score > best_score:
                best_score = score
                best = c
                best_i = i
        else:
            w.untried[u] = i
            u += 1
    if u == 0:
        expanded[0] = False
        if best_i >= 0:
            action[0] = w.acts[best_i]
        return best
    expanded[0] = True
    if (cfg.bias > 0 or cfg.puct > 0) and prior_fn != NULL:
        prior_fn(s, w.acts, n, w.prior)
        total = 0.0
        for i in range(n):
            total += w.prior[i]
        pick = w.untried[0]
        for i in range(1, u):
            if w.prior[w.untried[i]] > w.prior[pick]:
                pick = w.untried[i]
        child = tree_add(t, node, keys[pick], mover,
                         <float>(w.prior[pick] / total if total > 0 else 1.0 / n))
    else:
        pick = w.untried[rng_below(&w.rng, u)]
        child = tree_add(t, node, keys[pick], mover, <float>(1.0 / n))
    if child != NO_NODE:
        t.nodes[child].avail = 1
    action[0] = w.acts[pick]
    return child


cdef void backprop(Worker* w, Tree* t, int tree, int depth, const double* rewards) noexcept nogil:
    cdef int i
    cdef Node* nd
    for i in range(depth):
        nd = &t.nodes[w.path[tree * w.path_cap + i]]
        nd.visits += 1
        if nd.mover >= 0:
            nd.reward += rewards[nd.mover]


cdef inline void coalition(const SearchConfig* cfg, int me, int n, double* rewards) noexcept nogil:
    """The others' rewards pulled toward the searcher's loss by `cfg.paranoia` (3+ players)."""
    cdef int i
    cdef double against
    if cfg.paranoia <= 0.0 or n < 3:
        return
    against = 1.0 - rewards[me]
    for i in range(n):
        if i != me:
            rewards[i] = (1.0 - cfg.paranoia) * rewards[i] + cfg.paranoia * against


cdef void mast_update(Worker* w, const GameDef* g, int trail_len, const double* rewards) noexcept nogil:
    cdef int i, mover, idx
    for i in range(trail_len):
        mover = w.trail[2 * i]
        idx = mover * g.num_distinct_actions + w.trail[2 * i + 1]
        w.mast_sum[idx] += rewards[mover]
        w.mast_count[idx] += 1


cdef void iterate_single(Worker* w, const GameDef* g, const SearchConfig* cfg, const void* root,
                         int me, Tree* t, bint determinize, int n_players,
                         uint64_t world) noexcept nogil:
    """One iteration on one tree: SO-ISMCTS (determinize each time) or a PIMC tree (root
    already determinized). A nonzero `world` seeds the determinization (one of a fixed set of
    worlds, `SearchConfig.worlds`); 0 draws it from the worker's stream."""
    cdef double rewards[MAX_GAME_PLAYERS]
    cdef int32_t node = 0, child, key
    cdef int depth = 0, trail_len = 0, n, mover, layers = 0, action = 0
    cdef bint expanded = False
    cdef bint keyed = cfg.chance and g.chance_signature != NULL
    cdef bint by_key = cfg.action_keys and g.action_key != NULL
    cdef const int* keys = w.keys if by_key else w.acts
    cdef uint64_t seen = 0, now_seen
    cdef void* s = w.work
    cdef Rng fixed
    cdef bint modelled = cfg.opponents == OPPONENTS_POLICY and n_players > 1
    cdef int kind = playout_kind(g, cfg)
    g.copy_state(root, s)
    if determinize:
        if world != 0:
            rng_seed(&fixed, world)
            g.determinize(s, me, &fixed)
        else:
            g.determinize(s, me, &w.rng)
    path_push(w, 0, &depth, 0)
    if keyed:
        seen = g.chance_signature(s, me)
    while not g.is_terminal(s):
        mover = g.current_player(s)
        n = g.legal_actions(s, w.acts)
        if modelled and mover != me and n > 1 and depth > 1:
            # an opponent model: the other seat plays the playout policy, no node of its own
            action = policy_action(w, g, cfg, s, n, mover, kind)
            child = node
            expanded = False
        else:
            if by_key:
                sort_keys(w, g, s, n)
            child = select_or_expand(w, g, cfg, t, node, s, n, mover, keys, &action, &expanded)
            if child == NO_NODE:
                break
        if cfg.playout == PLAYOUT_MAST:
            trail_push(w, &trail_len, mover, action)
        g.apply_action(s, action)
        if child != node:
            node = child
            path_push(w, 0, &depth, node)
        if expanded:
            break
        if keyed:
            now_seen = g.chance_signature(s, me)
            if now_seen != seen:
                # A hidden choice of this determinization was shown: branch on it.
                seen = now_seen
                key = -2 - <int32_t>(now_seen & 0x3FFFFFFF)
                child = tree_find(t, node, key)
                if child == NO_NODE:
                    child = tree_add(t, node, key, -1, 1.0)
                    if child == NO_NODE:
                        break
                node = child
                path_push(w, 0, &depth, node)
                layers += 1
                if layers == cfg.chance_layers:
                    keyed = False
    playout(w, g, cfg, n_players, &trail_len, rewards)
    coalition(cfg, me, n_players, rewards)
    backprop(w, t, 0, depth, rewards)
    if cfg.playout == PLAYOUT_MAST:
        mast_update(w, g, trail_len, rewards)


cdef void iterate_mo(Worker* w, const GameDef* g, const SearchConfig* cfg, const void* root,
                     int me, int n_players) noexcept nogil:
    """One MO-ISMCTS iteration: each seat's tree is walked by what that seat observes; the
    mover's own tree chooses the move."""
    cdef double rewards[MAX_GAME_PLAYERS]
    cdef int32_t cur[MAX_GAME_PLAYERS]
    cdef int32_t child, other
    cdef int depth = 0, d, trail_len = 0, n, mover, q, a = 0, key
    cdef bint expanded = False, failed = False
    cdef void* s = w.work
    cdef Tree* t
    g.copy_state(root, s)
    if not cfg.oracle:
        g.determinize(s, me, &w.rng)
    for q in range(n_players):
        cur[q] = 0
        d = depth
        path_push(w, q, &d, 0)
    depth = 1
    while not g.is_terminal(s):
        mover = g.current_player(s)
        n = g.legal_actions(s, w.acts)
        t = &w.trees[mover]
        child = select_or_expand(w, g, cfg, t, cur[mover], s, n, mover, w.acts, &a, &expanded)
        if child == NO_NODE:
            break
        for q in range(n_players):
            if q == mover:
                cur[q] = child
                continue
            key = a if g.observe_action == NULL else g.observe_action(s, a, q)
            other = tree_find(&w.trees[q], cur[q], key)
            if other == NO_NODE:
                other = tree_add(&w.trees[q], cur[q], key, mover, 0.0)
                if other == NO_NODE:
                    failed = True
                    break
            w.trees[q].nodes[other].avail += 1
            cur[q] = other
        if failed:
            break
        for q in range(n_players):
            d = depth
            path_push(w, q, &d, cur[q])
        depth += 1
        if cfg.playout == PLAYOUT_MAST:
            trail_push(w, &trail_len, mover, a)
        g.apply_action(s, a)
        if expanded:
            break
    playout(w, g, cfg, n_players, &trail_len, rewards)
    coalition(cfg, me, n_players, rewards)
    for q in range(n_players):
        backprop(w, &w.trees[q], q, depth, rewards)
    if cfg.playout == PLAYOUT_MAST:
        mast_update(w, g, trail_len, rewards)


@cython.cdivision(True)   # divides by the elapsed time only once it is above 0
cdef bint stop_early(Worker* w, StopRule* stop, long long it, long long max_iters,
                     double deadline) noexcept nogil:
    """The time manager's check (StopRule in mcts.pxd): whether worker `w`, `it` iterations
    into its search, stops now; sets `stop.reason`."""
    cdef Tree* t = &w.trees[stop.tree]
    cdef int32_t c = t.nodes[0].child
    cdef long long v, best = 0, second = 0
    cdef double left = -1.0, t_now = 0.0, rate = 0.0
    cdef bint soft_passed
    while c != NO_NODE:
        v = t.nodes[c].visits
        if v > best:
            second = best
            best = v
        elif v > second:
            second = v
        c = t.nodes[c].sibling
    if stop.soft > 0 or deadline > 0:
        t_now = now()
        if t_now > stop.start:
            rate = it / (t_now - stop.start)
    soft_passed = (stop.soft_iters > 0 and it >= stop.soft_iters) or (stop.soft > 0 and t_now >= stop.soft)
    # Iterations left until the soft limit (before it) or the hard budget (after it).
    if not soft_passed and stop.soft_iters > 0:
        left = <double>(stop.soft_iters - it)
    elif not soft_passed and stop.soft > 0:
        left = rate * (stop.soft - t_now)
    else:
        if max_iters > 0:
            left = <double>(max_iters - it)
        if deadline > 0 and (left < 0 or rate * (deadline - t_now) < left):
            left = rate * (deadline - t_now)
    if left > 0 and best - second > stop.clear * left:
        stop.reason = STOP_CLEAR
        return True
    if soft_passed and best - second >= stop.close * best:
        stop.reason = STOP_SOFT
        return True
    return False


@cython.cdivision(True)   # the divisors below are never 0: n_trees >= 1, worlds > 0 where used
cdef long long worker_search(Worker* w, const GameDef* g, const SearchConfig* cfg,
                             const void* root, int me, int n_players, long long max_iters,
                             double deadline, StopRule* stop) noexcept nogil:
    """Iterate until `max_iters` (if > 0) or the monotonic clock passes `deadline` (if > 0), or
    until `stop` (if its `every` > 0) says the decision is made."""
    cdef long long it = 0
    cdef long long next_check = stop.every if stop.every > 0 else -1
    cdef int k
    cdef size_t size = g.state_size
    cdef uint64_t base = 0, world = 0
    stop.reason = STOP_BUDGET
    if cfg.worlds > 0 and cfg.mode == MODE_ISMCTS:
        base = rng_next(&w.rng)       # this search's set of worlds (the default draws nothing)
    while True:
        if max_iters > 0 and it >= max_iters:
            break
        if deadline > 0 and now() >= deadline:
            break
        if cfg.mode == MODE_PIMC:
            k = it % w.n_trees
            iterate_single(w, g, cfg, w.roots + k * size, me, &w.trees[k], False, n_players, 0)
        elif cfg.mode == MODE_ISMCTS:
            if cfg.worlds > 0:
                world = base + <uint64_t>(it % cfg.worlds) * 0x9E3779B97F4A7C15ULL
                world = world if world != 0 else 1
            iterate_single(w, g, cfg, root, me, &w.trees[0], not cfg.oracle, n_players, world)
        else:
            iterate_mo(w, g, cfg, root, me, n_players)
        it += 1
        if it == next_check:
            next_check += stop.every
            if stop_early(w, stop, it, max_iters, deadline):
                break
    w.iterations = it
    return it

# ---------------------------------------------------------------------------------------------
# Workers.

cdef int worker_init(Worker* w, const GameDef* g, const SearchConfig* cfg, int n_players,
                     uint64_t seed) noexcept nogil:
    cdef int i
    memset(w, 0, sizeof(Worker))
    if cfg.mode == MODE_PIMC:
        w.n_trees = cfg.determinizations
    elif cfg.mode == MODE_MO_ISMCTS:
        w.n_trees = n_players
    else:
        w.n_trees = 1
    rng_seed(&w.rng, seed)
    w.trees = <Tree*>line_alloc(w.n_trees * sizeof(Tree))
    w.work = <char*>line_alloc(g.state_size)
    w.acts = <int*>line_alloc(g.max_legal_actions * sizeof(int))
    w.untried = <int*>line_alloc(g.max_legal_actions * sizeof(int))
    w.keys = <int*>line_alloc(g.max_legal_actions * sizeof(int))
    w.prior = <double*>line_alloc(g.max_legal_actions * sizeof(double))
    w.path_cap = 256
    w.path = <int32_t*>line_alloc(w.n_trees * w.path_cap * sizeof(int32_t))
    w.trail_cap = 1024
    w.trail = <int*>line_alloc(2 * w.trail_cap * sizeof(int))
    if cfg.mode == MODE_PIMC:
        w.roots = <char*>line_alloc(w.n_trees * g.state_size)
    if cfg.playout == PLAYOUT_MAST:
        w.mast_sum = <double*>line_alloc(n_players * g.num_distinct_actions * sizeof(double))
        w.mast_count = <int*>line_alloc(n_players * g.num_distinct_actions * sizeof(int))
        if w.mast_sum == NULL or w.mast_count == NULL:
            return -1
    if (w.trees == NULL or w.work == NULL or w.acts == NULL or w.untried == NULL
            or w.prior == NULL or w.path == NULL or w.trail == NULL or w.keys == NULL
            or (cfg.mode == MODE_PIMC and w.roots == NULL)):
        return -1
    for i in range(w.n_trees):
        if tree_init(&w.trees[i]) != 0:
            return -1
    return 0


cdef void worker_free(Worker* w) noexcept nogil:
    cdef int i
    if w.trees != NULL:
        for i in range(w.n_trees):
            free(w.trees[i].nodes)
    free(w.trees)
    free(w.roots)
    free(w.work)
    free(w.acts)
    free(w.untried)
    free(w.keys)
    free(w.prior)
    free(w.mast_sum)
    free(w.mast_count)
    free(w.path)
    free(w.trail)
    memset(w, 0, sizeof(Worker))


cdef int32_t _walk(Tree* tree, list since, int at, int32_t ckey):
    """The node reached from the root by the actions `since`, through chance child `ckey` just
    after step `at` (none if `at` < 0); NO_NODE if the tree has no such path."""
    cdef int32_t node = 0
    cdef int j = 0
    for a in since:
        node = tree_find(tree, node, a)
        if node == NO_NODE:
            return NO_NODE
        if j == at:
            node = tree_find(tree, node, ckey)
            if node == NO_NODE:
                return NO_NODE
        j += 1
    return node


def _check_budget(iterations, millis) -> None:
    """A search budget: `iterations` and `millis` not negative, not both 0 (ValueError)."""
    if iterations < 0 or millis < 0 or (iterations == 0 and millis == 0):
        raise ValueError("give a budget: iterations > 0 and/or millis > 0")


cdef class Searcher:
    """A configured search that can be asked for a move in any state of one game.

    Holds its trees between calls so that `reuse` can continue from the position reached.
    """
    cdef const GameDef* g
    cdef SearchConfig cfg
    cdef Worker* workers
    cdef int n_workers
    cdef int n_players
    cdef uint64_t seed
    cdef uint64_t calls
    cdef list last_history
    cdef int last_player
    cdef uint64_t last_seen      # the root's chance signature at the last search (chance=True
                                 # or reuse_reveals=False)
    cdef dict last_keys          # action_keys: the last root's legal actions -> their edge keys
    cdef object last_root        # opponents=policy: a copy of the last root (to tell who moved since)
    cdef readonly dict config
    cdef object evaluation       # the game evaluation's name asked for (None: the default)
    cdef StopRule rules[64]      # each worker's early stop for the current search (time manager)

    def __cinit__(self):
        self.workers = NULL
        self.n_workers = 0
        self.g = NULL

    def __init__(self, *, mode="ismcts", iterations=0, millis=0.0, c=0.7, reward="win",
                 playout="random", epsilon=0.1, cutoff=0, bias=0.0, determinizations=10,
                 aggregate="visits", final="visits", reuse=True, reuse_reveals=True, threads=1,
                 seed=0, evaluation=None, goal_margin=0.0, normalize=False, oracle=False,
                 chance=False, chance_layers=0, worlds=0, action_keys=False, prior="hand",
                 puct=0.0, mix=0.0, paranoia=0.0, opponents="search"):
        def pick(table, value, what):
            if value not in table:
                raise ValueError(f"{what} must be one of {', '.join(table)}, got {value!r}")
            return table[value]
        self.cfg.mode = pick(MODES, mode, "mode")
        self.cfg.reward = pick(REWARDS, reward, "reward")
        self.cfg.playout = pick(PLAYOUTS, playout, "playout")
        self.cfg.final_move = pick(FINALS, final, "final")
        self.cfg.prior = pick(PRIORS, prior, "prior")
        self.cfg.aggregate = pick(AGGREGATES, aggregate, "aggregate")
        self.cfg.opponents = pick(OPPONENTS, opponents, "opponents")
        if opponents != "search" and mode == "mo-ismcts":
            raise ValueError("opponents=policy applies to the ismcts and pimc modes, not "
                             "mo-ismcts")
        for name, value in (("millis", millis), ("c", c), ("epsilon", epsilon), ("bias", bias),
                            ("puct", puct), ("mix", mix), ("paranoia", paranoia)):
            # NaN passes every comparison below and would make the search loop forever (a NaN
            # deadline never passes) or select nothing; infinity is a budget that never ends.
            if isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
        _check_budget(iterations, millis)
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon}")
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix must be in [0, 1], got {mix}")
        if not 0.0 <= paranoia <= 1.0:
            raise ValueError(f"paranoia must be in [0, 1], got {paranoia}")
        if c < 0 or bias < 0 or cutoff < 0 or puct < 0:
            raise ValueError("c, bias, puct and cutoff must not be negative")
        if prior != "hand" and bias == 0 and puct == 0:
            raise ValueError(f"prior={prior} steers the tree only with a weight: give bias > 0 "
                             f"or puct > 0")
        if not isinstance(goal_margin, (int, float)) or isinstance(goal_margin, bool) \
                or not 0.0 <= goal_margin <= 1.0:
            raise ValueError(f"goal_margin must be a number in [0, 1], got {goal_margin!r}")
        if evaluation is not None and not isinstance(evaluation, str):
            raise ValueError(f"evaluation must be the name of one of the game's evaluations, "
                             f"got {evaluation!r}")
        if determinizations < 1:
            raise ValueError(f"determinizations must be at least 1, got {determinizations}")
        for name, value in (("chance_layers", chance_layers), ("worlds", worlds)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
        if worlds and mode != "ismcts":
            raise ValueError(f"worlds applies to mode ismcts (SO-ISMCTS) only, got mode {mode!r}")
        if action_keys and mode != "ismcts":
            raise ValueError(f"action_keys applies to mode ismcts (SO-ISMCTS) only, got mode "
                             f"{mode!r}")
        if not 1 <= threads <= 64:
            raise ValueError(f"threads must be in 1..64, got {threads}")
        self.cfg.iterations = iterations
        self.cfg.millis = millis
        self.cfg.c = c
        self.cfg.epsilon = epsilon
        self.cfg.cutoff = cutoff
        self.cfg.bias = bias
        self.cfg.determinizations = determinizations
        self.cfg.reuse = 1 if reuse else 0
        self.cfg.reuse_reveals = 1 if reuse_reveals else 0
        self.cfg.evaluator = -1
        self.cfg.goal_margin = goal_margin
        self.cfg.normalize = 1 if normalize else 0
        self.cfg.oracle = 1 if oracle else 0
        self.cfg.chance = 1 if chance else 0
        self.cfg.chance_layers = chance_layers
        self.cfg.worlds = worlds
        self.cfg.action_keys = 1 if action_keys else 0
        self.cfg.puct = puct
        self.cfg.mix = mix
        self.cfg.paranoia = paranoia
        self.evaluation = evaluation
        self.n_workers = threads
        self.seed = seed
        self.calls = 0
        self.last_history = None
        self.last_player = -1
        self.last_keys = None
        self.last_root = None
        self.config = dict(mode=mode, iterations=iterations, millis=millis, c=c, reward=reward,
                           playout=playout, epsilon=epsilon, cutoff=cutoff, bias=bias,
                           determinizations=determinizations, aggregate=aggregate, final=final,
                           reuse=reuse, reuse_reveals=reuse_reveals, threads=threads, seed=seed,
                           evaluation=evaluation, goal_margin=goal_margin, normalize=normalize,
                           oracle=oracle, chance=chance, chance_layers=chance_layers,
                           worlds=worlds, action_keys=action_keys, prior=prior, puct=puct,
                           mix=mix, paranoia=paranoia, opponents=opponents)

    def __dealloc__(self):
        self._free_workers()

    cdef void _free_workers(self):
        cdef int i
        if self.workers != NULL:
            for i in range(self.n_workers):
                worker_free(&self.workers[i])
            free(self.workers)
            self.workers = NULL

    cdef void _setup(self, State state) except *:
        cdef int i
        cdef uint64_t s
        cdef Rng mix
        self._free_workers()
        self.cfg.evaluator = _evaluator_index(state.gdef, self.evaluation)
        if self.cfg.prior == 1 and state.gdef.learned_prior == NULL:
            raise ValueError(f"{state.gdef.name.decode()} has no learned prior (prior=net)")
        self.g = state.gdef
        self.n_players = self.g.num_players(state.data)
        self.workers = <Worker*>line_alloc(self.n_workers * sizeof(Worker))
        if self.workers == NULL:
            raise MemoryError()
        rng_seed(&mix, self.seed)
        for i in range(self.n_workers):
            s = rng_next(&mix)
            if worker_init(&self.workers[i], self.g, &self.cfg, self.n_players, s) != 0:
                self._free_workers()
                raise MemoryError()
        self.last_history = None

    def restart(self) -> None:
        """Forget the trees and the MAST tables (a new game begins)."""
        self._free_workers()
        self.last_history = None

    cdef bint _reuse_trees(self, State state, int me) except -1:
        """Move each worker's root to the node the game reached since the last search; False if
        the trees do not apply (then they are cleared).

        With chance nodes, the game's own chance signature says which chance child it took: a
        face-down tile is shown by the same step in every determinization (which slot a move
        uncovers is public), so at most one step since the last search can have shown what
        the signature now holds. More than one showing since then: the trees are dropped.
        Without chance nodes and with `reuse_reveals` off, any showing since the last search
        drops them: their statistics were summed over worlds the searcher now knows false."""
        cdef int i, t, j, n
        cdef int32_t node
        cdef Tree* tree
        cdef int32_t ckey = 0
        cdef bint shown = False
        if (not self.cfg.reuse or self.cfg.mode == MODE_PIMC or self.last_history is None
                or me != self.last_player or self.g.observe_action != NULL):
            return False
        history = state.history()
        k = len(self.last_history)
        if len(history) < k or history[:k] != self.last_history:
            return False
        since = history[k:]
        if self.cfg.opponents == OPPONENTS_POLICY and self.n_players > 1:
            # the tree holds no node for another seat's decision with a choice (the policy
            # played it): follow only the moves that have one
            if self.last_keys is not None or self.cfg.chance or self.last_root is None:
                return False
            since = self._tree_moves(since, me)
            if since is None:
                return False
        n = len(since)
        if self.last_keys is not None:
            # Edges are keyed by what an action did in the state it was played in, which only
            # the last root's keys tell: one step since then can be followed, more cannot.
            if n != 1 or since[0] not in self.last_keys:
                return False
            since = [self.last_keys[since[0]]]
        if self.cfg.chance and self.g.chance_signature != NULL:
            seen = self.g.chance_signature(state.data, me)
            if seen != self.last_seen:
                shown = True
                ckey = -2 - <int32_t>(seen & 0x3FFFFFFF)
        elif not self.cfg.reuse_reveals and self.g.chance_signature != NULL:
            if self.g.chance_signature(state.data, me) != self.last_seen:
                return False
        for i in range(self.n_workers):
            for t in range(self.workers[i].n_trees):
                tree = &self.workers[i].trees[t]
                node = _walk(tree, since, -1, 0)
                if shown:
                    # The step that showed the tile: the one whose chance child the path runs
                    # through (the first that fits).
                    node = NO_NODE
                    for j in range(n):
                        node = _walk(tree, since, j, ckey)
                        if node != NO_NODE:
                            break
                if node == NO_NODE or tree_reroot(tree, node) != 0:
                    return False
        return True

    def _tree_moves(self, list since, int me):
        """The moves of `since` (played from the last root) that are edges of an opponents=policy
        tree: the searcher's, and anyone's forced ones; None if they do not replay."""
        replay = self.last_root.clone()
        kept = []
        for a in since:
            legal = replay.legal_actions()
            if a not in legal:
                return None
            if replay.current_player() == me or len(legal) == 1:
                kept.append(a)
            replay.apply_action(a)
        return kept

    def _run_worker(self, int i, State state, int me, long long iters, double deadline) -> None:
        """Run worker `i`'s iterations (called by `search`, one thread per worker)."""
        if self.workers == NULL or not 0 <= i < self.n_workers or state.gdef != self.g:
            raise ValueError(f"no worker {i} set up for this state's game")
        if not 0 <= me < self.n_players:
            raise ValueError(f"player must be a seat in 0..{self.n_players - 1}, got {me}")
        cdef Worker* w = &self.workers[i]
        cdef const GameDef* g = self.g
        cdef const SearchConfig* cfg = &self.cfg
        cdef const void* root = state.data
        cdef int n_players = self.n_players
        cdef StopRule* stop = &self.rules[i]
        with nogil:
            worker_search(w, g, cfg, root, me, n_players, iters, deadline, stop)

    def search(self, State state, player=None, *, iterations=None, millis=None,
               soft_iterations=0, soft_millis=0.0, close=0.0, clear=1.0, every=0) -> dict:
        """Search from `state` for `player` (default: the player to move). The state is only
        read; every iteration starts from a determinization of it from `player`'s view.
        Returns the chosen action and the root statistics.

        `player` must be a seat of `state` (ValueError otherwise; TypeError for what is not an
        integer, bool included): the search indexes per-seat arrays with it.

        The time manager (ai/time_manager.py) gives this search its own budget: `iterations`
        and `millis` in place of the configured ones, and with `every` > 0 an early stop
        checked every `every` iterations (StopRule in mcts.pxd): a soft limit
        (`soft_iterations`, `soft_millis`) after which only a close decision (the top two root
        moves' visits within `close` of the best's) goes on, and a clear one (the gap more than
        `clear` times the iterations left) stops at once. PIMC stops at the soft limit."""
        cdef int i, k, t, me
        cdef Worker* w
        cdef Tree* tree
        cdef int32_t c
        cdef double deadline = 0.0
        cdef long long per
        cdef long long budget_iters = self.cfg.iterations if iterations is None else iterations
        cdef double budget_millis = self.cfg.millis if millis is None else millis
        for name, value in (("millis", budget_millis), ("soft_millis", soft_millis),
                            ("close", close), ("clear", clear)):
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        if soft_iterations < 0 or every < 0:
            raise ValueError(f"soft_iterations and every must be >= 0, got {soft_iterations!r} "
                             f"and {every!r}")
        _check_budget(budget_iters, budget_millis)
        if self.cfg.mode == MODE_PIMC and every > 0:
            # PIMC's roots are spread over K trees: no root to check; the soft limit is its budget.
            budget_iters = soft_iterations or budget_iters
            budget_millis = soft_millis or budget_millis
            every = 0
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        me = state.current_player() if player is None else check_seat(state, player, "player")
        if self.g != state.gdef or self.workers == NULL:
            self._setup(state)
        elif self.n_players != self.g.num_players(state.data):
            self._setup(state)
        reused = self._reuse_trees(state, me)
        if not reused:
            for i in range(self.n_workers):
                for t in range(self.workers[i].n_trees):
                    tree_clear(&self.workers[i].trees[t])
        self.calls += 1
        root_keys = self._keys_of(state)
        # PIMC: fresh determinized roots per worker and tree.
        if self.cfg.mode == MODE_PIMC:
            for i in range(self.n_workers):
                w = &self.workers[i]
                for k in range(w.n_trees):
                    self.g.copy_state(state.data, w.roots + k * self.g.state_size)
                    if not self.cfg.oracle:
                        self.g.determinize(w.roots + k * self.g.state_size, me, &w.rng)
        start = time.perf_counter()
        begun = now()
        if budget_millis > 0:
            deadline = begun + budget_millis / 1000.0
        for i in range(self.n_workers):
            self.rules[i].every = every
            self.rules[i].tree = me if self.cfg.mode == MODE_MO_ISMCTS else 0
            self.rules[i].soft_iters = (soft_iterations + self.n_workers - 1) // self.n_workers
            self.rules[i].soft = begun + soft_millis / 1000.0 if soft_millis > 0 else 0.0
            self.rules[i].start = begun
            self.rules[i].close = close
            self.rules[i].clear = clear
            self.rules[i].reason = STOP_BUDGET
        legal = state.legal_actions()
        if len(legal) == 1:
            per = 0
            iters = [0] * self.n_workers
        else:
            per = budget_iters // self.n_workers if budget_iters > 0 else 0
            extra = budget_iters - per * self.n_workers if budget_iters > 0 else 0
            iters = [per + (1 if i < extra else 0) for i in range(self.n_workers)]
            if budget_iters > 0 and per == 0:
                iters = [1 if i < budget_iters else 0 for i in range(self.n_workers)]
            threads = [
                threading.Thread(target=self._run_worker, args=(i, state, me, iters[i], deadline))
                for i in range(1, self.n_workers)
                if iters[i] > 0 or budget_iters == 0
            ]
            for th in threads:
                th.start()
            if iters[0] > 0 or budget_iters == 0:
                self._run_worker(0, state, me, iters[0], deadline)
            for th in threads:
                th.join()
        seconds = time.perf_counter() - start
        stats = self._root_stats(me)
        if root_keys is not None:
            by_key = {k: a for a, k in root_keys.items()}
            stats = {by_key[k]: v for k, v in stats.items() if k in by_key}
        action = self._choose(stats, legal)
        self.last_history = state.history()
        self.last_player = me
        if self.cfg.opponents == OPPONENTS_POLICY:
            self.last_root = state.clone()
        self.last_keys = root_keys
        if (self.cfg.chance or not self.cfg.reuse_reveals) and self.g.chance_signature != NULL:
            self.last_seen = self.g.chance_signature(state.data, me)
        total_iters = sum(self.workers[i].iterations for i in range(self.n_workers)) if len(legal) > 1 else 0
        nodes = sum(self.workers[i].trees[t].size for i in range(self.n_workers)
                    for t in range(self.workers[i].n_trees))
        return {
            "action": action,
            "iterations": total_iters,
            "seconds": seconds,
            "nodes": nodes,
            "node_bytes": NODE_BYTES,
            "reused": reused,
            "stop": STOP_NAMES[self.rules[0].reason] if len(legal) > 1 else "forced",
            "root": sorted(
                ({"action": a, "visits": v["visits"],
                  "mean": v["reward"] / v["visits"] if v["visits"] else 0.0,
                  "votes": v["votes"]}
                 for a, v in stats.items()),
                key=lambda r: (-r["visits"], r["action"]),
            ),
        }

    cdef object _keys_of(self, State state):
        """With action keys: {legal action of `state`: its edge key}; else None."""
        if not self.cfg.action_keys or self.g.action_key == NULL:
            return None
        return {a: self.g.action_key(state.data, a) for a in state.legal_actions()}

    cdef dict _root_stats(self, int me):
        """Root child statistics summed over workers (and PIMC trees), by action."""
        cdef int i, t
        cdef int32_t c, best
        cdef Tree* tree
        stats = {}
        for i in range(self.n_workers):
            for t in range(self.workers[i].n_trees):
                if self.cfg.mode == MODE_MO_ISMCTS and t != me:
                    continue
                tree = &self.workers[i].trees[t]
                c = tree.nodes[0].child
                best = NO_NODE
                while c != NO_NODE:
                    entry = stats.setdefault(tree.nodes[c].key,
                                             {"visits": 0, "reward": 0.0, "votes": 0})
                    entry["visits"] += tree.nodes[c].visits
                    entry["reward"] += tree.nodes[c].reward
                    if best == NO_NODE or tree.nodes[c].visits > tree.nodes[best].visits:
                        best = c
                    c = tree.nodes[c].sibling
                if best != NO_NODE:
                    stats[tree.nodes[best].key]["votes"] += 1
        return stats

    def _choose(self, dict stats, list legal) -> int:
        legal_set = set(legal)
        cands = [(a, v) for a, v in stats.items() if a in legal_set and v["visits"] > 0]
        if not cands:
            return legal[0]
        def mean(v):
            return v["reward"] / v["visits"]
        if self.cfg.mode == MODE_PIMC and self.cfg.aggregate == AGG_VOTE:
            return max(cands, key=lambda av: (av[1]["votes"], av[1]["visits"], -av[0]))[0]
        if self.cfg.final_move == FINAL_MEAN:
            return max(cands, key=lambda av: (mean(av[1]), av[1]["visits"], -av[0]))[0]
        return max(cands, key=lambda av: (av[1]["visits"], mean(av[1]), -av[0]))[0]
