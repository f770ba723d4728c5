"""The search core: known answers, budgets, reproducibility, threads, tree reuse."""
from __future__ import annotations

import random

import pytest

import engine
from ai.search import Searcher

FUSION = engine.load_game("fusion")


def exact_fusion_values() -> dict[str, float]:
    """The exact value of each first move of the strategy-fusion game, by enumeration."""
    from engine.toy.fusion import SAFE_WIN_PROBABILITY

    coin = {0: 0.5, 1: 0.5}
    best_guess = max(sum(p for c, p in coin.items() if c == guess) for guess in (0, 1))
    return {"safe": SAFE_WIN_PROBABILITY, "gamble": best_guess}


@pytest.mark.parametrize("mode", ["ismcts", "mo-ismcts"])
def test_ismcts_finds_the_exact_optimum_under_strategy_fusion(mode):
    values = exact_fusion_values()
    assert values["safe"] > values["gamble"]
    picks = [Searcher(mode=mode, iterations=3000, seed=k).search(FUSION.new_initial_state(k))
             for k in range(10)]
    assert sum(r["action"] == 0 for r in picks) >= 9
    # The root values converge to the exact ones.
    root = {r["action"]: r["mean"] for r in picks[0]["root"]}
    assert abs(root[0] - values["safe"]) < 0.05
    assert abs(root[1] - values["gamble"]) < 0.1


def test_pimc_falls_for_strategy_fusion():
    """PIMC searches each determinization with the coin known, so it overvalues the gamble."""
    picks = [Searcher(mode="pimc", iterations=3000, determinizations=10, seed=k)
             .search(FUSION.new_initial_state(k))["action"] for k in range(10)]
    assert sum(a == 1 for a in picks) >= 9


def test_the_oracle_searches_the_given_state_as_it_is():
    """`oracle=True` (a diagnostic) never determinizes: on the true state of the strategy-fusion
    game it knows the hidden coin (and the safe move's draw, from the state's RNG), so the gamble
    is a sure win; the fair search values it at a coin flip and plays safe."""
    for k in range(5):
        state = FUSION.new_initial_state(k)
        for mode in ("ismcts", "pimc"):
            r = Searcher(mode=mode, iterations=2000, determinizations=1, seed=k,
                         oracle=True).search(state)
            means = {x["action"]: x["mean"] for x in r["root"]}
            assert means[1] > 0.99 and means[r["action"]] > 0.99
        fair = Searcher(mode="ismcts", iterations=2000, seed=k).search(state)
        assert fair["action"] == 0
        assert {x["action"]: x["mean"] for x in fair["root"]}[1] < 0.7


def test_the_oracle_on_a_view_knows_only_the_view():
    """A bot author who runs the oracle on the view a bot is handed learns nothing: the view's
    coin is a fresh draw, so the oracle's sure guess matches the true coin only by chance."""
    right = 0
    for k in range(40):
        state = FUSION.new_initial_state(k)
        view = state.resample_from_infostate(0, 1000 + k)
        view.apply_action(1)                                    # gamble, then guess
        r = Searcher(mode="ismcts", iterations=300, seed=k, oracle=True).search(view)
        assert {x["action"]: x["mean"] for x in r["root"]}[r["action"]] > 0.99  # sure of the view
        real = state.clone()
        real.apply_action(1)
        real.apply_action(r["action"])
        right += real.returns()[0] == 1.0
    assert 8 <= right <= 32                                     # a coin flip, not 40 of 40


def test_no_bot_spec_can_ask_for_the_oracle():
    """The oracle reads what the seat may not know: the bot registry does not offer it."""
    from ai.bots import make_bot
    for spec in ("ismcts(oracle=true)", "pimc(oracle=1)", "strong(oracle=true)"):
        with pytest.raises(ValueError, match="oracle"):
            make_bot(spec)


def dragon_midgame(players=3, moves=70, seed=4):
    s = engine.load_game("dragon", players=players).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply_action(rng.choice(s.legal_actions()))
    while len(s.legal_actions()) < 3:  # a real choice to search
        s.apply_action(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("mode", ["ismcts", "mo-ismcts", "pimc"])
@pytest.mark.parametrize("playout", ["random", "heuristic", "mast"])
def test_iteration_budget_is_exact_and_reproducible(mode, playout):
    s = dragon_midgame()
    a = Searcher(mode=mode, playout=playout, iterations=300, seed=9).search(s)
    b = Searcher(mode=mode, playout=playout, iterations=300, seed=9).search(s)
    assert a["iterations"] == 300
    assert a["action"] == b["action"] and a["root"] == b["root"]
    assert a["action"] in s.legal_actions()
    assert sum(r["visits"] for r in a["root"]) == 300 or mode == "pimc"


def test_time_budget_stops_the_search():
    s = dragon_midgame()
    r = Searcher(millis=50).search(s)
    assert r["iterations"] > 0
    assert r["seconds"] < 1.0


def test_both_budgets_first_reached_stops():
    s = dragon_midgame()
    r = Searcher(iterations=50, millis=10_000).search(s)
    assert r["iterations"] == 50


def test_threads_merge_root_statistics():
    s = dragon_midgame()
    r = Searcher(iterations=400, threads=2, seed=1).search(s)
    assert r["iterations"] == 400
    assert sum(x["visits"] for x in r["root"]) == 400
    again = Searcher(iterations=400, threads=2, seed=1).search(s)
    assert again["root"] == r["root"]


def test_cutoff_uses_the_evaluation():
    s = dragon_midgame()
    r = Searcher(iterations=200, cutoff=5, playout="heuristic").search(s)
    assert r["iterations"] == 200
    # Cut-off playouts score with the evaluation: values are fractional win shares.
    assert any(0 < x["mean"] < 1 and x["mean"] not in (0.5,) for x in r["root"])


@pytest.mark.parametrize("reward", ["win", "rank", "margin"])
def test_rewards_are_in_range(reward):
    r = Searcher(iterations=200, reward=reward, seed=2).search(dragon_midgame())
    assert all(0.0 <= x["mean"] <= 1.0 for x in r["root"])


def test_tree_reuse_continues_from_the_reached_node():
    s = dragon_midgame(players=2, moves=30)
    searcher = Searcher(iterations=2000, seed=3)
    me = s.current_player()
    first = searcher.search(s)
    s.apply_action(first["action"])
    while not s.is_terminal() and s.current_player() != me:
        s.apply_action(s.legal_actions()[0])
    second = searcher.search(s)
    assert second["reused"]
    # The reused subtree already had visits, so the root holds more than this search's budget.
    assert sum(x["visits"] for x in second["root"]) > 2000


def test_no_reuse_after_an_unrelated_position():
    searcher = Searcher(iterations=200, seed=3)
    searcher.search(dragon_midgame(seed=1))
    assert not searcher.search(dragon_midgame(seed=2))["reused"]


def test_a_bot_never_reads_hidden_information():
    """The search only sees determinizations: the result is the same whatever the hidden coin."""
    results = set()
    for seed in range(6):
        s = FUSION.new_initial_state(seed)  # different hidden coins
        r = Searcher(mode="ismcts", iterations=500, seed=77).search(s)
        results.add((r["action"], tuple((x["action"], x["visits"]) for x in r["root"])))
    assert len(results) == 1


@pytest.mark.parametrize("bad, message", [
    (dict(mode="alphazero", iterations=10), "mode must be one of"),
    (dict(iterations=0), "give a budget"),
    (dict(iterations=10, epsilon=2.0), "epsilon"),
    (dict(iterations=10, threads=0), "threads"),
    (dict(iterations=10, playout="smart"), "playout must be one of"),
    (dict(millis=float("nan")), "millis must be a finite number"),
    (dict(iterations=0, millis=float("inf")), "millis must be a finite number"),
    (dict(iterations=10, c=float("nan")), "c must be a finite number"),
    (dict(iterations=10, bias=float("inf")), "bias must be a finite number"),
    (dict(iterations=10, paranoia=1.5), "paranoia must be in"),
    (dict(iterations=10, paranoia=-0.1), "paranoia must be in"),
    (dict(iterations=10, paranoia=float("nan")), "paranoia must be a finite number"),
])
def test_bad_configuration(bad, message):
    with pytest.raises(ValueError, match=message):
        Searcher(**bad)


def test_terminal_state_cannot_be_searched():
    s = FUSION.new_initial_state(1)
    s.apply_action(0)
    with pytest.raises(ValueError, match="game is over"):
        Searcher(iterations=10).search(s)


@pytest.mark.parametrize("player", [-1, 2, 3, 10**6, 2**31, 2**63, -2**63, 2**64 + 5])
def test_search_refuses_a_player_that_is_not_a_seat(player):
    """Not a seat of the state: a clear ValueError (the search indexes per-seat arrays with it;
    a far seat used to crash the process)."""
    s = engine.load_game("dragon", players=2).new_initial_state(4)
    before = s.raw_bytes()
    with pytest.raises(ValueError, match=rf"player must be a seat in 0\.\.1 .*got {player}"):
        Searcher(iterations=10).search(s, player)
    assert s.raw_bytes() == before


@pytest.mark.parametrize("player", [True, False, "0", 0.0, [0], b"0", object()])
def test_search_refuses_a_player_that_is_not_an_int(player):
    s = engine.load_game("dragon", players=2).new_initial_state(4)
    with pytest.raises(TypeError, match="player must be an integer"):
        Searcher(iterations=10).search(s, player)


def test_search_takes_any_seat_and_none_means_the_player_to_move():
    s = engine.load_game("dragon", players=2).new_initial_state(4)
    me = s.current_player()
    by_default = Searcher(iterations=30, seed=3, reuse=False).search(s)
    explicit = Searcher(iterations=30, seed=3, reuse=False).search(s, me)
    assert by_default["action"] == explicit["action"] and by_default["root"] == explicit["root"]
    other = Searcher(iterations=30, seed=3, reuse=False).search(s, 1 - me)
    assert other["action"] in s.legal_actions()


def test_fixed_worlds_determinize_from_a_set_of_that_size():
    """`worlds=K` draws each search's determinizations from K fixed worlds in turn. With one
    world the search knows that world's coin, so the gamble looks like a sure win or a sure
    loss (PIMC's fusion, on one tree); with 64 worlds it is valued near the coin flip, like a
    fresh world each iteration, give or take the sampling error of 64 coins (the cost of a
    fixed set). A fixed-world search is reproducible for its seed."""
    sure = 0
    for k in range(12):
        state = FUSION.new_initial_state(k)
        one = Searcher(mode="ismcts", iterations=2000, seed=k, worlds=1).search(state)
        gamble = {x["action"]: x["mean"] for x in one["root"]}[1]
        sure += gamble > 0.95 or gamble < 0.05
        many = Searcher(mode="ismcts", iterations=2000, seed=k, worlds=64).search(state)
        assert 0.3 < {x["action"]: x["mean"] for x in many["root"]}[1] < 0.7
        again = Searcher(mode="ismcts", iterations=2000, seed=k, worlds=64).search(state)
        assert again["root"] == many["root"]
    assert sure == 12


@pytest.mark.parametrize("worlds", [-1, 2.0, True])
def test_worlds_must_be_a_whole_number(worlds):
    with pytest.raises(ValueError, match="worlds"):
        Searcher(iterations=10, worlds=worlds)


@pytest.mark.parametrize("mode", ["pimc", "mo-ismcts"])
def test_worlds_is_refused_where_it_would_be_ignored(mode):
    with pytest.raises(ValueError, match="worlds applies to mode ismcts"):
        Searcher(mode=mode, iterations=10, worlds=4)


def _root(players: int, paranoia: float, mode: str = "ismcts") -> list:
    s = engine.load_game("mount-tai", players=players).new_initial_state(5)
    for _ in range(12):
        s.apply_action(s.legal_actions()[0])
    view = s.resample_from_infostate(s.current_player(), 3)
    return Searcher(mode=mode, iterations=600, seed=4, cutoff=6, playout="heuristic",
                    paranoia=paranoia).search(view)["root"]


@pytest.mark.parametrize("mode", ["ismcts", "mo-ismcts", "pimc"])
def test_paranoia_changes_nothing_at_two_players_and_the_search_at_four(mode):
    """At two players the other seat already plays against the searcher (a win is one seat's):
    the option leaves the search bit for bit as it was. At four it changes the other seats' values
    and so the tree."""
    assert _root(2, 0.0, mode) == _root(2, 1.0, mode)
    assert _root(4, 0.0, mode) != _root(4, 1.0, mode)
    # The searcher's own root means stay rewards of its own, in [0, 1].
    assert all(0.0 <= x["mean"] <= 1.0 for x in _root(4, 1.0, mode))


def _opponents_root(players: int, opponents: str, **extra) -> list:
    s = engine.load_game("mount-tai", players=players).new_initial_state(5)
    for _ in range(12):
        s.apply_action(s.legal_actions()[0])
    view = s.resample_from_infostate(s.current_player(), 3)
    return Searcher(iterations=600, seed=4, cutoff=6, playout="heuristic", opponents=opponents,
                    **extra).search(view)["root"]


def test_opponents_policy_models_the_others_and_search_is_the_default():
    """`opponents="search"` is the search as it was, bit for bit; "policy" plays the other
    seats by the playout policy inside the tree, which changes the tree at 2 and 4 players,
    while the root still holds every move of the searcher's."""
    s = engine.load_game("mount-tai", players=4).new_initial_state(5)
    for _ in range(12):
        s.apply_action(s.legal_actions()[0])
    view = s.resample_from_infostate(s.current_player(), 3)
    plain = Searcher(iterations=600, seed=4, cutoff=6, playout="heuristic").search(view)["root"]
    assert _opponents_root(4, "search") == plain
    for players in (2, 4):
        modelled = _opponents_root(players, "policy")
        assert modelled != _opponents_root(players, "search")
        assert all(0.0 <= x["mean"] <= 1.0 for x in modelled)
    assert {x["action"] for x in _opponents_root(4, "policy")} == set(view.legal_actions())


def test_opponents_policy_keeps_its_tree_across_the_others_moves():
    """The modelled tree has no node for another seat's decision with a choice, so the next
    search follows the searcher's own moves (and forced ones) into it: most searches of a game
    reuse the tree, as the searched tree does."""
    import random
    state = engine.load_game("mount-tai", players=4).new_initial_state(3)
    searcher = Searcher(iterations=500, seed=1, cutoff=6, playout="heuristic",
                        opponents="policy")
    rng = random.Random(1)
    searches = reused = 0
    while not state.is_terminal() and state.move_number() < 120:
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            result = searcher.search(state.resample_from_infostate(0, state.move_number()))
            searches += 1
            reused += result["reused"]
            state.apply_action(result["action"])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert searches >= 20 and reused >= searches * 0.7


def test_opponents_is_checked():
    with pytest.raises(ValueError, match="opponents must be one of search, policy"):
        Searcher(iterations=10, opponents="paranoid")
    with pytest.raises(ValueError, match="not mo-ismcts"):
        Searcher(mode="mo-ismcts", iterations=10, opponents="policy")
