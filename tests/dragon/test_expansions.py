"""The Great Wall of China and the Super Events, rule by rule (rulebook pages 10-12)."""
from __future__ import annotations

import pytest

from engine.dragon import data
from engine.dragon.game import LAYOUT
from tests.dragon.helpers import (
    blank_month, build, card, floors, kind_index, persons, release, seat,
    short_wall_after_the_mongols, started, type_index,
)

WALL_GROUPS4 = [["taxes", "build"], ["harvest", "fireworks"], ["military parade", "research"],
                ["privilege", "build the wall"]]


def wall(bonus: str) -> int:
    return LAYOUT["wall"] + data.WALL_BONUSES.index(bonus)


# -- The Great Wall ------------------------------------------------------------------------------

def test_wall_card_is_dealt_with_the_others():
    s = started(players=4, great_wall=True)
    groups = s.snapshot()["groups"]
    assert sorted(c for g in groups for c in g) == list(range(8))
    assert sorted(len(g) for g in groups) == [2, 2, 2, 2]


@pytest.mark.parametrize(
    "bonus, field, gain",
    [("1 rice", "rice", 1), ("2 yuan", "yuan", 2), ("1 fireworks tile", "fireworks", 1),
     ("3 VP", "score", 3), ("3 person-track steps", "track", 3)],
)
def test_wall_tile_bonuses(bonus, field, gain):
    s = started(players=4, great_wall=True)
    blank_month(s, 3, "peace", groups=WALL_GROUPS4)
    before = seat(s, 0)[field]
    s._debug_start_round("action")
    s.apply_action(wall(bonus))
    after = seat(s, 0)
    assert after[field] == before + gain
    assert after["wall_built"] == 1
    assert data.WALL_BONUSES.index(bonus) not in after["wall_unused"]
    assert s.snapshot()["wall"] == [(0, data.WALL_BONUSES.index(bonus))]
    assert wall(bonus) not in s.legal_actions() or s.current_player() != 0


def test_wall_floor_bonus_builds_one_floor():
    s = started(players=4, great_wall=True)
    blank_month(s, 3, "peace", groups=WALL_GROUPS4)
    s._debug_set_player(0, palaces=[(2, ["craftsman"]), (2, [])])
    s._debug_start_round("action")
    s.apply_action(wall("1 palace floor"))
    assert s.current_player() == 0 and s.snapshot()["phase"] == "build"
    s.apply_action(build(0))
    assert floors(s, 0) == [3, 2]
    assert s.current_player() == 1


def test_wall_is_built_left_to_right_and_stops_at_12():
    s = started(players=4, great_wall=True)
    blank_month(s, 3, "peace", groups=WALL_GROUPS4)
    full = [(i % 2, data.WALL_BONUSES[i // 2]) for i in range(12)]
    s._debug_set_board(wall=full)
    s._debug_start_round("action")
    assert not any(LAYOUT["wall"] <= a < LAYOUT["topup"] for a in s.legal_actions())


def test_wall_scored_after_mongols_when_it_reaches_the_tile():
    """Month 5 Mongol invasion, wall of 5 sections: 1 VP per own section."""
    s = started(players=3, great_wall=True)
    for i in range(3):
        s._debug_set_player(i, score=0, palaces=[(2, ["young warrior", "craftsman"])])
    s._debug_set_board(wall=[(0, "1 rice"), (0, "2 yuan"), (1, "1 rice"), (0, "3 VP"), (1, "2 yuan")])
    blank_month(s, 5, "mongol invasion")
    s._debug_run_from("event")
    # Everyone has one helmet: all release one person for the invasion itself.
    while s.snapshot()["phase"] == "release":
        s.apply_action(s.legal_actions()[0])
    assert [seat(s, i)["vp"]["great wall"] for i in range(3)] == [3, 2, 0]


def test_wall_short_of_the_mongol_tile_fewest_builders_release():
    s = short_wall_after_the_mongols()
    # Fewest helmets: seats 0 and 1 release one person for the invasion...
    assert s.snapshot()["need"] == [1, 1, 0]
    s.apply_action(release(0, "craftsman"))
    s.apply_action(release(0, "craftsman"))
    # ... then the wall (2 sections < month 5): seat 2 built none, the fewest, and releases one.
    assert s.snapshot()["need"] == [0, 0, 1] and s.current_player() == 2
    s.apply_action(release(0, "craftsman"))
    assert [seat(s, i)["vp"]["great wall"] for i in range(3)] == [0, 0, 0]


def test_final_wall_scoring_complete_wall():
    s = started(players=2, great_wall=True)
    full = [(i % 2, data.WALL_BONUSES[i // 2]) for i in range(12)]
    s._debug_set_board(wall=full)
    blank_month(s, 12, "peace")
    s._debug_run_from("wall_final")
    assert s.is_terminal()
    assert [seat(s, i)["vp"]["great wall"] for i in range(2)] == [6, 6]


def test_final_wall_scoring_incomplete_wall():
    s = started(players=2, great_wall=True)
    s._debug_set_player(0, palaces=[(2, ["craftsman", "court lady"])])
    s._debug_set_player(1, palaces=[(2, ["craftsman", "court lady"])])
    s._debug_set_board(wall=[(1, "1 rice")])
    blank_month(s, 12, "peace")
    s._debug_run_from("wall_final")
    assert s.current_player() == 0 and s.snapshot()["need"] == [1, 0]
    s.apply_action(release(0, "court lady"))
    assert s.is_terminal()
    assert seat(s, 0)["vp"]["persons"] == 2 and seat(s, 1)["vp"]["persons"] == 4


# -- The Super Events ----------------------------------------------------------------------------

def at_month_7(super_event: str, players: int = 3, event: str = "peace", **kw):
    s = started(players=players, super_event=super_event, **kw)
    for i in range(players):
        s._debug_set_player(i, score=0)
    blank_month(s, 7, event)
    return s


def test_super_event_option_and_random_draw():
    s = started(players=3, super_event="flood")
    assert s.snapshot()["super_event"] == data.SUPER_EVENTS.index("flood")
    drawn = {started(players=3, seed=k, super_events=True).snapshot()["super_event"]
             for k in range(60)}
    assert drawn == set(range(10))
    assert started(players=3).snapshot()["super_event"] is None


def test_lantern_festival_2_vp_per_person():
    s = at_month_7("lantern festival")
    s._debug_set_player(0, palaces=[(3, ["craftsman", "court lady", "young monk"])])
    s._debug_run_from("event")
    assert seat(s, 0)["vp"]["super event"] == 6


def test_buddha_scores_monks():
    s = at_month_7("buddha")
    s._debug_set_player(0, palaces=[(3, ["old monk", "craftsman"]), (2, ["young monk"])])
    s._debug_run_from("event")
    assert seat(s, 0)["vp"]["super event"] == 2 * 3 + 1 * 2


def test_earthquake_two_floors_and_releases():
    s = at_month_7("earthquake", players=2)
    s._debug_set_player(0, palaces=[(2, ["craftsman", "court lady"]), (1, ["young monk"])])
    s._debug_set_player(1, palaces=[(3, ["craftsman"])])
    blank_month(s, 7, "peace", tracks=[20, 10])
    s._debug_run_from("event")
    assert s.current_player() == 0 and s.snapshot()["phase"] == "earthquake"
    s.apply_action(LAYOUT["quake"] + 1)  # the 1-floor palace goes; its monk must leave
    assert s.legal_actions() == [release(1, "young monk")]
    s.apply_action(release(1, "young monk"))
    s.apply_action(LAYOUT["quake"] + 0)  # 2 -> 1 floor: one of two persons leaves
    s.apply_action(release(0, "court lady"))
    assert floors(s, 0) == [1] and persons(s, 0) == [["craftsman"]]
    assert s.current_player() == 1
    s.apply_action(LAYOUT["quake"] + 0)
    s.apply_action(LAYOUT["quake"] + 0)
    assert floors(s, 1) == [1] and persons(s, 1) == [["craftsman"]]


def test_flood_discards_half_rounded_down():
    """Anna: 3 yuan, 2 rice, 2 fireworks = 7: she discards 3, e.g. 2 yuan and 1 fireworks."""
    s = at_month_7("flood", players=2)
    s._debug_set_player(0, yuan=3, rice=2, fireworks=2)
    s._debug_set_player(1, yuan=1, rice=0, fireworks=0)
    blank_month(s, 7, "peace", tracks=[20, 10])
    s._debug_run_from("event")
    assert s.current_player() == 0 and s.snapshot()["todo"] == 3
    s.apply_action(LAYOUT["flood"] + 0)
    s.apply_action(LAYOUT["flood"] + 0)
    s.apply_action(LAYOUT["flood"] + 2)
    me = seat(s, 0)
    assert (me["yuan"], me["rice"], me["fireworks"]) == (1, 2, 1)
    assert seat(s, 1)["yuan"] == 1  # 1 // 2 = 0 discarded: no decision for seat 1


def test_solar_eclipse_repeats_the_event():
    """The event is a dragon festival: scorers return half their tiles, then a second festival
    is held with the new counts."""
    s = at_month_7("solar eclipse", players=3, event="dragon festival")
    for i, fw in enumerate([4, 3, 1]):
        s._debug_set_player(i, fireworks=fw)
    s._debug_run_from("event")
    # 1st: 4 -> +6 (2 left), 3 -> +3 (1 left), 1 -> 0. 2nd: 2 -> +6, 1 and 1 -> +3 each.
    assert [seat(s, i)["vp"]["dragon festival"] for i in range(3)] == [12, 6, 3]


def test_volcanic_eruption_keeps_the_order():
    s = at_month_7("volcanic eruption", players=3)
    blank_month(s, 7, "peace", tracks=[5, 30, 12])
    s._debug_run_from("event")
    snap = s.snapshot()
    assert [snap["seats"][i]["track"] for i in range(3)] == [0, 0, 0]
    assert snap["track_order"] == [1, 2, 0]


def test_tornado_two_cards_then_person_phases_skipped():
    s = at_month_7("tornado", players=2)
    for i in range(2):
        s._debug_set_player(i, hand=["craftsman", "court lady", "farmer"], wildcards=1)
    blank_month(s, 7, "peace", tracks=[20, 10])
    s._debug_run_from("event")
    assert s.snapshot()["phase"] == "tornado" and s.current_player() == 0
    s.apply_action(LAYOUT["tornado"] + kind_index("court lady"))
    s.apply_action(LAYOUT["tornado"] + data.N_KINDS)  # the wildcard
    assert seat(s, 0)["hand"] == [kind_index("craftsman"), kind_index("farmer")]
    assert seat(s, 0)["wildcards"] == 0
    s.apply_action(LAYOUT["tornado"] + kind_index("craftsman"))
    s.apply_action(LAYOUT["tornado"] + kind_index("court lady"))
    # Months 8 and 9 with a person phase, none in 10 and 11.
    phases = []
    while not s.is_terminal():
        snap = s.snapshot()
        phases.append((snap["month"], snap["phase"]))
        s.apply_action(s.legal_actions()[0])
    person_months = sorted({m for m, ph in phases if ph == "person"})
    assert person_months == [8, 9]


def test_sunrise_each_takes_a_different_young_kind():
    s = at_month_7("sunrise", players=3)
    for i in range(3):
        s._debug_set_player(i, palaces=[(3, ["craftsman"])])
    blank_month(s, 7, "peace", tracks=[30, 20, 10])
    s._debug_run_from("event")
    assert s.snapshot()["phase"] == "sunrise" and s.current_player() == 0
    s.apply_action(LAYOUT["sunrise"] + kind_index("monk"))
    assert s.snapshot()["phase"] == "place"
    s.apply_action(LAYOUT["place"] + 0)
    assert seat(s, 0)["track"] == 30 + 6
    assert s.current_player() == 1
    assert LAYOUT["sunrise"] + kind_index("monk") not in s.legal_actions()
    assert LAYOUT["sunrise"] + kind_index("farmer") in s.legal_actions()


def test_assassination_discards_privileges_before_scoring():
    s = at_month_7("assassination attempt", players=2)
    s._debug_set_player(0, privileges=(2, 1))
    s._debug_run_from("event")
    assert seat(s, 0)["vp"]["privileges"] == 0
    assert (seat(s, 0)["privileges_small"], seat(s, 0)["privileges_large"]) == (0, 0)


def test_contract_examples():
    """Anna farmers: rice per bag; Alfonzo monks: buddhas x floors; Valerie scholars: a VP per
    book."""
    s = at_month_7("contract", players=3)
    s._debug_set_player(0, rice=0, palaces=[(2, ["young farmer", "old farmer"])])
    s._debug_set_player(1, palaces=[(3, ["old monk"]), (2, ["young monk"])])
    s._debug_set_player(2, palaces=[(2, ["old scholar", "young scholar"])])
    blank_month(s, 7, "peace", tracks=[30, 20, 10])
    s._debug_run_from("event")
    s.apply_action(LAYOUT["contract"] + kind_index("farmer"))
    s.apply_action(LAYOUT["contract"] + kind_index("monk"))
    s.apply_action(LAYOUT["contract"] + kind_index("scholar"))
    assert seat(s, 0)["rice"] == 3
    assert seat(s, 1)["vp"]["super event"] == 2 * 3 + 1 * 2
    assert seat(s, 2)["vp"]["super event"] == 5


def test_contract_craftsmen_build():
    s = at_month_7("contract", players=2)
    s._debug_set_player(0, palaces=[(2, ["craftsman", "craftsman"])])
    blank_month(s, 7, "peace", tracks=[30, 20])
    s._debug_run_from("event")
    s.apply_action(LAYOUT["contract"] + kind_index("craftsman"))
    assert s.snapshot()["phase"] == "build" and s.snapshot()["todo"] == 2
    s.apply_action(build(0))
    s.apply_action(build(1))
    assert floors(s, 0)[:2] == [3, 1]
