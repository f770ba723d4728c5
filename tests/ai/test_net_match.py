"""benchmarks/net_match.py seats the baseline in every other seat of an N-player table, the
candidate through each seat of every deal, and refuses a match of fewer than 2 players."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_net_match(*args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, str(ROOT / "benchmarks" / "net_match.py"), "--game", "dragon",
           "--iterations", "20", "--deals", "1", "--workers", "1", "--seed", "3",
           "--only", "puct=0.3", *args]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)


def test_a_four_player_match_plays_the_candidate_through_all_four_seats():
    done = run_net_match("-o", "players=4")
    assert done.returncode == 0, done.stderr
    assert "vs strong(iterations=20): " in done.stdout
    assert "/4 wins" in done.stdout  # one deal, the candidate in each of the four seats


def test_a_two_player_match_is_the_default():
    done = run_net_match()
    assert done.returncode == 0, done.stderr
    assert "/2 wins" in done.stdout


def test_fewer_than_two_players_is_a_clear_error_and_plays_nothing():
    done = run_net_match("-o", "players=1")
    assert done.returncode == 2
    assert "a match needs 2 or more players (-o players=N)" in done.stderr
    assert "wins" not in done.stdout
