"""Ratings: what the ladder says agrees with TrueSkill itself and with the games played."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import trueskill

import engine
from ladder.tournament.ratings import head_to_head, ladder, recompute
from ladder.tournament.schedule import TournamentSpec
from ladder.tournament.store import Store, StoredGame
from ladder.tournament.worker import GameOutcome, SeatOutcome
from tests.ladder.helpers import cli, games


def test_the_ladder_orders_a_stronger_bot_above_a_weaker_one(quality_db: Path) -> None:
    """Search above the heuristic above random, and clearly: the ladder's order is that of the
    conservative ratings (mu - 3 sigma), and the mean finishing places differ by more than two
    standard errors each. (The games are reproducible, being seeded; the ratings depend a
    little on the order the games finished in, so the test leaves room for that.)"""
    with Store(quality_db, create=False) as store:
        (pool,) = ladder(store)
    assert (pool.game, pool.players) == ("dragon", 3)
    assert [r.bot for r in pool.rows] == ["search", "heuristic", "random"]
    assert [r.rank for r in pool.rows] == [1, 2, 3]
    for upper, lower in zip(pool.rows, pool.rows[1:]):
        assert upper.conservative > lower.conservative + 3
        assert upper.mu > lower.mu
        assert upper.mean_place + 2 * upper.mean_place_se < lower.mean_place - 2 * lower.mean_place_se
    assert all(r.games == 24 and r.errors == 0 for r in pool.rows)
    assert sum(r.wins for r in pool.rows) == 24
    assert pool.rows[0].win_rate > 0.5


def test_ratings_agree_with_trueskill_rating_the_same_results(quality_db: Path) -> None:
    env = trueskill.TrueSkill()
    ratings: dict[str, trueskill.Rating] = {}
    for g in games(quality_db):  # in the order stored
        bots = [s["bot"] for s in g.seats]
        teams = [(ratings.get(b, env.create_rating()),) for b in bots]
        rated = env.rate(teams, ranks=[s["rank"] for s in g.seats])
        for b, (r,) in zip(bots, rated):
            ratings[b] = r
    with Store(quality_db, create=False) as store:
        (pool,) = ladder(store)
    for row in pool.rows:
        assert row.mu == pytest.approx(ratings[row.bot].mu, abs=1e-9)
        assert row.sigma == pytest.approx(ratings[row.bot].sigma, abs=1e-9)
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
    """As when a person plays two copies of one bot: each copy is rated from the same prior and
    the bot keeps the mean; the game counts once in its games, wins and head-to-heads (its
    place is the mean of its seats' places: 1st and 3rd against the human's 2nd is level)."""
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
    first, second, third = env.rate([(env.create_rating(),)] * 3, ranks=[0, 1, 2])
    rows = {r.bot: r for r in pool.rows}
    assert rows["bot"].mu == pytest.approx((first[0].mu + third[0].mu) / 2)
    assert rows["bot"].sigma == pytest.approx((first[0].sigma + third[0].sigma) / 2)
    assert rows["human"].mu == pytest.approx(second[0].mu)
    assert rows["bot"].games == 1 and rows["human"].games == 1
    assert rows["bot"].wins == 1 and rows["bot"].mean_place == 2.0
    assert h2h.meetings("human", "bot") == 1 and h2h.level[("human", "bot")] == 1
    assert h2h.above[("human", "bot")] == 0 and h2h.below[("human", "bot")] == 0
    assert ("bot", "bot") not in h2h.above
