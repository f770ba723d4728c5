"""The calibration arithmetic of the review (ladder/review/calibration.py): the reliability
bins, the Brier score and the accuracy per player with its interval, on tiny games with known
numbers, and one real game reviewed end to end."""
from __future__ import annotations

import json
import math

import pytest

from ai.bots import make_bot
from engine.registry import load_game
from ladder.review import Decision, GameReview, ReviewError, Settings, review_game
from ladder.review.calibration import (accuracy_by_player, bin_index, brier, brier_reference,
                                       calibration_error, decision_points, ordered,
                                       pair_table_text, reliability, summarize, table_text)
from ladder.review.verdict import decision_weight, drop_points, game_accuracy, move_accuracy


def _decision(move: int, before: float, after: float) -> Decision:
    drop = drop_points(before, after)
    return Decision(index=move + 1, move=move, period="month", number=1, situation="",
                    choices=2, made=0, made_text="a", best=0, best_text="a", before=before,
                    after=after, best_visits=500, diff=100 * (before - after), margin=1.0,
                    pairs=8, iterations=500,
                    drop=drop, accuracy=move_accuracy(drop), verdict=None,
                    weight=decision_weight(before, after))


def _game(seat: int, pairs: list[tuple[float, float]], outcome: float | None) -> GameReview:
    """A tiny reviewed game: `pairs` are the (before, after) of the seat's decisions."""
    ds = [_decision(i, b, a) for i, (b, a) in enumerate(pairs)]
    return GameReview(game="dragon", options={}, players=2, seat=seat, names=["A", "B"],
                      source="test", settings={}, noun="chance to win",
                      finished=outcome is not None, outcome=outcome, scores=[0, 0],
                      decisions=ds, skipped=0,
                      accuracy=game_accuracy([d.drop for d in ds], [d.weight for d in ds]),
                      balance=None, seconds=0.0)


# Three tiny games: A wins the first two, B the third.
GAMES = [
    _game(0, [(0.05, 0.05), (0.95, 0.95)], 1.0),       # A: no drop, won
    _game(1, [(0.15, 0.05), (0.15, 0.15)], 0.0),       # B: a 10-point drop, lost
    _game(0, [(1.0, 0.7)], 0.0),                       # A: a 30-point drop, lost
]


def test_points_pair_each_decision_with_its_seats_result():
    assert decision_points(GAMES[0]) == [(0.05, 1.0), (0.95, 1.0)]
    assert decision_points(GAMES[1]) == [(0.15, 0.0), (0.15, 0.0)]
    with pytest.raises(ReviewError, match="unfinished"):
        decision_points(_game(0, [(0.5, 0.5)], None))


def test_bins_are_tenths_with_one_in_the_last():
    assert [bin_index(p) for p in (0.0, 0.0999, 0.1, 0.5, 0.95, 1.0)] == [0, 0, 1, 5, 9, 9]


def test_reliability_table_and_scores_from_known_numbers():
    points = [p for g in GAMES for p in decision_points(g)]
    # (0.05, 1), (0.95, 1), (0.15, 0), (0.15, 0), (1.0, 0)
    table = reliability(points)
    assert len(table) == 10 and sum(b.count for b in table) == 5
    assert (table[0].count, table[0].estimate, table[0].observed) == (1, 0.05, 1.0)
    assert (table[1].count, table[1].estimate, table[1].observed) == (2, 0.15, 0.0)
    assert table[9].count == 2
    assert table[9].estimate == pytest.approx(0.975) and table[9].observed == 0.5
    assert all(b.count == 0 and b.estimate is None for b in table[2:9])
    assert brier(points) == pytest.approx((0.95 ** 2 + 0.05 ** 2 + 2 * 0.15 ** 2 + 1) / 5)
    # The base rate is 2/5: always saying 40% scores 0.24.
    assert brier_reference(points) == pytest.approx((2 * 0.6 ** 2 + 3 * 0.4 ** 2) / 5)
    assert calibration_error(table) == pytest.approx((0.95 + 2 * 0.15 + 2 * 0.475) / 5)
    lines = table_text(table)
    assert len(lines) == 11 and max(len(line) for line in lines) <= 80
    assert "5.0%" in lines[1] and "100.0%" in lines[1] and "+95.0 pts" in lines[1]


def test_bad_points_and_bins_are_refused():
    with pytest.raises(ReviewError, match=r"\[0, 1\]"):
        reliability([(1.2, 1.0)])
    with pytest.raises(ReviewError, match="no decisions"):
        brier([])
    with pytest.raises(ReviewError, match="at least one bin"):
        reliability([(0.5, 1.0)], bins=0)


def test_accuracy_per_player_with_its_interval():
    acc = accuracy_by_player([(g.names[g.seat], g.accuracy) for g in GAMES]
                             + [("B", None)])  # a review without decisions is left out
    assert set(acc) == {"A", "B"}
    a, b = acc["A"], acc["B"]
    # A: one game without a drop (100%), one with a single 30-point drop.
    first, second = game_accuracy([0.0, 0.0]), game_accuracy([30.0])
    assert second == pytest.approx(move_accuracy(30.0)) and 24 < second < 26
    assert a.games == 2 and a.mean == pytest.approx((first + second) / 2)
    half = 1.96 * abs(first - second) / math.sqrt(2) / math.sqrt(2)
    assert (a.low, a.high) == pytest.approx((a.mean - half, a.mean + half))
    # B: one game, drops 10 and 0, both while the game was open: their mean.
    m = [move_accuracy(10.0), move_accuracy(0.0)]
    assert b.games == 1 and b.mean == pytest.approx((m[0] + m[1]) / 2)
    assert b.low == b.high == b.mean


def test_summary_of_known_values():
    s = summarize("x", [90.0, 80.0, 70.0])
    assert s.mean == 80.0 and s.high - s.mean == pytest.approx(1.96 * 10 / math.sqrt(3))
    with pytest.raises(ReviewError, match="no games"):
        summarize("x", [])


def test_ordering_of_the_levels():
    acc = {n: summarize(n, v) for n, v in
           {"L6": [95.0, 96.0, 94.0], "L3": [85.0, 86.0, 84.0], "L1": [84.0, 88.0, 80.0]}.items()}
    assert ordered(acc, ["L6", "L3", "L1"]) == (True, False)   # L3 and L1 overlap
    assert ordered(acc, ["L6", "L1"]) == (True, True)
    assert ordered(acc, ["L1", "L6"]) == (False, False)
    with pytest.raises(ReviewError, match="L9"):
        ordered(acc, ["L6", "L9"])


def test_a_real_game_reviewed_gives_one_point_per_decision():
    state = load_game("dragon", players=2).new_initial_state(4)
    start = state.clone()
    bots = [make_bot(f"heuristic(seed={i})") for i in range(2)]
    actions = []
    while not state.is_terminal():
        p = state.current_player()
        a = bots[p].step(state.resample_from_infostate(p, len(actions)))
        state.apply_action(a)
        actions.append(a)
    review = review_game(start, actions, 1, Settings(iterations=40, seed=2))
    points = decision_points(review)
    assert len(points) == len(review.decisions) > 0
    assert all(o == state.returns()[1] for _, o in points)
    assert sum(b.count for b in reliability(points)) == len(points)


def test_side_by_side_tables_fit_80_columns_and_need_the_same_bins():
    points = [p for g in GAMES for p in decision_points(g)]
    lines = pair_table_text(reliability(points), reliability(points[:2]), ("all", "first"))
    assert len(lines) == 12 and max(len(line) for line in lines) <= 80
    assert lines[2].split() == ["0-", "10%", "1", "5.0%", "100.0%", "|", "1", "5.0%", "100.0%"]
    assert lines[3].split()[-3:] == ["0", "-", "-"]   # no decision of the first game there
    with pytest.raises(ReviewError, match="same bins"):
        pair_table_text(reliability(points), reliability(points, bins=5), ("a", "b"))


def test_the_benchmark_rescores_stored_estimates_by_the_current_rule(tmp_path):
    from benchmarks.review_calibration import rescore, rescored

    # A level crushed early: one open 30-point drop, then two decisions in a lost game; and
    # strong in the same game, winning from 60% without a drop.
    steps = [[0.6, 0.3, 500, 500, 4, []], [0.015, 0.0, 500, 500, 3, []],
             [0.01, 0.0, 500, 500, 2, []]]
    row = {"seat": 1, "bot": "L1", "opponent": "S", "outcome": 0.0, "accuracy": 1.0,
           "decisions": 3, "steps": steps, "game": 1}
    out = rescored(row)
    assert out["accuracy"] == pytest.approx(move_accuracy(30.0)) and out["open"] == 1
    assert out["points"] == [(0.6, 0.0), (0.015, 0.0), (0.01, 0.0)]
    assert row["accuracy"] == 1.0 and "open" not in row          # the row is not changed
    with pytest.raises(SystemExit, match="no 'steps'"):
        rescored({k: v for k, v in row.items() if k != "steps"})
    strong = dict(row, seat=0, bot="S", opponent="L1", outcome=1.0, decisions=2,
                  steps=[[0.6, 0.6, 500, 500, 4, []], [0.99, 0.99, 500, 500, 3, []]])
    data = {"seed": 9, "db": "x.sqlite", "games": 1, "levels": [1], "strong_iterations": 10,
            "review_iterations": 10, "workers": 1,
            "names": {"S": "level 6 (strong)", "L1": "level 1 (beginner)"},
            "reviews": [row, strong]}
    src, dst = tmp_path / "in.json", tmp_path / "out.json"
    src.write_text(json.dumps(data))
    assert rescore([src], dst) == 0                                # strong above level 1
    back = json.loads(dst.read_text())
    assert back["accuracy_ranked"]["L1"]["mean"] == pytest.approx(move_accuracy(30.0))
    assert back["accuracy_ranked"]["S"]["mean"] == pytest.approx(move_accuracy(0.0))
    assert back["open_decisions"] == 2 and back["decisions"] == 5
