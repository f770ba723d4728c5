"""Rule events through the generic State, over every registered game: what `events()` promises
whatever the game (each game's own kinds and numbers are tested with the game)."""
from __future__ import annotations

import random
import threading
from typing import Any

import pytest

import engine
from ai.search import Searcher
from engine.core.events import Event
from engine.core.state import State
from tests.engine.test_conformance import CONFIGS, _ids


def _play(state: State, rng: random.Random, steps: int | None = None) -> State:
    n = 0
    while not state.is_terminal() and (steps is None or n < steps):
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_events_are_kept_per_step_and_replay_with_the_record(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = engine.load_game(name, **options)
    for seed in range(3):
        state = game.new_initial_state(seed)
        assert len(state.raw_events()) == 1  # the setup's
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            move = state.move_number() - 1
            assert state.events() == state.events(move)
            assert all(e.move == move for e in state.events())
            assert len(state.raw_events()) == state.move_number() + 1
        history = state.event_history()
        assert all(isinstance(e, Event) for e in history)
        assert [e.move for e in history] == sorted(e.move for e in history)
        for e in history:
            assert e.text and "\n" not in e.text and "{" not in e.text and "unknown" not in e.text
        again = State.from_json(state.to_json())
        assert again.raw_events() == state.raw_events()
        # Each seat's points over its events add up to its score.
        totals = [0] * state.num_players()
        for e in history:
            if e.seat is not None and e.seat < state.num_players():  # not the virtual player
                totals[e.seat] += e.points
        if any(e.points for e in history):
            assert totals == state.scores()


def test_events_of_a_step_and_bad_moves() -> None:
    state = engine.load_game("fusion").new_initial_state(3)
    assert state.events() == [] and state.events(-1) == []
    state.apply_action(1)
    state.apply_action(2)
    kinds = [e.kind for e in state.events()]
    assert kinds == ["coin-shown", "point"]
    assert state.events(0) == [] and state.events(1) == state.events()
    for bad in (2, -2, 10 ** 30):
        with pytest.raises(ValueError, match="move must be in -1..1"):
            state.events(bad)
    for bad in ("1", 1.0, None, True):
        if bad is None:
            continue  # None means the last step
        with pytest.raises(TypeError):
            state.events(bad)
    assert state.event_history()[-1].to_dict()["points"] == 1


def test_a_view_keeps_the_events_its_seat_saw_and_its_record_restores_them() -> None:
    state = _play(engine.load_game("dragon", players=3).new_initial_state(5), random.Random(1), 60)
    view = state.resample_from_infostate(2, 11)
    assert view.raw_events() == state.raw_events()
    again = State.from_json(view.to_json())
    assert again.raw_events() == view.raw_events() and again.event_history() == view.event_history()
    view.apply_action(view.legal_actions()[0])
    assert len(view.raw_events()) == len(state.raw_events()) + 1
    assert state.raw_events() == again.raw_events()  # the truth untouched by the view's play


@pytest.mark.parametrize("name", ["dragon", "mount-tai"])
def test_searches_in_other_threads_never_write_into_a_games_events(name: str) -> None:
    """The rules emit into the calling thread's sink only: a game played while searches run
    (without the GIL, on the same rules) in other threads has exactly its replay's events."""
    game = engine.load_game(name, players=3)
    probe = _play(game.new_initial_state(2), random.Random(2), 40)
    stop = threading.Event()

    def search_loop() -> None:
        searcher = Searcher(mode="ismcts", iterations=300, threads=1, seed=1)
        while not stop.is_set():
            searcher.search(probe.resample_from_infostate(0, 1))

    threads = [threading.Thread(target=search_loop) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        played = _play(game.new_initial_state(9), random.Random(9))
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert State.from_json(played.to_json()).raw_events() == played.raw_events()
