"""benchmarks/solo_goals.py --jsonl writes one line per game, and benchmarks/solo_pairs.py
compares two such files deal by deal (goals, the sign test on the deals only one reached, the
mean difference of final reputation)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ai.evaluate import head_to_head, play_games, summarize
from benchmarks.solo_pairs import compare, load, sign_test

ROOT = Path(__file__).resolve().parents[2]


def test_the_sign_test_gives_the_exact_binomial_tail():
    assert sign_test(0, 0) == 1.0
    assert sign_test(3, 3) == 1.0
    assert sign_test(0, 5) == pytest.approx(2 / 32)
    assert sign_test(1, 9) == pytest.approx(2 * 11 / 1024)
    assert sign_test(9, 1) == sign_test(1, 9)


def _rows(bot: str, outcomes: list[tuple[int, float]]) -> dict[int, dict]:
    return {d: {"game": "challenge 6", "bot": bot, "deal": d, "reached": r, "score": s,
                "seconds_per_move": 0.5} for d, (r, s) in enumerate(outcomes)}


def test_compare_pairs_the_deals_both_played():
    a = _rows("old", [(1, 86), (0, 80), (0, 70), (1, 90)])
    b = _rows("new", [(1, 88), (1, 85), (0, 72)])         # deal 3 missing: not compared
    c = compare(a, b)
    assert c["deals"] == 3
    assert c["a"]["goals"] == 1 and c["b"]["goals"] == 2
    assert c["only_a"] == 0 and c["only_b"] == 1
    assert c["diff"] == pytest.approx((2 + 5 + 2) / 3)
    assert c["a"]["bot"] == "old" and c["b"]["bot"] == "new"


def test_play_games_keeps_every_game_and_summarize_matches_head_to_head():
    games = play_games("fusion", "random(seed=1)", ["random(seed=2)"], 3, seed=4, workers=1)
    assert [g.deal for g in games] == [4 * 100003 + d for d in range(3) for _ in range(2)]
    assert [g.seat for g in games] == [0, 1] * 3
    again = head_to_head("fusion", "random(seed=1)", ["random(seed=2)"], 3, seed=4, workers=1)
    s = summarize(games)
    assert (s.games, s.wins, s.mean_rank, s.mean_score) == \
        (again.games, again.wins, again.mean_rank, again.mean_score)
    later = play_games("fusion", "random(seed=1)", ["random(seed=2)"], 1, seed=4, workers=1,
                       first=2)
    assert [g.deal for g in later] == [4 * 100003 + 2] * 2


def test_solo_goals_writes_a_line_per_game_that_solo_pairs_reads(tmp_path):
    out = tmp_path / "a.jsonl"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "solo_goals.py"), "--bot",
           "strong(iterations=60)", "--games", "2", "--first", "5", "--workers", "1", "--only",
           "2", "--seed", "9", "--jsonl", str(out)]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["deal"] for r in rows] == [9 * 100003 + 5, 9 * 100003 + 6]
    assert all(r["game"] == "challenge 2" and r["bot"] == "strong(iterations=60)" for r in rows)
    assert all(r["reached"] == (1.0 if r["score"] >= 80 else 0.0) for r in rows)
    loaded = load(str(out))
    assert set(loaded) == {"challenge 2"} and len(loaded["challenge 2"]) == 2
    report = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "solo_pairs.py"),
                             str(out), str(out)], capture_output=True, text=True, env=env,
                            timeout=120)
    assert report.returncode == 0, report.stderr
    assert "| challenge 2 | strong(iterations=60) | 2 |" in report.stdout
    assert "first only 0, by the second only 0 (sign test p = 1.000)" in report.stdout
