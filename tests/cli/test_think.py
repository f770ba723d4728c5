"""`tianti play --think SECONDS`: the strong opponents' average time a move (their time manager)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ladder.cli import app
from tests.cli.errors import error_message

runner = CliRunner()
CHEAP_HINT = ["--hint-bot", "ismcts(iterations=100)"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def play(*args: str):
    """`tianti play ARGS`, then end of input (which saves)."""
    return runner.invoke(app, ["play", *args], input="")


def saved_specs(data_dir: Path) -> list[str]:
    """The seats' bot specs in the one save that end of input wrote (its JSON `specs`)."""
    [save] = saves(data_dir)
    return json.loads(save.read_text())["specs"]


def saves(data_dir) -> list:
    return sorted((data_dir / "data").rglob("*.json")) if (data_dir / "data").exists() else []


def test_think_gives_the_default_opponents_a_time_manager(data_dir):
    result = play("dragon", "-p", "3", "--think", "2.5", *CHEAP_HINT)
    assert result.exit_code == 0, result.output
    assert "tianti play --load" in result.output  # saved where the error tests look
    assert saved_specs(data_dir) == ["human", "strong(think=2.5)", "strong(think=2.5)"]


def test_think_keeps_an_opponents_options_and_leaves_other_bots_alone(data_dir):
    result = play("dragon", "-p", "3", "--seat", "1", "--opponent", "strong-v1(c=0.5)",
                  "--opponent", "heuristic", "--think", "0.5", *CHEAP_HINT)
    assert result.exit_code == 0, result.output
    assert saved_specs(data_dir) == ["strong-v1(c=0.5,think=0.5)", "human", "heuristic"]


@pytest.mark.parametrize("bad, message", [
    ("-1", "--think must be a number of seconds above 0 (at most 86400), got -1"),
    ("0", "--think must be a number of seconds above 0 (at most 86400), got 0"),
    ("nan", "--think must be a number of seconds above 0"),
    ("1e6", "--think must be a number of seconds above 0 (at most 86400)"),
    ("abc", "invalid value for '--think'"),
])
def test_a_bad_think_is_one_line_exit_2_and_no_game_is_started(bad, message, data_dir):
    result = play("dragon", "-p", "2", f"--think={bad}")
    assert result.exit_code == 2
    assert message in error_message(result, "output")
    assert saves(data_dir) == []


@pytest.mark.parametrize("args, message", [
    (["--level", "1"], "--think applies to the strong bots"),
    (["--opponent", "strong(millis=200)"], "already has a budget (millis)"),
    (["--opponent", "strong(think=3)"], "already has a budget (think)"),
])
def test_think_where_it_cannot_apply_is_a_clear_error(args, message, data_dir):
    result = play("dragon", "-p", "2", *args, "--think", "1")
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert saves(data_dir) == []


def test_help_names_think():
    result = runner.invoke(app, ["play", "--help"])
    assert "--think" in result.output
