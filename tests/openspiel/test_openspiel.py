"""tianti's games as OpenSpiel games (engine/openspiel.py): OpenSpiel's own API checks, the
information-state key, determinizations, and OpenSpiel's ISMCTS playing through the wrapper."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is an optional extra: pip install 'tianti[openspiel]'")

import numpy as np  # noqa: E402  (after the skip: only needed when OpenSpiel is there)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import engine  # noqa: E402
import engine.openspiel as eo  # noqa: E402
from engine.registry import game_class  # noqa: E402
from ai.bots import make_bot  # noqa: E402
from engine.core.state import State  # noqa: E402
from ai.match import play_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]



def _player_counts(name: str) -> list[int]:
    """The seat counts a game loads with when only `players` is given."""
    option = next(o for o in game_class(name).OPTIONS if o.name == "players")
    counts = []
    for n in option.choices or ():
        try:
            engine.load_game(name, players=n)
        except ValueError:
            continue
        counts.append(n)
    return counts


# Option sets run through OpenSpiel's random-simulation checks: every registered game with its
# defaults and with its fewest and most seats, plus expansions and variants of games we know.
SIM_CONFIGS = [(name, {}) for name in engine.game_names()] + [
    (name, {"players": n}) for name in engine.game_names()
    for n in sorted({min(_player_counts(name)), max(_player_counts(name))})
] + [
    ("dragon", {"players": 3, "great_wall": True}),
    ("dragon", {"players": 5, "super_events": True}),
    ("dragon", {"players": 2, "super_event": "earthquake", "large_privilege_cost": 6}),
] + ([("mount-tai", {"solo": True})] if "mount-tai" in engine.game_names() else [])
# The same game twice (e.g. the default seat count) is simulated once.
SIM_CONFIGS = list({
    (name, tuple(sorted(engine.load_game(name, **options).options.items(), key=str))):
    (name, options) for name, options in reversed(SIM_CONFIGS)
}.values())[::-1]


def _id(config: tuple[str, dict]) -> str:
    name, options = config
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def random_states(game: "pyspiel.Game", seed: int, every: int = 7, limit: int = 40) -> list:
    """Positions along one random game of `game` (every `every`-th, the terminal one too)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal() and len(out) < limit:
        if state.move_number() % every == 0:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    out.append(state)
    return out


# -- registration and the game type ---------------------------------------------------------------

def test_every_registered_game_is_an_openspiel_game():
    names = set(pyspiel.registered_names())
    for name in engine.game_names():
        assert name not in eo.UNAVAILABLE, eo.UNAVAILABLE.get(name)
        assert eo.short_name(name) in names
    assert eo.short_name("mount-tai") == "tianti_mount_tai"


@pytest.mark.parametrize("config", SIM_CONFIGS, ids=_id)
def test_game_type_and_info_follow_the_tianti_game(config):
    name, options = config
    game = eo.load(name, **options, rng_seed=1)
    tianti = engine.load_game(name, **options)
    kind = game.get_type()
    assert kind.short_name == eo.short_name(name)
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_string
    assert game.num_players() == tianti.num_players
    assert kind.min_num_players <= game.num_players() <= kind.max_num_players
    assert game.num_distinct_actions() == tianti.num_distinct_actions
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.tianti_game.options == tianti.options
    # The game string loads the same game back (what deserialization relies on).
    again = pyspiel.load_game(str(game))
    assert again.tianti_game.options == tianti.options
    assert str(again) == str(game)


@pytest.mark.parametrize("name", engine.game_names())
def test_every_option_value_reaches_the_tianti_game(name):
    """Each option (unset ones included: -1 / "" / -1,0,1 parameters) maps to the same
    tianti options as loading the tianti game directly."""
    cls = game_class(name)
    spec = eo.parameter_specification(cls)
    assert eo.tianti_options(cls, spec) == {o.name: o.default for o in cls.OPTIONS}
    tried = 0
    for option in cls.OPTIONS:
        values = list(option.choices or ())
        if option.kind is bool:
            values += [True, False]
        if option.default is None:
            values.append(None)
        for value in values:
            try:
                expected = engine.load_game(name, **{option.name: value}).options
            except ValueError:
                continue
            assert eo.load(name, **{option.name: value}).tianti_game.options == expected
            params = eo.parameters(cls, {option.name: value})
            assert eo.tianti_options(cls, params) == {option.name: value}
            tried += 1
    assert tried > 0


def test_parameters_map_to_options_and_bad_values_are_refused():
    game = pyspiel.load_game("tianti_dragon(players=3,great_wall=True,super_event=flood)")
    assert game.tianti_game.options["players"] == 3
    assert game.tianti_game.options["great_wall"] is True
    assert game.tianti_game.options["super_event"] == "flood"
    assert pyspiel.load_game("tianti_dragon").tianti_game.options["super_event"] is None
    with pytest.raises(ValueError, match="players"):
        eo.load("dragon", players=7)
    with pytest.raises(Exception, match="bogus"):
        pyspiel.load_game("tianti_dragon(bogus=1)")
    with pytest.raises(ValueError, match="unknown option"):
        eo.load("dragon", bogus=1)
    with pytest.raises(ValueError, match="unknown tianti game"):
        eo.load("chess")


def test_rng_seed_fixes_the_deals_and_clones_do_not_consume_them():
    def deals(clones: int) -> list[str]:
        game = eo.load("dragon", players=4, rng_seed=11)
        out = []
        for _ in range(3):
            state = game.new_initial_state()
            for _ in range(clones):
                state.clone()
            out.append(str(state))
        return out

    assert deals(0) == deals(5)
    assert len(set(deals(0))) == 3  # each new game is a new deal
    other = eo.load("dragon", players=4, rng_seed=12)
    assert str(other.new_initial_state()) != deals(0)[0]


def test_max_game_length_bounds_random_games():
    for players in (2, 5):
        game = eo.load("dragon", players=players, great_wall=True, super_events=True, rng_seed=3)
        tianti = game.tianti_game
        rng = random.Random(players)
        longest = 0
        for seed in range(200):
            state = tianti.new_initial_state(seed)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            longest = max(longest, state.move_number())
        assert longest <= game.max_game_length() // 2  # the bound has a wide margin
    assert eo.load("fusion").max_game_length() == 2


# -- OpenSpiel's own API checks ------------------------------------------------------------------

@pytest.mark.parametrize("config", SIM_CONFIGS, ids=_id)
def test_openspiel_random_simulation_checks(config):
    """OpenSpiel's RandomSimTest: sorted legal actions, empty for other seats, legal-action
    masks, unique action strings, clones equal, returns in range and equal to the rewards,
    information states at every step and at the end, the game-length bound.

    `serialize` stays off: OpenSpiel 2.0 serializes a SAMPLED_STOCHASTIC game with the game's
    RNG state, which Python games cannot provide (GetRNGState is not overridable from Python);
    state serialization is checked on its own below."""
    name, options = config
    game = eo.load(name, **options, rng_seed=5)
    pyspiel.random_sim_test(game, num_sims=2 if name != "fusion" else 20,
                            serialize=False, verbose=False)


@pytest.mark.parametrize("name", engine.game_names())
def test_state_serialization_round_trips(name):
    game = eo.load(name, rng_seed=2)
    for state in random_states(game, seed=3, every=9):
        views = [state] if state.is_terminal() else [
            state, state.resample_from_infostate(state.current_player(), 77)]
        for view in views:
            back = game.deserialize_state(view.serialize())
            assert str(back) == str(view)
            assert back.history() == view.history()
            assert back.tianti_state == view.tianti_state
            assert back.tianti_state.history() == view.tianti_state.history()


@pytest.mark.parametrize("name", engine.game_names())
def test_clone_is_independent_and_matches(name):
    game = eo.load(name, rng_seed=4)
    state = game.new_initial_state()
    copy = state.clone()
    assert str(copy) == str(state) and copy.history() == state.history()
    copy.apply_action(copy.legal_actions()[-1])
    assert state.history() == [] and state.tianti_state.history() == []
    assert copy.history() == copy.tianti_state.history()


def test_legal_actions_answer_like_openspiels_own_path():
    """The wrapper answers `legal_actions` itself for Python callers; OpenSpiel's C++ path (the
    base class method, reaching `_legal_actions`) must give the same for every seat."""
    game = eo.load("dragon", players=3, rng_seed=6)
    for state in random_states(game, seed=6, every=5):
        for player in range(game.num_players()):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        if not state.is_terminal():
            mask = state.legal_actions_mask()
            assert [a for a, m in enumerate(mask) if m] == state.legal_actions()


def test_state_api_mirrors_the_tianti_state():
    game = eo.load("dragon", players=2, rng_seed=8)
    state = game.new_initial_state_from_seed(123)
    tianti = engine.load_game("dragon", players=2).new_initial_state(123)
    rng = random.Random(0)
    while not tianti.is_terminal():
        assert state.current_player() == tianti.current_player()
        assert str(state) == str(tianti)
        action = rng.choice(tianti.legal_actions())
        assert state.action_to_string(state.current_player(), action) == \
            tianti.action_to_string(action)
        state.apply_action(action)
        tianti.apply_action(action)
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == tianti.returns()
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.history() == tianti.history()


def test_wrap_replays_a_position_with_its_determinizations():
    game = eo.load("dragon", players=3, rng_seed=9)
    tianti = game.tianti_game.new_initial_state(31)
    rng = random.Random(2)
    for _ in range(25):
        tianti.apply_action(rng.choice(tianti.legal_actions()))
    tianti = tianti.resample_from_infostate(1, 5)
    for _ in range(10):
        tianti.apply_action(rng.choice(tianti.legal_actions()))
    wrapped = game.wrap(tianti)
    assert wrapped.tianti_state == tianti
    assert wrapped.history() == tianti.history()
    with pytest.raises(ValueError, match="belongs to"):
        eo.load("dragon", players=2).wrap(tianti)


# -- the information-state key -------------------------------------------------------------------

def own_key(tianti_state, player: int) -> str:
    """The key the wrapper documents: the game's string for `player`, then the actions."""
    return (tianti_state.information_state_string(player) + "\nactions: "
            + " ".join(map(str, tianti_state.history())))


# A Dragon position (found by a random search) where player 0 houses a young healer and a
# drought then makes it release persons from unsupplied palaces, one at a time in a canonical
# order: housing the healer in palace 1 and releasing it, or housing it in palace 2 and
# releasing it, leaves the same board, but the release offered next depends on the palace of
# the previous release. OpenSpiel's ISMCTS failed on this (a KeyError on a node whose actions
# were not the state's) when the key was Dragon's string without the history.
DROUGHT_TRANSPOSITION = {
    "game": "dragon", "seed": 15,
    "options": {"players": 2, "great_wall": False, "super_events": False, "super_event": None,
                "large_privilege_cost": 7},
    # 2236 = A_START + 0: each draft pick's persons one per palace (issue 13: a decision now).
    "actions": [25, 2236, 9, 2236, 42, 40, 150, 156, 116, 156, 40, 41, 141, 157, 140, 157, 39, 40, 116,
                236, 124, 238, 37, 52, 53, 39, 123, 158, 145, 243, 1181, 1182, 1196, 1201, 50,
                36, 119, 157, 127, 157, 1199, 1191, 1196, 1218, 41, 37, 53, 121, 1180, 130, 158,
                42, 38, 122, 1180, 122],
}


def test_the_key_separates_paths_that_the_position_text_merges():
    start = State.from_record(DROUGHT_TRANSPOSITION)
    assert start.current_player() == 0 and "healer" in start.decision_name()
    game = eo.load("dragon", players=2)
    a, b = game.wrap(start), game.wrap(start)
    for action in (156, 1187):  # palace 1, then release the healer from palace 1
        a.apply_action(action)
    for action in (157, 1202):  # palace 2, then release the healer from palace 2
        b.apply_action(action)
    assert a.current_player() == b.current_player() == 0
    assert str(a) == str(b)  # the same board...
    assert a.legal_actions() != b.legal_actions()  # ...but not the same decision
    assert a.information_state_string(0) != b.information_state_string(0)


@pytest.mark.parametrize("config", [(name, {}) for name in engine.game_names()]
                         + [("dragon", {"players": 2})], ids=_id)
def test_one_key_means_one_set_of_legal_actions(config):
    """What OpenSpiel's ISMCTS needs of its node key: every state it meets under one key, in
    any determinization and by any path, offers the same legal actions. From each position of
    random games, short walks in several determinizations: two make the same choices where they
    can (the same keys in different hidden worlds), the others choose freely (other paths to the
    same keys, e.g. one multi-step release made in two orders)."""
    name, options = config
    game = eo.load(name, **options, rng_seed=17)
    rng = random.Random(17)
    seen: dict[tuple[int, str], list[int]] = {}
    repeats = 0  # keys met again below the walks' first step
    for _ in range(2 if game.num_players() <= 2 else 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            walk_seed = rng.getrandbits(32)
            for w in range(4):
                walk = state.resample_from_infostate(player, rng.getrandbits(64))
                choices = random.Random(walk_seed if w < 2 else rng.getrandbits(32))
                for depth in range(6):
                    if walk.is_terminal():
                        break
                    mover = walk.current_player()
                    key = (mover, walk.information_state_string(mover))
                    legal = walk.legal_actions()
                    repeats += depth > 0 and key in seen
                    assert seen.setdefault(key, legal) == legal, key[1]
                    walk.apply_action(legal[choices.randrange(len(legal))])
            state.apply_action(rng.choice(state.legal_actions()))
    assert repeats > 0  # keys did recur in different determinizations

@pytest.mark.parametrize("config", SIM_CONFIGS, ids=_id)
def test_information_state_is_kept_by_determinizations(config):
    """A state resampled from player p's view has p's information-state string (the invariant
    ISMCTS asserts at every root), and the string is the game's own, fresh after each action."""
    name, options = config
    game = eo.load(name, **options, rng_seed=10)
    redrawn = 0
    for state in random_states(game, seed=11, every=6, limit=25):
        tianti = state.tianti_state
        for player in range(game.num_players()):
            key = state.information_state_string(player)
            assert key == own_key(tianti, player)
            for seed in range(3):
                sampler = np.random.RandomState(seed).uniform
                view = state.resample_from_infostate(player, sampler)
                assert view.history() == state.history()
                assert view.information_state_string(player) == key
                redrawn += view.tianti_state != tianti
    assert redrawn > 0  # the determinizations did draw something afresh


def test_information_state_cache_follows_actions():
    game = eo.load("dragon", players=2, rng_seed=12)
    state = game.new_initial_state()
    before = state.information_state_string(0)
    state.apply_action(state.legal_actions()[0])
    after = state.information_state_string(0)
    assert after != before
    assert after == own_key(state.tianti_state, 0)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.information_state_string(0) == own_key(copy.tianti_state, 0)
    assert state.information_state_string(0) == after


def test_the_key_sees_chance_outcomes_that_the_history_does_not():
    """Why the node key cannot be the action history: Dragon deals the action groups inside
    apply_action, so determinizations with identical histories reach different information
    states (different cards on the table)."""
    game = eo.load("dragon", players=2, rng_seed=13)
    root = game.new_initial_state()
    rng = random.Random(0)
    views = [root.resample_from_infostate(0, seed) for seed in range(12)]
    # The draft, a pick and a housing decision per player; the deal follows it.
    while all(v.move_number() < 4 for v in views):
        action = rng.choice(views[0].legal_actions())
        for v in views:
            v.apply_action(action)
    assert len({tuple(v.history()) for v in views}) == 1
    assert len({v.information_state_string(0) for v in views}) > 1


def test_resampling_is_reproducible_from_the_sampler():
    game = eo.load("dragon", players=4, rng_seed=14)
    state = random_states(game, seed=1, every=20)[1]
    a = state.resample_from_infostate(2, np.random.RandomState(3).uniform)
    b = state.resample_from_infostate(2, np.random.RandomState(3).uniform)
    c = state.resample_from_infostate(2, np.random.RandomState(4).uniform)
    assert a.tianti_state == b.tianti_state
    assert a.tianti_state != c.tianti_state
    assert eo.seed_from(5) == 5
    d = state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert d.information_state_string(2) == state.information_state_string(2)
    with pytest.raises(TypeError):
        eo.seed_from("seed")


# -- OpenSpiel's ISMCTS through the wrapper ------------------------------------------------------

class OpenSpielISMCTS:
    """OpenSpiel's Python ISMCTS (random rollouts) as a tianti bot; its resampler calls
    tianti's resample_from_infostate through the wrapper."""

    def __init__(self, game: "pyspiel.Game", simulations: int, seed: int) -> None:
        self.game = game
        self.rs = np.random.RandomState(seed)
        self.bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(random_state=self.rs), uct_c=0.7,
            max_simulations=simulations, random_state=self.rs)
        self.bot.set_resampler(self._resample)
        self.resamples = 0

    def _resample(self, state, player):
        self.resamples += 1
        return state.resample_from_infostate(player, self.rs.uniform)

    def step(self, tianti_state) -> int:
        return int(self.bot.step(self.game.wrap(tianti_state)))


def test_openspiel_ismcts_plays_a_full_game_of_dragon_against_random():
    game = eo.load("dragon", players=2, rng_seed=15)
    theirs = OpenSpielISMCTS(game, simulations=12, seed=0)
    start = game.tianti_game.new_initial_state(2024)
    result = play_game(start, [theirs, make_bot("random(seed=1)")], resample_seed=3)
    assert len(result.actions) > 50
    assert sorted(result.ranks)[0] == 0 and sum(result.returns) == pytest.approx(1.0)
    # The game record replays: every move ISMCTS chose was legal in the real game.
    replay = State.from_record(result.record)
    assert replay.is_terminal() and replay.history() == result.actions
    # ISMCTS searched each of its real choices, one determinization per simulation.
    state, searched = game.tianti_game.new_initial_state(2024), 0
    for action in result.actions:
        searched += state.current_player() == 0 and len(state.legal_actions()) > 1
        state.apply_action(action)
    assert searched > 20
    assert theirs.resamples == 12 * searched


def test_openspiel_ismcts_finds_the_safe_move_of_fusion():
    """Strategy fusion: SAFE wins 0.6, GAMBLE 0.5; a search keyed by information states (both
    coins in one node after GAMBLE) must prefer SAFE."""
    game = eo.load("fusion", rng_seed=16)
    safe = game.new_initial_state().legal_actions()[0]
    assert game.new_initial_state().action_to_string(0, safe) == "safe"
    for seed in range(4):
        theirs = OpenSpielISMCTS(game, simulations=800, seed=seed)
        policy = dict(theirs.bot.get_policy(game.new_initial_state()))
        assert policy[safe] == 1.0
        root = theirs.bot._root_node.child_info
        assert root[safe].value() == pytest.approx(0.6, abs=0.07)
        assert root[1 - safe].value() < root[safe].value()


# -- the optional dependency -----------------------------------------------------------------------

def test_import_without_openspiel_fails_with_a_clear_message():
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "try:\n    import engine.openspiel\n"
            "except ImportError as e:\n    print('ERR', e)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "ERR" in out.stdout and "tianti[openspiel]" in out.stdout


def test_nothing_else_in_tianti_imports_the_wrapper():
    offenders = []
    for package in ("engine", "ai", "ladder"):
        for path in (ROOT / package).rglob("*"):
            if path.suffix not in (".py", ".pyx", ".pxd") or path.name == "openspiel.py":
                continue
            text = path.read_text(errors="replace")
            if "engine.openspiel" in text or "pyspiel" in text or "open_spiel" in text:
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
    code = ("import sys, engine, ai.bots, ai.match\n"
            "for name in engine.game_names(): engine.load_game(name)\n"
            "print(sorted(m for m in sys.modules if 'spiel' in m))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
