"""Every worked example of the Mount Tai rulebook, with the rulebook's numbers.

Seats: red 0, green 1, yellow 2, blue 3 (4 players) unless said otherwise. Fief cells are
(a, b): a, b = distances from the fief's outer edges; layer = min(a, b) + 1.
"""
from __future__ import annotations

from engine.mount_tai import data
from tests.mount_tai.helpers import (
    event_reward_example, act, building, cell, dry, effect, new_game, policy_position, seat, talent, uncover, use_tile,
)

RED, GREEN, YELLOW, BLUE = range(4)


def test_turn_order_change_example():
    """Red 3, green 26, yellow 15, blue 15 -> red, yellow, blue, green (ties keep the order)."""
    s = new_game(4)
    s._debug_set_board(order=[RED, GREEN, YELLOW, BLUE])
    for who, number in ((RED, 3), (GREEN, 26), (YELLOW, 15), (BLUE, 15)):
        s._debug_set_player(who, turn_number=number)
    s._debug_run_from("order")
    assert s.snapshot()["order"] == [RED, YELLOW, BLUE, GREEN]
    # The tiles leave the turn order area.
    assert all(seat(s, i)["turn_number"] == 0 for i in range(4))
    # Blue before yellow keeps blue first among the 15s.
    s = new_game(4)
    s._debug_set_board(order=[BLUE, GREEN, RED, YELLOW])
    for who, number in ((RED, 3), (GREEN, 26), (YELLOW, 15), (BLUE, 15)):
        s._debug_set_player(who, turn_number=number)
    s._debug_run_from("order")
    assert s.snapshot()["order"] == [RED, BLUE, YELLOW, GREEN]


def test_turn_order_from_played_tiles():
    """The same example played: each seat uses the tile, the order follows the numbers."""
    s = policy_position(4)
    s._debug_set_board(order=[RED, GREEN, YELLOW, BLUE])
    s._debug_policy(RED)
    for who, number in ((RED, 3), (GREEN, 26), (YELLOW, 15), (BLUE, 15)):
        s._debug_set_player(who, grain=0, money=0)  # nothing to execute: the tile only
        use_tile(s, who, number)
        if s.snapshot()["phase"] == "effect":
            s.apply_action(act("pass"))
    snap = s.snapshot()
    assert snap["order"] == [RED, YELLOW, BLUE, GREEN]
    assert snap["phase"] == "event" and s.current_player() == RED


def test_policy_action_tier_iii_both_effects_in_either_order():
    """Tile 18 (tier III): both effects may be executed, in the order the player chooses."""
    s = policy_position(4)
    s._debug_set_player(RED, grain=5, wine=2, cells={(1, 0): "settlement"})
    s._debug_set_player(RED, cells={(3, 3): "ascent"})
    use_tile(s, RED, 18)
    e = set(data.EDICT_EFFECTS[18])
    assert set(s.legal_actions()) == {effect(data.EFFECTS[x]) for x in e} | {act("pass")}
    # Town first, then the sacrifice.
    s.apply_action(effect("building a town"))
    s.apply_action(act("town", cell(1, 0)))
    assert s.legal_actions() == [effect("sacrifice to heaven"), act("pass")]
    s.apply_action(effect("sacrifice to heaven"))
    me = seat(s, RED)
    assert me["cells"][cell(1, 0)] == 3 and me["reputation"] == 6
    assert (me["money"], me["grain"], me["wine"]) == (5, 3, 1)


def test_tidy_up_example():
    """Remove one uncovered tile, optionally a second; the lowest goes to the turn order area
    and is not executed."""
    s = policy_position(4)
    slots = seat(s, RED)["slots"]
    top = list(range(25, 29))  # the four tier I slots
    s.apply_action(act("tidy", top[1]))
    assert s.snapshot()["phase"] == "tidy-up"
    assert act("pass") in s.legal_actions()
    # Canonical order: tiles uncovered from the start are removed in ascending slot order.
    assert act("remove", top[0]) not in s.legal_actions()
    s.apply_action(act("remove", top[3]))
    me = seat(s, RED)
    assert me["turn_number"] == min(slots[top[1]], slots[top[3]])
    assert sorted(me["gone"]) == sorted([slots[top[1]], slots[top[3]]])
    assert (me["money"], me["grain"], me["wine"], me["reputation"]) == (6, 2, 0, 0)
    assert s.current_player() == GREEN


def test_tidy_up_a_single_tile_and_newly_uncovered_tiles():
    s = policy_position(4)
    slots = seat(s, RED)["slots"]
    assert seat(s, RED)["uncovered"] == [25, 26, 27, 28]  # only tier I at the start
    s.apply_action(act("tidy", 25))
    s.apply_action(act("pass"))
    assert seat(s, RED)["turn_number"] == slots[25]
    # Tier I (0, 0) rested on tier II (0, 0) alone among II's corners: now it is uncovered.
    assert 16 in seat(s, RED)["uncovered"] and 20 not in seat(s, RED)["uncovered"]
    s._debug_policy(RED)
    s.apply_action(act("tidy", 26))
    s.apply_action(act("remove", 27))
    s._debug_policy(RED)
    s.apply_action(act("tidy", 28))
    # The last tier I tile gone: tier II (1, 1) = slot 20, which lay under all four, may follow
    # although its slot is lower; II (0, 0) = slot 16, uncovered before, may not (ascending).
    legal = s.legal_actions()
    assert act("remove", 20) in legal and act("remove", 16) not in legal


def test_event_activation_example_8_plus_2_plus_1():
    """Red has 8 money; the round's bonus tile is money; a red event gives 2 money: 11."""
    s, _ = event_reward_example()
    assert s.current_player() == RED and s.snapshot()["phase"] == "event"
    s.apply_action(act("event", 3))
    assert seat(s, RED)["money"] == 11
    assert s.snapshot()["events_used"][0][3] and s.current_player() == GREEN
    assert act("event", 3) not in s.legal_actions()


def test_spring_settlement_example_two_farmland():
    """No buildings, no talents: 2 farmland give 2 grain in spring; year 1 spring 壮矣 (hold 2
    farmland) gives 5 reputation."""
    s = new_game(4)
    s._debug_set_board(round=1, praises={(0, 0): "壮矣"})
    s._debug_set_player(RED, grain=0, cells={(0, 1): "farmland", (1, 0): "farmland"})
    s._debug_run_from("settle")
    me = seat(s, RED)
    assert me["grain"] == 2 and me["reputation"] == 5
    assert me["reputation_by_source"]["eight praises"] == 5
    assert seat(s, GREEN)["reputation"] == 0  # one farmland short
    assert s.snapshot()["round"] == 2 and s.snapshot()["phase"] == "policy"


def test_flat_land_cultivation_example():
    """Tile 10, flat-land cultivation: one settlement next to the town on layer 1, another next
    to the farmland on layer 2: 2 money."""
    s = policy_position(4)
    s._debug_set_player(RED, cells={(0, 1): "town", (1, 1): "farmland", (1, 0): "settlement"})
    use_tile(s, RED, 10)
    s.apply_action(effect("barren land cultivation"))
    s.apply_action(act("flat", cell(0, 2)))
    assert s.snapshot()["phase"] == "cultivate"
    s.apply_action(act("flat", cell(1, 2)))
    me = seat(s, RED)
    assert me["cells"][cell(0, 2)] == 1 and me["cells"][cell(1, 2)] == 1
    assert me["money"] == 4
    assert s.current_player() == GREEN  # tier II: only one effect


def test_mountain_cultivation_example():
    """Tile 10, mountain cultivation: one settlement on layer 2 next to the town on layer 1: 1
    money; at most once."""
    s = policy_position(4)
    s._debug_set_player(RED, cells={(0, 1): "town"})
    use_tile(s, RED, 10)
    s.apply_action(effect("barren land cultivation"))
    assert act("mountain", cell(1, 1)) in s.legal_actions()
    assert act("flat", cell(1, 1)) not in s.legal_actions()  # a different height
    s.apply_action(act("mountain", cell(1, 1)))
    me = seat(s, RED)
    assert me["cells"][cell(1, 1)] == 1 and me["money"] == 5
    assert s.current_player() == GREEN


def test_cultivation_adjacency_no_diagonals_no_water():
    s = policy_position(4)
    use_tile(s, RED, 10)
    s.apply_action(effect("barren land cultivation"))
    flat = {a - act("flat") for a in s.legal_actions() if act("flat") <= a < act("mountain")}
    mountain = {a - act("mountain") for a in s.legal_actions() if act("mountain") <= a < act("water")}
    # From the first settlement at (0, 0): (0, 1) and (1, 0) on layer 1; the diagonal (1, 1)
    # on layer 2 is not adjacent.
    assert flat == {cell(0, 1), cell(1, 0)} and mountain == set()
    s = policy_position(4)
    s._debug_set_board(water={(RED, cell(0, 1))})
    use_tile(s, RED, 10)
    s.apply_action(effect("barren land cultivation"))
    assert act("flat", cell(0, 1)) not in s.legal_actions()


def test_summit_ascent_and_sacrifice():
    """Cultivating the summit places the ascent marker; only then is sacrifice possible; the
    summit counts as the player's own tile."""
    s = policy_position(4)
    s._debug_set_player(RED, cells={(2, 3): "settlement"}, grain=4, wine=2)
    assert not s.effect_possible(RED, "sacrifice to heaven")
    use_tile(s, RED, 10)
    s.apply_action(effect("barren land cultivation"))
    assert "ascend the summit" in s.action_to_string(act("mountain", 15))
    s.apply_action(act("mountain", 15))
    me = seat(s, RED)
    assert me["cells"][15] == 4 and me["money"] == 5
    assert s.effect_possible(RED, "sacrifice to heaven")
    s._debug_policy(RED)
    use_tile(s, RED, 13)
    s.apply_action(effect("sacrifice to heaven"))
    me = seat(s, RED)
    assert (me["grain"], me["wine"], me["reputation"]) == (2, 1, 6)
    # The summit is the player's tile: (3, 2) next to it (layer 3) can now be cultivated from
    # it, by mountain cultivation (a different height).
    s._debug_policy(RED)
    s._debug_set_player(RED, cells={(2, 3): "barren"})
    use_tile(s, RED, 10)
    s.apply_action(effect("barren land cultivation"))
    assert act("mountain", cell(3, 2)) in s.legal_actions()
    assert act("flat", cell(3, 2)) not in s.legal_actions()


def test_reclamation_without_water_costs_2():
    s = policy_position(4)
    s._debug_set_player(RED, cells={(0, 1): "settlement"})
    use_tile(s, RED, 7)
    s.apply_action(effect("farmland reclamation"))
    s.apply_action(act("reclaim", cell(0, 1)))
    me = seat(s, RED)
    assert me["cells"][cell(0, 1)] == 2 and me["money"] == 4


def test_reclamation_next_to_water_is_free():
    s = policy_position(4)
    s._debug_set_player(RED, cells={(0, 1): "settlement"})
    s._debug_set_board(water={(RED, cell(0, 2))})
    assert s.next_to_water(RED, cell(0, 1))
    use_tile(s, RED, 7)
    s.apply_action(effect("farmland reclamation"))
    s.apply_action(act("reclaim", cell(0, 1)))
    assert seat(s, RED)["money"] == 6


def test_water_flows_down_not_up_and_across_fiefs():
    s = policy_position(4)
    # Water on layer 2 at (1, 1): the layer 1 cells below it are next to water...
    s._debug_set_board(water={(RED, cell(1, 1))})
    assert s.next_to_water(RED, cell(0, 1)) and s.next_to_water(RED, cell(1, 0))
    # ... and so is the same-height neighbour (1, 2).
    assert s.next_to_water(RED, cell(1, 2))
    # Water on layer 1 at (0, 1): the layer 2 cell (1, 1) above it is not.
    s._debug_set_board(water={(RED, cell(0, 1))})
    assert not s.next_to_water(RED, cell(1, 1)) and s.next_to_water(RED, cell(0, 0))
    # Water in the neighbouring fief (green's cell (0, 3) borders red's (0, 3)) counts too.
    s._debug_set_board(water={(GREEN, cell(0, 3))})
    assert s.next_to_water(RED, cell(0, 3))


def test_town_construction_example():
    """Tile 12: a settlement becomes a town for 1 money."""
    s = policy_position(4)
    use_tile(s, RED, 12)
    s.apply_action(effect("building a town"))
    s.apply_action(act("town", cell(0, 0)))
    me = seat(s, RED)
    assert me["cells"][0] == 3 and me["money"] == 5


def test_recruitment_example_brewer():
    """Tile 4: recruit the brewer (level 1) for 1 money; the face-down card below turns up."""
    s = policy_position(4)
    s._debug_set_board(piles=[["agricultural official"], ["commercial official"],
                              ["sacrifice official"], ["brewer", "pioneer"], ["publicist"]])
    use_tile(s, RED, 4)
    s.apply_action(effect("recruitment and development"))
    s.apply_action(act("recruit", 3))
    me = seat(s, RED)
    assert me["talents"] == [(talent("brewer"), 1)] and me["money"] == 5
    assert s.snapshot()["piles"][3] == [talent("pioneer")]


def test_development_example_brewer_2_to_3():
    s = policy_position(4)
    s._debug_set_player(RED, talents=[("brewer", 2)])
    use_tile(s, RED, 4)
    s.apply_action(effect("recruitment and development"))
    s.apply_action(act("develop", 0))
    me = seat(s, RED)
    assert me["talents"] == [(talent("brewer"), 3)] and me["money"] == 3
    s._debug_policy(RED)
    s._debug_set_player(RED, talents=[("brewer", 1)], money=6)
    use_tile(s, RED, 11)
    s.apply_action(effect("recruitment and development"))
    s.apply_action(act("develop", 0))
    assert seat(s, RED)["money"] == 4  # level 1 -> 2: 2 money


def test_level_3_brewer_at_game_end():
    """A level 3 brewer with 3 wine gives 3 reputation at game end."""
    s = new_game(4)
    s._debug_set_player(RED, talents=[("brewer", 3)], wine=3)
    s._debug_run_from("final")
    me = seat(s, RED)
    assert me["reputation_by_source"]["talents at game end"] == 3 and me["reputation"] == 3
    assert s.is_terminal()


def test_building_plan_example_works_office_for_3():
    """Tile 9: the Works Office costs 3; then in spring and autumn 2 grain per farmland."""
    s = policy_position(4)
    s._debug_set_board(blueprint=[("works office", 1), ("mint", 1), ("granary", 2)],
                       supply=["yufu", "free market"])
    use_tile(s, RED, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("works office")))
    me = seat(s, RED)
    assert me["money"] == 3 and me["buildings"] == [building("works office")]
    # The blueprint area refilled to 4 kinds from the supply.
    assert [k for k, _ in s.snapshot()["blueprint"]] == [building("mint"), building("granary"),
                                                         building("free market")] or len(
        s.snapshot()["blueprint"]) == 4
    s._debug_set_board(round=1)
    s._debug_set_player(RED, grain=0, cells={(0, 1): "farmland", (1, 0): "farmland"})
    s._debug_run_from("settle")
    assert seat(s, RED)["grain"] == 4


def test_virtual_player_building_plan_example():
    """The virtual player draws 9 (building plan): the leftmost blueprint kind is removed, the
    rest slide left and the area is refilled."""
    s = new_game(solo=True, seed=3)
    s._debug_set_board(blueprint=[("granary", 2), ("mint", 1), ("yufu", 1)],
                       supply=["free market"], virtual_tiles=[9] + [14] * 15)
    s._debug_policy(0)
    s.apply_action(act("tidy", seat(s, 0)["uncovered"][0]))
    if s.snapshot()["phase"] == "tidy-up":
        s.apply_action(act("pass"))
    snap = s.snapshot()
    assert snap["virtual_drawn"] == [9]
    assert snap["blueprint"] == [(building("mint"), 1), (building("yufu"), 1),
                                 (building("free market"), 1)]


def test_virtual_player_recruitment_example():
    """The virtual player draws 11 (recruitment and development): the player removes a talent
    from the wilderness (here the brewer)."""
    s = new_game(solo=True, seed=3)
    s._debug_set_board(piles=[["agricultural official"], ["commercial official"],
                              ["sacrifice official"], ["brewer"], ["pioneer"]],
                       virtual_tiles=[11] + [14] * 15)
    s._debug_policy(0)
    s.apply_action(act("tidy", seat(s, 0)["uncovered"][0]))
    if s.snapshot()["phase"] == "tidy-up":
        s.apply_action(act("pass"))
    assert s.snapshot()["phase"] == "virtual talent" and s.current_player() == 0
    assert "remove the brewer" in s.action_to_string(act("recruit", 3))
    s.apply_action(act("recruit", 3))
    assert s.snapshot()["piles"][3] == []
    assert s.snapshot()["phase"] == "event"
