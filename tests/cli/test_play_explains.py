"""`tianti play` that explains itself (issue 11): 80 columns over whole games, the goal on the
first screen, explain / legend, saves that never lose a game, --load checks, forced choices."""
from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from engine.core.text import display_width
from ladder.cli import app
from ladder.table.play import PlaySession, find_save

runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})
FAST = ["--opponent", "random(seed=1)", "--hint-bot", "ismcts(iterations=200)"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def run(args, lines):
    return runner.invoke(app, ["play", *args], input="".join(l + "\n" for l in lines))


def too_wide(output: str) -> list[str]:
    """Lines over 80 columns, except a single unbreakable word (a file path) or the command
    that resumes a saved game (`tianti play --load PATH`, to be copied whole) on its own line."""
    return [line for line in output.splitlines()
            if display_width(line) > 80 and len(line.split()) > 1
            and not re.fullmatch(r"  \S*tianti play --load \S+", line)]


def flat(output: str) -> str:
    """The output with its line breaks undone (messages wrap at 80 columns)."""
    return " ".join(output.split())


def saved_path(output: str) -> str:
    m = re.search(r"tianti play --load\s+(\S+)", output)
    assert m, output
    return str(find_save(m.group(1)))  # the hint names a save in the saves folder by name


# Answers that first try the commands that print (explain, legend, board), then play on.
PROBE = ["explain 1", "legend", "board", "help"]


@pytest.mark.parametrize("args", [
    ["dragon", "-p", "3", "-o", "great_wall=true", "-o", "super_events=true", "--seed", "5"],
    ["dragon", "-p", "5", "--seed", "2"],
    ["mount-tai", "-p", "2", "--seed", "4"],
    ["mount-tai", "-p", "1", "-o", "challenge=3", "-o", "bonus_buildings=granary",
     "--seed", "3"],
])
def test_whole_games_fit_80_columns(args, tmp_path):
    result = run([*args, "--db", str(tmp_path / "db.sqlite"), *FAST], PROBE + ["1"] * 900)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert "Game end:" in out or "The ranking:" in out, out[-2000:]  # narrated once
    assert "Where each score came from over the whole game" in out
    assert too_wide(out) == []
    assert not re.search(r"\b1 points\b", out)


def test_challenge_goal_and_rule_are_on_the_first_screen():
    result = run(["mount-tai", "-p", "1", "-o", "challenge=3", "--seed", "3", *FAST], [])
    screen = result.output.split("> ")[0]
    first = " ".join(screen.split())  # lines joined: the header wraps at 80 columns
    assert "you are P0, solo, against the virtual player" in first
    assert "Solo challenge game 3 of 8: reach 82 reputation" in first
    assert "may not perform the action taken in the previous round" in first
    assert "Eight Praises this season: " in first and "How " in first
    assert "r\\c 0  1  2  3" in screen and "S settlement" in first


def test_dragon_board_is_in_words():
    result = run(["dragon", "-p", "3", "--seed", "4", *FAST], ["1", "1"])
    out = result.output
    for code in ("priv ", " yg ", " fw", "dragon)", "pyro "):
        assert code not in out, code
    assert "Persons left (young/old):" in out and "wildcards" in out


def test_explain_and_legend():
    result = run(["mount-tai", "-p", "2", "--seed", "4", *FAST],
                 ["explain 1", "explain use edict 4", "explain 99", "legend"])
    out = flat(result.output)   # (the tier's text, longer now, moved the line breaks)
    assert "1. use edict 1 [I]: barren land cultivation" in out
    assert "Flat-land: place up to 2 settlements" in out
    assert "recruitment and development" in out and "Recruit: take the face-up" in out
    assert "there is no choice 99" in out
    assert "edicts up: your usable edict tiles" in out


def test_a_bad_save_path_is_a_message_and_the_game_goes_on(tmp_path):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run(["dragon", "-p", "2", "--seed", "4", *FAST],
                 [f"save {folder}", f"save {blocker}/inside.json", "1", "quit"])
    out = flat(result.output)
    assert result.exit_code == 0, out
    assert "it is a folder" in out and "the game goes on" in out
    assert re.search(r"cannot save to \S*inside.json", out)
    assert "you: draft craftsman + court lady" in out
    assert "quit: the game is saved to" in out


def test_autosave_after_every_decision_and_ctrl_c_exits_130(tmp_path, monkeypatch):
    target = tmp_path / "auto.json"
    answers = iter(["1", "1"])

    def fake_input(prompt=""):
        try:
            return next(answers)
        except StopIteration:
            saved = PlaySession.load(target)  # the autosave already holds both decisions
            assert len(saved.decisions) == 2
            raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", fake_input)
    result = runner.invoke(app, ["play", "dragon", "-p", "2", "--seed", "4", "--save-to",
                                 str(target), *FAST])
    assert result.exit_code == 130, result.output
    assert "interrupted: the game is saved to" in flat(result.output)
    assert len(PlaySession.load(target).decisions) == 2


def _saved_game(tmp_path) -> tuple[str, dict]:
    target = tmp_path / "g.json"
    run(["dragon", "-p", "3", "--seed", "9", "--save-to", str(target), *FAST], ["1", "quit"])
    return str(target), json.loads(target.read_text())


def test_load_checks_the_file(tmp_path):
    path, data = _saved_game(tmp_path)
    bad = tmp_path / "bad.json"

    def load_with(d, *extra):
        bad.write_text(json.dumps(d))
        result = run(["--load", str(bad), *extra], [])
        result.flat = flat(result.output)
        return result

    out = load_with(dict(data, seat=7))
    assert out.exit_code == 2 and "seat 7 is out of range for a 3-player game" in out.flat
    rec = dict(data["record"], options=dict(data["record"]["options"], colour="red"))
    out = load_with(dict(data, record=rec))
    assert out.exit_code == 2 and "colour" in out.flat
    out = load_with({k: v for k, v in data.items() if k != "record"})
    assert out.exit_code == 2 and "it has no 'record' field" in out.flat
    specs = list(data["specs"])
    specs[1] = "python:os:getcwd"
    out = load_with(dict(data, specs=specs))
    assert out.exit_code == 2 and "--trust" in out.flat and "python:os:getcwd" in out.flat
    for spec in ("inproc:python:os:getcwd", "exec:sh -c 'touch x'"):
        specs[1] = spec
        out = load_with(dict(data, specs=specs))
        assert out.exit_code == 2 and "--trust" in out.flat and spec in out.flat
    out = run(["--load", path, "--seed", "3", "-p", "5"], ["quit"])
    assert out.exit_code == 0, out.output
    assert "ignored: players, seed" in flat(out.output)


def test_a_single_choice_is_played_for_you_unless_confirm_forced():
    # Mount Tai's challenge game: the carried building is chosen at setup; with only the
    # granary offered ... the policy decisions are real, so find any forced decision in a game.
    result = run(["mount-tai", "-p", "1", "-o", "solo=true", "--seed", "3", *FAST], ["1"] * 600)
    assert "(the only choice: played for you)" in result.output
    confirm = run(["mount-tai", "-p", "1", "-o", "solo=true", "--seed", "3", "--confirm-forced",
                   *FAST], ["1"] * 900)
    assert "(the only choice: played for you)" not in confirm.output
