"""benchmarks/solo_analysis.py: the per-source reputations add up, the search values are read,
and the won / lost summary has a row per group present."""
from __future__ import annotations

import pytest

from benchmarks.solo_analysis import (
    HOLDINGS, SOURCES, Decision, GameRecord, analyse, render_markdown, summarise, value_by_round,
    value_drops,
)

TINY_BOT = "strong(iterations=200)"


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    return analyse(TINY_BOT, games=2, seed=3)


def test_reputation_by_source_adds_up_to_the_final_reputation(records):
    assert len(records) == 2
    for r in records:
        assert set(r.by_source) == set(SOURCES)
        assert sum(r.by_source.values()) == r.reputation
        assert r.goal == 80
        assert r.reached == (r.reputation >= r.goal)
        assert set(r.holdings) == set(HOLDINGS)


def test_the_search_value_is_read_after_each_searched_decision(records):
    for r in records:
        # most decisions have a choice; each searched one has a value in [0, 1]
        assert len(r.decisions) > r.moves // 2
        assert all(0.0 <= d.value <= 1.0 and d.visits > 0 and d.legal > 1 for d in r.decisions)
        assert all(1 <= d.round <= 17 for d in r.decisions)
        assert [d.index for d in r.decisions] == sorted({d.index for d in r.decisions})
        for x in value_drops(r, 3):
            assert x.after < x.before


def test_the_summary_has_a_row_per_group_present(records):
    groups = summarise(records)
    for name, reached in (("won", True), ("lost", False)):
        n = sum(r.reached == reached for r in records)
        assert (name in groups) == (n > 0)
        if n:
            assert groups[name]["games"] == n
    text = render_markdown(records, TINY_BOT, None, 3)
    for name in groups:
        assert f"{name} ({groups[name]['games']} games)" in text


def _record(seed: int, reached: bool, events: int, praises: int, values: list[float]) -> GameRecord:
    by_source = {s: 0 for s in SOURCES}
    by_source[SOURCES[1]] = events
    by_source[SOURCES[2]] = praises
    return GameRecord(
        seed=seed, reputation=events + praises, goal=80, reached=reached, by_source=by_source,
        holdings={h: float(reached) for h in HOLDINGS},
        decisions=[Decision(i, 1 + i // 2, f"move {i}", v, 10, 2) for i, v in enumerate(values)])


def test_won_and_lost_rows_and_their_difference():
    won = _record(1, True, 30, 55, [0.5, 0.6, 0.7, 0.9])
    lost = _record(2, False, 10, 50, [0.5, 0.6, 0.2, 0.1])
    groups = summarise([won, lost])
    assert groups["won"]["sources"][SOURCES[1]] == 30
    assert groups["lost"]["sources"][SOURCES[1]] == 10
    text = render_markdown([won, lost], "test", None, 0, drops=1)
    assert "| won (1 games) | lost (1 games) | lost - won |" in text
    assert f"| rep: {SOURCES[1]} | 30.0 | 10.0 | -20.0 |" in text
    # the largest fall of the lost game: 0.6 -> 0.2, from round 1 to round 2
    (drop,) = value_drops(lost, 1)
    assert (drop.before, drop.after, drop.played, drop.decision) == (0.6, 0.2, "move 1", "move 2")
    assert "| 2 | 1->2 | move 1 | move 2 | 0.60 | 0.20 | -0.40 |" in text
    assert value_by_round([lost]) == {1: pytest.approx(0.55), 2: pytest.approx(0.15)}
