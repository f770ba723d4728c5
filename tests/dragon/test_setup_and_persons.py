"""Setup (display, event row, holdings, groups) and the person phase."""
from __future__ import annotations

from collections import Counter

import pytest

from engine.dragon import data
from engine.dragon.game import LAYOUT
from tests.dragon.helpers import (
    blank_month, kind_index, new_game, persons, place, play, seat, started, type_index,
)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_display_counts(players):
    display = new_game(players).snapshot()["display"]
    for t, pt in enumerate(data.TYPES):
        if data.KINDS[pt.kind].old_symbols is None:
            assert display[t] == 2 * players
        else:
            assert display[t] == (players - 1 if pt.old else players + 1)
    # 5 players: 10 tiles of each kind; 2 players: 4 of each.
    per_kind = Counter()
    for t, n in enumerate(display):
        per_kind[data.TYPES[t].kind] += n
    assert set(per_kind.values()) == {2 * players}


def test_event_row_rules():
    for seed in range(2000):
        ev = new_game(4, seed).snapshot()["events"]
        assert ev[:2] == [0, 0]
        assert sorted(ev[2:]) == sorted(data.EVENT_TILES_AFTER_PEACE)
        assert all(ev[i] != ev[i + 1] for i in range(2, 11)), ev


def test_event_row_varies():
    rows = {tuple(new_game(4, seed).snapshot()["events"]) for seed in range(50)}
    assert len(rows) > 40


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_starting_holdings(players):
    snap = new_game(players).snapshot()
    for s in snap["seats"]:
        assert s["yuan"] == 6 and s["score"] == 0 and s["track"] == 0
        assert [p["floors"] for p in s["palaces"]] == [2, 2]
        assert len(s["hand"]) == 9 and s["wildcards"] == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("wall", [False, True])
def test_action_groups_by_player_count(players, wall):
    expected = sorted(data.GROUP_SIZES[players][wall])
    splits = set()
    for seed in range(30):
        groups = started(players, seed, great_wall=wall).snapshot()["groups"]
        assert sorted(len(g) for g in groups) == expected
        assert sorted(c for g in groups for c in g) == list(range(7 + wall))
        splits.add(tuple(tuple(sorted(g)) for g in groups))
    assert len(splits) > 10


def person_turn(players=2):
    """A game at month 3's person phase, seat 0 first."""
    s = started(players)
    blank_month(s, 3, "peace")
    s._debug_start_round("person")
    assert s.current_player() == 0
    return s


def test_young_or_old_and_wildcards():
    s = person_turn()
    legal = s.legal_actions()
    assert play("young farmer") in legal and play("old farmer") in legal
    assert play("craftsman") in legal
    wild = [a - LAYOUT["wild"] for a in legal if LAYOUT["wild"] <= a < LAYOUT["wild_empty"]]
    assert wild == [t for t, n in enumerate(s.snapshot()["display"]) if n > 0]


def test_recruit_moves_the_marker_and_stacks_on_top():
    s = person_turn()
    s._debug_set_player(0, track=20, palaces=[(2, []), (2, [])])
    s._debug_set_player(1, track=26, palaces=[(2, ["craftsman"])])
    s._debug_start_round("person")
    assert s.current_player() == 1
    s.apply_action(play("court lady"))
    s.apply_action(place(0))
    assert seat(s, 1)["track"] == 27
    s.apply_action(play("old pyrotechnist"))
    s.apply_action(place(1))
    assert seat(s, 0)["track"] == 23
    assert persons(s, 0)[1] == ["old pyrotechnist"]
    assert "pyrotechnist" not in [data.KINDS[k].name for k in seat(s, 0)["hand"]]


def test_same_space_goes_on_top():
    s = person_turn()
    s._debug_set_player(0, track=20)
    s._debug_set_player(1, track=22)
    s._debug_start_round("person")
    assert s.current_player() == 1
    s.apply_action(play("craftsman"))  # 22 + 2 = 24
    s.apply_action(s.legal_actions()[0])
    s.apply_action(play("young healer"))  # 20 + 4 = 24, on top
    s.apply_action(s.legal_actions()[0])
    assert s.snapshot()["track_order"] == [0, 1]


def test_kind_without_tiles_recruits_nothing():
    s = person_turn()
    s._debug_set_board(display={"young monk": 0, "old monk": 0})
    legal = s.legal_actions()
    assert play("young monk") not in legal
    empty = LAYOUT["play_empty"] + kind_index("monk")
    assert empty in legal
    before = seat(s, 0)
    s.apply_action(empty)
    after = seat(s, 0)
    assert kind_index("monk") not in after["hand"]
    assert after["palaces"] == before["palaces"] and after["track"] == before["track"]
    assert s.current_player() == 1


def test_room_means_must_place():
    s = person_turn()
    s._debug_set_player(0, palaces=[(2, ["craftsman"]), (1, ["court lady"])])
    s.apply_action(play("young monk"))
    assert s.legal_actions() == [place(0)]


def test_full_palaces_replace_or_let_go():
    s = person_turn()
    s._debug_set_player(0, track=10, palaces=[(2, ["craftsman", "court lady"]), (1, ["young monk"])])
    s.apply_action(play("old scholar"))
    legal = s.legal_actions()
    assert LAYOUT["discard_new"] in legal
    assert len(legal) == 4  # replace any of the three persons, or let the scholar go
    s.apply_action(LAYOUT["replace"] + 1 * data.N_TYPES + type_index("young monk"))
    assert persons(s, 0) == [["craftsman", "court lady"], ["old scholar"]]
    assert seat(s, 0)["track"] == 12
    assert s.snapshot()["gone"][type_index("young monk")] == 1

    s2 = person_turn()
    s2._debug_set_player(0, track=10, palaces=[(1, ["craftsman"])])
    s2.apply_action(play("old scholar"))
    s2.apply_action(LAYOUT["discard_new"])
    assert persons(s2, 0) == [["craftsman"]]
    assert seat(s2, 0)["track"] == 10  # no steps without placing
    assert s2.snapshot()["gone"][type_index("old scholar")] == 1


def test_released_persons_never_return_to_the_display():
    s = person_turn()
    start = s.snapshot()["display"][type_index("craftsman")]
    ladies = s.snapshot()["display"][type_index("court lady")]
    s._debug_set_player(0, palaces=[(1, ["court lady"])])
    s.apply_action(play("craftsman"))
    s.apply_action(LAYOUT["replace"] + type_index("court lady"))
    snap = s.snapshot()
    assert snap["display"][type_index("craftsman")] == start - 1
    assert snap["display"][type_index("court lady")] == ladies
    assert snap["gone"][type_index("court lady")] == 1
