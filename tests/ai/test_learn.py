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
    assert model.weights.shape == (fitting.MODES, fitting.BUCKETS, len(knowledge.FEATURE_NAMES))
    assert model.temp.shape == (fitting.MODES, fitting.BUCKETS)
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


def _two_rules() -> tuple[dict, np.ndarray, np.ndarray, np.ndarray]:
    """2- and 4-player positions whose final score follows a different rule of one feature:
    (data, x, left, final)."""
    from engine.mount_tai.knowledge import FEATURE_NAMES
    names = list(FEATURE_NAMES)
    rng = np.random.default_rng(3)
    n = 4000
    x = np.zeros((n, len(names)), dtype=np.float32)
    x[:, 0] = 1.0
    money = rng.integers(0, 20, n).astype(np.float32)
    x[:, names.index("money")] = money
    two = np.arange(n) % 2 == 0
    x[two, names.index("players_2")] = 1.0
    x[~two, names.index("players_4")] = 1.0
    left = rng.integers(0, fitting.BUCKETS, n).astype(np.int8)
    x[:, names.index("decisions_left")] = left
    final = np.where(two, 3.0 * money, -1.0 * money + 50.0).astype(np.float32)
    seat = (np.arange(n) // 2 % 2).astype(np.int8)
    data = {"x": x, "seat": seat, "left": left, "final": final, "goal": np.zeros(n, np.float32),
            "won": (seat == 0).astype(np.float32), "group": (np.arange(n) // 40).astype(np.int32),
            "table": np.where(two, 9, 11).astype(np.int8), "game": "mount-tai"}
    return data, x, left, final


def test_each_table_size_gets_its_own_fit_where_it_has_the_positions():
    """Two table sizes whose final score follows different rules from the same feature: the
    per-size fit recovers each rule, the shared fit only their blend."""
    data, x, left, final = _two_rules()
    model = fitting.fit(data, seed=1, own=(2, 4))
    err = model.predict(x, left) - final
    assert np.abs(err).max() < 0.5
    shared = fitting.fit(data, seed=1)
    assert np.abs(shared.predict(x, left) - final).mean() > 5.0
    assert (shared.weights[1] == shared.weights[3]).all()
    assert (model.weights[0] == shared.weights[0]).all()     # solo: not fitted on its own
    with pytest.raises(ValueError, match="table sizes"):
        fitting.fit(data, own=(5,))


def test_a_new_fit_of_one_size_keeps_the_others_as_they_were(tmp_path: Path):
    """`keep`: the 2-player weights and temperatures from the new fit, every other size (and the
    solo spreads) exactly as in the kept model, whatever the new data would have made of them."""
    data, x, left, final = _two_rules()
    kept = fitting.fit(data, seed=2)                # the "shipped" model: one shared fit
    kept.weights[0] += 1.0                          # solo: visibly its own
    kept.sigma[:] = 7.0
    new = fitting.fit(data, seed=1, own=(2,))
    model = fitting.keep(new, kept, (2,))
    assert (model.weights[1] == new.weights[1]).all() and (model.temp[1] == new.temp[1]).all()
    for m in (0, 2, 3):
        assert (model.weights[m] == kept.weights[m]).all()
        assert (model.temp[m] == kept.temp[m]).all()
    assert (model.sigma == 7.0).all()
    assert model.info["kept"]["sizes"] == ["solo", "3 players", "4 players"]
    with pytest.raises(ValueError, match="own"):
        fitting.keep(new, kept, ())
    # Through the command line: the file written is the kept model but for 2 players.
    data_path, kept_path, out = tmp_path / "d.npz", tmp_path / "kept.json", tmp_path / "m.json"
    np.savez(data_path, **data)
    fitting.save(kept, str(kept_path))
    assert main(["fit", str(data_path), "--own", "2", "--keep", str(kept_path),
                 "--out", str(out)]) == 0
    written, shipped = fitting.read(str(out)), fitting.read(str(kept_path))
    assert (written.weights[[0, 2, 3]] == shipped.weights[[0, 2, 3]]).all()
    assert not (written.weights[1] == shipped.weights[1]).all()


@pytest.mark.parametrize("bad", [["--keep", "k.json"], ["--own", "2", "--keep", "missing.json"]])
def test_fit_refuses_a_bad_keep_before_reading_the_data(tmp_path: Path, bad: list[str],
                                                         capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "m.json"
    bad = [str(tmp_path / b) if b.endswith(".json") else b for b in bad]
    with pytest.raises(SystemExit):
        main(["fit", str(tmp_path / "missing.npz"), "--out", str(out), *bad])
    assert "--keep" in capsys.readouterr().err
    assert not out.exists()


def test_a_data_set_of_some_tables_deals_the_same_games_as_the_mixed_one(tmp_path: Path):
    from ai.learn.selfplay import game_indices
    assert game_indices(4) == [0, 1, 2, 3]
    solo = game_indices(11, list(range(9)))
    assert solo == [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13]
    assert game_indices(2, [10]) == [10, 22]
    with pytest.raises(ValueError, match="tables"):
        game_indices(3, [12])
    with pytest.raises(SystemExit):
        main(["play", "--games", "1", "--tables", "15", "--out", str(tmp_path / "never.npz")])
    assert not (tmp_path / "never.npz").exists()


@pytest.mark.parametrize("bad", [["--own", "5"], ["--penalties", "0"]])
def test_fit_refuses_bad_options_before_reading_anything(tmp_path: Path, bad: list[str],
                                                         capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "m.json"
    with pytest.raises(SystemExit):
        main(["fit", str(tmp_path / "missing.npz"), "--out", str(out), *bad])
    assert bad[0] in capsys.readouterr().err
    assert not out.exists()


def test_the_penalty_can_be_fixed_and_is_recorded(tmp_path: Path):
    data_path = tmp_path / "d.npz"
    assert main(["play", "--games", "30", "--bot", "heuristic", "--workers", "1",
                 "--tables", "0", "--out", str(data_path)]) == 0
    data = fitting.load([str(data_path)])
    assert set(np.unique(data["table"])) == {0}
    model = fitting.fit(data, penalties=(50.0,))
    used = [lam for lam in model.info["lambda"]["shared"] if lam is not None]
    assert used and set(used) == {50.0}


def test_the_report_says_how_well_a_model_names_the_two_player_winner():
    """Positions of 2-player games where the seat with more money wins: a model fitted on them
    names the winner of nearly every held-out position; one that ranks by the opposite rule
    misses nearly all of them. Without 2-player positions there is nothing to say."""
    from engine.mount_tai.knowledge import FEATURE_NAMES
    names = list(FEATURE_NAMES)
    rng = np.random.default_rng(5)
    positions = 3000
    n = 2 * positions
    x = np.zeros((n, len(names)), dtype=np.float32)
    x[:, 0] = 1.0
    x[:, names.index("players_2")] = 1.0
    money = rng.permutation(n).astype(np.float32)     # no ties between the two seats
    x[:, names.index("money")] = money
    left = rng.integers(0, fitting.BUCKETS, positions).repeat(2).astype(np.int8)
    x[:, names.index("decisions_left")] = left
    seat = np.tile([0, 1], positions).astype(np.int8)
    first, second = money[0::2], money[1::2]
    won = np.stack([first > second, second > first], axis=1).reshape(-1).astype(np.float32)
    data = {"x": x, "seat": seat, "left": left, "final": 3.0 * money,
            "goal": np.zeros(n, np.float32), "won": won,
            "group": (np.arange(n) // 20).astype(np.int32),
            "table": np.full(n, 9, np.int8), "game": "mount-tai"}
    model = fitting.fit(data, seed=1, own=(2,))
    count, loss, right = fitting.winner_loss(data, model, seed=1)
    assert count == int(fitting.split(data, 1)[1].sum()) // 2
    assert right > 0.99 and loss < 0.1
    backwards = fitting.Model(model.game, model.features, -model.weights, model.sigma,
                              model.temp, {})
    assert fitting.winner_loss(data, backwards, seed=1)[2] < 0.01
    assert "the model's favourite won" in fitting.report(data, model, seed=1)
    solo = dict(data, x=x.copy())
    solo["x"][:, names.index("players_2")] = 0.0
    solo["x"][:, names.index("players_1")] = 1.0
    assert fitting.winner_loss(solo, model, seed=1) is None


def _solo_tables(n: int = 27000) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, fitting.Model]:
    """Solo positions of the nine solo tables whose final score is 2 x money plus a constant of
    its own table (3 + 2 x the challenge game), with noise of SD 4; and a model that knows the
    money rule but not the constants: (data, x, left, final, model)."""
    from engine.mount_tai.knowledge import FEATURE_NAMES
    names = list(FEATURE_NAMES)
    rng = np.random.default_rng(7)
    x = np.zeros((n, len(names)), dtype=np.float32)
    x[:, 0] = 1.0
    x[:, names.index("players_1")] = 1.0
    table = (np.arange(n) // 30 % 9).astype(np.int8)          # whole games of 30 positions
    for t in range(1, 9):
        x[table == t, names.index(f"challenge_{t}")] = 1.0
    money = rng.integers(0, 30, n).astype(np.float32)
    x[:, names.index("money")] = money
    left = rng.integers(0, fitting.BUCKETS, n).astype(np.int8)
    final = (2.0 * money + 3.0 + 2.0 * table + rng.normal(0, 4, n)).astype(np.float32)
    goal = np.full(n, 40.0, np.float32)
    x[:, names.index("goal")] = goal
    data = {"x": x, "seat": np.zeros(n, np.int8), "left": left, "final": final,
            "goal": (final >= goal).astype(np.float32),
            "won": (final >= goal).astype(np.float32),
            "group": (np.arange(n) // 30).astype(np.int32),
            "table": table, "game": "mount-tai"}
    weights = np.zeros((fitting.MODES, fitting.BUCKETS, len(names)))
    weights[:, :, names.index("money")] = 2.0
    weights[1:, :, 0] = 5.0                                     # several players: visibly their own
    model = fitting.Model("mount-tai", names, weights, np.full(fitting.BUCKETS, 20.0),
                          np.full((fitting.MODES, fitting.BUCKETS), 3.0), {})
    return data, x, left, final, model


def test_calibration_recentres_each_solo_table_and_keeps_the_other_sizes(tmp_path: Path):
    """A model that predicts every solo table too low by that table's own constant: after
    `calibrate`, each table's mean error is near zero, the spread is near the noise's, the goal's
    log loss falls, and the 2-4 player weights and temperatures are untouched."""
    data, x, left, final, model = _solo_tables()
    cal = fitting.calibrate(model, data, seed=1)
    before, after = model.predict(x, left) - final, cal.predict(x, left) - final
    table = data["table"]
    for t in range(9):
        assert before[table == t].mean() < -2.0 - 2.0 * t
        assert abs(after[table == t].mean()) < 1.0
    assert (cal.sigma[1:] < 6.0).all() and (cal.sigma[1:] > 2.0).all()
    _, test = fitting.split(data, 1)
    goal = data["goal"][test]
    p0 = fitting._prob_goal(model, x[test], left[test], model.features)
    p1 = fitting._prob_goal(cal, x[test], left[test], cal.features)
    assert fitting._logloss(p1, goal) < fitting._logloss(p0, goal) - 0.1
    assert (cal.weights[1:] == model.weights[1:]).all() and (cal.temp == model.temp).all()
    assert (model.weights[0, :, 0] == 0.0).all()                # the input model is not changed
    # Through the command line: the file written is the calibrated model.
    data_path, model_path, out = tmp_path / "d.npz", tmp_path / "m.json", tmp_path / "c.json"
    np.savez(data_path, **data)
    fitting.save(model, str(model_path))
    assert main(["calibrate", str(data_path), "--model", str(model_path), "--out", str(out)]) == 0
    written = fitting.read(str(out))
    assert np.allclose(written.weights, cal.weights, atol=1e-5)
    assert written.info["calibrated"]["seed"] == 1


def test_calibration_refuses_data_without_solo_games_and_a_bad_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    data, *_ = _two_rules()
    _, _, _, _, model = _solo_tables(900)
    with pytest.raises(ValueError, match="solo positions"):
        fitting.calibrate(model, data)
    out = tmp_path / "c.json"
    with pytest.raises(SystemExit):
        main(["calibrate", str(tmp_path / "missing.npz"), "--model", str(tmp_path / "no.json"),
              "--out", str(out)])
    assert "--model" in capsys.readouterr().err
    assert not out.exists()


def _solo_rules() -> tuple[dict, np.ndarray, np.ndarray, np.ndarray]:
    """Solo positions of the plain game and of challenges 6 and 7 whose final score follows one
    rule of a feature in the plain game and another in the two challenges: (data, x, left,
    final)."""
    from engine.mount_tai.knowledge import FEATURE_NAMES
    names = list(FEATURE_NAMES)
    rng = np.random.default_rng(5)
    n = 6000
    x = np.zeros((n, len(names)), dtype=np.float32)
    x[:, 0] = 1.0
    x[:, names.index("players_1")] = 1.0
    table = np.array([0, 6, 7])[np.arange(n) % 3]
    for t in (6, 7):
        x[table == t, names.index(f"challenge_{t}")] = 1.0
    grain = rng.integers(0, 20, n).astype(np.float32)
    x[:, names.index("grain")] = grain
    x[:, names.index("goal")] = np.where(table == 0, 80.0, 85.0)
    left = rng.integers(0, fitting.BUCKETS, n).astype(np.int8)
    x[:, names.index("decisions_left")] = left
    final = np.where(table == 0, 60.0 + grain, 100.0 - 2.0 * grain).astype(np.float32)
    data = {"x": x, "seat": np.zeros(n, np.int8), "left": left, "final": final,
            "goal": (final >= x[:, names.index("goal")]).astype(np.float32),
            "won": np.ones(n, np.float32), "group": (np.arange(n) // 30).astype(np.int32),
            "table": table.astype(np.int8), "game": "mount-tai"}
    return data, x, left, final


def test_solo_tables_of_their_own_learn_their_rule_and_leave_the_others_shared(tmp_path: Path):
    """Challenges 6 and 7 fitted on their own (together) recover their rule; the plain solo
    game keeps the solo weights, now fitted on its games alone; the file is version 3 and
    reads back the same."""
    data, x, left, final = _solo_rules()
    model = fitting.fit(data, seed=1, own_tables=(6, 7))
    assert sorted(model.solo_tables) == [6, 7]
    tables = fitting.tables_of(x, list(model.features))
    err = model.predict(x, left) - final
    assert np.abs(err).max() < 0.5
    assert (model.solo_tables[6][0] == model.solo_tables[7][0]).all()   # one fit for both
    shared = fitting.fit(data, seed=1)
    assert np.abs(shared.predict(x, left) - final)[tables != 0].mean() > 5.0
    assert (model.spread(x, left)[tables == 6] == model.solo_tables[6][1][left[tables == 6]]).all()
    path = tmp_path / "m.json"
    fitting.save(model, str(path))
    import json
    doc = json.loads(path.read_text())
    assert doc["version"] == 3 and sorted(doc["solo_tables"]) == ["challenge 6", "challenge 7"]
    back = fitting.read(str(path))
    assert np.allclose(back.predict(x, left), model.predict(x, left), atol=1e-3)
    with pytest.raises(ValueError, match="solo tables"):
        fitting.fit(data, own_tables=(9,))
    with pytest.raises(ValueError, match="no positions"):
        fitting.fit(data, own_tables=(3,))


def test_keep_takes_only_the_solo_tables_fitted_anew(tmp_path: Path):
    """A fit of challenges 6 and 7 kept onto a shipped model: those two tables from the fit,
    every table size, spread and temperature exactly as shipped; through the command line too."""
    data, x, left, final = _solo_rules()
    kept = fitting.fit(data, seed=2)
    kept.weights += 0.5
    kept.sigma[:] = 6.0
    new = fitting.fit(data, seed=1, own_tables=(6, 7))
    model = fitting.keep(new, kept, (), (6, 7))
    assert (model.weights == kept.weights).all() and (model.sigma == kept.sigma).all()
    assert (model.temp == kept.temp).all()
    assert (model.solo_tables[6][0] == new.solo_tables[6][0]).all()
    with pytest.raises(ValueError, match="own"):
        fitting.keep(new, kept, ())
    with pytest.raises(ValueError, match="solo table"):
        fitting.keep(new, kept, (), (5,))
    data_path, kept_path, out = tmp_path / "d.npz", tmp_path / "kept.json", tmp_path / "m.json"
    np.savez(data_path, **data)
    fitting.save(kept, str(kept_path))
    assert main(["fit", str(data_path), "--own-tables", "6", "7", "--keep", str(kept_path),
                 "--out", str(out)]) == 0
    written, shipped = fitting.read(str(out)), fitting.read(str(kept_path))
    assert (written.weights == shipped.weights).all() and sorted(written.solo_tables) == [6, 7]
    plain = fitting.tables_of(x, list(written.features)) == 0
    assert np.allclose(written.predict(x, left)[plain], shipped.predict(x, left)[plain])


@pytest.mark.parametrize("bad", [["--own-tables", "9"], ["--own-tables", "-1"]])
def test_fit_refuses_a_bad_solo_table_before_reading_anything(
        tmp_path: Path, bad: list[str], capsys: pytest.CaptureFixture[str]):
    out = tmp_path / "m.json"
    with pytest.raises(SystemExit):
        main(["fit", str(tmp_path / "missing.npz"), "--out", str(out), *bad])
    assert "--own-tables" in capsys.readouterr().err
    assert not out.exists()


class _PoolStoppedAfter:
    """A stand-in for the worker pool: plays the first `n` jobs in this process, then Ctrl-C."""

    def __init__(self, n: int) -> None:
        self.n = n

    def get_context(self, method: str) -> "_PoolStoppedAfter":
        return self

    def Pool(self, workers: int) -> "_PoolStoppedAfter":
        return self

    def __enter__(self) -> "_PoolStoppedAfter":
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def imap(self, fn, jobs):
        for k, job in enumerate(jobs):
            if k == self.n:
                raise KeyboardInterrupt
            yield fn(job)


@pytest.mark.parametrize("finished", [0, 2])
def test_ctrl_c_during_self_play_saves_the_games_finished(tmp_path: Path, monkeypatch,
                                                          finished: int, capsys):
    """Ctrl-C keeps what was played: the games finished before it are saved, the same rows a
    run of that many games saves; before the first game nothing is written. Exit code 130."""
    from ai.learn import selfplay

    args = ["play", "--games", "5", "--seed", "3", "--bot", "heuristic", "--tables", "9",
            "--workers", "1"]
    monkeypatch.setattr(selfplay, "mp", _PoolStoppedAfter(finished))
    cut = tmp_path / "cut.npz"
    assert main([*args, "--out", str(cut)]) == 130
    err = capsys.readouterr().err
    if not finished:
        assert "nothing saved" in err and not cut.exists()
        return
    assert f"the first {finished} games saved" in err
    monkeypatch.setattr(selfplay, "mp", _PoolStoppedAfter(99))
    whole = tmp_path / "whole.npz"
    assert main([*args[:2], str(finished), *args[3:], "--out", str(whole)]) == 0
    a, b = np.load(cut), np.load(whole)
    assert sorted(a.files) == sorted(b.files)
    assert len(np.unique(a["group"])) == finished
    for key in ("x", "seat", "left", "final", "won", "group", "table"):
        assert np.array_equal(a[key], b[key]), key
