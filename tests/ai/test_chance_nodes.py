"""Chance nodes: the search's tree branches on hidden tiles once shown (Mount Tai's face-down
edicts of challenges 5-7), keyed by the game's public chance signature."""
from __future__ import annotations

import random

import pytest

import engine
from ai.search import Searcher
from tests.mount_tai.helpers import play_random


def _played(options: dict, seed: int, moves: int) -> engine.State:
    """`moves` random legal moves (fewer if the game ends) from the deal of `seed`."""
    state = engine.load_game("mount-tai", **options).new_initial_state(seed)
    return play_random(state, seed, until=lambda s: s.move_number() >= moves)


SHOWING = {"edict_revealed", "virtual_draw"}


@pytest.mark.parametrize("options", [{"challenge": 5}, {"challenge": 6}, {"challenge": 7},
                                     {"solo": True}, {"challenge": 2}])
def test_the_signature_is_public_and_changes_exactly_when_a_tile_is_shown(options: dict):
    """Every determinization of the seat's information set has the signature of the true state;
    it changes on the moves that turn a face-down edict face up or draw a virtual player's tile,
    and on no other."""
    state = engine.load_game("mount-tai", **options).new_initial_state(7)
    rng = random.Random(7)
    shown = {kind: 0 for kind in SHOWING}
    while not state.is_terminal():
        before = state.chance_signature(0)
        views = {state.resample_from_infostate(0, 50 + j).chance_signature(0) for j in range(3)}
        assert views == {before}
        state.apply_action(rng.choice(state.legal_actions()))
        kinds = {e.kind for e in state.events(state.move_number() - 1)} & SHOWING
        assert (state.chance_signature(0) != before) == bool(kinds)
        for kind in kinds:
            shown[kind] += 1
    assert shown["virtual_draw"] == 16                      # I x3, II x7, III x6
    assert (shown["edict_revealed"] >= 5) == (options.get("challenge", 0) in (5, 6, 7))


def test_several_player_games_without_face_down_edicts_key_nothing():
    assert engine.load_game("mount-tai", players=2).new_initial_state(1).chance_signature(1) == 0
    assert engine.load_game("mount-tai", players=3).new_initial_state(1).chance_signature(2) == 0


@pytest.mark.parametrize("players", [2, 4])
def test_dragon_signs_each_months_split_and_nothing_else(players: int):
    """Dragon's only chance after the deal is each month's action-card split, dealt face up: the
    signature is the same for every seat and every view of one moment, and changes exactly on
    the moves after which a month's groups were dealt."""
    state = engine.load_game("dragon", players=players).new_initial_state(11)
    rng = random.Random(11)
    deals = 0
    while not state.is_terminal():
        before = state.chance_signature(0)
        assert {state.chance_signature(p) for p in range(players)} == {before}
        views = {state.resample_from_infostate(state.current_player(), 60 + j).chance_signature(0)
                 for j in range(3)}
        assert views == {before}
        state.apply_action(rng.choice(state.legal_actions()))
        dealt = "group" in {e.kind for e in state.events(state.move_number() - 1)}
        assert (state.chance_signature(0) != before) == dealt
        deals += dealt
    assert deals == 12


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4}])
def test_chance_nodes_change_nothing_where_nothing_is_hidden_at_the_deal(options: dict):
    """With no face-down edicts and no virtual player the signature never changes: the same
    tree, bit for bit."""
    state = _played(options, 3, 12)
    cfg = dict(iterations=1500, seed=4, playout="heuristic", cutoff=6, evaluation="learned")
    plain = Searcher(**cfg).search(state)
    keyed = Searcher(**cfg, chance=True).search(state)
    assert plain["root"] == keyed["root"] and plain["action"] == keyed["action"]


def test_chance_nodes_branch_on_the_virtual_players_draw_in_solo():
    """In the plain solo game the tree below the player's policy decision splits by the tile
    the virtual player then draws: the root statistics differ from the unkeyed search's."""
    state = _played({"solo": True}, 5, 6)
    while state.current_player() != 0 or len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    cfg = dict(iterations=3000, seed=2, playout="heuristic", cutoff=6, evaluation="learned")
    plain = Searcher(**cfg).search(state)
    keyed = Searcher(**cfg, chance=True).search(state)
    assert keyed["iterations"] == 3000 and keyed["action"] in state.legal_actions()
    assert plain["root"] != keyed["root"]


def test_chance_nodes_branch_the_tree_on_the_tile_shown_in_challenge_6():
    """In challenge 6 the tree below a move that uncovers a face-down tile splits by the tile:
    the root statistics differ from the unkeyed search's, the budget is exact, the move legal,
    and a game's consecutive searches (reusing the tree through chance layers) stay sound."""
    state = _played({"challenge": 6}, 8, 7)
    cfg = dict(iterations=3000, seed=2, playout="heuristic", cutoff=6, evaluation="learned")
    plain = Searcher(**cfg).search(state)
    keyed = Searcher(**cfg, chance=True).search(state)
    assert keyed["iterations"] == 3000
    assert keyed["action"] in state.legal_actions()
    assert plain["root"] != keyed["root"]
    searcher = Searcher(**dict(cfg, iterations=800), chance=True)
    rng = random.Random(5)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            r = searcher.search(state)
            assert r["action"] in state.legal_actions()
            assert sum(x["visits"] for x in r["root"]) >= 800
            state.apply_action(r["action"])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_tree_reuse_follows_the_tile_the_game_showed():
    """After a move that shows a face-down tile, the next search keeps the part of its tree that
    lies below the chance child of the tile shown: the search is reused, and it starts with
    some, never all, of the visits the previous search gave the move played."""
    state = engine.load_game("mount-tai", challenge=6).new_initial_state(11)
    searcher = Searcher(iterations=600, seed=3, playout="heuristic", cutoff=6,
                        evaluation="learned", chance=True)
    rng = random.Random(11)
    shown_then_reused = 0
    previous = None
    while not state.is_terminal():
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            seen = state.chance_signature(0)
            r = searcher.search(state)
            assert r["action"] in state.legal_actions()
            if previous is not None and previous[0] != seen and r["reused"]:
                shown_then_reused += 1
                carried = sum(x["visits"] for x in r["root"]) - 600
                assert 0 < carried < previous[1]
            played = next(x["visits"] for x in r["root"] if x["action"] == r["action"])
            previous = (seen, played)
            state.apply_action(r["action"])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert shown_then_reused >= 3


def test_the_chance_option_is_a_bot_option():
    """`chance=true` in a bot spec reaches the bot's search; `strong` itself keeps it off."""
    from ai.bots import make_bot
    state = _played({"challenge": 7}, 4, 4)
    view = state.resample_from_infostate(state.current_player(), 1)
    bot = make_bot("strong(iterations=200,chance=true)")
    assert bot.step(view) in state.legal_actions()
    assert bot.searcher.config["chance"] is True
    plain = make_bot("strong(iterations=200)")
    plain.step(view)
    assert plain.searcher.config["chance"] is False


def test_the_clairvoyant_benchmark_plays_a_whole_deal():
    """benchmarks/solo_oracle.py's `play`: a solo deal to the end, reproducible, its result
    the game's own (reached or not, the final reputation), and searches actually run."""
    from benchmarks.solo_oracle import play
    from benchmarks.solo_analysis import deal_seed
    job = ({"challenge": 6}, deal_seed(3, 0), 60)
    first = play(job)
    assert first == play(job)
    reached, reputation, searches = first
    assert reached in (0.0, 1.0) and searches > 10
    assert (reputation >= 85) == (reached == 1.0)               # challenge 6's goal is 85


def test_the_clairvoyant_benchmark_takes_search_overrides(monkeypatch):
    """`--set KEY=VALUE` items become typed search options; a bad key is refused by name; the
    overrides reach the clairvoyant search that `play` builds (its seed shifted by `seed`)."""
    from benchmarks.solo_oracle import parse_overrides
    from benchmarks.solo_analysis import deal_seed
    assert parse_overrides(["cutoff=0", "c=0.7", "chance=true"]) == \
        {"cutoff": 0, "c": 0.7, "chance": True}
    with pytest.raises(SystemExit, match="KEY=VALUE"):
        parse_overrides(["depth=3"])
    with pytest.raises(SystemExit, match="got 'cutoff'"):
        parse_overrides(["cutoff"])
    import benchmarks.solo_oracle as oracle
    seen: list[dict] = []

    class Recording(Searcher):
        def __init__(self, **kw):
            seen.append(kw)
            super().__init__(**kw)

    monkeypatch.setattr(oracle, "Searcher", Recording)
    job = ({"challenge": 2}, deal_seed(3, 1), 60)
    oracle.play(job + ({"normalize": True, "seed": 5},))
    assert seen[0]["normalize"] is True and seen[0]["oracle"] is True
    assert seen[0]["seed"] == deal_seed(3, 1) + 5 and seen[0]["iterations"] == 60
    oracle.play(job)
    assert not seen[1].get("normalize") and seen[1]["seed"] == deal_seed(3, 1)


@pytest.mark.parametrize("layers", [-1, 1.5, True])
def test_chance_layers_must_be_a_whole_number(layers):
    with pytest.raises(ValueError, match="chance_layers"):
        Searcher(iterations=10, chance=True, chance_layers=layers)


def test_chance_layers_bound_the_branching_on_reveals():
    """In challenge 7 (every pile random) a path often shows several tiles: keying only the
    first changes the tree from keying them all, and one layer of keys is not no keys."""
    state = _played({"challenge": 7}, 6, 5)
    cfg = dict(iterations=2000, seed=9, playout="heuristic", cutoff=6, evaluation="learned")
    roots = [Searcher(**cfg, **extra).search(state)["root"]
             for extra in ({}, {"chance": True}, {"chance": True, "chance_layers": 1})]
    assert roots[0] != roots[2] != roots[1]
    assert Searcher(**cfg, chance=True, chance_layers=1).search(state)["root"] == roots[2]
