"""Choices at the `tianti play` prompt (issue 34): releasing several persons picks them one at
a time in any order, every person listed at each pick; long lists are grouped so that board and
choices fit a 45-line terminal at 80 columns."""
from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from engine.core.text import display_width
from engine.registry import load_game
from ladder.cli import app
from ladder.cli.play import choice_lines
from ladder.table.explain import choice_groups
from ladder.table.play import Choice, PlayError, PlaySession

runner = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def release_session(persons: int = 5, need: int = 2) -> PlaySession:
    """A Dragon game (random moves) at seat 0's release of `need` persons out of `persons`."""
    g = load_game("dragon")
    for seed in range(1, 200):
        state, rng = g.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            snap = state.snapshot()
            if (snap["phase"] == "release" and snap["current_player"] == 0
                    and snap["release_mode"] == "any" and snap["need"][0] == need
                    and sum(len(p["persons"]) for p in snap["seats"][0]["palaces"]) == persons):
                session = PlaySession(state, 0, ["human", "random", "random", "random"])
                session._make_bots()
                if len(session.choices()) == persons:  # all different
                    return session
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no such release in 200 random games")


def persons(session: PlaySession) -> list[str]:
    return [c.text for c in session.choices()]


def test_every_person_is_listed_at_every_pick_and_the_pair_is_played_in_the_engines_order():
    session = release_session()
    engine_first = [session.state.action_to_string(a) for a in session.state.legal_actions()]
    first = persons(session)
    assert len(first) == 5 and set(engine_first) < set(first)  # the engine leaves one out
    last = session.choices()[-1]
    before = session.state.move_number()
    assert session.choose(last.action) == []           # a pick: nothing played yet
    assert session.state.move_number() == before
    second = persons(session)
    assert second == first[:-1]                        # everyone else, not nobody
    moves = session.choose(session.choices()[0].action)
    assert [m.text for m in moves] == [first[0], first[-1]]  # the engine's order
    assert session.state.move_number() == before + 2 and session.picks == []
    assert session.decisions == [before]               # one decision: undo takes back both
    assert session.undo() and session.state.move_number() == before


def test_picks_by_name_undo_and_a_person_that_cannot_be_picked():
    session = release_session()
    names = persons(session)
    action = session.resolve(names[-1])
    session.choose(action)
    assert session.picks == [action]
    with pytest.raises(PlayError, match="a hint is for the whole choice"):
        session.hint()
    assert session.unpick() and session.picks == [] and persons(session) == names
    with pytest.raises(PlayError, match="no choice is called 'release the dragon'"):
        session.resolve("release the dragon")


def test_the_release_screen_says_picks_go_in_any_order(tmp_path):
    session = release_session()
    names = persons(session)
    path = session.save(tmp_path / "release.json")
    result = runner.invoke(app, ["play", "--load", str(path)],
                           input=f"{len(names)}\nundo\n{len(names)}\n1\nquit\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "pick 2 (one at a time, in any order; 'undo' takes back a pick)" in out
    assert f"you pick: {names[-1]}" in out
    assert f"took back your pick: {names[-1]}" in out
    assert "pick 1 more (one at a time" in out
    after = out.split("pick 1 more")[-1]
    for name in names[:-1]:                            # the second pick lists the others
        assert name in after
    assert f"you: {names[0]}" in out and f"you: {names[-1]}" in out


def grid(state) -> list[str]:
    actions = state.legal_actions()
    choices = [Choice(i + 1, a, state.action_to_string(a)) for i, a in enumerate(actions)]
    return choice_lines(choices, groups=choice_groups(state, actions))


def test_the_drafts_36_pairs_fit_in_a_few_lines():
    state = load_game("dragon").new_initial_state(3)
    lines = grid(state)
    assert len(state.legal_actions()) == 36 and len(lines) <= 16
    assert max(map(display_width, lines)) <= 80
    text = " ".join(lines)
    for n in range(1, 37):
        assert text.count(f" {n}. ") == 1
    assert lines[0].startswith("  draft craftsman + 1. court lady  2. tax collector")


def test_recruiting_with_cards_and_wildcards_is_grouped():
    g = load_game("dragon")
    for seed in range(1, 50):
        state, rng = g.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal() and not (state.snapshot()["phase"] == "person"
                                                and len(state.legal_actions()) >= 25):
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            break
    lines = grid(state)
    assert len(lines) <= 12 and max(map(display_width, lines)) <= 80
    assert any(line.startswith("  recruit with a wildcard: ") for line in lines)


def test_a_short_list_stays_one_choice_a_line():
    choices = [Choice(i + 1, i, f"choice {i}") for i in range(5)]
    assert choice_lines(choices) == [f"  {i + 1:2}. choice {i}" for i in range(5)]


def test_board_and_draft_choices_fit_a_45_line_terminal():
    result = runner.invoke(app, ["play", "dragon", "--seed", "3", "-l", "1"], input="quit\n")
    out = result.output
    screen = out.split("\n\n")[-1].split("> ")[0].splitlines()  # the board to the prompt
    assert screen[0].strip().startswith("Starting draft"), screen[0]
    assert len(screen) + 1 <= 45, len(screen)
    assert max(map(display_width, out.splitlines())) <= 80 or "saves" in out


def test_any_picks_in_any_order_end_in_legal_moves_over_whole_games():
    """Random picks at every orderless decision of seat 0 (releases, drought, flood, tornado)
    over whole games with both expansions: each set is played without an illegal move."""
    g = load_game("dragon", great_wall=True, super_events=True)
    seen = set()
    for seed in range(1, 25):
        rng = random.Random(seed)
        session = PlaySession(g.new_initial_state(seed), 0, ["human"] + ["random"] * 3)
        while not session.state.is_terminal():
            if session.state.current_player() != 0:
                session.state.apply_action(rng.choice(session.state.legal_actions()))
                continue
            if session.picks_needed():
                seen.add(session.state.snapshot()["phase"])
            session.choose(rng.choice(session.choices()).action)
    assert {"release", "tornado"} <= seen
