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
