"""Play's leftovers (issue 50): `help` in one aligned column, no empty "next:" in the last
month, and amounts with their units."""
from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import engine
from engine.core.text import display_width
from engine.dragon import events
from ladder.cli import app
from ladder.cli.play import HELP_ROWS, help_text

runner = CliRunner()


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def _column_of(text: str) -> dict[str, int]:
    """Each command row's description column in `help`'s text."""
    columns = {}
    for line in text.splitlines():
        for command, what in HELP_ROWS:
            if line.startswith(f"  {command} ") and what.split()[0] in line:
                columns[command] = line.index(what.split()[0], len(command) + 2)
    return columns


@pytest.mark.parametrize("program", ["tianti", ".venv/bin/tianti",
                                     "/home/someone/src/tianti/.venv/bin/tianti"])
def test_help_rows_share_one_column_and_continue_under_it(program):
    text = help_text(program)
    columns = _column_of(text)
    assert set(columns) == {command for command, _ in HELP_ROWS}  # every row found
    assert len(set(columns.values())) == 1, columns  # log and save FILE included
    column = columns["log"]
    for line in text.splitlines()[1:-1]:
        assert line.startswith("  ") and (line[2] != " " or line.startswith(" " * column)), line
        assert display_width(line) <= 80 or len(line.split()) == 1, line
    assert f"{program} play --load FILE" in " ".join(text.split())


def test_help_at_the_prompt_is_the_aligned_text():
    result = runner.invoke(app, ["play", "dragon", "-p", "2", "-l", "1", "--seed", "1"],
                           input="help\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    start = out.index("Commands at any prompt:")
    block = out[start:out.index("explains the rules.", start)].splitlines()
    columns = _column_of("\n".join(block))
    assert len(columns) == len(HELP_ROWS) and len(set(columns.values())) == 1, block


def _first_board_lines(seed: int) -> dict[int, str]:
    """The first line of the compact board of each month of a random 2-player game."""
    state = engine.load_game("dragon", players=2).new_initial_state(seed=seed)
    rng = random.Random(seed)
    heads: dict[int, str] = {}
    while not state.is_terminal():
        snap = state.snapshot()
        if snap["phase"] not in ("draft", "start", "over"):
            heads.setdefault(snap["month"], state.compact_str(0).splitlines()[0])
        state.apply_action(rng.choice(state.legal_actions()))
    return heads


def test_the_last_month_has_no_empty_next():
    heads = _first_board_lines(3)
    assert sorted(heads) == list(range(1, 13))
    assert all(" | next: " in heads[m] for m in range(1, 12)), heads
    last = heads[12]
    assert "next:" not in last and last.startswith("Month 12 of 12, event: "), last
    assert last.endswith("(the last month)"), last


def test_the_dragon_festival_says_what_is_returned():
    assert events._vp_festival({"vp": 6, "fireworks": 3, "returned": 2}) == (
        "dragon festival: most fireworks (3 tiles), returns 2 tiles")
    assert events._vp_festival({"vp": 3, "fireworks": 1, "returned": 1}) == (
        "dragon festival: second most fireworks (1 tile), returns 1 tile")
