"""The self-play learning pipeline: data, fit, the model file the engine loads."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ai.learn import fit as fitting
from ai.learn.__main__ import main
from ai.learn.selfplay import TABLES, play_one
from engine.mount_tai import knowledge, learned


def test_self_play_rows_are_reproducible_and_labelled_with_the_final_scores():
    a = play_one(("mount-tai", 3, 9, "heuristic", 0.1))     # table 9: 2 players
    b = play_one(("mount-tai", 3, 9, "heuristic", 0.1))
    assert TABLES[9] == {"players": 2}
    assert np.array_equal(a.x, b.x) and np.array_equal(a.final, b.final)
    assert a.x.shape[1] == len(knowledge.FEATURE_NAMES)
    assert set(np.unique(a.seat)) == {0, 1}
    # Every row of a seat carries that seat's final reputation; the last positions are near it.
    for seat in (0, 1):
        rows = a.seat == seat
        assert len(set(a.final[rows].tolist())) == 1
        rep = a.x[rows, knowledge.FEATURE_NAMES.index("rep")]
        assert rep.max() <= a.final[rows][0]
    assert a.won.sum() == pytest.approx(len(a.won) / 2)   # one winner (or shared) per position
    assert not a.goal.any()                                # no goal outside solo games


def test_solo_rows_say_whether_the_goal_was_reached():
    r = play_one(("mount-tai", 3, 0, "heuristic", 0.0))
    assert set(np.unique(r.seat)) == {0}
    goal = r.x[0, knowledge.FEATURE_NAMES.index("goal")]
    assert goal > 0
    assert bool(r.goal[0]) == (r.final[0] >= goal)


def test_the_pipeline_fits_a_model_the_engine_loads(tmp_path: Path):
    data_path = tmp_path / "d.npz"
    model_path = tmp_path / "m.json"
    assert main(["play", "--games", "12", "--bot", "heuristic", "--workers", "1",
                 "--out", str(data_path)]) == 0
    assert main(["fit", str(data_path), "--out", str(model_path)]) == 0
    model = fitting.read(str(model_path))
    data = fitting.load([str(data_path)])
    assert model.weights.shape == (fitting.BUCKETS, len(knowledge.FEATURE_NAMES))
    assert (model.sigma > 0).all() and (model.temp > 0).all()
    # The held-out report compares the hand projection and the model by stage.
    table = fitting.report(data, model)
    assert "| 0 |" in table or "| 1 |" in table
    before = learned.model_info()
    try:
        info = learned.load_model(model_path)
        assert info["path"] == str(model_path)
    finally:
        learned.load_model(before["path"])
    assert learned.model_info()["path"] == before["path"]


def test_ridge_recovers_a_linear_rule():
    rng = np.random.default_rng(0)
    x = np.hstack([np.ones((500, 1)), rng.normal(size=(500, 3))])
    y = 5.0 + x[:, 1] * 2.0 - x[:, 3] * 0.5
    w = fitting._ridge(x, y, 1e-6)
    assert w == pytest.approx([5.0, 2.0, 0.0, -0.5], abs=1e-4)


def test_fit_refuses_the_experimental_network_for_shipping():
    with pytest.raises(ValueError, match="ridge"):
        fitting.fit({}, hidden=8)
