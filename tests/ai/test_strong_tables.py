"""The `strong` bot's per-variant configuration: a table entry "<game>/<variant>" changes the
search in that variant only (issue 14's seventh step: normalized UCB in the plain solo game; its
eighth: the cut-off after 16 decisions in challenge 6; its tenth: the tree started afresh
after a reveal in challenges 6 and 7)."""
from __future__ import annotations

from typing import Any

import pytest

import engine
from ai.bots import PREVIOUS_STRONG, STRONG, make_bot, strong_config, table_variant
from tests.mount_tai.helpers import play_random

BASE = ("c=0.35,reward=win,playout=heuristic,epsilon=0.2,evaluation=learned,"
        "goal_margin=0.1,seed=4,iterations=300")


def _view(options: dict[str, Any]) -> Any:
    """A mid-game view of the mover's seat, with more than one legal move."""
    s = engine.load_game("mount-tai", **options).new_initial_state(5)
    s = play_random(s, 5, until=lambda t: len(t.history()) >= 14 and len(t.legal_actions()) > 1)
    assert len(s.legal_actions()) > 1
    return s.resample_from_infostate(s.current_player(), 3)


@pytest.mark.parametrize("options, variant", [
    ({"solo": True}, "solo"), ({"challenge": 1}, "challenge-1"), ({"challenge": 7}, "challenge-7"),
    ({"players": 2}, "2p"), ({"players": 4}, "4p")])
def test_each_mount_tai_game_names_its_variant(options: dict[str, Any], variant: str) -> None:
    assert table_variant(engine.load_game("mount-tai", **options)) == variant


def test_a_variant_entry_changes_only_what_it_lists() -> None:
    solo = strong_config(STRONG, engine.load_game("mount-tai", solo=True))
    assert solo == dict(STRONG["mount-tai"], normalize=True)
    assert strong_config(STRONG, engine.load_game("mount-tai", challenge=6)) \
        == dict(STRONG["mount-tai"], cutoff=16, reuse_reveals=False)
    assert strong_config(PREVIOUS_STRONG["strong-v7"], engine.load_game("mount-tai", challenge=6)) \
        == dict(STRONG["mount-tai"], cutoff=16)
    assert strong_config(STRONG, engine.load_game("mount-tai", challenge=7)) \
        == dict(STRONG["mount-tai"], reuse_reveals=False)
    assert strong_config(PREVIOUS_STRONG["strong-v7"], engine.load_game("mount-tai", challenge=7)) \
        == STRONG["mount-tai"]
    for options in ({"challenge": 5}, {"challenge": 1}, {"players": 2}):
        assert strong_config(STRONG, engine.load_game("mount-tai", **options)) \
            == STRONG["mount-tai"], options
    # Issue 49: the others modelled at 3 and 4 players; strong-v8 searched them.
    for players in (3, 4):
        game = engine.load_game("mount-tai", players=players)
        modelled = dict(STRONG["mount-tai"], opponents="policy")
        assert strong_config(PREVIOUS_STRONG["strong-v9"], game) == modelled
        if players == 4:   # and the deeper cut-off with a long budget (test below)
            modelled["long_budget"] = STRONG["mount-tai/4p"]["long_budget"]
        assert strong_config(STRONG, game) == modelled
        assert strong_config(PREVIOUS_STRONG["strong-v8"], game) == STRONG["mount-tai"]
    # strong-v5 keeps one search for every table; strong-v6 normalizes in the plain solo game.
    for k in (0, 6, 7):
        game = engine.load_game("mount-tai", **({"challenge": k} if k else {"solo": True}))
        assert strong_config(PREVIOUS_STRONG["strong-v5"], game) == STRONG["mount-tai"]
        assert strong_config(PREVIOUS_STRONG["strong-v6"], game) \
            == dict(STRONG["mount-tai"], **({} if k else {"normalize": True}))
    assert strong_config(STRONG, engine.load_game("dragon")) == STRONG["dragon"]


@pytest.mark.parametrize("options, variant", [
    ({"solo": True}, "normalize=true,cutoff=6"), ({"challenge": 6}, "cutoff=16"),
    ({"challenge": 7}, "cutoff=6"), ({"challenge": 2}, "cutoff=6"), ({"players": 2}, "cutoff=6")])
def test_strong_searches_as_its_variant_says(options: dict[str, Any], variant: str) -> None:
    """`strong` searches as its table's entry for the variant spells out, `strong-v6` as the
    seventh step's table, `strong-v5` as the plain search everywhere. The variant's options
    change this position's search (else the comparisons could not fail)."""
    view = _view(options)
    def root(spec: str) -> Any:
        return make_bot(spec).analyse(view.clone())["root"]
    now = root("strong(iterations=300,seed=4)")
    v6 = root("strong-v6(iterations=300,seed=4)")
    v5 = root("strong-v5(iterations=300,seed=4)")
    plain = root(f"ismcts({BASE},cutoff=6)")
    own = root(f"ismcts({BASE},{variant})")
    seventh = root(f"ismcts({BASE},cutoff=6{',normalize=true' if 'normalize' in variant else ''})")
    if variant != "cutoff=6":
        assert own != plain
    assert now == own and v6 == seventh and v5 == plain


def test_an_override_beats_the_variant_entry() -> None:
    view = _view({"solo": True})
    off = make_bot("strong(iterations=300,seed=4,normalize=false)").analyse(view.clone())["root"]
    assert off == make_bot(f"ismcts({BASE},cutoff=6)").analyse(view.clone())["root"]
    view = _view({"challenge": 6})
    six = make_bot("strong(iterations=300,seed=4,cutoff=6)").analyse(view.clone())["root"]
    assert six == make_bot(f"ismcts({BASE},cutoff=6)").analyse(view.clone())["root"]


def test_one_strong_bot_switches_configuration_between_variants() -> None:
    bot = make_bot("strong(iterations=200,seed=4)")
    bot.analyse(_view({"solo": True}))
    assert bot.bot.spec_options.get("normalize") is True
    bot.analyse(_view({"challenge": 6}))
    assert not bot.bot.spec_options.get("normalize")
    bot.analyse(_view({"solo": True}))
    assert bot.bot.spec_options.get("normalize") is True


def test_the_bot_listing_shows_the_variant_where_it_differs() -> None:
    from ai.bots import describe_bots
    listed = {b["name"]: str(b) for b in describe_bots()}
    assert "mount-tai/solo True" in listed["strong"]
    assert "mount-tai/solo" not in listed["strong-v5"]
    assert "mount-tai/solo 0.35" not in listed["strong"]   # unchanged values are not repeated
    assert "mount-tai/challenge-6 16" in listed["strong"]
    assert "mount-tai/challenge-7 False" in listed["strong"]
    assert "challenge-7" not in listed["strong-v7"]
    assert "mount-tai/solo True" in listed["strong-v6"]
    assert "challenge-6" not in listed["strong-v6"]
    assert "mount-tai/challenge-6 False" in listed["strong"]
    assert "mount-tai/challenge-6 16" in listed["strong-v7"]
    assert "mount-tai/challenge-6 False" not in listed["strong-v7"]
    # Issue 49: the 4-player cut-off with a long budget is listed; strong-v9 has none.
    assert "mount-tai/4p 10 from 10,000 iterations or 250 ms a decision" in listed["strong"]
    assert "from 10,000 iterations" not in listed["strong-v9"]


def test_strong_starts_challenges_6_and_7_afresh_after_a_reveal_and_strong_v7_does_not() -> None:
    """Over a challenge 6 or 7 game, `strong` reuses no tree across a move that showed a hidden
    tile and still reuses within a turn; `strong-v7` reuses across."""
    def walk(spec: str, challenge: int) -> tuple[int, int]:
        state = engine.load_game("mount-tai", challenge=challenge).new_initial_state(8)
        bot = make_bot(spec)
        seen = None
        after_reveal = kept = 0
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                now = state.chance_signature(0)
                r = bot.analyse(state.resample_from_infostate(0, len(state.history())))
                if seen is not None:
                    after_reveal += now != seen and r["reused"]
                    kept += now == seen and r["reused"]
                seen = now
                state.apply_action(r["action"])
            else:
                state.apply_action(state.legal_actions()[0])
        return after_reveal, kept
    for challenge in (6, 7):
        fresh = walk("strong(iterations=150,seed=2)", challenge)
        assert fresh[0] == 0 and fresh[1] >= 10
        assert walk("strong-v7(iterations=150,seed=2)", challenge)[0] >= 10


def test_strong_starts_each_dragon_month_afresh_and_v8_does_not() -> None:
    """Issue 47: at 2 players `strong` drops its Dragon tree when a new month's action-card
    split is dealt (the kept tree was summed over splits not dealt); `strong-v8` is the bot
    before, which keeps it, as `strong` does at 3-5 players. Seat 0's searches over the first
    months of one game, other moves at random."""
    import random

    def reused_after_a_deal(spec: str) -> list[bool]:
        state = engine.load_game("dragon", players=2).new_initial_state(8)
        bot = make_bot(spec)
        rng = random.Random(8)
        seen, out = None, []
        while state.move_number() < 60 and not state.is_terminal():
            if state.current_player() == 0 and len(state.legal_actions()) > 1:
                now = state.chance_signature(0)
                result = bot.analyse(state.resample_from_infostate(0, state.move_number()))
                if seen is not None and now != seen:
                    out.append(result["reused"])
                seen = now
                state.apply_action(result["action"])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return out

    two, four = engine.load_game("dragon", players=2), engine.load_game("dragon", players=4)
    before = PREVIOUS_STRONG["strong-v8"]
    assert strong_config(STRONG, two) == dict(before["dragon"], reuse_reveals=False)
    assert strong_config(STRONG, four) == strong_config(before, four) == before["dragon"]
    assert strong_config(before, two) == before["dragon"]
    fresh = reused_after_a_deal("strong(iterations=200,seed=2)")
    kept = reused_after_a_deal("strong-v8(iterations=200,seed=2)")
    assert len(fresh) >= 3 and not any(fresh)
    assert sum(kept) >= 3   # kept wherever its tree holds the moves played since


@pytest.mark.parametrize("players, opponents", [(2, "search"), (3, "policy"), (4, "policy")])
def test_strong_models_the_others_at_three_and_four_mount_tai_players(players: int,
                                                                       opponents: str) -> None:
    """Issue 49: the search `strong` builds for a Mount Tai table of 3 or 4 plays the others by
    the playout policy inside its tree; at 2 players it searches them, as `strong-v8` does at
    every size."""
    view = _view({"players": players})
    bot = make_bot("strong(iterations=200,seed=1)")
    assert bot.step(view.clone()) in view.legal_actions()
    assert bot.searcher.config["opponents"] == opponents
    kept = make_bot("strong-v8(iterations=200,seed=1)")
    kept.step(view.clone())
    assert kept.searcher.config["opponents"] == "search"


@pytest.mark.parametrize("spec, players, cutoff", [
    ("strong(iterations=2500)", 4, 6), ("strong(iterations=9999)", 4, 6),
    ("strong(iterations=10000)", 4, 10), ("strong(iterations=20000)", 4, 10),
    ("strong", 4, 10), ("strong(millis=100)", 4, 6), ("strong(millis=250)", 4, 10),
    ("strong(think=0.1)", 4, 6), ("strong(think=0.5)", 4, 10),
    ("strong(think_iterations=5000)", 4, 6), ("strong(think_iterations=10000)", 4, 10),
    ("strong(iterations=20000,cutoff=8)", 4, 8), ("strong-v9(iterations=20000)", 4, 6),
    ("strong(iterations=20000)", 3, 6), ("strong(iterations=20000)", 2, 6)])
def test_strong_scores_four_player_playouts_later_with_a_long_budget(spec: str, players: int,
                                                                     cutoff: int) -> None:
    """Issue 49's second step: at a 4-player Mount Tai table `strong` scores its playouts after
    10 decisions from 10,000 iterations (or 250 ms) a decision, after 6 below, whether the budget
    is the search's own or the time manager's average; a cut-off given by the user stays, and
    3- and 2-player tables and `strong-v9` keep 6."""
    view = _view({"players": players})
    config = make_bot(spec).searcher_for(view).config
    assert config["cutoff"] == cutoff
    assert config["opponents"] == ("search" if players == 2 else "policy")
