"""Ratings derived from the stored games: TrueSkill free-for-all skills, per pool, given all of
a pool's games at once.

A *pool* is a game, a player count and the options that change the rules (`store.pool_key`):
the base game, the Great Wall, the super events, Mount Tai's promos, tutors, solo play or a
challenge game are pools apart, since a rating earned under one set of rules says little about
another. Each stored game is one free-for-all match: every seat a one-player team, ranked by its
finishing position (faulted seats last; equal positions are draws — the games' own tie-breaks
decide ties before that, so equal positions come from faults).

A bot's strength does not change between its games, so its rating is TrueSkill's posterior
given every game of the pool together (TrueSkill Through Time without drift,
ladder/tournament/through_time.pyx), not the last of a chain of game-by-game updates: the same
games give the same ratings in any stored order, and sigma keeps shrinking as games are added.
Rows are ordered by mu; each says how likely it is that its bot is stronger than the next one
(`above_next`), so that an order the games have not decided is shown as such.

A bot that sits in several seats of one game (a person's game against two copies of a bot) has
each seat's evidence weighted by one over its seats (the game counts once); in its statistics,
its place is the mean of its seats' places, and it won if one of its seats won.

One-player games (solo play) have nobody to be ranked against: they are not rated. A solo game
is won only when it reaches its goal (Mount Tai's reputation goal); a solo pool lists the goal
rate and the mean score and orders the bots by them.

Ratings are a cache: `update_ratings` fits again each pool that has games stored since the last
update (the store keeps a bookmark) and `recompute` rebuilds everything from the records. A
store that cannot be written (or has an old schema and is only read) gets its ratings computed
in memory instead. The statistics beside them (wins, mean finishing position, faults,
head-to-head) are counted from the seats directly.
"""
from __future__ import annotations

import itertools
import json
import math
import sqlite3
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

import trueskill

from engine.core.errors import TiantiError
from engine.core.text import printable
from ladder.tournament.store import (MAX_ID, SCHEMA_VERSION, Store, StoreError, goal_reached,
                                     pool_key)
from ladder.tournament.through_time import skills
from ladder.tournament.trueskill_ffa import rate_free_for_all

# TrueSkill's own defaults (mu 25, sigma 25/3, beta 25/6, draw probability 10 %); its tau (the
# skills' drift between games) is not used: a bot's strength does not change.
ENV = trueskill.TrueSkill()
# The draw margin of two players at that draw probability.
MARGIN = trueskill.calc_draw_margin(ENV.draw_probability, 2, env=ENV)
# The points of a rating history (fits of the first n games).
HISTORY_POINTS = 40
Z95 = 1.959963984540054


@dataclass
class LadderRow:
    """One bot's line of a ladder, ordered by mu. `mean_place` is 1 for always first; `errors` counts the
    games it lost by a fault; mu, sigma and conservative are None in one-player pools, where
    `wins` counts the games that reached their goal. `win_low`/`win_high` bound the win rate
    (Wilson's 95% interval)."""

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
    win_low: float = 0.0
    win_high: float = 1.0
    # the chance that this bot's skill is above the next row's (None for the last row and in
    # one-player pools): near 50% the games have not decided their order
    above_next: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Pool:
    """The ladder of one pool: a game, its player count and its rule-changing options."""

    game: str
    players: int
    rows: list[LadderRow]
    options: dict[str, Any] = field(default_factory=dict)
    key: str = ""
    solo_goal: bool = False  # a one-player pool whose games have a goal

    @property
    def variant(self) -> dict[str, Any]:
        """The options in which the pool differs from the game's defaults at its player count."""
        return variant_options(self.game, self.players, self.options)

    @property
    def title(self) -> str:
        text = f"{self.game}, {self.players} player{'s' if self.players != 1 else ''}"
        variant = self.variant
        if variant:
            text += ", " + ", ".join(f"{k}={_show(v)}" for k, v in variant.items())
        return printable(text)  # a crafted store's option text cannot act on the terminal

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "options": self.options,
                "variant": self.variant, "title": self.title, "solo_goal": self.solo_goal,
                "rows": [r.to_dict() for r in self.rows]}


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def variant_options(game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    """`options` less the player count and those equal to the game's defaults."""
    try:
        from engine.registry import load_game

        defaults = dict(load_game(game).options)
    except (TiantiError, ValueError, TypeError):
        defaults = {}
    return {k: v for k, v in options.items()
            if k != "players" and (k not in defaults or defaults[k] != v)}


@dataclass
class GameRow:
    """What the ladder needs of a stored game: its pool and each seat's bot, place, score and
    fault. `goal` is whether a solo game reached its goal (None otherwise)."""

    id: int
    game: str
    players: int
    options: dict[str, Any]
    pool: str
    goal: bool | None
    seats: list[tuple[str, int, int, bool]]  # (bot, rank, score, faulted) by seat

    def by_bot(self) -> dict[str, tuple[float, bool, float, bool]]:
        """Each bot once: (mean place 1.., won, mean score, faulted)."""
        if self.players > 1 and len({s[0] for s in self.seats}) == len(self.seats):
            # each bot in one seat (a tournament's game): the means below of one value each
            return {b: ((r + 1) / 1, r == 0, sc / 1, bool(f)) for b, r, sc, f in self.seats}
        out: dict[str, tuple[float, bool, float, bool]] = {}
        for bot in dict.fromkeys(b for b, *_ in self.seats):
            mine = [s for s in self.seats if s[0] == bot]
            place = sum(r + 1 for _, r, _, _ in mine) / len(mine)
            score = sum(sc for _, _, sc, _ in mine) / len(mine)
            if self.players == 1:
                won = bool(self.goal)
            else:
                won = any(r == 0 for _, r, _, _ in mine)
            out[bot] = (place, won, score, any(f for *_, f in mine))
        return out


def matches(options: dict[str, Any], wanted: dict[str, Any] | None) -> bool:
    """Whether a pool's options agree with every `-o KEY=VALUE` filter."""
    return all(k in options and options[k] == v for k, v in (wanted or {}).items())


def load_games(store: Store, game: str | None = None, players: int | None = None,
               options: dict[str, Any] | None = None, run: int | None = None) -> list[GameRow]:
    """The stored games (in the order stored) of the pools that pass the filters."""
    where, params = _where(game, players, run)
    store.check_seats(where, params)
    join, pool_of = store.pool_sql
    extra = f"{pool_of}, g.goal_reached" if store.version >= 2 else "NULL, NULL"
    rows = store.conn.execute(
        f"SELECT g.id, g.game, g.players, g.options, {extra}, g.seed, s.bot, s.rank, s.score,"
        f" s.fault_kind IS NOT NULL FROM games g{join} JOIN seats s ON s.game_id = g.id"
        f" WHERE {where} ORDER BY g.id, s.seat", params).fetchall()
    out: list[GameRow] = []
    parsed: dict[Any, dict[str, Any]] = {}  # the games of a pool share their options' text
    for gid, seats in itertools.groupby(rows, key=lambda r: r[0]):
        seats = list(seats)
        _, name, n, opts_text, pool, goal, seed = seats[0][:7]
        opts = parsed.get(opts_text) if isinstance(opts_text, str) else None
        if opts is None:
            opts = parsed[opts_text] = store._options(opts_text, gid)
        if not matches(opts, options):
            continue
        if pool is None:  # a schema-1 store read as it is (or a game with no pool row)
            pool = pool_key(name, opts)
            if n == 1:
                (actions,) = store.conn.execute("SELECT actions FROM games WHERE id = ?",
                                                (gid,)).fetchone()
                goal = goal_reached(name, opts, seed, store._actions(actions, "actions", gid))
        out.append(GameRow(gid, name, n, opts, pool, None if goal is None else bool(goal),
                           [(s[7], s[8], s[9], bool(s[10])) for s in seats]))
    return out


def rate_match(env: trueskill.TrueSkill, ratings: list[trueskill.Rating],
               ranks: list[int]) -> list[trueskill.Rating]:
    """New ratings after one free-for-all game by TrueSkill's online update (ranks: 0 = first,
    equal = draw): `env.rate`'s, computed without its factor-graph objects
    (ladder/tournament/trueskill_ffa.py). The ladder no longer rates game by game (see
    `fit_pool`); this stays for callers that want one game's update."""
    return rate_free_for_all(env, ratings, ranks)


def fit_pool(games: Iterable[GameRow]) -> dict[str, tuple[float, float]]:
    """Each bot's (mu, sigma) given every game of one pool at once (through_time.skills with
    TrueSkill's mu, sigma, beta and draw margin; no drift). One-player games are left out."""
    return skills(([(b, r) for b, r, *_ in g.seats] for g in games if len(g.seats) > 1),
                  mu=ENV.mu, sigma=ENV.sigma, beta=ENV.beta, margin=MARGIN)


def can_cache(store: Store) -> bool:
    """Whether ratings can be kept in this store's cache (else they are computed in memory)."""
    return store.writable and store.version == SCHEMA_VERSION


def update_ratings(store: Store) -> int:
    """Bring the cache up to date: every pool with games stored since the last update is
    fitted again from all its games (a pool's ratings depend on all of them at once); returns
    how many new games there were (0 when the store cannot hold the cache)."""
    if not can_cache(store):
        return 0
    c = store.conn
    with store.transaction():
        last = bookmark(store)
        (newest,) = c.execute("SELECT MAX(id) FROM games").fetchone()
        if newest is None or newest <= last:
            return 0
        store.check_seats("g.id > ? AND g.id <= ?", (last, newest))
        (count,) = c.execute("SELECT COUNT(*) FROM games WHERE id > ? AND id <= ?",
                             (last, newest)).fetchone()
        join, pool_of = store.pool_sql
        touched = [k for (k,) in c.execute(
            f"SELECT DISTINCT {pool_of} FROM games g{join} WHERE g.id > ? AND g.id <= ?"
            f" AND g.players > 1 ORDER BY 1", (last, newest))]
        for key in touched:
            if not isinstance(key, str):
                raise store.damaged("a game has no pool; `tianti ladder recompute` cannot "
                                    "mend that")
            games = _ranked_games(store, f"{pool_of} = ? AND g.id <= ?", (key, newest))
            played = _games_played(games)
            c.execute("DELETE FROM ratings WHERE pool = ?", (key,))
            c.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?)",
                          [(key, b, mu, sigma, played[b])
                           for b, (mu, sigma) in sorted(fit_pool(games).items())])
        c.execute("UPDATE meta SET value = ? WHERE key = 'ratings_last_game'", (str(newest),))
    return count


def _games_played(games: Iterable[GameRow]) -> dict[str, int]:
    """How many of `games` each bot sat in (a game once however many seats it held)."""
    out: dict[str, int] = {}
    for g in games:
        for b in {s[0] for s in g.seats}:
            out[b] = out.get(b, 0) + 1
    return out


def bookmark(store: Store) -> int:
    """The ratings' bookmark: the last game the cache has rated (a crafted or damaged value is
    a clear error; `recompute` rebuilds it)."""
    row = store.conn.execute("SELECT value FROM meta WHERE key = 'ratings_last_game'").fetchone()
    text = row[0] if row is not None else None
    if isinstance(text, int) or (isinstance(text, str) and text.isascii() and text.isdigit()
                                 and len(text) <= 19):
        value = int(text)
        if 0 <= value <= MAX_ID:
            return value
    raise store.damaged(f"its ratings bookmark is {printable(repr(text), 40)}, not a game "
                        f"number; `tianti ladder recompute` rebuilds the ratings")


def recompute(store: Store) -> int:
    """Forget every rating and fit every pool again from its games; returns the game count."""
    if not can_cache(store):
        raise StoreError(f"the store {store.path} is read-only (or of an older schema and opened "
                         f"for reading): its ratings are computed afresh on every read anyway")
    with store.transaction():
        store.conn.execute("DELETE FROM ratings")
        store.conn.execute("INSERT OR REPLACE INTO meta VALUES ('ratings_last_game', '0')")
    return update_ratings(store)


def rate_in_memory(games: Iterable[GameRow]) -> dict[str, dict[str, tuple[float, float]]]:
    """The ratings of the given games without the cache: per pool, bot -> (mu, sigma)."""
    by: dict[str, list[GameRow]] = {}
    for g in games:
        if len(g.seats) > 1:
            by.setdefault(g.pool, []).append(g)
    return {k: fit_pool(group) for k, group in by.items()}


def rating_history(games: list[GameRow], points: int = HISTORY_POINTS
                   ) -> dict[str, list[tuple[int, float, float]]]:
    """How one pool's ratings grew with its games: the pool fitted on its first n games (in
    the order stored) at `points` values of n evenly spread up to all of them; per bot, (n,
    mu, sigma) from its first game on. The last point is the ladder's rating."""
    games = [g for g in games if len(g.seats) > 1]
    ends = sorted({max(1, round(len(games) * i / points)) for i in range(1, points + 1)}
                  ) if games else []
    out: dict[str, list[tuple[int, float, float]]] = {}
    for n in ends:
        for b, (mu, sigma) in sorted(fit_pool(games[:n]).items()):
            out.setdefault(b, []).append((n, mu, sigma))
    return out


def _group(games: list[GameRow]) -> list[list[GameRow]]:
    """The games by pool; pools ordered by game, player count, then their options."""
    by: dict[str, list[GameRow]] = {}
    for g in games:
        by.setdefault(g.pool, []).append(g)
    return [by[k] for k in sorted(by, key=lambda k: (by[k][0].game, by[k][0].players, k))]


def pools(store: Store, game: str | None = None, players: int | None = None,
          options: dict[str, Any] | None = None) -> list[tuple[str, int]]:
    """The (game, players) of the pools that have games, optionally filtered (one entry per
    pool: a game and player count may appear once per variant)."""
    return [(p[0].game, p[0].players) for p in _group(load_games(store, game, players, options))]


def chance_above(mu: float, sigma: float, other_mu: float, other_sigma: float) -> float:
    """The chance that a skill N(mu, sigma²) is above an independent N(other_mu, other_sigma²).
    Two bots' posteriors are in fact correlated through the games between them (and the
    common level only the prior holds), which narrows their difference: taken as independent,
    the chance errs toward "not decided", never toward a false order."""
    spread = math.hypot(sigma, other_sigma)
    if spread == 0.0:
        return 0.5 if mu == other_mu else float(mu > other_mu)
    return 0.5 * math.erfc((other_mu - mu) / (spread * math.sqrt(2.0)))


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def ladder(store: Store, game: str | None = None, players: int | None = None,
           options: dict[str, Any] | None = None, run: int | None = None) -> list[Pool]:
    """The ladder of every pool (brought up to date first), highest mu first.

    With `run`, only that run's games count (a run's own ladder): a pool that holds no other
    run's games has the cache's ratings (which this call fills), another is rated in memory
    from the run's games. Otherwise the cache is used when the store can hold it.

    The statistics are counted by SQLite from the seats, and each pool's options are read
    once: a cached ladder does not read every stored game (a schema-1 store, read as it is,
    has no pool column and is read game by game)."""
    if store.version < 2:
        return _ladder_of_games(store, game, players, options, run)
    where, params = _where(game, players, run)
    store.check_seats(where, params)
    chosen = _pools_of(store, where, params, options)
    if not chosen:
        return []
    cached = can_cache(store)
    if cached:
        try:
            update_ratings(store)
        except sqlite3.OperationalError:
            cached = False  # locked or read-only after all: compute them here
    marks = ",".join("?" * len(chosen))
    join, pool_of = store.pool_sql
    in_pools = f"({where}) AND {pool_of} IN ({marks})"
    pool_params = (*params, *chosen)
    if run is not None and cached:
        # a pool whose every game is this run's: its cached ratings are the run's own
        shared = {k for (k,) in store.conn.execute(
            f"SELECT DISTINCT {pool_of} FROM games g{join} WHERE {pool_of} IN ({marks})"
            " AND g.run_id != ?", (*chosen, run))}
    else:
        shared = set() if run is None else set(chosen)
    memory: dict[str, dict[str, tuple[float, float]]] = {}
    if not cached or shared:
        rate = [k for k in chosen if not cached or k in shared]
        memory = rate_in_memory(_ranked_games(store, f"({where}) AND {pool_of} IN "
                                              f"({','.join('?' * len(rate))})",
                                              (*params, *rate)))
    stats: dict[str, dict[str, list[Any]]] = {}
    for pool, bot, *numbers in store.conn.execute(
            "SELECT pool, bot, COUNT(*), SUM(won), SUM(place), SUM(place * place), SUM(faulted),"
            " SUM(score), SUM(score * score) FROM ("
            f" SELECT g.id, {pool_of} AS pool, s.bot AS bot, AVG(s.rank + 1.0) AS place,"
            " CASE WHEN g.players = 1 THEN COALESCE(MAX(g.goal_reached), 0) != 0"
            " ELSE MAX(s.rank = 0) END AS won, AVG(s.score * 1.0) AS score,"
            " MAX(s.fault_kind IS NOT NULL) AS faulted"
            f" FROM games g{join} JOIN seats s ON s.game_id = g.id WHERE {in_pools}"
            " GROUP BY g.id, s.bot) GROUP BY pool, bot", pool_params):
        stats.setdefault(pool, {})[bot] = numbers
    out = []
    for key, (name, n_players, opts, goal) in chosen.items():
        rated = n_players > 1
        if not rated:
            ratings: dict[str, tuple[float, float]] = {}
        elif cached and key not in shared:
            ratings = _cached(store, key)
        else:
            ratings = memory.get(key, {})
        rows = _rows(stats.get(key, {}), ratings, rated)
        out.append(_pool(name, n_players, rows, opts, key, not rated and goal, rated))
    return out


def _where(game: str | None, players: int | None, run: int | None) -> tuple[str, tuple[Any, ...]]:
    """The SQL condition on `g` (games) of the filters given."""
    where, params = ["1"], []
    for column, value in (("g.game", game), ("g.players", players), ("g.run_id", run)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    return " AND ".join(where), tuple(params)


def _pools_of(store: Store, where: str, params: tuple[Any, ...], wanted: dict[str, Any] | None
              ) -> dict[str, tuple[str, int, dict[str, Any], bool]]:
    """The pools with games matching `where` that pass the -o filters, ordered as `_group`
    orders them: pool key -> (game, players, options of its first game, whether a game has a
    solo goal). One game's options are read per pool (a pool is one set of rule options)."""
    join, pool_of = store.pool_sql
    found = store.conn.execute(
        f"SELECT {pool_of}, MIN(g.id), MAX(g.goal_reached IS NOT NULL) FROM games g{join}"
        f" WHERE {where} GROUP BY {pool_of}", params).fetchall()
    out = {}
    for key, first, goal in found:
        name, n_players, opts_text = store.conn.execute(
            "SELECT game, players, options FROM games WHERE id = ?", (first,)).fetchone()
        if not isinstance(key, str) or not isinstance(name, str):
            raise store.damaged(f"game {first} has a malformed row")
        opts = store._options(opts_text, first)
        if matches(opts, wanted):
            out[key] = (name, n_players, opts, bool(goal))
    return dict(sorted(out.items(), key=lambda kv: (kv[1][0], kv[1][1], kv[0])))


def _ranked_games(store: Store, where: str, params: tuple[Any, ...]) -> list[GameRow]:
    """What rating needs of the games matching `where` (their pool and each seat's bot and
    place), in the order stored, without reading their options or actions."""
    join, pool_of = store.pool_sql
    rows = store.conn.execute(
        f"SELECT g.id, {pool_of}, g.players, s.bot, s.rank FROM games g{join} JOIN seats s"
        f" ON s.game_id = g.id WHERE {where} ORDER BY g.id, s.seat", params).fetchall()
    out = []
    for gid, group in itertools.groupby(rows, key=lambda r: r[0]):
        seats = list(group)
        out.append(GameRow(gid, "", seats[0][2], {}, seats[0][1], None,
                           [(s[3], s[4], 0, False) for s in seats]))
    return out


def _cached(store: Store, key: str) -> dict[str, tuple[float, float]]:
    """A pool's ratings from the cache (a crafted cache holding text is a clear error)."""
    out = {}
    for bot, mu, sigma in store.conn.execute(
            "SELECT bot, mu, sigma FROM ratings WHERE pool = ?", (key,)):
        if type(mu) is not float or type(sigma) is not float:
            raise store.damaged("its ratings cache holds a rating that is not a number; "
                                "`tianti ladder recompute` rebuilds it")
        out[bot] = (mu, sigma)
    return out


def _rows(stats: dict[str, list[Any]], ratings: dict[str, tuple[float, float]],
          rated: bool) -> list[LadderRow]:
    """A pool's ladder rows from each bot's sums (games, wins, places, squared places,
    faults, scores, squared scores), unordered."""
    rows = []
    for bot, (n, wins, places, squares, errors, points, points_sq) in stats.items():
        mu, sigma = ratings.get(bot, (ENV.mu, ENV.sigma)) if rated else (None, None)
        place, place_se = _mean_se(places, squares, n)
        score, score_se = _mean_se(points, points_sq, n)
        low, high = wilson(int(wins), n)
        rows.append(LadderRow(
            rank=0, bot=bot, mu=mu, sigma=sigma,
            conservative=mu - 3 * sigma if rated else None, games=n,
            wins=int(wins), win_rate=wins / n, mean_place=place, mean_place_se=place_se,
            errors=int(errors), mean_score=score, mean_score_se=score_se,
            win_low=low, win_high=high))
    return rows


def _pool(name: str, n_players: int, rows: list[LadderRow], options: dict[str, Any], key: str,
          solo_goal: bool, rated: bool) -> Pool:
    """A pool with its rows in ladder order: rated pools by mu (each row with the chance that
    it is above the next), solo pools with a goal by goal rate, other one-player pools by mean
    score."""
    if rated:
        rows.sort(key=lambda r: (-r.mu, r.sigma, r.bot))
        for upper, lower in zip(rows, rows[1:]):
            upper.above_next = chance_above(upper.mu, upper.sigma, lower.mu, lower.sigma)
    elif solo_goal:
        rows.sort(key=lambda r: (-r.win_rate, -r.mean_score, r.bot))
    else:
        rows.sort(key=lambda r: (-r.mean_score, r.bot))
    for i, r in enumerate(rows):
        r.rank = i + 1
    return Pool(name, n_players, rows, dict(options), key, solo_goal)


def _ladder_of_games(store: Store, game: str | None, players: int | None,
                     options: dict[str, Any] | None, run: int | None) -> list[Pool]:
    """`ladder` for a schema-1 store read as it is: every game read, rated in memory."""
    games = load_games(store, game, players, options, run)
    memory = rate_in_memory(games)
    out = []
    for group in _group(games):
        first = group[0]
        rated = first.players > 1
        acc: dict[str, list[Any]] = {}
        for g in group:
            for bot, (place, won, score, faulted) in g.by_bot().items():
                a = acc.setdefault(bot, [0, 0, 0.0, 0.0, 0, 0.0, 0.0])
                a[0] += 1
                a[1] += won
                a[2] += place
                a[3] += place * place
                a[4] += faulted
                a[5] += score
                a[6] += score * score
        rows = _rows(acc, memory.get(first.pool, {}) if rated else {}, rated)
        solo_goal = not rated and any(g.goal is not None for g in group)
        out.append(_pool(first.game, first.players, rows, first.options, first.pool, solo_goal,
                         rated))
    return out


def _mean_se(total: float, squares: float, n: int) -> tuple[float, float]:
    """The mean of n values from their sum and sum of squares, and its standard error."""
    mean = total / n
    var = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(max(var, 0.0) / n)


@dataclass
class HeadToHead:
    """For each ordered pair of bots of a pool, how often the first finished above, below and
    level with the second when both sat at the same table (each game once, a bot in several
    seats by its mean place)."""

    game: str
    players: int
    bots: list[str]
    above: dict[tuple[str, str], int]
    below: dict[tuple[str, str], int]
    level: dict[tuple[str, str], int]
    options: dict[str, Any] = field(default_factory=dict)

    def meetings(self, a: str, b: str) -> int:
        return self.above.get((a, b), 0) + self.below.get((a, b), 0) + self.level.get((a, b), 0)

    def score(self, a: str, b: str) -> float | None:
        """The share of their meetings in which a finished above b (a level finish counts half)."""
        n = self.meetings(a, b)
        if not n:
            return None
        return (self.above.get((a, b), 0) + 0.5 * self.level.get((a, b), 0)) / n

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "options": self.options,
                "variant": variant_options(self.game, self.players, self.options),
                "bots": self.bots, "pairs": [
                    {"bot": a, "opponent": b, "above": self.above.get((a, b), 0),
                     "below": self.below.get((a, b), 0), "level": self.level.get((a, b), 0)}
                    for a in self.bots for b in self.bots if a != b and self.meetings(a, b)]}


def head_to_head_of(games: list[GameRow], order: list[str] | None = None) -> HeadToHead:
    """The head-to-head table of one pool's games."""
    above: dict[tuple[str, str], int] = {}
    below: dict[tuple[str, str], int] = {}
    level: dict[tuple[str, str], int] = {}
    names: set[str] = set()
    for g in games:
        places = {b: v[0] for b, v in g.by_bot().items()}
        names.update(places)
        for a, b in itertools.permutations(places, 2):
            table = above if places[a] < places[b] else below if places[a] > places[b] else level
            table[(a, b)] = table.get((a, b), 0) + 1
    for a, b in itertools.permutations(sorted(names), 2):
        for table in (above, below, level):
            table.setdefault((a, b), 0)
    bots = [b for b in (order or []) if b in names] + sorted(names - set(order or []))
    first = games[0] if games else None
    return HeadToHead(first.game if first else "", first.players if first else 0, bots, above,
                      below, level, dict(first.options) if first else {})


def head_to_head(store: Store, game: str | Pool, players: int | None = None,
                 order: list[str] | None = None, options: dict[str, Any] | None = None) -> HeadToHead:
    """The head-to-head table of a pool: a `Pool` from `ladder`, or the one pool of a game and
    player count (StoreError when several variants have games: name one with `options`)."""
    if isinstance(game, Pool):
        pool = game
        games = [g for g in load_games(store, pool.game, pool.players) if g.pool == pool.key]
        return head_to_head_of(games, order or [r.bot for r in pool.rows])
    groups = _group(load_games(store, game, players, options))
    if len(groups) > 1:
        raise StoreError(f"several pools of {game} have games; choose one with -o KEY=VALUE")
    return head_to_head_of(groups[0] if groups else [], order)


def history(store: Store, game: str, players: int, options: dict[str, Any] | None = None
            ) -> dict[str, list[tuple[int, float, float]]]:
    """How the ratings of the one pool matching the filters grew with its games: per bot, (the
    number of the pool's games fitted, mu, sigma) at up to HISTORY_POINTS points."""
    groups = _group(load_games(store, game, players, options))
    if not groups:
        return {}
    if len(groups) > 1:
        raise StoreError(f"several pools of {game} with {players} players have games; choose "
                         f"one with -o KEY=VALUE")
    group = groups[0]
    return rating_history(group)
