"""benchmarks/budget_agreement.py compares searches at two budgets on one seat's views: its
agreement figures count what they say, and the script prints them."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("budget_agreement",
                                               ROOT / "benchmarks" / "budget_agreement.py")
budget_agreement = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(budget_agreement)


def test_agreement_counts_pairs_and_modal_moves() -> None:
    rows = [([1, 1, 2], [1, 1, 1]), ([3, 3, 3], [4, 4, 3])]
    a = budget_agreement.agreement(rows)
    assert a["low"] == pytest.approx((1 / 3 + 1) / 2)
    assert a["high"] == pytest.approx((1 + 1 / 3) / 2)
    assert a["across"] == pytest.approx((6 / 9 + 3 / 9) / 2)
    assert a["modal_differs"] == pytest.approx(0.5)


def test_searches_of_one_seed_agree_with_themselves_and_of_two_seeds_not_always() -> None:
    rows = budget_agreement.choices("strong", "random", 3, 1, 5, 50, 50, 2)
    assert len(rows) > 10
    # the same budget and seeds at both budgets: the same searches, the same moves
    assert all(lo == hi for lo, hi in rows)
    # each repetition is its own seed: at 50 iterations some of its choices differ
    assert any(lo[0] != lo[1] for lo, _ in rows)
    a = budget_agreement.agreement(rows)
    assert a["low"] == a["high"] < 1.0 and a["modal_differs"] == 0.0


def test_the_script_prints_its_summary(capsys) -> None:
    budget_agreement.main(["--games", "1", "--low", "20", "--high", "80", "--reps", "2",
                           "--players", "3", "--play", "random", "--seed", "4"])
    out = capsys.readouterr().out
    assert "decisions of seat 0 of 3, 2 searches each" in out and "two at 20 agree" in out


def test_one_search_per_budget_is_refused() -> None:
    with pytest.raises(SystemExit):
        budget_agreement.main(["--reps", "1"])
