"""TrueSkill Through Time without drift (ladder/tournament/through_time.pyx): one game is
TrueSkill's own update; many games agree with the `trueskillthroughtime` package and do not
depend on their order."""
from __future__ import annotations

import random

import pytest
import trueskill

from ladder.tournament.through_time import fit, skills

ENV = trueskill.TrueSkill(tau=0.0)
MODEL = dict(mu=ENV.mu, sigma=ENV.sigma, beta=ENV.beta,
             margin=trueskill.calc_draw_margin(ENV.draw_probability, 2, env=ENV))


def _random_games(n: int, bots: str, seed: int, sizes: tuple[int, ...] = (2, 3, 4),
                  draws: float = 0.1) -> list[list[tuple[str, int]]]:
    """Games with random results (every ordering equally likely, some draws)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        seats = rng.sample(bots, rng.choice(sizes))
        places = list(range(len(seats)))
        if len(seats) > 2 and rng.random() < draws:
            places[2] = 1
        out.append(list(zip(seats, places)))
    return out


@pytest.mark.parametrize("places", [[0, 1], [0, 0], [0, 1, 2], [2, 0, 1], [0, 0, 1], [0, 1, 1],
                                    [0, 1, 1, 2], [1, 0, 3, 2]])
def test_one_game_is_trueskills_own_update(places: list[int]) -> None:
    names = [f"b{i}" for i in range(len(places))]
    ours = skills([list(zip(names, places))], **MODEL)
    rated = ENV.rate([(ENV.create_rating(),) for _ in names], ranks=places)
    for name, (r,) in zip(names, rated):
        assert ours[name] == pytest.approx((r.mu, r.sigma), abs=1e-5)


def test_many_games_agree_with_the_trueskillthroughtime_package() -> None:
    """The package (Landfried and Mocskos) with gamma 0: one skill per bot for all its games."""
    ttt = pytest.importorskip("trueskillthroughtime")
    # each game's seats in the order `skills` puts them (place, then name): TrueSkill's chain
    # of a multi-player game is not symmetric between the players of a tie
    games = [sorted(g, key=lambda s: (s[1], s[0])) for g in _random_games(40, "abcde", seed=2)]
    ours = skills(games, **MODEL)
    history = ttt.History([[[b] for b, _ in g] for g in games], [[-p for _, p in g] for g in games],
                          mu=ENV.mu, sigma=ENV.sigma, beta=ENV.beta, gamma=0.0,
                          p_draw=ENV.draw_probability)
    history.convergence(epsilon=1e-9, iterations=300, verbose=False)
    theirs = {b: curve[-1][1] for b, curve in history.learning_curves().items()}
    assert set(theirs) == set(ours)
    for b, (mu, sigma) in ours.items():
        assert mu == pytest.approx(theirs[b].mu, abs=1e-4)
        assert sigma == pytest.approx(theirs[b].sigma, abs=1e-4)


def test_the_order_of_the_games_does_not_matter_to_the_last_bit() -> None:
    games = _random_games(3000, "abcdefgh", seed=5)
    first = skills(games, **MODEL)
    random.Random(1).shuffle(games)
    assert skills(games, **MODEL) == first
    assert skills([list(reversed(g)) for g in reversed(games)], **MODEL) == first


def test_the_better_bot_of_a_decided_match_is_above_and_sigma_shrinks() -> None:
    """The issue's match: 337 wins to 263 over 600 games (online TrueSkill ranked the loser
    first); half the games give a wider sigma."""
    games = [[("new", 0), ("old", 1)]] * 337 + [[("old", 0), ("new", 1)]] * 263
    full = skills(games, **MODEL)
    assert full["new"][0] > full["old"][0]
    half = skills(games[::2], **MODEL)
    assert full["new"][1] < half["new"][1] < ENV.sigma
    assert full["new"][0] + full["old"][0] == pytest.approx(2 * ENV.mu)


def test_dominance_draws_and_separate_groups_converge() -> None:
    won = skills([[("a", 0), ("b", 1)]] * 2000, **MODEL)
    assert won["a"][0] > won["b"][0] + 20
    drawn = skills([[("a", 0), ("b", 0)]] * 500, **MODEL)
    assert drawn["a"] == pytest.approx(drawn["b"]) and drawn["a"][0] == pytest.approx(ENV.mu)
    apart = skills([[("a", 0), ("b", 1)]] * 30 + [[("c", 0), ("d", 1)]] * 30, **MODEL)
    assert apart["a"] == pytest.approx(apart["c"]) and apart["b"] == pytest.approx(apart["d"])


def test_a_bot_in_two_seats_counts_the_game_once() -> None:
    """1st and 3rd against a 2nd: by symmetry level with it; the game's evidence is one game's."""
    ours = skills([[("bot", 0), ("human", 1), ("bot", 2)]], **MODEL)
    assert ours["bot"][0] == pytest.approx(ENV.mu) and ours["human"][0] == pytest.approx(ENV.mu)
    assert ours["bot"][1] < ENV.sigma


def test_bad_entries_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="rank order"):
        fit([0, 2], [0, 1], [1, 0], [1.0, 1.0], [1.0], 2, **MODEL)
    with pytest.raises(ValueError, match="out of range"):
        fit([0, 2], [0, 5], [0, 1], [1.0, 1.0], [1.0], 2, **MODEL)
    with pytest.raises(ValueError, match="count"):
        fit([0, 2], [0, 1], [0, 1], [1.0, 1.0], [0.0], 2, **MODEL)
    with pytest.raises(ValueError, match="positive"):
        fit([0, 2], [0, 1], [0, 1], [1.0, 1.0], [1.0], 2, **{**MODEL, "sigma": 0.0})
    assert skills([], **MODEL) == {} and skills([[("a", 0)]], **MODEL) == {}


def test_small_and_one_sided_pools_converge() -> None:
    """Pools like a short run's: few bots, a few dozen games, often one bot winning them all
    (an early version wandered there for 100,000 sweeps); each converges to the same answer in
    any order."""
    for seed in range(60):
        rng = random.Random(seed)
        bots = "abcde"[:rng.randint(2, 5)]
        strength = {b: rng.choice([0.0, 3.0, 30.0]) * rng.random() for b in bots}
        games = []
        for _ in range(rng.randint(1, 60)):
            seats = rng.sample(bots, rng.randint(2, len(bots)))
            order = sorted(seats, key=lambda b: -(strength[b] + rng.gauss(0.0, 1.0)))
            games.append([(b, order.index(b)) for b in seats])
        first = skills(games, **MODEL)
        rng.shuffle(games)
        assert skills(games, **MODEL) == first
