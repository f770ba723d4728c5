"""Issue 13: the readings that followed the rulebook less closely than they could, each pinned to
the rulebook passage it now follows (shared/rules/mount-tai-rulebook.txt).

Seat 0 acts on a dry mountain unless said otherwise.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.mount_tai import data
from tests.mount_tai.helpers import (
    act, building, cell, dry, effect, new_game, play_random, policy_position, seat, slot_of,
    use_tile,
)

SPRING, SUMMER = 1, 3               # the round whose end settles that season (year 1)
YEAR2_SPRING = 9


def settle(s, rnd, praises=None):
    s._debug_set_board(round=rnd, praises=praises or {})
    return s._debug_run_from("settle")


def owner(*, players=4, buildings=(), talents=(), **player):
    s = new_game(players, **player.pop("options", {}))
    s._debug_set_board(water=set(), tribes=set())
    s._debug_set_player(0, buildings=list(buildings), talents=list(talents), **player)
    return s


# -- 1. Buildings settle before talents --------------------------------------------------------
# "During seasonal settlement, building tiles and talent cards may activate their corresponding
# abilities. First settle the building tiles, then settle the talent cards."

def test_brewer_2_gets_the_works_office_grain_settled_first():
    # Works Office: "In the spring and autumn seasonal settlement phases, the player gains 2
    # grain for each farmland." A level-2 Brewer with no grain and 2 farmland: the 4 grain come
    # first, so the Brewer's grain -> wine is offered.
    farms = {(0, 1): "farmland", (1, 0): "farmland"}
    s = owner(buildings=["works office"], talents=[("brewer", 2)], grain=0, wine=0, cells=farms)
    ev = settle(s, SPRING)
    assert s.snapshot()["phase"] == "brewer wine" and s.current_player() == 0
    works = [e for e in ev if e.kind == "settle_building" and e.seat == 0]
    assert [e.cause for e in works] == ["works office"] and works[0].amounts["amount"] == 4
    s.apply_action(act("yes"))
    assert (seat(s, 0)["grain"], seat(s, 0)["wine"]) == (3, 1)


def test_brewer_2_gets_the_garrison_grain_settled_first():
    # Military Garrison: "In the summer and winter seasonal settlement phases, the player gains 1
    # grain for each farmland in their personal fief."
    s = owner(buildings=["military garrison"], talents=[("brewer", 2)], grain=0,
              cells={(0, 1): "farmland", (1, 0): "farmland"})
    settle(s, SUMMER)
    assert s.snapshot()["phase"] == "brewer wine"
    s.apply_action(act("yes"))
    assert (seat(s, 0)["grain"], seat(s, 0)["wine"]) == (1, 1)


def test_trader_1_holding_nothing_trades_the_free_market_money():
    # Free Market: "In the summer and winter seasonal settlement phases, the player gains 2 money
    # for each town." A level-1 Trader with 0 money and 0 grain: the market's money is there.
    s = owner(buildings=["free market"], talents=[("trader", 1)], money=0, grain=0,
              cells={(0, 0): "town", (0, 1): "town"})
    settle(s, SUMMER)
    assert s.snapshot()["phase"] == "trade"
    assert act("exchange", 0) in s.legal_actions()      # 1 money -> 1 grain
    s.apply_action(act("exchange", 0))
    assert (seat(s, 0)["money"], seat(s, 0)["grain"]) == (3, 1)


def test_architect_reclamation_is_not_paid_by_the_garrison():
    # The Architect's level 2 reclaims farmland in summer; the Garrison settled before it, on the
    # fief as it stood: the new farmland yields its 1 grain (every-season yields), not 2.
    s = owner(buildings=["military garrison"], talents=[("architect", 2)], grain=0, money=5,
              cells={(0, 1): "settlement"}, options={"seasonal_yields": False})
    ev = settle(s, SUMMER)
    assert not [e for e in ev if e.kind == "settle_building" and e.seat == 0]  # no farmland yet
    assert s.snapshot()["phase"] == "architect"
    s.apply_action(act("reclaim", cell(0, 1)))
    assert seat(s, 0)["cells"][cell(0, 1)] == 2 and seat(s, 0)["grain"] == 1   # not 2
    # With the default seasonal yields farmland yields nothing in summer: 0 grain, not 1.
    s = owner(buildings=["military garrison"], talents=[("architect", 2)], grain=0, money=5,
              cells={(0, 1): "settlement"})
    settle(s, SUMMER)
    s.apply_action(act("reclaim", cell(0, 1)))
    assert seat(s, 0)["grain"] == 0


def test_settlement_events_follow_the_new_order():
    # The Garrison's event comes before the Brewer's decision, the land's after it.
    s = owner(buildings=["military garrison", "granary"], talents=[("brewer", 2)], grain=0,
              cells={(0, 1): "farmland"}, options={"seasonal_yields": False})
    ev = settle(s, SUMMER)
    mine = [(e.kind, e.cause) for e in ev if e.seat == 0]
    assert mine == [("settle_building", "granary"), ("settle_building", "military garrison")]
    s.apply_action(act("pass"))
    after = [(e.kind, e.amounts.get("amount")) for e in s.events() if e.seat == 0
             and e.kind in ("settle_building", "settle_land")]
    assert after == [("settle_land", 1)]
    assert seat(s, 0)["grain"] == 1 + 1 + 1


# -- 2. Year-two 高矣 counts the layers reached ------------------------------------------------
# "高矣: For each layer of the personal fief the player has reached (4 layers in total), the
# player gains 2 reputation."

def test_gao_yi_year_2_counts_layers_reached_not_the_highest():
    # With the Descendant of Zheng's level 2 ("may cultivate across a water source") a player
    # climbs from layer 1 to layer 3 over a water source on layer 2.
    s = policy_position(4)
    s._debug_set_player(0, talents=[("descendant of zheng", 2)],
                        cells={(0, 1): "settlement", (0, 2): "settlement"})
    s._debug_set_board(water={(0, cell(1, 2))})
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("mountain", cell(2, 2)))         # layer 1 -> layer 3, across the water
    cells = seat(s, 0)["cells"]
    layers = {min(divmod(l, 4)) + 1 for l in range(16) if cells[l]}
    assert layers == {1, 3}
    rep = seat(s, 0)["reputation"]
    ev = settle(s, YEAR2_SPRING, praises={(1, 0): "高矣"})
    praise = [e for e in ev if e.kind == "praise" and e.seat == 0][0]
    assert praise.amounts["measure"] == 2 and praise.points == 4      # two layers, not three
    assert seat(s, 0)["reputation"] == rep + 4


# Year one, read the same way (issue 36): "高矣: If the player cultivates the 2nd layer of their
# personal fief through barren land cultivation, the player gains 5 reputation." Layer 2 must
# hold a tile; {1, 3} (layer 2 crossed over a water source) does not pay.

def _climb(across_water: bool, **options):
    """Seat 0 cultivates the mountain from its layer-1 settlement at (0, 1): across the water
    source on (1, 2) to layer 3 (the Descendant of Zheng's level 2), or up to layer 2."""
    s = policy_position(4, **options)
    s._debug_set_player(0, talents=[("descendant of zheng", 2)],
                        cells={(0, 1): "settlement", (0, 2): "settlement"})
    s._debug_set_board(water={(0, cell(1, 2))})
    use_tile(s, 0, 1)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("mountain", cell(2, 2) if across_water else cell(1, 1)))
    cells = seat(s, 0)["cells"]
    layers = {min(divmod(l, 4)) + 1 for l in range(16) if cells[l]}
    assert layers == ({1, 3} if across_water else {1, 2})
    return s


def _year_one_gao_yi(s):
    """Seat 0's year-one 高矣 at the spring settlement: (reputation, measure)."""
    rep = seat(s, 0)["reputation"]
    ev = settle(s, SPRING, praises={(0, 0): "高矣"})
    praise = [e for e in ev if e.kind == "praise" and e.seat == 0]
    assert len(praise) == 1 and seat(s, 0)["reputation"] == rep + praise[0].points
    return praise[0].points, praise[0].amounts["measure"]


def test_gao_yi_year_1_needs_a_tile_on_layer_2():
    assert _year_one_gao_yi(_climb(across_water=True)) == (0, 1)      # layers {1, 3}
    assert _year_one_gao_yi(_climb(across_water=False)) == (5, 2)     # layers {1, 2}
    # The settlement alone on layer 3 (a position set up, not played) pays nothing either.
    assert _year_one_gao_yi(owner(cells={(2, 2): "settlement"})) == (0, 1)
    assert _year_one_gao_yi(owner()) == (0, 1)


def test_gao_yi_year_1_counts_the_ascent_and_a_tile_on_layer_2_among_others():
    s = owner(cells={(1, 1): "farmland", (2, 2): "town", (3, 3): "ascent"})
    assert _year_one_gao_yi(s) == (5, 2)
    s = owner(cells={(2, 2): "town", (3, 3): "ascent"})
    assert _year_one_gao_yi(s) == (0, 1)


def test_option_gao_yi_above_layer_1_keeps_the_earlier_reading():
    # Any tile above layer 1 paid: {1, 3} scores the 5, as before issue 36.
    s = _climb(across_water=True, gao_yi_above_layer_1=True)
    assert _year_one_gao_yi(s) == (5, 2)
    assert _year_one_gao_yi(_climb(across_water=False, gao_yi_above_layer_1=True)) == (5, 2)
    # legacy_readings (before issue 13) read year one so too (the highest layer, 3).
    assert _year_one_gao_yi(_climb(across_water=True, legacy_readings=True)) == (5, 3)
    # The option leaves year two alone: two layers, 4 reputation.
    s = _climb(across_water=True, gao_yi_above_layer_1=True)
    ev = settle(s, YEAR2_SPRING, praises={(1, 0): "高矣"})
    assert [e.points for e in ev if e.kind == "praise" and e.seat == 0] == [4]
    option = {o.name: o for o in engine.load_game("mount-tai").OPTIONS}["gao_yi_above_layer_1"]
    assert option.default is False and "issue 36" in option.help


def test_the_search_knowledge_reads_year_one_gao_yi_the_same_way():
    # The projected value (knowledge.features[1]) of a year with 高矣 in every season: layers
    # {1, 3} are worth far less than {1, 2} now, and as much with the earlier reading.
    from engine.mount_tai.knowledge import features

    def value(across_water: bool, **options) -> float:
        s = _climb(across_water, **options)
        s._debug_set_board(praises={(0, k): "高矣" for k in range(4)})
        return features(s, 0)[1]

    assert value(True) < value(False) - 10
    assert value(True, gao_yi_above_layer_1=True) >= value(False, gao_yi_above_layer_1=True)


# -- 3. Edict effects as printed -------------------------------------------------------------
# "Edict tile 【I】: the tile has only one action effect, which is executed."
# "Edict tile 【II】: the tile has two action effects; choose one of the two and execute it."
# "Edict tile 【III】: the tile has two action effects, and both may be executed."

def test_tier_1_effect_is_executed_when_it_can_be():
    s = policy_position(4)
    use_tile(s, 0, 1)                                   # cultivation
    assert s.legal_actions() == [effect("barren land cultivation")]    # no stop
    # It is skipped only when it cannot be done: no money to cultivate.
    s = policy_position(4)
    s._debug_set_player(0, money=0)
    use_tile(s, 0, 1)
    assert s.current_player() == 1 and seat(s, 0)["turn_number"] == 1


def test_tier_2_one_of_the_two_effects_is_executed():
    s = policy_position(4)
    s._debug_set_player(0, cells={(0, 1): "settlement"}, grain=2)
    use_tile(s, 0, 7)                                   # reclamation / brewing
    assert s.legal_actions() == [effect("farmland reclamation"), effect("brewing")]
    s.apply_action(effect("brewing"))
    s.apply_action(act("amount", 1))
    assert s.current_player() == 1                      # one of the two, not both
    # Only one can be done (the first settlement is a town: nothing to reclaim): that one is due.
    s = policy_position(4)
    s._debug_set_player(0, grain=2, cells={(0, 0): "town"})
    use_tile(s, 0, 7)
    assert s.legal_actions() == [effect("brewing")]
    # Neither can be done: the tile sets the turn order alone.
    s = policy_position(4)
    s._debug_set_player(0, grain=0, cells={(0, 0): "town"})
    use_tile(s, 0, 7)
    assert s.current_player() == 1


def test_tier_3_effects_may_be_left():
    s = policy_position(4)
    s._debug_set_player(0, grain=4, wine=3)
    use_tile(s, 0, 25)                                  # brewing / celebration
    assert set(s.legal_actions()) == {effect("brewing"), effect("celebration"), act("pass")}
    s.apply_action(effect("celebration"))
    assert s.legal_actions() == [effect("brewing"), act("pass")]
    s.apply_action(act("pass"))                         # the brewing may be left
    assert s.current_player() == 1 and seat(s, 0)["grain"] == 1


def test_option_optional_edict_effects_keeps_the_earlier_reading():
    s = policy_position(4, optional_edict_effects=True)
    use_tile(s, 0, 1)
    assert s.legal_actions() == [effect("barren land cultivation"), act("pass")]
    s.apply_action(act("pass"))
    assert s.current_player() == 1 and seat(s, 0)["turn_number"] == 1
    game = engine.load_game("mount-tai")
    option = {o.name: o for o in game.OPTIONS}["optional_edict_effects"]
    assert option.default is False and "skipped" in option.help


def test_tidy_up_tile_effect_stays_optional():
    # The tidy-up's red sentence: "afterwards may choose whether or not to execute it".
    s = policy_position(4, tidy_up_effect=True)
    s.apply_action(act("tidy", slot_of(s, 0, 1)))       # edict 1: cultivation, tier I
    s.apply_action(act("pass"))                         # one removal only
    assert s.snapshot()["phase"] == "effect" and act("pass") in s.legal_actions()


def test_readings_list_the_new_defaults():
    text = " ".join(data.READINGS)
    assert "optional_edict_effects" in text and "buildings" in text


# The rulebook lies outside the repository (shared/rules beside the checkout or above it).
RULEBOOK = next((p / "shared" / "rules" / "mount-tai-rulebook.txt"
                 for p in Path(__file__).resolve().parents
                 if (p / "shared" / "rules" / "mount-tai-rulebook.txt").exists()), None)


def test_readings_name_real_tests_and_quote_the_rulebook():
    """Issue 36's three readings are listed, each with the rulebook's words (quoted exactly)
    and the test pinning it; every test a reading names exists in tests/mount_tai."""
    import re

    here = Path(__file__).resolve().parent
    defined = set(re.findall(r"^def (test_\w+)", "\n".join(
        p.read_text(encoding="utf-8") for p in here.glob("test_*.py")), re.M))
    named = [re.findall(r"Test: (test_\w+)", r) for r in data.READINGS]
    assert all(set(n) <= defined for n in named), [n for n in named if not set(n) <= defined]
    pinned = {n[0]: r for n, r in zip(named, data.READINGS) if n}
    assert {"test_gao_yi_year_1_needs_a_tile_on_layer_2",
            "test_challenge_3_secretary_extra_decision_not_the_last_rounds_action",
            "test_blueprint_refills_when_fewer_kinds_show"} <= set(pinned)
    if RULEBOOK is None:
        pytest.skip("shared/rules/mount-tai-rulebook.txt is not beside or above the checkout")
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    for reading in pinned.values():
        quotes = [q for q in re.findall(r"(?<=[\s(:])'([^']+?[.)])'(?=[\s;]|$)", reading)
                  if len(q) > 30]
        assert quotes and all(q in book for q in quotes), (reading, quotes)


# -- 4. Readings written down in data.READINGS (pinned here) ---------------------------------

def _events(s, tiles, bonus):
    s._debug_set_board(round=0, events={0: tiles}, season_bonus=list(bonus), order=[0, 1, 2, 3])
    s._debug_run_from("events")


def test_minus_one_money_tile_in_a_money_season_pays_nothing():
    # "If the type of resource ... gained is the same as the type of the event bonus tile of the
    # current season, the player gains one more": -1 + 1 = 0 (tile 2: yellow -1 money).
    s = new_game(4)
    _events(s, [2, 8, 16, 24], bonus=("money", "grain", "wine", "reputation"))
    s.apply_action(act("event", 0))
    assert seat(s, 0)["money"] == 6


def test_yin_yang_master_2_exchanged_reward_loses_the_season_plus_one():
    s = new_game(4)
    s._debug_set_player(0, talents=[("yin-yang master", 2)])
    _events(s, [0, 8, 16, 24], bonus=("grain", "money", "wine", "reputation"))
    s.apply_action(act("event", 1))                     # green +3 grain in a grain season
    s.apply_action(act("resource", 0))                  # taken as money: 3, not 4
    assert (seat(s, 0)["money"], seat(s, 0)["grain"]) == (6 + 3, 2)


def test_yin_yang_master_3_copying_dugu_wei_alone_scores_15():
    s = new_game(4)
    s._debug_set_player(0, talents=[("yin-yang master", 3)])
    s._debug_set_player(1, talents=[("dugu wei", 1), ("brewer", 1)])
    assert s.level3_value(0, "yin-yang master") == data.DUGU_ONLY_TALENT_REPUTATION == 15


def test_publicist_counts_one_player_in_solo():
    s = new_game(solo=True)
    s._debug_set_player(0, talents=[("publicist", 3)], money=1, grain=1, wine=1)
    assert s.level3_value(0, "publicist") == 3 * data.SOLO_PUBLICIST_PLAYERS == 3


def test_blueprint_refills_when_fewer_kinds_show():
    # Building plan: "If the number of building tiles in the blueprint area is less than the
    # number specified for the player count, replenish it ... (in a 2- or 3-player game, flip 3
    # different kinds of building tiles; in a 4-player game, flip 4 different kinds ...)".
    # Read as kinds showing: 5 tiles of 4 kinds, a granary taken: 4 tiles, only 3 kinds -> the
    # works office is flipped (counting tiles, 4 would not be "less than" 4).
    s = policy_position(4)
    s._debug_set_board(blueprint=[("mint", 2), ("granary", 1), ("yufu", 1), ("free market", 1)],
                       supply=["imperial academy", "works office"])         # next flip last
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("granary")))
    assert s.snapshot()["blueprint"] == [(building("mint"), 2), (building("yufu"), 1),
                                         (building("free market"), 1),
                                         (building("works office"), 1)]
    assert s.snapshot()["supply_count"] == 1
    # One mint of the stack of two taken: still 4 kinds (4 tiles), nothing is flipped.
    s = policy_position(4)
    s._debug_set_board(blueprint=[("mint", 2), ("granary", 1), ("yufu", 1), ("free market", 1)],
                       supply=["imperial academy", "works office"])
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("mint")))
    assert s.snapshot()["blueprint"] == [(building("mint"), 1), (building("granary"), 1),
                                         (building("yufu"), 1), (building("free market"), 1)]
    assert s.snapshot()["supply_count"] == 2
    # 2-3 players: 3 kinds. 4 tiles of 3 kinds, a yufu taken: refilled to 3 kinds.
    s = policy_position(3)
    s._debug_set_board(blueprint=[("mint", 2), ("granary", 1), ("yufu", 1)],
                       supply=["works office"])
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("yufu")))
    assert [k for k, _ in s.snapshot()["blueprint"]] == [
        building("mint"), building("granary"), building("works office")]


def _secretary_extra_decision(challenge: int):
    """A solo game whose last round's policy decision was a celebration, run on to the
    Secretary's extra policy decision at game end (seat 0 holds the Secretary at level 3)."""
    options = {"bonus_buildings": "none"} if challenge == 3 else {}
    s = new_game(challenge=challenge, **options)
    dry(s)
    s._debug_set_player(0, talents=[("secretary", 3)], grain=9, wine=9, money=9)
    s._debug_set_board(round=15)                        # the last round
    s._debug_policy(0)
    use_tile(s, 0, 8)
    s.apply_action(effect("celebration"))
    play_random(s, seed=1, until=lambda x: x.snapshot()["phase"] == "policy")
    assert s.snapshot()["round"] == 16 and s.current_player() == 0 and not s.is_terminal()
    return s


def test_challenge_3_secretary_extra_decision_not_the_last_rounds_action():
    # Game 3: "in the policy decision phase, the player may not perform the action taken in the
    # previous round"; the Secretary's level 3: "At game end, before reputation is calculated,
    # the player performs one additional policy decision phase". The extra phase is a policy
    # decision phase: the last round's celebration may not be performed there.
    s = _secretary_extra_decision(3)
    assert not s.effect_possible(0, "celebration")
    use_tile(s, 0, 25)                                  # brewing / celebration (tier III)
    assert effect("celebration") not in s.legal_actions()
    assert effect("brewing") in s.legal_actions()
    # In challenge game 1 the same decision may celebrate.
    s = _secretary_extra_decision(1)
    use_tile(s, 0, 25)
    assert effect("celebration") in s.legal_actions()
