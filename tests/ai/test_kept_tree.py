"""benchmarks/kept_tree.py reads seat 0's searches in one game: a kept tree's root holds more
visits than the search's own iterations, a search started afresh holds exactly its own."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("kept_tree", ROOT / "benchmarks" / "kept_tree.py")
kept_tree = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kept_tree)


def test_a_kept_tree_carries_visits_and_a_fresh_one_does_not() -> None:
    kept = kept_tree.kept_tree_shares("strong(iterations=200,seed=1)", "random", 4, 7)
    fresh = kept_tree.kept_tree_shares("strong(iterations=200,seed=1,reuse=false)", "random",
                                       4, 7)
    assert len(kept) > 10 and len(fresh) > 10
    assert all(r["iterations"] == 200 for r in kept + fresh)
    assert not any(r["reused"] for r in fresh)
    assert all(r["root"] == 200 for r in fresh)
    continued = [r for r in kept if r["reused"]]
    assert len(continued) > len(kept) // 2
    assert any(r["root"] > 200 for r in continued)
    assert all(r["root"] >= 200 for r in kept)


def test_the_script_prints_its_summary(capsys) -> None:
    kept_tree.main(["--a", "strong(iterations=100,seed=2)", "--others", "random",
                    "--players", "3", "--seed", "4"])
    out = capsys.readouterr().out
    assert "seat 0 of 3 (deal 4)" in out and "continued a kept tree" in out
