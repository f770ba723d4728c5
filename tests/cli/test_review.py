"""`tianti review` through CliRunner: 80 columns, --json, the cache, the sources, the errors,
and the offer at the end of `tianti play`."""
from __future__ import annotations

import json
import os
import random
import time

import pytest
from typer.testing import CliRunner

from ai.bots import make_bot
from engine.core.text import display_width
from ladder.cli import app
from tests.cli.errors import error_message
from ladder.table.play import PlaySession
from ladder.review import GameReview

runner = CliRunner()
FAST = ["--iterations", "60", "--workers", "1"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def played(game: str, players: int, seed: int, path, moves: int = 10**6):
    """A `tianti play` save of a game between the person (seat 0, moves by a seeded
    heuristic bot) and heuristic opponents."""
    s = PlaySession.new(game, {"players": players}, 0,
                        ["heuristic(seed=1)"] if players > 1 else [], seed)
    me = make_bot("heuristic(seed=2)")
    rng = random.Random(seed)
    while not s.state.is_terminal() and len(s.log) < moves:
        s.run_bots()
        if s.state.is_terminal():
            break
        s.play(me.step(s.state.resample_from_infostate(0, rng.randrange(1 << 62))))
    return s.save(path)


def review(*args: str):
    return runner.invoke(app, ["review", *args])


def test_a_save_reviewed_at_80_columns(tmp_path):
    save = played("dragon", 2, 3, tmp_path / "g.json")
    result = review(str(save), *FAST)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Review of P0 (you) in In the Year of the Dragon" in out
    assert "Accuracy" in out and "month 12" in out and "Where the chance went" in out
    assert all(display_width(line) <= 80 for line in out.splitlines())


def test_an_unfinished_game_is_reviewed_so_far(tmp_path):
    save = played("mount-tai", 2, 3, tmp_path / "g.json", moves=30)
    result = review(str(save), *FAST)
    assert result.exit_code == 0, result.output
    assert "The game is not finished" in result.stdout
    assert "the last estimate" in result.stdout


def test_the_last_play_game_is_the_default_and_all_lists_every_decision(tmp_path, data_dir):
    played("dragon", 2, 3, data_dir / "saves" / "dragon-old.json")
    newest = played("mount-tai", 1, 4, data_dir / "saves" / "mount-tai-new.json")
    os.utime(newest, (time.time() + 5, time.time() + 5))
    result = review(*FAST, "--all")
    assert result.exit_code == 0, result.output
    assert "in Mount Tai, solo" in result.stdout and "chance to reach the goal" in result.stdout
    assert "Every decision" in result.stdout
    assert all(display_width(line) <= 80 for line in result.stdout.splitlines())


def test_json_round_trips_and_the_cache_makes_the_second_review_instant(tmp_path,
                                                                        monkeypatch):
    save = played("dragon", 2, 5, tmp_path / "g.json")
    first = review(str(save), *FAST, "--json")
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    r = GameReview.from_dict(data)
    assert r.to_dict() == data and r.seat == 0 and r.decisions
    assert {d.verdict for d in r.decisions} <= {None, "inaccuracy", "mistake", "blunder"}

    import ladder.review.game_review as game_review

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(game_review, "estimate_all", no_search)
    again = review(str(save), *FAST, "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == data
    assert "from the cache" in again.stderr
    other = review(str(save), "--iterations", "61", "--workers", "1", "--json")
    assert other.exit_code != 0       # other settings: not cached, so it must search


def test_a_stored_game_needs_its_seat(tmp_path):
    db = tmp_path / "t.db"
    run = runner.invoke(app, ["tournament", "run", "-g", "dragon", "-p", "2", "--bot",
                              "heuristic", "--bot", "random", "--deals", "1", "--db", str(db),
                              "--seed", "1", "--workers", "1"])
    assert run.exit_code == 0, run.output
    missing = review("1", "1", "--db", str(db), *FAST)
    assert missing.exit_code == 2
    assert "--seat N" in error_message(missing)
    ok = review("1", "1", "--db", str(db), "--seat", "1", *FAST)
    assert ok.exit_code == 0, ok.output
    assert "Review of P1" in ok.stdout


@pytest.mark.parametrize("args,message", [
    (["7", "1"], "there is no game 1"),
    (["1", str(2**70)], "there is no game"),
    (["x", "1"], "RUN must be a run's number"),
    (["g.json", "--seat", "5"], "--seat 5 is out of range"),
    (["nothing.json"], "no such file"),
    (["g.json", "--seconds", "1", "--iterations", "5"], "not both"),
    (["g.json", "--reviewer", "heuristic"], "does not search"),
    (["g.json", "--workers", "0"], "--workers must be at least 1"),
    (["12"], "not a file"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, data_dir, args, message):
    played("dragon", 2, 3, tmp_path / "g.json", moves=30)
    db = tmp_path / "empty.db"
    from ladder.tournament.store import Store

    Store(db).close()
    before = sorted(p.name for p in data_dir.rglob("*"))
    saved = (tmp_path / "g.json").read_text()
    args = [str(tmp_path / a) if a.endswith(".json") else a for a in args]
    budget = [] if "--iterations" in args else ["--iterations", "20"]
    result = review(*args, "--db", str(db), *budget)
    assert result.exit_code == 2, result.output
    assert message in error_message(result)
    assert sorted(p.name for p in data_dir.rglob("*")) == before     # nothing cached
    assert (tmp_path / "g.json").read_text() == saved


def test_a_missing_store_is_not_created(tmp_path):
    result = review("1", "1", "--db", str(tmp_path / "none.db"), *FAST)
    assert result.exit_code == 2 and "there is no store at" in result.stderr
    assert not (tmp_path / "none.db").exists()


def test_no_play_game_yet():
    result = review(*FAST)
    assert result.exit_code == 2
    assert "no `tianti play` game to review" in result.stderr


def test_plot_writes_a_picture(tmp_path):
    pytest.importorskip("matplotlib")
    save = played("dragon", 2, 3, tmp_path / "g.json", moves=40)
    out = tmp_path / "chance.png"
    result = review(str(save), *FAST, "--plot", str(out))
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 1000 and "chart written" in result.stdout
    bad = review(str(save), *FAST, "--plot", str(tmp_path / "no" / "x.png"))
    assert bad.exit_code == 2 and "does not exist" in bad.stderr


def test_play_offers_the_review_at_the_end(tmp_path, monkeypatch):
    import ladder.cli.review as cli_review

    monkeypatch.setattr(cli_review, "DEFAULT_ITERATIONS", 40)
    result = runner.invoke(app, ["play", "dragon", "-p", "2", "--seed", "2", "--opponent",
                                 "random(seed=1)", "--db", str(tmp_path / "db.sqlite")],
                           input=_answers_then("review"))
    assert result.exit_code == 0, result.output[-2000:]
    out = result.output
    assert "r (or review), Enter: review" in out
    assert "Review of P0 (you)" in out and "Accuracy" in out
    assert out.index("The ranking:") < out.index("Review of P0 (you)")
    assert "Review it again" in out and " review " in out.split("Review it again")[1]


def test_play_leaves_after_the_game_on_any_other_answer(tmp_path):
    result = runner.invoke(app, ["play", "dragon", "-p", "2", "--seed", "2", "--opponent",
                                 "random(seed=1)", "--db", str(tmp_path / "db.sqlite")],
                           input=_answers_then("") + "review\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert "r (or review), Enter: review" in result.output
    assert "Review of P0" not in result.output


def _answers_then(word: str) -> str:
    """"1" at each of the person's prompts of the game `play` plays above (decisions with a
    single choice are played without asking), then `word` at the prompt after it."""
    s = PlaySession.new("dragon", {"players": 2}, 0, ["random(seed=1)"], 2)
    asked = 0
    while True:
        s.run_bots()
        if s.state.is_terminal():
            break
        asked += len(s.choices()) > 1
        s.choose(s.choices()[0].action)
    return "1\n" * asked + word + "\n"


def test_two_default_reviews_with_the_same_seed_are_identical(tmp_path, monkeypatch):
    """The default budget is iterations, not time: the same game and seed, the same review
    (only the time it took differs)."""
    import ladder.cli.review as cli_review

    monkeypatch.setattr(cli_review, "DEFAULT_ITERATIONS", 300)
    save = played("dragon", 2, 3, tmp_path / "g.json", moves=60)
    runs = [review(str(save), "--workers", "1", "--no-cache", "--json") for _ in range(2)]
    assert all(r.exit_code == 0 for r in runs), runs[0].output
    one, two = (json.loads(r.stdout) for r in runs)
    assert one["settings"]["iterations"] == 300 and one["settings"]["seconds"] == 0
    one.pop("seconds"), two.pop("seconds")
    assert one == two
    other = json.loads(review(str(save), "--workers", "1", "--no-cache", "--json",
                              "--seed", "1").stdout)
    assert [d["before"] for d in other["decisions"]] != [d["before"] for d in one["decisions"]]


def test_one_numbering_complete_then_lines_and_cut_choices(tmp_path):
    """The seat's decisions are 1..N in the largest drops and in --all; --all ends a cut line
    with "…"; the then: lines hold every event of the seat to the end of the month."""
    save = played("dragon", 2, 3, tmp_path / "g.json")
    out = review(str(save), *FAST, "--all", "--worst", "40", "--json")
    r = GameReview.from_dict(json.loads(out.stdout))
    assert [d.index for d in r.decisions] == list(range(1, len(r.decisions) + 1))
    text = review(str(save), *FAST, "--all", "--worst", "40").stdout
    lines = text.splitlines()
    listed = lines[lines.index("Every decision (before -> after; the better choice in "
                               "brackets):") + 1:]
    assert [int(line.split()[0]) for line in listed] == [d.index for d in r.decisions]
    assert any(line.endswith("…") for line in listed)
    assert all(display_width(line) <= 80 for line in lines)
    for d in r.worst(40):
        assert f"Decision {d.index} ({d.when()}): {d.verdict}" in text
    # the month's scoring whole: each of the seat's scoring events of that month is a line
    from engine.core.state import State
    from ladder.review.sources import from_file
    from ladder.table.narrate import seen_events

    src = from_file(save)
    truth = State.from_record(src.record)
    d = [d for d in r.decisions if d.when() == "month 1"][-1]
    month_end = next(i for i in range(d.move, truth.move_number())
                     if any(e.kind == "month" for e in truth.events(i)))
    mine = [e.text for i in range(d.move, month_end + 1) for e in seen_events(truth, i, 0)
            if e.seat == 0]
    assert sum("month scoring" in t for t in mine) >= 3 and d.followed == mine


def test_a_level_is_named_by_its_level_not_its_spec(tmp_path):
    from ai.levels import level_spec

    s = PlaySession.new("dragon", {"players": 2}, 0, [level_spec("dragon", 3)], 3)
    me = make_bot("heuristic(seed=2)")
    while not s.state.is_terminal() and len(s.log) < 20:
        s.run_bots()
        if not s.state.is_terminal():
            s.play(me.step(s.state.resample_from_infostate(0, len(s.log))))
    save = s.save(tmp_path / "g.json")
    out = review(str(save), *FAST).stdout
    assert "against P1 level 3 (search 30)." in " ".join(out.split())
    assert "iterations=" not in out


def test_the_closing_hint_names_the_command_and_plot_only_with_matplotlib(tmp_path,
                                                                          monkeypatch):
    import importlib.util

    import ladder.cli.play as play
    from ladder.cli.review import again_hint

    save = tmp_path / "g.json"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(play, "program", lambda: ".venv/bin/tianti")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    lines = again_hint(save)
    assert "  .venv/bin/tianti review g.json" in lines
    assert "--plot" not in lines[0] and "matplotlib" in " ".join(lines)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object())
    lines = again_hint(save)
    assert "--plot" in lines[0] and lines[1] == "  .venv/bin/tianti review g.json"
    assert all(display_width(line) <= 80 for line in lines)
