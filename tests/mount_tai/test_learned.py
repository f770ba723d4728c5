"""The learned evaluation: features, the model file, the evaluator chosen by name."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import engine
from ai.bots import make_bot
from ai.learn import fit as fitting
from ai.search import Searcher
from engine.mount_tai import knowledge, learned
from tests.mount_tai.helpers import play_random


def _play(state, moves: int, seed: int = 0):
    """`moves` random legal actions (fewer if the game ends)."""
    return play_random(state, seed, until=lambda s: len(s.history()) >= moves)


def test_features_name_what_they_read():
    s = _play(engine.load_game("mount-tai", players=3).new_initial_state(4), 40)
    snap = s.snapshot()
    names = knowledge.FEATURE_NAMES
    for seat in range(3):
        f = dict(zip(names, knowledge.features(s, seat)))
        assert len(f) == len(names)
        assert f["bias"] == 1.0
        assert f["players_3"] == 1.0 and f["players_2"] == 0.0
        assert f["goal"] == 0.0
        player = snap["seats"][seat]
        assert f["rep"] == player["reputation"]
        assert f["money"] == player["money"]
        assert 0 <= f["decisions_left"] <= 16
        # The projection feature is the hand-written projection the evaluation used to rest on.
        assert f["projection"] >= f["rep"] - 1e-9 or f["decisions_left"] == 0


def test_features_of_a_solo_challenge_carry_its_goal():
    s = engine.load_game("mount-tai", challenge=7).new_initial_state(2)
    f = dict(zip(knowledge.FEATURE_NAMES, knowledge.features(s, 0)))
    assert f["challenge_7"] == 1.0 and f["players_1"] == 1.0
    assert f["goal"] > 0


def test_features_refuse_a_bad_seat_and_another_game():
    s = engine.load_game("mount-tai", players=2).new_initial_state(1)
    with pytest.raises(ValueError, match="seat"):
        knowledge.features(s, 2)
    d = engine.load_game("dragon", players=2).new_initial_state(1)
    with pytest.raises(ValueError, match="Mount Tai"):
        knowledge.features(d, 0)
    with pytest.raises(ValueError, match="Mount Tai"):
        learned.projection(d, 0)
    with pytest.raises(ValueError, match="seat"):
        learned.projection(s, 5)


def test_the_shipped_model_is_loaded_and_evaluates_in_range():
    info = learned.model_info()
    assert info, "engine/mount_tai/eval_model.json should be loaded at import"
    for options in ({"players": 2}, {"players": 4}, {"solo": True}, {"challenge": 3}):
        s = _play(engine.load_game("mount-tai", **options).new_initial_state(5), 30, seed=5)
        searcher = Searcher(iterations=50, cutoff=1, evaluation="learned", seed=1)
        searcher.search(s)   # the learned evaluation scores every playout
        pred = learned.projection(s, 0)
        assert math.isfinite(pred) and 0 <= pred < 300
        # The compiled prediction is the model's dot product with the features.
        f = knowledge.features(s, 0)
        stage = min(max(int(f[knowledge.FEATURE_NAMES.index("decisions_left")]), 0), 16)
        mode = s.num_players() - 1                 # solo, 2, 3, 4 players
        w = fitting.read(str(learned.DEFAULT_MODEL)).weights[mode, stage]
        assert pred == pytest.approx(sum(a * b for a, b in zip(w, f)))


def _constant_model(doc: dict, values: list[float]) -> dict:
    """`doc` (a version 2 model) with every weight zero but the constant: values[mode]."""
    n = len(doc["features"])
    weights = [[[values[m]] + [0.0] * (n - 1) for _ in range(17)] for m in range(4)]
    return dict(doc, weights=weights)


def test_each_table_size_is_scored_by_its_own_weights(tmp_path: Path):
    doc = json.loads(learned.DEFAULT_MODEL.read_text())
    assert doc["version"] == 2 and len(doc["weights"]) == 4
    path = tmp_path / "modes.json"
    path.write_text(json.dumps(_constant_model(doc, [10.0, 20.0, 30.0, 40.0])))
    before = learned.model_info()
    try:
        learned.load_model(path)
        for options, want in (({"solo": True}, 10.0), ({"challenge": 6}, 10.0),
                              ({"players": 2}, 20.0), ({"players": 3}, 30.0),
                              ({"players": 4}, 40.0)):
            s = _play(engine.load_game("mount-tai", **options).new_initial_state(2), 15)
            assert learned.projection(s, 0) == pytest.approx(want), options
    finally:
        learned.load_model(before["path"])
    assert learned.model_info() == before


def test_a_version_1_model_file_still_loads_and_serves_every_table_size(tmp_path: Path):
    doc = json.loads(learned.DEFAULT_MODEL.read_text())
    old = dict(doc, version=1, weights=doc["weights"][2], temp=doc["temp"][2])
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old))
    states = [_play(engine.load_game("mount-tai", **o).new_initial_state(4), 25)
              for o in ({"solo": True}, {"players": 2}, {"players": 3}, {"players": 4})]
    f = [knowledge.features(s, 0) for s in states]
    before = learned.model_info()
    try:
        learned.load_model(path)
        for s, fs in zip(states, f):
            stage = min(max(int(fs[knowledge.FEATURE_NAMES.index("decisions_left")]), 0), 16)
            w = old["weights"][stage]
            assert learned.projection(s, 0) == pytest.approx(sum(a * b for a, b in zip(w, fs)))
        model = fitting.read(str(path))               # the fitting side reads it alike
        assert model.weights.shape == (4, 17, len(knowledge.FEATURE_NAMES))
        assert (model.weights[0] == model.weights[3]).all()
    finally:
        learned.load_model(before["path"])


def test_a_malformed_model_file_is_refused_and_the_loaded_one_kept(tmp_path: Path):
    before = learned.model_info()
    s = _play(engine.load_game("mount-tai", players=2).new_initial_state(3), 20)
    value = learned.projection(s, 1)
    doc = json.loads(learned.DEFAULT_MODEL.read_text())
    bad = dict(doc, features=doc["features"][:-1])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="other features"):
        learned.load_model(path)
    short = dict(doc, weights=doc["weights"][:-1])
    path.write_text(json.dumps(short))
    with pytest.raises(ValueError, match="shape"):
        learned.load_model(path)
    one_stage_short = dict(doc, weights=[w[:-1] for w in doc["weights"]])
    path.write_text(json.dumps(one_stage_short))
    with pytest.raises(ValueError, match="shape"):
        learned.load_model(path)
    with pytest.raises(ValueError, match="shape"):     # the fitting side reads it alike
        fitting.read(str(path))
    path.write_text(json.dumps(dict(doc, temp=[[0.0] * 17] * 4)))
    with pytest.raises(ValueError, match="positive"):
        learned.load_model(path)
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ValueError, match="not a Mount Tai"):
        learned.load_model(path)
    assert learned.model_info() == before
    assert learned.projection(s, 1) == value


def test_an_unknown_evaluation_is_a_clear_error():
    s = engine.load_game("mount-tai", players=2).new_initial_state(1)
    with pytest.raises(ValueError, match="no evaluation 'deep'.*hand, learned"):
        Searcher(iterations=10, cutoff=2, evaluation="deep").search(s)
    d = engine.load_game("dragon", players=2).new_initial_state(1)
    with pytest.raises(ValueError, match="dragon has no evaluation 'learned-v2'; it has: hand, "
                                         "learned"):
        Searcher(iterations=10, cutoff=2, evaluation="learned-v2").search(d)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), "x", True])
def test_goal_margin_must_be_a_share(bad):
    with pytest.raises(ValueError, match="goal_margin"):
        Searcher(iterations=10, goal_margin=bad)


def test_hand_and_learned_evaluations_search_differently_but_reproducibly():
    s = _play(engine.load_game("mount-tai", players=2).new_initial_state(8), 25, seed=8)
    results = {}
    for name in ("hand", "learned"):
        runs = [Searcher(iterations=3000, cutoff=4, evaluation=name, seed=2).search(s)
                for _ in range(2)]
        assert runs[0]["action"] == runs[1]["action"]
        assert runs[0]["root"] == runs[1]["root"]
        results[name] = runs[0]["root"]
    assert results["hand"] != results["learned"]


def test_the_previous_strong_configuration_keeps_the_hand_evaluation():
    s = engine.load_game("mount-tai", players=2).new_initial_state(1)
    v1 = make_bot("strong-v1(iterations=100)")
    v1.step(s)
    assert v1.bot.spec_options["evaluation"] == "hand"
    assert v1.bot.spec_options.get("goal_margin", 0.0) == 0.0


def test_each_strong_configuration_searches_as_its_table_says():
    # Searched on a view of the mover's seat, with one seed and an iteration budget, each named
    # strong bot gives the root statistics of the explicit search its table spells out.
    s = _play(engine.load_game("mount-tai", players=2).new_initial_state(3), 12, seed=3)
    assert len(s.legal_actions()) > 1
    view = s.resample_from_infostate(s.current_player(), 9)
    base = "c=0.35,cutoff=6,reward=win,seed=4,iterations=400"
    explicit = {
        "strong": f"ismcts({base},playout=heuristic,epsilon=0.2,evaluation=learned,goal_margin=0.1)",
        "strong-v4": f"ismcts({base},playout=heuristic,epsilon=0.2,evaluation=learned-v3,"
                     "goal_margin=0.1)",
        "strong-v3": f"ismcts({base},playout=heuristic,epsilon=0.2,evaluation=learned-v2,"
                     "goal_margin=0.1)",
        "strong-v2": f"ismcts({base},playout=random,evaluation=learned-v2,goal_margin=0.1)",
        "strong-v1": f"ismcts({base},playout=random,evaluation=hand)",
    }
    roots = {}
    for name, spec in explicit.items():
        named = make_bot(f"{name}(iterations=400,seed=4)").analyse(view.clone())["root"]
        assert named == make_bot(spec).analyse(view.clone())["root"], name
        roots[name] = named
    assert len({repr(r) for r in roots.values()}) == 5   # five different searches


def test_the_bot_listing_shows_each_strong_configuration_its_own_tuned_values():
    from ai.bots import describe_bots
    listed = {b["name"]: b for b in describe_bots()}
    names = ("strong", "strong-v1", "strong-v2", "strong-v3", "strong-v4")
    text = {name: str(listed[name]) for name in names}
    assert "mount-tai heuristic" in text["strong"] and "learned-v2" not in text["strong"]
    assert "mount-tai heuristic" in text["strong-v3"]
    assert "mount-tai learned-v2" in text["strong-v3"]
    assert "mount-tai learned-v3" in text["strong-v4"] and "learned-v3" not in text["strong"]
    assert "mount-tai random" in text["strong-v2"] and "mount-tai heuristic" not in text["strong-v2"]
    assert "mount-tai hand" in text["strong-v1"]


def test_the_earlier_model_is_kept_for_the_bots_tuned_with_it():
    """"learned-v2" is the model of issue 14's first two steps; "learned" differs from it in
    two-player games only (weights of their own), so solo and 3-4 player searches agree."""
    assert learned.model_info("learned-v2")["path"].endswith("eval_model_v2.json")
    for options, same in (({"players": 2}, False), ({"solo": True}, True),
                          ({"challenge": 7}, True), ({"players": 3}, True),
                          ({"players": 4}, True)):
        s = _play(engine.load_game("mount-tai", **options).new_initial_state(6), 30, seed=6)
        now, before = learned.projection(s, 0), learned.projection(s, 0, "learned-v2")
        assert (now == before) is same, options
        view = s.resample_from_infostate(s.current_player(), 2)
        runs = [Searcher(iterations=300, cutoff=6, seed=2, evaluation=e).search(view.clone())
                for e in ("learned", "learned-v2")]
        for r in runs:
            r.pop("seconds")
        assert (runs[0] == runs[1]) is same, options
    # "learned-v3" is the third step's model: its 2-player weights differ from today's (fitted
    # with 2,000 more 2-player games), every other size is the same.
    assert learned.model_info("learned-v3")["path"].endswith("eval_model_v3.json")
    for options, same in (({"players": 2}, False), ({"solo": True}, True),
                          ({"players": 3}, True), ({"players": 4}, True)):
        s = _play(engine.load_game("mount-tai", **options).new_initial_state(6), 30, seed=6)
        assert (learned.projection(s, 0) == learned.projection(s, 0, "learned-v3")) is same
    with pytest.raises(ValueError, match="no learned evaluation slot 'v9'"):
        learned.load_model(None, "v9")


def _v3_with_tables(doc: dict, tables: dict[str, float], sigma: float = 4.0) -> dict:
    """`doc` as a version 3 model whose named solo tables have weights of their own: zero but the
    constant (the given value), and the spread `sigma` at every stage."""
    n = len(doc["features"])
    own = {name: {"weights": [[value] + [0.0] * (n - 1) for _ in range(17)],
                  "sigma": [sigma] * 17} for name, value in tables.items()}
    return dict(doc, version=3, solo_tables=own)


def test_a_solo_table_with_weights_of_its_own_is_scored_by_them(tmp_path: Path):
    """Version 3: challenge 6's own weights and spread serve challenge 6 only; every other solo
    table keeps the solo weights, and 2-4 players their own."""
    doc = _constant_model(json.loads(learned.DEFAULT_MODEL.read_text()), [10.0, 20.0, 30.0, 40.0])
    path = tmp_path / "tables.json"
    path.write_text(json.dumps(_v3_with_tables(doc, {"challenge 6": 85.0})))
    before = learned.model_info()
    try:
        learned.load_model(path)
        for options, want in (({"challenge": 6}, 85.0), ({"challenge": 7}, 10.0),
                              ({"solo": True}, 10.0), ({"challenge": 5}, 10.0),
                              ({"players": 2}, 20.0), ({"players": 4}, 40.0)):
            s = _play(engine.load_game("mount-tai", **options).new_initial_state(2), 15)
            assert learned.projection(s, 0) == pytest.approx(want), options
        # Challenge 6's goal is 85: a prediction of 85 with the table's spread of 4 is a
        # chance of P(N(0, 4) >= -0.5) to reach it.
        s = _play(engine.load_game("mount-tai", challenge=6).new_initial_state(2), 15)
        assert learned.evaluate(s)[0] == pytest.approx(0.5 * (1 + math.erf(0.5 / (4 * 2 ** 0.5))))
        model = fitting.read(str(path))              # the fitting side reads it alike
        assert sorted(model.solo_tables) == [6]
        assert (model.solo_tables[6][1] == 4.0).all()
    finally:
        learned.load_model(before["path"])
    assert learned.model_info() == before


@pytest.mark.parametrize("tables, message", [
    ({"challenge 9": 1.0}, "no solo table 'challenge 9'"),
    ({"2 players": 1.0}, "no solo table '2 players'"),
])
def test_a_version_3_file_naming_an_unknown_table_is_refused(tmp_path: Path, tables, message):
    before = learned.model_info()
    doc = json.loads(learned.DEFAULT_MODEL.read_text())
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_v3_with_tables(doc, tables)))
    with pytest.raises(ValueError, match=message):
        learned.load_model(path)
    with pytest.raises(ValueError, match=message):
        fitting.read(str(path))
    assert learned.model_info() == before


def test_a_version_3_file_with_a_bad_solo_table_is_refused_and_the_loaded_one_kept(
        tmp_path: Path):
    before = learned.model_info()
    s = _play(engine.load_game("mount-tai", challenge=6).new_initial_state(3), 20)
    value = learned.projection(s, 0)
    doc = json.loads(learned.DEFAULT_MODEL.read_text())
    path = tmp_path / "bad.json"
    good = _v3_with_tables(doc, {"challenge 6": 1.0})
    short = json.loads(json.dumps(good))
    short["solo_tables"]["challenge 6"]["weights"] = short["solo_tables"]["challenge 6"]["weights"][:-1]
    path.write_text(json.dumps(short))
    with pytest.raises(ValueError, match="shape"):
        learned.load_model(path)
    path.write_text(json.dumps(_v3_with_tables(doc, {"challenge 6": 1.0}, sigma=0.0)))
    with pytest.raises(ValueError, match="positive"):
        learned.load_model(path)
    path.write_text(json.dumps(dict(good, solo_tables=[1, 2])))
    with pytest.raises(ValueError, match="solo_tables"):
        learned.load_model(path)
    assert learned.model_info() == before
    assert learned.projection(s, 0) == value
