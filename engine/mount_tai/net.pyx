# cython: language_level=3
"""Mount Tai: inference of the net learned from the search's own play (see net.pxd; the net is
fitted by `python -m ai.learn net`, ai/learn/net.py). One model, in the C struct `NET`, loaded at
import from net_model.json beside this module when it exists; `load_net` replaces it (not while a
search runs). `check_model` is the one reader of the file format: ai.learn reads through it."""

import json
import math
import threading
from pathlib import Path

from libc.math cimport exp, log

from engine.core.shares cimport win_shares

from engine.mount_tai.state cimport *
from engine.mount_tai.knowledge cimport N_FEATURES, mt_features, mt_move_prior
from engine.mount_tai.learned cimport mt_evaluate_learned
from engine.core.state cimport State as CoreState

FORMAT = "tianti-net-model"
VERSION = 2
VERSIONS = (1, 2)   # 1: no gates (read as all 1)
DEFAULT_NET = Path(__file__).with_name("net_model.json")
cdef enum:
    STAGE_COLUMN = 43   # knowledge.FEATURE_NAMES: "decisions_left"

cdef NetModel NET
NET.ready = False
_info: dict = {}
# Held while NET and _info change or _info is read: loads from several threads at once each
# put one whole model and its own description (without it a thread switch inside a load mixed
# one file's description with another's path, and net_info() saw a half-written one).
_lock = threading.Lock()


cdef inline int net_stage(const double* f) noexcept nogil:
    cdef int b = <int>f[STAGE_COLUMN]
    return 0 if b < 0 else (NET_STAGES - 1 if b >= NET_STAGES else b)


cdef void net_inputs(const NetModel* m, const double* f, double* z) noexcept nogil:
    cdef int i
    for i in range(N_FEATURES):
        z[i] = (f[i] - m.mu[i]) / m.sd[i]
    for i in range(NET_STAGES):
        z[N_FEATURES + i] = 0.0
    z[N_FEATURES + net_stage(f)] = 1.0


cdef double net_value(const NetModel* m, const double* f, const double* z) noexcept nogil:
    cdef double h[NET_MAX_HIDDEN]
    cdef double v = 0.0, r = m.b2
    cdef int i, j, H = m.hidden
    cdef int b = net_stage(f)
    cdef const double* lw = m.lin[b]
    for i in range(N_FEATURES):
        v += lw[i] * f[i]
    if m.gate[b] == 0.0:
        return v
    for j in range(H):
        h[j] = m.b1[j]
    for i in range(NET_IN):
        if z[i] != 0.0:
            for j in range(H):
                h[j] += z[i] * m.w1[i][j]
    for j in range(H):
        if h[j] > 0.0:
            r += m.w2[j] * h[j]
    return v + m.gate[b] * r


cdef void net_policy(const NetModel* m, const double* z, const int* actions, const double* prior,
                     int n, double* out) noexcept nogil:
    cdef int k, i
    cdef double lp, best = -1e300, total = 0.0
    cdef const double* u
    for k in range(n):
        lp = log(prior[k]) if prior[k] > 0.0 else -1e300
        lp = -20.0 if lp < -20.0 else (0.0 if lp > 0.0 else lp)
        out[k] = m.w_prior * lp + m.bias[actions[k]]
        u = m.u[m.kind_of[actions[k]]]
        for i in range(NET_IN):
            out[k] += u[i] * z[i]
        if out[k] > best:
            best = out[k]
    for k in range(n):
        out[k] = exp(out[k] - best)
        total += out[k]
    for k in range(n):
        out[k] /= total


cdef inline bint serves(const MTState* s) noexcept nogil:
    return NET.ready and (NET.players_mask >> s.opt.n_players) & 1


cdef void mt_evaluate_net(const void* vs, double* out) noexcept nogil:
    cdef const MTState* s = <const MTState*>vs
    cdef double f[N_FEATURES]
    cdef double z[NET_IN]
    cdef double est[MAX_PLAYERS]
    cdef double t = 1.0
    cdef int i, n = s.opt.n_players
    if not serves(s) or s.opt.solo:
        mt_evaluate_learned(vs, out)
        return
    for i in range(n):
        mt_features(vs, i, f)
        net_inputs(&NET, f, z)
        est[i] = net_value(&NET, f, z)
        if i == s.cur:
            t = NET.temp[net_stage(f)]
    win_shares(est, n, t, out)


cdef void mt_net_prior(const void* vs, const int* actions, int n, double* out) noexcept nogil:
    cdef const MTState* s = <const MTState*>vs
    cdef double f[N_FEATURES]
    cdef double z[NET_IN]
    cdef double prior[MAX_LEGAL]
    cdef int k
    mt_move_prior(vs, actions, n, prior)
    if not serves(s) or n > MAX_LEGAL:
        for k in range(n):
            out[k] = prior[k]
        return
    mt_features(vs, s.cur, f)
    net_inputs(&NET, f, z)
    net_policy(&NET, z, actions, prior, n, out)


def _numbers(v, shape, what):
    """`v` as nested lists of finite floats of `shape` (ValueError otherwise)."""
    if not shape:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"{what} must be finite numbers")
        return float(v)
    if not isinstance(v, list) or len(v) != shape[0]:
        raise ValueError(f"{what}: the shape is not {' x '.join(map(str, shape))}")
    return [_numbers(e, shape[1:], what) for e in v]


def check_model(doc) -> dict:
    """A net model file's contents (parsed JSON) checked against this engine: the format,
    version, game, features, stages, shapes, finite numbers, positive spreads and temperatures,
    action groups in range. Returns the numbers as plain lists; raises ValueError."""
    from engine.mount_tai.knowledge import FEATURE_NAMES
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    if doc.get("version") not in VERSIONS:
        raise ValueError(f"version {doc.get('version')!r} is not one this engine reads "
                         f"({', '.join(map(str, VERSIONS))})")
    if doc.get("game") != "mount-tai":
        raise ValueError(f"a model of {doc.get('game')!r}, not of mount-tai")
    if list(doc.get("features", [])) != list(FEATURE_NAMES):
        raise ValueError("fitted on other features than this engine's")
    if doc.get("stages") != NET_STAGES or doc.get("n_in") != NET_IN:
        raise ValueError(f"stages and inputs must be {NET_STAGES} and {NET_IN}")
    H = doc.get("hidden")
    if isinstance(H, bool) or not isinstance(H, int) or not 1 <= H <= NET_MAX_HIDDEN:
        raise ValueError(f"hidden units must be 1..{NET_MAX_HIDDEN}, got {H!r}")
    players = doc.get("players")
    if (not isinstance(players, list) or not players
            or any(isinstance(p, bool) or p not in (1, 2, 3, 4) for p in players)):
        raise ValueError("players must list table sizes among 1..4")
    p = doc.get("policy")
    if not isinstance(p, dict):
        raise ValueError("no policy head")
    kinds = p.get("kinds")
    if not isinstance(kinds, list) or not 1 <= len(kinds) <= NET_MAX_KINDS:
        raise ValueError(f"the policy's kinds must be 1..{NET_MAX_KINDS} names")
    K = len(kinds)
    kind_of = p.get("kind_of")
    if (not isinstance(kind_of, list) or len(kind_of) != N_ACTIONS
            or any(isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < K
                   for k in kind_of)):
        raise ValueError(f"kind_of must give each of the {N_ACTIONS} actions a kind 0..{K - 1}")
    out = {
        "players": players, "hidden": H, "kind_of": kind_of, "n_kinds": K,
        "mu": _numbers(doc.get("mu"), (N_FEATURES,), "mu"),
        "sd": _numbers(doc.get("sd"), (N_FEATURES,), "sd"),
        "linear": _numbers(doc.get("linear"), (NET_STAGES, N_FEATURES), "linear"),
        "w1": _numbers(doc.get("w1"), (NET_IN, H), "w1"),
        "b1": _numbers(doc.get("b1"), (H,), "b1"),
        "w2": _numbers(doc.get("w2"), (H,), "w2"),
        "b2": _numbers(doc.get("b2"), (), "b2"),
        "temp": _numbers(doc.get("temp"), (NET_STAGES,), "temp"),
        "gate": (_numbers(doc.get("gate"), (NET_STAGES,), "gate") if doc["version"] >= 2
                 else [1.0] * NET_STAGES),
        "w_prior": _numbers(p.get("w_prior"), (), "w_prior"),
        "bias": _numbers(p.get("bias"), (N_ACTIONS,), "bias"),
        "u": _numbers(p.get("u"), (K, NET_IN), "u"),
    }
    if any(not v > 0 for v in out["sd"]) or any(not v > 0 for v in out["temp"]):
        raise ValueError("sd and temp must be positive")
    if any(not 0.0 <= v <= 1.0 for v in out["gate"]):
        raise ValueError("gate must be in [0, 1]")
    return out


def load_net(path=None) -> dict:
    """Load a net model file (default: the shipped net_model.json) into the compiled net and
    return its description. A file `check_model` refuses leaves the loaded net as it was.
    Safe from several threads at once (each load puts one whole model and its description)."""
    p = Path(path) if path is not None else DEFAULT_NET
    try:
        doc = json.loads(p.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{p}: not JSON ({e})") from None
    try:
        m = check_model(doc)
    except ValueError as e:
        raise ValueError(f"{p}: {e}") from None
    info = dict(doc.get("info", {}) if isinstance(doc.get("info"), dict) else {})
    info.update(path=str(p), players=list(m["players"]), hidden=m["hidden"])
    with _lock:
        _put(m)
        _info.clear()
        _info.update(info)
    return info


cdef void _put(dict m) except *:
    """Write the checked model `m` into NET (the caller holds _lock)."""
    cdef int i, j
    NET.ready = False
    NET.players_mask = 0
    for k in m["players"]:
        NET.players_mask |= 1 << k
    NET.hidden = m["hidden"]
    NET.n_kinds = m["n_kinds"]
    for i in range(N_FEATURES):
        NET.mu[i] = m["mu"][i]
        NET.sd[i] = m["sd"][i]
        for j in range(NET_STAGES):
            NET.lin[j][i] = m["linear"][j][i]
    for i in range(NET_IN):
        for j in range(NET_MAX_HIDDEN):
            NET.w1[i][j] = m["w1"][i][j] if j < NET.hidden else 0.0
    for j in range(NET_MAX_HIDDEN):
        NET.b1[j] = m["b1"][j] if j < NET.hidden else 0.0
        NET.w2[j] = m["w2"][j] if j < NET.hidden else 0.0
    NET.b2 = m["b2"]
    for i in range(NET_STAGES):
        NET.temp[i] = m["temp"][i]
        NET.gate[i] = m["gate"][i]
    NET.w_prior = m["w_prior"]
    for i in range(N_ACTIONS):
        NET.bias[i] = m["bias"][i]
        NET.kind_of[i] = m["kind_of"][i]
    for i in range(NET_MAX_KINDS):
        for j in range(NET_IN):
            NET.u[i][j] = m["u"][i][j] if i < NET.n_kinds else 0.0
    NET.ready = True


def unload_net() -> None:
    """Forget the loaded net (the evaluation "net" then falls back to "learned", the prior to
    the hand prior)."""
    with _lock:
        NET.ready = False
        _info.clear()


def net_info() -> dict:
    """The loaded net's description (empty: none loaded)."""
    with _lock:
        return dict(_info)


def forward(features, actions=(), prior=()) -> tuple:
    """The compiled forward pass on a feature vector (N_FEATURES numbers): (value, [the
    policy's probability of each of `actions`, whose hand priors are `prior`]). For tests and
    tools; ValueError without a loaded net or for wrong lengths or action ids."""
    cdef double f[N_FEATURES]
    cdef double z[NET_IN]
    cdef int acts[MAX_LEGAL]
    cdef double pr[MAX_LEGAL]
    cdef double out[MAX_LEGAL]
    cdef int i, n = len(actions)
    if not NET.ready:
        raise ValueError("no net loaded")
    if len(features) != N_FEATURES:
        raise ValueError(f"{N_FEATURES} features needed, got {len(features)}")
    if len(prior) != n or n > MAX_LEGAL or any(not 0 <= a < N_ACTIONS for a in actions):
        raise ValueError(f"actions (at most {MAX_LEGAL}, ids 0..{N_ACTIONS - 1}) and their "
                         f"priors must match")
    for i in range(N_FEATURES):
        f[i] = features[i]
    for i in range(n):
        acts[i] = actions[i]
        pr[i] = prior[i]
    net_inputs(&NET, f, z)
    v = net_value(&NET, f, z)
    if n:
        net_policy(&NET, z, acts, pr, n, out)
    return v, [out[i] for i in range(n)]


def _state_of(state) -> CoreState:
    cdef CoreState st = <CoreState?>state
    if st.gdef.name != b"mount-tai":
        raise ValueError(f"a Mount Tai state is needed, got {st.game.name!r}")
    return st


def evaluate(state) -> list:
    """The evaluation "net" of a Mount Tai state: each seat's value in [0, 1] (see net.pxd)."""
    cdef CoreState st = _state_of(state)
    cdef double out[MAX_PLAYERS]
    mt_evaluate_net(st.data, out)
    return [out[i] for i in range((<const MTState*>st.data).opt.n_players)]


def prior(state) -> list:
    """The net's prior over `state.legal_actions()` (in that order)."""
    cdef CoreState st = _state_of(state)
    cdef int acts[MAX_LEGAL]
    cdef double out[MAX_LEGAL]
    legal = state.legal_actions()
    for i, a in enumerate(legal):
        acts[i] = a
    mt_net_prior(st.data, acts, len(legal), out)
    return [out[i] for i in range(len(legal))]


if DEFAULT_NET.exists():
    load_net(DEFAULT_NET)
