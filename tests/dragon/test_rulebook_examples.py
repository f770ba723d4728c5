"""Every worked example of the In the Year of the Dragon rulebook, with the rulebook's numbers.

Seats: Anna 0, Ben 1, Clara 2, Dora 3, Emil 4.
"""
from __future__ import annotations

from engine.dragon import data
from engine.dragon.game import LAYOUT
from tests.dragon.helpers import (
    blank_month, build, card, floors, kind_index, new_game, persons, release, seat, started,
)

ANNA, BEN, CLARA, DORA, EMIL = range(5)
GROUPS5 = [["taxes", "build"], ["harvest", "fireworks"], ["military parade", "research"],
           ["privilege"], []]


def draft(s, seat_index: int, a: str, b: str, together: bool = False) -> None:
    """Seat `seat_index` drafts persons `a` and `b`, then houses them (one per palace, or
    `together` in the first)."""
    pair = tuple(sorted((kind_index(a), kind_index(b))))
    assert s.current_player() == seat_index
    s.apply_action(LAYOUT["draft"] + data.DRAFT_PAIRS.index(pair))
    assert s.current_player() == seat_index and s.snapshot()["phase"] == "start"
    s.apply_action(LAYOUT["start"] + (1 if together else 0))


def test_starting_draft_example():
    """Anna: tax collector + scholar; Ben: tax collector + farmer; Clara: scholar + farmer.
    Anna's marker goes to 7, Ben's to 7 on top of Anna's, Clara's to 8; nobody else may take
    any of those three pairs."""
    s = new_game(players=5)
    draft(s, ANNA, "tax collector", "scholar")
    draft(s, BEN, "tax collector", "farmer")
    draft(s, CLARA, "scholar", "farmer")
    snap = s.snapshot()
    assert [snap["seats"][i]["track"] for i in (ANNA, BEN, CLARA)] == [7, 7, 8]
    assert persons(s, ANNA) == [["tax collector"], ["young scholar"]]
    taken = {
        tuple(sorted((kind_index(a), kind_index(b))))
        for a, b in [("tax collector", "scholar"), ("tax collector", "farmer"),
                     ("scholar", "farmer")]
    }
    offered = {data.DRAFT_PAIRS[a - LAYOUT["draft"]] for a in s.legal_actions()}
    assert s.current_player() == DORA
    assert not taken & offered
    assert len(offered) == len(data.DRAFT_PAIRS) - 3
    draft(s, DORA, "craftsman", "court lady")
    draft(s, EMIL, "craftsman", "healer")
    # Acting order on month 1: Clara (8), Ben (7, on top), Anna (7), then Emil (6), Dora (3).
    assert s.snapshot()["track_order"][:3] == [CLARA, BEN, ANNA]
    assert s.snapshot()["phase"] == "action" and s.current_player() == CLARA


def test_anna_taxes_2_plus_3_plus_3():
    """Clara, without tax collectors, takes Taxes: 2 yuan. Anna, with two tax collectors, takes
    the same action: she pays 3 (Clara's dragon is there) and takes 8 (2 + 3 + 3)."""
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[40, 10, 50, 5, 1])
    s._debug_set_player(ANNA, yuan=4, palaces=[(2, ["tax collector", "tax collector"]), (2, [])])
    s._debug_set_player(CLARA, yuan=1, palaces=[(2, ["craftsman"]), (2, [])])
    s._debug_start_round("action")
    assert s.current_player() == CLARA
    s.apply_action(card("taxes"))
    assert seat(s, CLARA)["yuan"] == 1 + 2
    assert s.current_player() == ANNA
    assert "pay 3 yuan" in s.action_to_string(card("taxes"))
    s.apply_action(card("taxes"))
    assert seat(s, ANNA)["yuan"] == 4 - 3 + 8


def test_dora_pays_3_to_join_a_group_with_two_dragons():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5)
    for i in range(5):
        s._debug_set_player(i, yuan=6)
    s._debug_set_player(DORA, yuan=3)
    s._debug_start_round("action")
    s.apply_action(card("research"))  # Anna
    s.apply_action(card("military parade"))  # Ben, same group
    s.apply_action(card("taxes"))  # Clara
    assert s.current_player() == DORA
    s.apply_action(card("research"))
    assert seat(s, DORA)["yuan"] == 0
    assert seat(s, DORA)["vp"]["research"] == 1


def test_occupied_group_needs_3_yuan():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5)
    s._debug_set_player(BEN, yuan=2)
    s._debug_start_round("action")
    s.apply_action(card("taxes"))  # Anna takes the taxes/build group
    legal = s.legal_actions()
    assert card("taxes") not in legal and card("build") not in legal
    assert card("harvest") in legal


def test_emil_tops_up_to_3_yuan():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[1, 2, 3, 4, 50])
    s._debug_set_player(EMIL, yuan=1)
    s._debug_start_round("action")
    assert s.current_player() == EMIL
    assert s.action_to_string(LAYOUT["topup"]).endswith("(+2)")
    s.apply_action(LAYOUT["topup"])
    assert seat(s, EMIL)["yuan"] == 3
    assert s.snapshot()["group_dragons"] == [0, 0, 0, 0, 0]


def test_emil_builds_with_two_craftsmen():
    """Two craftsmen: 3 floors (1 + 1 + 1); 2 turn a 1-floor palace into 3 floors, the third
    starts a new 1-floor palace."""
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[1, 2, 3, 4, 50])
    s._debug_set_player(EMIL, palaces=[(3, ["craftsman", "craftsman"]), (1, [])])
    s._debug_start_round("action")
    s.apply_action(card("build"))
    assert s.snapshot()["todo"] == 3
    # A palace never exceeds 3 floors: only palace 2 and a new palace are offered.
    assert s.legal_actions() == [build(1), build(2)]
    s.apply_action(build(1))
    s.apply_action(build(1))
    s.apply_action(build(2))
    assert floors(s, EMIL) == [3, 3, 1]
    assert s.current_player() != EMIL


def test_anna_harvest_1_plus_1_plus_2():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5)
    s._debug_set_player(ANNA, rice=0, palaces=[(2, ["young farmer", "old farmer"]), (2, [])])
    s._debug_start_round("action")
    s.apply_action(card("harvest"))
    assert seat(s, ANNA)["rice"] == 4


def test_ben_parade_1_plus_2_plus_2():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[10, 20, 5, 4, 3])
    s._debug_set_player(BEN, palaces=[(2, ["old warrior", "old warrior"]), (2, [])])
    s._debug_start_round("action")
    assert s.current_player() == BEN
    s.apply_action(card("military parade"))
    assert seat(s, BEN)["track"] == 25


def test_dora_research_1_plus_2_plus_3():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[1, 2, 3, 40, 5])
    s._debug_set_player(DORA, score=10, palaces=[(2, ["young scholar", "old scholar"]), (2, [])])
    s._debug_start_round("action")
    s.apply_action(card("research"))
    assert seat(s, DORA)["score"] == 16


def test_privilege_one_per_action_small_or_large():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5)
    s._debug_set_player(ANNA, yuan=20)
    s._debug_start_round("action")
    legal = s.legal_actions()
    assert LAYOUT["privilege_small"] in legal and LAYOUT["privilege_large"] in legal
    s.apply_action(LAYOUT["privilege_large"])
    assert seat(s, ANNA)["yuan"] == 13
    assert (seat(s, ANNA)["privileges_small"], seat(s, ANNA)["privileges_large"]) == (0, 1)
    assert s.current_player() == BEN  # one privilege per action


def test_large_privilege_costs_6_in_the_2007_edition():
    s = started(players=5, large_privilege_cost=6)
    blank_month(s, 3, "peace", groups=GROUPS5)
    s._debug_set_player(ANNA, yuan=6)
    s._debug_start_round("action")
    assert LAYOUT["privilege_large"] in s.legal_actions()
    s.apply_action(LAYOUT["privilege_large"])
    assert seat(s, ANNA)["yuan"] == 0


def test_large_privilege_unaffordable_is_not_offered():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5)
    s._debug_set_player(ANNA, yuan=6)
    s._debug_start_round("action")
    legal = s.legal_actions()
    assert LAYOUT["privilege_small"] in legal and LAYOUT["privilege_large"] not in legal


def start_event(s, event: str, month: int = 5, tracks=None) -> None:
    blank_month(s, month, event, tracks=tracks)
    s._debug_run_from("event")


def test_clara_tribute_pays_2_releases_2():
    s = started(players=5)
    for i in range(5):
        s._debug_set_player(i, yuan=10, palaces=[(2, ["craftsman"]), (2, [])])
    s._debug_set_player(CLARA, yuan=2,
                        palaces=[(3, ["craftsman", "young monk", "court lady"]), (1, ["young healer"])])
    start_event(s, "imperial tribute")
    assert [seat(s, i)["yuan"] for i in range(5)] == [6, 6, 0, 6, 6]
    assert s.current_player() == CLARA
    assert s.snapshot()["need"][CLARA] == 2
    s.apply_action(release(0, "court lady"))
    s.apply_action(release(1, "young healer"))
    assert persons(s, CLARA) == [["craftsman", "young monk"]]  # palace 2 decayed away
    assert sum(s.snapshot()["gone"]) == 2


def test_droughts_anna_supplies_ben_releases_three():
    """Anna: 3 inhabited palaces, 1 empty, 4 rice: returns 3. Ben: 3 inhabited, no rice: releases
    one person from each of his 3 palaces."""
    s = started(players=5)
    for i in range(5):
        s._debug_set_player(i, rice=5, palaces=[(1, ["craftsman"])])
    s._debug_set_player(ANNA, rice=4, palaces=[
        (2, ["craftsman"]), (2, ["court lady"]), (1, ["young monk"]), (2, [])])
    s._debug_set_player(BEN, rice=0, palaces=[
        (2, ["craftsman", "court lady"]), (2, ["young monk"]), (3, ["young farmer"])])
    start_event(s, "drought")
    assert seat(s, ANNA)["rice"] == 1
    assert s.current_player() == BEN
    assert s.snapshot()["need"][BEN] == 3
    s.apply_action(release(0, "court lady"))
    s.apply_action(release(1, "young monk"))
    s.apply_action(release(2, "young farmer"))
    # Palaces 2 and 3 emptied and decayed by a floor; Ben kept his craftsman.
    assert persons(s, BEN) == [["craftsman"], [], []]
    assert floors(s, BEN) == [2, 1, 2]


def test_drought_player_chooses_unsupplied_palaces():
    s = started(players=2)
    s._debug_set_player(0, rice=1, palaces=[(2, ["craftsman"]), (2, ["court lady"]), (2, ["young monk"])])
    s._debug_set_player(1, rice=5, palaces=[(2, ["craftsman"])])
    start_event(s, "drought")
    assert s.current_player() == 0
    # Two unsupplied palaces out of three, chosen in ascending order: the first choice can be
    # palace 1 or 2 (palace 3 alone would leave no second palace).
    first = s.legal_actions()
    assert first == [release(0, "craftsman"), release(1, "court lady")]
    s.apply_action(release(1, "court lady"))
    assert s.legal_actions() == [release(2, "young monk")]


def test_dragon_festival():
    """Clara and Emil 3 fireworks, Anna 2, Ben 1: Clara and Emil +6 (return 2), Anna +3 (returns
    1), Ben nothing."""
    s = started(players=5)
    fw = {ANNA: 2, BEN: 1, CLARA: 3, DORA: 0, EMIL: 3}
    for i in range(5):
        s._debug_set_player(i, score=0, fireworks=fw[i])
    start_event(s, "dragon festival")
    assert [seat(s, i)["vp"]["dragon festival"] for i in range(5)] == [3, 0, 6, 0, 6]
    assert [seat(s, i)["fireworks"] for i in range(5)] == [1, 1, 1, 0, 1]


def test_mongol_invasion():
    """Anna and Ben 3 helmets, Clara 2, Dora and Emil 1: +3 +3 +2 +1 +1; Dora and Emil release."""
    s = started(players=5)
    warriors = {
        ANNA: ["old warrior", "young warrior"], BEN: ["young warrior", "old warrior"],
        CLARA: ["old warrior"], DORA: ["young warrior"], EMIL: ["young warrior"],
    }
    for i in range(5):
        s._debug_set_player(i, score=0, palaces=[(3, warriors[i] + ["craftsman"])])
    start_event(s, "mongol invasion", tracks=[50, 40, 30, 20, 10])
    assert [seat(s, i)["vp"]["mongol invasion"] for i in range(5)] == [3, 3, 2, 1, 1]
    assert s.current_player() == DORA and s.snapshot()["need"] == [0, 0, 0, 1, 1]
    s.apply_action(release(0, "young warrior"))  # may be the warrior just counted
    assert s.current_player() == EMIL
    s.apply_action(release(0, "craftsman"))
    assert persons(s, DORA) == [["craftsman"]]
    assert persons(s, EMIL) == [["young warrior"]]


def test_mongol_invasion_all_equal_all_release():
    s = started(players=3)
    for i in range(3):
        s._debug_set_player(i, palaces=[(2, ["craftsman", "court lady"])])
    start_event(s, "mongol invasion")
    assert s.snapshot()["need"] == [1, 1, 1]


def test_contagion_with_healers():
    """Clara has 2 young healers (1 mortar each): she loses 1 person instead of 3; a player with
    no healer loses 3; the healer that protected may be the one released."""
    s = started(players=5)
    for i in range(5):
        s._debug_set_player(i, palaces=[(3, ["old healer", "young healer", "craftsman"])])
    s._debug_set_player(ANNA, palaces=[(3, ["craftsman", "court lady", "young monk"]), (1, ["young farmer"])])
    s._debug_set_player(CLARA, palaces=[(3, ["young healer", "young healer", "court lady"])])
    start_event(s, "contagion", tracks=[50, 40, 30, 20, 10])
    assert s.snapshot()["need"] == [3, 0, 1, 0, 0]
    s.apply_action(release(0, "craftsman"))
    s.apply_action(release(0, "court lady"))
    s.apply_action(release(1, "young farmer"))
    assert s.current_player() == CLARA
    assert release(0, "young healer") in s.legal_actions()
    s.apply_action(release(0, "young healer"))
    assert persons(s, CLARA) == [["court lady", "young healer"]]


def test_releases_happen_in_person_track_order():
    s = started(players=4)
    for i in range(4):
        s._debug_set_player(i, yuan=0, palaces=[(2, ["craftsman", "court lady"])])
    start_event(s, "imperial tribute", tracks=[10, 30, 20, 40])
    order = []
    while s.snapshot()["phase"] == "release":
        order.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
    assert order == [3, 3, 1, 1, 2, 2, 0, 0]


def test_decay_uninhabited_palaces_lose_a_floor():
    s = started(players=2)
    s._debug_set_player(0, palaces=[(3, []), (1, []), (2, ["craftsman"])])
    start_event(s, "peace")
    assert floors(s, 0) == [2, 2]  # 3 -> 2, the 1-floor palace disappears, inhabited kept


def test_month_scoring_3_plus_2_plus_2():
    """Anna: 3 palaces, 2 court ladies, 1 large privilege: +7."""
    s = started(players=5)
    s._debug_set_player(ANNA, score=0, privileges=(0, 1), palaces=[
        (2, ["court lady", "craftsman"]), (2, ["court lady"]), (1, ["young monk"])])
    start_event(s, "peace")
    v = seat(s, ANNA)["vp"]
    assert (v["palaces"], v["court ladies"], v["privileges"]) == (3, 2, 2)
    assert seat(s, ANNA)["score"] == 7


def test_ben_final_scoring_plus_25():
    """7 persons, a young monk in a 2-floor palace and an old monk in a 3-floor palace, 1 rice,
    2 fireworks, 4 yuan: 14 + 8 + 3 = 25."""
    s = started(players=5)
    s._debug_set_player(BEN, score=0, yuan=4, rice=1, fireworks=2, palaces=[
        (2, ["young monk", "craftsman"]),
        (3, ["old monk", "court lady", "tax collector"]),
        (2, ["young farmer", "young healer"]),
    ])
    blank_month(s, 12, "peace")
    s._debug_run_from("final")
    assert s.is_terminal()
    v = seat(s, BEN)["vp"]
    assert (v["persons"], v["monks"], v["money"]) == (14, 8, 3)
    assert seat(s, BEN)["score"] == 25


def test_tie_break_by_person_track():
    s = started(players=3)
    for i in range(3):
        s._debug_set_player(i, score=0, yuan=0, rice=0, fireworks=0, palaces=[(1, ["craftsman"])])
    blank_month(s, 12, "peace", tracks=[10, 30, 30])
    s._debug_run_from("final")
    assert s.scores() == [2, 2, 2]
    # Seat 2 arrived on space 30 after seat 1: on top of the stack, it wins.
    assert s.ranks() == [2, 1, 0]
    assert s.returns() == [0.0, 0.0, 1.0]


def test_month_12_has_no_person_phase():
    s = started(players=2)
    blank_month(s, 12, "peace")
    s._debug_start_round("action")
    s.apply_action(LAYOUT["topup"])
    s.apply_action(LAYOUT["topup"])
    assert s.is_terminal()
