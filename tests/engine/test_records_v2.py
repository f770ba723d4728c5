"""Records of version 2 (written before the rules change of issue 36, when year-one 高矣 paid
for any tile above layer 1) replay to the same game.

tests/fixtures/records_v2/records_v2.json holds Mount Tai games made by the engine before that
change (commit f1b21b3, with make_records.py there): the record and what that engine said at the
end (scores, ranks, returns, snapshot and a digest of every event). Seven of them are steered
games in which a player held layers {1, 3} at a year-one 高矣: under the new reading they end
otherwise. tests/fixtures/records_v1/check_records.py checks a larger set the same way.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from engine.core.state import RECORD_VERSION, State

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
sys.path.insert(0, str(FIXTURES / "records_v1"))
from check_records import compare  # noqa: E402

GAMES = json.loads((FIXTURES / "records_v2" / "records_v2.json").read_text(encoding="utf-8"))


def _year_one_gao_yi(state: State) -> list[tuple[int, int, int]]:
    """(seat, reputation, measure) of every year-one 高矣 of the game."""
    return [(e.seat, e.points, e.amounts["measure"]) for e in state.event_history()
            if e.kind == "praise" and e.cause == "高矣" and e.amounts["year"] == 0]


def test_the_fixtures_are_version_2_records_without_the_option() -> None:
    assert RECORD_VERSION == 3
    assert (FIXTURES / "records_v2" / "records_v2.json").stat().st_size < 150_000
    assert {g["record"]["version"] for g in GAMES} == {2}
    assert {g["record"]["game"] for g in GAMES} == {"mount-tai"}
    assert all("optional_edict_effects" in g["record"]["options"]
               and "gao_yi_above_layer_1" not in g["record"]["options"] for g in GAMES)
    assert {g["variant"] for g in GAMES} >= {"random solo", "random 2 players",
                                             "steered 4 players"}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g['variant']}-{g['record']['seed']}")
def test_a_version_2_record_replays_to_the_same_game(game: dict) -> None:
    state = State.from_record(game["record"])
    assert compare(game, state) == []
    assert state.history() == game["record"]["actions"]
    record = state.to_record()
    assert record["version"] == RECORD_VERSION
    assert record["options"]["gao_yi_above_layer_1"] is True
    assert record["options"]["legacy_readings"] is False
    again = State.from_record(record)
    assert again.raw_bytes() == state.raw_bytes() and again.history() == state.history()
    assert compare(game, again) == []


def test_the_version_2_handling_matters() -> None:
    """Replayed as current records the steered games end otherwise, each because of a
    year-one 高矣 on layers {1, 3}: 0 reputation now where the old engine paid 5."""
    differ = []
    for game in GAMES:
        new = State.from_record(dict(game["record"], version=RECORD_VERSION))
        if compare(game, new):
            differ.append(game)
            old = State.from_record(game["record"])
            before, after = _year_one_gao_yi(old), _year_one_gao_yi(new)
            assert before != after
            assert len(before) == len(after) and [b[0] for b in before] == [a[0] for a in after]
            for (seat, paid, measure), (_, now, counted) in zip(before, after):
                # The old measure counted every layer held, the new one layers 1 and 2.
                assert (paid, now, counted) in ((5, 0, 1), (5, 5, 2)) or (
                    (paid, measure) == (now, counted))
    assert len(differ) == 7
    assert all(g["variant"].startswith("steered") for g in differ)
    assert sum(g["scores"] != State.from_record(dict(g["record"], version=RECORD_VERSION))
               .scores() for g in differ) >= 5


def test_a_current_record_keeps_its_option() -> None:
    """A version-3 record says which reading it was played under; neither is overridden."""
    game = GAMES[0]
    for value in (False, True):
        record = dict(game["record"], version=RECORD_VERSION,
                      options=dict(game["record"]["options"], gao_yi_above_layer_1=value))
        state = State.from_record(record)
        assert state.game.options["gao_yi_above_layer_1"] is value
        assert state.to_record()["options"]["gao_yi_above_layer_1"] is value
    # A version-2 record that names the option (none was written so) keeps it too.
    record = dict(game["record"], options=dict(game["record"]["options"],
                                               gao_yi_above_layer_1=False))
    assert State.from_record(record).game.options["gao_yi_above_layer_1"] is False
