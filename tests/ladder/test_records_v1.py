"""Games stored before the rules change of issue 13 (record version 1) still replay from the
store and in `tianti replay`; games stored now give current records (version 3)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.core.state import RECORD_VERSION, State
from ladder.tournament.schedule import TournamentSpec, plan
from ladder.tournament.store import Store
from ladder.tournament.worker import GameOutcome, SeatOutcome, play_task
from tests.ladder.helpers import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records_v1" / "records_v1.json"


def _old_game(name: str, players: int) -> dict:
    games = json.loads(FIXTURES.read_text(encoding="utf-8"))
    return next(g for g in games if g["record"]["game"] == name
                and g["record"]["options"]["players"] == players)


def _store_old(store: Store, game: dict) -> int:
    """Store a fixture game as the tianti before issue 13 stored it (its complete options)."""
    record = game["record"]
    spec = TournamentSpec(record["game"], record["options"],
                          (("a", "random"), ("b", "random")), 1, seed=1)
    run = store.create_run(spec, planned=1)
    seats = [SeatOutcome(seat=i, bot="ab"[i], spec="random", score=game["scores"][i],
                         rank=game["ranks"][i], game_rank=game["ranks"][i], fault=None,
                         moves=0, think_seconds=0.0, max_move_seconds=0.0)
             for i in range(len(game["scores"]))]
    return store.save_game(GameOutcome(
        run_id=run, deal=0, seating=0, game=record["game"],
        options_json=json.dumps(record["options"]), seed=record["seed"], resample_seed=0,
        actions_json=json.dumps(record["actions"]),
        move_times_json=json.dumps([0.0] * len(record["actions"])), seats=seats, duration=0.0))


@pytest.mark.parametrize("name", ["dragon", "mount-tai"])
def test_a_game_stored_before_issue_13_replays(tmp_path: Path, name: str) -> None:
    game = _old_game(name, 2)
    db = tmp_path / "s.db"
    with Store(db) as store:
        gid = _store_old(store, game)
        stored = store.game(gid)
        record = stored.record()
        run = stored.run_id
    assert record["version"] == 1
    state = State.from_record(record)
    assert state.scores() == game["scores"] and state.ranks() == game["ranks"]
    result = cli("replay", run, gid, "--db", db, "--no-board")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    if name == "dragon":
        assert "(automatic: stored before the rules change)" in " ".join(result.output.split())


@pytest.mark.parametrize("name", ["dragon", "mount-tai"])
def test_a_game_stored_now_is_a_current_record(tmp_path: Path, name: str) -> None:
    game = engine.load_game(name, players=2)
    spec = TournamentSpec(name, game.options, (("a", "random"), ("b", "random")), 1, seed=3)
    with Store(tmp_path / "s.db") as store:
        run = store.create_run(spec, planned=2)
        outcome = play_task(plan(spec, run)[0])
        gid = store.save_game(outcome)
        record = store.game(gid).record()
    assert record["version"] == RECORD_VERSION == outcome.record()["version"] == 3
    state = State.from_record(record)
    assert state.history() == record["actions"]
    assert state.scores() == [s.score for s in outcome.seats]


def test_a_play_save_of_version_1_loads_with_its_move_numbers_moved(tmp_path: Path) -> None:
    from ladder.table.play import SAVE_FORMAT, PlaySession

    game = _old_game("dragon", 2)
    actions = game["record"]["actions"][:30]
    # the human (seat 0) decided at moves 0 (its draft pick) and 2 (its first action card)
    save = {"format": SAVE_FORMAT, "version": 1, "seat": 0, "specs": ["human", "random"],
            "hint": "random", "decisions": [0, 2],
            "record": dict(game["record"], actions=actions),
            "move_seconds": [float(i) for i in range(30)]}
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    session = PlaySession.load(path)
    history = session.state.history()
    assert history[:4] == [actions[0], 2236, actions[1], 2236] and len(history) == 32
    assert session.decisions == [0, 4]
    assert [m.seconds for m in session.log][:5] == [0.0, 0.0, 1.0, 0.0, 2.0]
    assert session.undo() and session.state.history() == history[:4]
    assert session.to_dict()["record"]["version"] == RECORD_VERSION
