# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
"""In the Year of the Dragon: the evaluation learned from self-play (see learned.pxd and
ai/LEARN_DRAGON.md; fitted by `python -m ai.learn fit`). The weights live in C arrays filled once
from the package's data file eval_model.json; `load_model` replaces them for experiments (not
while a search runs). The file format is Mount Tai's version 2 (engine/mount_tai/learned.pyx):
weights per table size (solo, 2, 3, 4 players; Dragon has no solo game, its row is unused) and
stage, a softmax temperature per table size and stage."""

import json
from pathlib import Path

from engine.core.shares cimport win_shares
from engine.dragon.state cimport *
from engine.dragon.knowledge cimport N_FEATURES, N_PARTS, dr_features, dragon_evaluate, \
    projection_parts
from engine.core.state cimport State as CoreState

cdef enum:
    N_STAGES = 17       # the fit's stage buckets; Dragon's decisions left are 0..12
    N_MODES = 4         # table sizes: (solo), 2, 3, 4 players (index = players - 1)
    F_DECISIONS_LEFT = 44   # knowledge.FEATURE_NAMES: "decisions_left"

# prediction of a seat = LW[mode][stage] . features
cdef double LW[N_MODES][N_STAGES][N_FEATURES]
cdef double TEMP[N_MODES][N_STAGES]     # softmax temperature (VP) per table size and stage
cdef bint READY = False                  # a model is loaded

DEFAULT_MODEL = Path(__file__).with_name("eval_model.json")
_info: dict = {}


cdef inline bint fitted(const DragonStruct* s) noexcept nogil:
    """The model has weights for this table size (2-4 players)."""
    return READY and 2 <= s.opt.n_players <= 4


cdef double predict(const DragonStruct* s, int seat, int* stage) noexcept nogil:
    cdef double f[N_FEATURES]
    cdef double v = 0.0
    cdef int i, b
    cdef const double* w
    dr_features(s, seat, f)
    b = <int>f[F_DECISIONS_LEFT]
    b = 0 if b < 0 else (N_STAGES - 1 if b >= N_STAGES else b)
    w = LW[s.opt.n_players - 1][b]
    for i in range(N_FEATURES):
        v += w[i] * f[i]
    stage[0] = b
    return v


cdef double dr_learned_projection(const void* vs, int seat) noexcept nogil:
    cdef const DragonStruct* s = <const DragonStruct*>vs
    cdef double parts[N_PARTS]
    cdef int b
    if not fitted(s):
        return projection_parts(s, seat, parts)
    return predict(s, seat, &b)


cdef void dr_evaluate_learned(const void* vs, double* out) noexcept nogil:
    cdef const DragonStruct* s = <const DragonStruct*>vs
    cdef int i, b, b0 = 0, n = s.opt.n_players
    cdef double est[MAX_PLAYERS]
    if not fitted(s):
        dragon_evaluate(vs, out)
        return
    for i in range(n):
        est[i] = predict(s, i, &b)
        if i == s.cur:
            b0 = b
    win_shares(est, n, TEMP[n - 1][b0], out)


def model_arrays(doc: dict) -> tuple:
    """A model file's contents (parsed JSON) checked: (weights [modes][stages][features],
    temp [modes][stages]) as nested lists of floats. Raises ValueError for another game, other
    features, a wrong shape or a temperature that is not positive."""
    from engine.dragon.knowledge import FEATURE_NAMES
    if doc.get("format") != "tianti-eval-model" or doc.get("game") != "dragon":
        raise ValueError("not a Dragon evaluation model")
    if doc.get("version") != 2:
        raise ValueError(f"model file version {doc.get('version')!r}; this engine reads 2")
    if list(doc.get("features", [])) != list(FEATURE_NAMES):
        raise ValueError("fitted on other features than this engine's")
    w, tp = doc.get("weights"), doc.get("temp")

    def rows(v, n: int) -> bool:
        return isinstance(v, list) and len(v) == n

    if not (rows(w, N_MODES) and rows(tp, N_MODES)
            and all(rows(mw, N_STAGES) and all(rows(r, N_FEATURES) for r in mw) for mw in w)
            and all(rows(mt, N_STAGES) for mt in tp)):
        raise ValueError(f"the model's shape is not {N_MODES} x {N_STAGES} x {N_FEATURES}")
    if any(not v > 0 for mt in tp for v in mt):
        raise ValueError("temp must be positive")
    return ([[[float(v) for v in r] for r in mw] for mw in w],
            [[float(v) for v in mt] for mt in tp])


def load_model(path=None) -> dict:
    """Load a fitted model (`ai.learn fit`'s file; the shipped one by default) into the compiled
    evaluation "learned" and return its description. A file that `model_arrays` refuses leaves
    the loaded model as it was."""
    global READY
    cdef int m, b, i
    p = Path(path) if path is not None else DEFAULT_MODEL
    doc = json.loads(p.read_text())
    try:
        w, tp = model_arrays(doc)
    except ValueError as e:
        raise ValueError(f"{p}: {e}") from None
    for m in range(N_MODES):
        for b in range(N_STAGES):
            TEMP[m][b] = tp[m][b]
            for i in range(N_FEATURES):
                LW[m][b][i] = w[m][b][i]
    READY = True
    _info.clear()
    _info.update(path=str(p), **doc.get("info", {}))
    return dict(_info)


def model_info() -> dict:
    """The description of the loaded model (empty: none loaded, the hand evaluation stands in)."""
    return dict(_info)


def _dragon(state, what: str) -> CoreState:
    cdef CoreState st = <CoreState?>state
    if st.gdef.name != b"dragon":
        raise ValueError(f"{what}: a Dragon state is needed, got {st.game.name!r}")
    return st


def projection(state, seat) -> float:
    """The learned prediction of `seat`'s final VP in a Dragon state (the hand projection for a
    table size the model has no weights for)."""
    from engine.core.args import check_seat
    cdef CoreState st = _dragon(state, "projection")
    return dr_learned_projection(st.data, check_seat(state, seat))


def evaluate(state) -> list:
    """The learned evaluation of a Dragon state: each seat's share of the win in [0, 1], what a
    search's cut-off with `evaluation=learned` scores."""
    cdef CoreState st = _dragon(state, "evaluate")
    cdef double out[MAX_PLAYERS]
    dr_evaluate_learned(st.data, out)
    return [out[i] for i in range((<const DragonStruct*>st.data).opt.n_players)]


if DEFAULT_MODEL.exists():
    load_model(DEFAULT_MODEL)
