"""The bot protocol's cost: one Dragon game (2 players) refereed with tianti's random bot in
the referee's process against the same bot played from its own process through the protocol
(`python:ai.bots:RandomBot`, the adapter, the sandbox), and the referee's part of one decision
(the move message) at an early and a late move: it must not grow with the move number.

Compare the figures of one run with each other (the machine is shared and noisy).
"""
from __future__ import annotations

import random
import time
from typing import Any

import pytest

import engine
from ai.bots import make_bot
from ai.match import Referee, play_game
from ladder.referee import protocol as P
from ladder.referee.players import make_player


@pytest.fixture(scope="module")
def process_bots() -> Any:
    bots = [make_player("python:ai.bots:RandomBot", move_timeout=10, setup_timeout=60)
            for _ in range(2)]
    yield bots
    for bot in bots:
        bot.close()


def _games(bots: list[Any]) -> Any:
    game = engine.load_game("dragon", players=2)
    rng = random.Random(0)

    def one() -> Any:
        return play_game(game.new_initial_state(rng.randrange(1 << 32)), bots,
                         referee=Referee(10.0))
    return one


def test_a_game_with_both_bots_in_the_referees_process(benchmark) -> None:
    result = benchmark(_games([make_bot("random(seed=1)"), make_bot("random(seed=2)")]))
    benchmark.extra_info["decisions"] = len(result.actions)


def test_a_game_with_both_bots_in_processes_of_their_own(benchmark, process_bots) -> None:
    result = benchmark(_games(process_bots))
    assert result.faults == []
    benchmark.extra_info["decisions"] = len(result.actions)


@pytest.mark.parametrize("moves", [0, 80])
def test_the_referees_move_message(benchmark, moves: int) -> None:
    """The full (not lean) move message of a decision after `moves` random moves."""
    state = engine.load_game("dragon", players=2).new_initial_state(3)
    rng = random.Random(3)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    view = state.resample_from_infostate(state.current_player(), 5)

    def message() -> bytes:
        seat = view.viewer
        return P.encode(P.move_message(view.move_number(), P.public_board(view, seat),
                                       P.legal_documents(view), 1000.0, P.view_block(view)))
    benchmark(message)


@pytest.mark.parametrize("moves", [0, 80])
def test_the_referees_lean_decision(benchmark, moves: int) -> None:
    """The referee's part of one decision for a bot that wants lean messages (the adapter and
    `tianti bot`): the fresh view's block, the move line, and the update line after it."""
    state = engine.load_game("dragon", players=2).new_initial_state(3)
    rng = random.Random(3)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    view = state.resample_from_infostate(state.current_player(), 5)
    after = state.clone()
    after.apply_action(after.legal_actions()[0])
    index = after.move_number() - 1

    def decision() -> bytes:
        fresh = view.resample_from_infostate(view.viewer, 7)
        return P.lean_move_line(view.move_number(), view.legal_actions(), 1000.0,
                                P.view_block(fresh)) + P.lean_update_line(
            index, state.current_player(), after.history()[-1],
            P.seen_raw_events(after, index, 0))
    benchmark(decision)


@pytest.mark.parametrize("pause", [False, True])
def test_a_round_trip_with_the_bot_paused_between_turns(benchmark, pause: bool) -> None:
    """One line to a sandboxed bot and its answer, as a decision's round trip, with the bot's
    process group stopped between turns (`TIANTI_BOT_LIMITS=pause=true`: SIGCONT before the
    line, SIGSTOP after the answer) or not: the difference is what pausing costs a decision."""
    import sys
    import textwrap

    from ladder.referee.sandbox import Limits, spawn

    code = textwrap.dedent("""
        import sys
        for line in sys.stdin.buffer:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
    """)
    bot = spawn([sys.executable, "-c", code], limits=Limits(pause=pause))
    try:
        def trip() -> bytes:
            bot.resume()
            bot.stdin.write(b"{}\n")
            bot.stdin.flush()
            line = bot.stdout.readline()
            bot.pause()
            return line
        assert trip() == b"{}\n"
        benchmark(trip)
    finally:
        bot.kill()


def test_the_check_for_closed_pipes(benchmark) -> None:
    """What the referee spends, every 0.2 s a bot thinks without answering, to see whether it
    closed its pipes behind its namespace wrapper (`BotProcess.pipe_closed`: /proc of each of
    its processes; here a bot of one process, as the adapter is)."""
    import sys

    from ladder.referee.sandbox import spawn

    bot = spawn([sys.executable, "-c", "import sys; sys.stdin.read()"])
    try:
        deadline = time.monotonic() + 30
        while not sandbox_children(bot) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert benchmark(bot.pipe_closed) is None
    finally:
        bot.kill()


def sandbox_children(bot: Any) -> list[int]:
    from ladder.referee.sandbox import children_of

    return children_of(bot.pid)
