"""`reuse_reveals=False`: the search keeps its tree between moves only while the game has shown
the searcher nothing hidden since the last search (its chance signature is unchanged); after a
face-down tile is turned up or the virtual player draws, it starts afresh."""
from __future__ import annotations

import random

import pytest

import engine
from ai.search import Searcher
from tests.ai.test_chance_nodes import _played

CFG = dict(iterations=400, seed=3, playout="heuristic", cutoff=6, evaluation="learned")


def _walk(options: dict, seed: int, *, game: str = "mount-tai", cfg: dict | None = None,
          **search) -> list[tuple[bool, bool]]:
    """Seat 0's searches over a whole game (other decisions at random): for each search after
    the first, (something was shown since the last search, the tree was reused)."""
    state = engine.load_game(game, **options).new_initial_state(seed)
    searcher = Searcher(**(CFG if cfg is None else cfg), **search)
    rng = random.Random(seed)
    seen = None
    out = []
    while not state.is_terminal():
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            now = state.chance_signature(0)
            r = searcher.search(state)
            if seen is not None:
                out.append((now != seen, r["reused"]))
            seen = now
            state.apply_action(r["action"])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def test_a_tree_is_dropped_after_a_reveal_and_kept_otherwise():
    """In challenge 6 (face-down piles and the virtual player's draws), every search after a
    reveal starts afresh and searches with nothing shown since the last one keep the tree; by
    default the tree is kept across reveals too."""
    fresh = _walk({"challenge": 6}, 5, reuse_reveals=False)
    assert sum(shown for shown, _ in fresh) >= 10
    assert not any(reused for shown, reused in fresh if shown)
    assert sum(reused for shown, reused in fresh if not shown) >= 10
    kept = _walk({"challenge": 6}, 5)
    assert sum(reused for shown, reused in kept if shown) >= 10


@pytest.mark.parametrize("game, options", [("mount-tai", {"players": 2}),
                                           ("mount-tai", {"players": 4})])
def test_where_nothing_hidden_is_shown_nothing_changes(game: str, options: dict):
    """Mount Tai with several players and no face-down edicts shows nothing hidden (the
    signature stays 0): seat 0's searches are the same, bit for bit and reused alike, move
    after move."""
    cfg = dict(CFG)
    plain, fresh = Searcher(**cfg), Searcher(**cfg, reuse_reveals=False)
    state = engine.load_game(game, **options).new_initial_state(3)
    rng = random.Random(3)
    searches = reused = 0
    while searches < 8 and not state.is_terminal():
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            a, b = plain.search(state), fresh.search(state)
            assert a["root"] == b["root"] and a["action"] == b["action"]
            assert a["reused"] == b["reused"]
            searches += 1
            reused += a["reused"]
            state.apply_action(a["action"])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert searches == 8 and reused >= 3


def test_the_option_is_a_bot_option():
    from ai.bots import make_bot
    state = _played({"challenge": 6}, 4, 4)
    view = state.resample_from_infostate(state.current_player(), 1)
    bot = make_bot("ismcts(iterations=200,reuse_reveals=false)")
    assert bot.step(view) in state.legal_actions()
    assert bot.searcher.config["reuse_reveals"] is False
    assert make_bot("ismcts(iterations=200)").searcher.config["reuse_reveals"] is True


def test_dragon_drops_the_tree_at_each_new_month_and_keeps_it_within_one():
    """Dragon deals each month's action-card split face up: with `reuse_reveals=False` a
    search in a new month starts afresh (its tree was summed over splits that were not dealt),
    and one later in the same month keeps it; by default it is kept across months too."""
    cfg = dict(iterations=300, seed=3)
    fresh = _walk({"players": 2}, 5, game="dragon", cfg=cfg, reuse_reveals=False)
    assert sum(shown for shown, _ in fresh) >= 10
    assert not any(reused for shown, reused in fresh if shown)
    assert sum(reused for shown, reused in fresh if not shown) >= 10
    kept = _walk({"players": 2}, 5, game="dragon", cfg=cfg)
    assert sum(reused for shown, reused in kept if shown) >= 10
