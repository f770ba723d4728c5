"""Records of version 1 (written before the rules change of issue 13) replay to the same game.

tests/fixtures/records_v1/records_v1.json holds random games made by the engine before that
change (the commit before "Merge branch 'rules13'"; made with make_records.py there): the record
and what that engine said at the end (scores, ranks, returns, snapshot, a digest of every event,
and for Dragon of the raw state, whose layout did not change). check_records.py checks a larger
set the same way.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import engine
from engine.core.errors import RecordError
from engine.core.state import RECORD_VERSION, State

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records_v1"
sys.path.insert(0, str(FIXTURES))
from check_records import compare  # noqa: E402

GAMES = json.loads((FIXTURES / "records_v1.json").read_text(encoding="utf-8"))
START = (2236, 2237)


def test_the_fixtures_cover_every_variant_and_are_small() -> None:
    assert RECORD_VERSION == 3
    assert (FIXTURES / "records_v1.json").stat().st_size < 300_000
    assert {g["record"]["version"] for g in GAMES} == {1}
    variants = {g["variant"] for g in GAMES}
    assert len(variants) == 9
    challenges = {g["record"]["options"].get("challenge") for g in GAMES} - {None}
    assert len(challenges) >= 4


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g['variant']}-{g['record']['seed']}")
def test_a_version_1_record_replays_to_the_same_game(game: dict) -> None:
    state = State.from_record(game["record"])
    assert compare(game, state) == []
    record = state.to_record()
    assert record["version"] == RECORD_VERSION
    again = State.from_record(record)
    assert again.raw_bytes() == state.raw_bytes() and again.history() == state.history()
    assert again.scores() == game["scores"] and again.ranks() == game["ranks"]
    actions = game["record"]["actions"]
    if game["record"]["game"] == "dragon":
        # the old engine placed the starting persons one per palace: 2236 after each pick
        players = game["record"]["options"]["players"]
        assert state.history().count(2236) == players and not set(actions) & set(START)
        assert [a for a in state.history() if a not in START] == actions
    else:
        assert record["options"]["legacy_readings"] is True
        assert record["options"]["gao_yi_above_layer_1"] is True
        assert state.history() == actions


def test_the_version_1_handling_matters() -> None:
    """Replayed under the current rules (as a current record) the old records mostly do not
    replay."""
    differ = 0
    for game in GAMES:
        try:
            differ += compare(game, State.from_record(dict(game["record"],
                                                           version=RECORD_VERSION))) != []
        except RecordError:
            differ += 1
    assert differ >= len(GAMES) - 3


@pytest.mark.parametrize("version", [0, 4, "2", True, None, 1.5])
def test_other_versions_are_refused(version) -> None:
    record = engine.load_game("dragon", players=2).new_initial_state(1).to_record()
    record["version"] = version
    with pytest.raises(RecordError, match="version"):
        State.from_record(record)


def test_a_record_without_a_version_is_the_current_one() -> None:
    state = engine.load_game("dragon", players=2).new_initial_state(1)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(2237)
    record = state.to_record()
    del record["version"]
    assert State.from_record(record).history() == state.history()


@pytest.mark.parametrize("name", ["dragon", "mount-tai"])
def test_records_labelled_version_1_by_the_rules13_engine_replay(name: str) -> None:
    """Between the rules change and the version bump, records said version 1: Dragon's carry
    the starting-persons decision, Mount Tai's options name optional_edict_effects."""
    import random

    state = engine.load_game(name, players=3).new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    record = dict(state.to_record(), version=1)
    again = State.from_record(record)
    assert again.history() == state.history() and again.scores() == state.scores()
    assert again.snapshot() == state.snapshot()


def test_a_dragon_v1_record_ending_after_a_pick_has_its_persons_placed() -> None:
    game = next(g for g in GAMES if g["record"]["game"] == "dragon")
    record = dict(game["record"], actions=game["record"]["actions"][:1])
    state = State.from_record(record)
    assert state.history() == [record["actions"][0], 2236]
    assert state.snapshot()["phase"] == "draft"


def test_the_legacy_option_is_listed() -> None:
    options = {o["name"]: o for o in engine.load_game("mount-tai").describe_options()}
    assert options["legacy_readings"]["default"] is False
    assert "issue 13" in options["legacy_readings"]["help"]
