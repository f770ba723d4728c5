"""Action keys: the search's tree keyed by what an action does (GameDef.action_key), so that
below a reveal an edge means one thing in every determinization (Mount Tai: an edict action of
challenges 5-7 keyed by its tile, not its slot)."""
from __future__ import annotations

import random

import pytest

import engine
from ai.search import Searcher
from engine.core.errors import IllegalActionError
from tests.mount_tai.helpers import play_random

CFG = dict(playout="heuristic", cutoff=6, evaluation="learned", c=0.35)
EDICT_RANGE = range(0, 4 * 29)          # A_USE, A_TIDY, A_REMOVE, A_SWAP: 29 slots each


def _played(options: dict, seed: int, moves: int) -> engine.State:
    state = engine.load_game("mount-tai", **options).new_initial_state(seed)
    return play_random(state, seed, until=lambda s: s.move_number() >= moves)


@pytest.mark.parametrize("challenge", [5, 6, 7])
def test_keys_name_the_tile_the_same_way_in_every_determinization(challenge: int):
    """Along a whole random game: every legal action's key is the same in the true state and in
    determinizations of the mover's information set, the keys of one state are distinct, an
    edict action's key stays in its own range and names the tile the slot holds, and every
    other action is its own key."""
    state = engine.load_game("mount-tai", challenge=challenge).new_initial_state(challenge)
    rng = random.Random(challenge)
    keyed_differently = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        keys = [state.action_key(a) for a in legal]
        assert len(set(keys)) == len(keys)
        for j in range(2):
            view = state.resample_from_infostate(0, 100 + j)
            assert [view.action_key(a) for a in legal] == keys
        for a, k in zip(legal, keys):
            if a in EDICT_RANGE:
                assert k // 29 == a // 29
                keyed_differently += a != k
            else:
                assert k == a
        state.apply_action(rng.choice(legal))
    assert keyed_differently > 0


@pytest.mark.parametrize("options", [{"solo": True}, {"challenge": 8}, {"players": 2}])
def test_games_whose_edicts_lie_face_up_key_every_action_by_itself(options: dict):
    state = _played(options, 4, 0)
    rng = random.Random(4)
    for _ in range(120):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert [state.action_key(a) for a in legal] == legal
        state.apply_action(rng.choice(legal))


def test_a_game_without_keys_of_its_own_keys_every_action_by_itself():
    state = engine.load_game("dragon", players=3).new_initial_state(2)
    assert [state.action_key(a) for a in state.legal_actions()] == state.legal_actions()


def test_the_key_of_an_illegal_action_is_refused_and_changes_nothing():
    state = _played({"challenge": 6}, 3, 5)
    before = state.to_json()
    illegal = next(a for a in range(400) if a not in state.legal_actions())
    for bad in (illegal, -1, "use", 2.5):
        with pytest.raises(IllegalActionError):
            state.action_key(bad)
    assert state.to_json() == before


@pytest.mark.parametrize("options", [{"solo": True}, {"players": 2}])
def test_action_keys_change_nothing_where_every_slot_holds_a_known_tile(options: dict):
    """Where the keys are the actions themselves the search is the same, bit for bit."""
    state = _played(options, 6, 9)
    plain = Searcher(iterations=1500, seed=4, **CFG).search(state)
    keyed = Searcher(iterations=1500, seed=4, action_keys=True, **CFG).search(state)
    assert plain["root"] == keyed["root"] and plain["action"] == keyed["action"]


@pytest.mark.parametrize("challenge", [6, 7])
def test_keyed_searches_return_legal_actions_and_reuse_their_tree(challenge: int):
    """In a hidden-pile challenge the keyed tree differs from the slot-keyed one; every root
    statistic names a legal action (not a key); and a game's consecutive searches keep the
    subtree of the move played (one step since the last search), with some of its visits."""
    state = _played({"challenge": challenge}, 8, 7)
    while len(state.legal_actions()) < 2 or not any(
            a != state.action_key(a) for a in state.legal_actions()):
        state.apply_action(state.legal_actions()[0])
    plain = Searcher(iterations=3000, seed=2, **CFG).search(state)
    keyed = Searcher(iterations=3000, seed=2, action_keys=True, **CFG).search(state)
    assert keyed["iterations"] == 3000
    assert plain["root"] != keyed["root"]
    assert {r["action"] for r in keyed["root"]} <= set(state.legal_actions())
    assert keyed["action"] in state.legal_actions()
    searcher = Searcher(iterations=600, seed=3, action_keys=True, **CFG)
    reused = 0
    while not state.is_terminal():
        r = searcher.search(state)
        assert r["action"] in state.legal_actions()
        assert {x["action"] for x in r["root"]} <= set(state.legal_actions())
        if r["reused"] and len(state.legal_actions()) > 1:
            assert sum(x["visits"] for x in r["root"]) > 600
            reused += 1
        state.apply_action(r["action"])
    assert reused >= 20


def test_action_keys_are_an_ismcts_option():
    for mode in ("pimc", "mo-ismcts"):
        with pytest.raises(ValueError, match="action_keys"):
            Searcher(mode=mode, iterations=10, action_keys=True)


def test_the_option_reaches_a_bots_search():
    from ai.bots import make_bot
    state = _played({"challenge": 6}, 4, 4)
    bot = make_bot("strong(iterations=200,action_keys=true)")
    bot.step(state.resample_from_infostate(state.current_player(), 1))
    assert bot.searcher.config["action_keys"] is True
