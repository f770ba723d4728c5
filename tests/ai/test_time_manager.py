"""The time manager of `strong(think=...)` (ai/time_manager.py) and the search's early stop
(StopRule in ai/search/mcts.pxd). Spending is counted in iterations (`think_iterations`), so
that every assertion is about behaviour, never about the wall clock."""
from __future__ import annotations

import math

import pytest

import engine
from ai import time_manager
from ai.bots import BotSpecError, HeuristicBot, StrongBot, make_bot
from ai.search import Searcher
from ai.time_manager import TimeManager
from tests.ai.test_positions_dragon import POSITIONS

FAST = {"mode": "ismcts", "millis": 1000.0, "playout": "heuristic", "epsilon": 0.2}


def forced_state():
    """A 2-player Dragon state whose player to move has a single legal action."""
    state = engine.load_game("dragon", players=2).new_initial_state(4)
    bot = HeuristicBot(seed=1)
    while len(state.legal_actions()) != 1:
        state.apply_action(bot.step(state))
    return state


def play_managed(game: str, spec: str, seed: int = 3) -> list[StrongBot]:
    """A whole 2-player game of two managed bots, each given a view of its seat; the bots
    after it, each with `searched`: the iterations its searches reported, decision by decision
    (a count from the search itself, not from the manager's books)."""
    state = engine.load_game(game, players=2).new_initial_state(seed)
    bots = [make_bot(spec.format(seat=i)) for i in range(2)]
    for bot in bots:
        bot.searched = []  # type: ignore[attr-defined]
    n = 0
    while not state.is_terminal():
        p = state.current_player()
        result = bots[p].analyse(state.resample_from_infostate(p, n))
        bots[p].searched.append(result["iterations"])  # type: ignore[attr-defined]
        state.apply_action(result["action"])
        n += 1
    return bots


def test_a_forced_decision_does_no_search_and_costs_nothing():
    state = forced_state()
    bot = make_bot("strong(think_iterations=500,seed=1)")
    result = bot.analyse(state)
    assert result["action"] == state.legal_actions()[0]
    assert result["iterations"] == 0 and result["stop"] == "forced"
    assert result["think"]["kind"] == "forced" and result["think"]["spent"] == 0
    assert bot.manager.left == bot.manager.bank > 0
    assert bot.bot is None  # not even a searcher was made


@pytest.mark.parametrize("game", ["dragon", "mount-tai"])
def test_a_games_total_stays_within_its_bank(game):
    for bot in play_managed(game, "strong(think_iterations=200,seed={seat})"):
        m = bot.manager
        searched = [d for d in m.log if d.kind not in ("forced", "out")]
        assert m.bank == 200 * time_manager.EXPECTED_DECISIONS[game]
        assert sum(bot.searched) == m.bank - m.left  # the searches' own count
        assert 0 <= m.left <= m.bank
        assert all(d.spent <= d.hard for d in searched)  # no search over its allowance
        assert {d.kind for d in m.log} >= {"forced", "clear"}
        # Most of the bank is used: the spending is spread over the game, not hoarded.
        assert m.left < 0.25 * m.bank


def test_a_game_longer_than_expected_never_overdraws_the_bank(monkeypatch):
    monkeypatch.setitem(time_manager.EXPECTED_DECISIONS, "dragon", 4.0)
    bot = play_managed("dragon", "strong(think_iterations=100,seed={seat})")[0]
    m = bot.manager
    assert m.bank == 400
    assert 0 <= m.left and sum(bot.searched) == m.bank - m.left <= m.bank
    # Each search took at most half of what was left, and once too little was left the bot
    # played its move prior without searching.
    assert [d.kind for d in m.log].count("out") > 0
    assert all(d.spent == 0 for d in m.log if d.kind == "out")


def test_a_new_game_opens_a_new_bank():
    bot = play_managed("dragon", "strong(think_iterations=100,seed={seat})")[0]
    spent_before = bot.manager.bank - bot.manager.left
    assert spent_before > 0
    state = engine.load_game("dragon", players=2).new_initial_state(9)
    while state.current_player() != 0 or len(state.legal_actions()) < 2:
        state.apply_action(HeuristicBot().step(state))
    bot.step(state)  # a shorter history than the last decision's: a new game
    assert len(bot.manager.log) == 1
    assert bot.manager.left == bot.manager.bank - bot.manager.log[0].spent


@pytest.mark.parametrize("name", list(POSITIONS))
def test_a_clear_position_stops_early_with_the_same_move(name):
    """With `clear` 1 the search stops once the best move cannot be overtaken by the budget's
    end: the same seed picks the same move as the full search, in fewer iterations."""
    state, right = POSITIONS[name]()
    full = Searcher(seed=5, **FAST).search(state, iterations=4000)
    early = Searcher(seed=5, **FAST).search(state, iterations=4000, soft_iterations=4000,
                                            every=64, clear=1.0)
    assert full["iterations"] == 4000 and full["stop"] == "budget"
    assert early["stop"] == "clear" and early["iterations"] < 4000
    assert early["action"] == full["action"] and early["action"] in right


def test_the_soft_limit_stops_a_decision_that_is_not_close_and_extends_a_close_one():
    state = engine.load_game("dragon", players=2).new_initial_state(3)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    common = dict(iterations=3000, soft_iterations=1000, every=50, clear=1e9)  # never "clear"
    # close 0: never close, so the search stops at its first check past the soft limit.
    settled = Searcher(seed=2, **FAST).search(state, close=0.0, **common)
    assert settled["stop"] == "soft" and settled["iterations"] == 1000
    # close 1: always close (two moves visited), so it goes on to the hard budget.
    close = Searcher(seed=2, **FAST).search(state, close=1.0, **common)
    assert close["stop"] == "budget" and close["iterations"] == 3000


def test_without_a_stop_rule_the_search_is_unchanged():
    state, _ = POSITIONS["harvest before a drought"]()
    a = Searcher(iterations=1500, seed=7, **{k: v for k, v in FAST.items() if k != "millis"})
    b = Searcher(seed=7, **FAST)
    ra, rb = a.search(state), b.search(state, iterations=1500, millis=0.0)
    assert ra["iterations"] == rb["iterations"] == 1500
    assert ra["root"] == rb["root"] and ra["stop"] == rb["stop"] == "budget"


@pytest.mark.parametrize("kwargs", [dict(millis=-1.0), dict(close=math.nan),
                                    dict(clear=-0.5), dict(soft_millis=math.inf),
                                    dict(iterations=0, millis=0.0), dict(every=-1),
                                    dict(soft_iterations=-5)])
def test_bad_search_budgets_are_clear_errors(kwargs):
    state, _ = POSITIONS["harvest before a drought"]()
    searcher = Searcher(seed=1, **FAST)
    with pytest.raises(ValueError, match="must be|give a budget"):
        searcher.search(state, **kwargs)


@pytest.mark.parametrize("spec, message", [
    ("strong(think=-1)", "'think' must not be negative"),
    ("strong(think=0)", "think must be more than 0"),
    ("strong(think=abc)", "'think' must be float"),
    ("strong(think=nan)", "must be a finite number"),
    ("strong(think=1e9)", "more than the most allowed"),
    ("strong(think_iterations=0)", "think_iterations must be more than 0"),
    ("strong(think=1,millis=500)", "replace the millis and iterations budgets"),
    ("strong(think=1,think_iterations=100)", "not both"),
    ("strong-v1(think=-2)", "'think' must not be negative"),
])
def test_bad_think_values_are_clear_errors(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec)


def test_think_specs_make_managed_bots_and_plain_strong_keeps_its_fixed_second():
    assert make_bot("strong").manager is None
    assert make_bot("strong").overrides == {}
    bot = make_bot("strong(think=2.5)")
    assert bot.manager.unit == "seconds" and bot.manager.think == 2.5
    kept = make_bot("strong-v7(think_iterations=300)")
    assert kept.manager.unit == "iterations" and kept.manager.think == 300


def test_the_manager_refuses_bad_settings():
    for kwargs in (dict(think=0), dict(think=1, unit="minutes"), dict(think=1, cap=0.5),
                   dict(think=1, share=0), dict(think=1, every=0)):
        with pytest.raises(ValueError):
            TimeManager(**kwargs)


class _Staged:
    """A stand-in state for the manager's arithmetic: a game name and Dragon's month."""

    def __init__(self, month: int) -> None:
        self.game = type("G", (), {"name": "dragon"})()
        self.month = month

    def snapshot(self) -> dict:
        return {"month": self.month}


def test_the_decisions_expected_follow_the_stage_and_the_allowance_its_share():
    m = TimeManager(100.0, unit="iterations")
    m.new_game(_Staged(1))
    assert m.bank == 100 * time_manager.EXPECTED_DECISIONS["dragon"]
    seen = []
    for month in range(1, 13):
        for _ in range(3):  # three decisions a month (37 expected: about 3.1)
            state = _Staged(month)
            seen.append(m.remaining(state))
            allowance = m.allowance(state)
            assert allowance.soft <= allowance.hard <= m.share * m.left
            m.record("normal", allowance.soft, (month - 1, 12), allowance)
    assert seen[0] == pytest.approx(time_manager.EXPECTED_DECISIONS["dragon"])
    assert all(a >= b for a, b in zip(seen, seen[1:]))  # never more left than before
    assert all(a > b for a, b in zip(seen[::3], seen[3::3]))  # fewer at every new month
    assert seen[-1] >= 1
    assert 0 < m.left < 0.2 * m.bank  # spread over the whole game, most of it spent
