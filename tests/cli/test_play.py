"""`tianti play` driven with scripted input through CliRunner."""
from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from ladder.cli import app
from ladder.table.play import PlaySession, find_save

runner = CliRunner()
FAST = ["--opponent", "random(seed=1)", "--hint-bot", "ismcts(iterations=300)"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def run(args, lines):
    return runner.invoke(app, ["play", *args], input="".join(l + "\n" for l in lines))


def saved_path(output: str) -> str:
    m = re.search(r"tianti play --load\s+(\S+)", output)
    assert m, output
    return str(find_save(m.group(1)))  # the hint names a save in the saves folder by name


def test_choose_by_number_name_and_prefix_then_end_of_input_saves(tmp_path):
    result = run(["dragon", "-p", "2", "--seed", "4", *FAST],
                 ["1", "1", "taxes", "recruit old m", "place the old monk in palace 2"])
    out = result.output
    assert result.exit_code == 0, out
    assert "you: draft craftsman + court lady" in out          # by number
    assert "you: put the court lady in the other palace" in out  # the starting persons
    assert re.search(r"you: taxes \(group \d", out)             # by name
    assert "you: recruit old monk" in out                       # by prefix
    assert "you: place the" in out
    assert "end of input: the game is saved to" in out
    path = saved_path(out)
    data = json.loads(open(path).read())
    assert data["format"] == "tianti-play" and data["seat"] == 0


def test_wrong_choices_are_reprompted():
    result = run(["dragon", "-p", "2", "--seed", "4", *FAST], ["0", "77", "dance", "draft c", "1"])
    out = result.output
    assert "there is no choice 0: pick 1 to 36" in out
    assert "there is no choice 77" in out
    assert "no legal action is called 'dance'" in out
    assert "'draft c' is ambiguous" in out
    assert "you: draft craftsman + court lady" in out


def test_undo_goes_back_to_the_previous_decision():
    result = run(["dragon", "-p", "2", "--seed", "4", *FAST], ["1", "undo", "2"])
    out = result.output
    assert "back to your previous decision" in out
    assert "you: draft craftsman + court lady" in out
    assert "you: draft craftsman + tax collector" in out
    session = PlaySession.load(saved_path(out))
    assert session.state.history()[0] != 0  # the undone draft is gone from the record


def test_undo_at_the_first_decision():
    result = run(["dragon", "-p", "2", *FAST], ["undo"])
    assert "nothing to undo" in result.output


def test_hint_shows_top_moves():
    result = run(["dragon", "-p", "2", "--seed", "4", *FAST], ["1", "1", "hint"])
    out = result.output
    assert "hint: " in out
    assert "chance to win" in out and "of search" in out
    assert re.search(r"\d+%  .* \(\d+ visits\)", out)


def test_save_then_load_resumes_at_the_same_decision(tmp_path):
    target = tmp_path / "game.json"
    first = run(["dragon", "-p", "3", "--seed", "9", *FAST], ["1", f"save {target}", "quit"])
    assert re.search(r"saved to\s+" + re.escape(str(target)), first.output)
    before = PlaySession.load(target)
    second = run(["--load", str(target)], ["log", "board"])
    assert second.exit_code == 0, second.output
    after = PlaySession.load(saved_path(second.output))
    assert after.state == before.state
    assert after.state.current_player() == 0
    assert before.state.decision_name() in second.output


def test_load_errors_are_clear(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = run(["--load", str(bad)], [])
    assert result.exit_code == 2 and "is not a saved tianti game" in result.output
    result = run(["--load", str(tmp_path / "missing.json")], [])
    assert result.exit_code == 2 and "no saved game at" in result.output


def test_log_and_board():
    result = run(["dragon", "-p", "2", "--seed", "4", *FAST], ["1", "1", "log", "board"])
    out = result.output
    assert "P1 (random(seed=1)): draft" in out
    assert "Events:" in out and "Person track" in out


def test_a_whole_game_to_the_final_scoring_is_stored_and_rated(tmp_path):
    from ladder.tournament.store import Store

    db = tmp_path / "ladder.db"
    lines = ["1"] * 400
    result = run(["dragon", "-p", "2", "--seed", "2", "--db", str(db), *FAST], lines)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert "Final scoring" in out and "The ranking:" in out
    assert re.search(r"P0 \(you\): \d+ = ", out)
    # Once each (issue 34): the narration's final scoring and ranking, then the whole game's
    # points by source; not a second ranking and scoring in another style.
    assert out.count("finishes 1st") == 1 and "\nRanking" not in out and "Final: P0" not in out
    assert out.count("Where each score came from over the whole game") == 1
    assert re.search(r"the game is stored in\s+" + re.escape(str(db)), out)
    with Store(db) as store:
        games = list(store.games())
        assert len(games) == 1
        bots = {row[0] for row in store.conn.execute("SELECT bot FROM ratings")}
        assert bots == {"human", "random(seed=1)"}


def test_mount_tai_by_number_prefix_undo_save_and_load(tmp_path):
    target = tmp_path / "mt.json"
    result = run(["mount-tai", "-p", "2", "--seed", "4", *FAST],
                 ["1", "execute", "undo", "undo", "use edict 4", f"save {target}"])
    out = result.output
    assert result.exit_code == 0, out
    assert "you: use edict 1 [I]: barren land cultivation" in out
    assert "you: execute barren land cultivation" in out
    assert "back to your previous decision" in out
    assert "you: use edict 4 [I]: recruitment and development" in out
    saved = PlaySession.load(target)
    resumed = run(["--load", str(target)], [])
    assert saved.state.decision_name() in resumed.output


def test_mount_tai_solo_game_to_the_end_says_whether_the_goal_was_met(tmp_path):
    result = run(["mount-tai", "-p", "1", "-o", "solo=true", "--seed", "3", "--db",
                  str(tmp_path / "db.sqlite"), *FAST], ["1"] * 600)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert "Where each score came from over the whole game" in out
    assert re.search(r"Solo goal: goal \d+ reputation: (reached|not reached)", out)
