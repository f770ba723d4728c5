"""Games stored or saved before the rules change of issue 36 (record version 2: year-one 高矣
paid for any tile above layer 1) replay to the game they were, from the store, in `tianti
replay` and from a `tianti play` save."""
from __future__ import annotations

import json
from pathlib import Path

from engine.core.state import RECORD_VERSION, State
from ladder.tournament.store import Store
from tests.ladder.helpers import cli
from tests.ladder.test_records_v1 import _store_old

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records_v2" / "records_v2.json"
# A 2-player game the old reading decided: a year-one 高矣 on layers {1, 3} paid 5 then.
DECIDED = 20303


def _game(seed: int) -> dict:
    return next(g for g in json.loads(FIXTURES.read_text(encoding="utf-8"))
                if g["record"]["seed"] == seed)


def test_the_game_is_one_the_reading_decides() -> None:
    game = _game(DECIDED)
    now = State.from_record(dict(game["record"], version=RECORD_VERSION))
    assert now.ranks() != game["ranks"]


def test_a_game_stored_before_issue_36_replays(tmp_path: Path) -> None:
    game = _game(DECIDED)
    db = tmp_path / "s.db"
    with Store(db) as store:
        gid = _store_old(store, game)
        stored = store.game(gid)
        record = stored.record()
        run = stored.run_id
    assert record["version"] == 2 and "gao_yi_above_layer_1" not in record["options"]
    state = State.from_record(record)
    assert state.scores() == game["scores"] and state.ranks() == game["ranks"]
    result = cli("replay", run, gid, "--db", db, "--no-board")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    assert f"{game['scores'][0]} points" in result.output


def test_a_play_save_of_version_2_loads_with_the_old_reading(tmp_path: Path) -> None:
    from ladder.table.play import SAVE_FORMAT, PlaySession

    game = _game(DECIDED)
    # The save ends after the year-one settlement that paid the 5 the new reading refuses.
    def gao_yi(record: dict) -> list:
        return [(e.move, e.seat, e.points) for e in State.from_record(record).event_history()
                if e.kind == "praise" and e.cause == "高矣" and e.amounts["year"] == 0]
    before = gao_yi(game["record"])
    after = gao_yi(dict(game["record"], version=RECORD_VERSION))
    at = next(b[0] for b, a in zip(before, after) if b != a)
    assert [b[2] for b, a in zip(before, after) if b != a] == [5]
    actions = game["record"]["actions"][:at + 1]
    save = {"format": SAVE_FORMAT, "version": 1, "seat": 0, "specs": ["human", "random"],
            "hint": "random", "decisions": [],
            "record": dict(game["record"], actions=actions),
            "move_seconds": [0.0] * len(actions)}
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    session = PlaySession.load(path)
    prefix = State.from_record(dict(game["record"], actions=actions))
    assert session.state.raw_bytes() == prefix.raw_bytes()
    now = State.from_record(dict(game["record"], actions=actions, version=RECORD_VERSION))
    rep = [s["reputation"] for s in session.state.snapshot()["seats"]]
    assert sorted(a - b for a, b in zip(rep, [s["reputation"] for s in
                                              now.snapshot()["seats"]])) == [0, 5]
    saved = session.to_dict()["record"]
    assert saved["version"] == RECORD_VERSION and saved["options"]["gao_yi_above_layer_1"]


def test_the_solo_goal_of_an_older_stored_game_is_judged_under_its_rules() -> None:
    """ladder.tournament.store.goal_reached (a schema-1 store's upgrade, its read-only ratings)
    replays a stored game under its record version: version-1 solo games no longer fail to
    replay."""
    from ladder.tournament.store import goal_reached

    fixtures = FIXTURES.parents[1]
    games = [g for name in ("records_v1/records_v1.json", "records_v2/records_v2.json")
             for g in json.loads((fixtures / name).read_text(encoding="utf-8"))
             if g["record"]["game"] == "mount-tai" and g["record"]["options"]["players"] == 1]
    assert {g["record"]["version"] for g in games} == {1, 2} and len(games) >= 6
    for game in games:
        r = game["record"]
        assert goal_reached(r["game"], r["options"], r["seed"], r["actions"]) is (
            State.from_record(r).goal_reached())
    # A game stored now: its options name every option, it replays as it was played.
    state = State.from_record(dict(games[-1]["record"], version=RECORD_VERSION))
    r = state.to_record()
    assert goal_reached(r["game"], r["options"], r["seed"], r["actions"]) is state.goal_reached()
