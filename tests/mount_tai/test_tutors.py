"""The Grand Tutor variant: the five tutors the FAQ describes, with the completed rules of
data.py (each marked there as an assumption where the FAQ is silent)."""
from __future__ import annotations

from engine.mount_tai import data
from tests.mount_tai.helpers import act, building, effect, new_game, policy_position, seat, use_tile


def tutors(players=4, **by_seat):
    """A Grand Tutor game with the tutors given by seat (others: none)."""
    s = new_game(players, grand_tutors=True)
    for i in range(players):
        s._debug_set_player(i, tutor=by_seat.get(f"seat{i}", "none"))
    return s


def test_each_player_draws_a_different_tutor_scholar_only_with_4():
    for players in (2, 3, 4):
        seen = set()
        for seed in range(40):
            snap = new_game(players, seed=seed, grand_tutors=True).snapshot()
            got = [x["tutor"] for x in snap["seats"]]
            assert len(set(got)) == players and None not in got
            seen |= set(got)
        if players < 4:
            assert data.TU_SCHOLAR not in seen
        else:
            assert seen == set(range(5))
    assert new_game(4).snapshot()["seats"][0]["tutor"] is None


def test_master_builder_toll():
    s = tutors(seat0="master builder")
    s._debug_set_board(blueprint=[("mint", 2), ("granary", 1), ("yufu", 1), ("free market", 1)])
    s._debug_policy(0)
    use_tile(s, 0, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("mint")))
    assert s.snapshot()["builder_mark"] == building("mint")
    # Seat 1 builds the marked kind: pays 1 reputation to the holder.
    s._debug_set_player(1, reputation=2)
    s._debug_policy(1)
    use_tile(s, 1, 9)
    s.apply_action(effect("building plan"))
    s.apply_action(act("build", building("mint")))
    assert seat(s, 1)["reputation"] == 1 and seat(s, 0)["reputation"] == 1
    # With no reputation it cannot be built.
    s._debug_set_board(blueprint=[("mint", 1), ("granary", 1), ("yufu", 1), ("free market", 1)])
    s._debug_set_player(2, reputation=0)
    s._debug_policy(2)
    use_tile(s, 2, 9)
    s.apply_action(effect("building plan"))
    assert act("build", building("mint")) not in s.legal_actions()
    assert act("build", building("granary")) in s.legal_actions()


def scholar_settlement(money=(7, 6, 6, 6), farms=(2, 2, 0, 0)):
    s = tutors(seat3="scholar")
    s._debug_set_board(round=1, praises={(0, 0): "壮矣"},
                       season_bonus=["money", "grain", "wine", "reputation"])
    spots = [(0, 1), (1, 0)]
    for i in range(4):
        s._debug_set_player(i, money=money[i], reputation=0,
                            cells={spots[k]: "farmland" for k in range(farms[i])})
    s._debug_run_from("settle")
    return s


def test_scholar_study_marker_to_the_best_eight_praises_gain():
    s = scholar_settlement()
    # Seats 0 and 1 both gained 5; seat 0 has more money (spring's bonus type).
    assert [seat(s, i)["study"] for i in range(4)] == [1, 0, 0, 0]
    assert seat(s, 3)["reputation"] == data.SCHOLAR_TEACHING_REPUTATION
    assert s.snapshot()["study_left"] == 7


def test_scholar_chooses_among_players_still_tied():
    s = scholar_settlement(money=(6, 6, 6, 6))
    assert s.snapshot()["phase"] == "scholar" and s.current_player() == 3
    assert s.legal_actions() == [act("seat", 0), act("seat", 1)]
    s.apply_action(act("seat", 1))
    assert seat(s, 1)["study"] == 1


def test_scholar_marker_discarded_if_nobody_gained():
    s = scholar_settlement(farms=(0, 0, 0, 0))
    assert s.snapshot()["study_left"] == 7 and all(seat(s, i)["study"] == 0 for i in range(4))


def test_study_markers_score_at_game_end():
    s2 = scholar_settlement()
    s2._debug_run_from("final")
    assert seat(s2, 0)["reputation_by_source"]["grand tutors"] == data.STUDY_MARKER_REPUTATION


def test_conspirator_targets_at_game_end():
    s = tutors(seat0="conspirator")
    s._debug_set_player(0, cells={(0, 1): "farmland", (1, 0): "farmland"})
    s._debug_set_player(1, cells={(0, 1): "farmland", (1, 0): "farmland"})
    s._debug_set_player(2, cells={(0, 0): "town"})
    s._debug_set_player(3, wine=1)
    s._debug_run_from("final")
    got = [seat(s, i)["reputation_by_source"]["grand tutors"] for i in range(4)]
    r = data.CONSPIRATOR_TARGET_REPUTATION
    # Farmland tied 2-2: r // 2 each, the conspirator's share doubled; towns: seat 2; wine: 3.
    assert got == [2 * (r // 2), r // 2, r, r]


def test_philanthropist_donations():
    s = tutors(seat2="philanthropist")
    s._debug_set_board(round=1, order=[0, 1, 2, 3], praises={(0, 0): "高矣"})
    s._debug_set_player(0, donation=1)
    s._debug_run_from("settle")
    assert s.snapshot()["phase"] == "donate kind" and s.current_player() == 0
    s.apply_action(act("resource", 0))  # money
    assert s.current_player() == 0 and s.legal_actions() == [act("amount", k) for k in range(4)]
    s.apply_action(act("amount", 2))  # 1 -> 3: the first threshold
    assert seat(s, 0)["money"] == 4 and seat(s, 0)["reputation"] == 1
    assert seat(s, 2)["reputation"] == 1 + data.PHILANTHROPIST_BONUS  # (1 = seat compensation)
    for who in (1, 2, 3):
        assert s.current_player() == who
        s.apply_action(act("amount", 0))
    assert s.snapshot()["phase"] == "policy"
    s._debug_run_from("final")
    assert seat(s, 0)["reputation_by_source"]["grand tutors"] == 1 + data.DONATION_FINAL_REPUTATION


def test_commander_takes_reputation_when_first():
    s = tutors(seat1="commander")
    s._debug_set_board(round=1, order=[1, 0, 2, 3], praises={(0, 0): "高矣"})
    s._debug_set_player(2, reputation=3)
    s._debug_run_from("settle")
    assert s.snapshot()["phase"] == "commander" and s.current_player() == 1
    assert s.legal_actions() == [act("seat", 0), act("seat", 2), act("seat", 3)]
    s.apply_action(act("seat", 2))
    assert seat(s, 2)["reputation"] == 1 and seat(s, 1)["reputation"] == 2
    # An opponent with no reputation: the holder still gains 2.
    s = tutors(seat1="commander")
    s._debug_set_board(round=1, order=[1, 0, 2, 3], praises={(0, 0): "高矣"})
    s._debug_run_from("settle")
    s.apply_action(act("seat", 0))
    assert seat(s, 0)["reputation"] == 0 and seat(s, 1)["reputation"] == 2
    # Not first: nothing.
    s = tutors(seat1="commander")
    s._debug_set_board(round=1, order=[0, 1, 2, 3], praises={(0, 0): "高矣"})
    s._debug_run_from("settle")
    assert s.snapshot()["phase"] == "policy"
