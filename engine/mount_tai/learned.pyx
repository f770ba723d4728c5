# cython: language_level=3
"""Mount Tai: the evaluation learned from self-play (see learned.pxd; the model is fitted by
`python -m ai.learn`). The weights live in C arrays filled once from the package's data files,
one slot per shipped model: "learned" (the current model, eval_model.json), "learned-v2" (the
model of issue 14's first two steps, eval_model_v2.json) and "learned-v3" (the model of its third
step, eval_model_v3.json), the older ones kept so that the bots tuned on them play as they did.
`load_model` replaces a slot's model for experiments (not while a search runs).

Weights are held per table: the plain solo game, each of the eight challenge games, 2, 3 and 4
players. A model file gives weights per table size (solo, 2, 3, 4 players); since version 3 it
may also give some solo tables weights (and spreads) of their own, which the other solo tables
do not share."""

import json
from pathlib import Path

from libc.math cimport erf, sqrt

from engine.core.shares cimport win_shares

from engine.mount_tai.state cimport *
from engine.mount_tai.knowledge cimport (N_FEATURES, mt_features, mt_projection, mt_evaluate)
from engine.mount_tai.scoring cimport solo_goal
from engine.core.state cimport State as CoreState

cdef enum:
    N_STAGES = 17       # decisions left 0..16
    N_MODES = 4         # table sizes: solo, 2, 3, 4 players (index = players - 1)
    N_SOLO_TABLES = 9   # the plain solo game (0) and challenge games 1..8
    N_TABLES = 12       # solo tables 0..8, then 2, 3 and 4 players (9..11)
    N_MODELS = 3        # models loaded side by side (SLOTS below)

# Per slot: prediction = LW[slot][table][stage] . features
cdef double LW[N_MODELS][N_TABLES][N_STAGES][N_FEATURES]
cdef double SIGMA[N_MODELS][N_SOLO_TABLES][N_STAGES]  # held-out error spread (solo goal)
cdef double TEMP[N_MODELS][N_MODES][N_STAGES]   # softmax temperature per mode and stage
cdef bint READY[N_MODELS]                       # a model is loaded in the slot
for _k in range(N_MODELS):
    READY[_k] = False

# Slot names (the evaluations' names in GameDef.evaluators) and their shipped model files.
SLOTS = ("learned", "learned-v2", "learned-v3")
DEFAULT_MODELS = {"learned": Path(__file__).with_name("eval_model.json"),
                  "learned-v2": Path(__file__).with_name("eval_model_v2.json"),
                  "learned-v3": Path(__file__).with_name("eval_model_v3.json")}
# The solo tables a version 3 file may give weights of their own, by name (index = table).
SOLO_TABLES = ("solo", *(f"challenge {k}" for k in range(1, N_SOLO_TABLES)))
DEFAULT_MODEL = DEFAULT_MODELS["learned"]
_info: dict = {name: {} for name in SLOTS}


cdef inline int stage_of(const double* f) noexcept nogil:
    cdef int b = <int>f[43]             # knowledge.FEATURE_NAMES: "decisions_left"
    return 0 if b < 0 else (N_STAGES - 1 if b >= N_STAGES else b)


cdef inline int mode_of(const MTState* s) noexcept nogil:
    cdef int m = s.opt.n_players - 1
    return 0 if m < 0 else (N_MODES - 1 if m >= N_MODES else m)


cdef inline int table_of(const MTState* s) noexcept nogil:
    """The weights' table: a solo game's challenge number (0: the plain game), else 8 + mode."""
    cdef int m = mode_of(s)
    if m > 0:
        return N_SOLO_TABLES - 1 + m
    return s.opt.challenge if s.opt.challenge < N_SOLO_TABLES else 0


cdef double predict(int slot, const void* s, int seat, int* stage) noexcept nogil:
    cdef double f[N_FEATURES]
    cdef double v = 0.0
    cdef int i, b
    cdef const double* w
    mt_features(s, seat, f)
    b = stage_of(f)
    w = LW[slot][table_of(<const MTState*>s)][b]
    for i in range(N_FEATURES):
        v += w[i] * f[i]
    stage[0] = b
    return v


cdef double slot_projection(int slot, const void* s, int seat) noexcept nogil:
    cdef int b
    if not READY[slot]:
        return mt_projection(s, seat)
    return predict(slot, s, seat, &b)


cdef double mt_learned_projection(const void* s, int seat) noexcept nogil:
    return slot_projection(0, s, seat)


cdef void slot_evaluate(int slot, const void* vs, double* out) noexcept nogil:
    cdef const MTState* s = <const MTState*>vs
    cdef int i, b, b0 = 0, n = s.opt.n_players
    cdef double est[MAX_PLAYERS]
    if not READY[slot]:
        mt_evaluate(vs, out)
        return
    if s.opt.solo:
        est[0] = predict(slot, vs, 0, &b)
        out[0] = 0.5 * (1.0 + erf((est[0] - solo_goal(s) + 0.5)
                                  / (SIGMA[slot][table_of(s)][b] * sqrt(2.0))))
        return
    for i in range(n):
        est[i] = predict(slot, vs, i, &b)
        if i == s.cur:
            b0 = b
    win_shares(est, n, TEMP[slot][mode_of(s)][b0], out)


cdef void mt_evaluate_learned(const void* vs, double* out) noexcept nogil:
    slot_evaluate(0, vs, out)


cdef void mt_evaluate_learned_v2(const void* vs, double* out) noexcept nogil:
    slot_evaluate(1, vs, out)


cdef void mt_evaluate_learned_v3(const void* vs, double* out) noexcept nogil:
    slot_evaluate(2, vs, out)


def _slot(name) -> int:
    if name not in SLOTS:
        raise ValueError(f"no learned evaluation slot {name!r}; slots: {', '.join(SLOTS)}")
    return SLOTS.index(name)


def model_arrays(doc: dict) -> tuple:
    """A model file's contents (parsed JSON) checked and brought to one shape: (weights
    [modes][stages][features], sigma [stages], temp [modes][stages]), as nested lists. Version 2
    files hold weights and temperatures per table size; a version 1 file (one model for every
    table size) serves each size alike. Raises ValueError for another game, other features, a
    wrong shape or a spread or temperature that is not positive. The one reader of the format:
    the engine loads through it and `ai.learn` reads through it."""
    from engine.mount_tai.knowledge import FEATURE_NAMES
    if doc.get("format") != "tianti-eval-model" or doc.get("game") != "mount-tai":
        raise ValueError("not a Mount Tai evaluation model")
    if list(doc.get("features", [])) != list(FEATURE_NAMES):
        raise ValueError("fitted on other features than this engine's")
    w, sg, tp = doc.get("weights"), doc.get("sigma"), doc.get("temp")
    if doc.get("version", 1) == 1:
        w, tp = [w] * N_MODES, [tp] * N_MODES
    shape = f"the model's shape is not {N_MODES} x {N_STAGES} x {N_FEATURES}"

    def rows(v, n: int) -> bool:
        return isinstance(v, list) and len(v) == n

    if not (rows(w, N_MODES) and rows(tp, N_MODES) and rows(sg, N_STAGES)
            and all(rows(mw, N_STAGES) and all(rows(r, N_FEATURES) for r in mw) for mw in w)
            and all(rows(mt, N_STAGES) for mt in tp)):
        raise ValueError(shape)
    for b in range(N_STAGES):
        if not sg[b] > 0 or any(not mt[b] > 0 for mt in tp):
            raise ValueError("sigma and temp must be positive")
    model_tables(doc)
    return ([[[float(v) for v in r] for r in mw] for mw in w], [float(v) for v in sg],
            [[float(v) for v in mt] for mt in tp])


def model_tables(doc: dict) -> dict:
    """The solo tables a model file gives weights of their own (version 3's "solo_tables"):
    {table index (0 the plain solo game, 1-8 the challenge games): (weights [stages][features],
    sigma [stages])}, checked; empty for earlier versions. Raises ValueError for an unknown
    table, a wrong shape or a spread that is not positive."""
    own = doc.get("solo_tables", {}) if doc.get("version", 1) >= 3 else {}
    if not isinstance(own, dict):
        raise ValueError("solo_tables must map solo table names to weights and sigma")
    out = {}
    for name, entry in own.items():
        if name not in SOLO_TABLES:
            raise ValueError(f"no solo table {name!r}; solo tables: {', '.join(SOLO_TABLES)}")
        w = entry.get("weights") if isinstance(entry, dict) else None
        sg = entry.get("sigma") if isinstance(entry, dict) else None
        if not (isinstance(w, list) and len(w) == N_STAGES
                and all(isinstance(r, list) and len(r) == N_FEATURES for r in w)
                and isinstance(sg, list) and len(sg) == N_STAGES):
            raise ValueError(f"solo table {name!r}: the shape is not {N_STAGES} x {N_FEATURES} "
                             f"weights and {N_STAGES} spreads")
        if any(not v > 0 for v in sg):
            raise ValueError(f"solo table {name!r}: sigma must be positive")
        out[SOLO_TABLES.index(name)] = ([[float(v) for v in r] for r in w],
                                        [float(v) for v in sg])
    return out


def load_model(path=None, slot="learned") -> dict:
    """Load a fitted model (`ai.learn` fit's file; the slot's shipped one by default) into the
    compiled evaluation `slot` (one of SLOTS) and return its description. A file that
    `model_arrays` refuses leaves the slot as it was. Each solo table takes the solo weights
    and spreads unless the file gives it its own."""
    cdef int k = _slot(slot)
    cdef int t, m, b, i
    p = Path(path) if path is not None else DEFAULT_MODELS[slot]
    doc = json.loads(p.read_text())
    try:
        w, sg, tp = model_arrays(doc)
        own = model_tables(doc)
    except ValueError as e:
        raise ValueError(f"{p}: {e}") from None
    for t in range(N_TABLES):
        m = 0 if t < N_SOLO_TABLES else t - (N_SOLO_TABLES - 1)
        tw = own[t][0] if t in own else w[m]
        for b in range(N_STAGES):
            for i in range(N_FEATURES):
                LW[k][t][b][i] = tw[b][i]
    for m in range(N_MODES):
        for b in range(N_STAGES):
            TEMP[k][m][b] = tp[m][b]
    for t in range(N_SOLO_TABLES):
        for b in range(N_STAGES):
            SIGMA[k][t][b] = own[t][1][b] if t in own else sg[b]
    READY[k] = True
    _info[slot] = dict(path=str(p), **doc.get("info", {}))
    return dict(_info[slot])


def model_info(slot="learned") -> dict:
    """The description of the model loaded in `slot` (empty: none loaded, the hand evaluation
    stands in)."""
    return dict(_info[SLOTS[_slot(slot)]])


def projection(state, seat, slot="learned") -> float:
    """The learned prediction of `seat`'s final reputation in a Mount Tai state by the model in
    `slot` (the compiled prediction; the hand-written projection while no model is loaded)."""
    from engine.core.args import check_seat
    cdef int k = _slot(slot)
    cdef CoreState st = <CoreState?>state
    if st.gdef.name != b"mount-tai":
        raise ValueError(f"projection: a Mount Tai state is needed, got {st.game.name!r}")
    return slot_projection(k, st.data, check_seat(state, seat))


def evaluate(state, slot="learned") -> list:
    """The learned evaluation `slot` of a Mount Tai state, each seat's value in [0, 1] (what a
    search's cut-off scores: a solo game's chance of reaching the goal, else each seat's share
    of the win); the hand-written evaluation while no model is loaded."""
    cdef int k = _slot(slot)
    cdef CoreState st = <CoreState?>state
    cdef double out[MAX_PLAYERS]
    if st.gdef.name != b"mount-tai":
        raise ValueError(f"evaluate: a Mount Tai state is needed, got {st.game.name!r}")
    slot_evaluate(k, st.data, out)
    return [out[i] for i in range((<const MTState*>st.data).opt.n_players)]


for _name in SLOTS:
    if DEFAULT_MODELS[_name].exists():
        load_model(DEFAULT_MODELS[_name], _name)
