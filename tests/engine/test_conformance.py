"""The engine interface's contract, checked the same way over every registered game (in the
manner of OpenSpiel's conformance tests): whatever a game does inside, the search, the ladder
and the CLI may rely on what is asserted here.

Along seeded random games, after every step: the player to move and the legal actions agree;
an illegal action raises and changes nothing; a clone is deep; a record replays to the same
state; a determinization keeps what its player knows; actions have names that parse back; at
the end returns, scores and ranks are consistent.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine.core.errors import IllegalActionError, RecordError
from engine.core.playout import random_playouts
from engine.core.state import State

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("dragon", {"players": 2}),
    ("dragon", {"players": 5}),
    ("dragon", {"players": 3, "great_wall": True, "super_events": True}),
    ("mount-tai", {"players": 2}),
    ("mount-tai", {"players": 4, "promos": False}),
    ("mount-tai", {"players": 3, "grand_tutors": True}),
    ("mount-tai", {"solo": True}),
    ("mount-tai", {"challenge": 7}),
    ("fusion", {}),
]
GAMES_PER_CONFIG = 3


def test_every_registered_game_is_covered() -> None:
    assert {name for name, _ in CONFIGS} == set(engine.game_names())


def _ids(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def _check_step(state: State, rng: random.Random) -> None:
    """Everything the contract promises about one non-terminal state."""
    n = state.num_players()
    legal = state.legal_actions()
    assert legal == sorted(set(legal)) and legal, "legal actions: ascending, distinct, some"
    assert 0 <= state.current_player() < n
    assert all(state.is_legal(a) for a in legal)

    # An illegal action is refused and changes nothing.
    before, history = state.raw_bytes(), state.history()
    bad = max(legal) + 1 + rng.randrange(3)
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(bad)
    assert state.raw_bytes() == before and state.history() == history

    # Names: every legal action has one, distinct, and it parses back to the action.
    names = [state.action_to_string(a) for a in legal]
    assert all(names) and len(set(names)) == len(names)
    probe = rng.randrange(len(legal))
    assert state.string_to_action(names[probe]) == legal[probe]

    # A clone is deep: playing on it leaves the original alone.
    twin = state.clone()
    assert twin == state and twin.history() == history
    twin.apply_action(rng.choice(legal))
    assert state.raw_bytes() == before and state.history() == history

    # A determinization keeps what its player knows, and the player to move keeps its choices.
    seat = rng.randrange(n)
    known = state.information_state_string(seat)
    other = state.resample_from_infostate(seat, rng.randrange(1 << 30))
    assert other.information_state_string(seat) == known
    assert other.current_player() == state.current_player()
    if seat == state.current_player():
        assert other.legal_actions() == legal
    assert state.raw_bytes() == before  # the original is not touched

    # Knowledge hooks, where a game has them: one finite value per action / per seat.
    prior = state.move_prior()
    if prior is not None:
        assert len(prior) == len(legal) and all(p >= 0.0 for p in prior)
    value = state.evaluate()
    if value is not None:
        assert len(value) == n and all(0.0 <= v <= 1.0 for v in value)


def _check_end(state: State) -> None:
    n = state.num_players()
    assert state.legal_actions() == [] and state.current_player() < 0
    returns, scores, ranks = state.returns(), state.scores(), state.ranks()
    assert len(returns) == len(scores) == len(ranks) == n
    assert all(0.0 <= r <= 1.0 for r in returns)
    if n > 1:
        assert abs(sum(returns) - 1.0) < 1e-9, "one point shared among the winners"
        winners = [i for i in range(n) if ranks[i] == 0]
        assert winners and all(returns[i] > 0 for i in winners)
        assert all(returns[i] == 0 for i in range(n) if ranks[i] > 0)
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(0)


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_random_games_keep_the_contract(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = engine.load_game(name, **options)
    for seed in range(GAMES_PER_CONFIG):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        assert game.new_initial_state(seed) == state, "a seed fixes the initial state"
        assert state.num_players() == game.num_players
        while not state.is_terminal():
            _check_step(state, rng)
            state.apply_action(rng.choice(state.legal_actions()))
        _check_end(state)
        # The record replays to the identical state, through JSON.
        text = state.to_json()
        again = State.from_json(text)
        assert again == state and again.history() == state.history()
        assert again.returns() == state.returns() and json.loads(again.to_json()) == json.loads(text)


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_compiled_playouts_finish(config: tuple[str, dict[str, Any]]) -> None:
    """Random games played entirely inside the compiled core reach the end."""
    name, options = config
    state = engine.load_game(name, **options).new_initial_state(0)
    result = random_playouts(state, games=20, seed=1)
    assert result["games"] == 20 and result["decisions_per_game"] > 0


@pytest.mark.parametrize("name", sorted({n for n, _ in CONFIGS}))
def test_a_malformed_record_is_a_clear_error(name: str) -> None:
    state = engine.load_game(name).new_initial_state(3)
    record = json.loads(state.to_json())
    record["actions"] = [10 ** 6]
    with pytest.raises(RecordError):
        State.from_json(json.dumps(record))
    with pytest.raises(RecordError):
        State.from_json("{not json")
