"""The rule events of In the Year of the Dragon: the rulebook's worked examples as events, and a
sweep of random games (points add up to the scores, records replay with the same events, every
text reads as one line).

Seats: Anna 0, Ben 1, Clara 2, Dora 3, Emil 4 (as in test_rulebook_examples.py, whose positions
these tests set up again).
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import engine
from engine.core.events import Event
from engine.core.state import State
from engine.dragon import data
from engine.dragon.events import EVENT_TABLE, CAUSES
from engine.dragon.game import LAYOUT, EVENT_KIND_COUNT, event_kind_ids
from tests.dragon.helpers import (
    blank_month, build, card, kind_index, release, seat, short_wall_after_the_mongols, started,
)
from tests.dragon.test_expansions import WALL_GROUPS4, at_month_7, wall
from tests.dragon.test_rulebook_examples import GROUPS5, start_event

ANNA, BEN, CLARA, DORA, EMIL = range(5)
PXD = Path(__file__).resolve().parents[2] / "engine" / "dragon" / "events.pxd"
EV_CAPACITY = 512


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def by_seat(events: list[Event], kind: str) -> dict[int, Event]:
    found = of(events, kind)
    result = {e.seat: e for e in found}
    assert len(result) == len(found), f"two {kind} events for one seat"
    return result


def vp_by_seat(events: list[Event], kind: str) -> dict[int, int]:
    return {s: e.points for s, e in by_seat(events, kind).items()}


def readable(event: Event) -> None:
    text = event.text
    assert text and "\n" not in text and "{" not in text, event
    assert "unknown" not in text and "Error" not in text, event


# -- the table and the compiled kinds agree ----------------------------------------------------

def test_event_kinds_of_the_pxd_and_the_table_agree():
    pxd = PXD.read_text()
    members = dict(
        (name, int(value)) for name, value in re.findall(r"^\s+(EVK_\w+) = (\d+)", pxd, re.M)
    )
    count = members.pop("EVK_COUNT")
    ids = event_kind_ids()
    assert count == EVENT_KIND_COUNT == len(EVENT_TABLE.kinds) == len(ids)
    assert sorted(ids.values()) == sorted(members.values()) == list(range(count))
    for name, kind_id in ids.items():
        assert EVENT_TABLE.kinds[kind_id].name == name
        assert members["EVK_" + name.upper()] == kind_id
    causes = dict(re.findall(r"^\s+(CAUSE_\w+|N_CAUSES) = (\d+)", pxd, re.M))
    assert int(causes["N_CAUSES"]) == len(CAUSES)
    assert CAUSES[int(causes["CAUSE_WALL"])] == "great wall"
    assert CAUSES[int(causes["CAUSE_SUPER"])] == data.SUPER_EVENTS[0]
    # One VP kind per score source, in the order of the sources.
    vp_kinds = [k for k in EVENT_TABLE.kinds if k.points is not None]
    assert len(vp_kinds) == len(data.SCORE_SOURCES)
    first = ids["vp_research"]
    assert [ids[k.name] for k in vp_kinds] == list(range(first, first + len(vp_kinds)))


# -- setup and the month's deal ------------------------------------------------------------------

def test_setup_lays_the_event_row_and_shows_the_super_event():
    g = engine.load_game("dragon", players=3, super_event="flood")
    s = g.new_initial_state(11)
    ev = s.events()
    assert [e.move for e in ev] == [-1] * len(ev)
    assert of(ev, "setup")[0].amounts == {"yuan": 6, "palaces": 2, "floors": 2, "cards": 11}
    row = [(e.amounts["month"], e.amounts["event"]) for e in of(ev, "event_tile")]
    assert row == list(enumerate(s.snapshot()["events"], start=1))
    (se,) = of(ev, "super_event_set")
    assert se.amounts == {"super_event": data.SUPER_EVENTS.index("flood"), "drawn": 0}
    assert se.text == "Super event on month 7: flood (chosen)"
    drawn = engine.load_game("dragon", players=3, super_events=True).new_initial_state(3)
    (se,) = of(drawn.events(), "super_event_set")
    assert se.amounts["drawn"] == 1
    assert se.amounts["super_event"] == drawn.snapshot()["super_event"]
    plain = engine.load_game("dragon", players=3).new_initial_state(3)
    assert not of(plain.events(), "super_event_set")


def test_each_month_announces_its_event_and_the_action_card_split():
    s = started(players=4, great_wall=True)
    ev = s.events()  # the last draft pick starts month 1
    (month,) = of(ev, "month")
    assert month.amounts["month"] == 1 and month.amounts["event"] == 0
    assert month.text == "Month 1 begins: peace"
    groups = of(ev, "group")
    snap_groups = s.snapshot()["groups"]
    assert [e.amounts["group"] for e in groups] == [1, 2, 3, 4]
    for e, cards in zip(groups, snap_groups):
        assert e.amounts["cards"] == sum(1 << c for c in cards)
        assert e.amounts["count"] == len(cards)
        for c in cards:
            assert data.CARDS[c][0] in e.text


# -- the action phase ---------------------------------------------------------------------------

def test_anna_pays_the_fee_and_collects_8_yuan_taxes():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[40, 10, 50, 5, 1])
    s._debug_set_player(ANNA, yuan=4, palaces=[(2, ["tax collector", "tax collector"]), (2, [])])
    s._debug_set_player(CLARA, yuan=1, palaces=[(2, ["craftsman"]), (2, [])])
    s._debug_start_round("action")
    s.apply_action(card("taxes"))  # Clara
    (c,) = s.events()
    assert (c.kind, c.seat, c.amounts["amount"], c.amounts["from_persons"]) == ("card", CLARA, 2, 0)
    s.apply_action(card("taxes"))  # Anna
    fee, gain = s.events()
    assert (fee.kind, fee.seat, fee.amounts["yuan"], fee.amounts["group"]) == ("fee", ANNA, 3, 1)
    assert fee.text == "P0 pays 3 yuan to join group 1 (taxes), which already holds a dragon"
    assert (gain.kind, gain.amounts["amount"], gain.amounts["from_persons"]) == ("card", 8, 6)
    assert gain.text == "P0 takes taxes: 8 yuan (2 from the card + 6 from its persons)"


def test_emil_tops_up_to_3_yuan():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[1, 2, 3, 4, 50])
    s._debug_set_player(EMIL, yuan=1)
    s._debug_start_round("action")
    s.apply_action(LAYOUT["topup"])
    (e,) = s.events()
    assert (e.kind, e.seat, e.amounts) == ("topup", EMIL, {"gained": 2, "yuan": 3})
    assert e.text == "P4 takes no action: money topped up by 2 to 3 yuan"


def test_no_action_with_3_yuan_or_more_tops_up_nothing():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[1, 2, 3, 4, 50])
    s._debug_set_player(EMIL, yuan=5)
    s._debug_start_round("action")
    s.apply_action(LAYOUT["topup"])
    (e,) = s.events()
    assert e.amounts == {"gained": 0, "yuan": 5}
    assert e.text == "P4 takes no action and keeps its 5 yuan (nothing to top up)"


def test_dora_research_1_plus_2_plus_3_is_a_scoring_event():
    s = started(players=5)
    blank_month(s, 3, "peace", groups=GROUPS5, tracks=[1, 2, 3, 40, 5])
    s._debug_set_player(DORA, score=10, palaces=[(2, ["young scholar", "old scholar"]), (2, [])])
    s._debug_start_round("action")
    s.apply_action(card("research"))
    (e,) = s.events()
    assert (e.kind, e.seat, e.points) == ("vp_research", DORA, 6)
    assert e.amounts == {"vp": 6, "books": 5, "base": 1, "score": 16}
    assert e.text == "P3 +6 VP research: 1 + 5 books (16 in all)"


def test_privilege_and_wall_tile_events():
    s = started(players=4, great_wall=True)
    blank_month(s, 3, "peace", groups=WALL_GROUPS4)
    s._debug_set_player(0, yuan=20, score=0)
    s._debug_start_round("action")
    s.apply_action(LAYOUT["privilege_large"])
    (e,) = s.events()
    assert e.text == "P0 buys a large privilege (2 dragons) for 7 yuan"
    s.apply_action(wall("3 VP"))  # seat 1, same group as the privilege: pays the fee
    fee, built, vp = s.events()
    assert (fee.kind, fee.seat, fee.amounts["yuan"]) == ("fee", 1, 3)
    assert built.text == "P1 builds Great Wall section 1 and takes its bonus: 3 VP"
    assert (vp.kind, vp.seat, vp.points, vp.amounts["section"]) == ("vp_wall_bonus", 1, 3, 1)


# -- the month's event --------------------------------------------------------------------------

def test_clara_tribute_pays_2_releases_2():
    s = started(players=5)
    for i in range(5):
        s._debug_set_player(i, yuan=10, palaces=[(2, ["craftsman"]), (2, [])])
    s._debug_set_player(CLARA, yuan=2,
                        palaces=[(3, ["craftsman", "young monk", "court lady"]),
                                 (1, ["young healer"])])
    start_event(s, "imperial tribute")
    tribute = by_seat(s.events(), "tribute")
    assert tribute[CLARA].amounts == {"paid": 2, "missing": 2, "yuan_left": 0}
    assert tribute[CLARA].cause == "imperial tribute"
    assert tribute[CLARA].text == (
        "P2 pays 2 yuan imperial tribute, 2 short: must release 2 persons (0 yuan left)")
    for i in (ANNA, BEN, DORA, EMIL):
        assert tribute[i].amounts == {"paid": 4, "missing": 0, "yuan_left": 6}
        assert tribute[i].text == "P{} pays 4 yuan imperial tribute (6 yuan left)".format(i)
    s.apply_action(release(0, "court lady"))
    (r,) = s.events()
    assert (r.kind, r.seat, r.cause) == ("release", CLARA, "imperial tribute")
    assert r.amounts == {"person": data.TYPES.index(next(t for t in data.TYPES
                                                         if t.name == "court lady")),
                         "palace": 1, "still_owed": 1}
    assert r.text == "P2 releases a court lady (from palace 1, imperial tribute), 1 more to release"
    s.apply_action(release(1, "young healer"))
    ev = s.events()
    assert ev[0].text == "P2 releases a young healer (from palace 2, imperial tribute)"
    # The month goes on: Clara's emptied 1-floor palace decays away.
    decay = [e for e in of(ev, "floor_lost") if e.seat == CLARA]
    assert [(e.amounts["palace"], e.amounts["gone"], e.cause) for e in decay] == [(2, 1, "decay")]


def test_droughts_anna_supplies_ben_releases_three():
    s = started(players=5)
    for i in range(5):
        s._debug_set_player(i, rice=5, palaces=[(1, ["craftsman"])])
    s._debug_set_player(ANNA, rice=4, palaces=[
        (2, ["craftsman"]), (2, ["court lady"]), (1, ["young monk"]), (2, [])])
    s._debug_set_player(BEN, rice=0, palaces=[
        (2, ["craftsman", "court lady"]), (2, ["young monk"]), (3, ["young farmer"])])
    start_event(s, "drought")
    drought = by_seat(s.events(), "drought")
    assert drought[ANNA].amounts == {"inhabited": 3, "rice_paid": 3, "unsupplied": 0,
                                     "rice_left": 1}
    assert drought[ANNA].text == (
        "P0 gives 3 rice for 3 inhabited palaces in the drought (1 rice left)")
    assert drought[BEN].amounts == {"inhabited": 3, "rice_paid": 0, "unsupplied": 3,
                                    "rice_left": 0}
    assert drought[BEN].text == ("P1 has 0 rice for 3 inhabited palaces in the drought: "
                                 "3 palaces unsupplied, each releases a person")
    texts = []
    for palace, person in [(0, "court lady"), (1, "young monk"), (2, "young farmer")]:
        s.apply_action(release(palace, person))
        r = s.events()[0]
        assert (r.kind, r.seat, r.cause, r.amounts["palace"]) == ("release", BEN, "drought",
                                                                  palace + 1)
        texts.append(r.text)
    assert texts[1] == "P1 releases a young monk (from palace 2, drought), 1 more to release"
    # Then decay: Ben's emptied palaces 2 and 3 and Anna's empty palace 4 lose a floor.
    decay = [(e.seat, e.amounts["palace"], e.amounts["floors_left"])
             for e in of(s.events(), "floor_lost")]
    assert decay == [(ANNA, 4, 1), (BEN, 3, 2), (BEN, 2, 1)]


def test_dragon_festival_6_6_3_0():
    s = started(players=5)
    fw = {ANNA: 2, BEN: 1, CLARA: 3, DORA: 0, EMIL: 3}
    for i in range(5):
        s._debug_set_player(i, score=0, fireworks=fw[i])
    start_event(s, "dragon festival")
    ev = s.events()
    (summary,) = of(ev, "festival")
    assert summary.amounts == {"most": 3, "second": 2, "at_most": 2, "at_second": 1}
    assert summary.text == ("Dragon festival: 2 players with the most fireworks (3) score 6 VP, "
                            "1 player with 2 score 3 VP")
    festival = by_seat(ev, "vp_festival")
    assert {i: e.points for i, e in festival.items()} == {ANNA: 3, CLARA: 6, EMIL: 6}
    assert festival[CLARA].amounts["returned"] == 2 and festival[ANNA].amounts["returned"] == 1
    assert festival[CLARA].text == (
        "P2 +6 VP dragon festival: most fireworks (3 tiles), returns 2 tiles (6 in all)")


def test_mongol_invasion_3_3_2_1_1_then_releases():
    s = started(players=5)
    warriors = {
        ANNA: ["old warrior", "young warrior"], BEN: ["young warrior", "old warrior"],
        CLARA: ["old warrior"], DORA: ["young warrior"], EMIL: ["young warrior"],
    }
    for i in range(5):
        s._debug_set_player(i, score=0, palaces=[(3, warriors[i] + ["craftsman"])])
    start_event(s, "mongol invasion", tracks=[50, 40, 30, 20, 10])
    ev = s.events()
    assert vp_by_seat(ev, "vp_mongol") == {ANNA: 3, BEN: 3, CLARA: 2, DORA: 1, EMIL: 1}
    assert by_seat(ev, "vp_mongol")[ANNA].text == "P0 +3 VP Mongol invasion: 3 helmets (3 in all)"
    fewest = by_seat(ev, "mongol_fewest")
    assert sorted(fewest) == [DORA, EMIL]
    assert fewest[DORA].amounts == {"helmets": 1, "releases": 1}
    assert fewest[DORA].text == ("P3 has the fewest helmets (1) against the Mongols: "
                                 "must release 1 person")
    s.apply_action(release(0, "young warrior"))
    assert s.events()[0].text == "P3 releases a young warrior (from palace 1, mongol invasion)"
    s.apply_action(release(0, "craftsman"))
    assert s.events()[0].text == "P4 releases a craftsman (from palace 1, mongol invasion)"


def test_contagion_with_healers():
    s = started(players=5)
    for i in range(5):
        s._debug_set_player(i, palaces=[(3, ["old healer", "young healer", "craftsman"])])
    s._debug_set_player(ANNA, palaces=[(3, ["craftsman", "court lady", "young monk"]),
                                       (1, ["young farmer"])])
    s._debug_set_player(CLARA, palaces=[(3, ["young healer", "young healer", "court lady"])])
    start_event(s, "contagion", tracks=[50, 40, 30, 20, 10])
    contagion = by_seat(s.events(), "contagion")
    assert [(contagion[i].amounts["mortars"], contagion[i].amounts["releases"])
            for i in range(5)] == [(0, 3), (3, 0), (2, 1), (3, 0), (3, 0)]
    assert contagion[CLARA].text == "P2 must release 1 person to the contagion (2 mortars)"
    assert contagion[BEN].text == "P1's 3 mortars hold off the contagion"
    for a in (release(0, "craftsman"), release(0, "court lady"), release(1, "young farmer")):
        s.apply_action(a)
        assert s.events()[0].cause == "contagion" and s.events()[0].seat == ANNA
    s.apply_action(release(0, "young healer"))
    r = s.events()[0]
    assert (r.seat, r.cause, r.amounts["still_owed"]) == (CLARA, "contagion", 0)


def test_month_scoring_3_plus_2_plus_2():
    s = started(players=5)
    s._debug_set_player(ANNA, score=0, privileges=(0, 1), palaces=[
        (2, ["court lady", "craftsman"]), (2, ["court lady"]), (1, ["young monk"])])
    start_event(s, "peace")
    mine = [e for e in s.events() if e.seat == ANNA and e.points]
    assert [(e.kind, e.points) for e in mine] == [
        ("vp_palaces", 3), ("vp_court_ladies", 2), ("vp_privileges", 2)]
    assert all(e.cause == "month scoring" for e in mine)
    assert [e.text for e in mine] == [
        "P0 +3 VP month scoring: 3 palaces (3 in all)",
        "P0 +2 VP month scoring: court ladies, 2 fans (5 in all)",
        "P0 +2 VP month scoring: privileges (0 small, 1 large) (7 in all)",
    ]
    assert sum(e.points for e in mine) == seat(s, ANNA)["score"] == 7


def test_ben_final_scoring_plus_25():
    s = started(players=5)
    s._debug_set_player(BEN, score=0, yuan=4, rice=1, fireworks=2, palaces=[
        (2, ["young monk", "craftsman"]),
        (3, ["old monk", "court lady", "tax collector"]),
        (2, ["young farmer", "young healer"]),
    ])
    blank_month(s, 12, "peace")
    s._debug_run_from("final")
    mine = [e for e in s.events() if e.seat == BEN and e.points]
    assert [(e.kind, e.points) for e in mine] == [
        ("vp_persons", 14), ("vp_monks", 8), ("vp_money", 3)]
    assert by_seat(mine, "vp_persons")[BEN].amounts["persons"] == 7
    assert by_seat(mine, "vp_monks")[BEN].amounts["monks"] == 2
    assert by_seat(mine, "vp_money")[BEN].amounts == {"vp": 3, "yuan": 10, "sold": 3,
                                                      "score": 25}
    assert [e.text for e in mine] == [
        "P1 +14 VP final scoring: 7 persons (14 in all)",
        "P1 +8 VP final scoring: 2 monks (buddhas x floors) (22 in all)",
        "P1 +3 VP final scoring: 10 yuan (after selling 3 tiles of rice and fireworks for 2 "
        "each), 1 VP per 3 (25 in all)",
    ]
    assert sum(e.points for e in mine) == 25
    assert len(of(s.events(), "final_rank")) == 5


def test_tie_break_by_person_track_in_the_final_places():
    s = started(players=3)
    for i in range(3):
        s._debug_set_player(i, score=0, yuan=0, rice=0, fireworks=0, palaces=[(1, ["craftsman"])])
    blank_month(s, 12, "peace", tracks=[10, 30, 30])
    s._debug_run_from("final")
    ranks = by_seat(s.events(), "final_rank")
    assert [ranks[i].amounts["place"] for i in range(3)] == [3, 2, 1]
    assert all(r.amounts["tied"] == 3 and r.amounts["score"] == 2 for r in ranks.values())
    assert ranks[2].text == ("P2 finishes 1st with 2 VP (tied on VP with 2 more: the person "
                             "track, space 30, decides)")


# -- the Great Wall -----------------------------------------------------------------------------

def test_wall_scored_after_the_mongols_when_it_reaches_the_tile():
    s = started(players=3, great_wall=True)
    for i in range(3):
        s._debug_set_player(i, score=0, palaces=[(2, ["young warrior", "craftsman"])])
    s._debug_set_board(wall=[(0, "1 rice"), (0, "2 yuan"), (1, "1 rice"), (0, "3 VP"),
                             (1, "2 yuan")])
    blank_month(s, 5, "mongol invasion")
    s._debug_run_from("event")
    while s.snapshot()["phase"] == "release":
        s.apply_action(s.legal_actions()[0])
    ev = s.events()
    (scoring,) = of(ev, "wall_scoring")
    assert scoring.amounts == {"built": 5, "needed": 5, "reached": 1}
    assert scoring.cause == "great wall"
    assert scoring.text == ("Great Wall scored after the Mongols: 5 sections built, 5 needed: "
                            "1 VP per section to its builders")
    assert vp_by_seat(ev, "vp_wall") == {0: 3, 1: 2}
    # Seat 0 had 1 VP from its helmet: 4 in all.
    assert by_seat(ev, "vp_wall")[0].text == (
        "P0 +3 VP Great Wall after the Mongols: 3 sections (4 in all)")


def test_wall_short_of_the_mongol_tile_fewest_builders_release():
    s = short_wall_after_the_mongols()
    s.apply_action(release(0, "craftsman"))
    s.apply_action(release(0, "craftsman"))
    ev = s.events()
    assert ev[0].cause == "mongol invasion"
    (scoring,) = of(ev, "wall_scoring")
    assert scoring.amounts == {"built": 2, "needed": 5, "reached": 0}
    assert by_seat(ev, "wall_fewest")[2].amounts == {"sections": 0, "releases": 1}
    assert by_seat(ev, "wall_fewest")[2].text == (
        "P2 built the fewest wall sections (0) after the Mongols: must release 1 person")
    s.apply_action(release(0, "craftsman"))
    assert s.events()[0].text == "P2 releases a craftsman (from palace 1, great wall)"


def test_final_wall_scorings():
    s = started(players=2, great_wall=True)
    s._debug_set_board(wall=[(i % 2, data.WALL_BONUSES[i // 2]) for i in range(12)])
    for i in range(2):
        s._debug_set_player(i, score=0)
    blank_month(s, 12, "peace")
    s._debug_run_from("wall_final")
    ev = s.events()
    assert of(ev, "wall_scoring")[0].cause == "great wall final"
    assert vp_by_seat(ev, "vp_wall") == {0: 6, 1: 6}
    assert all(e.cause == "great wall final" for e in of(ev, "vp_wall"))

    s = started(players=2, great_wall=True)
    s._debug_set_player(0, palaces=[(2, ["craftsman", "court lady"])])
    s._debug_set_player(1, palaces=[(2, ["craftsman", "court lady"])])
    s._debug_set_board(wall=[(1, "1 rice")])
    blank_month(s, 12, "peace")
    s._debug_run_from("wall_final")
    assert list(by_seat(s.events(), "wall_fewest")) == [0]
    s.apply_action(release(0, "court lady"))
    r = s.events()[0]
    assert (r.kind, r.cause) == ("release", "great wall final")
    assert of(s.events(), "final_rank")


# -- the super events ---------------------------------------------------------------------------

def test_lantern_festival_and_buddha():
    s = at_month_7("lantern festival")
    s._debug_set_player(0, palaces=[(3, ["craftsman", "court lady", "young monk"])])
    s._debug_run_from("event")
    ev = s.events()
    assert of(ev, "super_event")[0].text == "Super event: lantern festival"
    lantern = by_seat(ev, "vp_super_event")[0]
    assert (lantern.points, lantern.cause, lantern.amounts["detail"]) == (6, "lantern festival", 3)
    assert lantern.text == "P0 +6 VP lantern festival: 3 persons (6 in all)"

    s = at_month_7("buddha")
    s._debug_set_player(0, palaces=[(3, ["old monk", "craftsman"]), (2, ["young monk"])])
    s._debug_run_from("event")
    buddha = by_seat(s.events(), "vp_super_event")[0]
    assert (buddha.points, buddha.amounts["detail"]) == (8, 2)


def test_earthquake_events():
    s = at_month_7("earthquake", players=2)
    s._debug_set_player(0, palaces=[(2, ["craftsman", "court lady"]), (1, ["young monk"])])
    s._debug_set_player(1, palaces=[(3, ["craftsman"])])
    blank_month(s, 7, "peace", tracks=[20, 10])
    s._debug_run_from("event")
    due = by_seat(s.events(), "quake_due")
    assert due[0].amounts == {"floors": 2, "has": 3} and due[1].amounts == {"floors": 2, "has": 3}
    s.apply_action(LAYOUT["quake"] + 1)
    (lost,) = s.events()
    assert lost.amounts == {"palace": 2, "floors_left": 0, "gone": 1}
    assert lost.text == "P0: the earthquake takes a floor from palace 2, which is gone"
    s.apply_action(release(1, "young monk"))
    (r,) = s.events()
    assert (r.cause, r.amounts["palace"]) == ("earthquake", 2)
    assert r.text == "P0 releases a young monk (from palace 2, earthquake)"


def test_flood_and_tornado_announce_what_each_must_discard():
    s = at_month_7("flood", players=2)
    s._debug_set_player(0, yuan=3, rice=2, fireworks=2)
    s._debug_set_player(1, yuan=1, rice=0, fireworks=0)
    blank_month(s, 7, "peace", tracks=[20, 10])
    s._debug_run_from("event")
    due = by_seat(s.events(), "flood_due")
    assert due[0].amounts == {"total": 7, "discards": 3}
    assert due[1].amounts == {"total": 1, "discards": 0}
    assert due[0].text == "P0 must discard 3 of its 7 yuan, rice and fireworks in the flood"

    s = at_month_7("tornado", players=2)
    for i in range(2):
        s._debug_set_player(i, hand=["craftsman", "court lady", "farmer"], wildcards=1)
    blank_month(s, 7, "peace", tracks=[20, 10])
    s._debug_run_from("event")
    due = by_seat(s.events(), "tornado_due")
    assert due[0].amounts == {"cards": 4, "discards": 2}


def test_solar_eclipse_repeats_the_festival():
    s = at_month_7("solar eclipse", players=3, event="dragon festival")
    for i, fw in enumerate([4, 3, 1]):
        s._debug_set_player(i, fireworks=fw)
    s._debug_run_from("event")
    ev = s.events()
    kinds = [e.kind for e in ev if e.kind in ("festival", "eclipse", "super_event")]
    assert kinds == ["festival", "super_event", "eclipse", "festival"]
    assert of(ev, "eclipse")[0].text == "Solar eclipse: the dragon festival happens a second time"
    points = [(e.seat, e.points) for e in of(ev, "vp_festival")]
    assert points == [(0, 6), (1, 3), (0, 6), (1, 3), (2, 3)]


def test_volcano_assassination_sunrise_contract():
    s = at_month_7("volcanic eruption", players=3)
    blank_month(s, 7, "peace", tracks=[5, 30, 12])
    s._debug_run_from("event")
    volcano = by_seat(s.events(), "volcano")
    assert [(volcano[i].amounts["track"], volcano[i].amounts["place"]) for i in range(3)] == [
        (5, 3), (30, 1), (12, 2)]

    s = at_month_7("assassination attempt", players=2)
    s._debug_set_player(0, privileges=(2, 1))
    s._debug_run_from("event")
    (lost,) = of(s.events(), "privileges_lost")
    assert (lost.seat, lost.amounts) == (0, {"small": 2, "large": 1})
    assert lost.text == ("P0 loses 2 small privileges and 1 large privilege to the "
                         "assassination attempt")

    s = at_month_7("sunrise", players=3)
    s._debug_run_from("event")
    assert of(s.events(), "super_event")[0].amounts["super_event"] == data.SUPER_EVENTS.index(
        "sunrise")

    s = at_month_7("contract", players=3)
    s._debug_set_player(0, rice=0, palaces=[(2, ["young farmer", "old farmer"])])
    s._debug_set_player(1, palaces=[(3, ["old monk"]), (2, ["young monk"])])
    s._debug_set_player(2, palaces=[(2, ["old scholar", "young scholar"])])
    blank_month(s, 7, "peace", tracks=[30, 20, 10])
    s._debug_run_from("event")
    s.apply_action(LAYOUT["contract"] + kind_index("farmer"))
    (farmer,) = s.events()
    assert farmer.text == "P0 picks its farmers in the contract: 3 rice"
    s.apply_action(LAYOUT["contract"] + kind_index("monk"))
    (monk,) = s.events()
    assert (monk.kind, monk.points, monk.cause) == ("vp_super_event", 8, "contract")
    assert monk.text == "P1 +8 VP contract: its monks, 3 buddhas x floors (8 in all)"
    s.apply_action(LAYOUT["contract"] + kind_index("scholar"))
    scholar = s.events()[0]
    assert scholar.points == 5
    assert scholar.text == "P2 +5 VP contract: its scholars, 5 books (5 in all)"


def test_contract_craftsmen_floors():
    s = at_month_7("contract", players=2)
    s._debug_set_player(0, palaces=[(2, ["craftsman", "craftsman"])])
    blank_month(s, 7, "peace", tracks=[30, 20])
    s._debug_run_from("event")
    s.apply_action(LAYOUT["contract"] + kind_index("craftsman"))
    (e,) = s.events()
    assert e.amounts == {"kind_chosen": kind_index("craftsman"), "amount": 2}
    assert e.text == "P0 picks its craftsmen in the contract: 2 palace floors to place"


# -- a decision that ends a month ----------------------------------------------------------------

def test_the_decision_ending_a_month_holds_its_whole_resolution():
    s = started(players=2)
    blank_month(s, 4, "dragon festival", groups=[["taxes", "build", "harvest", "fireworks"],
                                                 ["military parade", "research", "privilege"]])
    s._debug_set_player(0, fireworks=2)
    s._debug_start_round("action")
    while s.snapshot()["month"] == 4:
        s.apply_action(s.legal_actions()[0])
    ev = s.events()
    kinds = [e.kind for e in ev]
    assert "festival" in kinds and "vp_festival" in kinds
    assert kinds.count("vp_palaces") == 2
    assert kinds.index("festival") < kinds.index("vp_palaces") < kinds.index("month")
    (month,) = of(ev, "month")
    assert month.amounts["month"] == 5
    assert kinds[-2:] == ["group", "group"]


# -- random games -------------------------------------------------------------------------------

POINTS_FIELD = [
    None if k.points is None else 3 + k.fields.index(k.points) for k in EVENT_TABLE.kinds
]


def play_random(players: int, wall: bool, super_events: bool, seed: int) -> State:
    g = engine.load_game("dragon", players=players, great_wall=wall, super_events=super_events)
    s = g.new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def check_game(s: State, texts: bool) -> None:
    raw = s.raw_events()
    assert len(raw) == len(s.history()) + 1
    assert max(len(step) for step in raw) < EV_CAPACITY // 2  # far from overflowing
    totals = [0] * s.num_players()
    for step in raw:
        for e in step:
            assert 0 <= e[0] < len(EVENT_TABLE.kinds)
            field = POINTS_FIELD[e[0]]
            if field is not None:
                totals[e[1]] += e[field]
    assert totals == [int(x) for x in s.scores()]
    if texts:
        events = s.event_history()
        assert sum(e.points for e in events) == sum(totals)
        for e in events:
            readable(e)
    assert State.from_json(s.to_json()).raw_events() == raw


MIXES = [(False, False), (True, False), (False, True), (True, True)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("wall, super_events", MIXES)
def test_random_games_points_replay_and_texts(players, wall, super_events):
    for k in range(250):
        seed = 1000 * players + 250 * MIXES.index((wall, super_events)) + k
        check_game(play_random(players, wall, super_events, seed), texts=k % 5 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("wall, super_events", MIXES)
def test_random_games_many(players, wall, super_events):
    for k in range(2500):
        seed = 10 ** 6 + 10000 * players + 2500 * MIXES.index((wall, super_events)) + k
        check_game(play_random(players, wall, super_events, seed), texts=k % 10 == 0)


def test_every_super_event_in_random_games():
    for name in data.SUPER_EVENTS:
        for seed in range(8):
            g = engine.load_game("dragon", players=3 + seed % 3, super_event=name,
                                 great_wall=bool(seed % 2))
            s = g.new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
            check_game(s, texts=True)
            assert any(e.kind == "super_event" for e in s.event_history())


def test_views_see_every_event():
    s = play_random(3, True, True, 5)
    view = s.clone()
    partial = engine.load_game("dragon", players=3, great_wall=True,
                               super_events=True).new_initial_state(5)
    rng = random.Random(5)
    for _ in range(60):
        partial.apply_action(rng.choice(partial.legal_actions()))
    v = partial.resample_from_infostate(1, seed=9)
    assert v.raw_events() == partial.raw_events()
    assert view.raw_events() == s.raw_events()
