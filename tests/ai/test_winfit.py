"""The fit of a linear value on who won (ai/learn/winfit.py): it finds the weights that drew
the winners, the model it writes scores as the fit did, and bad requests are refused."""
from __future__ import annotations

import numpy as np
import pytest

from ai.learn import fit as fitting
from ai.learn.winfit import fit_win
from engine.dragon.knowledge import FEATURE_NAMES

F = len(FEATURE_NAMES)
USED = [FEATURE_NAMES.index(n) for n in ("projection", "score", "money_part")]


def _true_weights() -> np.ndarray:
    """Raw weights per stage: stage 2 and stage 3 differ in scale and sign of one feature."""
    w = np.zeros((fitting.BUCKETS, F))
    w[2, USED] = (0.30, 0.10, -0.20)
    w[3, USED] = (0.15, 0.20, 0.10)
    return w


def _games(n_positions: int, seed: int) -> dict[str, np.ndarray]:
    """Positions of 2-4 seats, seats at stage 2 or 3 (so some positions mix stages), each
    position's winner drawn from the conditional logit of `_true_weights`."""
    rng = np.random.default_rng(seed)
    w = _true_weights()
    xs, seats, lefts, wons, groups = [], [], [], [], []
    for p in range(n_positions):
        k = int(rng.integers(2, 5))
        x = np.zeros((k, F))
        x[:, 0] = 1.0
        x[:, FEATURE_NAMES.index(f"players_{k}")] = 1.0
        x[:, USED] = rng.normal(20.0, 6.0, size=(k, len(USED)))
        left = rng.integers(2, 4, size=k)
        s = np.einsum("nf,nf->n", x, w[left])
        prob = np.exp(s - s.max())
        prob /= prob.sum()
        won = np.zeros(k)
        won[rng.choice(k, p=prob)] = 1.0
        xs.append(x)
        seats.append(np.arange(k))
        lefts.append(left)
        wons.append(won)
        groups.append(np.full(k, p // 10))          # ten positions a game
    n = sum(len(s) for s in seats)
    return {"game": np.asarray("dragon"), "x": np.concatenate(xs).astype(np.float32),
            "seat": np.concatenate(seats).astype(np.int8),
            "left": np.concatenate(lefts).astype(np.int8),
            "won": np.concatenate(wons).astype(np.float32),
            "group": np.concatenate(groups).astype(np.int32),
            "final": np.zeros(n, np.float32), "goal": np.zeros(n, np.float32),
            "table": np.zeros(n, np.int8)}


def test_the_fit_finds_the_weights_that_drew_the_winners():
    data = _games(6000, seed=3)
    model = fit_win(data, seed=1)
    true = _true_weights()
    for b in (2, 3):
        assert model.weights[1][b][USED] == pytest.approx(true[b, USED], abs=0.03)
    # Every table size shares the weights; the temperatures are 1 (the weights carry the scale).
    assert (model.weights == model.weights[1]).all() and (model.temp == 1.0).all()
    assert model.info["target"] == "win" and model.info["lambda"] in (1e-5, 1e-4, 1e-3, 1e-2, 0.1)


def test_the_models_shares_are_those_the_fit_scored():
    """The raw weights it writes give, on the held-out positions, the log loss the fit scored on
    standardized features, and the report's (`winner_table`) is the same."""
    data = _games(1500, seed=4)
    model = fit_win(data, seed=1)
    _, test = fitting.split(data, 1)
    pred = model.predict(data["x"].astype(np.float64), data["left"])
    starts = np.flatnonzero(data["seat"] == 0)
    ends = np.append(starts[1:], len(pred))
    losses = []
    for a, b in zip(starts, ends):
        if test[a]:
            v = pred[a:b] - pred[a:b].max()
            p = np.exp(v) / np.exp(v).sum()
            losses.append(-float((data["won"][a:b] * np.log(p)).sum()))
    held = float(np.mean(losses))
    assert held == pytest.approx(model.info["held_out_loss"][f"{model.info['lambda']:g}"],
                                 abs=1e-4)
    table = fitting.winner_table(data, model, 8.0, seed=1)
    all_row = [r for r in table.splitlines() if r.startswith("| all |")][0]
    assert float(all_row.split("|")[5]) == pytest.approx(held, abs=1e-3)


def test_bad_requests_are_refused_and_nothing_is_written(tmp_path, capsys):
    from ai.learn.__main__ import main
    data = _games(300, seed=6)
    path = tmp_path / "d.npz"
    np.savez(path, **data)
    out = tmp_path / "m.json"
    for extra in (["--own", "2"], ["--hidden", "8"], ["--keep", str(tmp_path / "k.json")]):
        with pytest.raises(SystemExit):
            main(["fit", str(path), "--target", "win", "--out", str(out), *extra])
        assert "--target win fits one shared model" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["fit", str(path), "--target", "win", "--penalties", "0", "--out", str(out)])
    assert "--penalties must be positive" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(ValueError, match="penalties must be positive"):
        fit_win(data, penalties=(0.0,))
    no_win = dict(data, won=np.zeros_like(data["won"]))
    with pytest.raises(ValueError, match="share no win"):
        fit_win(no_win)
    with pytest.raises(ValueError, match="only 0 training positions of several players"):
        fit_win({k: (v[:5] if v.ndim else v) for k, v in data.items()})


def test_the_win_fit_takes_the_penalties_given(tmp_path):
    from ai.learn.__main__ import main
    path, out = tmp_path / "d.npz", tmp_path / "m.json"
    np.savez(path, **_games(1500, seed=7))
    assert main(["fit", str(path), "--target", "win", "--penalties", "0.5", "2",
                 "--out", str(out)]) == 0
    model = fitting.read(str(out))
    assert set(model.info["held_out_loss"]) == {"0.5", "2"} and model.info["lambda"] in (0.5, 2)
