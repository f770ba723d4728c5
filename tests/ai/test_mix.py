"""Leaf value mixing (SearchConfig.mix): an iteration's reward is (1 - mix) x its playout's +
mix x the evaluation of the leaf. A root child visited once holds exactly that reward."""
from __future__ import annotations

import random

import pytest

import engine
from ai.bots import make_bot
from ai.search import Searcher
from engine.dragon import knowledge, learned

EVALUATE = {"hand": knowledge.evaluate, "learned": learned.evaluate}


def _position(seed: int, steps: int):
    rng = random.Random(seed)
    s = engine.load_game("dragon", players=2).new_initial_state(seed)
    for _ in range(steps):
        s.apply_action(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("evaluation", ["hand", "learned"])
@pytest.mark.parametrize("mix", [1.0, 0.5, 0.25])
def test_each_root_child_visited_once_holds_the_mixed_reward(evaluation: str, mix: float):
    for seed, steps in ((1, 7), (2, 20), (3, 33)):
        s = _position(seed, steps)
        me = s.current_player()
        legal = s.legal_actions()
        # One iteration per legal move: each root child is expanded, and visited, once.
        out = Searcher(iterations=len(legal), playout="heuristic", epsilon=0.2, mix=mix,
                       evaluation=evaluation, seed=seed).search(s)
        root = {r["action"]: r for r in out["root"]}
        for a in legal:
            child = s.clone()
            child.apply_action(a)
            if child.is_terminal():
                continue
            v = root[a]
            assert v["visits"] == 1
            leaf = EVALUATE[evaluation](child)[me]
            playout = (v["mean"] - mix * leaf) / (1.0 - mix) if mix < 1 else None
            if playout is None:
                assert v["mean"] == pytest.approx(leaf, abs=1e-12)
            else:                   # a playout's reward: a win, a loss or a shared tie
                assert min(abs(playout - r) for r in (0.0, 0.5, 1.0)) < 1e-9, (a, playout)


def test_mix_zero_is_the_search_without_it():
    s = _position(4, 11)
    a = Searcher(iterations=300, playout="heuristic", epsilon=0.2, seed=9).search(s)
    b = Searcher(iterations=300, playout="heuristic", epsilon=0.2, seed=9, mix=0.0).search(s)
    assert a["root"] == b["root"] and a["action"] == b["action"]


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), float("inf")])
def test_a_mix_outside_0_1_is_refused(bad: float):
    with pytest.raises(ValueError, match="mix"):
        Searcher(iterations=10, mix=bad)
    with pytest.raises(ValueError, match="mix"):
        make_bot(f"strong(mix={bad})")


def test_the_bot_spec_takes_mix():
    bot = make_bot("strong(iterations=200,mix=0.5,evaluation=learned)")
    s = _position(5, 3)
    assert bot.analyse(s)["action"] in s.legal_actions()


def test_sample_playouts_draw_in_proportion_to_the_prior():
    from ai.search.mcts import _debug_sample_weighted
    weights = [0.5, 0.0, 2.0, 1.5, 0.0]
    counts = _debug_sample_weighted(weights, 40000, 7)
    assert counts[1] == counts[4] == 0               # a weight of 0 is never drawn
    for w, c in zip(weights, counts):
        if w:                                        # 40,000 draws: within 4 standard errors
            p = w / sum(weights)
            assert abs(c / 40000 - p) < 4 * (p * (1 - p) / 40000) ** 0.5
    uniform = _debug_sample_weighted([0.0] * 4, 8000, 3)
    assert min(uniform) > 1800                       # all 0: uniform (2,000 each expected)


def test_a_sample_playout_search_plays_legal_moves():
    s = next(p for p in (_position(6, k) for k in range(9, 40)) if len(p.legal_actions()) > 1)
    out = make_bot("strong(iterations=500,playout=sample)").analyse(s)
    assert out["action"] in s.legal_actions() and out["iterations"] == 500
