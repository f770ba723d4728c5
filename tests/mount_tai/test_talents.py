"""One test per talent level (Talent Cards: basic, promo and fan-designed), showing its effect.

Seat 0 acts unless said otherwise; the mountain is dry (no water, no tribes) unless a test adds
some. Event tile ids: yellow +3 money 0, yellow -1 money 2, green +3 grain 8, blue +3 reputation
16, red +1 wine 24, red +2 money 27, red exchange 31, tile "0" 32.
"""
from __future__ import annotations

import pytest

from engine.mount_tai import data
from tests.mount_tai.helpers import (
    act, building, cell, dry, effect, new_game, policy_position, seat, talent, uncover, use_tile,
)

NO_BONUS_MONEY = ["grain", "wine", "reputation", "money"]  # spring's bonus is grain


def events(s, tiles, bonus=("wine", "grain", "reputation", "money"), order=None, rnd=0):
    """Round `rnd`'s event tiles per colour space; run the event phase from its start."""
    n = s.num_players()
    s._debug_set_board(round=rnd, events={rnd % 8: tiles}, season_bonus=list(bonus),
                       order=order if order is not None else list(range(n)))
    s._debug_run_from("events")


def settle(s, rnd=1, praises=None):
    """The seasonal settlement after round `rnd` (1 = spring of year 1)."""
    s._debug_set_board(round=rnd, praises=praises or {})
    s._debug_run_from("settle")


def final(s):
    s._debug_run_from("final")
    assert s.is_terminal()


def final_talents(s, i=0) -> int:
    return seat(s, i)["reputation_by_source"]["talents at game end"]


def with_talents(*talents, players=4, seat_index=0, **player):
    s = policy_position(players)
    s._debug_set_player(seat_index, talents=list(talents), **player)
    return s


# -- Agricultural Official (green) -------------------------------------------------------------

def test_agricultural_official_1_grain_to_wine_on_reclamation():
    s = with_talents(("agricultural official", 1), cells={(0, 1): "settlement"}, grain=2)
    use_tile(s, 0, 7)
    s.apply_action(effect("farmland reclamation"))
    s.apply_action(act("reclaim", cell(0, 1)))
    assert s.snapshot()["phase"] == "agricultural wine"
    s.apply_action(act("yes"))
    me = seat(s, 0)
    assert (me["grain"], me["wine"], me["money"]) == (1, 1, 4)
    # Without the talent no such choice.
    s = with_talents(cells={(0, 1): "settlement"}, grain=2)
    use_tile(s, 0, 7)
    s.apply_action(effect("farmland reclamation"))
    s.apply_action(act("reclaim", cell(0, 1)))
    assert s.current_player() == 1


def test_agricultural_official_2_three_reclamations():
    s = with_talents(("agricultural official", 2), money=10, grain=0,
                     cells={(0, 1): "settlement", (0, 2): "settlement", (1, 0): "settlement"})
    use_tile(s, 0, 7)
    s.apply_action(effect("farmland reclamation"))
    for c in (cell(0, 0), cell(0, 1), cell(0, 2)):
        assert act("reclaim", c) in s.legal_actions()
        s.apply_action(act("reclaim", c))
    me = seat(s, 0)
    assert [me["cells"][c] for c in (0, 1, 2, 4)] == [2, 2, 2, 1] and me["money"] == 4
    assert s.current_player() == 1  # the third was the last
    # Level 1 alone: once.
    s = with_talents(("agricultural official", 1), money=10, grain=0,
                     cells={(0, 1): "settlement"})
    use_tile(s, 0, 7)
    s.apply_action(effect("farmland reclamation"))
    s.apply_action(act("reclaim", cell(0, 0)))
    assert s.current_player() == 1


def test_agricultural_official_3_one_reputation_per_farmland():
    s = with_talents(("agricultural official", 3),
                     cells={(0, 1): "farmland", (0, 2): "farmland", (1, 0): "farmland"})
    final(s)
    assert final_talents(s) == 3


# -- Commercial Official (yellow) ---------------------------------------------------------------

def test_commercial_official_1_grain_with_a_town():
    s = with_talents(("commercial official", 1), grain=0)
    use_tile(s, 0, 12)
    s.apply_action(effect("building a town"))
    s.apply_action(act("town", 0))
    me = seat(s, 0)
    assert (me["grain"], me["money"], me["cells"][0]) == (1, 5, 3)


def test_commercial_official_2_two_towns():
    s = with_talents(("commercial official", 2), grain=0, cells={(0, 1): "settlement"})
    use_tile(s, 0, 12)
    s.apply_action(effect("building a town"))
    s.apply_action(act("town", cell(0, 0)))
    assert act("town", cell(0, 1)) in s.legal_actions() and act("pass") in s.legal_actions()
    s.apply_action(act("town", cell(0, 1)))
    me = seat(s, 0)
    assert me["cells"][:2] == [3, 3] and me["money"] == 4 and me["grain"] == 2


def test_commercial_official_3_three_per_two_towns():
    s = with_talents(("commercial official", 3),
                     cells={(0, 0): "town", (0, 1): "town", (0, 2): "town"})
    final(s)
    assert final_talents(s) == 3


# -- Sacrifice Official (blue) ------------------------------------------------------------------

def test_sacrifice_official_1_celebration_plus_3():
    s = with_talents(("sacrifice official", 1), grain=3, wine=3)
    use_tile(s, 0, 8)
    s.apply_action(effect("celebration"))
    me = seat(s, 0)
    assert (me["grain"], me["wine"], me["reputation"]) == (0, 0, 9)


def test_sacrifice_official_2_sacrifice_plus_2():
    s = with_talents(("sacrifice official", 2), grain=2, wine=1, cells={(3, 3): "ascent"})
    use_tile(s, 0, 13)
    s.apply_action(effect("sacrifice to heaven"))
    assert seat(s, 0)["reputation"] == 8


def test_sacrifice_official_3_one_per_level_of_every_talent():
    s = with_talents(("sacrifice official", 3), ("brewer", 2), ("pioneer", 1))
    final(s)
    assert final_talents(s) == 6


# -- Brewer (red) -------------------------------------------------------------------------------

def test_brewer_1_brewing_twice():
    s = with_talents(("brewer", 1), grain=7)
    use_tile(s, 0, 3)
    s.apply_action(effect("brewing"))
    assert s.legal_actions() == [act("amount", k) for k in range(1, 7)]
    s.apply_action(act("amount", 6))
    assert (seat(s, 0)["grain"], seat(s, 0)["wine"]) == (1, 6)
    s = with_talents(grain=7)
    use_tile(s, 0, 3)
    s.apply_action(effect("brewing"))
    assert s.legal_actions() == [act("amount", k) for k in range(1, 4)]


def test_brewer_2_grain_to_wine_at_settlement():
    s = new_game(4)
    s._debug_set_player(0, talents=[("brewer", 2)], grain=2)
    settle(s)
    assert s.snapshot()["phase"] == "brewer wine" and s.current_player() == 0
    s.apply_action(act("yes"))
    assert (seat(s, 0)["grain"], seat(s, 0)["wine"]) == (1, 1)


def test_brewer_3_one_reputation_per_wine():
    s = with_talents(("brewer", 3), wine=5)
    final(s)
    assert final_talents(s) == 5


# -- Administrative Official (red) --------------------------------------------------------------

def test_administrative_official_1_tidy_up_removes_one_more():
    s = with_talents(("administrative official", 1))
    s.apply_action(act("tidy", 25))
    assert act("pass") not in s.legal_actions()  # the extra removal is due
    s.apply_action(act("remove", 26))
    assert act("pass") in s.legal_actions() and act("remove", 27) in s.legal_actions()
    s.apply_action(act("remove", 27))
    assert len(seat(s, 0)["gone"]) == 3 and s.current_player() == 1


def test_administrative_official_1_primitive_tribe_removes_a_tile():
    s = with_talents(("administrative official", 1))
    s._debug_set_board(tribes={(0, cell(0, 1))})
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("flat", cell(0, 1)))
    s.apply_action(act("pass"))
    snap = s.snapshot()
    assert snap["phase"] == "remove" and snap["remove_context"] == "primitive tribe"
    assert act("pass") not in s.legal_actions()
    before = len(seat(s, 0)["gone"])
    s.apply_action(s.legal_actions()[0])
    assert len(seat(s, 0)["gone"]) == before + 1


def test_administrative_official_2_removes_a_tile_at_settlement():
    s = new_game(4)
    s._debug_set_player(0, talents=[("administrative official", 2)])
    settle(s)
    assert s.snapshot()["phase"] == "remove" and s.current_player() == 0
    s.apply_action(act("remove", 28))
    assert 28 not in [i for i, t in enumerate(seat(s, 0)["slots"]) if t is not None]


def test_administrative_official_3_tier_iii_tiles_used_or_removed():
    s = with_talents(("administrative official", 3))
    slot = uncover(s, 0, 20)
    s.apply_action(act("tidy", slot))  # a removed tier III tile counts
    assert seat(s, 0)["tier3"] == 1
    s._debug_set_player(0, tier3=7)
    final(s)
    assert final_talents(s) == 7


# -- Pioneer (red) ------------------------------------------------------------------------------

def test_pioneer_1_grain_per_cultivation_action():
    s = with_talents(("pioneer", 1), grain=0)
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("flat", cell(0, 1)))
    s.apply_action(act("flat", cell(0, 2)))
    assert seat(s, 0)["grain"] == 1  # two placements, one action


def test_pioneer_2_two_mountain_cultivations():
    s = with_talents(("pioneer", 2), cells={(1, 0): "settlement"})
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("mountain", cell(1, 1)))
    assert s.snapshot()["phase"] == "cultivate"
    s.apply_action(act("mountain", cell(0, 1)))  # from (1, 1) down to layer 1
    me = seat(s, 0)
    assert me["cells"][cell(1, 1)] == 1 and me["cells"][cell(0, 1)] == 1 and me["money"] == 4
    s = with_talents(("pioneer", 1), cells={(1, 0): "settlement"})
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("mountain", cell(1, 1)))
    assert s.current_player() == 1


def test_pioneer_3_tiles_on_layers_2_and_3():
    s = with_talents(("pioneer", 3), cells={(0, 1): "settlement", (1, 1): "farmland",
                                            (1, 2): "town", (2, 2): "settlement",
                                            (2, 3): "settlement", (3, 3): "ascent"})
    final(s)
    assert final_talents(s) == 4


# -- Publicist (red) ----------------------------------------------------------------------------

def test_publicist_1_reputation_with_blue_events_but_not_tile_0():
    s = new_game(4)
    s._debug_set_player(0, talents=[("publicist", 1)])
    events(s, [0, 8, 16, 24])
    s.apply_action(act("event", 2))
    assert seat(s, 0)["reputation"] == 3 + 1
    s = new_game(4)
    s._debug_set_player(0, talents=[("publicist", 1)])
    events(s, [0, 8, 32, 24])
    s.apply_action(act("event", 2))
    assert seat(s, 0)["reputation"] == 0


def test_publicist_2_yellow_green_red_rewards_plus_1():
    for space, tile, res, base in ((0, 0, "money", 6), (1, 8, "grain", 2), (3, 24, "wine", 0)):
        s = new_game(4)
        s._debug_set_player(0, talents=[("publicist", 2)])
        events(s, [0, 8, 16, 24], bonus=("reputation", "grain", "wine", "money"))
        s.apply_action(act("event", space))
        gain = data.EVENT_TILES[tile].amount + 1
        assert seat(s, 0)[res] == base + gain, res


def test_publicist_3_players_per_resource_track_led():
    s = new_game(4)
    s._debug_set_player(0, talents=[("publicist", 3)], money=10, grain=2, wine=0)
    final(s)
    # money: alone first; grain: tied first (counts); wine: 0 does not count.
    assert final_talents(s) == 2 * 4
    solo = new_game(solo=True)
    solo._debug_set_player(0, talents=[("publicist", 3)], money=1, grain=1, wine=1)
    final(solo)
    assert final_talents(solo) == 3 * data.SOLO_PUBLICIST_PLAYERS


# -- Trader (red, promo) ------------------------------------------------------------------------

def test_trader_1_exchange_at_settlement():
    s = new_game(4)
    s._debug_set_player(0, talents=[("trader", 1)], money=3, grain=0)
    settle(s)
    assert s.snapshot()["phase"] == "trade"
    assert act("exchange", 3) not in s.legal_actions()  # no grain to trade
    s.apply_action(act("exchange", 0))
    assert (seat(s, 0)["money"], seat(s, 0)["grain"]) == (2, 1)


def test_trader_2_three_money_when_anyone_activates_the_exchange():
    s = new_game(4)
    s._debug_set_player(1, talents=[("trader", 2)])
    events(s, [0, 8, 16, 31])
    s.apply_action(act("event", 3))  # seat 0 activates the exchange event
    assert seat(s, 1)["money"] == 6 + 3
    assert s.snapshot()["phase"] == "exchange" and s.current_player() == 0
    s.apply_action(act("exchange", 1))  # 2 money for 2 grain
    assert (seat(s, 0)["money"], seat(s, 0)["grain"]) == (4, 4)


def test_trader_3_grain_and_money_pairs():
    s = with_talents(("trader", 3), grain=4, money=7)
    final(s)
    assert final_talents(s) == 4


# -- Yin-Yang Master (red, promo, 3-4 players) ---------------------------------------------------

def test_yin_yang_master_1_wins_turn_order_ties():
    s = new_game(4)
    s._debug_set_board(order=[0, 1, 2, 3])
    s._debug_set_player(1, talents=[("yin-yang master", 1)])
    for who, number in ((0, 15), (1, 15), (2, 20), (3, 21)):
        s._debug_set_player(who, turn_number=number)
    s._debug_run_from("order")
    assert s.snapshot()["order"][:2] == [1, 0]


def test_yin_yang_master_2_first_player_chooses_the_reward_type():
    s = new_game(4)
    s._debug_set_player(0, talents=[("yin-yang master", 2)])
    events(s, [0, 8, 16, 24], bonus=("reputation", "grain", "wine", "money"))
    s.apply_action(act("event", 1))  # green +3 grain
    assert s.snapshot()["phase"] == "yin-yang"
    s.apply_action(act("resource", 3))  # as reputation, the season's bonus type: +1
    assert seat(s, 0)["reputation"] == 4 and seat(s, 0)["grain"] == 2
    # Not first in turn order: no choice.
    s = new_game(4)
    s._debug_set_player(1, talents=[("yin-yang master", 2)])
    events(s, [0, 8, 16, 24])
    s.apply_action(act("event", 0))
    s.apply_action(act("event", 1))
    assert s.current_player() == 2


def test_yin_yang_master_3_copies_the_best_level_3_skill_of_another_card():
    s = new_game(4)
    s._debug_set_player(0, talents=[("yin-yang master", 3)], wine=5,
                        cells={(0, 1): "farmland"})
    s._debug_set_player(1, talents=[("brewer", 1), ("agricultural official", 2)])
    assert s.level3_value(0, "yin-yang master") == 5
    final(s)
    assert final_talents(s) == 5
    assert final_talents(s, 1) == 0


def test_yin_yang_master_and_dugu_wei_are_not_in_2_player_games():
    for seed in range(30):
        snap = new_game(2, seed=seed).snapshot()
        assert all(k not in (talent("yin-yang master"), talent("dugu wei"))
                   for pile in snap["piles"] for k in pile)


# -- Architect (red, promo) ---------------------------------------------------------------------

def test_architect_1_building_plan_1_cheaper():
    s = with_talents(("architect", 1))
    s._debug_set_board(blueprint=[("works office", 1), ("mint", 1), ("granary", 1),
                                  ("yufu", 1)], supply=[])
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("works office")))
    assert seat(s, 0)["money"] == 4


def test_architect_2_town_in_spring_reclamation_in_summer():
    s = new_game(4)
    dry(s)
    s._debug_set_player(0, talents=[("architect", 2), ("commercial official", 2)])
    settle(s, rnd=1)
    assert s.snapshot()["phase"] == "architect"
    assert all(not (act("reclaim") <= a < act("town")) for a in s.legal_actions())
    s.apply_action(act("town", 0))
    me = seat(s, 0)
    # One town only (the commercial official's level 2 does not combine), its level 1 does.
    assert me["cells"][0] == 3 and me["grain"] == 2 + 1
    assert s.snapshot()["round"] == 2 and s.snapshot()["phase"] == "policy"
    s = new_game(4)
    dry(s)
    s._debug_set_player(0, talents=[("architect", 2)], money=2)
    settle(s, rnd=3)
    assert s.snapshot()["phase"] == "architect"
    s.apply_action(act("reclaim", 0))
    assert seat(s, 0)["cells"][0] == 2 and seat(s, 0)["money"] == 0


def test_architect_3_three_per_two_buildings():
    s = with_talents(("architect", 3), buildings=["granary", "mint", "yufu", "works office",
                                                  "free market"])
    final(s)
    assert final_talents(s) == 6


# -- Dugu Wei (red, promo, 3-4 players) -----------------------------------------------------------

def test_dugu_wei_1_reputation_when_first_in_turn_order():
    s = new_game(4)
    s._debug_set_player(2, talents=[("dugu wei", 1)])
    for who, number in ((0, 15), (1, 16), (2, 3), (3, 21)):
        s._debug_set_player(who, turn_number=number)
    s._debug_run_from("order")
    assert s.snapshot()["order"][0] == 2
    assert seat(s, 2)["reputation_by_source"]["talents during play"] == 1


def test_dugu_wei_2_sole_leader_gains_one():
    s = new_game(4)
    s._debug_set_player(0, talents=[("dugu wei", 2)], money=9, grain=2, wine=0)
    settle(s, rnd=1)
    me = seat(s, 0)
    assert me["money"] == 10  # alone first on money
    assert me["grain"] == 2 and me["wine"] == 0  # grain tied, wine tied at 0


def test_dugu_wei_3_fifteen_if_the_only_talent():
    s = with_talents(("dugu wei", 3))
    final(s)
    assert final_talents(s) == 15
    s = with_talents(("dugu wei", 3), ("agricultural official", 1))
    final(s)
    assert final_talents(s) == 0


# -- Firstborn Grandchild (red, fan-designed) -----------------------------------------------------

def test_firstborn_1_gift_on_recruitment():
    s = policy_position(4)
    s._debug_set_board(piles=[[], [], [], ["firstborn grandchild"], []])
    use_tile(s, 0, 4)
    s.apply_action(effect("recruitment and development"))
    s.apply_action(act("recruit", 3))
    me = seat(s, 0)
    assert (me["money"], me["grain"], me["wine"], me["reputation"]) == (6 - 1 + 1, 3, 1, 1)


def test_firstborn_2_one_more_when_an_eight_praises_condition_is_met():
    s = new_game(4)
    s._debug_set_player(0, talents=[("firstborn grandchild", 2)],
                        cells={(0, 1): "farmland", (1, 0): "farmland"})
    settle(s, rnd=1, praises={(0, 0): "壮矣"})
    assert seat(s, 0)["reputation"] == 5 + 1
    assert seat(s, 1)["reputation"] == 0


def test_firstborn_3_year_2_winter_tile_once_more():
    s = new_game(4)
    s._debug_set_board(praises={(1, 3): "壮矣"})
    s._debug_set_player(0, talents=[("firstborn grandchild", 3)],
                        cells={(0, 1): "farmland", (1, 0): "farmland", (0, 2): "farmland"})
    final(s)
    assert final_talents(s) == 3 * 2 + 1  # with the level 2 skill


# -- Vanguard (red, fan-designed) -----------------------------------------------------------------

def test_vanguard_1_counts_one_less_and_first_times_counted():
    s = new_game(4)
    s._debug_set_board(order=[0, 1, 2, 3])
    s._debug_set_player(1, talents=[("vanguard", 1)])
    for who, number in ((0, 14), (1, 15), (2, 20), (3, 21)):
        s._debug_set_player(who, turn_number=number)
    s._debug_run_from("order")
    # 15 - 1 = 14 ties with seat 0's 14: the earlier seat keeps its place.
    assert s.snapshot()["order"][:2] == [0, 1]
    s = new_game(4)
    s._debug_set_board(order=[1, 0, 2, 3])
    s._debug_set_player(1, talents=[("vanguard", 1)])
    for who, number in ((0, 14), (1, 15), (2, 20), (3, 21)):
        s._debug_set_player(who, turn_number=number)
    s._debug_run_from("order")
    assert s.snapshot()["order"][:2] == [1, 0] and seat(s, 1)["firsts"] == 1


def test_vanguard_2_first_player_reward_plus_1():
    s = new_game(4)
    s._debug_set_player(0, talents=[("vanguard", 2)])
    events(s, [0, 8, 16, 24], bonus=("reputation", "grain", "wine", "money"))
    s.apply_action(act("event", 0))
    assert seat(s, 0)["money"] == 6 + 3 + 1


def test_vanguard_3_twice_the_times_first():
    s = with_talents(("vanguard", 3), firsts=3)
    final(s)
    assert final_talents(s) == 6


# -- Village Elder (red, fan-designed) -----------------------------------------------------------

def test_village_elder_1_money_instead_of_wine_at_a_celebration():
    s = with_talents(("village elder", 1), grain=3, wine=1, money=5)
    use_tile(s, 0, 8)
    s.apply_action(effect("celebration"))
    assert s.legal_actions() == [act("amount", 2), act("amount", 3)]
    s.apply_action(act("amount", 2))
    me = seat(s, 0)
    assert (me["grain"], me["wine"], me["money"], me["reputation"]) == (0, 0, 3, 6)
    s = with_talents(grain=3, wine=1, money=5)
    assert not s.effect_possible(0, "celebration")


def test_village_elder_2_money_instead_of_wine_at_a_sacrifice():
    s = with_talents(("village elder", 2), grain=2, wine=0, money=1, cells={(3, 3): "ascent"})
    use_tile(s, 0, 13)
    s.apply_action(effect("sacrifice to heaven"))
    me = seat(s, 0)
    assert (me["grain"], me["money"], me["reputation"]) == (0, 0, 6)
    s = with_talents(("village elder", 2), grain=2, wine=1, money=1, cells={(3, 3): "ascent"})
    use_tile(s, 0, 13)
    s.apply_action(effect("sacrifice to heaven"))
    assert s.legal_actions() == [act("amount", 0), act("amount", 1)]


def test_village_elder_3_three_per_building():
    s = with_talents(("village elder", 3), buildings=["granary", "mint"])
    final(s)
    assert final_talents(s) == 6


# -- Secretary (red, fan-designed) ---------------------------------------------------------------

def test_secretary_1_discard_a_tile_after_a_building_plan():
    s = with_talents(("secretary", 1))
    s._debug_set_board(blueprint=[("mint", 1), ("granary", 1), ("yufu", 1), ("free market", 1)])
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("mint")))
    assert s.snapshot()["phase"] == "remove" and act("pass") in s.legal_actions()
    gone = len(seat(s, 0)["gone"])
    s.apply_action([a for a in s.legal_actions() if a != act("pass")][0])
    assert len(seat(s, 0)["gone"]) == gone + 1


def test_secretary_2_swap_two_uncovered_tiles_at_settlement():
    s = new_game(4)
    s._debug_set_player(0, talents=[("secretary", 2)])
    before = seat(s, 0)["slots"]
    settle(s)
    assert s.snapshot()["phase"] == "swap"
    s.apply_action(act("swap", 25))
    s.apply_action(act("swap", 28))
    after = seat(s, 0)["slots"]
    assert (after[25], after[28]) == (before[28], before[25])


def test_secretary_3_one_more_policy_decision_before_scoring():
    s = new_game(4)
    dry(s)
    s._debug_set_player(2, talents=[("secretary", 3)], grain=3, wine=3)
    s._debug_set_board(round=16)
    s._debug_run_from("secretary")
    assert s.current_player() == 2 and s.snapshot()["phase"] == "policy"
    use_tile(s, 2, 8)
    s.apply_action(effect("celebration"))
    assert s.is_terminal() and seat(s, 2)["reputation_by_source"]["celebration"] == 6


# -- Descendant of Zheng (red, fan-designed) -----------------------------------------------------

def test_descendant_of_zheng_1_artificial_water_after_cultivation():
    s = with_talents(("descendant of zheng", 1))
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("flat", cell(0, 1)))
    s.apply_action(act("pass"))
    assert s.snapshot()["phase"] == "water"
    assert act("water", cell(0, 2)) in s.legal_actions()
    assert act("water", cell(1, 1)) in s.legal_actions()
    s.apply_action(act("water", cell(0, 2)))
    assert s.next_to_water(0, cell(0, 1))
    # The water is a water source: no cultivation there, free reclamation next to it.
    s._debug_policy(0)
    use_tile(s, 0, 7)
    s.apply_action(effect("farmland reclamation"))
    money = seat(s, 0)["money"]
    s.apply_action(act("reclaim", cell(0, 1)))
    assert seat(s, 0)["money"] == money


def test_descendant_of_zheng_2_cultivate_across_water():
    s = with_talents(("descendant of zheng", 2))
    s._debug_set_board(water={(0, cell(0, 1))})
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    assert act("flat", cell(0, 2)) in s.legal_actions()
    s = with_talents(("descendant of zheng", 1))
    s._debug_set_board(water={(0, cell(0, 1))})
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    assert act("flat", cell(0, 2)) not in s.legal_actions()


def test_descendant_of_zheng_3_three_per_two_tiles_next_to_water():
    s = with_talents(("descendant of zheng", 3),
                     cells={(0, 1): "settlement", (0, 3): "farmland", (1, 0): "town",
                            (1, 3): "settlement"})
    s._debug_set_board(water={(0, cell(0, 2)), (0, cell(2, 0))})
    # Next to water (layer 1 water, same height): (0, 1) and (0, 3) beside (0, 2), (1, 0)
    # beside (2, 0); not (0, 0), nor (1, 3) on layer 2.
    final(s)
    assert final_talents(s) == 3  # 3 tiles next to water -> one pair


# -- The colour rule --------------------------------------------------------------------------

def test_one_talent_per_colour():
    s = with_talents(("brewer", 1))
    s._debug_set_board(piles=[["agricultural official"], [], [], ["pioneer"], []])
    use_tile(s, 0, 4)
    s.apply_action(effect("recruitment and development"))
    assert act("recruit", 3) not in s.legal_actions()  # a second red
    assert act("recruit", 0) in s.legal_actions()


@pytest.mark.parametrize("kind", range(16))
def test_every_talent_has_three_skills_in_data(kind):
    t = data.TALENTS[kind]
    assert all(t.skills) and t.level_costs == (2, 3) and t.recruit_cost == 1
