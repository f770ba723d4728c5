"""The smaller slips of a new user's first ten minutes (issue 34): one Dragon board notation
that `legend` explains, a resume command that works after `make play`, one-line usage errors,
"did you mean", and the screens of watch, replay, ladder and tournament."""
from __future__ import annotations

import random
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


def test_the_legend_names_every_label_of_both_boards_over_a_whole_game():
    state = load_game("dragon", players=3, great_wall=True, super_events=True).new_initial_state(4)
    rng = random.Random(4)
    labels = set()
    while True:
        for board in (str(state), state.compact_str(0)):
            for line in board.splitlines():
                label = line.strip().split(":")[0]
                if ":" in line and "," not in label:  # not a line's continuation
                    labels.add(re.sub(r"\d+", "N", label).split(" (")[0])
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert {"Wall", "wall tiles left", "super event in month N", "Final"} <= labels
    for label in labels:
        if label not in ("N", "PN", "PN you"):  # palace N's continuation, a player's line
            assert label.split()[0] in LEGEND, label
    for words in ("Events by month", "super event in month 7", "Great Wall", "Wall:",
                  "wall tiles left", "<- to move", "track T", "Final:", "palace N (F floors)",
                  "Persons on display", "Now:"):
        assert words in LEGEND, words
    assert max(map(display_width, LEGEND.splitlines())) <= 80


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


@pytest.mark.parametrize("args, message", [
    (["play", "--foo"], "error: no such option --foo"),
    (["play", "--sead", "3"], "error: no such option --sead; did you mean --seed? (try '"),
    (["plya"], "error: no such command 'plya'; did you mean 'play'?"),
    (["tournament", "lst"], "error: no such command 'lst'; did you mean 'list'?"),
    (["play", "--seat", "x"], "error: invalid value for '--seat'"),
    (["replay"], "error: missing argument 'run' (try '"),
    (["play", "dargon"], "error: unknown game 'dargon' (did you mean dragon?)"),
    (["watch", "-b", "heurstic"], "error: unknown bot 'heurstic' (did you mean heuristic?)"),
    (["watch", "-b", "heuristic(epsilom=0.1)"], "has no option 'epsilom' (did you mean "
                                                "epsilon?)"),
    (["watch", "-o", "great_wal=true"], "unknown option 'great_wal' for dragon (did you mean "
                                        "great_wall?)"),
])
def test_usage_errors_are_one_line_with_exit_2_and_say_what_was_meant(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert "\x1b" not in result.output and "─" not in result.output


def test_help_keeps_its_look_and_no_arguments_still_shows_it():
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output and "--seed" in result.output
    result = runner.invoke(app, [])
    assert result.exit_code == 2 and "Usage:" in result.output and "error:" not in result.output


def test_plot_help_names_the_extra_that_installs_matplotlib():
    result = runner.invoke(app, ["ladder", "plot", "--help"])
    one = " ".join(result.output.split())
    assert result.exit_code == 0 and "pip install 'tianti[plot]' (`make test` installs it)" in one


def test_help_paragraphs_are_wrapped_to_the_terminal_not_where_the_source_breaks():
    result = runner.invoke(app, ["replay", "--help"])
    prose = result.output.split("Arguments")[0].splitlines()
    assert max(map(display_width, prose)) <= 80
    assert " they " in " ".join(prose) and not any(line.strip() == "they" for line in prose)
    assert len([line for line in prose if 0 < len(line.strip()) < 40]) <= 2, prose


def test_replay_of_a_played_game_does_not_time_the_persons_moves(tmp_path):
    db = tmp_path / "ladder.db"
    played = runner.invoke(app, ["play", "dragon", "-p", "2", "--seed", "2", "--db", str(db),
                                 "--opponent", "random(seed=1)"], input="1\n" * 400)
    assert played.exit_code == 0, played.output[-2000:]
    result = runner.invoke(app, ["replay", "1", "1", "--db", str(db), "--no-board"])
    assert result.exit_code == 0, result.output
    mine = [line for line in result.output.splitlines() if re.match(r"\s*P0 human: ", line)]
    theirs = [line for line in result.output.splitlines() if re.match(r"\s*P1 random", line)]
    assert mine and theirs
    assert not [line for line in mine if "µs" in line or " s)" in line or "ms)" in line]
    assert any(re.search(r"\((\d+ µs|[\d.]+ ms|[\d.]+ s)\)$", line) for line in theirs)


@pytest.mark.parametrize("args, first", [
    (["dragon"], "In the Year of the Dragon: 4 players, seed 1"),
    (["dragon", "-p", "3", "-o", "great_wall=true"],
     "In the Year of the Dragon: 3 players, seed 1; great wall on"),
    (["mount-tai", "-p", "1", "-o", "challenge=3"], "Mount Tai: 1 player, seed 1; challenge 3"),
])
def test_watch_starts_with_a_readable_header(args, first):
    result = runner.invoke(app, ["watch", *args, "--seed", "1", "--no-board"])
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.splitlines()[0] == first
    assert "=False" not in result.output and "(players=" not in result.output


def test_tournament_list_gives_a_sequential_tests_verdict(tmp_path):
    db = tmp_path / "s.db"
    result = runner.invoke(app, ["tournament", "run", "--db", str(db), "-p", "2", "-b",
                                 "h=heuristic", "-b", "r=random", "--deals", "40", "--seed", "1",
                                 "--workers", "1", "--sprt", "0,100", "--json"])
    assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["tournament", "list", "--db", str(db)])
    row = listed.output.splitlines()[1]
    assert re.match(r"\s+1\s+accepted H1\s+\d+/80\s", row), row
    assert "finished" not in row


def test_export_of_a_missing_run_is_a_one_line_error(tmp_path):
    db = tmp_path / "e.db"
    made = runner.invoke(app, ["tournament", "run", "--db", str(db), "-p", "2", "-b", "a=random",
                               "-b", "b=random", "--deals", "1", "--seed", "1", "--workers", "1"])
    assert made.exit_code == 0, made.output
    out = tmp_path / "games.jsonl"
    result = runner.invoke(app, ["ladder", "export", "--run", "99", "--db", str(db),
                                 "--out", str(out)])
    assert result.exit_code == 2
    shown = db if len(f"error: there is no run 99 in {db}; recent runs: 1") <= 80 else "…/e.db"
    assert result.output.splitlines() == [
        f"error: there is no run 99 in {shown}; recent runs: 1"], result.output
    assert not out.exists()
    good = runner.invoke(app, ["ladder", "export", "--run", "1", "--db", str(db)])
    assert good.exit_code == 0 and len(good.output.splitlines()) == 2


def test_a_usage_error_points_at_the_help_of_tianti_as_it_was_started(monkeypatch):
    monkeypatch.setattr(sys, "argv", [".venv/bin/tianti", "play", "--xyzzy", "3"])
    monkeypatch.setattr("shutil.which", lambda name: None)  # make play: not on the PATH
    result = runner.invoke(app, ["play", "--xyzzy", "3"])
    assert result.exit_code == 2
    assert result.output.strip().endswith("(try '.venv/bin/tianti play --help')"), result.output
