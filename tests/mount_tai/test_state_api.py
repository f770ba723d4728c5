"""The State API on Mount Tai: copies, records, determinization, text, errors, the outcome."""
from __future__ import annotations

import json
import pickle
import random

import pytest

import engine
from engine import IllegalActionError, OptionError, RecordError
from engine.core.state import State
from tests.mount_tai.helpers import new_game, play_random


def random_state(players=4, moves=150, seed=3, **options):
    s = new_game(players, seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_clone_is_deep():
    s = random_state()
    before = s.raw_bytes()
    c = s.clone()
    assert c == s and c.history() == s.history()
    play_random(c, 1)
    assert s.raw_bytes() == before and s.history() != c.history()
    assert not s.is_terminal() and c.is_terminal() and c != s


@pytest.mark.parametrize("options", [dict(players=3), dict(players=4, grand_tutors=True),
                                     dict(challenge=5, bonus_talent="brewer"), dict(challenge=8)])
def test_json_round_trip_replays_to_an_identical_state(options):
    s = random_state(moves=90, seed=11, **options)
    text = s.to_json()
    record = json.loads(text)
    assert record["game"] == "mount-tai" and record["seed"] == s.seed
    r = State.from_json(text)
    assert r == s and r.history() == s.history() and r.raw_bytes() == s.raw_bytes()
    play_random(s, 7)
    play_random(r, 7)
    assert r == s and r.scores() == s.scores()


def test_same_seed_same_actions_same_state():
    a = play_random(new_game(4, 99), 5)
    b = play_random(new_game(4, 99), 5)
    assert a == b and a.scores() == b.scores()
    assert play_random(new_game(4, 98), 5) != a


def test_pickle_round_trip():
    s = random_state()
    assert pickle.loads(pickle.dumps(s)) == s


def _public(s):
    snap = s.snapshot(hidden=False)
    snap.pop("options")
    return snap


def test_determinization_keeps_what_is_seen_and_varies_the_hidden_piles():
    s = random_state(players=4, moves=40, seed=4)
    piles, supplies = set(), set()
    for k in range(20):
        d = s.resample_from_infostate(s.current_player(), k)
        assert _public(d) == _public(s)
        assert d.information_state_string(0) == s.information_state_string(0)
        assert d.legal_actions() == s.legal_actions()
        full = d.snapshot()
        piles.add(json.dumps(full["piles"]))
        supplies.add(json.dumps(full["supply"]))
        # The face-down cards come from the cards nobody has seen, by colour.
        for p, cards in enumerate(full["piles"]):
            for card in cards[1:]:
                assert card in _unseen(s, p)
    assert len(piles) > 1 and len(supplies) > 1


def _unseen(s, pile):
    from engine.mount_tai import data

    snap = s.snapshot()
    colour = data.PILE_COLOURS[pile]
    pool = {k for k, t in enumerate(data.TALENTS) if t.colour == colour}
    return {k for k in pool if snap["talent_seen"][k] < data.TALENTS[k].copies}


def test_determinization_varies_the_virtual_players_tiles_and_face_down_edicts():
    s = random_state(moves=20, seed=5, challenge=5, bonus_talent="none")
    drawn = s.snapshot()["virtual_drawn"]
    vps, edicts = set(), set()
    for k in range(20):
        d = s.resample_from_infostate(0, k)
        assert _public(d) == _public(s)
        full = d.snapshot()
        assert full["virtual_tiles"][:len(drawn)] == drawn
        assert len(set(full["virtual_tiles"])) == 16
        vps.add(tuple(full["virtual_tiles"]))
        edicts.add(tuple(full["seats"][0]["slots"]))
        # Face-down tiles keep their tier (the pyramid's tiers are public).
        from engine.mount_tai import data
        for slot, t in enumerate(full["seats"][0]["slots"]):
            if t is not None:
                assert data.TIER_OF[t] == (3 if slot < 16 else 2 if slot < 25 else 1)
    assert len(vps) > 1 and len(edicts) > 1


def test_determinization_is_reproducible_and_recorded():
    s = random_state(moves=40)
    a = s.resample_from_infostate(1, 42)
    b = s.resample_from_infostate(1, 42)
    assert a == b and a != s.resample_from_infostate(1, 43)
    r = State.from_json(a.to_json())
    assert r == a
    play_random(a, 1)
    play_random(r, 1)
    assert r == a
    with pytest.raises(ValueError, match="player must be a seat"):
        s.resample_from_infostate(4, 1)


def test_illegal_action_is_refused_and_changes_nothing():
    s = random_state()
    before, hist = s.raw_bytes(), s.history()
    bad = next(a for a in range(400) if a not in s.legal_actions())
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(bad)
    assert str(bad) in str(e.value) and "legal actions:" in str(e.value)
    for junk in (-1, 10**6, "7", 3.5, None, True):
        with pytest.raises(IllegalActionError):
            s.apply_action(junk)
    assert s.raw_bytes() == before and s.history() == hist


def test_action_after_the_end_is_refused():
    s = play_random(new_game(2, 1))
    assert s.legal_actions() == [] and s.current_player() == engine.core.state.TERMINAL
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_action(0)


@pytest.mark.parametrize("options, fragment", [
    ({"players": 5}, "'players' is 5; allowed: 1, 2, 3, 4"),
    ({"players": "4"}, "must be an integer"),
    ({"colour": "red"}, "unknown option 'colour'"),
    ({"promos": "yes"}, "must be true or false"),
    ({"challenge": 0}, "allowed: 1, 2, 3, 4, 5, 6, 7, 8"),
    ({"players": 3, "solo": True}, "solo play has 1 player"),
])
def test_bad_options_are_explained(options, fragment):
    with pytest.raises(OptionError) as e:
        engine.load_game("mount-tai", **options)
    assert fragment in str(e.value)


def test_unknown_option_lists_the_allowed_ones():
    with pytest.raises(OptionError) as e:
        engine.load_game("mount-tai", expansion=True)
    for name in ("players", "promos", "grand_tutors", "solo", "challenge"):
        assert name in str(e.value)


@pytest.mark.parametrize("text, fragment", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"game": "mount-tai", "options": {}, "seed": 1}', "lacks the field 'actions'"),
    ('{"game": "mount-tai", "options": {"players": 9}, "seed": 1, "actions": []}', "'players' is 9"),
    ('{"game": "mount-tai", "options": {}, "seed": -1, "actions": []}', "seed"),
    ('{"game": "mount-tai", "options": {}, "seed": 1, "actions": [275]}', "action #0"),
    ('{"game": "mount-tai", "options": {}, "seed": 1, "actions": ["x"]}', "action #0"),
])
def test_malformed_records_are_explained(text, fragment):
    with pytest.raises(RecordError) as e:
        State.from_json(text)
    assert fragment in str(e.value)


def test_string_to_action():
    s = new_game(4)
    a = s.legal_actions()[0]
    assert s.string_to_action(s.action_to_string(a)) == a
    assert s.string_to_action("tidy up: remove edict " + str(s.snapshot()["seats"][0]["slots"][25])) \
        == s.legal_actions()[4]
    with pytest.raises(IllegalActionError, match="no legal action"):
        s.string_to_action("dance")


def test_board_text_shows_the_whole_board():
    s = random_state(players=4, moves=80, grand_tutors=True)
    text = str(s)
    for needle in ("Mount Tai: round", "Turn order:", "Events:", "Blueprint area:",
                   "Wilderness:", "Player 0", "Player 3", "fief", "edicts", "tutor:", "Now:"):
        assert needle in text, needle
    done = play_random(s)
    assert "Final:" in str(done)
    solo = play_random(new_game(solo=True))
    assert "Virtual player:" in str(solo) and "goal 80:" in str(solo)


def test_information_state_hides_the_face_down_cards():
    s = new_game(4, seed=2)
    info = s.information_state_string(1)
    assert info.startswith("seen by player 1") and "+" in info
    with pytest.raises(ValueError):
        s.information_state_string(4)
    # A solo challenge with hidden tiers shows them as "??".
    c = new_game(challenge=6, bonus_buildings="none")
    assert "??" in c.information_state_string(0)


def test_returns_scores_ranks_at_the_end():
    s = play_random(new_game(4, 8))
    ranks, scores, returns = s.ranks(), s.scores(), s.returns()
    assert scores == [x["reputation"] for x in s.snapshot()["seats"]]
    assert scores[ranks.index(0)] == max(scores)
    assert abs(sum(returns) - 1.0) < 1e-9
    assert all(r > 0 for r, k in zip(returns, ranks) if k == 0)


def test_tie_break_by_season_bonus_resources():
    s = new_game(3)
    s._debug_set_board(season_bonus=["grain", "money", "wine", "reputation"])
    for i in range(3):
        s._debug_set_player(i, reputation=30, grain=4, money=5, wine=0)
    s._debug_set_player(2, reputation=20)
    s._debug_set_player(1, money=6)  # spring (grain) tied; summer (money) decides
    s._debug_run_from("final")
    assert s.ranks() == [1, 0, 2] and s.returns() == [0.0, 1.0, 0.0]
    s = new_game(3)
    for i in range(3):
        s._debug_set_player(i, reputation=30, grain=4, money=5, wine=1)
    s._debug_run_from("final")
    assert s.ranks() == [0, 0, 0] and s.returns() == [1 / 3] * 3
