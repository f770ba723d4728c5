"""Dragon's learned evaluation (engine/dragon/learned.pyx): the shipped model's predictions
worked out again in numpy from its file, the fallbacks, and bad model files."""
from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

import engine
from ai.search import Searcher
from engine.dragon import knowledge, learned

MODEL = json.loads(learned.DEFAULT_MODEL.read_text())
STAGE = knowledge.FEATURE_NAMES.index("decisions_left")


def _positions(players: int, seed: int, every: int = 9):
    """Non-terminal states of one random game, every `every`-th decision."""
    rng = random.Random(seed)
    s = engine.load_game("dragon", players=players).new_initial_state(seed)
    step = 0
    while not s.is_terminal():
        if step % every == 0:
            yield s.clone()
        s.apply_action(rng.choice(s.legal_actions()))
        step += 1


def _by_hand(s, players: int) -> tuple[list[float], list[float]]:
    """The model file's prediction per seat and the shares it gives, in numpy."""
    w = np.array(MODEL["weights"][players - 1])
    pred, stages = [], []
    for seat in range(players):
        f = np.array(knowledge.features(s, seat))
        stages.append(int(f[STAGE]))
        pred.append(float(w[int(f[STAGE])] @ f))
    t = MODEL["temp"][players - 1][stages[s.current_player()]]
    e = np.exp((np.array(pred) - max(pred)) / t)
    return pred, list(e / e.sum())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compiled_model_is_the_files_model(players: int) -> None:
    assert learned.model_info()["games"] == MODEL["info"]["games"]
    n = 0
    for s in _positions(players, 20 + players):
        pred, shares = _by_hand(s, players)
        assert [learned.projection(s, i) for i in range(players)] == pytest.approx(pred, abs=1e-9)
        got = learned.evaluate(s)
        assert got == pytest.approx(shares, abs=1e-12)
        assert sum(got) == pytest.approx(1.0) and all(0.0 <= v <= 1.0 for v in got)
        n += 1
    assert n > 5


def test_five_players_and_no_model_get_the_hand_evaluation(tmp_path: Path) -> None:
    for s in _positions(5, 7, every=25):
        assert learned.evaluate(s) == knowledge.evaluate(s)
        assert learned.projection(s, 0) == knowledge.features(s, 0)[1]  # "projection"


def test_a_view_is_scored_as_the_truth() -> None:
    rng = random.Random(3)
    for s in _positions(3, 31, every=13):
        seat = s.current_player()
        view = s.resample_from_infostate(seat, rng.randrange(1 << 30))
        assert learned.evaluate(view) == learned.evaluate(s)


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(game="mount-tai"), "not a Dragon evaluation model"),
    (lambda d: d.update(version=1), "version"),
    (lambda d: d["features"].reverse(), "other features"),
    (lambda d: d["weights"][2].pop(), "shape"),
    (lambda d: d["temp"][1].__setitem__(4, 0.0), "temp must be positive"),
])
def test_a_bad_model_file_is_refused_and_the_loaded_one_kept(tmp_path: Path, change,
                                                             message: str) -> None:
    s = next(_positions(3, 5, every=40))
    before, info = learned.evaluate(s), learned.model_info()
    doc = json.loads(json.dumps(MODEL))
    change(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=message):
        learned.load_model(bad)
    assert learned.evaluate(s) == before and learned.model_info() == info


def test_another_model_file_changes_the_evaluation_and_the_shipped_one_restores_it(
        tmp_path: Path) -> None:
    s = list(_positions(2, 9, every=30))[1]
    before = learned.evaluate(s)
    doc = json.loads(json.dumps(MODEL))
    doc["temp"] = [[t * 4 for t in row] for row in doc["temp"]]  # softer shares
    other = tmp_path / "soft.json"
    other.write_text(json.dumps(doc))
    try:
        learned.load_model(other)
        soft = learned.evaluate(s)
        assert soft != before and abs(soft[0] - 0.5) < abs(before[0] - 0.5)
    finally:
        learned.load_model()
    assert learned.evaluate(s) == before


def test_evaluation_refuses_another_game() -> None:
    mt = engine.load_game("mount-tai", players=2).new_initial_state(1)
    with pytest.raises(ValueError, match="Dragon"):
        learned.evaluate(mt)
    with pytest.raises(ValueError, match="Dragon"):
        learned.projection(mt, 0)


def test_a_search_cut_off_by_the_learned_evaluation_plays() -> None:
    s = engine.load_game("dragon", players=3).new_initial_state(4)
    for evaluation in ("learned", "hand"):
        r = Searcher(mode="ismcts", iterations=300, cutoff=8, evaluation=evaluation,
                     playout="heuristic", seed=1).search(s)
        assert r["action"] in s.legal_actions()
    with pytest.raises(ValueError, match="learned"):
        Searcher(mode="ismcts", iterations=10, cutoff=8, evaluation="nope").search(s)
