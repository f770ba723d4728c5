"""The net: a small value network and a policy head, fitted with numpy on expert data
(`ai.learn.expert`), written as the model file that `engine/mount_tai/net.pyx` loads.

Inputs z: the seat's features (knowledge.FEATURE_NAMES) standardized by the training rows'
mean and spread, then a one-hot of the stage (decisions left 0..16): N_IN = 68 + 17 values.

- Value: the seat's final reputation (the target of the linear model and of the hand
  projection, so the three compare on one scale) as a linear model per stage on the raw
  features (by default the shipped linear model's weights for the table size, kept as they are;
  or a ridge refit on this data, as `ai.learn.fit` fits it) plus one hidden layer of ReLU units
  on z fitted to what the linear part leaves (a residual: alone, the network was worse than the
  linear model, most of all near the end of the game, where the features add up exactly); a search's
  cut-off turns the seats' predictions into shares of the win with a softmax at the stage's
  temperature, fitted on validation games as `ai.learn.fit` does for the linear model.
- Policy: a score per legal action a of the mover, softmaxed over the legal actions:
  w_prior * clip(log hand prior(a), -20, 0) + bias[a] + u[kind(a)] . z, where kind(a) is the
  action's group (the engine's LAYOUT: use an edict, cultivate, recruit ...). Fitted by the
  cross-entropy against the search's root visit distribution.

Games are split as `ai.learn.fit.split` splits them (20% held out, by seed); the training games
are split again (10% validation) to pick the epoch; the temperatures are fitted on all the
training games; the held-out games judge the model only.
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ai.learn import fit as linear

FORMAT = "tianti-net-model"
VERSION = 2             # 2: a gate per stage on the network's residual (1: none, all 1)
STAGES = linear.BUCKETS
LOG_PRIOR_FLOOR = -20.0


def action_kinds() -> tuple[list[str], np.ndarray]:
    """The action groups (names) and each Mount Tai action id's group index."""
    from engine.mount_tai.game import LAYOUT
    starts = sorted((v, k) for k, v in LAYOUT.items() if k != "end")
    names = [k for _, k in starts]
    kind = np.zeros(LAYOUT["end"], dtype=np.int64)
    for i, (start, _) in enumerate(starts):
        kind[start:] = i
    return names, kind


@dataclass
class Net:
    """The net's parameters (shapes as in the module docstring; n_in = F + STAGES)."""

    features: list[str]
    players: list[int]
    mu: np.ndarray          # [F]
    sd: np.ndarray          # [F]
    lin: np.ndarray         # [STAGES, F]: the linear part, on the raw features
    w1: np.ndarray          # [n_in, H]
    b1: np.ndarray          # [H]
    w2: np.ndarray          # [H]
    b2: float
    temp: np.ndarray        # [STAGES]
    kinds: list[str]
    kind_of: np.ndarray     # [N_ACTIONS]
    w_prior: float
    bias: np.ndarray        # [N_ACTIONS]
    u: np.ndarray           # [K, n_in]
    info: dict[str, Any] = field(default_factory=dict)
    gate: np.ndarray = field(default_factory=lambda: np.ones(STAGES))  # [STAGES], in [0, 1]

    def inputs(self, x: np.ndarray, left: np.ndarray) -> np.ndarray:
        z = (x.astype(np.float64) - self.mu) / self.sd
        return np.hstack([z, np.eye(STAGES)[np.clip(left, 0, STAGES - 1)]])

    def value(self, z: np.ndarray, x: np.ndarray, left: np.ndarray) -> np.ndarray:
        """Predicted final reputation of rows with inputs z, raw features x, stages left:
        the linear part plus the network's residual times the stage's gate."""
        b = np.clip(left, 0, STAGES - 1)
        lin = np.einsum("nf,nf->n", x.astype(np.float64), self.lin[b])
        return lin + self.gate[b] * self.residual(z)

    def residual(self, z: np.ndarray) -> np.ndarray:
        """The network's part of the value (before the stage's gate)."""
        return np.maximum(z @ self.w1 + self.b1, 0.0) @ self.w2 + self.b2

    def logits(self, z: np.ndarray, action: np.ndarray, prior: np.ndarray) -> np.ndarray:
        """Scores of actions, z given per action (rows aligned with `action`)."""
        lp = np.clip(np.log(np.maximum(prior.astype(np.float64), 1e-300)), LOG_PRIOR_FLOOR, 0.0)
        return (self.w_prior * lp + self.bias[action]
                + np.einsum("nd,nd->n", z, self.u[self.kind_of[action]]))


def stage_of(x: np.ndarray, names: list[str]) -> np.ndarray:
    return np.clip(x[:, names.index("decisions_left")], 0, STAGES - 1).astype(np.int64)


def _adam(params: list[np.ndarray], grads: list[np.ndarray], state: dict[str, Any],
          rate: float) -> None:
    state["t"] += 1
    t = state["t"]
    for i, g in enumerate(grads):
        state["m"][i] = 0.9 * state["m"][i] + 0.1 * g
        state["v"][i] = 0.999 * state["v"][i] + 0.001 * g * g
        params[i] -= rate * (state["m"][i] / (1 - 0.9 ** t)) / (
            np.sqrt(state["v"][i] / (1 - 0.999 ** t)) + 1e-8)


def _train(params: list[np.ndarray], idx: np.ndarray, rng: np.random.Generator,
           epochs: int, batch: int, rate: float,
           grads_of: Callable[[np.ndarray], list[np.ndarray]],
           loss_of: Callable[[], float]) -> tuple[list[np.ndarray], list[float]]:
    """Adam over minibatches of `idx` (shuffled by `rng` each epoch), `grads_of(batch)` giving
    the gradients of `params`; after each epoch `loss_of()` scores the validation data and the
    best epoch's parameters are kept. Returns (those parameters, the loss per epoch)."""
    state: dict[str, Any] = {"t": 0, "m": [np.zeros_like(p) for p in params],
                             "v": [np.zeros_like(p) for p in params]}
    best: tuple[float, list[np.ndarray]] | None = None
    curve = []
    for _ in range(epochs):
        rng.shuffle(idx)
        for s in range(0, len(idx), batch):
            _adam(params, grads_of(idx[s:s + batch]), state, rate)
        loss = loss_of()
        curve.append(loss)
        if best is None or loss < best[0]:
            best = (loss, [p.copy() for p in params])
    assert best is not None
    return best[1], curve


def fit_value(z: np.ndarray, y: np.ndarray, tr: np.ndarray, va: np.ndarray, hidden: int,
              epochs: int, seed: int, rate: float = 2e-3, batch: int = 512,
              decay: float = 1e-4) -> tuple[list[np.ndarray], list[float]]:
    """The value MLP (Adam, squared error, L2 `decay`), the epoch with the best validation
    RMSE kept; returns ([w1, b1, w2, b2], validation RMSE per epoch)."""
    rng = np.random.default_rng(seed)
    n_in = z.shape[1]
    params = [rng.normal(0, math.sqrt(2.0 / n_in), (n_in, hidden)), np.zeros(hidden),
              rng.normal(0, math.sqrt(1.0 / hidden), hidden), np.array([y[tr].mean()])]

    def grads_of(b: np.ndarray) -> list[np.ndarray]:
        h = z[b] @ params[0] + params[1]
        a = np.maximum(h, 0.0)
        g_out = 2.0 * (a @ params[2] + params[3][0] - y[b]) / len(b)
        g_a = np.outer(g_out, params[2]) * (h > 0)
        return [z[b].T @ g_a + decay * params[0], g_a.sum(axis=0),
                a.T @ g_out + decay * params[2], np.array([g_out.sum()])]

    def rmse() -> float:
        pred = np.maximum(z[va] @ params[0] + params[1], 0.0) @ params[2] + params[3][0]
        return float(np.sqrt(np.mean((pred - y[va]) ** 2)))

    return _train(params, np.flatnonzero(tr), rng, epochs, batch, rate, grads_of, rmse)


def fit_value_win(z: np.ndarray, base: np.ndarray, won: np.ndarray, left: np.ndarray,
                  temp: np.ndarray, tr: np.ndarray, va: np.ndarray, hidden: int, epochs: int,
                  seed: int, rate: float = 2e-3, batch: int = 256,
                  decay: float = 1e-4) -> tuple[list[np.ndarray], list[float]]:
    """The value MLP's residual r fitted on the win instead of the score: 2-player positions
    a (seat 0's row; a + 1 is seat 1's) with seat 0's chance sigmoid((base[a] + r[a] - base[a+1]
    - r[a+1]) / temp[stage]) against won[a], by log loss (Adam, L2 `decay`); `tr` and `va` are
    such positions. The epoch with the best validation log loss is kept; returns ([w1, b1, w2,
    b2 = 0], validation log loss per epoch). The score's level does not enter (it cancels), so
    a shift of the bots' level between generations does not either."""
    rng = np.random.default_rng(seed)
    n_in = z.shape[1]
    params = [rng.normal(0, math.sqrt(2.0 / n_in), (n_in, hidden)), np.zeros(hidden),
              rng.normal(0, 0.1 * math.sqrt(1.0 / hidden), hidden), np.zeros(1)]
    t_of = temp[np.clip(left, 0, STAGES - 1)]

    def chance(a: np.ndarray) -> tuple[np.ndarray, ...]:
        zz = np.vstack([z[a], z[a + 1]])
        h = zz @ params[0] + params[1]
        act = np.maximum(h, 0.0)
        r = act @ params[2]
        n = len(a)
        d = (base[a] + r[:n] - base[a + 1] - r[n:]) / t_of[a]
        return 1.0 / (1.0 + np.exp(-np.clip(d, -50, 50))), zz, h, act

    def grads_of(a: np.ndarray) -> list[np.ndarray]:
        p, zz, h, act = chance(a)
        g_d = (p - won[a]) / t_of[a] / len(a)
        g_out = np.concatenate([g_d, -g_d])
        g_a = np.outer(g_out, params[2]) * (h > 0)
        return [zz.T @ g_a + decay * params[0], g_a.sum(axis=0),
                act.T @ g_out + decay * params[2], np.zeros(1)]

    def loss() -> float:
        return linear._logloss(np.clip(chance(va)[0], 1e-6, 1 - 1e-6), won[va])

    return _train(params, tr.copy(), rng, epochs, batch, rate, grads_of, loss)


GATES = (0.0, 0.25, 0.5, 0.75, 1.0)


def choose_gate(lin: np.ndarray, r: np.ndarray, left: np.ndarray, rows: np.ndarray,
                y: np.ndarray | None = None, pairs: np.ndarray | None = None,
                won: np.ndarray | None = None, temp: np.ndarray | None = None) -> np.ndarray:
    """The gate of each stage, from GATES, that the validation data likes best: with `y`, the
    squared error of lin + g * r over the validation `rows`; with `pairs` (2-player positions,
    seat 0's row), the winner's log loss at `temp`. A stage without validation data keeps 1."""
    gate = np.ones(STAGES)
    for b in range(STAGES):
        if y is not None:
            m = rows[left[rows] == b]
            if not len(m):
                continue
            gate[b] = min(GATES, key=lambda g: float(np.sum((lin[m] + g * r[m] - y[m]) ** 2)))
        else:
            assert pairs is not None and won is not None and temp is not None
            a = pairs[left[pairs] == b]
            if not len(a):
                continue
            gate[b] = min(GATES, key=lambda g: _winner_loss(
                lin[a] + g * r[a], lin[a + 1] + g * r[a + 1], temp, left[a], won[a])[0])
    return gate


def pairs_of(data: dict[str, np.ndarray], mask: np.ndarray, names: list[str]) -> np.ndarray:
    """2-player positions among rows `mask`: seat 0's row a, with seat 1's at a + 1."""
    x = data["x"]
    two = ((data["seat"][:-1] == 0) & (data["seat"][1:] == 1)
           & (data["group"][:-1] == data["group"][1:]) & mask[:-1] & mask[1:]
           & (linear.modes_of(x, names)[:-1] == 1))
    return np.flatnonzero(two)


def _segments(start: np.ndarray, decs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flat action indices of decisions `decs` and each one's decision position in `decs`."""
    counts = start[decs + 1] - start[decs]
    flat = np.concatenate([np.arange(start[d], start[d + 1]) for d in decs])
    return flat, np.repeat(np.arange(len(decs)), counts)


def _seg_softmax(logit: np.ndarray, seg: np.ndarray, n: int) -> np.ndarray:
    mx = np.full(n, -np.inf)
    np.maximum.at(mx, seg, logit)
    e = np.exp(logit - mx[seg])
    tot = np.zeros(n)
    np.add.at(tot, seg, e)
    return e / tot[seg]


def fit_policy(net: Net, z_dec: np.ndarray, data: dict[str, np.ndarray], tr: np.ndarray,
               va: np.ndarray, epochs: int, seed: int, rate: float = 5e-3, batch: int = 256,
               decay: float = 1e-3) -> list[float]:
    """The policy head's parameters (into `net`) by cross-entropy against the visit
    distribution on the training decisions `tr` (a mask over decisions), the epoch with the best
    validation cross-entropy kept; returns the validation cross-entropy per epoch."""
    rng = np.random.default_rng(seed + 1)
    start = data["p_start"]
    action = data["p_action"].astype(np.int64)
    visits = data["p_visits"].astype(np.float64)
    prior = data["p_prior"]
    k_of = net.kind_of
    params = [np.array([1.0]), np.zeros_like(net.bias), np.zeros_like(net.u)]
    lp_all = np.clip(np.log(np.maximum(prior.astype(np.float64), 1e-300)), LOG_PRIOR_FLOOR, 0.0)

    def batch_terms(decs: np.ndarray) -> tuple[np.ndarray, ...]:
        flat, seg = _segments(start, decs)
        tot = np.zeros(len(decs))
        np.add.at(tot, seg, visits[flat])
        target = visits[flat] / np.maximum(tot[seg], 1.0)
        return flat, seg, target

    def forward(decs: np.ndarray, flat: np.ndarray, seg: np.ndarray) -> np.ndarray:
        zd = z_dec[decs][seg]
        a = action[flat]
        logit = params[0][0] * lp_all[flat] + params[1][a] + np.einsum(
            "nd,nd->n", zd, params[2][k_of[a]])
        return _seg_softmax(logit, seg, len(decs))

    def xent(decs: np.ndarray) -> float:
        flat, seg, target = batch_terms(decs)
        p = forward(decs, flat, seg)
        return float(-(target * np.log(np.maximum(p, 1e-12))).sum() / len(decs))

    def grads_of(decs: np.ndarray) -> list[np.ndarray]:
        flat, seg, target = batch_terms(decs)
        g = (forward(decs, flat, seg) - target) / len(decs)
        a = action[flat]
        g_b = np.zeros_like(params[1])
        np.add.at(g_b, a, g)
        g_u = np.zeros_like(params[2])
        np.add.at(g_u, k_of[a], g[:, None] * z_dec[decs][seg])
        return [np.array([(g * lp_all[flat]).sum()]), g_b + decay * params[1],
                g_u + decay * params[2]]

    vdecs = np.flatnonzero(va)
    best, curve = _train(params, np.flatnonzero(tr), rng, epochs, batch, rate, grads_of,
                         lambda: xent(vdecs))
    net.w_prior = float(best[0][0])
    net.bias = best[1]
    net.u = best[2]
    return curve


HEADS = ("score", "win", "best")


def fit(data: dict[str, np.ndarray], seed: int = 1, hidden: int = 32, epochs: int = 40,
        base: linear.Model | None = None, head: str = "score",
        keep: dict[str, Net] | None = None) -> Net:
    """The net fitted on the training games of `data` (see the module docstring): the linear
    part is `base`'s weights for the data's table size, or without `base` a ridge refit. The
    residual network is fitted on the score (`head="score"`: squared error of the final
    reputation) or on the win (`"win"`: 2-player log loss, `fit_value_win`), or both and the
    one with the lower winner log loss on the validation games kept (`"best"`); then each
    stage's gate on it is chosen on the validation games (`choose_gate`). `keep`, when given,
    receives every head fitted (by name, each with the policy head), the one not chosen too."""
    if head not in HEADS:
        raise ValueError(f"head must be one of {', '.join(HEADS)}, got {head!r}")
    from engine.mount_tai.knowledge import FEATURE_NAMES
    names = list(FEATURE_NAMES)
    if not 1 <= hidden <= 64:
        raise ValueError(f"hidden units must be 1..64 (the compiled net's room), got {hidden}")
    if len(np.unique(data["group"])) < 5:
        raise ValueError(f"too few games ({len(np.unique(data['group']))}) to fit, validate and "
                         f"hold out: give at least 5")
    train, test = linear.split(data, seed)
    groups = np.unique(data["group"][train])
    rng = np.random.default_rng(seed + 7)
    valid_groups = rng.choice(groups, size=max(1, len(groups) // 10), replace=False)
    valid = np.isin(data["group"], valid_groups)
    fit_rows = train & ~valid
    x = data["x"].astype(np.float64)
    left = stage_of(x, names)
    mu = x[fit_rows].mean(axis=0)
    sd = x[fit_rows].std(axis=0)
    sd[sd < 1e-9] = 1.0
    kinds, kind_of = action_kinds()
    players = sorted({int(p) + 1 for p in np.unique(linear.modes_of(x, names))})
    if len(players) != 1:
        raise ValueError(f"the data mixes table sizes {players}: fit one size at a time")
    if base is not None:
        lin = np.asarray(base.weights[players[0] - 1], dtype=np.float64)
    else:
        lin, _ = linear._fit_stages(x, data["final"].astype(np.float64), left, fit_rows, valid,
                                    np.ones(len(x), dtype=bool), linear.LAMBDAS)
    net = Net(names, players, mu, sd, lin, np.zeros((0, 0)), np.zeros(0), np.zeros(0), 0.0,
              np.full(STAGES, 6.0), kinds, kind_of, 1.0, np.zeros(len(kind_of)),
              np.zeros((len(kinds), len(names) + STAGES)))
    z = net.inputs(x, left)
    y = data["final"].astype(np.float64)
    t0 = time.time()
    base_pred = np.einsum("nf,nf->n", x, lin[left])
    resid = y - base_pred
    multi = train & (linear.modes_of(x, names) > 0)
    va_rows = np.flatnonzero(valid)
    tr_pairs, va_pairs = pairs_of(data, fit_rows, names), pairs_of(data, valid, names)
    won = data["won"].astype(np.float64)
    if head != "score" and not (len(tr_pairs) and len(va_pairs)):
        raise ValueError("the win head needs 2-player games in the training and validation data")
    temp0 = (np.asarray(base.temp[1], dtype=np.float64) if base is not None and players == [2]
             else linear._fit_temps(data, base_pred, multi, left, np.full(STAGES, 6.0)))
    cands: dict[str, tuple[Net, list[float]]] = {}
    for h in (("score", "win") if head == "best" else (head,)):
        cand = Net(**{**net.__dict__, "info": {}})
        if h == "score":
            (w1, b1, w2, b2), curve = fit_value(z, resid, fit_rows, valid, hidden, epochs, seed)
        else:
            (w1, b1, w2, b2), curve = fit_value_win(z, base_pred, won, left, temp0, tr_pairs,
                                                    va_pairs, hidden, epochs, seed)
        cand.w1, cand.b1, cand.w2 = w1, b1, w2
        r0 = np.maximum(z @ w1 + b1, 0.0) @ w2
        # the win head's level is free (it cancels in the win): set it to fit the score
        cand.b2 = float(b2[0]) if h == "score" else float(np.mean(resid[fit_rows] - r0[fit_rows]))
        r = r0 + cand.b2
        if h == "score":
            cand.gate = choose_gate(base_pred, r, left, va_rows, y=y)
        else:
            cand.gate = choose_gate(base_pred, r, left, va_rows, pairs=va_pairs, won=won,
                                    temp=temp0)
        pred = cand.value(z, x, left)
        if any(p > 1 for p in players):
            # On all the training games: fitted on the validation tenth alone (30 games of
            # 300) they came out noisy and too high (8-30 where the linear model's are 4-8),
            # which flattened the search's values at the cut-off.
            cand.temp = linear._fit_temps(data, pred, multi, left, np.full(STAGES, 6.0))
        va_loss = (_winner_loss(pred[va_pairs], pred[va_pairs + 1], cand.temp, left[va_pairs],
                                won[va_pairs])[0] if len(va_pairs) else float("nan"))
        va_rmse = float(np.sqrt(np.mean((pred[valid] - y[valid]) ** 2)))
        cand.info = {"value_valid_rmse": round(va_rmse, 3),
                     "value_valid_win_loss": round(va_loss, 4)}
        cands[h] = (cand, curve)
    chosen = min(cands, key=lambda k: cands[k][0].info["value_valid_win_loss"]
                 if len(va_pairs) else cands[k][0].info["value_valid_rmse"])
    best_net = cands[chosen][0]
    net.w1, net.b1, net.w2, net.b2 = best_net.w1, best_net.b1, best_net.w2, best_net.b2
    net.gate, net.temp = best_net.gate, best_net.temp
    t1 = time.time()
    rows = data["p_row"]
    dec_group = data["group"][rows]
    tr_dec = np.isin(dec_group, np.unique(data["group"][fit_rows]))
    va_dec = np.isin(dec_group, valid_groups)
    pcurve = fit_policy(net, z[rows], data, tr_dec, va_dec, max(5, epochs // 2), seed)
    t2 = time.time()
    net.info = {"seed": seed, "hidden": hidden, "epochs": epochs,
                "games": int(len(np.unique(data["group"]))), "value_rows": int(len(y)),
                "decisions": int(len(rows)), "head": chosen,
                "gate": [float(g) for g in net.gate],
                "valid": {k: c[0].info for k, c in cands.items()},
                "policy_valid_xent": round(min(pcurve), 4),
                "fit_seconds": {"value": round(t1 - t0, 1), "policy": round(t2 - t1, 1)}}
    if keep is not None:
        for k, (cand, _) in cands.items():
            keep[k] = Net(**{**net.__dict__, "w1": cand.w1, "b1": cand.b1, "w2": cand.w2,
                             "b2": cand.b2, "gate": cand.gate, "temp": cand.temp,
                             "info": {**net.info, "head": k}})
    return net


def save(net: Net, path: str) -> None:
    """Write the model file (format tianti-net-model, version 1; read by net.pyx)."""
    def r(a: np.ndarray) -> Any:
        return np.asarray(a, dtype=np.float64).round(7).tolist()
    doc = {"format": FORMAT, "version": VERSION, "game": "mount-tai",
           "features": net.features, "stages": STAGES, "players": net.players,
           "n_in": int(net.w1.shape[0]), "hidden": int(net.w1.shape[1]),
           "mu": r(net.mu), "sd": r(net.sd), "linear": r(net.lin), "w1": r(net.w1), "b1": r(net.b1), "w2": r(net.w2),
           "b2": round(float(net.b2), 7), "temp": r(net.temp), "gate": r(net.gate),
           "policy": {"kinds": net.kinds, "kind_of": [int(k) for k in net.kind_of],
                      "w_prior": round(float(net.w_prior), 7), "bias": r(net.bias),
                      "u": r(net.u)},
           "info": net.info}
    Path(path).write_text(json.dumps(doc, separators=(",", ":")) + "\n")


def read(path: str) -> Net:
    """A model file, checked by the engine's own reader (net.pyx's `check_model`)."""
    from engine.mount_tai.net import check_model
    doc = json.loads(Path(path).read_text())
    check_model(doc)
    p = doc["policy"]
    return Net(doc["features"], doc["players"], np.asarray(doc["mu"]), np.asarray(doc["sd"]),
               np.asarray(doc["linear"]), np.asarray(doc["w1"]), np.asarray(doc["b1"]), np.asarray(doc["w2"]),
               float(doc["b2"]), np.asarray(doc["temp"]), p["kinds"],
               np.asarray(p["kind_of"], dtype=np.int64), float(p["w_prior"]),
               np.asarray(p["bias"]), np.asarray(p["u"]), doc.get("info", {}),
               np.asarray(doc.get("gate", [1.0] * STAGES), dtype=np.float64))


def _winner_loss(pa: np.ndarray, pb: np.ndarray, temp: np.ndarray, left: np.ndarray,
                 won: np.ndarray) -> tuple[float, float]:
    p = 1.0 / (1.0 + np.exp(-np.clip((pa - pb) / temp[left], -50, 50)))
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return linear._logloss(p, won), float(((p > 0.5) == (won > 0.5)).mean())


def report(data: dict[str, np.ndarray], net: Net, models: dict[str, linear.Model],
           seed: int = 1, nets: dict[str, Net] | None = None,
           rows: np.ndarray | None = None) -> str:
    """Held-out games, by stage: the final-reputation RMSE of the hand projection, of each
    linear model and of the net; in 2-player data also the winner's log loss (a position's
    chance for seat 0, the softmax of both seats' predictions at each model's temperature);
    then the policy head's cross-entropy and top-1 against the visit distribution, beside the
    hand prior's and the uniform distribution's. `nets`: more nets as more columns (the
    policy part is `net`'s only); `rows`: only these held-out rows (a mask)."""
    names = net.features
    _, test = linear.split(data, seed)
    if rows is not None:
        test = test & rows
    x = data["x"].astype(np.float64)
    y = data["final"].astype(np.float64)
    left = stage_of(x, names)
    preds = {"hand": x[:, names.index("projection")]}
    for k, m in models.items():
        preds[k] = m.predict(x, left)
    preds["net"] = net.value(net.inputs(x, left), x, left)
    for k, other in (nets or {}).items():
        preds[k] = other.value(other.inputs(x, left), x, left)
    two = (data["seat"][:-1] == 0) & (data["seat"][1:] == 1) & \
          (data["group"][:-1] == data["group"][1:]) & test[:-1] & (linear.modes_of(x, names)[:-1] == 1)
    a = np.flatnonzero(two)
    temps = {k: m.temp[1] for k, m in models.items()}
    temps["net"] = net.temp
    for k, other in (nets or {}).items():
        temps[k] = other.temp
    keys = list(preds)
    head = ["stage (decisions left)", "rows"] + [f"RMSE {k}" for k in keys]
    wkeys = [k for k in keys if k in temps]
    head += [f"win loss {k}" for k in wkeys]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for b in list(range(STAGES - 1, -1, -1)) + [-1]:
        m = test & ((left == b) if b >= 0 else np.ones_like(test))
        if not m.any():
            continue
        row = ["all" if b < 0 else str(b), f"{m.sum():,}"]
        row += [f"{np.sqrt(np.mean((preds[k][m] - y[m]) ** 2)):.2f}" for k in keys]
        ab = a[(left[a] == b)] if b >= 0 else a
        for k in wkeys:
            if len(ab):
                loss, _ = _winner_loss(preds[k][ab], preds[k][ab + 1], temps[k], left[ab],
                                       data["won"][ab])
                row.append(f"{loss:.3f}")
            else:
                row.append("")
        lines.append("| " + " | ".join(row) + " |")
    for k in wkeys:
        if len(a):
            loss, acc = _winner_loss(preds[k][a], preds[k][a + 1], temps[k], left[a],
                                     data["won"][a])
            lines.append(f"\n{k}: winner log loss {loss:.4f}, favourite won {acc:.1%} "
                         f"({len(a):,} held-out 2-player positions)")
    lines.append("")
    lines.append(policy_report(data, net, test))
    return "\n".join(lines)


def policy_report(data: dict[str, np.ndarray], net: Net, test: np.ndarray) -> str:
    """Held-out decisions: cross-entropy against the visit distribution and top-1 agreement
    with the most visited action, of the net's policy, the hand prior (normalized) and the
    uniform distribution; the targets' own entropy is the floor of the cross-entropy."""
    rows = data["p_row"]
    decs = np.flatnonzero(test[rows])
    if not len(decs):
        return "no held-out decisions"
    start = data["p_start"]
    flat, seg = _segments(start, decs)
    visits = data["p_visits"][flat].astype(np.float64)
    tot = np.zeros(len(decs))
    np.add.at(tot, seg, visits)
    target = visits / np.maximum(tot[seg], 1.0)
    x = data["x"][rows[decs]].astype(np.float64)
    z = net.inputs(x, stage_of(x, net.features))[seg]
    action = data["p_action"][flat].astype(np.int64)
    prior = data["p_prior"][flat].astype(np.float64)
    n = len(decs)
    dists = {
        "net policy": _seg_softmax(net.logits(z, action, prior), seg, n),
        "hand prior": _seg_softmax(np.clip(np.log(np.maximum(prior, 1e-300)),
                                           LOG_PRIOR_FLOOR, 0.0), seg, n),
        "uniform": _seg_softmax(np.zeros(len(flat)), seg, n),
    }
    best_t = _seg_argmax(target, seg, n)
    ent = float(-(target * np.log(np.maximum(target, 1e-12))).sum() / n)
    out = [f"policy, {n:,} held-out decisions (mean {len(flat) / n:.1f} legal actions); "
           f"the visit distribution's own entropy {ent:.3f}",
           "| distribution | cross-entropy | top-1 = most visited |", "|---|---|---|"]
    for k, p in dists.items():
        xe = float(-(target * np.log(np.maximum(p, 1e-12))).sum() / n)
        top = float((_seg_argmax(p, seg, n) == best_t).mean())
        out.append(f"| {k} | {xe:.3f} | {top:.1%} |")
    return "\n".join(out)


def _seg_argmax(v: np.ndarray, seg: np.ndarray, n: int) -> np.ndarray:
    """Each segment's flat index of its largest value (the first on ties)."""
    order = np.lexsort((-v, seg))
    first = np.concatenate([[0], np.flatnonzero(np.diff(seg[order])) + 1])
    return order[first][:n]


def load(paths: list[str]) -> dict[str, np.ndarray]:
    """Expert data of one or more files (games renumbered, policy rows re-indexed)."""
    parts = [dict(np.load(p)) for p in paths]
    out: dict[str, Any] = {}
    goff = roff = aoff = 0
    for d in parts:
        d["group"] = d["group"] + goff
        d["p_row"] = d["p_row"] + roff
        d["p_start"] = d["p_start"] + aoff
        goff = int(d["group"].max()) + 1
        roff += len(d["x"])
        aoff = int(d["p_start"][-1])
    for key in ("x", "seat", "left", "final", "goal", "won", "margin", "group", "table",
                "p_row", "p_action", "p_visits", "p_prior"):
        out[key] = np.concatenate([d[key] for d in parts])
    out["p_start"] = np.concatenate([parts[0]["p_start"][:1]] + [d["p_start"][1:] for d in parts])
    out["game"] = str(parts[0]["game"])
    return out


def main(args: Any) -> int:
    """`python -m ai.learn net`: fit, save, report (with timings)."""
    data = load(args.data)
    t = time.time()
    path = args.linear or str(Path(__import__("engine.mount_tai.learned",
                                              fromlist=["x"]).DEFAULT_MODEL))
    models = {"linear (shipped)": linear.read(path)}
    heads: dict[str, Net] = {}
    net = fit(data, seed=args.seed, hidden=args.hidden, epochs=args.epochs,
              base=None if args.refit else models["linear (shipped)"], head=args.head,
              keep=heads)
    net.info["linear_part"] = "refit" if args.refit else path
    print(f"fitted in {time.time() - t:.0f} s: {net.info}")
    save(net, args.out)
    print(f"-> {args.out} ({Path(args.out).stat().st_size / 1024:.0f} KB)")
    others: dict[str, Net] = {}
    for k, h in heads.items():
        if k != net.info["head"]:   # the head not chosen, saved beside it for comparison
            out = str(Path(args.out).with_suffix(f".{k}.json"))
            save(h, out)
            others[f"net ({k} head, not chosen)"] = h
            print(f"-> {out}")
    for spec in args.compare:
        name, _, p = spec.partition("=")
        others[name] = read(p)
    t = time.time()
    models["linear (refit)"] = linear.fit(data, seed=args.seed, own=(2,))
    print(f"linear refit on the same training games in {time.time() - t:.0f} s")
    print(f"held-out games of all the data ({net.info['head']} head chosen):")
    print(report(data, net, models, seed=args.seed, nets=others))
    if len(args.data) > 1:
        last = len(np.load(args.data[-1])["x"])
        rows = np.zeros(len(data["x"]), dtype=bool)
        rows[-last:] = True
        print(f"\nheld-out games of the last file only ({args.data[-1]}):")
        print(report(data, net, models, seed=args.seed, nets=others, rows=rows))
    return 0
