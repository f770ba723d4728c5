"""ladder/tournament/trueskill_ffa.py: the closing ladder's TrueSkill update equals the trueskill
package's own, bit for bit, whatever the players, ratings and ranks (draws included)."""
from __future__ import annotations

import random

import pytest
import trueskill

from ladder.tournament.ratings import ENV, rate_match
from ladder.tournament.trueskill_ffa import rate_free_for_all


def _packaged(env: trueskill.TrueSkill, ratings: list[trueskill.Rating],
              ranks: list[int]) -> list[trueskill.Rating]:
    return [g[0] for g in env.rate([(r,) for r in ratings], ranks=ranks)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_update_is_the_packages_bit_for_bit(players: int) -> None:
    rng = random.Random(players)
    draws = 0
    for _ in range(300):
        ratings = [ENV.create_rating(rng.uniform(-5, 55), rng.uniform(0.3, 9))
                   for _ in range(players)]
        ranks = [rng.randrange(players) for _ in range(players)]
        draws += len(set(ranks)) < players
        ours = rate_free_for_all(ENV, ratings, ranks)
        theirs = _packaged(ENV, ratings, ranks)
        assert [(r.mu, r.sigma) for r in ours] == [(r.mu, r.sigma) for r in theirs]
        assert all(type(r) is trueskill.Rating for r in ours)
    assert draws > 50  # draws were tried too


def test_a_ladder_of_many_games_rates_as_the_package_does() -> None:
    """Ratings carried from game to game (sigmas shrinking, as in a long run) stay equal."""
    rng = random.Random(7)
    env = trueskill.TrueSkill(mu=30, sigma=6, beta=4, tau=0.1, draw_probability=0.2)
    ours = theirs = [env.create_rating() for _ in range(4)]
    for _ in range(400):
        seats = rng.sample(range(4), 3)
        ranks = [rng.randrange(3) for _ in seats]
        new_ours = rate_free_for_all(env, [ours[s] for s in seats], ranks)
        new_theirs = _packaged(env, [theirs[s] for s in seats], ranks)
        ours, theirs = list(ours), list(theirs)
        for s, a, b in zip(seats, new_ours, new_theirs):
            ours[s], theirs[s] = a, b
    assert [(r.mu, r.sigma) for r in ours] == [(r.mu, r.sigma) for r in theirs]
    assert rate_match(ENV, [ENV.create_rating()] * 3, [2, 0, 1]) == \
        _packaged(ENV, [ENV.create_rating()] * 3, [2, 0, 1])


def test_what_the_package_refuses_is_refused_alike() -> None:
    weak, strong = ENV.create_rating(-400, 0.5), ENV.create_rating(400, 0.5)
    with pytest.raises(FloatingPointError):
        _packaged(ENV, [weak, strong], [0, 1])
    with pytest.raises(FloatingPointError):
        rate_free_for_all(ENV, [weak, strong], [0, 1])
    for bad in ([ENV.create_rating()], []):
        with pytest.raises(ValueError):
            rate_free_for_all(ENV, bad, list(range(len(bad))))
    with pytest.raises(ValueError):
        rate_free_for_all(ENV, [weak, strong], [0])


def test_the_ladders_shortcut_for_one_seat_per_bot_changes_nothing() -> None:
    """`GameRow.by_bot` takes a shortcut when each bot has one seat (every tournament game):
    the same rows as the general way (a bot in several seats)."""
    from ladder.tournament.ratings import GameRow

    rng = random.Random(5)
    for gid in range(200):
        bots = rng.sample(["a", "b", "c", "d"], 3)
        ranks = [rng.randrange(3) for _ in bots]
        seats = [(b, rank, rng.randrange(60), rng.random() < 0.1) for b, rank in zip(bots, ranks)]
        row = GameRow(gid, "dragon", 3, {}, "p", None, seats)
        general = GameRow(gid, "dragon", 3, {}, "p", None, seats + [seats[0]])
        assert {b: v for b, v in row.by_bot().items()} == {
            b: ((r + 1) / 1, r == 0, sc / 1, f) for b, r, sc, f in seats}
        assert general.by_bot()[seats[1][0]] == row.by_bot()[seats[1][0]]
