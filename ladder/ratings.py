"""Ratings derived from the stored games: TrueSkill free-for-all, per game and player count.

Each stored game is one free-for-all match: every seat a one-player team, ranked by its
finishing position (faulted seats last; equal positions are draws — the games' own tie-breaks
decide ties before that, so equal positions come from faults). Games are rated in the order
they were stored (`games.id`), pool by pool; a pool is a game name and a player count, since a
4-player rating says little about 2-player strength.

A bot that sits in several seats of one game (a person's game against two copies of a bot)
is rated as that many players from the same prior and keeps their mean.

One-player games (solo play) have nobody to be ranked against: they are not rated, and their
ladder orders the bots by mean score instead.

Ratings are a cache: `update_ratings` rates the games stored since the last update (the store
keeps a bookmark) and `recompute` rebuilds everything from the records. The statistics beside
them (wins, mean finishing position, faults, head-to-head) are counted from the seats directly.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import asdict, dataclass
from typing import Any

import trueskill

from ladder.store import Store

# TrueSkill's own defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300, draw probability 10 %).
ENV = trueskill.TrueSkill()
# Games rated per transaction (so that a long recompute does not block tournaments writing).
_BATCH = 2000


@dataclass
class LadderRow:
    """One bot's line of a ladder. `mean_place` is 1 for always first; `errors` counts the
    games it lost by a fault; mu, sigma and conservative are None in one-player pools."""

    rank: int
    bot: str
    mu: float | None
    sigma: float | None
    conservative: float | None  # mu - 3 sigma
    games: int
    wins: int
    win_rate: float
    mean_place: float
    mean_place_se: float
    errors: int
    mean_score: float = 0.0
    mean_score_se: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Pool:
    """The ladder of one game and player count."""

    game: str
    players: int
    rows: list[LadderRow]

    @property
    def title(self) -> str:
        return f"{self.game}, {self.players} player{'s' if self.players != 1 else ''}"


def rate_match(env: trueskill.TrueSkill, ratings: list[trueskill.Rating],
               ranks: list[int]) -> list[trueskill.Rating]:
    """New ratings after one free-for-all game (ranks: 0 = first, equal = draw)."""
    groups = env.rate([(r,) for r in ratings], ranks=ranks)
    return [g[0] for g in groups]


def update_ratings(store: Store) -> int:
    """Rate the games stored since the last update; returns how many were rated."""
    rated = 0
    while True:
        n = _update_batch(store)
        rated += n
        if n < _BATCH:
            return rated


def _update_batch(store: Store) -> int:
    c = store.conn
    with store.transaction():
        (last,) = c.execute("SELECT value FROM meta WHERE key = 'ratings_last_game'").fetchone()
        rows = c.execute(
            "SELECT g.id, g.game, g.players, s.bot, s.rank FROM games g"
            " JOIN seats s ON s.game_id = g.id"
            " WHERE g.id > ? AND g.id IN (SELECT id FROM games WHERE id > ? ORDER BY id LIMIT ?)"
            " ORDER BY g.id, s.seat", (int(last), int(last), _BATCH)).fetchall()
        if not rows:
            return 0
        cache: dict[tuple[str, int], dict[str, tuple[trueskill.Rating, int]]] = {}
        history = []
        count = 0
        for game_id, seats in itertools.groupby(rows, key=lambda r: r[0]):
            seats = list(seats)
            count += 1
            if len(seats) < 2:
                continue  # a one-player game ranks nobody against anybody
            key = (seats[0][1], seats[0][2])
            pool = cache.get(key)
            if pool is None:
                pool = cache[key] = {
                    bot: (ENV.create_rating(mu, sigma), n) for bot, mu, sigma, n in c.execute(
                        "SELECT bot, mu, sigma, games FROM ratings WHERE game = ? AND players = ?",
                        key)}
            bots = [s[3] for s in seats]
            before = [pool[b][0] if b in pool else ENV.create_rating() for b in bots]
            after = rate_match(ENV, before, [s[4] for s in seats])
            for b in dict.fromkeys(bots):
                # a bot in several seats (a person's game against two copies of one bot): each
                # copy was rated from the same prior; the bot keeps their mean
                copies = [r for other, r in zip(bots, after) if other == b]
                r = ENV.create_rating(sum(c.mu for c in copies) / len(copies),
                                      sum(c.sigma for c in copies) / len(copies))
                pool[b] = (r, pool[b][1] + 1 if b in pool else 1)
                history.append((game_id, b, r.mu, r.sigma))
        c.executemany("INSERT OR REPLACE INTO rating_history VALUES (?, ?, ?, ?)", history)
        c.executemany(
            "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?)",
            [(g, p, b, r.mu, r.sigma, n) for (g, p), pool in cache.items()
             for b, (r, n) in pool.items()])
        c.execute("UPDATE meta SET value = ? WHERE key = 'ratings_last_game'", (str(rows[-1][0]),))
    return count


def recompute(store: Store) -> int:
    """Forget every rating and rate all stored games again, in order; returns the count."""
    with store.transaction():
        store.conn.execute("DELETE FROM ratings")
        store.conn.execute("DELETE FROM rating_history")
        store.conn.execute("UPDATE meta SET value = '0' WHERE key = 'ratings_last_game'")
    return update_ratings(store)


def pools(store: Store, game: str | None = None, players: int | None = None) -> list[tuple[str, int]]:
    """The (game, players) pools that have games, optionally filtered."""
    rows = store.conn.execute("SELECT DISTINCT game, players FROM games ORDER BY game, players")
    return [(g, p) for g, p in rows if (game is None or g == game) and (players is None or p == players)]


def ladder(store: Store, game: str | None = None, players: int | None = None) -> list[Pool]:
    """The ladder of every pool (brought up to date first), best conservative rating first."""
    update_ratings(store)
    out = []
    for g, p in pools(store, game, players):
        ratings = {b: (mu, sigma) for b, mu, sigma in store.conn.execute(
            "SELECT bot, mu, sigma FROM ratings WHERE game = ? AND players = ?", (g, p))}
        stats = store.conn.execute(
            "SELECT s.bot, COUNT(*), SUM(s.rank = 0), SUM(s.rank + 1), SUM((s.rank + 1) * (s.rank + 1)),"
            " SUM(s.fault_kind IS NOT NULL), SUM(s.score), SUM(s.score * s.score)"
            " FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE g.game = ? AND g.players = ? GROUP BY s.bot", (g, p)).fetchall()
        rows = []
        for bot, n, wins, places, squares, errors, points, points_sq in stats:
            rated = p > 1
            mu, sigma = ratings.get(bot, (ENV.mu, ENV.sigma)) if rated else (None, None)
            place, place_se = _mean_se(places, squares, n)
            score, score_se = _mean_se(points, points_sq, n)
            rows.append(LadderRow(
                rank=0, bot=bot, mu=mu, sigma=sigma,
                conservative=mu - 3 * sigma if rated else None, games=n,
                wins=int(wins), win_rate=wins / n, mean_place=place, mean_place_se=place_se,
                errors=int(errors), mean_score=score, mean_score_se=score_se))
        if p > 1:
            rows.sort(key=lambda r: (-r.conservative, -r.mu, r.bot))
        else:
            rows.sort(key=lambda r: (-r.mean_score, r.bot))
        for i, r in enumerate(rows):
            r.rank = i + 1
        out.append(Pool(g, p, rows))
    return out


def _mean_se(total: float, squares: float, n: int) -> tuple[float, float]:
    """The mean of n values from their sum and sum of squares, and its standard error."""
    mean = total / n
    var = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(max(var, 0.0) / n)


@dataclass
class HeadToHead:
    """For each ordered pair of bots of a pool, how often the first finished above, below and
    level with the second when both sat at the same table."""

    game: str
    players: int
    bots: list[str]
    above: dict[tuple[str, str], int]
    below: dict[tuple[str, str], int]
    level: dict[tuple[str, str], int]

    def meetings(self, a: str, b: str) -> int:
        return self.above.get((a, b), 0) + self.below.get((a, b), 0) + self.level.get((a, b), 0)

    def score(self, a: str, b: str) -> float | None:
        """The share of their meetings in which a finished above b (a level finish counts half)."""
        n = self.meetings(a, b)
        if not n:
            return None
        return (self.above.get((a, b), 0) + 0.5 * self.level.get((a, b), 0)) / n

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "bots": self.bots, "pairs": [
            {"bot": a, "opponent": b, "above": self.above.get((a, b), 0),
             "below": self.below.get((a, b), 0), "level": self.level.get((a, b), 0)}
            for a in self.bots for b in self.bots if a != b and self.meetings(a, b)]}


def head_to_head(store: Store, game: str, players: int, order: list[str] | None = None) -> HeadToHead:
    """The head-to-head table of a pool (bots in `order`, else by name)."""
    rows = store.conn.execute(
        "SELECT a.bot, b.bot, SUM(a.rank < b.rank), SUM(a.rank > b.rank), SUM(a.rank = b.rank)"
        " FROM seats a JOIN seats b ON a.game_id = b.game_id AND a.bot != b.bot"
        " JOIN games g ON g.id = a.game_id WHERE g.game = ? AND g.players = ?"
        " GROUP BY a.bot, b.bot", (game, players)).fetchall()
    above, below, level = {}, {}, {}
    names = set()
    for a, b, up, down, eq in rows:
        above[(a, b)], below[(a, b)], level[(a, b)] = int(up), int(down), int(eq)
        names.update((a, b))
    bots = [b for b in (order or []) if b in names] + sorted(names - set(order or []))
    return HeadToHead(game, players, bots, above, below, level)


def history(store: Store, game: str, players: int) -> dict[str, list[tuple[int, float, float]]]:
    """Each bot's rating after each of its games: (the pool's game number, mu, sigma)."""
    update_ratings(store)
    ids = [r[0] for r in store.conn.execute(
        "SELECT id FROM games WHERE game = ? AND players = ? ORDER BY id", (game, players))]
    number = {gid: i + 1 for i, gid in enumerate(ids)}
    out: dict[str, list[tuple[int, float, float]]] = {}
    for gid, bot, mu, sigma in store.conn.execute(
            "SELECT h.game_id, h.bot, h.mu, h.sigma FROM rating_history h"
            " JOIN games g ON g.id = h.game_id WHERE g.game = ? AND g.players = ?"
            " ORDER BY h.game_id", (game, players)):
        out.setdefault(bot, []).append((number[gid], mu, sigma))
    return out
