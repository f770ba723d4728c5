"""`tianti tournament`, `tianti ladder`, `tianti replay` and `tianti bots` through the CLI."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import Result
from typer.testing import CliRunner

from engine.core.state import State
from ladder.cli import app

runner = CliRunner()
BOTS = "python:tests.ladder.bad_bots:"


def tianti(*args: object, input: str | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "cli.db"
    result = tianti("tournament", "run", "--db", path, "-p", 3, "-b", "rand=random",
                    "-b", f"first={BOTS}first", "-b", f"raises={BOTS}raises(after=4)",
                    "--deals", 2, "--seatings", "rotations", "--seed", 4, "--workers", 1,
                    "--label", "cli test")
    assert result.exit_code == 0, result.output
    assert "run 1: 6 games of dragon with 3 players (2 deals x 3 seatings), seed 4" in result.output
    assert "run 1 finished: 6 of 6 games stored" in result.output
    assert "games/min" in result.output  # the progress bar's rate (on stderr)
    return path


def test_help_lists_the_new_commands() -> None:
    result = tianti("--help")
    for command in ("tournament", "ladder", "replay", "bots"):
        assert command in result.output
    for sub, commands in (("tournament", ("run", "resume", "list", "show")),
                          ("ladder", ("show", "recompute", "export", "h2h", "plot"))):
        result = tianti(sub, "--help")
        assert result.exit_code == 0
        for command in commands:
            assert command in result.output


def test_bots_lists_the_registered_bots_and_their_options() -> None:
    result = tianti("bots", "--json")
    assert result.exit_code == 0
    listing = {b["name"]: b for b in json.loads(result.stdout)}
    assert "random" in listing and "seed" in listing["random"]["options"]
    text = tianti("bots")
    assert "random: Plays a uniformly random legal action." in text.output
    assert "python:MODULE:FACTORY" in text.output


def test_list_and_show(db: Path) -> None:
    listed = tianti("tournament", "list", "--db", db)
    assert listed.exit_code == 0
    assert "finished" in listed.output and "6/6" in listed.output and "[cli test]" in listed.output
    runs = json.loads(tianti("tournament", "list", "--db", db, "--json").stdout)
    assert runs[0]["done"] == runs[0]["planned"] == 6 and runs[0]["errors"] == 6
    shown = tianti("tournament", "show", 1, "--db", db, "--games")
    assert shown.exit_code == 0, shown.output
    assert "progress  6 of 6 games stored, 0 missing" in shown.output
    assert "raises error at decision" in shown.output
    data = json.loads(tianti("tournament", "show", 1, "--db", db, "--json", "--games").stdout)
    assert len(data["games"]) == 6 and data["missing"] == 0
    assert {f["bot"] for f in data["faults"]} == {"raises"}
    standings = {s["bot"]: s for s in data["standings"]}
    assert standings["raises"]["faults"] == 6
    unknown = tianti("tournament", "show", 9, "--db", db)
    assert unknown.exit_code == 2 and "there is no run 9" in unknown.output and "recent runs: 1" in unknown.output


def test_ladder_show_in_every_format(db: Path) -> None:
    table = tianti("ladder", "show", "--db", db)
    assert table.exit_code == 0, table.output
    lines = table.output.splitlines()
    assert lines[0] == "dragon, 3 players"
    assert lines[1].split() == ["rank", "bot", "mu", "σ", ">next", "games", "wins", "%",
                                "(95%)", "mean", "place", "errors"]
    wide = tianti("ladder", "show", "--db", db, "--wide").output.splitlines()
    assert wide[1].split() == ["rank", "bot", "mu", "sigma", ">next", "mu-3σ", "games", "wins", "wins",
                               "%", "(95%)", "mean", "place", "errors", "mean", "score"]
    rows = list(csv.DictReader(io.StringIO(tianti("ladder", "show", "--db", db, "--format", "csv").stdout)))
    assert [r["rank"] for r in rows] == ["1", "2", "3"]
    assert {r["bot"] for r in rows} == {"rand", "first", "raises"}
    assert all(r["games"] == "6" for r in rows)
    (pool,) = json.loads(tianti("ladder", "show", "--db", db, "--format", "json").stdout)
    assert pool["game"] == "dragon" and pool["players"] == 3
    by_bot = {r["bot"]: r for r in pool["rows"]}
    assert by_bot["raises"]["errors"] == 6
    for r in pool["rows"]:
        assert r["conservative"] == pytest.approx(r["mu"] - 3 * r["sigma"])
        assert 1 <= r["mean_place"] <= 3 and r["mean_place_se"] >= 0
    assert tianti("ladder", "show", "--db", db, "--game", "mount-tai").exit_code == 2
    bad = tianti("ladder", "show", "--db", db, "--format", "xml")
    assert bad.exit_code == 2 and "xml" in bad.output


def test_head_to_head(db: Path) -> None:
    result = tianti("ladder", "h2h", "--db", db)
    assert result.exit_code == 0, result.output
    assert "(6)" in result.output
    (table,) = json.loads(tianti("ladder", "h2h", "--db", db, "--format", "json").stdout)
    for pair in table["pairs"]:
        assert pair["above"] + pair["below"] + pair["level"] == 6


def test_export_writes_records_that_replay(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = tianti("ladder", "export", "--db", db, "--out", out)
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 6
    for line in lines:
        game = json.loads(line)
        state = State.from_record(game["record"])
        assert state.scores() == [s["score"] for s in game["seats"]]
        assert len(game["move_times"]) == len(game["record"]["actions"])
    assert len(tianti("ladder", "export", "--db", db, "--run", 2).stdout.splitlines()) == 0


def test_recompute(db: Path) -> None:
    before = json.loads(tianti("ladder", "show", "--db", db, "--format", "json").stdout)
    result = tianti("ladder", "recompute", "--db", db)
    assert result.exit_code == 0 and "rated 6 games" in result.output
    assert json.loads(tianti("ladder", "show", "--db", db, "--format", "json").stdout) == before


def test_replay_steps_through_a_game(db: Path) -> None:
    games = json.loads(tianti("tournament", "show", 1, "--db", db, "--json", "--games").stdout)["games"]
    faulted = next(g for g in games if g["ranks"][g["seats"].index("raises")] == 2)
    result = tianti("replay", 1, faulted["game"], "--db", db, "--no-board")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "== Month 12: " in out and "== The starting draft" in out
    assert "End of month 12: " in out and "Month 12 scoring" in out and "The ranking:" in out
    assert "raises lost by error: RuntimeError: this bot always fails here" in out
    assert out.count(" points") == 3
    boards = tianti("replay", 1, faulted["game"], "--db", db)
    assert "game over" in boards.output
    stepped = tianti("replay", 1, faulted["game"], "--db", db, "--step", input="\n\nq\n")
    assert stepped.exit_code == 0 and "month 2" in stepped.output and "month 4" not in stepped.output
    wrong = tianti("replay", 2, faulted["game"], "--db", db)
    assert wrong.exit_code == 2 and "belongs to run 1, not run 2" in wrong.output


def test_plot_draws_a_png(db: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "ratings.png"
    result = tianti("ladder", "plot", "--db", db, "--out", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    nowhere = tianti("ladder", "plot", "--db", db, "--out", tmp_path / "no" / "x.png")
    assert nowhere.exit_code == 2 and "does not exist" in nowhere.output


def test_resuming_a_complete_run_does_nothing(db: Path) -> None:
    result = tianti("tournament", "resume", 1, "--db", db)
    assert result.exit_code == 0 and "run 1 is complete: 6 of 6 games stored" in result.output


def test_read_commands_on_a_missing_store_say_so(tmp_path: Path) -> None:
    for args in (("ladder", "show"), ("tournament", "list"), ("replay", 1, 1)):
        result = tianti(*args, "--db", tmp_path / "none.db")
        assert result.exit_code == 2
        assert "there is no store at" in result.output
    assert not (tmp_path / "none.db").exists()
