"""Solo play with the virtual player, and the 8-game solo challenge (special rules, goals,
carried bonuses)."""
from __future__ import annotations

import pytest

from engine import OptionError
from engine.mount_tai import data
from tests.mount_tai.helpers import (
    act, building, cell, dry, effect, new_game, play_random, seat, talent, uncover, use_tile,
)


def solo(**options):
    s = new_game(solo=True, seed=options.pop("seed", 5), **options)
    dry(s)
    return s


def tidy_first(s):
    """The player's policy decision: tidy up the first uncovered tile, and stop."""
    s.apply_action(act("tidy", seat(s, 0)["uncovered"][0]))
    if s.snapshot()["phase"] == "tidy-up":
        s.apply_action(act("pass"))


def test_solo_setup():
    s = new_game(solo=True, seed=1)
    snap = s.snapshot()
    assert s.num_players() == 1 and snap["order"] == [0, "virtual"]
    assert [len(p) for p in snap["piles"]] == [1, 1, 1, 1, 1]  # Solo Play 1
    tiers = [data.TIER_OF[t] for t in snap["virtual_tiles"]]
    assert tiers == [1] * 3 + [2] * 7 + [3] * 6
    assert len(set(snap["virtual_tiles"])) == 16
    assert len(snap["blueprint"]) == 3  # as a 2-player game
    assert all(sum(1 for t in r if t is not None) == 2 for r in snap["events"])
    c = new_game(challenge=1).snapshot()
    assert [len(p) for p in c["piles"]] == [1, 1, 1, 2, 2]  # challenge: the 2-player table
    assert new_game(players=1).snapshot()["options"]["solo"] is True


def test_virtual_player_draws_one_tile_a_round_in_tier_order():
    s = new_game(solo=True, seed=2)
    tiles = s.snapshot()["virtual_tiles"]
    drawn = []
    while not s.is_terminal():
        play_random(s, seed=len(drawn), until=lambda x: len(x.snapshot()["virtual_drawn"]) > len(drawn)
                    or x.is_terminal())
        drawn = s.snapshot()["virtual_drawn"]
    assert drawn == tiles


def test_virtual_player_goes_first_after_a_lower_number_and_picks_its_event():
    s = solo()
    s._debug_set_board(virtual_tiles=[2] + [14] * 15,
                       events={0: [0, 8, None, None]},  # yellow +3 money, green +3 grain
                       piles=[[], [], [], [], []])      # nothing to recruit: 4 does nothing
    s._debug_policy(0)
    use_tile(s, 0, 4)
    snap = s.snapshot()
    assert snap["order"] == ["virtual", 0]
    # Both show 3: money comes before grain in the virtual player's priority; the player's
    # only tile left, the grain, is flipped for it (no choice); the virtual gains nothing.
    assert snap["events_used"][0][0] and snap["events_used"][0][1]
    assert seat(s, 0)["money"] == 6 and seat(s, 0)["grain"] == 2 + 3
    assert snap["round"] == 1 and snap["phase"] == "policy"


def test_virtual_player_event_priority_larger_number_then_wine_money_grain_reputation():
    from itertools import permutations
    cases = [([0, 8, 16, 24], 0), ([1, 8, 16, 24], 1), ([5, 10, 18, 24], 3), ([5, 10, 18, 31], 0)]
    for tiles, want in cases:
        s = solo()
        s._debug_set_board(events={0: tiles}, virtual_number=1, order=["virtual", 0])
        s._debug_run_from("events")
        used = s.snapshot()["events_used"][0]
        assert used.index(True) == want, (tiles, used)


def test_virtual_player_does_not_activate_when_second():
    s = solo()
    s._debug_set_board(virtual_tiles=[28] + [14] * 15)
    s._debug_policy(0)
    use_tile(s, 0, 1)
    # Edict 1's cultivation is due (tier I): one settlement, then stop.
    while s.snapshot()["phase"] in ("effect", "cultivate"):
        legal = s.legal_actions()
        s.apply_action(act("pass") if act("pass") in legal else legal[0])
    assert s.snapshot()["order"] == [0, "virtual"]
    r = s.snapshot()["round"]
    assert s.snapshot()["phase"] == "event" and len(s.legal_actions()) == 2
    s.apply_action(s.legal_actions()[0])
    assert sum(s.snapshot()["events_used"][r]) == 1


def test_solo_goal_and_returns():
    s = new_game(solo=True)
    assert s.solo_goal() == 80
    s._debug_set_player(0, reputation=80)
    s._debug_run_from("final")
    assert s.returns() == [1.0] and s.final_summary()["goal_reached"] is True
    assert "goal 80: reached" in str(s)
    s = new_game(challenge=7)
    s._debug_set_player(0, reputation=89)
    s._debug_run_from("final")
    assert s.returns() == [0.0] and s.final_summary()["goal"] == 90
    assert s.final_summary()["next_bonus"] == "none"
    goals = [new_game(challenge=g).solo_goal() for g in range(1, 9)]
    assert goals == [80, 80, 82, 82, 85, 85, 90, 90]


def test_challenge_2_loses_one_money_after_each_settlement():
    s = new_game(challenge=2, bonus_talent="none")
    s._debug_set_player(0, money=3)
    s._debug_set_board(round=1)
    s._debug_run_from("settle")
    assert seat(s, 0)["money"] == 2
    s = new_game(challenge=1)
    s._debug_set_player(0, money=3)
    s._debug_set_board(round=1)
    s._debug_run_from("settle")
    assert seat(s, 0)["money"] == 3


def test_challenge_3_no_action_of_the_previous_round():
    s = new_game(challenge=3, bonus_buildings="none")
    dry(s)
    s._debug_policy(0)
    use_tile(s, 0, 12)
    s.apply_action(effect("building a town"))
    s.apply_action(act("town", 0))
    play_random(s, seed=1, until=lambda x: x.snapshot()["phase"] == "policy")
    assert s.snapshot()["round"] == 1
    s._debug_set_player(0, cells={(0, 1): "settlement"})
    assert not s.effect_possible(0, "building a town")
    use_tile(s, 0, 5)  # cultivation / town: the tile may be used, the town not built
    assert effect("building a town") not in s.legal_actions()
    # Tier II: the one effect left that can be done is due (no stop).
    assert s.legal_actions() == [effect("barren land cultivation")]
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(s.legal_actions()[0])
    play_random(s, seed=2, until=lambda x: x.snapshot()["phase"] == "policy")
    assert s.effect_possible(0, "building a town")  # two rounds later it is allowed again
    tidy_first(s)
    play_random(s, seed=3, until=lambda x: x.snapshot()["phase"] == "policy")
    assert all(not (act("tidy") <= a < act("remove")) for a in s.legal_actions())


def test_challenge_4_town_start_and_events_only_when_first():
    s = new_game(challenge=4, bonus_talent="none")
    assert seat(s, 0)["cells"][0] == 3
    s._debug_set_board(order=["virtual", 0], virtual_number=1)
    s._debug_run_from("events")
    assert s.snapshot()["phase"] == "policy" and s.snapshot()["round"] == 1


def test_challenge_5_hidden_tiers_and_four_removals():
    s = new_game(challenge=5, bonus_talent="brewer")
    me = seat(s, 0)
    assert me["faceup"] == [25, 26, 27, 28]
    assert me["talents"] == [(talent("brewer"), 2)] and me["carried_talents"] == [0]
    assert all(talent("brewer") not in p for p in s.snapshot()["piles"])
    hidden = s.snapshot(hidden=False)["seats"][0]["slots"]
    assert hidden[0] == "?" and hidden[25] != "?"
    s._debug_policy(0)
    for k, slot in enumerate((25, 26, 27, 28)):
        s.apply_action(act("tidy" if k == 0 else "remove", slot))
    assert len(seat(s, 0)["gone"]) == 4 and s.snapshot()["phase"] != "tidy-up"
    # The tier II tiles uncovered by that turned face up.
    assert set(range(16, 25)) <= set(seat(s, 0)["faceup"])


def test_challenge_6_four_piles_of_i_ii_ii_iii():
    s = new_game(challenge=6, bonus_buildings="none")
    me = seat(s, 0)
    assert s.snapshot()["layout"] == "stacks"
    for p in range(4):
        tiers = [data.TIER_OF[me["slots"][p * 7 + d]] for d in range(7)]
        assert tiers == [1, 2, 2, 3, 3, 3, 3]
    assert me["uncovered"] == [0, 7, 14, 21] and me["faceup"] == [0, 7, 14, 21]


def test_challenge_7_four_random_piles_and_the_carried_talent_and_building():
    s = new_game(challenge=7, bonus_talent="pioneer", bonus_buildings="mint")
    me = seat(s, 0)
    assert len([t for t in me["slots"] if t is not None]) == 28
    assert me["talents"] == [(talent("pioneer"), 1)] and me["buildings"] == [building("mint")]
    assert me["faceup"] == [0, 7, 14, 21]


def test_challenge_8_six_stepped_columns_all_face_up():
    s = new_game(challenge=8, bonus_buildings="granary, yufu")
    me = seat(s, 0)
    assert s.snapshot()["layout"] == "steps"
    slots = me["slots"]
    assert len(slots) == 27 and all(t is not None for t in slots)
    assert {1, 2, 3, 4} <= set(slots[:5])  # the 4 tier I tiles in columns 1 and 2
    assert me["faceup"] == list(range(27))
    assert me["uncovered"] == [0, 2, 5, 9, 14, 20]
    assert me["buildings"] == [building("granary"), building("yufu")]


def test_challenge_bonus_chosen_at_setup():
    s = new_game(challenge=2)
    assert s.snapshot()["phase"] == "bonus talent" and s.current_player() == 0
    s.apply_action(act("bonus_talent", talent("publicist")))
    me = seat(s, 0)
    assert me["talents"] == [(talent("publicist"), 1)] and s.snapshot()["phase"] == "policy"
    s = new_game(challenge=8)
    assert s.snapshot()["phase"] == "bonus building"
    s.apply_action(act("bonus_building", building("mint")))
    assert act("bonus_building", building("granary")) not in s.legal_actions()  # ascending
    s.apply_action(act("bonus_building", building("yufu")))
    assert seat(s, 0)["buildings"] == [building("mint"), building("yufu")]


def test_carried_talent_is_outside_the_colour_rule():
    s = new_game(challenge=2, bonus_talent="brewer")
    dry(s)
    s._debug_set_board(piles=[[], [], [], ["pioneer"], []])
    s._debug_policy(0)
    use_tile(s, 0, 4)
    s.apply_action(effect("recruitment and development"))
    assert act("recruit", 3) in s.legal_actions()
    s.apply_action(act("recruit", 3))
    assert len(seat(s, 0)["talents"]) == 2


@pytest.mark.parametrize("options, fragment", [
    ({"challenge": 9}, "allowed: 1, 2"),
    ({"challenge": 2, "players": 3}, "solo play has 1 player"),
    ({"challenge": 1, "bonus_talent": "brewer"}, "only to challenge games 2, 4, 5 and 7"),
    ({"challenge": 2, "bonus_talent": "chef"}, "allowed: none, agricultural official"),
    ({"challenge": 2, "bonus_talent": "yin-yang master"}, "not in this game"),
    ({"challenge": 8, "bonus_buildings": "mint"}, "carries 2 building(s), got 1"),
    ({"challenge": 3, "bonus_buildings": "castle"}, "unknown building 'castle'"),
    ({"challenge": 8, "bonus_buildings": "mint,mint"}, "different kinds"),
    ({"solo": True, "grand_tutors": True}, "needs 2-4 players"),
])
def test_bad_solo_options(options, fragment):
    import engine
    with pytest.raises(OptionError) as e:
        engine.load_game("mount-tai", **options)
    assert fragment in str(e.value)
