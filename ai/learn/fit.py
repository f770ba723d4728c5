"""Fit each seat's final score on self-play positions, and judge the fit on held-out games.

The model is a ridge regression per number of decisions the seat has left (0..16): one linear
model a stage of the game, on the raw features (weights are stored for the raw values, so the
compiled evaluation is one dot product). The file holds weights per table size (solo, 2, 3, 4
players): one shared fit, except for the sizes listed in `own`, fitted on their own games. Own
weights always fit the held-out games better, but only at 2 players did they also play better
(solo and 4 players played worse: ai/STRONG_MOUNT_TAI.md), so the shipped model is `own=(2,)`.
Some solo tables (the plain game, a challenge game: `own_tables`) may also have weights and
spreads of their own, fitted on their games (file version 3). The shipped model has none: fitted
on 3,000 and on 6,000 games of challenges 6 and 7, such weights predicted those games better but
did not play them better (ai/STRONG_MOUNT_TAI.md, issue 14's eighth step).

On top of it, the evaluation needs a spread: a solo game's chance of reaching the goal is
P(final >= goal) under a normal error with the held-out residual spread of that stage (`sigma`);
a multi-player share of the win is a softmax of the seats' predictions with the temperature that
best predicts the winners held out (`temp`).
Games (not positions) are split into training and held-out sets, from a seed.

The same fit serves Dragon (ai/LEARN_DRAGON.md): its features have the player columns and the
decisions left, no challenge or goal columns (no solo game); its report adds the winner's log
loss by stage for the hand-written evaluation's softmax and the model's.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

BUCKETS = 17                      # decisions left 0..16
MODES = 4                         # table sizes: solo, 2, 3, 4 players (index = players - 1)
MODE_NAMES = ("solo", "2 players", "3 players", "4 players")
PLAYER_COLUMNS = tuple(f"players_{k}" for k in range(1, MODES + 1))  # one-hot features
SOLO_TABLES = 9                   # solo tables: the plain game (0), challenge games 1..8
SOLO_TABLE_NAMES = ("solo", *(f"challenge {k}" for k in range(1, SOLO_TABLES)))
CHALLENGE_COLUMNS = tuple(f"challenge_{k}" for k in range(1, SOLO_TABLES))  # one-hot features
MIN_ROWS = 50                     # fewer training positions in a cell: the shared fit serves
LAMBDAS = (0.1, 1.0, 10.0, 100.0, 1000.0)
HOLD_OUT = 0.2                    # share of games held out
FORMAT = "tianti-eval-model"


@dataclass
class Model:
    game: str
    features: list[str]
    weights: np.ndarray           # [MODES, BUCKETS, F]: prediction = weights[mode, b] @ x
    sigma: np.ndarray             # [BUCKETS]: held-out residual spread (solo games)
    temp: np.ndarray              # [MODES, BUCKETS]: softmax temperature (several players)
    info: dict[str, Any] = field(default_factory=dict)
    # Solo tables with weights of their own: table -> (weights [BUCKETS, F], sigma [BUCKETS]).
    solo_tables: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    def predict(self, x: np.ndarray, left: np.ndarray) -> np.ndarray:
        b = np.clip(left, 0, BUCKETS - 1)
        m = modes_of(x, self.features)
        w = self.weights[m, b]
        if self.solo_tables:
            tables = tables_of(x, self.features)
            for t, (tw, _) in self.solo_tables.items():
                rows = tables == t
                w[rows] = tw[b[rows]]
        return np.einsum("nf,nf->n", x.astype(np.float64), w)

    def spread(self, x: np.ndarray, left: np.ndarray) -> np.ndarray:
        """Each solo row's error spread (its table's own, else the solo one)."""
        b = np.clip(left, 0, BUCKETS - 1)
        out = self.sigma[b].copy()
        if self.solo_tables:
            tables = tables_of(x, self.features)
            for t, (_, sg) in self.solo_tables.items():
                rows = tables == t
                out[rows] = sg[b[rows]]
        return out


def modes_of(x: np.ndarray, names: list[str]) -> np.ndarray:
    """Each row's table size as a mode index (players - 1), from its one-hot player columns."""
    cols = [names.index(c) for c in PLAYER_COLUMNS]
    return np.argmax(x[:, cols], axis=1)


def tables_of(x: np.ndarray, names: list[str]) -> np.ndarray:
    """Each row's solo table (0 the plain solo game, k challenge game k), -1 for several
    players, from its one-hot player and challenge columns (a game without challenge columns,
    Dragon, has only the plain table)."""
    if not set(CHALLENGE_COLUMNS) <= set(names):
        return np.where(modes_of(x, names) == 0, 0, -1)
    cols = [names.index(c) for c in CHALLENGE_COLUMNS]
    ch = x[:, cols]
    table = np.where(ch.max(axis=1) > 0.5, np.argmax(ch, axis=1) + 1, 0)
    return np.where(modes_of(x, names) == 0, table, -1)


def load(paths: list[str]) -> dict[str, np.ndarray]:
    """Positions of one or more self-play files (games renumbered to stay distinct)."""
    parts = [dict(np.load(p)) for p in paths]
    out: dict[str, np.ndarray] = {}
    offset = 0
    for d in parts:
        d["group"] = d["group"] + offset
        offset = int(d["group"].max()) + 1
    for key in ("x", "seat", "left", "final", "goal", "won", "group", "table"):
        out[key] = np.concatenate([d[key] for d in parts])
    out["game"] = str(parts[0]["game"])
    return out


def split(data: dict[str, np.ndarray], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Row masks (train, held out), games kept whole."""
    groups = np.unique(data["group"])
    rng = np.random.default_rng(seed)
    held = rng.choice(groups, size=max(1, int(len(groups) * HOLD_OUT)), replace=False)
    test = np.isin(data["group"], held)
    return ~test, test


def _ridge(x: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Ridge weights in raw feature space; column 0 (the constant) is not penalised."""
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    keep = sd > 1e-9
    keep[0] = False
    z = (x[:, keep] - mu[keep]) / sd[keep]
    a = z.T @ z + lam * np.eye(z.shape[1])
    beta = np.linalg.solve(a, z.T @ (y - y.mean()))
    w = np.zeros(x.shape[1])
    w[keep] = beta / sd[keep]
    w[0] = y.mean() - (mu[keep] * w[keep]).sum()
    return w


def fit(data: dict[str, np.ndarray], seed: int = 1, hidden: int = 0,
        own: tuple[int, ...] = (), penalties: tuple[float, ...] = LAMBDAS,
        own_tables: tuple[int, ...] = ()) -> Model:
    """Ridge weights per stage, each penalty chosen on the held-out games: one shared fit, and
    for the table sizes in `own` (player counts, 1 = solo) a fit on their own games; then the
    solo spread and the softmax temperatures (per size for the sizes fitted on their own).
    The solo tables in `own_tables` (0 the plain game, k challenge game k) get weights of their
    own, one fit on all their games together (a table's one-hot column tells them apart), and
    each its own spread; the shared and solo weights and the solo spread are then fitted on
    the other tables' games only.
    `penalties` are the ridge penalties tried (on standardized features)."""
    if hidden:
        raise ValueError("the shipped model is the ridge one (--hidden 0); a network is "
                         "fitted by `python -m ai.learn net` (ai/learn/net.py)")
    names = feature_names(str(data["game"]))      # the game's names, for the file
    train, test = split(data, seed)
    x = data["x"].astype(np.float64)
    y = data["final"].astype(np.float64)
    left = np.clip(data["left"], 0, BUCKETS - 1)
    mode = modes_of(x, names)
    if not penalties or any(not lam > 0 for lam in penalties):
        raise ValueError(f"ridge penalties must be positive, got {list(penalties)}")
    bad = [k for k in own if not 1 <= k <= MODES]
    if bad:
        raise ValueError(f"table sizes are 1 (solo) to {MODES} players, got {bad}")
    bad = [t for t in own_tables if not 0 <= t < SOLO_TABLES]
    if bad:
        raise ValueError(f"solo tables are 0 (the plain game) to {SOLO_TABLES - 1}, got {bad}")
    tables = tables_of(x, names)
    if any(not (tables == t).any() for t in own_tables):
        missing = [t for t in own_tables if not (tables == t).any()]
        raise ValueError(f"no positions of solo table(s) {missing} to fit")
    own_rows = np.isin(tables, list(own_tables))
    # The solo tables with weights of their own do not pull the weights the others share.
    shared, shared_lams = _fit_stages(x, y, left, train, test, ~own_rows, penalties)
    weights = np.repeat(shared[None], MODES, axis=0)
    lambdas: dict[str, list[float | None]] = {"shared": shared_lams}
    own_modes = sorted({k - 1 for k in own})
    for m in own_modes:
        w, lams = _fit_stages(x, y, left, train, test, (mode == m) & ~own_rows, penalties,
                              fallback=shared)
        weights[m] = w
        lambdas[MODE_NAMES[m]] = lams
    solo_tables: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    if own_tables:
        tw, lams = _fit_stages(x, y, left, train, test, own_rows, penalties, fallback=weights[0])
        lambdas[" + ".join(SOLO_TABLE_NAMES[t] for t in sorted(own_tables))] = lams
        solo_tables = {t: (tw, np.ones(BUCKETS)) for t in sorted(own_tables)}
    model = Model(data["game"], names, weights, np.ones(BUCKETS), np.ones((MODES, BUCKETS)),
                  {"seed": seed, "lambda": lambdas,
                   "own_fit": [MODE_NAMES[m] for m in own_modes],
                   "own_tables": [SOLO_TABLE_NAMES[t] for t in sorted(own_tables)],
                   "positions": int(len(y)), "games": int(len(np.unique(data["group"])))},
                  solo_tables)
    # Spread and temperature from the held-out games, fitted on the training ones only.
    pred = model.predict(x, left)
    solo = (mode == 0) & ~own_rows
    goal_col = names.index("goal") if "goal" in names else -1
    for b in range(BUCKETS):
        m = test & solo & (left == b)
        if m.sum() > 10 and goal_col >= 0:
            model.sigma[b] = _best_spread(pred[m], y[m], x[m, goal_col], data["goal"][m])
        else:
            model.sigma[b] = model.sigma[b - 1] if b else 3.0
    for t, (_, sg) in solo_tables.items():
        for b in range(BUCKETS):
            m = test & (tables == t) & (left == b)
            if m.sum() > 10 and goal_col >= 0:
                sg[b] = _best_spread(pred[m], y[m], x[m, goal_col], data["goal"][m])
            else:
                sg[b] = sg[b - 1] if b else model.sigma[b]
    # The shared temperatures go with the shared weights (so that a size fitted on its own
    # leaves the others exactly as a shared-only fit would).
    pred_shared = np.einsum("nf,nf->n", x, shared[left])
    shared_temps = _fit_temps(data, pred_shared, test & ~solo, left)
    for m in range(MODES):
        model.temp[m] = shared_temps
        if m in own_modes and m > 0:
            model.temp[m] = _fit_temps(data, pred, test & (mode == m), left, shared_temps)
    return model


def keep(model: Model, kept: Model, own: tuple[int, ...], own_tables: tuple[int, ...] = ()
         ) -> Model:
    """`model` with every table size not in `own` (player counts, 1 = solo) taken from `kept`:
    its weights, its temperatures and, for solo, its spreads (and its solo tables of their own);
    the solo tables in `own_tables` come from `model` whatever else is kept. A new fit of some
    tables (on more games of theirs) then leaves the others exactly as shipped."""
    if not own and not own_tables:
        raise ValueError("keep needs the sizes or solo tables fitted anew (own, own_tables)")
    if list(kept.features) != list(model.features):
        raise ValueError("the kept model has other features than this fit")
    missing = [t for t in own_tables if t not in model.solo_tables]
    if missing:
        raise ValueError(f"the fit has no weights of their own for solo table(s) {missing}")
    own_modes = {k - 1 for k in own}
    weights, temp, sigma = model.weights.copy(), model.temp.copy(), model.sigma.copy()
    for m in range(MODES):
        if m not in own_modes:
            weights[m] = kept.weights[m]
            temp[m] = kept.temp[m]
    solo_tables = dict(model.solo_tables) if 0 in own_modes else dict(kept.solo_tables)
    if 0 not in own_modes:
        sigma = kept.sigma.copy()
    for t in own_tables:
        solo_tables[t] = model.solo_tables[t]
    info = dict(model.info, kept={"sizes": [MODE_NAMES[m] for m in range(MODES)
                                            if m not in own_modes], "from": kept.info})
    return Model(model.game, model.features, weights, sigma, temp, info,
                 {t: solo_tables[t] for t in sorted(solo_tables)})


def calibrate(model: Model, data: dict[str, np.ndarray], seed: int = 1) -> Model:
    """`model` with its solo predictions recentred on the games of the bot that will use it.

    A model fitted on the games of weaker bots predicts a stronger bot's final reputation too
    low (the shipped model, on `strong`'s own solo games: by up to 11 reputation early in the
    game, 2-4 near its end): its chance of the goal then sits in the normal curve's flat tail,
    where the moves a search compares differ by hundredths. Per solo table (the plain game and
    each challenge) and stage, the mean residual on the training games of `data` (the stage's
    over all tables, where a table has too few) is added to the prediction through the bias
    weight and the challenge's one-hot weight, so the file format and the compiled evaluation
    stay as they are; each stage's spread is then chosen again on the held-out games as `fit`
    chooses it. The 2-4 player weights and temperatures are kept bit for bit."""
    names = list(model.features)
    if "challenge_1" not in names or "bias" not in names:
        raise ValueError("calibrate needs the bias and challenge_k features")
    if model.solo_tables:
        raise ValueError("calibrate recentres the shared solo weights: give it a model without "
                         "solo tables of their own")
    x = data["x"].astype(np.float64)
    y = data["final"].astype(np.float64)
    left = np.clip(data["left"], 0, BUCKETS - 1)
    solo = modes_of(x, names) == 0
    if not solo.any():
        raise ValueError("calibrate needs solo positions")
    cols = [names.index(f"challenge_{k}") for k in range(1, 9)]
    table = np.where(x[:, cols].max(axis=1) > 0.5, np.argmax(x[:, cols], axis=1) + 1, 0)
    train, test = split(data, seed)
    resid = y - model.predict(x, left)
    weights, sigma = model.weights.copy(), model.sigma.copy()
    bias, goal_col = names.index("bias"), names.index("goal")
    offsets = np.zeros((BUCKETS, 9))
    for b in range(BUCKETS):
        stage = train & solo & (left == b)
        pooled = resid[stage].mean() if stage.sum() >= MIN_ROWS else 0.0
        for t in range(9):
            m = stage & (table == t)
            offsets[b, t] = resid[m].mean() if m.sum() >= MIN_ROWS else pooled
        weights[0, b, bias] += offsets[b, 0]
        for t in range(1, 9):
            weights[0, b, cols[t - 1]] += offsets[b, t] - offsets[b, 0]
    out = Model(model.game, names, weights, sigma, model.temp.copy(),
                dict(model.info, calibrated={"seed": seed,
                                             "positions": int(solo.sum()),
                                             "offsets": offsets.round(3).tolist()}))
    pred = out.predict(x, left)
    for b in range(BUCKETS):
        m = test & solo & (left == b)
        if m.sum() > 10:
            out.sigma[b] = _best_spread(pred[m], y[m], x[m, goal_col], data["goal"][m])
    return out


def _best_spread(pred: np.ndarray, final: np.ndarray, goal: np.ndarray,
                 reached: np.ndarray) -> float:
    """The spread that predicts the held-out goals best (log loss), among multiples of the
    error's own spread: the error is not quite normal near the end."""
    spread = max(1.0, float(np.std(pred - final)))
    margin = pred - goal + 0.5
    return min([spread * f for f in (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5)],
               key=lambda sg: _logloss(_normal_cdf(margin / sg), reached))


def _fit_stages(x: np.ndarray, y: np.ndarray, left: np.ndarray, train: np.ndarray,
                test: np.ndarray, rows: np.ndarray, penalties: tuple[float, ...],
                fallback: np.ndarray | None = None) -> tuple[np.ndarray, list[float | None]]:
    """Ridge weights per stage on the training `rows`, the penalty that predicts the held-out
    ones best. A stage with too few positions takes `fallback`'s weights (or, without one, the
    hand projection itself)."""
    weights = np.zeros((BUCKETS, x.shape[1]))
    lambdas: list[float | None] = []
    for b in range(BUCKETS):
        tr = train & rows & (left == b)
        te = test & rows & (left == b)
        if tr.sum() < MIN_ROWS:
            if fallback is not None:
                weights[b] = fallback[b]
            else:
                weights[b, 1] = 1.0      # too few positions: the hand projection itself
            lambdas.append(None)
            continue
        best = None
        for lam in penalties:
            w = _ridge(x[tr], y[tr], lam)
            err = np.mean((x[te] @ w - y[te]) ** 2) if te.any() else 0.0
            if best is None or err < best[0]:
                best = (err, lam, w)
        assert best is not None
        weights[b] = best[2]          # fitted on the training games only: held out stays out
        lambdas.append(best[1])
    return weights, lambdas


def _positions(data: dict[str, np.ndarray], mask: np.ndarray) -> list[np.ndarray]:
    """Row indices of each (game, decision) position's seats among `mask`'s rows: the rows of
    one position are consecutive, one per seat from seat 0."""
    idx = np.flatnonzero(mask & (data["seat"] == 0))
    out = []
    for i in idx:
        j = i + 1
        while j < len(data["seat"]) and data["seat"][j] != 0 and data["group"][j] == data["group"][i]:
            j += 1
        out.append(np.arange(i, j))
    return out


def _softmax_loss(pred: np.ndarray, won: np.ndarray, pos: list[np.ndarray], t: float) -> float:
    loss = 0.0
    for rows in pos:
        v = pred[rows] / t
        v = v - v.max()
        logp = v - math.log(float(np.exp(v).sum()))
        loss -= float((won[rows] * logp).sum())
    return loss / max(1, len(pos))


def _fit_temps(data: dict[str, np.ndarray], pred: np.ndarray, mask: np.ndarray,
               left: np.ndarray, default: np.ndarray | None = None) -> np.ndarray:
    temps = np.full(BUCKETS, 6.0) if default is None else default.copy()
    grid = TEMPS
    for b in range(BUCKETS):
        pos = _positions(data, mask & (left == b))
        if len(pos) < 20:
            continue
        if len(pos) > 3000:
            pos = pos[:: len(pos) // 3000]
        temps[b] = min(grid, key=lambda t: _softmax_loss(pred, data["won"], pos, t))
    return temps


def save(model: Model, path: str) -> None:
    """Write the model file the engine loads (version 2: weights [modes][stages][features],
    temperatures [modes][stages]; version 3, when some solo tables have weights of their own:
    also "solo_tables", {table name: {weights [stages][features], sigma [stages]}})."""
    doc = {"format": FORMAT, "version": 3 if model.solo_tables else 2, "game": model.game,
           "features": model.features, "buckets": BUCKETS, "modes": list(MODE_NAMES),
           "weights": model.weights.round(6).tolist(),
           "sigma": model.sigma.round(4).tolist(), "temp": model.temp.round(4).tolist(),
           "info": model.info}
    if model.solo_tables:
        doc["solo_tables"] = {SOLO_TABLE_NAMES[t]: {"weights": w.round(6).tolist(),
                                                    "sigma": sg.round(4).tolist()}
                              for t, (w, sg) in sorted(model.solo_tables.items())}
    Path(path).write_text(json.dumps(doc, indent=1) + "\n")


def feature_names(game: str) -> list[str]:
    """The feature names of `game`'s learned evaluation (ai.learn.selfplay.features_fn)."""
    from ai.learn.selfplay import features_fn
    return list(features_fn(game)[1])


def hand_temperature(game: str) -> float | None:
    """The softmax temperature of a game's hand-written win shares over its `projection`
    feature, where they are exactly that softmax (Dragon); None where the hand evaluation is
    not (Mount Tai's temperature varies with the stage and its settings)."""
    if game == "dragon":
        from engine.dragon.knowledge import eval_temperature
        return float(eval_temperature())
    return None


def _read_plain(path: str, doc: dict[str, Any]) -> Model:
    """A version 2 model file of a game the engine does not load models for yet (Dragon),
    checked here: its features, shapes, positive spreads and temperatures."""
    names = feature_names(str(doc.get("game")))
    if list(doc.get("features", [])) != names:
        raise ValueError(f"{path}: fitted on other features than this engine's")
    try:
        weights = np.asarray(doc["weights"], dtype=np.float64)
        sigma = np.asarray(doc["sigma"], dtype=np.float64)
        temp = np.asarray(doc["temp"], dtype=np.float64)
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{path}: weights, sigma and temp are needed") from None
    if (weights.shape != (MODES, BUCKETS, len(names)) or sigma.shape != (BUCKETS,)
            or temp.shape != (MODES, BUCKETS)):
        raise ValueError(f"{path}: the model's shape is not {MODES} x {BUCKETS} x {len(names)}")
    if not ((sigma > 0).all() and (temp > 0).all()):
        raise ValueError(f"{path}: sigma and temp must be positive")
    return Model(str(doc["game"]), names, weights, sigma, temp, doc.get("info", {}))


def read(path: str) -> Model:
    """A model file of either version, checked and shaped by the engine's own reader
    (`engine.mount_tai.learned.model_arrays`: version 1 serves every table size alike); a
    Dragon model by `_read_plain`."""
    from engine.mount_tai.learned import model_arrays, model_tables
    doc = json.loads(Path(path).read_text())
    if doc.get("format") != FORMAT:
        raise ValueError(f"{path} is not a {FORMAT} file")
    if doc.get("game") == "dragon":
        return _read_plain(path, doc)
    try:
        weights, sigma, temp = model_arrays(doc)
        own = model_tables(doc)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    return Model(doc["game"], doc["features"], np.asarray(weights), np.asarray(sigma),
                 np.asarray(temp), doc.get("info", {}),
                 {t: (np.asarray(w), np.asarray(sg)) for t, (w, sg) in sorted(own.items())})


def _hand_solo(x: np.ndarray, names: list[str], left: np.ndarray) -> np.ndarray:
    """The hand-written solo evaluation (knowledge.pyx defaults): a logistic of projection +
    0.2 R^2 - goal with a scale of 6 (1 + R / 16)."""
    proj = x[:, names.index("projection")]
    goal = x[:, names.index("goal")]
    temp = 6.0 * (1.0 + left / 16.0)
    return 1.0 / (1.0 + np.exp(-(proj + 0.2 * left * left - goal) / temp))


def report(data: dict[str, np.ndarray], model: Model | None, seed: int = 1) -> str:
    """Error by decisions left on the held-out games: the hand projection, the model, and in
    solo games the goal's log loss of the hand evaluation and of the model's probability; for a
    game whose hand win shares are a softmax of the projection (Dragon), the winner's log loss
    by stage too (`winner_table`)."""
    names = feature_names(str(data["game"]))
    _, test = split(data, seed)
    x = data["x"].astype(np.float64)
    y = data["final"].astype(np.float64)
    left = np.clip(data["left"], 0, BUCKETS - 1)
    hand = x[:, names.index("projection")]
    pred = model.predict(x, left) if model is not None else None
    solo = modes_of(x, names) == 0
    goal = data["goal"]
    lines = ["| decisions left | positions | hand: mean error | hand: RMSE | hand: SD (bias "
             "removed) | model: mean error | model: RMSE | solo goal log loss: hand | model |",
             "|---|---|---|---|---|---|---|---|---|"]
    for b in range(BUCKETS - 1, -1, -1):
        m = test & (left == b)
        if not m.any():
            continue
        he = hand[m] - y[m]
        row = [str(b), f"{m.sum():,}", f"{he.mean():+.1f}", f"{np.sqrt((he ** 2).mean()):.1f}",
               f"{he.std():.1f}"]
        if pred is not None:
            me = pred[m] - y[m]
            row += [f"{me.mean():+.1f}", f"{np.sqrt((me ** 2).mean()):.1f}"]
        else:
            row += ["", ""]
        ms = m & solo
        if ms.any():
            ph = np.clip(_hand_solo(x[ms], names, left[ms]), 1e-6, 1 - 1e-6)
            row.append(f"{_logloss(ph, goal[ms]):.3f}")
            if model is not None:
                pm = _prob_goal(model, x[ms], left[ms], names)
                row.append(f"{_logloss(pm, goal[ms]):.3f}")
            else:
                row.append("")
        else:
            row += ["", ""]
        lines.append("| " + " | ".join(row) + " |")
    loss = winner_loss(data, model, seed) if model is not None else None
    if loss is not None:
        lines.append(f"\n2 players, the winner on the held-out games ({loss[0]:,} positions): "
                     f"log loss {loss[1]:.4f}, the model's favourite won {loss[2]:.1%}")
    temp = hand_temperature(str(data["game"]))
    if temp is not None:
        lines.append("\n" + winner_table(data, model, temp, seed))
    return "\n".join(lines)


def winner_table(data: dict[str, np.ndarray], model: Model | None, hand_temp: float,
                 seed: int = 1) -> str:
    """The winner on the held-out games of every table size, by decisions left (of the seat
    to the position's first row, seat 0): the log loss of the hand-written win shares (a
    softmax of the seats' projections at `hand_temp`), of the same softmax at the temperature
    of TEMPS that suits the stage best (chosen on these positions, as the model's is), and of
    the model's (a softmax of its predictions at its temperature of that size and stage); and
    how often the hand's and the model's favourite won. A position's log loss is -sum over
    seats of won x log(share); a tie shares the win."""
    names = feature_names(str(data["game"]))
    _, test = split(data, seed)
    x = data["x"].astype(np.float64)
    left = np.clip(data["left"], 0, BUCKETS - 1)
    won = data["won"].astype(np.float64)
    hand = x[:, names.index("projection")]
    pred = model.predict(x, left) if model is not None else None
    modes = modes_of(x, names)
    temps = (hand_temp, *TEMPS)
    # Per stage: positions, hand losses at each of `temps`, model loss, favourites' wins.
    stats: dict[int, np.ndarray] = {}
    for rows in _positions(data, test & (modes > 0)):
        if len(rows) < 2:
            continue
        b = int(left[rows[0]])
        acc = stats.setdefault(b, np.zeros(len(temps) + 4))
        acc[0] += 1
        for k, t in enumerate(temps):
            acc[1 + k] += _position_loss(hand[rows], won[rows], t)
        acc[-2] += won[rows][int(np.argmax(hand[rows]))]
        if pred is not None:
            acc[-3] += _position_loss(pred[rows], won[rows], float(model.temp[modes[rows[0]], b]))
            acc[-1] += won[rows][int(np.argmax(pred[rows]))]
    lines = [f"| decisions left | positions | winner log loss: hand (T = {hand_temp:g}) | "
             "hand, best T | model | favourite won: hand | model |",
             "|---|---|---|---|---|---|---|"]
    total = np.zeros(len(temps) + 4)
    best_total = 0.0
    for b in sorted(stats, reverse=True):
        a = stats[b]
        total += a
        k = int(np.argmin(a[2:1 + len(temps)]))
        best_total += a[2 + k]
        lines.append(_winner_row(str(b), a, a[2 + k], f"{TEMPS[k]:g}", pred is not None))
    if total[0]:
        lines.append(_winner_row("all", total, best_total, "", pred is not None))
    return "\n".join(lines)


TEMPS = (1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0, 14.0, 20.0, 30.0)   # the temperatures tried


def _position_loss(v: np.ndarray, won: np.ndarray, t: float) -> float:
    """-sum(won x log softmax(v / t)) of one position's seats."""
    z = v / t
    z = z - z.max()
    return -float((won * (z - math.log(float(np.exp(z).sum())))).sum())


def _winner_row(label: str, a: np.ndarray, best: float, best_t: str, with_model: bool) -> str:
    n = a[0]
    row = [label, f"{int(n):,}", f"{a[1] / n:.3f}",
           f"{best / n:.3f}" + (f" (T = {best_t})" if best_t else ""),
           f"{a[-3] / n:.3f}" if with_model else "", f"{a[-2] / n:.1%}",
           f"{a[-1] / n:.1%}" if with_model else ""]
    return "| " + " | ".join(row) + " |"


def winner_loss(data: dict[str, np.ndarray], model: Model, seed: int = 1
                ) -> tuple[int, float, float] | None:
    """2-player games: how well the model names the winner on the held-out games, as (positions,
    log loss, share of positions whose favourite won); the chance of seat 0 is the softmax of the
    two seats' predictions at the model's temperature (what the search's evaluation uses). A
    position's rows are its seats' rows in seat order. None without 2-player positions."""
    _, test = split(data, seed)
    x = data["x"].astype(np.float64)
    left = np.clip(data["left"], 0, BUCKETS - 1)
    modes = modes_of(x, list(model.features))
    a = np.flatnonzero(test[:-1] & (modes[:-1] == 1) & (data["seat"][:-1] == 0)
                       & (data["seat"][1:] == 1) & (data["group"][:-1] == data["group"][1:]))
    if not len(a):
        return None
    b = a + 1
    diff = model.predict(x[a], left[a]) - model.predict(x[b], left[b])
    z = np.clip(diff / model.temp[1][left[a]], -50.0, 50.0)
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-6, 1 - 1e-6)
    won = data["won"][a]
    return len(a), _logloss(p, won), float(((p > 0.5) == (won > 0.5)).mean())


def _prob_goal(model: Model, x: np.ndarray, left: np.ndarray, names: list[str]) -> np.ndarray:
    """P(final >= goal) under a normal error of the stage's spread (final scores are whole)."""
    pred = model.predict(x, left)
    goal = x[:, names.index("goal")]
    return _normal_cdf((pred - goal + 0.5) / model.spread(x, left))


def _normal_cdf(z: np.ndarray) -> np.ndarray:
    """P(N(0, 1) <= z), clipped away from 0 and 1 (for log losses)."""
    p = 0.5 * (1.0 + np.vectorize(math.erf)(z / math.sqrt(2.0)))
    return np.clip(p, 1e-6, 1 - 1e-6)


def _logloss(p: np.ndarray, y: np.ndarray) -> float:
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())
