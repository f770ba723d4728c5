"""The `tianti` command line, driven through typer's CliRunner."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from ladder.cli import app

runner = CliRunner()


def test_help_lists_the_commands():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("watch", "games", "bench"):
        assert command in result.output


def test_bench_playouts_json():
    result = runner.invoke(app, ["bench", "playouts", "--game", "dragon", "--players", "3",
                                 "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    for key in ("game", "players", "games_per_second", "decisions_per_game", "state_bytes"):
        assert key in data
    assert data["game"] == "dragon" and data["players"] == 3
    assert data["games"] > 0 and data["games_per_second"] > 0
    assert 100 < data["decisions_per_game"] < 200
    assert data["state_bytes"] <= 1024


def test_bench_playouts_text_with_expansions():
    result = runner.invoke(app, ["bench", "playouts", "-p", "2", "-s", "0.1",
                                 "-o", "great_wall=true", "-o", "super_event=tornado"])
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output


def test_bad_player_count_is_a_clear_error():
    result = runner.invoke(app, ["bench", "playouts", "--players", "7", "--seconds", "0.1"])
    assert result.exit_code == 2
    assert "'players' is 7; allowed: 2, 3, 4, 5" in result.output


def test_bad_game_option_is_a_clear_error():
    result = runner.invoke(app, ["watch", "dragon", "-o", "dragons=9"])
    assert result.exit_code == 2
    assert "unknown option 'dragons'" in result.output


def test_watch_plays_a_whole_game():
    result = runner.invoke(app, ["watch", "dragon", "--players", "3", "--seed", "5", "--no-board"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "month 12" in out and "draft" in out
    assert out.count(" points") == 3
    assert "game over" in out


def test_watch_unknown_bot():
    result = runner.invoke(app, ["watch", "dragon", "--bot", "genius"])
    assert result.exit_code == 2
    assert "unknown bot 'genius'" in result.output


def test_games_lists_options():
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    listing = json.loads(result.stdout)
    dragon = next(g for g in listing if g["name"] == "dragon")
    assert {o["name"] for o in dragon["options"]} >= {"players", "great_wall", "super_events"}
