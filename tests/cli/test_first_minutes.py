"""The smaller slips of a new user's first ten minutes (issue 34): one Dragon board notation
that `legend` explains, a resume command that works after `make play`, one-line usage errors,
"did you mean", and the screens of watch, replay, ladder and tournament."""
from __future__ import annotations

import re
import sys

import pytest
from typer.testing import CliRunner

from engine.core.text import display_width
from engine.dragon.guide import LEGEND
from engine.registry import load_game
from ladder.cli import app

runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def test_one_dragon_board_notation_and_the_legend_explains_the_full_board():
    state = load_game("dragon", players=2).new_initial_state(3)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    full, compact = str(state), state.compact_str(0)
    assert "[#" not in full and " -," not in full and not full.rstrip().endswith("-")
    assert re.search(r"palace 1 \(\d floors?\): \w", full)
    assert re.search(r"palace 1 \(\d floors?\): \w", compact)
    for label in ("Events:", "Persons on display:", "track", "Now:", "palace N (F floors)"):
        assert label in LEGEND
    for line in full.splitlines():
        label = line.strip().split(":")[0]
        if ":" not in line or "," in label:  # a line's continuation
            continue
        label = re.sub(r"\d+", "N", label).split(" (")[0].split(" [")[0]
        if label.startswith("Player N"):
            label = "Player N"
        assert label.split()[0] in LEGEND, line


def test_the_resume_command_is_the_one_that_started_tianti_on_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [".venv/bin/tianti", "play"])
    monkeypatch.setattr("shutil.which", lambda name: None)  # make play: not on the PATH
    result = runner.invoke(app, ["play", "dragon", "--seed", "3", "-l", "1"], input="quit\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    hint = next(line for line in lines if line.startswith("resume it with:"))
    assert re.fullmatch(r"resume it with: \.venv/bin/tianti play --load "
                        r"dragon-[\d-]+\.json", hint), hint
    assert [line for line in lines if display_width(line) > 80 and len(line.split()) > 1] == []
    name = hint.split()[-1]
    again = runner.invoke(app, ["play", "--load", name], input="quit\n")
    assert again.exit_code == 0, again.output
    assert "Starting draft" in again.output and f"tianti play --load {name}" in again.output
    assert sorted(p.name for p in (tmp_path / "data" / "saves").iterdir()) == [name]
