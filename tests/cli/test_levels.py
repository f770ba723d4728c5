"""Difficulty levels: the presets of ai/levels.py and `tianti play --level N`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engine
from ai.bots import BotSpecError, HeuristicBot, make_bot
from ai.levels import LEVELS, LevelError, level_spec, levels_for, top_level
from ladder.cli import app
from ladder.table.play import PlaySession

runner = CliRunner()
CHEAP_HINT = ["--hint-bot", "ismcts(iterations=100)"]
PRESET_GAMES = [g for g in LEVELS if g != "default"]
LEVELS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "LEVELS.md"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def play(*args: str, lines: tuple[str, ...] = ()):
    """`tianti play ARGS` with the given input lines (then end of input, which saves)."""
    return runner.invoke(app, ["play", *args], input="".join(l + "\n" for l in lines))


def saved_specs(output: str) -> list[str]:
    """The seats' bot specs of the game saved at end of input."""
    m = re.search(r"tianti play --load\s+(\S+)", output)
    assert m, output
    return PlaySession.load(m.group(1)).specs


@pytest.mark.parametrize("game", [*PRESET_GAMES, "fusion"])
def test_levels_are_numbered_from_1_and_each_spec_makes_a_bot(game):
    levels = levels_for(game)
    assert [lv.number for lv in levels] == list(range(1, len(levels) + 1))
    assert len({lv.spec for lv in levels}) == len(levels)
    for lv in levels:
        assert lv.name and lv.text
        make_bot(lv.spec)  # a preset that does not parse would fail only when played
    assert top_level(game).spec == "strong"  # the highest level is the default opponent


@pytest.mark.parametrize("game", PRESET_GAMES)
def test_the_readme_gives_every_preset_its_measured_row(game):
    """A changed preset needs a new calibration: docs/LEVELS.md's table names every level's bot."""
    text = LEVELS_PAGE.read_text()
    for lv in levels_for(game):
        assert re.search(rf"\| {lv.number} {re.escape(lv.name)} \| `{re.escape(lv.spec)}",
                         text), f"docs/LEVELS.md lacks {game} level {lv.number} ({lv.spec})"


@pytest.mark.parametrize("game", PRESET_GAMES)
def test_level_chooses_the_preset_for_every_other_seat(game):
    level = levels_for(game)[0]
    result = play(game, "-p", "3", "--level", "1", *CHEAP_HINT)
    assert result.exit_code == 0, result.output
    assert saved_specs(result.output) == ["human", level.spec, level.spec]
    assert f"P1 {level.label}" in result.output  # the intro names the opponents by level


def test_level_with_another_seat_and_a_middle_level():
    result = play("dragon", "-p", "2", "--seat", "1", "--level", "2", "--seed", "3",
                  *CHEAP_HINT)
    assert result.exit_code == 0, result.output
    assert saved_specs(result.output) == [level_spec("dragon", 2), "human"]


@pytest.mark.parametrize("game", PRESET_GAMES)
def test_the_default_opponent_is_the_strongest_level(game):
    result = play(game, "-p", "2", *CHEAP_HINT)
    assert result.exit_code == 0, result.output
    assert saved_specs(result.output) == ["human", top_level(game).spec]
    top = play(game, "-p", "2", "--level", str(len(levels_for(game))), *CHEAP_HINT)
    assert saved_specs(top.output) == saved_specs(result.output)


@pytest.mark.parametrize("bad", ["0", "7", "-1", "99"])
def test_a_bad_level_is_one_clear_line_naming_the_lowest_and_highest(bad):
    result = play("dragon", "-p", "2", "--level", bad)
    assert result.exit_code == 2
    out = result.output
    levels = levels_for("dragon")
    assert out == (f"error: dragon has no level {bad}: they go from 1 ({levels[0].name}) to "
                   f"{levels[-1].number} ({levels[-1].name})\n")  # `play --help` lists them all


def test_a_level_another_game_lacks_lists_that_games_levels():
    n = len(levels_for("mount-tai")) + 1
    result = play("mount-tai", "-p", "2", "--level", str(n))
    assert result.exit_code == 2
    assert f"mount-tai has no level {n}: they go from 1 (beginner) to 4 (strong)" in result.output


def test_level_and_opponent_together_is_an_error():
    result = play("dragon", "-p", "2", "--level", "2", "--opponent", "random")
    assert result.exit_code == 2
    assert "give --level or --opponent, not both" in result.output


def test_level_is_ignored_by_load_with_a_warning():
    first = play("dragon", "-p", "2", "--level", "1", *CHEAP_HINT)
    path = re.search(r"tianti play --load\s+(\S+)", first.output).group(1)
    again = play("--load", path, "--level", "3")
    assert again.exit_code == 0, again.output
    assert re.search(r"ignored: .*level", again.output)
    assert saved_specs(again.output)[1] == level_spec("dragon", 1)


def test_level_spec_errors_and_games_without_presets():
    with pytest.raises(LevelError, match=r"fusion has no level 4: they go from 1 \(random\)"):
        level_spec("fusion", 4)
    assert level_spec("fusion", 3) == "strong"


def test_play_help_and_bots_list_the_levels():
    help_text = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).output
    assert "--level" in help_text and "1 beginner" in help_text
    listing = runner.invoke(app, ["bots"]).output
    assert "Difficulty levels" in listing
    for game in PRESET_GAMES:
        assert f"  {game}:" in listing
        for lv in levels_for(game):
            assert lv.spec in listing


def test_heuristic_epsilon():
    state = engine.load_game("dragon", players=2).new_initial_state(5)
    greedy = HeuristicBot(seed=1)
    assert {greedy.step(state) for _ in range(20)} == {greedy.step(state)}
    wild = HeuristicBot(seed=1, epsilon=1.0)
    assert len({wild.step(state) for _ in range(50)}) > 3  # random moves
    assert isinstance(make_bot("heuristic(epsilon=0.5)"), HeuristicBot)
    with pytest.raises(BotSpecError, match="epsilon"):
        make_bot("heuristic(epsilon=1.5)")
