"""One test per building (basic and promo), the building plan, the blueprint area and the
seasonal yields."""
from __future__ import annotations

from tests.mount_tai.helpers import (
    act, building, cell, effect, new_game, policy_position, seat, use_tile,
)

SPRING, SUMMER, AUTUMN, WINTER = 1, 3, 5, 7  # the round whose end settles that season


def settle(s, rnd):
    s._debug_set_board(round=rnd)
    s._debug_run_from("settle")


def owner(buildings, **player):
    s = new_game(4)
    s._debug_set_player(0, buildings=list(buildings), **player)
    return s


def test_granary_one_grain_every_settlement():
    for rnd in (SPRING, SUMMER):
        s = owner(["granary"], grain=0)
        settle(s, rnd)
        assert seat(s, 0)["grain"] == 1 and seat(s, 1)["grain"] == 2


def test_mint_one_money_every_settlement():
    for rnd in (SPRING, WINTER):
        s = owner(["mint"], money=0)
        settle(s, rnd)
        assert seat(s, 0)["money"] == 1


def test_works_office_two_grain_per_farmland_in_spring_and_autumn():
    farms = {(0, 1): "farmland", (1, 0): "farmland", (0, 2): "farmland"}
    for rnd, grain in ((SPRING, 6), (AUTUMN, 6), (SUMMER, 0)):
        s = owner(["works office"], grain=0, cells=farms)
        settle(s, rnd)
        assert seat(s, 0)["grain"] == grain, rnd
    s = new_game(4)
    s._debug_set_player(0, grain=0, cells=farms)
    settle(s, SPRING)
    assert seat(s, 0)["grain"] == 3  # without it: 1 per farmland


def test_free_market_two_money_per_town_in_summer_and_winter():
    towns = {(0, 0): "town", (0, 1): "town"}
    for rnd, money in ((SUMMER, 4), (WINTER, 4), (SPRING, 0)):
        s = owner(["free market"], money=0, cells=towns)
        settle(s, rnd)
        assert seat(s, 0)["money"] == money, rnd
    s = new_game(4)
    s._debug_set_player(0, money=0, cells=towns)
    settle(s, SUMMER)
    assert seat(s, 0)["money"] == 2


def test_imperial_academy_recruitment_for_free():
    s = policy_position(4)
    s._debug_set_player(0, buildings=["imperial academy"], money=0)
    s._debug_set_board(piles=[["agricultural official"], [], [], [], []])
    use_tile(s, 0, 4)
    s.apply_action(effect("recruitment and development"))
    s.apply_action(act("recruit", 0))
    assert seat(s, 0)["money"] == 0 and len(seat(s, 0)["talents"]) == 1


def test_yufu_cultivation_for_free():
    s = policy_position(4)
    s._debug_set_player(0, buildings=["yufu"], money=0)
    assert s.effect_possible(0, "barren land cultivation")
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("flat", cell(0, 1)))
    s.apply_action(act("flat", cell(0, 2)))
    assert seat(s, 0)["money"] == 0 and seat(s, 0)["cells"][2] == 1
    s = policy_position(4)
    s._debug_set_player(0, money=0)
    assert not s.effect_possible(0, "barren land cultivation")


def test_military_garrison_one_grain_per_farmland_in_summer_and_winter():
    farms = {(0, 1): "farmland", (1, 0): "farmland"}
    for rnd, grain in ((SUMMER, 2), (WINTER, 2), (SPRING, 2)):
        s = owner(["military garrison"], grain=0, cells=farms)
        settle(s, rnd)
        assert seat(s, 0)["grain"] == grain, rnd  # spring: the normal yield instead


def test_observatory_red_talent_for_one_money_and_a_second_red():
    s = policy_position(4)
    s._debug_set_player(0, talents=[("brewer", 1)])
    s._debug_set_board(blueprint=[("observatory", 1), ("mint", 1), ("granary", 1), ("yufu", 1)],
                       piles=[[], [], [], ["pioneer"], ["publicist"]])
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("observatory")))
    assert s.snapshot()["phase"] == "observatory"
    assert set(s.legal_actions()) == {act("recruit", 3), act("recruit", 4), act("pass")}
    s.apply_action(act("recruit", 4))
    me = seat(s, 0)
    assert len(me["talents"]) == 2 and me["money"] == 6 - 2 - 1
    # Two red talents now; a third red is refused.
    s._debug_policy(0)
    s._debug_set_player(0, money=9)
    use_tile(s, 0, 4)
    s.apply_action(effect("recruitment and development"))
    assert act("recruit", 3) not in s.legal_actions()


def test_at_most_one_building_of_each_kind():
    s = policy_position(4)
    s._debug_set_player(0, buildings=["mint"])
    s._debug_set_board(blueprint=[("mint", 2), ("granary", 1), ("yufu", 1), ("free market", 1)])
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    assert act("build", building("mint")) not in s.legal_actions()
    assert act("build", building("granary")) in s.legal_actions()


def test_blueprint_refill_stacks_repeats_until_enough_kinds():
    s = policy_position(4)
    s._debug_set_board(blueprint=[("mint", 1), ("granary", 1), ("yufu", 1), ("free market", 1)],
                       supply=["works office", "granary", "yufu"])  # next flip last
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("mint")))
    # Flips yufu (stacked), granary (stacked), works office (a new kind: 4 kinds again).
    assert s.snapshot()["blueprint"] == [(building("granary"), 2), (building("yufu"), 2),
                                         (building("free market"), 1),
                                         (building("works office"), 1)]
    assert s.snapshot()["supply_count"] == 0


def test_setup_building_counts_and_blueprint_kinds():
    for players, kinds, tiles in ((2, 3, 14), (3, 3, 14), (4, 4, 20)):
        for seed in range(5):
            snap = new_game(players, seed=seed).snapshot()
            assert len(snap["blueprint"]) == kinds
            assert sum(c for _, c in snap["blueprint"]) + snap["supply_count"] == tiles
    snap = new_game(4, promos=False).snapshot()
    assert sum(c for _, c in snap["blueprint"]) + snap["supply_count"] == 18


def test_yields_every_season_option():
    land = {(0, 1): "farmland", (0, 0): "town"}
    s = new_game(4, seasonal_yields=False)
    s._debug_set_player(0, grain=0, money=0, cells=land)
    settle(s, SUMMER)
    assert (seat(s, 0)["grain"], seat(s, 0)["money"]) == (1, 1)
    s = new_game(4)
    s._debug_set_player(0, grain=0, money=0, cells=land)
    settle(s, SUMMER)
    assert (seat(s, 0)["grain"], seat(s, 0)["money"]) == (0, 1)
    settle(s, AUTUMN)
    assert (seat(s, 0)["grain"], seat(s, 0)["money"]) == (1, 1)
