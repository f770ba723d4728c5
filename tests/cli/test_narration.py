"""Narration (issue 11, item 1) and hints a person can read (item 5).

The rulebooks' worked examples, built with the engines' `_debug_*` hooks as
tests/dragon/test_events.py and tests/mount_tai/test_events.py build them, narrated through
ladder/table/narrate.py: the lines carry the rulebook's numbers. Whole games through the CLI
(`play`, `watch --no-board`, `replay`, the in-game `log`) at 80 columns: every automatic step
is narrated, a month's or round's header comes before its first move, no line is wider than
80 columns. The hint says what its % is, how long it searched and which moves are about equal.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.core.text import display_width
from engine.dragon import data as dragon_data
from ladder.cli import app
from ladder.table.hints import Hint, about_equal, meaning
from ladder.table.narrate import HEADER, DragonNarrator, Line, MountTaiNarrator, game_story, render
from ladder.table.play import HUMAN, PlaySession
from tests.dragon.helpers import blank_month, release, started
from tests.mount_tai.helpers import act, event_reward_example, new_game, seat

runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})
FAST = ["--opponent", "random(seed=1)", "--hint-bot", "ismcts(iterations=200)"]
ANNA, BEN, CLARA, DORA, EMIL = range(5)
RED, GREEN, YELLOW, BLUE = range(4)


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def play(args: list[str], lines: list[str]):
    return runner.invoke(app, ["play", *args], input="".join(l + "\n" for l in lines))


def too_wide(output: str) -> list[str]:
    """Lines over 80 columns, except a single unbreakable word (a file path) or the command
    that resumes a saved game (`tianti play --load PATH`, to be copied whole) on its own line."""
    return [line for line in output.splitlines()
            if display_width(line) > 80 and len(line.split()) > 1
            and not re.fullmatch(r"  \S*tianti play --load \S+", line)]


def text(lines: list[Line]) -> str:
    out = render(lines)
    assert all(display_width(line) <= 80 for line in out), out
    return "\n".join(out)


def flat(output: str) -> str:
    """Lines joined (narration wraps at 80 columns)."""
    return " ".join(output.split())


# -- the rulebook's worked examples, narrated ------------------------------------------------


def dragon_event(s, event: str, month: int = 5, tracks=None) -> tuple[DragonNarrator, str]:
    """Run month `month`'s event `event` on `s` and narrate what it did."""
    blank_month(s, month, event, tracks=tracks)
    narrator = DragonNarrator.for_state(s)
    before = len(s.events())  # the hooks add their events to the last step's
    s._debug_run_from("event")
    return narrator, text(narrator.step(s.events()[before:]))


def test_clara_tribute_pays_2_releases_2_then_decay():
    s = started(players=5)
    for i in range(5):
        s._debug_set_player(i, yuan=10, palaces=[(2, ["craftsman"]), (2, [])])
    s._debug_set_player(CLARA, yuan=2, palaces=[(3, ["craftsman", "young monk", "court lady"]),
                                                (1, ["young healer"])])
    narrator, out = dragon_event(s, "imperial tribute")
    assert out.splitlines()[0] == "  End of month 5: imperial tribute"
    assert "    P2 pays 2 yuan imperial tribute, 2 short: must release 2 persons (0 yuan" in out
    for other in (ANNA, BEN, DORA, EMIL):
        assert f"    P{other} pays 4 yuan imperial tribute (6 yuan left)" in out
    s.apply_action(release(0, "court lady"))
    out = text(narrator.step(s.events()))
    assert "P2 releases a court lady (from palace 1, imperial tribute), 1 more to" in out
    s.apply_action(release(1, "young healer"))
    out = text(narrator.step(s.events()))
    assert "P2 releases a young healer (from palace 2, imperial tribute)" in out
    # Then decay (Clara's emptied 1-floor palace is gone), the month's scoring, month 6.
    lines = out.splitlines()
    assert "  Decay: every empty palace loses a floor" in lines
    assert "    P2: palace 2 is gone" in lines and "    P0: palace 2 down to 1 floor" in lines
    assert lines.index("  Decay: every empty palace loses a floor") < next(
        i for i, l in enumerate(lines) if l.startswith("  Month 5 scoring"))
    assert "    P2 +1 VP: 1 palace (1 in all)" in lines
    assert lines[-6].startswith("== Month 6: ")


def test_dragon_festival_6_6_3_0():
    s = started(players=5)
    for i, fw in enumerate([2, 1, 3, 0, 3]):
        s._debug_set_player(i, score=0, fireworks=fw)
    _, out = dragon_event(s, "dragon festival")
    one = flat(out)
    assert ("Dragon festival: 2 players with the most fireworks (3) score 6 VP, 1 player "
            "with 2 score 3 VP") in one
    assert "P2 +6 VP dragon festival: most fireworks (3 tiles), returns 2 tiles (6 in all)" in one
    assert "P4 +6 VP dragon festival: most fireworks (3 tiles), returns 2 tiles (6 in all)" in one
    assert "P0 +3 VP dragon festival: second most fireworks (2 tiles), returns 1 tile (3 in all)" in one
    assert "P1 +" not in one.split("Month 5 scoring")[0]
    assert "P3 +" not in one.split("Month 5 scoring")[0]


def test_mongol_invasion_3_3_2_1_1():
    s = started(players=5)
    warriors = {ANNA: ["old warrior", "young warrior"], BEN: ["young warrior", "old warrior"],
                CLARA: ["old warrior"], DORA: ["young warrior"], EMIL: ["young warrior"]}
    for i in range(5):
        s._debug_set_player(i, score=0, palaces=[(3, warriors[i] + ["craftsman"])])
    _, out = dragon_event(s, "mongol invasion", tracks=[50, 40, 30, 20, 10])
    assert "  End of month 5: mongol invasion" in out
    for who, vp, helmets in ((0, 3, "3 helmets"), (1, 3, "3 helmets"), (2, 2, "2 helmets"),
                             (3, 1, "1 helmet"), (4, 1, "1 helmet")):
        assert f"    P{who} +{vp} VP Mongol invasion: {helmets} ({vp} in all)" in out
    assert "P3 has the fewest helmets (1) against the Mongols: must release 1" in out
    assert "P4 has the fewest helmets (1) against the Mongols: must release 1" in out


def test_month_scoring_3_plus_2_plus_2_is_one_line():
    s = started(players=5)
    s._debug_set_player(ANNA, score=0, privileges=(0, 1), palaces=[
        (2, ["court lady", "craftsman"]), (2, ["court lady"]), (1, ["young monk"])])
    _, out = dragon_event(s, "peace")
    lines = out.splitlines()
    at = lines.index("  Month 5 scoring (1 VP a palace, 1 a court lady, 1 or 2 a privilege):")
    assert lines[at + 1] == ("    P0 +7 VP: 3 palaces +3, 2 court ladies +2, 1 large privilege "
                             "+2 (7 in all)")
    assert "    P1 +2 VP: 2 palaces (2 in all)" in lines


def test_ben_final_scoring_plus_25_and_the_ranking():
    s = started(players=5)
    s._debug_set_player(BEN, score=0, yuan=4, rice=1, fireworks=2, palaces=[
        (2, ["young monk", "craftsman"]), (3, ["old monk", "court lady", "tax collector"]),
        (2, ["young farmer", "young healer"])])
    blank_month(s, 12, "peace")
    narrator = DragonNarrator.for_state(s)
    before = len(s.events())
    s._debug_run_from("final")
    one = flat(text(narrator.step(s.events()[before:])))
    assert ("Final scoring (2 VP a person, monks' buddhas x floors, 1 VP per 3 yuan): ") in one
    assert ("P1 +25 VP: 7 persons +14, 2 monks (buddhas x floors) +8, 10 yuan after selling 3 "
            "tiles +3 (25 in all)") in one
    assert "The ranking: P1 finishes 1st with 25 VP" in one


def test_great_wall_scored_after_the_mongols():
    s = started(players=3, great_wall=True)
    for i in range(3):
        s._debug_set_player(i, score=0, palaces=[(2, ["young warrior", "craftsman"])])
    s._debug_set_board(wall=[(0, "1 rice"), (0, "2 yuan"), (1, "1 rice"), (0, "3 VP"),
                             (1, "2 yuan")])
    blank_month(s, 5, "mongol invasion")
    narrator = DragonNarrator.for_state(s)
    before = len(s.events())
    s._debug_run_from("event")
    lines = narrator.step(s.events()[before:])
    while s.snapshot()["phase"] == "release":
        s.apply_action(s.legal_actions()[0])
        lines += narrator.step(s.events())
    one = flat(text(lines))
    assert ("Great Wall scored after the Mongols: 5 sections built, 5 needed: 1 VP per section "
            "to its builders") in one
    assert "P0 +3 VP Great Wall after the Mongols: 3 sections (4 in all)" in one
    assert "P1 +2 VP Great Wall after the Mongols: 2 sections" in one


def test_a_super_event_month_names_it():
    from tests.dragon.test_expansions import at_month_7

    s = at_month_7("lantern festival")
    s._debug_set_player(0, palaces=[(3, ["craftsman", "court lady", "young monk"])])
    narrator = DragonNarrator.for_state(s)
    before = len(s.events())
    s._debug_run_from("event")
    one = flat(text(narrator.step(s.events()[before:])))
    assert "End of month 7: " in one and "and the super event lantern festival" in one
    assert "Super event: lantern festival" in one
    assert "P0 +6 VP lantern festival: 3 persons (6 in all)" in one


def test_mount_tai_spring_settlement_with_2_farmland():
    s = new_game(4)
    s._debug_set_board(round=1, praises={(0, 0): "壮矣"})
    s._debug_set_player(RED, grain=0, cells={(0, 1): "farmland", (1, 0): "farmland"})
    out = text(MountTaiNarrator().step(s._debug_run_from("settle")))
    lines = out.splitlines()
    at = lines.index("  The spring settlement of year 1:")
    assert flat("\n".join(lines[at + 1:at + 3])) == (
        "P0: +2 grain from 2 farmland; Eight Praises How magnificent! (壮矣): farmland 2 "
        "(needs 2 for 5): +5 reputation")
    assert ("P1: Eight Praises How magnificent! (壮矣): farmland 0 (needs 2 for 5): +0 "
            "reputation") in flat(out)
    # The next round's header follows the settlement.
    assert lines.index("== Round 3 of 16: year 1, summer, first round of the season ==") > at


def test_mount_tai_year_one_gao_yi_says_the_rulebooks_condition():
    """The narration words year one's 高矣 from the same source as the event (engine
    events.praise_terms): the 2nd layer cultivated through barren land cultivation."""
    s = new_game(4)
    s._debug_set_board(round=1, praises={(0, 0): "高矣"})
    s._debug_set_player(RED, cells={(0, 1): "settlement", (1, 1): "settlement"})
    out = flat(text(MountTaiNarrator().step(s._debug_run_from("settle"))))
    assert ("P0: Eight Praises How lofty! (高矣): 2nd layer cultivated (needs it cultivated "
            "through barren land cultivation for 5): +5 reputation") in out
    assert ("P1: Eight Praises How lofty! (高矣): 2nd layer not cultivated (needs it "
            "cultivated through barren land cultivation for 5): +0 reputation") in out
    assert "needs 2" not in out


def test_mount_tai_event_reward_8_plus_2_plus_1():
    s, _ = event_reward_example()
    s.apply_action(act("event", 3))
    out = text(MountTaiNarrator().step(s.events()))
    assert "    P0 activates the red event +2 money" in out
    assert "    P0 +3 money from the event (season bonus +1 included)" in out
    assert seat(s, RED)["money"] == 11


def test_mount_tai_virtual_player_building_plan():
    """The virtual player draws 9: the leftmost stack (2 granaries) leaves, the free market
    turns up: every step narrated, in order."""
    s = new_game(solo=True, seed=3)
    s._debug_set_board(water=set(), tribes=set())
    s._debug_set_board(blueprint=[("granary", 2), ("mint", 1), ("yufu", 1)],
                       supply=["free market"], virtual_tiles=[9] + [14] * 15)
    s._debug_policy(0)
    narrator = MountTaiNarrator()
    s.apply_action(act("tidy", seat(s, 0)["uncovered"][0]))
    lines = narrator.step(s.events())
    if s.snapshot()["phase"] == "tidy-up":
        s.apply_action(act("pass"))
        lines += narrator.step(s.events())
    out = flat(text(lines))
    draw = out.index("Virtual player draws edict 9 [II] (building plan")
    plan = out.index("Virtual player's building plan: the granary stack (2 tile(s)) leaves "
                     "the blueprint area")
    flip = out.index("The free market is flipped into the blueprint area")
    assert draw < plan < flip
    assert "Turn order: " in out


def test_mount_tai_solo_setup_names_no_face_down_tile():
    s = new_game(solo=True, seed=1)
    out = flat(text(MountTaiNarrator().setup(s.events(-1))))
    assert "The virtual player's 3 tier I, 7 tier II and 6 tier III edict tiles lie face" in out
    assert "Setup: the Eight Praises tiles: year 1: spring " in out
    assert "virtual player draws" not in out.lower()


# -- whole games through the CLI -------------------------------------------------------------


def months_in_order(out: str, prompt: str | None) -> None:
    """Each month's header comes once, in order, before the month's first move: in `play`,
    before the person's first prompt of that month (`prompt`); in `watch`, the first move line
    after a header is an action card (the first decision of every month)."""
    heads = [out.index(f"== Month {m}: ") for m in range(1, 13)]
    assert heads == sorted(heads)
    for m in range(1, 13):
        assert out.count(f"== Month {m}: ") == 1
        assert out.index(f"End of month {m}: ") > heads[m - 1]
        if m < 12:
            assert out.index(f"End of month {m}: ") < heads[m]
        if prompt:
            first = out.find(prompt.format(month=m))
            assert first == -1 or first > heads[m - 1], m
    if prompt is None:
        lines = out.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("== Month "):
                move = next(l for l in lines[i + 1:] if re.match(r"  P\d", l))
                assert "(group " in move or "no action" in move or "privilege" in move, move


def test_a_whole_dragon_game_narrated_in_play():
    args = ["dragon", "-p", "3", "-o", "great_wall=true", "-o", "super_events=true", "--seed",
            "5", *FAST]
    result = play(args, ["1"] * 900)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert too_wide(out) == []
    months_in_order(out, "chooses an action (month {month})")
    assert "The year's events, month by month: 1 " in out
    assert "== The starting draft" in out
    for m in range(1, 13):
        assert f"  Month {m} scoring (1 VP a palace" in out
    assert re.search(r"    P\d \+\d+ VP: \d palaces?", out)
    assert "Great Wall scored at the game's end" in flat(out)
    assert "Final scoring (2 VP a person" in out and "The ranking:" in out
    assert "Super event: " in out
    # The bots' moves and the events between the person's decisions are narrated in order.
    assert re.search(r"  P[12] \(random\(seed=1\)\): ", out)


def test_a_mount_tai_solo_challenge_narrated_in_play():
    args = ["mount-tai", "-p", "1", "-o", "challenge=3", "--seed", "3", *FAST]
    result = play(args, ["1"] * 900)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert too_wide(out) == []
    heads = [out.index(f"== Round {r} of 16: ") for r in range(1, 17)]
    assert heads == sorted(heads)
    for r in range(2, 17):  # round 1 starts after the setup's carry-over decision
        # The board shown before the round's first move ("* ": the line changed).
        board = re.search(rf"^[* ] Round {r} of 16: year", out, re.M).start()
        assert heads[r - 1] < board, r
    for season in ("spring", "summer", "autumn", "winter"):
        for year in (1, 2):
            assert f"  The {season} settlement of year {year}:" in out
    one = flat(out)
    assert "Virtual player draws edict " in one and "Turn order: " in one
    assert "Game end: P0: has " in one and "goal 82" in one
    assert "Setup: the event tiles of each year: round 1: " in one


def test_a_two_player_mount_tai_game_narrated_in_play():
    result = play(["mount-tai", "-p", "2", "--seed", "4", *FAST], ["1"] * 900)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert too_wide(out) == []
    assert "== Round 16 of 16: " in out and "Game end:" in out
    assert re.search(r"    P1: .*Eight Praises", out)
    assert "P1 (random(seed=1)): " in out


@pytest.mark.parametrize("game,args", [
    ("dragon", ["-p", "3", "-o", "great_wall=true", "--seed", "5"]),
    ("mount-tai", ["-p", "1", "--seed", "2"]),
])
def test_watch_no_board_prints_the_narration(game, args):
    result = runner.invoke(app, ["watch", game, *args, "--bot", "random(seed=2)", "--no-board"])
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert too_wide(out) == []
    if game == "dragon":
        months_in_order(out, None)
        assert "Month 12 scoring" in out and "Final scoring" in out
    else:
        assert "== Round 16 of 16" in out and "The winter settlement of year 2:" in out
        assert "Virtual player draws edict" in out and "Game end:" in out


def test_a_stored_record_narrates_the_same_as_the_game_played():
    """`game_story` (replay's and log's narration of a record) fits 80 columns and has every
    month's header in order."""
    import random

    import engine

    options = {"players": 4, "great_wall": True, "super_events": True}
    state = engine.load_game("dragon", **options).new_initial_state(8)
    rng = random.Random(8)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    out = "\n".join(render(game_story("dragon", options, 8, state.history())))
    assert all(display_width(line) <= 80 for line in out.splitlines())
    months_in_order(out, None)


def test_log_shows_the_narration_since_the_last_decision(tmp_path):
    """`log` after every decision of month 1 and the start of month 2: one of them holds the
    month's end and scoring and month 2's header; `log all` the whole game from the setup."""
    lines = ["1", "log"] * 8 + ["log all", "quit"]
    result = play(["dragon", "-p", "2", "--seed", "4", *FAST], lines)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert too_wide(out) == []
    logs = [part.split("\n> ")[0] for part in
            out.split("What happened since your last decision:\n")[1:]]
    assert len(logs) == 8
    month_end = [log for log in logs if "End of month 1: " in log]
    assert month_end and "Month 1 scoring" in month_end[0] and "== Month 2: " in month_end[0]
    assert all(re.match(r"  you: ", log) for log in logs)
    whole = out.split("The whole game so far:\n")[1].split("\n> ")[0]
    assert whole.startswith("    Setup: each player takes 6 yuan")
    assert "== The starting draft" in whole and "== Month 1: " in whole


def test_replay_shows_the_narration(tmp_path):
    db = tmp_path / "db.sqlite"
    run = runner.invoke(app, ["tournament", "run", "--db", str(db), "--game", "mount-tai",
                              "-p", "2", "-b", "a=random", "-b", "b=heuristic", "--deals", "1",
                              "--seatings", "rotations", "--workers", "1", "--seed", "3"])
    assert run.exit_code == 0, run.output
    result = runner.invoke(app, ["replay", "1", "1", "--db", str(db), "--no-board"])
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    assert too_wide(out) == []
    assert "== Round 1 of 16: " in out and "== Round 16 of 16: " in out
    assert "The spring settlement of year 1:" in out and "Game end:" in out
    assert out.index("== Round 2 of 16") < out.index("The spring settlement of year 1:")


def test_play_narrates_a_worked_example_to_the_person(monkeypatch):
    """Clara's tribute through `tianti play`: the person is Clara (P2) and releases."""
    s = started(players=5)
    for i in range(5):
        s._debug_set_player(i, yuan=10, palaces=[(2, ["craftsman"]), (2, [])])
    s._debug_set_player(CLARA, yuan=2, palaces=[(3, ["craftsman", "young monk", "court lady"]),
                                                (1, ["young healer"])])
    blank_month(s, 5, "imperial tribute")
    s._debug_run_from("event")
    session = PlaySession(s, CLARA, ["random(seed=1)"] * 2 + [HUMAN] + ["random(seed=1)"] * 2)
    session._make_bots()
    monkeypatch.setattr(PlaySession, "new", staticmethod(lambda *a, **k: session))
    result = play(["dragon", "-p", "5", "--seat", "2"], ["1", "1", "quit"])
    one = flat(result.output)
    assert "P2 pays 2 yuan imperial tribute, 2 short: must release 2 persons (0 yuan left)" in one
    assert "P2 releases a " in one and "1 more to release" in one
    assert "Decay: every empty palace loses a floor" in one
    assert "P0: palace 2 down to 1 floor" in one  # its empty 2-floor palace


# -- hints and the AI's own estimates --------------------------------------------------------


def test_hint_says_what_the_number_is_how_long_and_the_top_moves():
    # (draft, then house the second starting person, then ask)
    result = play(["dragon", "-p", "2", "--seed", "4", *FAST], ["1", "1", "hint", "quit"])
    out = result.output
    assert too_wide(out) == []
    one = flat(out)
    assert re.search(r"hint: \d+\. ", out)
    assert "The % is the estimated chance to win (a tie counts as a share" in one
    assert re.search(r"after \d+\.\d+ s of search \(200 playouts\)", one)
    assert re.search(r"^ +\d+\. +\d+%  .+ \(\d+ visits\)$", out, re.M)
    assert "about equal" in one or "clearly ahead" in one


def test_a_solo_hint_is_the_chance_to_reach_the_goal_and_says_when_moves_are_equal():
    result = play(["mount-tai", "-p", "1", "--seed", "2", "--hint-bot",
                   "ismcts(iterations=60)"], ["hint", "quit"])
    one = flat(result.output)
    assert "The % is the estimated chance to reach the solo game's goal" in one
    # Random playouts never reach the goal: every move is 0%, and the hint says so.
    assert "are about equal" in one


def test_about_equal_by_points_and_by_visits():
    best = {"value": 0.60, "visits": 4000}
    assert about_equal(best, {"value": 0.58, "visits": 4000})        # within 3 points
    assert not about_equal(best, {"value": 0.50, "visits": 4000})    # 10 points, many visits
    assert about_equal(best, {"value": 0.50, "visits": 12})          # too few visits to tell
    hint = Hint(1, "a", 1, 1.0, 1000, meaning({"reward": "win"}, 2),
                [dict(number=1, text="a", visits=600, value=0.6),
                 dict(number=4, text="b", visits=350, value=0.59),
                 dict(number=2, text="c", visits=50, value=0.2)])
    assert hint.verdict().startswith("1 and 4 are about equal")
    assert meaning({"reward": "win"}, 1).noun == "chance to reach the goal"
    assert meaning({"reward": "rank"}, 3).noun == "expected placing"


def test_show_thinking_prints_each_ai_move_s_own_estimate():
    result = play(["dragon", "-p", "2", "--seed", "4", "--opponent", "ismcts(iterations=100)",
                   "--show-thinking"], ["1", "1", "quit"])
    out = result.output
    assert re.search(r"    P1 thinks: \d+% chance to win \(\d+\.\d+ s, 100 playouts\)", out)
    plain = play(["dragon", "-p", "2", "--seed", "4", "--opponent", "ismcts(iterations=100)"],
                 ["1", "1", "quit"])
    assert "thinks:" not in plain.output


def test_hint_and_thinking_get_views_only():
    """The hint bot and the AI search views (VIEWS.md): the session's state is untouched."""
    session = PlaySession.new("dragon", {"players": 2}, 0, ["ismcts(iterations=50)"], seed=3,
                              hint_spec="ismcts(iterations=50)")
    before = session.state.raw_bytes()
    hint = session.hint()
    assert session.state.raw_bytes() == before
    assert hint.action in session.state.legal_actions() and hint.meaning is not None
    while session.state.current_player() == 0:  # the draft and the housing of its persons
        session.choose(session.state.legal_actions()[0])
    session.run_bots()
    thought = [m.thinking for m in session.log if m.player == 1]
    assert thought and all(t and "chance to win" in t for t in thought)
    assert session.bots[1].last is not None
    assert dragon_data.EVENTS  # the tables the narration reads
