"""The self-play pipeline on Dragon: its tables, its rows, the fit and the held-out report."""
from __future__ import annotations

import numpy as np
import pytest

from ai.learn import fit as fitting
from ai.learn.selfplay import (DECISIONS_LEFT, DRAGON_TABLES, TABLES, features_fn, game_indices,
                               play_one, tables_for)
from engine.dragon import knowledge


def test_mount_tai_keeps_its_tables_and_indices():
    """Dragon's tables are its own: Mount Tai's seeds and indices deal the games they did."""
    assert tables_for("mount-tai") is TABLES and len(TABLES) == 12
    assert TABLES[0] == {"solo": True} and TABLES[9:] == ({"players": 2}, {"players": 3},
                                                        {"players": 4})
    assert game_indices(4, [9]) == [9, 21, 33, 45]
    assert game_indices(3, [1], "dragon") == [1, 4, 7]
    assert tables_for("dragon") == DRAGON_TABLES == ({"players": 2}, {"players": 3},
                                                     {"players": 4})
    with pytest.raises(ValueError, match="0..2"):
        game_indices(1, [3], "dragon")
    with pytest.raises(ValueError, match="no learned features"):
        features_fn("tic-tac-toe")
    feats, names = features_fn("dragon")
    assert feats is knowledge.features and names == knowledge.FEATURE_NAMES


@pytest.mark.parametrize("index,players", [(0, 2), (1, 3), (5, 4)])
def test_dragon_rows_are_reproducible_and_labelled(index: int, players: int):
    a = play_one(("dragon", 3, index, "heuristic", 0.1))
    b = play_one(("dragon", 3, index, "heuristic", 0.1))
    assert np.array_equal(a.x, b.x) and np.array_equal(a.final, b.final)
    assert a.x.shape[1] == len(knowledge.FEATURE_NAMES)
    assert set(np.unique(a.seat)) == set(range(players))
    names = knowledge.FEATURE_NAMES
    assert (a.x[:, names.index(f"players_{players}")] == 1).all()
    assert np.array_equal(a.left, a.x[:, names.index(DECISIONS_LEFT)].astype(np.int8))
    assert a.left.max() == 12 and a.left.min() == 0
    for seat in range(players):
        rows = a.seat == seat
        assert len(set(a.final[rows].tolist())) == 1
        assert a.x[rows, names.index("score")].max() <= a.final[rows][0]
    # Each position's shares of the win sum to 1; no solo goal.
    assert a.won.sum() == pytest.approx(len(a.won) / players)
    assert not a.goal.any()


def test_the_dragon_pipeline_fits_and_reports_against_the_hand_evaluation(tmp_path):
    from ai.learn.__main__ import main
    data_path, model_path = tmp_path / "d.npz", tmp_path / "m.json"
    assert main(["play", "--game", "dragon", "--games", "15", "--seed", "2", "--bot",
                 "heuristic", "--workers", "1", "--out", str(data_path)]) == 0
    assert main(["fit", str(data_path), "--out", str(model_path)]) == 0
    model = fitting.read(str(model_path))
    assert model.game == "dragon" and model.features == list(knowledge.FEATURE_NAMES)
    assert model.weights.shape == (fitting.MODES, fitting.BUCKETS, len(knowledge.FEATURE_NAMES))
    assert (model.temp > 0).all()
    data = fitting.load([str(data_path)])
    assert str(data["game"]) == "dragon"
    table = fitting.report(data, model)
    assert "winner log loss: hand (T = 8)" in table and "| all |" in table
    # A file of other features is refused with a clear error.
    import json
    doc = json.loads(model_path.read_text())
    doc["features"] = doc["features"][:-1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="other features"):
        fitting.read(str(bad))


def test_winner_table_scores_the_hand_softmax_and_the_model():
    """Two-seat positions whose log loss is known: the hand shares are the softmax of the
    projections at the hand's temperature, the model's of its predictions at its own."""
    names = list(knowledge.FEATURE_NAMES)
    groups = 10
    n = groups * 2                          # one position (two seats) a game
    x = np.zeros((n, len(names)), dtype=np.float32)
    x[:, 0] = 1.0
    x[:, names.index("players_2")] = 1.0
    x[:, names.index("projection")] = np.tile([8.0, 0.0], groups)   # seat 0 ahead by 8
    won = np.tile([1.0, 0.0], groups).astype(np.float32)
    data = {"x": x, "seat": np.tile([0, 1], groups).astype(np.int8),
            "left": np.full(n, 3, np.int8), "final": np.zeros(n, np.float32),
            "goal": np.zeros(n, np.float32), "won": won,
            "group": np.repeat(np.arange(groups), 2).astype(np.int32),
            "table": np.zeros(n, np.int8), "game": "dragon"}
    _, test = fitting.split(data, 1)
    held = sorted(set(data["group"][test].tolist()))
    upset = held[0]                         # a held-out game that seat 1 won all the same
    won[2 * upset:2 * upset + 2] = [0.0, 1.0]
    assert len(held) == 2
    model = fitting.Model("dragon", names, np.zeros((fitting.MODES, fitting.BUCKETS, len(names))),
                          np.ones(fitting.BUCKETS), np.full((fitting.MODES, fitting.BUCKETS), 2.0))
    model.weights[:, :, names.index("projection")] = 0.5   # predictions 4 and 0, at T = 2
    p_lead = 1.0 / (1.0 + np.exp(-1.0))                    # 8 apart at T = 8
    p_model = 1.0 / (1.0 + np.exp(-2.0))                   # 4 apart at T = 2
    losses_hand = [-np.log(p_lead) if g != upset else -np.log(1 - p_lead) for g in held]
    losses_model = [-np.log(p_model) if g != upset else -np.log(1 - p_model) for g in held]
    row = [r for r in fitting.winner_table(data, model, 8.0).splitlines()
           if r.startswith("| 3 |")][0].split(" | ")
    assert row[1] == f"{len(held):,}"
    assert row[2] == f"{np.mean(losses_hand):.3f}"
    assert row[4] == f"{np.mean(losses_model):.3f}"
    assert fitting.hand_temperature("mount-tai") is None     # Mount Tai's report is unchanged
    assert fitting.hand_temperature("dragon") == knowledge.eval_temperature() == 8.0


def test_play_refuses_a_game_without_features_before_playing(tmp_path, capsys):
    from ai.learn.__main__ import main
    out = tmp_path / "d.npz"
    with pytest.raises(SystemExit) as err:
        main(["play", "--game", "fusion", "--games", "2", "--out", str(out)])
    assert err.value.code == 2
    assert "no learned features for 'fusion'" in capsys.readouterr().err
    assert not out.exists()
