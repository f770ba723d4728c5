"""Fit a linear value on who won: a conditional logit over the seats of each position.

The ridge fit (`ai.learn.fit`) predicts each seat's final score and turns the seats'
predictions into win shares with a softmax at a temperature chosen afterwards. Here the weights
are fitted on the win itself: a seat's share of the win is exp(w[b] . x) over the sum across
the position's seats, w[b] the weights of the seat's own stage b (decisions left), which is
what the compiled evaluation computes with every temperature 1. The loss is the winner's log
loss (a tie shares the win), plus an L2 penalty on standardized features chosen on the held-out
games. The fit is Newton's method on all stages at once: seats of one position may be at
different stages, so the stages' weights are fitted together.

The result is an `ai.learn.fit.Model` (shared weights for every table size, temperatures 1),
saved and reported like the ridge model. Only games of several players are used.
"""
from __future__ import annotations

import numpy as np

from ai.learn.fit import BUCKETS, MODES, Model, feature_names, split

WIN_PENALTIES = (1e-5, 1e-4, 1e-3, 1e-2, 0.1)  # L2 penalties tried (mean loss per position)
MAX_STEPS = 25                             # Newton steps
TOLERANCE = 1e-7                           # stop when a step improves the loss by less


class _Positions:
    """The rows of several-player positions (each a run of consecutive rows from seat 0) in
    the form the fit needs: standardized features, stages, position ids and seat pairs."""

    def __init__(self, z: np.ndarray, left: np.ndarray, won: np.ndarray, start: np.ndarray):
        self.z = z                                  # [rows, F] standardized, column 0 = 1
        self.b = left                               # [rows] stage of each row's seat
        n = len(z)
        self.start = start                          # [positions] first row of each
        self.pos = np.repeat(np.arange(len(start)), np.diff(np.append(start, n)))
        total = np.add.reduceat(won, start)
        if not (total > 0).all():
            raise ValueError("a position's seats share no win (its 'won' sums to 0)")
        self.y = won / total[self.pos]              # the win's share, summing to 1
        self.n = len(start)
        size = np.diff(np.append(start, n))
        # Every ordered pair (i, j) of seats of one position, grouped by their stages.
        i_idx, j_idx = [], []
        for k in np.unique(size):
            first = start[size == k]
            for a in range(k):
                for c in range(k):
                    i_idx.append(first + a)
                    j_idx.append(first + c)
        i_all = np.concatenate(i_idx)
        j_all = np.concatenate(j_idx)
        key = self.b[i_all].astype(np.int64) * BUCKETS + self.b[j_all]
        order = np.argsort(key, kind="stable")
        key, i_all, j_all = key[order], i_all[order], j_all[order]
        cuts = np.flatnonzero(np.diff(key)) + 1
        self.pairs = [(int(key[s]) // BUCKETS, int(key[s]) % BUCKETS, i_all[s:e], j_all[s:e])
                      for s, e in zip(np.append(0, cuts), np.append(cuts, len(key)))]
        self.rows_of = [np.flatnonzero(self.b == b) for b in range(BUCKETS)]

    def shares(self, w: np.ndarray) -> np.ndarray:
        s = np.einsum("nf,nf->n", self.z, w[self.b])
        s = s - np.maximum.reduceat(s, self.start)[self.pos]
        e = np.exp(s)
        return e / np.add.reduceat(e, self.start)[self.pos]

    def loss(self, w: np.ndarray, lam: float = 0.0) -> float:
        """Mean winner log loss, plus lam / 2 x the squared weights."""
        p = np.clip(self.shares(w), 1e-300, None)
        return float(-(self.y * np.log(p)).sum() / self.n + 0.5 * lam * (w * w).sum())


def _newton(data: _Positions, lam: float) -> np.ndarray:
    """The penalized fit's weights [BUCKETS, F] (standardized features)."""
    f = data.z.shape[1]
    w = np.zeros((BUCKETS, f))
    loss = data.loss(w, lam)
    for _ in range(MAX_STEPS):
        p = data.shares(w)
        g_row = (p - data.y) / data.n
        grad = np.zeros_like(w)
        hess = np.zeros((BUCKETS * f, BUCKETS * f))
        pz = data.z * p[:, None]
        for b, rows in enumerate(data.rows_of):
            if len(rows):
                grad[b] = data.z[rows].T @ g_row[rows]
                hess[b * f:(b + 1) * f, b * f:(b + 1) * f] += data.z[rows].T @ pz[rows]
        for a, c, i, j in data.pairs:
            hess[a * f:(a + 1) * f, c * f:(c + 1) * f] -= pz[i].T @ pz[j]
        hess /= data.n
        grad += lam * w
        hess += lam * np.eye(BUCKETS * f)
        step = np.linalg.solve(hess, grad.ravel()).reshape(w.shape)
        t = 1.0
        while True:                                  # backtrack until the loss falls
            trial = w - t * step
            new = data.loss(trial, lam)
            if new <= loss or t < 1e-4:
                break
            t *= 0.5
        w, done = trial, loss - new < TOLERANCE
        loss = new
        if done:
            break
    return w


def _positions(data: dict[str, np.ndarray], rows: np.ndarray, mu: np.ndarray, sd: np.ndarray
               ) -> _Positions:
    """The several-player positions whose first row is in `rows` (all of a position's rows
    share its game, so a games split keeps positions whole)."""
    seat = data["seat"]
    start = np.flatnonzero(seat == 0)
    size = np.diff(np.append(start, len(seat)))
    keep = (size > 1) & rows[start]
    idx = np.concatenate([np.arange(s, s + k) for s, k in zip(start[keep], size[keep])])
    new_start = np.append(0, np.cumsum(size[keep])[:-1])
    return _Positions(_standardize(data["x"][idx], mu, sd),
                      np.clip(data["left"][idx], 0, BUCKETS - 1).astype(np.int64),
                      data["won"][idx].astype(np.float64), new_start)


def _standardize(x: np.ndarray, mu: np.ndarray, sd: np.ndarray) -> np.ndarray:
    z = np.zeros(x.shape)
    ok = sd > 1e-9
    z[:, ok] = (x[:, ok] - mu[ok]) / sd[ok]
    z[:, 0] = 1.0                                    # the constant column
    return z


def fit_win(data: dict[str, np.ndarray], seed: int = 1,
            penalties: tuple[float, ...] = WIN_PENALTIES) -> Model:
    """Weights per stage fitted on the winners of the training games, the penalty that names
    the held-out winners best; every temperature 1 (the weights carry the scale)."""
    names = feature_names(str(data["game"]))
    if names[0] != "bias":
        raise ValueError("the first feature must be the constant 'bias'")
    if not penalties or any(not lam > 0 for lam in penalties):
        raise ValueError(f"penalties must be positive, got {list(penalties)}")
    train, test = split(data, seed)
    seat = data["seat"]
    start = np.flatnonzero(seat == 0)
    several = np.diff(np.append(start, len(seat))) > 1
    n_train = int((several & train[start]).sum())
    if n_train < 100 or not (several & test[start]).any():
        raise ValueError(f"only {n_train} training positions of several players (and "
                         f"{int((several & test[start]).sum())} held out) to fit the win on")
    x = data["x"].astype(np.float64)
    mu, sd = x[train].mean(axis=0), x[train].std(axis=0)
    tr = _positions(data, train, mu, sd)
    te = _positions(data, test, mu, sd)
    best = None
    tried = {}
    for lam in penalties:
        w = _newton(tr, lam)
        held = te.loss(w)
        tried[f"{lam:g}"] = round(held, 5)
        if best is None or held < best[0]:
            best = (held, lam, w)
    assert best is not None
    raw = _raw_weights(best[2], mu, sd)
    weights = np.repeat(raw[None], MODES, axis=0)
    info = {"seed": seed, "target": "win", "lambda": best[1], "held_out_loss": tried,
            "positions": int(tr.n + te.n), "games": int(len(np.unique(data["group"])))}
    return Model(str(data["game"]), names, weights, np.ones(BUCKETS),
                 np.ones((MODES, BUCKETS)), info)


def _raw_weights(w: np.ndarray, mu: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """Weights on the raw features giving the same scores as `w` on the standardized ones."""
    ok = sd > 1e-9
    ok[0] = False
    raw = np.zeros_like(w)
    raw[:, ok] = w[:, ok] / sd[ok]
    raw[:, 0] = w[:, 0] - (w[:, ok] * (mu[ok] / sd[ok])).sum(axis=1)
    return raw

