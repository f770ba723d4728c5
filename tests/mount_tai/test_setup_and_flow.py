"""Setup (main board and players), the round's phases, the seasonal settlement's Eight Praises
in both years, the year change and the game end."""
from __future__ import annotations

from collections import Counter

import pytest

from engine.mount_tai import data
from tests.mount_tai.helpers import act, new_game, play_random, seat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_player_setup(players):
    s = new_game(players, seed=players)
    snap = s.snapshot()
    comp = data.START_REPUTATION[players]
    for i in range(players):
        me = snap["seats"][i]
        assert (me["money"], me["grain"], me["wine"]) == (6, 2, 0)
        assert me["reputation"] == comp[i]
        assert me["cells"][0] == 1 and sum(1 for c in me["cells"] if c) == 1
        assert me["talents"] == [] and me["buildings"] == []
        # The pyramid: tier III in the 4x4 bottom, II in the 3x3, I on top; all face up.
        tiers = [data.TIER_OF[t] for t in me["slots"]]
        assert tiers == [3] * 16 + [2] * 9 + [1] * 4
        assert sorted(me["slots"]) == list(range(1, 30))
        assert me["uncovered"] == [25, 26, 27, 28] and len(me["faceup"]) == 29
    assert snap["order"] == list(range(players)) and s.current_player() == 0
    assert snap["phase"] == "policy" and snap["round"] == 0
    assert len({snap["seats"][i]["quadrant"] for i in range(players)}) == players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_main_board_setup(players):
    for seed in range(10):
        snap = new_game(players, seed=seed).snapshot()
        # Talent piles by the Setup 4 table, tops face up.
        assert [len(p) for p in snap["piles"]] == list(data.PILE_SIZES[players])
        colours = [data.TALENTS[k].colour for p in snap["piles"] for k in p]
        assert Counter(colours)[3] == 4
        for j, pile in enumerate(snap["piles"]):
            assert all(data.TALENTS[k].colour == data.PILE_COLOURS[j] for k in pile)
        # One event tile per player in each round; bonus tiles a permutation of the 4 types.
        for r in range(8):
            assert sum(t is not None for t in snap["events"][r]) == players
        assert sorted(snap["season_bonus"]) == [0, 1, 2, 3]
        # Eight Praises: 4 for year 1, the other 4 for year 2.
        assert sorted(snap["praises"][0] + snap["praises"][1]) == list(range(8))
    four = new_game(4, seed=3, promos=False).snapshot()
    placed = sorted(t for r in four["events"] for t in r)
    assert placed == list(range(32))  # all 32 with 4 players and no promos


def test_event_tile_0_replaces_a_blue_tile_with_promos():
    seen = 0
    for seed in range(20):
        snap = new_game(4, seed=seed).snapshot()
        tiles = [t for r in snap["events"] for t in r]
        assert Counter(data.EVENT_TILES[t].colour for t in tiles) == {0: 8, 1: 8, 2: 8, 3: 8}
        seen += data.EVENT_ZERO_TILE in tiles
    assert seen == 20


def test_mountain_is_random_but_seeded():
    maps = {tuple(new_game(4, seed=k).snapshot()["map"]) for k in range(12)}
    assert len(maps) > 6
    assert new_game(4, seed=5).snapshot()["map"] == new_game(4, seed=5).snapshot()["map"]
    for k in range(12):
        m = new_game(4, seed=k).snapshot()["map"]
        # Water and tribes only on the mountain tiles (layers 2 and 3), never the summit.
        for g, bits in enumerate(m):
            r, c = divmod(g, 8)
            ring = min(r, c, 7 - r, 7 - c)
            if bits:
                assert ring in (1, 2)


def test_round_structure_policy_order_events_settlement():
    s = new_game(3, seed=4)
    phases = []
    while s.snapshot()["round"] < 2:
        phases.append(s.snapshot()["phase"])
        s.apply_action(s.legal_actions()[-1])
    names = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    assert names[0] == "policy" and "event" in names
    assert names.index("event") > names.index("policy")


def test_events_flip_back_for_year_2():
    s = new_game(2, seed=6)
    play_random(s, 1, until=lambda x: x.snapshot()["round"] == 7 and x.snapshot()["phase"] == "policy")
    assert any(any(r) for r in s.snapshot()["events_used"][:7])
    play_random(s, 1, until=lambda x: x.snapshot()["round"] == 8)
    assert not any(any(r) for r in s.snapshot()["events_used"])


def praise_position(name, year, **holdings):
    """Seat 0 with `holdings`; the settlement of year `year`'s spring with praise `name`."""
    s = new_game(4)
    s._debug_set_board(round=1 if year == 1 else 9, praises={(year - 1, 0): name})
    s._debug_set_player(0, **holdings)
    s._debug_run_from("settle")
    return seat(s, 0)["reputation_by_source"]["eight praises"]


@pytest.mark.parametrize("name, below, at, year2, year2_gain", [
    ("高矣", dict(), dict(cells={(0, 1): "settlement", (1, 1): "settlement"}),
     dict(cells={(1, 0): "settlement", (1, 1): "settlement", (2, 1): "town", (2, 2): "farmland",
                 (3, 2): "settlement", (3, 3): "ascent"}), 8),
    ("壮矣", dict(cells={(0, 1): "farmland"}), dict(cells={(0, 1): "farmland", (1, 0): "farmland"}),
     dict(cells={(0, 1): "farmland", (1, 0): "farmland", (0, 2): "farmland"}), 6),
    ("極矣", dict(buildings=["mint"]), dict(buildings=["mint", "yufu"]),
     dict(buildings=["mint", "yufu", "granary"]), 6),
    ("赫矣", dict(money=4), dict(money=5), dict(money=9), 4),
    ("特矣", dict(talents=[("pioneer", 1)]), dict(talents=[("pioneer", 2)]),
     dict(talents=[("publicist", 3), ("pioneer", 3), ("agricultural official", 2)]), 10),
    ("駭矣", dict(grain=4), dict(grain=5), dict(grain=7), 3),
    ("大矣", dict(cells={(0, 0): "town"}), dict(cells={(0, 0): "town", (0, 1): "town"}),
     dict(cells={(0, 0): "town", (0, 1): "town", (1, 0): "town"}), 6),
    ("惑矣", dict(wine=2), dict(wine=3), dict(wine=4), 4),
])
def test_eight_praises_year_1_once_year_2_per_unit(name, below, at, year2, year2_gain):
    # Spring settlement with no buildings' or farms' yields interfering: yields come before the
    # praise, so the holdings above are chosen to count after spring's farmland grain.
    if name == "駭矣":
        below = dict(below, cells={})
    assert praise_position(name, 1, **below) == 0
    assert praise_position(name, 1, **at) == 5
    assert praise_position(name, 2, **year2) == year2_gain


def test_sixteen_rounds_then_level_3_scoring_and_the_end():
    s = new_game(4, seed=9)
    s._debug_set_player(1, talents=[("brewer", 3)])
    play_random(s, 3, until=lambda x: x.snapshot()["round"] == 15 and x.snapshot()["phase"] == "policy")
    assert not s.is_terminal()
    play_random(s, 3)
    snap = s.snapshot()
    assert s.is_terminal() and snap["round"] == 16 and snap["phase"] == "over"
    me = snap["seats"][1]
    assert me["reputation_by_source"]["talents at game end"] == me["wine"]
    assert sum(me["reputation_by_source"].values()) == me["reputation"]


def test_policy_pass_when_no_tile_is_left():
    s = new_game(2)
    s._debug_set_player(0, tiles={k: 0 for k in range(29)})
    s._debug_policy(0)
    assert s.legal_actions() == [act("pass")]
    assert "no edict tile left" in s.action_to_string(act("pass"))
    s.apply_action(act("pass"))
    assert seat(s, 0)["turn_number"] == data.PASS_TILE_NUMBER
