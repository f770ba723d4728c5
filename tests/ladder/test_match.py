"""The game loop under a referee: timing, faults, fallbacks and forfeit ranks."""
from __future__ import annotations

import pytest

import engine
from ai.bots import make_bot
from engine.core.state import State
from ai.match import Fault, Referee, forfeit_ranks, play_game, setup_limit
from ladder.tournament.worker import _process_heartbeat
from tests.ladder import bad_bots


def _state(players: int = 3, seed: int = 4) -> State:
    return engine.load_game("dragon", players=players).new_initial_state(seed)


def test_without_a_referee_a_bot_error_propagates_as_before() -> None:
    with pytest.raises(RuntimeError, match="always fails"):
        play_game(_state(), [bad_bots.Raises(2), bad_bots.First(), bad_bots.First()])


def test_a_plain_game_records_times_and_movers_and_replays() -> None:
    state = _state()
    result = play_game(state, [make_bot("random(seed=1)") for _ in range(3)], resample_seed=3)
    assert state.is_terminal()
    assert len(result.move_times) == len(result.actions) == len(result.movers)
    assert all(t >= 0 for t in result.move_times)
    assert result.ranks == result.game_ranks and not result.faults
    assert State.from_record(result.record).scores() == result.scores


@pytest.mark.parametrize("bad,kind,text", [
    (bad_bots.Raises(3), "error", "RuntimeError: this bot always fails here"),
    (bad_bots.Illegal(3), "illegal", "is not legal for player 1"),
])
def test_a_faulting_bot_loses_and_the_game_still_ends(bad: bad_bots._Misbehaving, kind: str,
                                                      text: str) -> None:
    state = _state()
    referee = Referee(move_timeout=5.0, fallback_seed=9)
    result = play_game(state, [make_bot("random(seed=2)"), bad, bad_bots.First()],
                       resample_seed=1, referee=referee)
    assert state.is_terminal()
    assert [f.seat for f in result.faults] == [1]
    fault = result.faults[0]
    assert fault.kind == kind and text in fault.message
    assert fault.move >= 3  # its first three decisions were fine
    assert result.ranks[1] == 2 and sorted(result.ranks[i] for i in (0, 2)) == [0, 1]
    # the record replays (the fallback's moves are ordinary moves)
    assert State.from_record(result.record).scores() == result.scores


def test_a_bot_failing_when_informed_of_moves_is_faulted() -> None:
    class Informed(bad_bots.BadInform):
        pass

    result = play_game(_state(), [make_bot("random(seed=2)"), Informed(), bad_bots.First()],
                       referee=Referee(move_timeout=5.0))
    assert [(f.seat, f.kind) for f in result.faults] == [(1, "error")]
    assert "cannot follow the game" in result.faults[0].message


def test_a_spinning_bot_is_interrupted_at_the_time_limit() -> None:
    result = play_game(_state(), [bad_bots.Spins(1), make_bot("random(seed=1)"),
                                  bad_bots.First()],
                       referee=Referee(move_timeout=0.3, heartbeat=_process_heartbeat()))
    assert [(f.seat, f.kind) for f in result.faults] == [(0, "timeout")]
    assert "move time limit of 0.3 s" in result.faults[0].message
    assert result.ranks[0] == 2


def test_a_slow_answer_is_a_timeout_even_without_a_watchdog() -> None:
    result = play_game(_state(), [bad_bots.Slow(ms=30), make_bot("random(seed=1)"),
                                  bad_bots.First()],
                       referee=Referee(move_timeout=0.01))
    assert [(f.seat, f.kind) for f in result.faults] == [(0, "timeout")]
    assert "past the move time limit of 0.01 s" in result.faults[0].message


def test_a_game_continues_after_a_prefix_with_the_same_determinizations() -> None:
    """Restarting a game part-way (as the pool does after killing a worker) sees the same
    determinization seeds as playing it straight through."""
    seen_full: list[int] = []
    seen_resumed: list[int] = []

    class Recorder:
        def __init__(self, log: list[int]) -> None:
            self.log = log

        def step(self, state: State) -> int:
            self.log.append(hash(state.raw_bytes()))
            return state.legal_actions()[0]

    full = _state()
    play_game(full, [Recorder(seen_full) for _ in range(3)], resample_seed=8)
    part = _state()
    for a in full.history()[:40]:
        part.apply_action(a)
    play_game(part, [Recorder(seen_resumed) for _ in range(3)], resample_seed=8)
    assert part.history() == full.history()
    assert seen_resumed == seen_full[40:]


def test_forfeit_ranks_put_faulted_seats_last_and_keep_the_others_order() -> None:
    assert forfeit_ranks([0, 1, 2, 3], set()) == [0, 1, 2, 3]
    assert forfeit_ranks([0, 1, 2, 3], {0}) == [3, 0, 1, 2]
    assert forfeit_ranks([2, 0, 3, 1], {1, 3}) == [0, 2, 1, 2]
    assert forfeit_ranks([0, 0, 2], set()) == [0, 0, 2]
    assert Fault.from_dict(Fault(1, 5, "error", "x").to_dict()) == Fault(1, 5, "error", "x")


def test_making_a_bot_is_not_held_to_the_move_time_limit() -> None:
    """Making a bot may take ten moves' time, at most a minute unless one move may take longer."""
    slow_start = Referee(move_timeout=0.05)
    value, seconds, fault = slow_start.call(0, -1, lambda: bad_bots.Slow(ms=60).step(_state()),
                                            limit=slow_start.setup_limit())
    assert fault is None and seconds > 0.05
    assert slow_start.setup_limit() == 0.5 and Referee().setup_limit() is None
    assert [setup_limit(t) for t in (1.0, 10.0, 60.0, 120.0)] == [10.0, 60.0, 60.0, 120.0]
    _, _, fault = slow_start.call(0, 3, lambda: bad_bots.Slow(ms=60).step(_state()))
    assert fault is not None and fault.kind == "timeout"
    assert "past the move time limit of 0.05 s" in fault.message
