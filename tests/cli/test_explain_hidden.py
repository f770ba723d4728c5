"""`explain` and the grouped choices at the `tianti play` prompt read only what the person's
seat may know: the game's guide is handed the board of a view of the seat with the hidden part
left out (never the referee's state, nor a view's drawn hidden part), so the words cannot
depend on the face-down piles, the building supply's order or face-down edicts."""
from __future__ import annotations

import random
from typing import Any

import pytest

import engine.mount_tai.guide as mt_guide
from engine.registry import load_game
from ladder.referee.protocol import public_board
from ladder.table.explain import choice_groups, explain_action, explain_choice
from ladder.table.play import PlaySession

GAMES = [
    ("mount-tai", {"players": 2}),
    ("mount-tai", {"players": 1, "challenge": 5}),   # face-down edicts, the virtual player
    ("dragon", {"players": 3}),
]


def positions(name: str, options: dict[str, Any], seed: int, every: int = 3):
    """Every `every`-th position of a random game (the true state, the referee's)."""
    state, rng = load_game(name, **options).new_initial_state(seed), random.Random(seed)
    n = 0
    while not state.is_terminal():
        if n % every == 0:
            yield state
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1


def spy(monkeypatch) -> list[Any]:
    """Records what Mount Tai's guide is handed (explain_action and a choice_group)."""
    seen: list[Any] = []
    real = mt_guide.explain_action

    def explain(snap, action):
        seen.append(snap)
        return real(snap, action)

    def group(snap, action):
        seen.append(snap)
        return None

    monkeypatch.setattr(mt_guide, "explain_action", explain)
    monkeypatch.setattr(mt_guide, "choice_group", group, raising=False)
    return seen


def test_the_guide_is_handed_the_seats_board_never_the_true_state(monkeypatch):
    seen = spy(monkeypatch)
    checked = 0
    for state in positions("mount-tai", {"players": 1, "challenge": 5}, seed=3, every=5):
        seat = state.current_player()
        truth = state.snapshot()
        board = public_board(state, seat)
        before = len(seen)
        actions = state.legal_actions()
        for a in actions:
            explain_action(state, a)
        choice_groups(state, actions)
        assert len(seen) == before + len(actions) + len(actions)
        for snap in seen[before:]:
            assert not isinstance(snap, type(state))
            assert snap == board                      # what the seat sees, nothing more
            assert "supply" not in snap and "virtual_tiles" not in snap
            hidden_piles = [p[1:] for p in truth["piles"] if len(p) > 1]
            assert all(set(p[1:]) <= {"?"} for p in snap["piles"])
            checked += bool(hidden_piles)
    assert checked > 10  # positions that had face-down talents to leak


def test_explain_at_the_prompt_tells_the_persons_seat(monkeypatch):
    seen = spy(monkeypatch)
    state = load_game("mount-tai", players=2).new_initial_state(4)
    session = PlaySession(state, 0, ["human", "random"])
    text = explain_choice(session, "1")
    assert text.startswith("1. ")
    assert seen and all(s == public_board(state, 0) for s in seen)
    assert "supply" not in seen[0]


@pytest.mark.parametrize("name,options", GAMES)
def test_the_words_do_not_depend_on_the_hidden_part(name, options):
    """The truth and views of the seat (the same public part, a different hidden part) get
    the same explanation and groups for every legal action."""
    differed = 0
    for seed in (1, 2):
        for state in positions(name, options, seed):
            seat = state.current_player()
            actions = state.legal_actions()
            want = ([explain_action(state, a) for a in actions],
                    choice_groups(state, actions))
            for k in range(3):
                view = state.resample_from_infostate(seat, 1000 * seed + k)
                differed += view.snapshot() != state.snapshot()
                got = ([explain_action(view, a) for a in actions],
                       choice_groups(view, actions))
                assert got == want
    if name == "mount-tai":
        assert differed > 10  # the hidden parts really differed
