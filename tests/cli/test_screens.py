"""Every screen at 80 columns, bots by their short names, finite Elo bars, repeated benchmarks.

The screens run with COLUMNS=80 on a store holding a `tianti play` game against a level bot
(named by its long spec in the store), a two-bot run with a sequential test, and a run of
five bots with long names; every line printed must fit 80 columns, and the full specs must
still be in the --format json output."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from ai.levels import level_spec
from engine.core.text import display_width
from ladder.cli import app
from ladder.tournament.stats import elo_summary, elo_text

runner = CliRunner()
SEARCH_30 = level_spec("dragon", 3)  # ismcts(iterations=30,c=0.7,playout=heuristic,...)
LONG = "a_bot_with_a_rather_long_name_that_goes_on_and_on_to_sixty_col"


def tianti(*args: object, input: str | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=input, env={"COLUMNS": "80"})


def too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if display_width(line) > 80]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("screens") / "s.db"
    played = tianti("play", "dragon", "--level", 3, "--seed", 1, "--db", path,
                    "--save-to", path.parent / "game.json", input="1\n" * 600)
    assert played.exit_code == 0, played.output
    assert "P1 level 3 (search 30): " in played.output  # named by its level, not its spec
    assert SEARCH_30 not in played.output
    assert not too_wide(played.output)
    run = tianti("tournament", "run", "--db", path, "-p", 2, "-b", "r=ismcts(iterations=20)",
                 "-b", "h=heuristic", "--deals", 6, "--seed", 3, "--workers", 1,
                 "--sprt", "0,50", "--label", "a sequential test")
    assert run.exit_code == 0, run.output
    assert not too_wide(run.output), too_wide(run.output)
    bots = [f"{LONG[:60]}{i}=heuristic(epsilon=0.{i})" for i in range(1, 6)]
    run = tianti("tournament", "run", "--db", path, "-p", 5, *[a for b in bots for a in ("-b", b)],
                 "--deals", 1, "--seatings", "rotations", "--seed", 3, "--workers", 1)
    assert run.exit_code == 0, run.output
    assert not too_wide(run.output), too_wide(run.output)
    return path


SCREENS = [
    ("tournament", "list"),
    ("tournament", "show", 1, "--games"),
    ("tournament", "show", 2, "--games"),
    ("tournament", "show", 3, "--games"),
    ("ladder", "show"),
    ("ladder", "h2h"),
    ("replay", 1, 1),
    ("replay", 3, "first"),
]


@pytest.mark.parametrize("args", SCREENS, ids=[" ".join(map(str, a)) for a in SCREENS])
def test_every_screen_fits_80_columns(db: Path, args: tuple[object, ...]) -> None:
    if args[-1] == "first":  # the run's first game
        shown = json.loads(tianti("tournament", "show", args[1], "--db", db, "--json",
                                  "--games").stdout)
        args = (*args[:-1], shown["games"][0]["game"])
    result = tianti(*args, "--db", db)
    assert result.exit_code == 0, result.output
    assert result.output.strip()
    assert not too_wide(result.output), too_wide(result.output)


def test_games_fits_80_columns() -> None:
    result = tianti("games")
    assert result.exit_code == 0 and "great_wall" in result.output
    assert not too_wide(result.output), too_wide(result.output)


def test_bots_fits_80_columns_and_keeps_every_spec_in_json() -> None:
    result = tianti("bots")
    assert result.exit_code == 0
    assert not too_wide(result.output), too_wide(result.output)
    assert "level 3 (search 30)" in result.output
    # the spec is broken after its commas, every piece of it is there
    assert "".join(result.output.split()).count(SEARCH_30) == 1
    listing = json.loads(tianti("bots", "--json").stdout)
    assert {b["name"] for b in listing} >= {"random", "heuristic", "ismcts"}


def test_level_bots_are_named_by_their_level_and_the_json_keeps_the_spec(db: Path) -> None:
    shown = tianti("ladder", "show", "--db", db)
    assert "level 3 (search 30)" in shown.output and SEARCH_30 not in shown.output
    pools = json.loads(tianti("ladder", "show", "--db", db, "--json").stdout)
    assert SEARCH_30 in {r["bot"] for p in pools for r in p["rows"]}  # stored as it was
    wide = tianti("ladder", "show", "--db", db, "--wide")
    assert SEARCH_30 in wide.output and "mean score" in wide.output
    replay = tianti("replay", 1, 1, "--db", db)
    assert "P1 level 3 (search 30): " in replay.output and SEARCH_30 not in replay.output
    show = tianti("tournament", "show", 1, "--db", db)
    assert "level 3 (search 30) = ismcts(iterations=30," in show.output  # the spec in full
    data = json.loads(tianti("tournament", "show", 1, "--db", db, "--json").stdout)
    assert [SEARCH_30, SEARCH_30] in data["spec"]["bots"]


def test_long_names_are_cut_on_screen_and_whole_in_json(db: Path) -> None:
    shown = tianti("ladder", "show", "--db", db, "--players", 5)
    assert shown.exit_code == 0 and "…" in shown.output
    assert not too_wide(shown.output)
    rows = json.loads(tianti("ladder", "show", "--db", db, "--players", 5, "--json").stdout)[0]["rows"]
    assert {r["bot"] for r in rows} == {f"{LONG[:60]}{i}" for i in range(1, 6)}
    h2h = tianti("ladder", "h2h", "--db", db, "--players", 5)
    assert not too_wide(h2h.output), too_wide(h2h.output)
    # the names are too long for column heads: numbered columns, the rows name the bots
    assert h2h.output.splitlines()[1].split() == ["1", "2", "3", "4", "5"]
    assert "5  a_bot_with_a_rather_long_name_t…" in h2h.output
    csv_text = tianti("ladder", "h2h", "--db", db, "--players", 5, "--format", "csv").stdout
    assert f"{LONG[:60]}1" in csv_text


def test_the_progress_bar_keeps_the_llr_at_80_columns(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ladder.tournament.backends import make_backend
    from ladder.tournament.runner import play_run, start_run
    from ladder.tournament.schedule import TournamentSpec
    from ladder.tournament.sprt import SprtSpec
    from ladder.tournament.store import Store

    monkeypatch.setenv("COLUMNS", "80")
    with Store(db) as store:
        spec = TournamentSpec(game="dragon", options={"players": 2},
                              bots=(("r", "ismcts(iterations=20)"), ("h", "heuristic")),
                              deals=3, seed=5, sprt=SprtSpec.parse("0,50").to_dict())
        run_id = start_run(store, spec, "bar")
        out = io.StringIO()
        report = play_run(store, run_id, make_backend("local", 1, None, []), progress=True, out=out)
    assert report.played == 6
    frames = [f for f in out.getvalue().replace("\r", "\n").splitlines() if f.strip()]
    assert frames and all(display_width(f) <= 80 for f in frames), frames
    assert any("LLR" in f and "[-2.94, +2.94]" in f for f in frames), frames


def test_elo_bars_are_finite_with_one_sided_scores() -> None:
    low = elo_summary(2, 38, 0)
    assert low["elo"] == pytest.approx(-511.5, abs=0.05)
    assert low["elo_low"] == pytest.approx(-741.4, abs=0.05)
    assert low["elo_high"] == pytest.approx(-281.6, abs=0.05)
    assert low["error"] is not None and "inf" not in elo_text(low)
    assert low["los"] < 1e-6
    full = elo_summary(40, 0, 0)
    assert full["elo"] is None and full["elo_high"] is None
    assert full["elo_low"] == pytest.approx(407.0, abs=0.05)
    assert elo_text(full) == "+inf (at least +407.0)" and full["los"] > 1 - 1e-9
    assert elo_text(elo_summary(0, 40, 0)) == "-inf (at most -407.0)"
    even = elo_summary(44, 36, 0)  # near an even score: the usual ± of s ± 1.96 se
    assert elo_text(even).startswith("+34.9 ± ")
    assert elo_summary(10, 10, 20)["elo"] == 0.0
    # Wilson's interval is nearly symmetric in Elo: its half width is the "±"
    few = elo_summary(3, 1, 0)
    assert elo_text(few) == f"+190.8 ± {few['error']:.1f}"
    assert few["elo_low"] == pytest.approx(-146.7, abs=0.05)
    assert few["elo_high"] == pytest.approx(528.4, abs=0.05)


def test_bench_search_repeats_on_fixed_positions() -> None:
    args = ("bench", "search", "-p", 2, "--bot", "ismcts(iterations=200)", "--rounds", 3)
    first = json.loads(tianti(*args, "--json").stdout)
    again = json.loads(tianti(*args, "--json").stdout)
    assert list(first["positions"]) == ["opening", "midgame", "late"]
    for name, r in first["positions"].items():
        assert len(r["samples"]) == 3 and all(s["iterations"] == 200 for s in r["samples"])
        assert r["iterations_per_second_min"] <= r["iterations_per_second"] <= r["iterations_per_second_max"]
        assert (r["iterations_per_cpu_second_min"] <= r["iterations_per_cpu_second"]
                <= r["iterations_per_cpu_second_max"])
        assert r["cpu_seconds"] > 0 and r["wall_seconds"] > 0 and r["us_per_iteration"] > 0
        # the same positions every run: same move number and branching
        assert (r["move"], r["legal_actions"]) == (again["positions"][name]["move"],
                                                   again["positions"][name]["legal_actions"])
    assert first["positions"]["midgame"]["legal_actions"] >= 5
    assert first["positions"]["late"]["legal_actions"] >= 2
    table = tianti(*args)
    assert table.exit_code == 0 and not too_wide(table.output), too_wide(table.output)
    assert "per CPU s" in table.output and "µs an iteration" in table.output
    bad = tianti("bench", "search", "--rounds", 0)
    assert bad.exit_code == 2


def test_bench_playouts_repeats() -> None:
    result = json.loads(tianti("bench", "playouts", "-s", 0.05, "-r", 3, "--json").stdout)
    assert len(result["samples"]) == 3 and result["rounds"] == 3
    assert result["games_per_second_min"] <= result["games_per_second"] <= result["games_per_second_max"]
    assert result["cpu_seconds"] > 0
    table = tianti("bench", "playouts", "-s", 0.05, "-r", 2)
    assert table.exit_code == 0 and not too_wide(table.output), too_wide(table.output)
