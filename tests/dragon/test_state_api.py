"""The State API on In the Year of the Dragon: copies, records, determinization, text, errors."""
from __future__ import annotations

import json
import pickle
import random

import pytest

import engine
from engine import IllegalActionError, OptionError, RecordError
from engine.core.state import State
from tests.dragon.helpers import new_game, started


def random_state(players=4, moves=120, seed=3, **options):
    s = new_game(players, seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def play_to_end(s, seed=0):
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_clone_is_deep():
    s = random_state()
    before = s.raw_bytes()
    c = s.clone()
    assert c == s and c.history() == s.history()
    play_to_end(c)
    assert s.raw_bytes() == before
    assert len(s.history()) == 120 and not s.is_terminal()
    assert c != s


def test_json_round_trip_and_replay():
    s = random_state(players=3, great_wall=True, super_events=True)
    text = s.to_json()
    record = json.loads(text)
    assert record["game"] == "dragon" and record["options"]["players"] == 3
    r = State.from_json(text)
    assert r == s and r.history() == s.history()
    play_to_end(s, 7)
    play_to_end(r, 7)
    assert r == s and r.scores() == s.scores()


def test_same_seed_same_actions_same_state():
    a = play_to_end(new_game(5, 99), 5)
    b = play_to_end(new_game(5, 99), 5)
    assert a == b and a.scores() == b.scores()


def test_pickle_round_trip():
    s = random_state()
    assert pickle.loads(pickle.dumps(s)) == s


def test_determinization_keeps_what_is_known_and_varies_the_future():
    s = random_state(players=4, moves=60, seed=11)
    month = s.snapshot()["month"]
    futures = set()
    for k in range(12):
        d = s.resample_from_infostate(s.current_player(), k)
        assert d.snapshot() == s.snapshot()  # everything revealed is kept
        assert d.information_state_string(0) == s.information_state_string(0)
        assert d.legal_actions() == s.legal_actions()
        # Play both until the next month's deal with the same choices: the split differs.
        rng = random.Random(0)
        while not d.is_terminal() and d.snapshot()["month"] == month:
            d.apply_action(rng.choice(d.legal_actions()))
        futures.add(json.dumps(d.snapshot()["groups"]))
    assert len(futures) >= 4


def test_determinization_is_reproducible_and_recorded():
    s = random_state(moves=40)
    a = s.resample_from_infostate(1, 42)
    b = s.resample_from_infostate(1, 42)
    assert a == b
    assert a != s.resample_from_infostate(1, 43)
    r = State.from_json(a.to_json())
    assert r == a
    play_to_end(a, 1)
    play_to_end(r, 1)
    assert r == a


def test_illegal_action_is_refused_and_changes_nothing():
    s = random_state()
    before, hist = s.raw_bytes(), s.history()
    bad = max(s.legal_actions()) + 1
    while bad in s.legal_actions():
        bad += 1
    with pytest.raises(IllegalActionError) as e:
        s.apply_action(bad)
    assert str(bad) in str(e.value) and "legal actions:" in str(e.value)
    for junk in (-1, 10**6, "7", 3.5, None, True):
        with pytest.raises(IllegalActionError):
            s.apply_action(junk)
    assert s.raw_bytes() == before and s.history() == hist


def test_action_after_the_end_is_refused():
    s = play_to_end(new_game(2, 1))
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_action(0)


@pytest.mark.parametrize(
    "options, fragment",
    [
        ({"players": 6}, "'players' is 6; allowed: 2, 3, 4, 5"),
        ({"players": 1}, "allowed: 2, 3, 4, 5"),
        ({"players": "4"}, "must be an integer"),
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"great_wall": "yes"}, "must be true or false"),
        ({"super_event": "meteor"}, "allowed: lantern festival"),
        ({"large_privilege_cost": 5}, "allowed: 7, 6"),
    ],
)
def test_bad_options_are_explained(options, fragment):
    with pytest.raises(OptionError) as e:
        engine.load_game("dragon", **options)
    assert fragment in str(e.value)


def test_unknown_game():
    with pytest.raises(OptionError, match="known games: dragon"):
        engine.load_game("chess")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"game": "dragon", "options": {}, "seed": 1}', "lacks the field 'actions'"),
        ('{"game": "dragon", "options": {"players": 9}, "seed": 1, "actions": []}', "'players' is 9"),
        ('{"game": "dragon", "options": {}, "seed": -1, "actions": []}', "seed"),
        ('{"game": "dragon", "options": {}, "seed": 1, "actions": [0, 0]}', "action #1"),
        ('{"game": "dragon", "options": {}, "seed": 1, "actions": ["x"]}', "action #0"),
        ('{"format": "other", "game": "dragon", "options": {}, "seed": 1, "actions": []}', "not a tianti"),
    ],
)
def test_malformed_records_are_explained(text, fragment):
    with pytest.raises(RecordError) as e:
        State.from_json(text)
    assert fragment in str(e.value)


def test_every_legal_action_has_a_distinct_name_that_parses_back():
    rng = random.Random(5)
    for players, opts in [(2, {}), (4, {"great_wall": True, "super_events": True}), (5, {})]:
        s = new_game(players, rng.randrange(1000), **opts)
        while not s.is_terminal():
            legal = s.legal_actions()
            names = [s.action_to_string(a) for a in legal]
            assert all(names) and len(set(names)) == len(names), names
            a = rng.choice(legal)
            assert s.string_to_action(s.action_to_string(a)) == a
            assert s.string_to_action(str(a)) == a
            s.apply_action(a)


def test_string_to_action_prefixes():
    s = started(players=2)
    s._debug_set_board(groups=[["taxes", "build", "harvest", "fireworks"],
                               ["military parade", "research", "privilege"]])
    assert s.action_to_string(s.string_to_action("tax")).startswith("taxes")
    with pytest.raises(IllegalActionError, match="no legal action"):
        s.string_to_action("dance")


def test_board_text_shows_the_whole_board():
    s = random_state(players=4, moves=80, great_wall=True, super_events=True)
    text = str(s)
    for needle in ("month", "Events:", "Wall:", "Action groups:", "Person track", "palace 1",
                   "Player 0", "Player 3", "Now:"):
        assert needle in text
    done = play_to_end(s)
    assert "Final:" in str(done)


def test_returns_scores_ranks_at_the_end():
    s = play_to_end(new_game(4, 8))
    ranks, scores, returns = s.ranks(), s.scores(), s.returns()
    assert sorted(ranks) == [0, 1, 2, 3]
    assert returns == [1.0 if r == 0 else 0.0 for r in ranks]
    best = max(scores)
    assert scores[ranks.index(0)] == best
    assert s.current_player() == engine.core.state.TERMINAL


def test_track_order_for_any_track_a_hook_sets():
    """The person-track order: further along first, then the later arrival on a shared space
    (on top of the stack), for every player count and any track the test hook may set, below 0
    included (the compiled order sorts keys offset by 32768; without the offset, a track below
    0 went first)."""
    s = new_game(4, 1)
    for seat, track in ((0, -2), (1, 5), (2, 5), (3, 0)):
        s._debug_set_player(seat, track=track)
    assert s.snapshot()["track_order"] == [2, 1, 3, 0]
    rng = random.Random(11)
    for trial in range(400):
        n = rng.choice([2, 3, 4, 5])
        s = new_game(n, trial)
        for seat in rng.sample(range(n), rng.randint(1, n)):
            s._debug_set_player(seat, track=rng.choice([rng.randint(-20000, 30000),
                                                        rng.randint(-3, 5)]))
        seats = s.snapshot()["seats"]
        expect = sorted(range(n), key=lambda i: (-seats[i]["track"], -seats[i]["stamp"]))
        assert s.snapshot()["track_order"] == expect
