"""Games stored or saved before the rules change of issue 36 (record version 2: year-one 高矣
paid for any tile above layer 1) replay to the game they were, from the store, in `tianti
replay` and from a `tianti play` save."""
from __future__ import annotations

import json
from pathlib import Path

from engine.core.state import RECORD_VERSION, State
from ladder.store import Store
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
    from ladder.play import SAVE_FORMAT, PlaySession

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
