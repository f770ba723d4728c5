"""Errors within 80 columns (issue 50): the typical mistakes of a newcomer each print one line
of at most 80 columns that still says what was meant, and `fit_error` shortens a long message
without losing what it says. (tests/cli/conftest.py checks every error of every CLI test.)"""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.core.text import display_width
from ladder.cli import app
from ladder.cli.errorline import fit_error, short_path

runner = CliRunner()


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


# Typical mistakes, and what the one line must still say.
MISTAKES = [
    (["play", "dargon"], "did you mean dragon?"),
    (["play", "--sead", "3"], "did you mean --seed?"),
    (["plya"], "did you mean 'play'?"),
    (["tournament", "lst"], "did you mean 'list'?"),
    (["play", "--seat", "x"], "'--seat'"),
    (["replay"], "missing argument"),
    (["watch", "-b", "strnog"], "unknown bot 'strnog' (did you mean strong?); see `tianti bots`"),
    (["watch", "-b", "genius"], "see `tianti bots`"),
    (["watch", "-b", "heuristic(epsilom=0.1)"], "did you mean epsilon?"),
    (["watch", "-o", "great_wal=true"], "did you mean great_wall?"),
    (["watch", "-o", "dragons=9"], "unknown option 'dragons'"),
    (["watch", "dragon", "-p", "7"], "'players' is 7"),
    (["play", "dragon", "-p", "2", "--level", "9"], "from 1 (beginner) to 6 (strong)"),
    (["play", "mount-tai", "-p", "2", "--level", "5"], "from 1 (beginner) to 4 (strong)"),
    (["play", "dragon", "--think", "abc"], "'--think'"),
    (["rules", "dragon", "dance"], "no topic or entry 'dance'"),
    (["bench", "search", "--rounds", "0"], "'--rounds'"),
    (["ladder", "show", "--format", "xml"], "'xml'"),
    (["review", "12"], "12 is not a file"),
]


@pytest.mark.parametrize("args, says", MISTAKES, ids=lambda a: " ".join(a) if isinstance(a, list)
                         else None)
def test_a_typical_mistake_is_one_line_within_80_columns(args, says):
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert display_width(lines[0]) <= 80, lines[0]
    assert says in lines[0], lines[0]


def test_a_missing_save_under_a_long_home_is_shown_from_the_home(tmp_path, monkeypatch):
    home = tmp_path / "home-of-someone-with-a-rather-long-user-name"
    monkeypatch.setenv("HOME", str(home))
    missing = home / ".config" / "tianti" / "saves" / "dragon-20261129-130201.json"
    result = runner.invoke(app, ["play", "--load", str(missing)])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: no saved game at ~/.config/tianti/saves/dragon-20261129-130201.json\n")


def test_short_path_names_the_same_file(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert short_path(tmp_path / "home" / "a" / "b.db") == "~/a/b.db"
    assert short_path(tmp_path / "x" / "c.db") == "x/c.db"
    assert short_path("/elsewhere/d.db") == "/elsewhere/d.db"
    assert short_path("relative/e.db") == "relative/e.db"


def test_fit_error_leaves_a_message_that_fits_as_it_is():
    message = "there is no store at /tmp/x.db (run a tournament first, or give --db)"
    assert fit_error(message) == message


def test_fit_error_elides_a_long_path_but_never_one_inside_a_bot_spec():
    far = "/srv/" + "very-deep-folder/" * 4
    fitted = fit_error(f"the bots file {far}bots.toml: bots.x holds control characters")
    assert fitted == "the bots file …/bots.toml: bots.x holds control characters"
    spec = f"python:os:makedirs(name={far}made)"
    fitted = fit_error(f"run 1 names bots that run code (r={spec}); name each again with --bot "
                       f"NAME=SPEC or pass --trust")
    assert spec in " ".join(fitted.split()), fitted  # shown whole: the user judges it
    wide = [line for line in ("error: " + fitted).splitlines() if display_width(line) > 80]
    assert wide == ["       (r=" + spec + ");"], wide  # on a line of its own, unbroken


def test_fit_error_caps_a_list_and_drops_the_help_pointer_before_breaking_a_line():
    fitted = fit_error("no topic or entry 'dance'; topics: overview, setup, month, actions, "
                       "persons, events, super-events, wall, scoring")
    assert fitted.startswith("no topic or entry 'dance'; topics: overview, setup, ")
    assert fitted.endswith(", …") and display_width("error: " + fitted) <= 80
    fitted = fit_error("invalid value for '--seat': should be a valid integer "
                       "(try 'tianti play --help')")
    assert fitted == "invalid value for '--seat': should be a valid integer"


def test_fit_error_breaks_what_it_cannot_shorten_without_losing_a_word():
    message = ("bot 'x': bot 'ismcts': option 'iterations' is 1000000000000000000, more than "
               "the most allowed (1e+09)")
    fitted = fit_error(message)
    lines = ("error: " + fitted).splitlines()
    assert len(lines) == 2 and lines[1].startswith("       ")
    assert all(display_width(line) <= 80 for line in lines)
    assert " ".join(fitted.split()) == message
