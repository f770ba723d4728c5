"""Ratings: what the ladder says agrees with the games played, with an independent TrueSkill
Through Time and with an independent maximum-likelihood fit, in any stored order."""
from __future__ import annotations

import itertools
import json
import random
import shutil
from pathlib import Path

import pytest
import trueskill

import engine
from ladder.tournament.ratings import head_to_head, ladder, recompute, wilson
from ladder.tournament.schedule import TournamentSpec
from ladder.tournament.store import Store, StoredGame
from ladder.tournament.worker import GameOutcome, SeatOutcome
from tests.ladder.helpers import cli, games


def test_the_ladder_orders_a_stronger_bot_above_a_weaker_one(quality_db: Path) -> None:
    """Search above the heuristic above random, and clearly: the ladder's order is that of mu,
    each bot almost surely above the next, and the mean finishing places differ by more than
    two standard errors each."""
    with Store(quality_db, create=False) as store:
        (pool,) = ladder(store)
    assert (pool.game, pool.players) == ("dragon", 3)
    assert [r.bot for r in pool.rows] == ["search", "heuristic", "random"]
    assert [r.rank for r in pool.rows] == [1, 2, 3]
    for upper, lower in zip(pool.rows, pool.rows[1:]):
        assert upper.mu > lower.mu + 3 and upper.above_next > 0.99
        assert upper.mean_place + 2 * upper.mean_place_se < lower.mean_place - 2 * lower.mean_place_se
    assert pool.rows[-1].above_next is None
    assert all(r.games == 24 and r.errors == 0 for r in pool.rows)
    assert sum(r.wins for r in pool.rows) == 24
    assert pool.rows[0].win_rate > 0.5


def test_ratings_agree_with_the_trueskillthroughtime_package(quality_db: Path) -> None:
    """The ladder's mu and sigma are the posterior given all the games: what Landfried and
    Mocskos's package finds with no drift (gamma 0), each game's seats in rank order."""
    ttt = pytest.importorskip("trueskillthroughtime")
    env = trueskill.TrueSkill()
    stored = [sorted(((s["rank"], s["bot"]) for s in g.seats)) for g in games(quality_db)]
    history = ttt.History([[[b] for _, b in g] for g in stored], [[-r for r, _ in g] for g in stored],
                          mu=env.mu, sigma=env.sigma, beta=env.beta, gamma=0.0,
                          p_draw=env.draw_probability)
    history.convergence(epsilon=1e-9, iterations=300, verbose=False)
    with Store(quality_db, create=False) as store:
        (pool,) = ladder(store)
    for row in pool.rows:
        theirs = history.learning_curves()[row.bot][-1][1]
        assert row.mu == pytest.approx(theirs.mu, abs=1e-4)
        assert row.sigma == pytest.approx(theirs.sigma, abs=1e-4)
        assert row.conservative == pytest.approx(row.mu - 3 * row.sigma)


def test_recompute_gives_the_incremental_ratings_and_head_to_head_counts(quality_db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    with Store(quality_db, create=False) as store:
        before = [(r.bot, r.mu, r.sigma) for r in ladder(store)[0].rows]
        store.conn.execute("PRAGMA wal_checkpoint(FULL)")
    shutil.copy(quality_db, copy)
    with Store(copy, create=False) as store:
        assert recompute(store) == 24
        after = [(r.bot, r.mu, r.sigma) for r in ladder(store)[0].rows]
        h2h = head_to_head(store, "dragon", 3)
    assert after == before
    stored = games(quality_db)
    for a, b in [("search", "heuristic"), ("heuristic", "random"), ("search", "random")]:
        above = sum(1 for g in stored if _rank(g, a) < _rank(g, b))
        assert h2h.above[(a, b)] == above == h2h.below[(b, a)]
        assert h2h.meetings(a, b) == 24
    assert h2h.score("search", "random") == 1.0 - h2h.score("random", "search")


def _rank(g: StoredGame, bot: str) -> int:
    return next(s["rank"] for s in g.seats if s["bot"] == bot)


def test_one_player_games_are_not_rated_but_ordered_by_mean_score(tmp_path: Path) -> None:
    db = tmp_path / "solo.db"
    result = cli("tournament", "run", "--db", db, "--game", "mount-tai", "--players", 1,
                 "-b", "random", "-b", "heuristic", "--deals", 2, "--seed", 3, "--workers", 1,
                 "--no-progress")
    assert result.exit_code == 0, result.output
    with Store(db, create=False) as store:
        (pool,) = ladder(store)
        assert store.conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] == 0
    assert pool.title == "mount-tai, 1 player, solo=true"  # the pool shows its options
    assert all(r.mu is None and r.conservative is None and r.games == 2 for r in pool.rows)
    scores = {b: sum(s["score"] for g in games(db) for s in g.seats if s["bot"] == b) / 2
              for b in ("random", "heuristic")}
    assert [r.bot for r in pool.rows] == sorted(scores, key=lambda b: -scores[b])
    assert [r.mean_score for r in pool.rows] == sorted(scores.values(), reverse=True)
    shown = cli("ladder", "show", "--db", db)
    assert shown.exit_code == 0 and "not rated" in shown.output


def test_a_bot_in_two_seats_of_a_game_is_rated_once_from_both_copies(tmp_path: Path) -> None:
    """As when a person plays two copies of one bot: each seat's evidence counts half, so the
    game counts once in its rating as in its games, wins and head-to-heads (its place is the
    mean of its seats' places: 1st and 3rd against the human's 2nd is level, and by symmetry
    so are their ratings)."""
    game = engine.load_game("dragon", players=3)
    spec = TournamentSpec("dragon", game.options, (("human", "human"), ("bot", "bot")), deals=1)
    with Store(tmp_path / "s.db") as store:
        run = store.create_run(spec, planned=1)
        seats = [SeatOutcome(seat=i, bot=b, spec=b, score=10 - i, rank=i, game_rank=i, fault=None,
                             moves=1, think_seconds=0.0, max_move_seconds=0.0)
                 for i, b in enumerate(["bot", "human", "bot"])]
        store.save_game(GameOutcome(run_id=run, deal=0, seating=0, game="dragon",
                                    options_json=json.dumps(game.options), seed=1,
                                    resample_seed=0, actions_json="[]", move_times_json="[]",
                                    seats=seats, duration=0.0))
        (pool,) = ladder(store)
        h2h = head_to_head(store, "dragon", 3)
    env = trueskill.TrueSkill()
    rows = {r.bot: r for r in pool.rows}
    assert rows["bot"].mu == pytest.approx(env.mu) and rows["human"].mu == pytest.approx(env.mu)
    assert rows["bot"].sigma < env.sigma and rows["human"].sigma < env.sigma
    assert rows["bot"].games == 1 and rows["human"].games == 1
    assert rows["bot"].wins == 1 and rows["bot"].mean_place == 2.0
    assert h2h.meetings("human", "bot") == 1 and h2h.level[("human", "bot")] == 1
    assert h2h.above[("human", "bot")] == 0 and h2h.below[("human", "bot")] == 0
    assert ("bot", "bot") not in h2h.above


# -- the checks on simulated pools: games drawn from known strengths -------------------

def _simulated(n: int, strengths: dict[str, float], players: int, seed: int
               ) -> list[list[tuple[str, int]]]:
    """`n` games of `players` seats drawn from the bots, each bot's performance its strength
    plus normal noise (sd 1): each game's (bot, place) by seat."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        seated = rng.sample(sorted(strengths), players)
        perf = {b: strengths[b] + rng.gauss(0.0, 1.0) for b in seated}
        order = sorted(seated, key=lambda b: -perf[b])
        out.append([(b, order.index(b)) for b in seated])
    return out


def _store(path: Path, simulated: list[list[tuple[str, int]]]) -> Path:
    """A store holding `simulated` as one run's games, in the order given."""
    players = len(simulated[0])
    game = engine.load_game("dragon", players=players)
    bots = sorted({b for g in simulated for b, _ in g})
    spec = TournamentSpec("dragon", game.options, tuple((b, b) for b in bots), deals=len(simulated))
    with Store(path) as store:
        run = store.create_run(spec, planned=len(simulated))
        store.save_games([GameOutcome(
            run_id=run, deal=i, seating=0, game="dragon", options_json=json.dumps(game.options),
            seed=i, resample_seed=0, actions_json="[]", move_times_json="[]", duration=0.0,
            seats=[SeatOutcome(seat=k, bot=b, spec=b, score=10 - p, rank=p, game_rank=p,
                               fault=None, moves=1, think_seconds=0.0, max_move_seconds=0.0)
                   for k, (b, p) in enumerate(g)]) for i, g in enumerate(simulated)])
    return path


def _ratings(path: Path) -> dict[str, tuple[float, float]]:
    with Store(path, create=False) as store:
        (pool,) = ladder(store)
    return {r.bot: (r.mu, r.sigma) for r in pool.rows}


def test_the_same_games_stored_in_another_order_give_the_same_ratings(tmp_path: Path) -> None:
    """The issue's complaint: two workers store the games in another order than one does."""
    simulated = _simulated(600, {"a": 0.3, "b": 0.2, "c": 0.0, "d": -0.5}, 3, seed=4)
    first = _ratings(_store(tmp_path / "one.db", simulated))
    random.Random(9).shuffle(simulated)
    again = _ratings(_store(tmp_path / "two.db", simulated))
    for bot, (mu, sigma) in first.items():
        assert again[bot] == pytest.approx((mu, sigma), abs=1e-6)


def test_a_decided_match_is_ordered_as_its_games(tmp_path: Path) -> None:
    """337 wins to 263 over 600 two-player games (the issue's match; online TrueSkill put the
    loser first): the winner is first, and the ladder says how sure that is."""
    simulated = [[("new", 0), ("old", 1)]] * 337 + [[("old", 0), ("new", 1)]] * 263
    random.Random(3).shuffle(simulated)
    with Store(_store(tmp_path / "m.db", simulated), create=False) as store:
        (pool,) = ladder(store)
    assert [r.bot for r in pool.rows] == ["new", "old"]
    assert 0.95 < pool.rows[0].above_next < 1.0


def test_every_decided_pair_is_ordered_as_its_games_and_as_a_plackett_luce_fit(
        tmp_path: Path) -> None:
    """A three-player pool of five bots, some close: every pair whose head-to-head score has a
    95% interval excluding 50% is ordered as its games; and the order of every pair the ladder
    calls decided (above 95%) is that of an independent maximum-likelihood Plackett-Luce fit
    (choix) of the same games."""
    choix = pytest.importorskip("choix")
    strengths = {"a": 0.5, "b": 0.45, "c": 0.2, "d": 0.0, "e": -0.6}
    simulated = _simulated(1500, strengths, 3, seed=7)
    with Store(_store(tmp_path / "p.db", simulated), create=False) as store:
        (pool,) = ladder(store)
        h2h = head_to_head(store, "dragon", 3)
    place = {r.bot: i for i, r in enumerate(pool.rows)}
    decided = 0
    for a, b in itertools.permutations(strengths, 2):
        n = h2h.meetings(a, b)
        low, _ = wilson(h2h.above[(a, b)], n)
        if low > 0.5:
            decided += 1
            assert place[a] < place[b], (a, b, h2h.above[(a, b)], n)
    assert decided >= 6
    names = sorted(strengths)
    rankings = [[names.index(b) for b, _ in sorted(g, key=lambda s: s[1])] for g in simulated]
    fitted = choix.ilsr_rankings(len(names), rankings, alpha=1e-6)
    for upper, lower in zip(pool.rows, pool.rows[1:]):
        if upper.above_next > 0.95:
            assert fitted[names.index(upper.bot)] > fitted[names.index(lower.bot)]


def test_games_added_later_update_to_what_a_recompute_says(tmp_path: Path) -> None:
    """The cache refits the pools that got new games: the same ratings as a fit from scratch,
    and sigma shrinks as games are added."""
    simulated = _simulated(400, {"a": 0.4, "b": 0.0, "c": -0.3}, 2, seed=5)
    db = _store(tmp_path / "later.db", simulated[:100])
    early = _ratings(db)
    game = engine.load_game("dragon", players=2)
    with Store(db) as store:
        spec = TournamentSpec("dragon", game.options, (("a", "a"), ("b", "b"), ("c", "c")),
                              deals=300)
        run = store.create_run(spec, planned=300)
        store.save_games([GameOutcome(
            run_id=run, deal=i, seating=0, game="dragon", options_json=json.dumps(game.options),
            seed=i, resample_seed=0, actions_json="[]", move_times_json="[]", duration=0.0,
            seats=[SeatOutcome(seat=k, bot=b, spec=b, score=10 - p, rank=p, game_rank=p,
                               fault=None, moves=1, think_seconds=0.0, max_move_seconds=0.0)
                   for k, (b, p) in enumerate(g)]) for i, g in enumerate(simulated[100:])])
    late = _ratings(db)
    with Store(db) as store:
        assert recompute(store) == 400
    assert _ratings(db) == late
    assert all(late[b][1] < early[b][1] for b in early)
