"""The net (issue 38): the compiled inference against numpy, the model file, the search's
`evaluation=net` / `prior=net` options, and the expert self-play data it is fitted on."""
from __future__ import annotations

import json
import random
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engine
from ai.bots import make_bot
from ai.learn import net as pnet
from ai.search import Searcher
from engine.mount_tai import net as cnet
from engine.mount_tai.knowledge import FEATURE_NAMES, features
from ai.match import play_game

F = len(FEATURE_NAMES)


@pytest.fixture
def restore_net():
    """Put the shipped net back after a test that loads another."""
    yield
    if cnet.DEFAULT_NET.exists():
        cnet.load_net()
    else:
        cnet.unload_net()


def random_net(seed: int, hidden: int = 7, players: tuple[int, ...] = (2,)) -> pnet.Net:
    """A net of random weights (rounded as the file stores them, so it round-trips exactly)."""
    rng = np.random.default_rng(seed)
    kinds, kind_of = pnet.action_kinds()
    n_in = F + pnet.STAGES

    def r(*shape: int, scale: float = 1.0) -> np.ndarray:
        return (rng.normal(0, scale, shape)).round(7)

    return pnet.Net(list(FEATURE_NAMES), list(players), r(F), (np.abs(r(F)) + 0.5).round(7),
                    r(pnet.STAGES, F, scale=0.3), r(n_in, hidden), r(hidden), r(hidden),
                    float(r(1)[0]), (np.abs(r(pnet.STAGES)) + 1.0).round(7), kinds, kind_of,
                    float(r(1)[0]), r(len(kind_of)), r(len(kinds), n_in, scale=0.2),
                    {"test": seed}, rng.choice(pnet.GATES, pnet.STAGES))


def random_features(rng: random.Random) -> list[float]:
    f = [rng.uniform(-5, 40) for _ in range(F)]
    f[FEATURE_NAMES.index("decisions_left")] = float(rng.randrange(-2, 20))
    return f


def test_the_compiled_forward_pass_equals_numpy_on_random_inputs(tmp_path: Path, restore_net):
    rng = random.Random(3)
    for seed in range(3):
        net = random_net(seed, hidden=[1, 7, 64][seed])
        path = tmp_path / f"net{seed}.json"
        pnet.save(net, str(path))
        cnet.load_net(path)
        for _ in range(30):
            f = random_features(rng)
            n = rng.randrange(1, 20)
            actions = sorted(rng.sample(range(len(net.kind_of)), n))
            prior = [rng.choice([0.0, 1e-12, rng.random()]) for _ in range(n)]
            value, probs = cnet.forward(f, actions, prior)
            x = np.array([f])
            left = pnet.stage_of(x, net.features)
            z = net.inputs(x, left)
            assert value == pytest.approx(float(net.value(z, x, left)[0]), abs=1e-9, rel=0)
            lg = net.logits(np.repeat(z, n, axis=0), np.array(actions), np.array(prior))
            p = np.exp(lg - lg.max())
            p /= p.sum()
            assert np.max(np.abs(p - np.array(probs))) < 1e-9
            assert sum(probs) == pytest.approx(1.0, abs=1e-12)


def test_the_model_file_round_trips(tmp_path: Path, restore_net):
    net = random_net(5)
    path = tmp_path / "net.json"
    pnet.save(net, str(path))
    back = pnet.read(str(path))
    assert set(net.gate) > {0.0}, "the random net's gates should not all be 0"
    for name in ("mu", "sd", "lin", "w1", "b1", "w2", "temp", "gate", "kind_of", "bias", "u"):
        assert np.array_equal(getattr(back, name), getattr(net, name)), name
    assert (back.b2, back.w_prior, back.players, back.kinds) == (
        net.b2, net.w_prior, net.players, net.kinds)
    pnet.save(back, str(tmp_path / "again.json"))
    assert (tmp_path / "again.json").read_text() == path.read_text()
    info = cnet.load_net(path)
    assert info["hidden"] == 7 and info["players"] == [2] and info["test"] == 5


def test_a_stage_gated_to_zero_is_the_linear_part_alone_and_version_1_means_no_gate(
        tmp_path: Path, restore_net):
    net = random_net(8)
    net.gate = np.ones(pnet.STAGES)
    net.gate[0], net.gate[3] = 0.0, 0.5
    path = tmp_path / "gated.json"
    pnet.save(net, str(path))
    cnet.load_net(path)
    rng = random.Random(8)
    col = FEATURE_NAMES.index("decisions_left")
    for stage in (0, 3, 9):
        f = random_features(rng)
        f[col] = float(stage)
        x = np.array([f])
        left = pnet.stage_of(x, net.features)
        z = net.inputs(x, left)
        linear_part = float(x[0] @ net.lin[stage])
        residual = float(net.residual(z)[0])
        assert abs(residual) > 1e-3
        value = cnet.forward(f)[0]
        assert value == pytest.approx(linear_part + net.gate[stage] * residual, abs=1e-9, rel=0)
    # a version-1 file (the format before gates) is read with every gate 1
    doc = json.loads(path.read_text())
    doc["version"] = 1
    del doc["gate"]
    old = tmp_path / "v1.json"
    old.write_text(json.dumps(doc))
    assert np.array_equal(pnet.read(str(old)).gate, np.ones(pnet.STAGES))
    cnet.load_net(old)
    f[col] = 0.0
    x = np.array([f])
    left = pnet.stage_of(x, net.features)
    z = net.inputs(x, left)
    assert cnet.forward(f)[0] == pytest.approx(
        float(x[0] @ net.lin[0] + net.residual(z)[0]), abs=1e-9, rel=0)


def test_the_gate_is_chosen_per_stage_on_validation_data():
    rng = np.random.default_rng(4)
    n = 4000
    left = np.repeat([0, 5], n // 2)
    lin = rng.normal(0, 5, n)
    truth = rng.normal(0, 2, n)
    # stage 5: the residual is right; stage 0: it is noise that adds error
    r = np.where(left == 5, truth, rng.normal(0, 2, n))
    y = lin + np.where(left == 5, truth, 0.0)
    gate = pnet.choose_gate(lin, r, left, np.arange(n), y=y)
    assert gate[5] == 1.0 and gate[0] == 0.0 and (gate[[1, 2, 3, 4]] == 1.0).all()
    # on the win: pairs (a, a + 1); seat 0 wins when its true value is higher
    a = np.arange(0, n, 2)
    won = np.zeros(n)
    won[a] = (y[a] > y[a + 1]).astype(float)
    gate = pnet.choose_gate(lin, r, left, np.arange(n), pairs=a, won=won,
                            temp=np.full(pnet.STAGES, 1.0))
    assert gate[5] == 1.0 and gate[0] == 0.0


def _bad_docs(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    def changed(**kv: Any) -> dict[str, Any]:
        d = json.loads(json.dumps(doc))
        for k, v in kv.items():
            if "." in k:
                a, b = k.split(".")
                d[a][b] = v
            else:
                d[k] = v
        return d

    return [
        ("format", changed(format="tianti-eval-model"), "not a tianti-net-model file"),
        ("version", changed(version=3), r"version 3 is not one this engine reads \(1, 2\)"),
        ("gate range", changed(gate=[1.5] * pnet.STAGES), r"gate must be in \[0, 1\]"),
        ("gate shape", changed(gate=[1.0] * 3), "gate: the shape is not 17"),
        ("gate missing", changed(gate=None), "gate: the shape is not 17"),
        ("game", changed(game="dragon"), "a model of 'dragon'"),
        ("features", changed(features=doc["features"][:-1]), "other features"),
        ("hidden", changed(hidden=65), "hidden units must be 1..64"),
        ("w1 shape", changed(w1=doc["w1"][:-1]), "w1: the shape is not"),
        ("nan", changed(b2=float("nan")), "b2 must be finite"),
        ("sd", changed(sd=[0.0] * F), "sd and temp must be positive"),
        ("players", changed(players=[5]), "players must list table sizes"),
        ("kind", changed(**{"policy.kind_of": [99] * len(doc["policy"]["kind_of"])}),
         "kind_of must give"),
    ]


def test_a_bad_model_file_is_a_clear_error_and_the_loaded_net_is_kept(tmp_path: Path,
                                                                      restore_net):
    good = tmp_path / "good.json"
    pnet.save(random_net(1), str(good))
    cnet.load_net(good)
    before = cnet.net_info()
    f = random_features(random.Random(1))
    value = cnet.forward(f)[0]
    doc = json.loads(good.read_text())
    cases = _bad_docs(doc)
    (tmp_path / "text.json").write_text("{not json")
    for name, bad, message in cases:
        path = tmp_path / f"bad-{name.replace(' ', '-')}.json"
        path.write_text(json.dumps(bad))
        with pytest.raises(ValueError, match=message) as err:
            cnet.load_net(path)
        assert str(path) in str(err.value)
        assert cnet.net_info() == before and cnet.forward(f)[0] == value
    with pytest.raises(ValueError, match="not JSON"):
        cnet.load_net(tmp_path / "text.json")
    assert cnet.net_info() == before
    with pytest.raises(ValueError, match="not a tianti-net-model"):
        pnet.read(str(tmp_path / "bad-format.json"))


def test_the_shipped_net_is_small_and_loaded():
    assert cnet.DEFAULT_NET.stat().st_size < 200_000
    info = cnet.net_info()
    assert info["path"] == str(cnet.DEFAULT_NET) and info["players"] == [2]


def test_without_a_net_the_evaluation_and_prior_fall_back(restore_net):
    from engine.mount_tai import learned
    s = engine.load_game("mount-tai", players=2).new_initial_state(4)
    cnet.unload_net()
    assert cnet.evaluate(s) == learned.evaluate(s)
    assert cnet.prior(s) == s.move_prior()
    with pytest.raises(ValueError, match="no net loaded"):
        cnet.forward([0.0] * F)


def test_tables_the_net_does_not_serve_use_the_linear_evaluation_and_hand_prior():
    from engine.mount_tai import learned
    for options in ({"players": 3}, {"solo": True}):
        s = engine.load_game("mount-tai", **options).new_initial_state(2)
        assert cnet.evaluate(s) == learned.evaluate(s)
        assert cnet.prior(s) == s.move_prior()
    s = engine.load_game("mount-tai", players=2).new_initial_state(2)
    rng = random.Random(2)
    for _ in range(30):
        s.apply_action(rng.choice(s.legal_actions()))
    assert cnet.evaluate(s) != learned.evaluate(s)
    assert cnet.prior(s) != s.move_prior()
    assert sum(cnet.prior(s)) == pytest.approx(1.0)


NET_SPEC = "strong(iterations=60,evaluation=net,prior=net,puct=1.0)"


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4, "promos": False},
                                     {"players": 3, "grand_tutors": True}, {"solo": True},
                                     {"challenge": 7}])
def test_the_net_options_play_legal_full_games(options: dict[str, Any]):
    """The conformance tables of Mount Tai, played to the end by the new options (an illegal
    move would raise)."""
    state = engine.load_game("mount-tai", **options).new_initial_state(11)
    bots = [make_bot(NET_SPEC, seed=i) for i in range(state.num_players())]
    result = play_game(state, bots, resample_seed=11)
    assert state.is_terminal() and len(result.scores) == state.num_players()


def test_the_net_options_are_clear_errors_where_they_do_not_apply():
    d = engine.load_game("dragon", players=2).new_initial_state(1)
    with pytest.raises(ValueError, match="dragon has no evaluation 'net'"):
        Searcher(iterations=10, cutoff=2, evaluation="net").search(d)
    with pytest.raises(ValueError, match="dragon has no learned prior"):
        Searcher(iterations=10, prior="net", puct=1.0).search(d)
    with pytest.raises(ValueError, match="give bias > 0 or puct > 0"):
        Searcher(iterations=10, prior="net")
    with pytest.raises(ValueError, match="prior must be one of hand, net"):
        Searcher(iterations=10, prior="deep", bias=1.0)
    with pytest.raises(ValueError, match="must not be negative"):
        Searcher(iterations=10, puct=-1.0)


def test_the_prior_option_changes_the_search_and_the_default_strong_does_not_use_it():
    s = engine.load_game("mount-tai", players=2).new_initial_state(6)
    hand = Searcher(iterations=400, cutoff=6, puct=2.0, seed=3).search(s)
    again = Searcher(iterations=400, cutoff=6, puct=2.0, seed=3).search(s)
    net = Searcher(iterations=400, cutoff=6, puct=2.0, prior="net", seed=3).search(s)
    assert hand["root"] == again["root"]
    assert hand["root"] != net["root"]
    bot = make_bot("strong")
    cfg = bot.searcher_for(s).config
    assert cfg["prior"] == "hand" and cfg["puct"] == 0.0 and cfg["evaluation"] == "learned"


def test_expert_data_records_the_search_and_is_reproducible():
    from ai.learn.expert import generate
    a = generate("mount-tai", 10, 7, "strong(iterations=40)", 0.1, 2, progress=False)
    b = generate("mount-tai", 10, 7, "strong(iterations=40)", 0.1, 1, progress=False)
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    n = len(a["p_row"])
    assert n > 500 and len(a["p_start"]) == n + 1 and a["p_start"][-1] == len(a["p_action"])
    assert len(a["x"]) == 2 * n and np.array_equal(a["seat"], np.tile([0, 1], n))
    counts = np.diff(a["p_start"])
    assert (counts >= 2).all()
    for d in range(n):
        acts = a["p_action"][a["p_start"][d]:a["p_start"][d + 1]]
        visits = a["p_visits"][a["p_start"][d]:a["p_start"][d + 1]]
        assert list(acts) == sorted(set(acts)) and visits.sum() >= 40
    # each decision's rows belong to one game; a game's final scores are its seats' own
    assert (a["group"][a["p_row"]] == a["group"][a["p_row"] ^ 1]).all()
    assert set(np.unique(a["won"])) <= {0.0, 0.5, 1.0}
    net = pnet.fit(a, seed=1, hidden=4, epochs=2)
    assert net.w1.shape == (F + pnet.STAGES, 4) and np.isfinite(net.u).all()
    assert net.info["head"] == "score" and set(net.gate) <= set(pnet.GATES)
    best = pnet.fit(a, seed=1, hidden=4, epochs=2, head="best")
    valid = best.info["valid"]
    assert set(valid) == {"score", "win"} and best.info["head"] == min(
        valid, key=lambda k: valid[k]["value_valid_win_loss"])
    win = pnet.fit(a, seed=1, hidden=4, epochs=2, head="win")
    assert win.info["head"] == "win" and not np.array_equal(win.w2, net.w2)
    with pytest.raises(ValueError, match="head must be one of score, win, best"):
        pnet.fit(a, seed=1, hidden=4, epochs=2, head="margin")
    with pytest.raises(ValueError, match="too few games"):
        pnet.fit({k: v[a["group"] == 0] if k in ("x", "seat", "left", "final", "goal", "won",
                                                  "margin", "group", "table") else v
                  for k, v in a.items()}, seed=1, hidden=4, epochs=2)


def test_the_command_line_plays_fits_and_writes_a_model_the_engine_loads(tmp_path: Path,
                                                                         restore_net, capsys):
    from ai.learn.__main__ import main
    data = tmp_path / "gen.npz"
    model = tmp_path / "net.json"
    assert main(["expert", "--games", "8", "--seed", "3", "--bot", "strong(iterations=20)",
                 "--workers", "1", "--out", str(data)]) == 0
    assert main(["net", str(data), "--out", str(model), "--epochs", "2", "--hidden", "4",
                 "--head", "best"]) == 0
    out = capsys.readouterr().out
    assert "| 16 |" in out and "net policy" in out and "hand prior" in out
    assert "not chosen" in out   # the other head, reported beside the chosen one
    pnet.save(random_net(3), str(tmp_path / "old.json"))
    assert main(["net", str(data), str(data), "--out", str(tmp_path / "again.json"), "--epochs",
                 "1", "--hidden", "4", "--compare", f"old={tmp_path / 'old.json'}"]) == 0
    out = capsys.readouterr().out
    assert "RMSE old" in out and "win loss old" in out and "the last file only" in out
    info = cnet.load_net(model)
    assert info["hidden"] == 4 and info["games"] == 8 and info["head"] in ("score", "win")
    assert json.loads(model.read_text())["version"] == 2


def test_expert_self_play_of_a_game_without_features_is_a_clear_error(tmp_path: Path, capsys):
    from ai.learn.__main__ import main
    with pytest.raises(SystemExit) as err:
        main(["expert", "--game", "fusion", "--games", "2", "--out", str(tmp_path / "d.npz")])
    assert err.value.code == 2
    assert "no learned features for 'fusion'" in capsys.readouterr().err
    assert not (tmp_path / "d.npz").exists()


def test_loads_from_several_threads_each_put_one_whole_model(tmp_path: Path, restore_net):
    """Two threads load two models over and over while a third reads `net_info()`: every
    load's description is its own file's, every description read is whole (its path and its
    file's info together), and the net left loaded is the one its description names. Before
    the lock, a thread switch inside a load mixed one file's info with the other's path."""
    nets = {seed: random_net(seed) for seed in (1, 2)}
    paths = {}
    for seed, net in nets.items():
        paths[seed] = str(tmp_path / f"net{seed}.json")
        pnet.save(net, paths[seed])
    seed_of = {p: s for s, p in paths.items()}
    bad: list[Any] = []
    done = threading.Event()

    def load(seed: int) -> None:
        for _ in range(150):
            info = cnet.load_net(paths[seed])
            if info["path"] != paths[seed] or info["test"] != seed:
                bad.append(("load", seed, info["path"], info["test"]))

    def read() -> None:
        while not done.is_set():
            info = cnet.net_info()
            if seed_of.get(info.get("path")) != info.get("test"):
                bad.append(("info", info.get("path"), info.get("test")))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # thread switches as often as the interpreter allows
    try:
        loaders = [threading.Thread(target=load, args=(s,)) for s in paths]
        reader = threading.Thread(target=read)
        for t in (*loaders, reader):
            t.start()
        for t in loaders:
            t.join()
        done.set()
        reader.join()
    finally:
        sys.setswitchinterval(interval)
    assert bad == []
    net = nets[cnet.net_info()["test"]]
    f = random_features(random.Random(4))
    x = np.array([f])
    left = pnet.stage_of(x, net.features)
    want = float(net.value(net.inputs(x, left), x, left)[0])
    assert cnet.forward(f)[0] == pytest.approx(want, abs=1e-9, rel=0)
