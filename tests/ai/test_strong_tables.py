"""The `strong` bot's per-variant configuration: a table entry "<game>/<variant>" changes the
search in that variant only (issue 14's seventh step: normalized UCB in the plain solo game)."""
from __future__ import annotations

from typing import Any

import pytest

import engine
from ai.bots import PREVIOUS_STRONG, STRONG, make_bot, strong_config, table_variant
from tests.mount_tai.helpers import play_random

BASE = ("c=0.35,cutoff=6,reward=win,playout=heuristic,epsilon=0.2,evaluation=learned,"
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
    for options in ({"challenge": 6}, {"challenge": 1}, {"players": 2}, {"players": 3}):
        assert strong_config(STRONG, engine.load_game("mount-tai", **options)) \
            == STRONG["mount-tai"], options
    # strong-v5 keeps one search for every table.
    assert strong_config(PREVIOUS_STRONG["strong-v5"],
                         engine.load_game("mount-tai", solo=True)) == STRONG["mount-tai"]
    assert strong_config(STRONG, engine.load_game("dragon")) == STRONG["dragon"]


@pytest.mark.parametrize("options, normalized", [
    ({"solo": True}, True), ({"challenge": 6}, False), ({"challenge": 2}, False),
    ({"players": 2}, False)])
def test_strong_searches_as_its_variant_says(options: dict[str, Any], normalized: bool) -> None:
    view = _view(options)
    now = make_bot("strong(iterations=300,seed=4)").analyse(view.clone())["root"]
    before = make_bot("strong-v5(iterations=300,seed=4)").analyse(view.clone())["root"]
    plain = make_bot(f"ismcts({BASE})").analyse(view.clone())["root"]
    norm = make_bot(f"ismcts({BASE},normalize=true)").analyse(view.clone())["root"]
    assert norm != plain   # the option changes this search, so the next lines can fail
    assert before == plain
    assert now == (norm if normalized else plain)


def test_an_override_beats_the_variant_entry() -> None:
    view = _view({"solo": True})
    off = make_bot("strong(iterations=300,seed=4,normalize=false)").analyse(view.clone())["root"]
    assert off == make_bot(f"ismcts({BASE})").analyse(view.clone())["root"]


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
