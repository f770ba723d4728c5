"""Mount Tai's rule events: the kinds agree with the compiled enum, the rulebook's worked examples
produce events with the rulebook's numbers, and over many random games of every variant the
events add up to the final reputation, replay with the record, read as one line each and never
name what lies face down."""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.core.state import State
from engine.mount_tai import data
from engine.mount_tai.events import EVENT_TABLE, TUTOR_REASONS, VIRTUAL_SEAT
from tests.mount_tai.helpers import (
    event_reward_example, act, building, cell, effect, new_game, policy_position, seat, talent, use_tile,
)

RED, GREEN, YELLOW, BLUE = range(4)
PXD = Path(__file__).resolve().parents[2] / "engine" / "mount_tai" / "events.pxd"


def kinds(events: list, name: str) -> list:
    return [e for e in events if e.kind == name]


def one(events: list, name: str, **match: Any):
    """The only event of kind `name` whose seat / amounts equal `match`."""
    found = [e for e in kinds(events, name)
             if all((e.seat if k == "seat" else e.cause if k == "cause" else e.amounts[k]) == v
                    for k, v in match.items())]
    assert len(found) == 1, (name, match, [e.text for e in events])
    return found[0]


# ---------------------------------------------------------------------------------------------
# The table and the enum.

def _enum(text: str, prefix: str) -> dict[str, int]:
    return {m.group(1): int(m.group(2))
            for m in re.finditer(rf"^\s+({prefix}\w+) = (\d+)", text, re.M)}


def test_the_table_names_the_enum_in_order():
    text = PXD.read_text()
    kinds_enum = _enum(text, "EV_")
    total = int(re.search(r"N_EVENT_KINDS = (\d+)", text).group(1))
    assert sorted(kinds_enum.values()) == list(range(total)) == list(range(len(EVENT_TABLE.kinds)))
    for name, i in kinds_enum.items():
        assert EVENT_TABLE.kinds[i].name == name[3:].lower(), (name, i)
    reasons = _enum(text, "TR_")
    assert sorted(reasons.values()) == list(range(len(TUTOR_REASONS)))
    # Each enum member is commented.
    for line in text.splitlines():
        if re.match(r"^\s+(EV|TR)_\w+ = \d+", line):
            assert "#" in line, line


# ---------------------------------------------------------------------------------------------
# The rulebook's worked examples.

def test_spring_settlement_two_farmland_events():
    """2 farmland give 2 grain in spring; year 1 spring 壮矣 (2 farmland) gives 5 reputation."""
    s = new_game(4)
    s._debug_set_board(round=1, praises={(0, 0): "壮矣"})
    s._debug_set_player(RED, grain=0, cells={(0, 1): "farmland", (1, 0): "farmland"})
    ev = s._debug_run_from("settle")
    start = one(ev, "settlement")
    assert start.amounts == {"season": 0, "year": 0} and "spring" in start.text
    land = one(ev, "settle_land", seat=RED)
    assert land.amounts == {"resource": 1, "amount": 2, "tiles": 2} and land.cause == "farmland"
    assert land.text == "P0 seasonal settlement: +2 grain from 2 farmland"
    praise = one(ev, "praise", seat=RED)
    assert praise.points == 5 and praise.cause == "壮矣" and praise.amounts["measure"] == 2
    assert praise.text.startswith("P0 +5 reputation: Eight Praises 壮矣")
    green = one(ev, "praise", seat=GREEN)          # no farmland: nothing
    assert green.points == 0 and green.amounts["measure"] == 0
    assert green.text == "P1 +0 reputation: Eight Praises 壮矣 (zhuang yi; farmland: 0, needs 2)"
    # The settlement comes before the next round, which the events announce.
    assert ev.index(praise) < ev.index(one(ev, "round_start", round=2))
    assert s.events(-1)[-len(ev):] == ev         # also kept with the last step's events


def test_year_one_gao_yi_is_worded_as_the_rulebook_reads_it():
    """Year one's 高矣: "cultivates the 2nd layer ... through barren land cultivation" (a tile
    on layer 2), not a number of layers: layers {1, 3} do not pay and say so."""
    s = new_game(4)
    s._debug_set_board(round=1, praises={(0, 0): "高矣"})
    s._debug_set_player(RED, cells={(0, 1): "settlement", (1, 1): "settlement"})   # layer 2
    s._debug_set_player(GREEN, cells={(0, 1): "settlement", (2, 2): "settlement"})  # {1, 3}
    ev = s._debug_run_from("settle")
    red, green = one(ev, "praise", seat=RED), one(ev, "praise", seat=GREEN)
    assert red.points == 5 and green.points == 0
    assert red.text == ("P0 +5 reputation: Eight Praises 高矣 (gao yi; 2nd layer: cultivated, "
                        "needs it cultivated through barren land cultivation)")
    assert green.text == ("P1 +0 reputation: Eight Praises 高矣 (gao yi; 2nd layer: not "
                          "cultivated, needs it cultivated through barren land cultivation)")
    assert "needs 2" not in red.text + green.text


def test_turn_order_change_example_events():
    """Red 3, green 26, yellow 15, blue 15 -> red, yellow, blue, green."""
    s = new_game(4)
    s._debug_set_board(order=[RED, GREEN, YELLOW, BLUE])
    for who, number in ((RED, 3), (GREEN, 26), (YELLOW, 15), (BLUE, 15)):
        s._debug_set_player(who, turn_number=number)
    ev = kinds(s._debug_run_from("order"), "turn_order")
    assert [(e.seat, e.amounts["position"], e.amounts["number"]) for e in ev] == [
        (RED, 0, 3), (YELLOW, 1, 15), (BLUE, 2, 15), (GREEN, 3, 26)]
    assert ev[0].text == "turn order 1st: P0 (number 3)"
    assert ev[3].text == "turn order 4th: P1 (number 26)"


def test_event_activation_8_plus_2_plus_1_events():
    """Red has 8 money; the season's bonus is money; the red +2 money event gives 3: 11."""
    s, red_money_2 = event_reward_example()
    s.apply_action(act("event", 3))
    ev = s.events()
    flipped = one(ev, "event_flipped", seat=RED)
    assert flipped.amounts == {"tile": red_money_2, "space": 3, "round": 0}
    assert flipped.text == "P0 activates the red event +2 money"
    reward = one(ev, "event_reward", seat=RED)
    assert reward.amounts == {"resource": 0, "amount": 3, "bonus": 1, "reputation": 0}
    assert reward.points == 0
    assert reward.text == "P0 +3 money from the event (season bonus +1 included)"
    assert seat(s, RED)["money"] == 8 + 3


def test_a_reputation_event_reward_scores_its_points():
    s = new_game(4)
    s._debug_set_board(round=0, events={0: [0, 8, 16, 24]},
                       season_bonus=["reputation", "grain", "wine", "money"],
                       order=[RED, GREEN, YELLOW, BLUE])
    s._debug_run_from("events")
    s.apply_action(act("event", 2))               # blue +3 reputation, +1 season bonus
    reward = one(s.events(), "event_reward", seat=RED)
    assert reward.points == 4 == seat(s, RED)["reputation"]


def test_works_office_settlement_events():
    """The Works Office (bought for 3) gives 2 grain per farmland in spring: 4 grain."""
    s = policy_position(4)
    s._debug_set_board(blueprint=[("works office", 1), ("mint", 1), ("granary", 2)],
                       supply=["yufu", "free market"])
    use_tile(s, RED, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("works office")))
    flips = kinds(s.events(), "blueprint_flip")
    # The Works Office stack is empty: the supply's next tile (the last listed) turns up.
    assert flips and flips[0].amounts["building"] == building("free market")
    assert "free market is flipped into the blueprint area" in flips[0].text
    s._debug_set_board(round=1)
    s._debug_set_player(RED, grain=0, cells={(0, 1): "farmland", (1, 0): "farmland"})
    ev = s._debug_run_from("settle")
    works = one(ev, "settle_building", seat=RED)
    assert works.cause == "works office"
    assert works.amounts == {"resource": 1, "amount": 4, "tiles": 2}
    assert works.text == "P0 seasonal settlement: +4 grain from the works office (2 farmland)"
    assert not kinds([e for e in ev if e.seat == RED], "settle_land")  # replaced, not added


def test_granary_and_mint_pay_first_by_source():
    s = new_game(4)
    s._debug_set_board(round=3)
    s._debug_set_player(GREEN, buildings=["granary", "mint"],
                        cells={(0, 0): "town", (0, 1): "farmland"})
    ev = [e for e in s._debug_run_from("settle") if e.seat == GREEN]
    order = [(e.kind, e.cause) for e in ev if e.kind.startswith("settle")]
    assert order == [("settle_building", "granary"), ("settle_building", "mint"),
                     ("settle_land", "towns")]          # summer: towns yield, farmland not
    assert ev[0].text == "P1 seasonal settlement: +1 grain from the granary"


def test_level_3_brewer_at_game_end_events():
    s = new_game(4)
    s._debug_set_player(RED, talents=[("brewer", 3)], wine=3)
    ev = s._debug_run_from("final")
    brewer = one(ev, "final_talent", seat=RED)
    assert brewer.points == 3 and brewer.cause == "brewer"
    assert brewer.text.startswith("P0 +3 reputation at game end: brewer level 3")
    result = one(ev, "final_result", seat=RED)
    assert result.amounts["reputation"] == 3 and result.amounts["rank"] == 0
    assert result.text == "game end: P0 finishes 1st with 3 reputation"


def test_recruitment_example_turns_the_next_card_up():
    s = policy_position(4)
    s._debug_set_board(piles=[["agricultural official"], ["commercial official"],
                              ["sacrifice official"], ["brewer", "pioneer"], ["publicist"]])
    use_tile(s, RED, 4)
    s.apply_action(effect("recruitment and development"))
    s.apply_action(act("recruit", 3))
    top = one(s.events(), "pile_top")
    assert top.amounts == {"pile": 3, "talent": talent("pioneer"), "cards": 1}
    assert top.text == "the red 1 talent pile shows the pioneer face up (1 card(s) in the pile)"


def test_sacrifice_and_celebration_reputation_events():
    s = policy_position(4)
    s._debug_set_player(RED, grain=5, wine=2, cells={(1, 0): "settlement", (3, 3): "ascent"},
                        talents=[("sacrifice official", 2)])
    use_tile(s, RED, 18)
    s.apply_action(effect("sacrifice to heaven"))
    ev = s.events()
    sac = one(ev, "sacrifice_heaven", seat=RED)
    assert sac.points == 6 and sac.amounts == {"reputation": 6, "grain": 2, "wine": 1, "money": 0}
    bonus = one(ev, "skill_reputation", seat=RED)
    assert bonus.points == 2 and bonus.cause == "sacrifice official" and bonus.amounts["level"] == 2
    assert seat(s, RED)["reputation"] == 8


def test_challenge_2_money_loss_event():
    s = new_game(challenge=2, bonus_talent="none")
    s._debug_set_player(0, money=3)
    s._debug_set_board(round=1)
    loss = one(s._debug_run_from("settle"), "challenge_loss")
    assert loss.seat == 0 and loss.amounts == {"money": 1}
    assert loss.text == "P0 loses 1 money after the settlement (challenge game 2)"


def _solo(seed: int = 3, **options):
    s = new_game(solo=True, seed=seed, **options)
    s._debug_set_board(water=set(), tribes=set())
    return s


def _tidy_first(s) -> list:
    s.apply_action(act("tidy", seat(s, 0)["uncovered"][0]))
    ev = s.events()
    if s.snapshot()["phase"] == "tidy-up":
        s.apply_action(act("pass"))
        ev += s.events()
    return ev


def test_virtual_player_building_plan_example_events():
    """The virtual player draws 9: the leftmost stack (2 granaries) leaves, the free market
    turns up."""
    s = _solo()
    s._debug_set_board(blueprint=[("granary", 2), ("mint", 1), ("yufu", 1)],
                       supply=["free market"], virtual_tiles=[9] + [14] * 15)
    s._debug_policy(0)
    ev = _tidy_first(s)
    draw = one(ev, "virtual_draw")
    assert draw.seat == VIRTUAL_SEAT and draw.amounts == {"tile": 9, "left": 15, "tier": 2}
    assert draw.text.startswith("virtual player draws edict 9 [II]")
    build = one(ev, "virtual_build")
    assert build.amounts == {"building": building("granary"), "count": 2}
    assert build.text == ("virtual player's building plan: the granary stack (2 tile(s)) leaves "
                          "the blueprint area")
    flip = one(ev, "blueprint_flip")
    assert flip.amounts == {"building": building("free market"), "position": 2, "count": 1,
                            "supply": 0}
    assert ev.index(draw) < ev.index(build) < ev.index(flip)


def test_virtual_player_recruitment_example_events():
    s = _solo()
    s._debug_set_board(piles=[["agricultural official"], ["commercial official"],
                              ["sacrifice official"], ["brewer"], ["pioneer"]],
                       virtual_tiles=[11] + [14] * 15)
    s._debug_policy(0)
    ev = _tidy_first(s)
    assert one(ev, "virtual_recruit").text == ("virtual player's recruitment (edict 11): P0 "
                                               "removes a wilderness talent")
    s.apply_action(act("recruit", 3))
    assert one(s.events(), "pile_top").text == "the red 1 talent pile is empty"


def test_virtual_player_first_flips_an_event_for_nothing():
    s = _solo()
    # No talent left to recruit: edict 4 is placed for its number alone (its effect cannot be
    # carried out, so none is due).
    s._debug_set_board(virtual_tiles=[2] + [14] * 15, events={0: [0, 8, None, None]},
                       piles=[[], [], [], [], []])
    s._debug_policy(0)
    use_tile(s, 0, 4)
    ev = s.events()
    order = kinds(ev, "turn_order")
    assert [(e.seat, e.amounts["number"]) for e in order] == [(VIRTUAL_SEAT, 2), (0, 4)]
    vp = one(ev, "event_flipped", seat=VIRTUAL_SEAT)
    assert vp.amounts["tile"] == 0
    assert vp.text == "virtual player flips the yellow event +3 money (and gains nothing)"
    assert one(ev, "event_reward", seat=0).amounts["amount"] == 3     # the grain, no choice


def test_solo_setup_names_no_face_down_tile():
    s = new_game(solo=True, seed=1)
    setup = s.events(-1)
    dealt = one(setup, "virtual_dealt")
    assert dealt.amounts == {"tier1": 3, "tier2": 7, "tier3": 6}
    assert "face down" in dealt.text
    assert not kinds(setup, "virtual_draw")
    snap = s.snapshot()
    tops = {(p, cards[0]) for p, cards in enumerate(snap["piles"]) if cards}
    assert {(e.amounts["pile"], e.amounts["talent"]) for e in kinds(setup, "pile_top")} == tops
    flipped = {e.amounts["building"] for e in kinds(setup, "blueprint_flip")}
    assert flipped == {k for k, _ in snap["blueprint"]}


def test_challenge_5_uncovered_tiles_turn_face_up_by_event():
    s = new_game(challenge=5, bonus_talent="none", seed=4)
    dealt = one(s.events(-1), "edicts_dealt")
    assert dealt.amounts == {"face_up": 4, "face_down": 25}
    s.apply_action(act("tidy", 25))
    while s.snapshot()["phase"] == "tidy-up" and s.current_player() == 0:
        s.apply_action(act("pass"))
    ev = [e for e in s.event_history() if e.kind == "edict_revealed"]
    assert ev, "taking the tier I tile above slot 16 uncovers it"
    snap = s.snapshot()
    for e in ev:
        assert e.amounts["slot"] in snap["seats"][0]["faceup"] or \
            e.amounts["tile"] in snap["seats"][0]["gone"]
        assert s.snapshot(hidden=False)["seats"][0]["slots"][e.amounts["slot"]] in (
            e.amounts["tile"], None)


def test_grand_tutor_reputation_changes_are_events():
    """The Commander's swing: the target loses, the holder gains, both as events."""
    s = new_game(4, grand_tutors=True, seed=2)
    holder = next(i for i in range(4) if seat(s, i)["tutor"] == data.TU_COMMANDER)
    s._debug_set_board(round=1, order=[holder] + [i for i in range(4) if i != holder])
    s._debug_set_player(holder, reputation=0)
    ev = s._debug_run_from("settle")
    while s.snapshot()["phase"] != "commander":
        s.apply_action(s.legal_actions()[0])
        ev += s.events()
    target = next(i for i in range(4) if i != holder)
    s._debug_set_player(target, reputation=5)
    s.apply_action(act("seat", target))
    ev = s.events()
    lost = one(ev, "tutor_reputation", seat=target)
    won = one(ev, "tutor_reputation", seat=holder)
    assert lost.points == -2 and won.points == 2 and lost.cause == "commander"
    assert lost.text == f"P{target} -2 reputation: commander (Commander: taken by P{holder})"


# ---------------------------------------------------------------------------------------------
# Random games of every variant.

VARIANTS: list[dict[str, Any]] = [
    dict(players=2), dict(players=3), dict(players=4),
    dict(players=3, promos=False), dict(players=4, promos=False, fan_talents=False),
    dict(players=2, grand_tutors=True), dict(players=3, grand_tutors=True),
    dict(players=4, grand_tutors=True),
    dict(players=4, tidy_up_effect=True, seasonal_yields=False),
    dict(solo=True), dict(solo=True, promos=False),
] + [dict(challenge=g) for g in range(1, 9)]


def _check_public(state, step: list) -> None:
    """The events of one step name only what is face up after it (or was used)."""
    snap = state.snapshot()
    last_top: dict[int, int] = {}
    for e in step:
        a = e.amounts
        if e.kind == "pile_top":
            last_top[a["pile"]] = a["talent"]
        elif e.kind == "virtual_draw":
            assert a["tile"] in snap["virtual_drawn"], e.text
        elif e.kind == "blueprint_flip":
            assert a["building"] in [k for k, _ in snap["blueprint"]] or any(
                x.kind == "virtual_build" for x in step), e.text
        elif e.kind == "edict_revealed":
            me = snap["seats"][e.seat]
            assert a["slot"] in me["faceup"] or a["tile"] in me["gone"], e.text
    for pile, top in last_top.items():
        cards = snap["piles"][pile]
        assert (cards[0] if cards else -1) == top


def _play(options: dict[str, Any], seed: int, check_public: bool = False):
    g = engine.load_game("mount-tai", **options)
    s = g.new_initial_state(seed)
    rng = random.Random(seed)
    if check_public:
        _check_public(s, s.events(-1))
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        if check_public:
            _check_public(s, s.events())
    return s


def _check_game(s, options: dict[str, Any], seed: int) -> None:
    n = s.num_players()
    history = s.event_history()
    points = [0] * n
    for e in history:
        if e.seat is not None and e.seat < n:
            points[e.seat] += e.points
        else:
            assert e.points == 0
        assert e.text and "\n" not in e.text and "{" not in e.text, e
        assert "unknown" not in e.text and not e.kind.startswith("unknown"), e
    assert points == s.scores(), (options, seed)
    assert State.from_json(s.to_json()).raw_events() == s.raw_events()
    assert kinds(history, "final_result") and len(kinds(history, "final_result")) == n


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_events_sum_to_the_reputation(options):
    for seed in range(100):
        s = _play(options, seed, check_public=seed < 20)
        _check_game(s, options, seed)
        if seed < 5:
            # Everything hidden in Mount Tai is hidden from every seat alike and no event
            # names it: a view keeps every event.
            view = s.resample_from_infostate(0, 1)
            assert view.raw_events() == s.raw_events()


@pytest.mark.slow
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_many_random_games_events_sum_to_the_reputation(options):
    for seed in range(1000, 1500):
        _check_game(_play(options, seed), options, seed)


def test_views_mid_game_keep_the_events_and_name_nothing_hidden():
    for options in (dict(players=3), dict(solo=True), dict(challenge=5), dict(challenge=7)):
        g = engine.load_game("mount-tai", **options)
        s = g.new_initial_state(11)
        rng = random.Random(11)
        for _ in range(40):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        view = s.resample_from_infostate(0, 5)
        assert view.event_history() == s.event_history()
        snap = s.snapshot(hidden=False)
        for e in view.event_history():
            if e.kind == "virtual_draw":
                assert e.amounts["tile"] in snap["virtual_drawn"]
