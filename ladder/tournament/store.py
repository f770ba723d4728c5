"""The tournament store: one SQLite file holding runs, their games and each game's seats.

Every finished game is written as one record in its own transaction (so an interrupted run
loses only the games that were still being played), and a game is keyed by (run, deal,
seating), so a resumed or doubly-submitted game can never be stored twice. The file is in WAL
mode with a generous busy timeout, so that several tournaments can write the same store while
others read it. Ratings are not primary data: `ladder.tournament.ratings` derives them from the
seats and caches them in the `ratings` table, which it can rebuild at any time.

Schema (version 3; a version-1 or -2 store is upgraded in place when it is first opened for
writing, and read as it is otherwise; docs/STORE.md has the sizes):

- `meta(key, value)`: the store's format name and schema version; the ratings' bookmark.
- `bots(name, spec, added_at)`: a name stands for one spec across the whole store, so that the
  ladder's rows mean one thing.
- `runs(id, label, spec, game, players, deals, seatings, seed, move_timeout, planned, status,
  created_at, updated_at, finished_at, owner_host, owner_pid, wall_seconds)`: a tournament;
  `spec` is its `TournamentSpec` as JSON, from which its plan is recomputed.
- `pools(id, key)`: each rating pool once; `key` is its `pool_key` (the game and every option
  that changes its rules, players included, as canonical JSON).
- `games(id, run_id, deal, seating, game, options, players, seed, resample_seed, actions,
  move_times, duration, worker, finished_at, goal_reached, pool_id)`: one finished game;
  `actions` and `move_times` are JSON lists (one entry per decision); UNIQUE(run_id, deal,
  seating). `pool_id` is its rating pool's row in `pools` (schema 2 kept the key's text in
  every game, a third of a Mount Tai game's bytes), `goal_reached` is 0/1 for a solo game
  with a goal, else NULL.
- `seats(game_id, seat, bot, spec, score, rank, game_rank, fault_kind, fault_move, fault,
  moves, think_seconds, max_move_seconds)`: who sat where and how they did; `rank` is the
  finishing position with faulted seats last (0 = first), `game_rank` the rules' own.
- `voided(run_id, deal, seating, game, seed, error, worker, finished_at)`: a planned game that
  could not be played for reasons outside any bot's call (its worker killed or stuck from
  outside as often as the retry limit allows; see `ladder.tournament.backends`): nobody's loss,
  in no rating, and not played again by a resume. Created when the first such game is stored (a
  store without it has none), so it needs no new schema version.
- `ratings(pool, bot, mu, sigma, games)`: the cache, one row per bot and pool (keyed by the
  pool's key text). Schema 2 also kept a `rating_history` row per game and bot; schema 3 has
  none (a bot's rating history is computed from the games when asked).

Opening checks the store: that it is a tianti store of a schema this code knows; for writing
also `PRAGMA quick_check`, the tables' columns and the rows' JSON, so that a damaged store is a
clear error before a run adds to it. A store that cannot be written (a read-only file or
directory) opens for reading; the ratings are then computed in memory instead of cached.
Every problem is a `StoreError` with one line saying what is wrong and with which file.
"""
from __future__ import annotations

import datetime as _dt
import json
import math
import os
import socket
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import typer

from engine.core.errors import TiantiError
from engine.core.text import printable
from ladder.processes import pid_alive
from ladder.tournament.schedule import TournamentSpec
from ladder.tournament.worker import GameOutcome

FORMAT = "tianti-store"
SCHEMA_VERSION = 3
# How long a writer waits for another process's write lock before the store error (a run then
# stops as interrupted). TIANTI_BUSY_TIMEOUT overrides it (seconds).
BUSY_TIMEOUT_SECONDS = 60.0
# The largest id SQLite can hold: a run or game number beyond it cannot exist.
MAX_ID = 2**63 - 1
# The largest action number a stored game may hold (the engines' ids are far below it).
MAX_ACTION = 2**31 - 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bots (
    name TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    label TEXT,
    spec TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    seatings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    move_timeout REAL,
    planned INTEGER NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT,
    owner_host TEXT,
    owner_pid INTEGER,
    wall_seconds REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS pools (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    deal INTEGER NOT NULL,
    seating INTEGER NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    resample_seed INTEGER NOT NULL,
    actions TEXT NOT NULL,
    move_times TEXT NOT NULL,
    duration REAL NOT NULL,
    worker TEXT,
    finished_at TEXT NOT NULL,
    goal_reached INTEGER,
    pool_id INTEGER REFERENCES pools(id),
    UNIQUE (run_id, deal, seating)
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    spec TEXT NOT NULL,
    score INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    game_rank INTEGER NOT NULL,
    fault_kind TEXT,
    fault_move INTEGER,
    fault TEXT,
    moves INTEGER NOT NULL,
    think_seconds REAL NOT NULL,
    max_move_seconds REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_bot ON seats (bot);
CREATE INDEX IF NOT EXISTS games_by_pool ON games (game, players);
CREATE INDEX IF NOT EXISTS games_by_rules ON games (pool_id);
CREATE TABLE IF NOT EXISTS ratings (
    pool TEXT NOT NULL,
    bot TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (pool, bot)
);
"""


_VOIDED = """
CREATE TABLE IF NOT EXISTS voided (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    deal INTEGER NOT NULL,
    seating INTEGER NOT NULL,
    game TEXT NOT NULL,
    seed INTEGER NOT NULL,
    error TEXT NOT NULL,
    worker TEXT,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (run_id, deal, seating)
)"""


def _shown(value: Any) -> str:
    """A stored value in an error message: short, on one harmless line."""
    return printable(repr(value), 40)


class StoreError(TiantiError):
    """The store cannot be opened or used (a bad path, not a tianti store, a name conflict...)."""


# The columns of each table (a store whose tables differ is damaged or not ours).
_COLUMNS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "bots": ("name", "spec", "added_at"),
    "runs": ("id", "label", "spec", "game", "players", "deals", "seatings", "seed",
             "move_timeout", "planned", "status", "created_at", "updated_at", "finished_at",
             "owner_host", "owner_pid", "wall_seconds"),
    "games": ("id", "run_id", "deal", "seating", "game", "options", "players", "seed",
              "resample_seed", "actions", "move_times", "duration", "worker", "finished_at",
              "goal_reached", "pool_id"),
    "seats": ("game_id", "seat", "bot", "spec", "score", "rank", "game_rank", "fault_kind",
              "fault_move", "fault", "moves", "think_seconds", "max_move_seconds"),
    "pools": ("id", "key"),
    "ratings": ("pool", "bot", "mu", "sigma", "games"),
}


def pool_key(game: str, options: dict[str, Any]) -> str:
    """The rating pool of a game: its name and every option that changes its rules (all of a
    game's options do today, the player count among them), as canonical JSON. Games of one
    pool are comparable; the Great Wall, a solo game or another player count is another pool."""
    rules = {k: v for k, v in options.items() if k not in RULE_NEUTRAL_OPTIONS.get(game, ())}
    return json.dumps({"game": game, "options": rules}, sort_keys=True, separators=(",", ":"))


# Options that do not change a game's rules (and so do not split its pool); none so far.
RULE_NEUTRAL_OPTIONS: dict[str, frozenset[str]] = {}


def goal_reached(game: str, options: dict[str, Any], seed: int, actions: list[int]) -> bool | None:
    """Whether a finished one-player game reached its goal (None for a game without one): the
    game is replayed from its record, under the rules of the record version its options say
    it was kept under (engine.core.state.stored_record), and asked."""
    from engine.core.state import State, stored_record

    state = State.from_record(stored_record(game, dict(options), seed, list(actions)))
    ask = getattr(state, "goal_reached", None)
    if ask is None or state.num_players() != 1:
        return None
    result = ask()
    return None if result is None else bool(result)


def _busy_timeout() -> float:
    text = os.environ.get("TIANTI_BUSY_TIMEOUT")
    if not text:
        return BUSY_TIMEOUT_SECONDS
    try:
        value = float(text)
    except ValueError:
        raise StoreError(f"TIANTI_BUSY_TIMEOUT must be a number of seconds, got {text!r}") from None
    if not 0 <= value <= 86400:
        raise StoreError(f"TIANTI_BUSY_TIMEOUT must be between 0 and 86400 seconds, got {text!r}")
    return value


def data_dir() -> Path:
    """Where tianti keeps its files: TIANTI_DATA_DIR when set (tests and scripts point it at a
    folder of their own), else the user's application directory."""
    return Path(os.environ.get("TIANTI_DATA_DIR") or typer.get_app_dir("tianti"))


def default_path() -> Path:
    """The store used when --db is not given (and TIANTI_DB is not set): tianti.db in
    `data_dir()`."""
    return data_dir() / "tianti.db"


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


@dataclass
class RunInfo:
    """A stored run with its progress."""

    id: int
    label: str | None
    spec: TournamentSpec
    planned: int
    done: int
    errors: int
    status: str  # running / interrupted / finished / failed; "stopped": running, owner gone
    created_at: str
    updated_at: str  # the last change of its status or its last stored game
    finished_at: str | None
    owner_host: str | None
    owner_pid: int | None
    wall_seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "spec": self.spec.to_dict(),
                "planned": self.planned, "done": self.done, "errors": self.errors,
                "status": self.status, "created_at": self.created_at,
                "updated_at": self.updated_at, "finished_at": self.finished_at,
                "wall_seconds": self.wall_seconds}


@dataclass
class StoredGame:
    """A stored game with its seats (as dicts: seat, bot, spec, score, rank, game_rank, fault,
    moves, think_seconds, max_move_seconds)."""

    id: int
    run_id: int
    deal: int
    seating: int
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    resample_seed: int
    actions: list[int]
    move_times: list[float]
    duration: float
    worker: str | None
    finished_at: str
    seats: list[dict[str, Any]]

    def record(self) -> dict[str, Any]:
        """The engine's game record (what `State.from_record` replays); its version is the one
        the options and actions were written under (a stored game keeps none)."""
        from engine.core.state import stored_record

        return stored_record(self.game, dict(self.options), self.seed, list(self.actions))

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "run": self.run_id, "deal": self.deal, "seating": self.seating,
                "record": self.record(), "resample_seed": self.resample_seed,
                "seats": self.seats, "move_times": self.move_times, "duration": self.duration,
                "worker": self.worker, "finished_at": self.finished_at}


def _check_spec(spec: TournamentSpec) -> None:
    """TypeError/ValueError for a stored run's spec whose values tianti would not have written
    (`TournamentSpec.from_dict` takes what it is given)."""
    if not isinstance(spec.game, str) or not isinstance(spec.seatings, str):
        raise TypeError("its game and seatings must be text")
    if not all(isinstance(v, (str, int, float, bool, type(None))) for v in spec.options.values()):
        raise TypeError("its options must be option values")
    if spec.move_timeout is not None and not (
            type(spec.move_timeout) in (int, float) and math.isfinite(spec.move_timeout)):
        raise TypeError("its move_timeout must be a number of seconds")


class Store:
    """An open store. `Store(path)` creates the file (and schema) when `create` is true; every
    problem with the path or the file becomes a StoreError naming the path.

    `write=True` (the default) checks the store thoroughly and upgrades an old schema, for a
    command that will add to it; `write=False` only reads (a read-only file is fine, nothing is
    written but the ratings cache when the file allows it). `writable` says whether it can be
    written, `version` is its schema version."""

    def __init__(self, path: str | os.PathLike[str] | None = None, create: bool = True,
                 write: bool = True, allow_empty: bool = False) -> None:
        explicit = path is not None
        self.path = Path(path) if explicit else default_path()
        self.version = SCHEMA_VERSION
        self.writable = True
        if not explicit and create:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"cannot create the directory {self.path.parent}: {e.strerror}") from None
        exists = self._check_path(create)
        timeout = _busy_timeout()
        if not write and exists and not self._can_write():
            self.conn = self._connect_read_only(timeout)
            self.writable = False
        else:
            try:
                self.conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
            except sqlite3.Error as e:
                raise StoreError(f"cannot open the store {self.path}: {e}") from None
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            if write:
                self._init_schema()
                self._check_contents()
            else:
                version = self._check_format()
                if version is None and not allow_empty:
                    raise StoreError(f"{self.path} is empty, not a tianti store yet (run a "
                                     f"tournament with --db {self.path} first)")
                self.version = version if version is not None else SCHEMA_VERSION
        except sqlite3.DatabaseError as e:
            self.conn.close()
            raise StoreError(self.explain(e)) from None
        except BaseException:
            self.conn.close()
            raise

    def explain(self, e: BaseException) -> str:
        """One line for an SQLite error met while using this store."""
        text = str(e)
        if "malformed" in text or "corrupt" in text:
            return (f"the store {self.path} is damaged ({text}); recover what is left with "
                    f"`sqlite3 {self.path} .recover`")
        if "not a database" in text:
            return f"{self.path} is not a usable SQLite database: {text}"
        if "locked" in text or "busy" in text:
            return (f"the store {self.path} is locked by another process ({text}; waited "
                    f"{_busy_timeout():g} s)")
        if "full" in text:
            return f"the store {self.path} cannot grow: the disk is full ({text})"
        if "readonly" in text or "read-only" in text:
            return f"the store {self.path} cannot be written: {text}"
        return f"the store {self.path}: {type(e).__name__}: {text}"

    def _can_write(self) -> bool:
        """Whether this process may write the file and create its journal beside it."""
        return os.access(self.path, os.W_OK) and os.access(self.path.parent, os.W_OK)

    def _connect_read_only(self, timeout: float) -> sqlite3.Connection:
        """A read-only connection; where SQLite cannot even create its shared-memory file (a
        WAL store in a read-only directory) the file is read as immutable."""
        uri = self.path.resolve().as_uri()
        for mode in ("?mode=ro", "?immutable=1"):
            try:
                conn = sqlite3.connect(uri + mode, uri=True, timeout=timeout,
                                       isolation_level=None)
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                return conn
            except sqlite3.OperationalError:
                continue
            except sqlite3.DatabaseError as e:
                raise StoreError(self.explain(e)) from None
        raise StoreError(f"cannot read the store {self.path}: SQLite cannot open it read-only")

    def _check_path(self, create: bool) -> bool:
        """Refuse paths that cannot be a store, before anything is created; returns whether the
        file exists."""
        p = self.path
        try:
            if p.exists() and p.is_dir():
                raise StoreError(f"the store path {p} is a directory; give a file name, e.g. {p / 'tianti.db'}")
            if not p.exists():
                if not create:
                    raise StoreError(f"there is no store at {p} (run a tournament first, or give --db)")
                if not p.parent.is_dir():
                    raise StoreError(f"cannot create the store {p}: the directory {p.parent} does not exist")
                if not os.access(p.parent, os.W_OK):
                    raise StoreError(f"cannot create the store {p}: the directory {p.parent} is not writable")
                return False
            if not p.is_file():
                raise StoreError(f"the store path {p} is not a regular file")
            if not os.access(p, os.R_OK):
                raise StoreError(f"cannot read the store {p}: permission denied")
            return True
        except OSError as e:
            shown = str(p) if len(str(p)) <= 80 else str(p)[:60] + "..." + str(p)[-16:]
            raise StoreError(f"cannot use the store path {shown}: {e.strerror or e}") from None

    def _init_schema(self) -> None:
        """Check that the file is a tianti store (or empty), then switch it to WAL and create
        whatever tables are missing, upgrading an old schema. Nothing is written to a file that
        is not ours."""
        c = self.conn
        if not self._can_write() and self.path.exists():
            raise StoreError(f"the store {self.path} is read-only: it can be listed and shown, "
                             f"not added to")
        if self._check_format() == SCHEMA_VERSION:
            c.execute("PRAGMA synchronous = NORMAL")
            return  # the usual case: an up-to-date store, opened without taking the write lock
        c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = NORMAL")
        c.execute("BEGIN IMMEDIATE")
        try:
            version = self._check_format()  # again, under the lock: another process may have made it
            upgraded = version is not None and version < SCHEMA_VERSION
            if upgraded:
                self._upgrade(version)
            for statement in filter(None, (s.strip() for s in _SCHEMA.split(";"))):
                c.execute(statement)
            c.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT,))
            c.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            c.execute("INSERT OR IGNORE INTO meta VALUES ('ratings_last_game', '0')")
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise
        self.version = SCHEMA_VERSION
        if upgraded:
            self._vacuum()

    def _upgrade(self, version: int) -> None:
        """Bring a schema-1 or -2 store to the current schema, step by step, inside the
        caller's transaction (every game kept; `_vacuum` gives the freed pages back after)."""
        if version < 2:
            self._upgrade_to_2()
        if version < 3:
            self._upgrade_to_3()

    def _upgrade_to_2(self) -> None:
        """Schema 1 -> 2: each game gets its pool and solo goal; the ratings cache, which was
        kept per game and player count, is rebuilt later."""
        c = self.conn
        c.execute("ALTER TABLE games ADD COLUMN pool TEXT")
        c.execute("ALTER TABLE games ADD COLUMN goal_reached INTEGER")
        rows = c.execute("SELECT id, game, options, players, seed, actions FROM games").fetchall()
        for gid, game, options, players, seed, actions in rows:
            opts = self._json(options, "options", gid)
            goal = (goal_reached(game, opts, seed, self._json(actions, "actions", gid))
                    if players == 1 else None)
            c.execute("UPDATE games SET pool = ?, goal_reached = ? WHERE id = ?",
                      (pool_key(game, opts), None if goal is None else int(goal), gid))
        c.execute("DROP TABLE IF EXISTS ratings")
        c.execute("DROP TABLE IF EXISTS rating_history")
        c.execute("UPDATE meta SET value = '0' WHERE key = 'ratings_last_game'")

    def _upgrade_to_3(self) -> None:
        """Schema 2 -> 3: each pool's key is stored once, in `pools`, and a game keeps its
        row's id instead of the text (pools numbered in the order of their first game); the
        per-game rating history goes. The ratings cache is emptied and its bookmark reset: schema
        3's ratings are fitted on all of a pool's games at once, not updated game by game as
        the cache of a schema-2 release was, so the next ladder fits every pool again."""
        c = self.conn
        # a game without its pool's text (only a crafted store has one) gets it from its options
        for gid, game, options in c.execute(
                "SELECT id, game, options FROM games WHERE typeof(pool) != 'text'").fetchall():
            c.execute("UPDATE games SET pool = ? WHERE id = ?",
                      (pool_key(game, self._options(options, gid)), gid))
        c.execute("CREATE TABLE pools (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE)")
        c.execute("INSERT INTO pools (key) SELECT pool FROM games GROUP BY pool ORDER BY MIN(id)")
        c.execute("ALTER TABLE games ADD COLUMN pool_id INTEGER REFERENCES pools(id)")
        c.execute("UPDATE games SET pool_id = (SELECT p.id FROM pools p WHERE p.key = games.pool)")
        c.execute("DROP INDEX IF EXISTS games_by_rules")  # on the text; remade on pool_id
        c.execute("ALTER TABLE games DROP COLUMN pool")
        c.execute("DROP TABLE IF EXISTS rating_history")
        c.execute("DROP TABLE IF EXISTS ratings")  # made afresh, empty, with the schema
        c.execute("UPDATE meta SET value = '0' WHERE key = 'ratings_last_game'")

    def _vacuum(self) -> None:
        """Give the pages an upgrade freed back to the file system (VACUUM rewrites the file;
        skipped, harmlessly, while another process holds it: new games reuse the pages)."""
        try:
            self.conn.execute("VACUUM")
        except sqlite3.OperationalError:
            pass

    def _check_format(self) -> int | None:
        """The store's schema version (None for an empty file); StoreError for another kind of
        SQLite database or a newer schema."""
        c = self.conn
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return None
        if "meta" not in tables:
            raise StoreError(
                f"{self.path} is an SQLite database but not a tianti store (it has tables "
                f"{', '.join(sorted(tables)[:5])}); give another --db")
        meta = dict(c.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("format") != FORMAT:
            raise StoreError(f"{self.path} is not a tianti store (format {meta.get('format')!r})")
        try:
            version = int(meta.get("schema_version", "0"))
        except ValueError:
            raise StoreError(f"the store {self.path} is damaged: its schema version is "
                             f"{meta.get('schema_version')!r}") from None
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has store schema {version}, newer than this tianti's "
                f"{SCHEMA_VERSION}: upgrade tianti")
        if version < 1:
            raise StoreError(f"the store {self.path} is damaged: schema version {version}")
        missing = {"meta", "bots", "runs", "games", "seats"} - tables
        if missing:
            raise StoreError(f"the store {self.path} is damaged: the tables "
                             f"{', '.join(sorted(missing))} are missing")
        self.version = version
        return version

    def _check_contents(self) -> None:
        """Before a run adds to the store: SQLite's own check of its pages and indexes, the
        tables' columns and the shape of the rows (JSON columns, integer keys)."""
        c = self.conn
        problems = [r[0] for r in c.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise StoreError(f"the store {self.path} is damaged "
                             f"({printable('; '.join(map(str, problems)), 200)}); "
                             f"recover what is left with `sqlite3 {self.path} .recover`")
        for table, columns in _COLUMNS.items():
            have = tuple(r[1] for r in c.execute(f"PRAGMA table_info({table})"))
            if have != columns:
                raise StoreError(f"the store {self.path} is damaged: the table {table} has "
                                 f"columns {', '.join(have) or 'none'}, expected {', '.join(columns)}")
        bad = c.execute(
            "SELECT id FROM games WHERE NOT json_valid(options) OR NOT json_valid(actions)"
            " OR NOT json_valid(move_times) OR json_type(actions) != 'array'"
            " OR typeof(seed) != 'integer' OR typeof(players) != 'integer' LIMIT 1").fetchone()
        if bad is not None:
            raise StoreError(f"the store {self.path} is damaged: game {bad[0]} has a malformed "
                             f"row")
        bad = c.execute("SELECT id FROM pools WHERE typeof(key) != 'text' OR NOT json_valid(key)"
                        " LIMIT 1").fetchone()
        if bad is not None:
            raise StoreError(f"the store {self.path} is damaged: pool {bad[0]} has a malformed "
                             f"key")
        bad = c.execute("SELECT g.id FROM games g LEFT JOIN pools p ON p.id = g.pool_id"
                        " WHERE p.id IS NULL LIMIT 1").fetchone()
        if bad is not None:
            raise StoreError(f"the store {self.path} is damaged: game {bad[0]} has no pool")
        bad = c.execute("SELECT game_id, seat FROM seats WHERE typeof(rank) != 'integer'"
                        " OR typeof(score) != 'integer' OR typeof(bot) != 'text' LIMIT 1").fetchone()
        if bad is not None:
            raise StoreError(f"the store {self.path} is damaged: seat {bad[1]} of game {bad[0]} "
                             f"has a malformed row")
        for (rid,) in c.execute("SELECT id FROM runs").fetchall():
            self.run(rid)  # parses its spec, a clear error when it is malformed

    def _json(self, text: Any, column: str, row: int, table: str = "game") -> Any:
        """A JSON column of a row; malformed JSON (nested too deep for the parser among it) is
        a clear StoreError naming the row."""
        try:
            return json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise StoreError(f"the store {self.path} is damaged: {table} {row} has malformed "
                             f"JSON in its {column}") from None

    def damaged(self, what: str) -> StoreError:
        """The error for a row whose values are not what tianti writes (a crafted or damaged
        store): one line naming the store and the row."""
        return StoreError(f"the store {self.path} is damaged: {printable(what, 300)}")

    def _actions(self, text: Any, column: str, row: int) -> list[int]:
        """A game's `actions` column: a JSON list of action numbers."""
        value = self._json(text, column, row)
        if not isinstance(value, list) or not all(
                type(a) is int and 0 <= a <= MAX_ACTION for a in value):
            raise self.damaged(f"game {row} has {column} that are not a list of action numbers")
        return value

    def _times(self, text: Any, row: int) -> list[float]:
        """A game's `move_times` column: a JSON list of finite seconds."""
        value = self._json(text, "move_times", row)
        if not isinstance(value, list) or not all(
                type(t) in (int, float) and math.isfinite(t) for t in value):
            raise self.damaged(f"game {row} has move_times that are not a list of seconds")
        return value

    def _options(self, text: Any, row: int) -> dict[str, Any]:
        """A game's `options` column: a JSON object of option values (numbers, text, true,
        false, null)."""
        value = self._json(text, "options", row)
        if not isinstance(value, dict) or not all(
                isinstance(v, (str, int, float, bool, type(None))) for v in value.values()):
            raise self.damaged(f"game {row} has options that are not a table of option values")
        return value

    def _row(self, row: tuple[Any, ...], kinds: str, what: str) -> None:
        """Check a row's values against `kinds`, one letter a column: i an integer, n a number,
        s text, I/N/S the same or NULL, . anything. SQLite keeps whatever a column is given, so
        a crafted store may hold text where tianti writes numbers."""
        for value, kind in zip(row, kinds):
            if kind == "." or (value is None and kind.isupper()):
                continue
            expected = {"i": (int,), "n": (int, float), "s": (str,)}[kind.lower()]
            if type(value) not in expected:
                raise self.damaged(f"{what} holds {type(value).__name__} {_shown(value)} where "
                                   f"{'text' if kind.lower() == 's' else 'a number'} belongs")

    def check_seats(self, where: str = "1", params: tuple[Any, ...] = ()) -> None:
        """Refuse seats whose place, score or bot is not what tianti writes (SQL would read
        text as 0 and rate it), for the games matching `where` on `g`."""
        bad = self.conn.execute(
            "SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE ({where}) AND (typeof(s.rank) != 'integer' OR typeof(s.score) != 'integer'"
            " OR typeof(s.bot) != 'text' OR typeof(g.players) != 'integer') LIMIT 1",
            params).fetchone()
        if bad is not None:
            raise self.damaged(f"seat {bad[1]} of game {bad[0]} has a malformed row")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions ---------------------------------------------------------------------------

    def transaction(self) -> "_Transaction":
        """`with store.transaction():` — BEGIN IMMEDIATE ... COMMIT, ROLLBACK on error."""
        return _Transaction(self.conn)

    # -- bots and runs --------------------------------------------------------------------------

    def check_bots(self, bots: list[tuple[str, str]]) -> None:
        """Refuse (without writing) a name that already stands for another spec."""
        has_table = self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bots'").fetchone()
        if not has_table:
            return  # an empty store, being created by another process
        known = self.bots()
        for name, spec in bots:
            if name in known and known[name] != spec:
                raise StoreError(
                    f"the bot name {name!r} already stands for {known[name]!r} in {self.path}, "
                    f"not {spec!r}: give this bot another name")

    def register_bots(self, bots: list[tuple[str, str]]) -> None:
        """Record each (name, spec); a name already standing for another spec is an error (a
        ladder row must mean one bot)."""
        with self.transaction():
            for name, spec in bots:
                self.conn.execute("INSERT OR IGNORE INTO bots VALUES (?, ?, ?)", (name, spec, now()))
                (stored,) = self.conn.execute("SELECT spec FROM bots WHERE name = ?", (name,)).fetchone()
                if stored != spec:
                    raise StoreError(
                        f"the bot name {name!r} already stands for {stored!r} in {self.path}, not "
                        f"{spec!r}: give this bot another name")

    def bots(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT name, spec FROM bots ORDER BY name").fetchall())

    def create_run(self, spec: TournamentSpec, planned: int, label: str | None = None) -> int:
        """A new run, owned by this process."""
        self.register_bots(list(spec.bots))
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO runs (label, spec, game, players, deals, seatings, seed, move_timeout,"
                " planned, status, created_at, updated_at, owner_host, owner_pid)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)",
                (label, json.dumps(spec.to_dict()), spec.game, spec.players, spec.deals,
                 spec.seatings, spec.seed, spec.move_timeout, planned, now(), now(),
                 socket.gethostname(), os.getpid()))
            return int(cur.lastrowid)

    def claim_run(self, run_id: int, force: bool = False) -> RunInfo:
        """Take over a run to resume it; refuses while another live process on this machine
        runs it (unless `force`)."""
        with self.transaction():
            info = self.run(run_id)
            row = self.conn.execute("SELECT status, owner_host, owner_pid FROM runs WHERE id = ?",
                                    (run_id,)).fetchone()
            status, host, pid = row
            if (status == "running" and not force and host == socket.gethostname()
                    and pid is not None and pid != os.getpid() and pid_alive(pid)):
                raise StoreError(
                    f"run {run_id} is being played by process {pid} on this machine; stop it "
                    f"first (or pass --force if that process is not a tianti tournament)")
            if status == "running" and not force and host not in (None, socket.gethostname()):
                raise StoreError(
                    f"run {run_id} is marked as running on {host} (process {pid}); pass --force "
                    f"to resume it here if it is no longer running there")
            self.conn.execute(
                "UPDATE runs SET status = 'running', owner_host = ?, owner_pid = ?, updated_at = ?"
                " WHERE id = ?", (socket.gethostname(), os.getpid(), now(), run_id))
        return info

    def set_status(self, run_id: int, status: str, wall_seconds: float = 0.0) -> str:
        """Mark a run finished / interrupted / failed, adding the wall time just spent; returns
        the status the run has now.

        The store decides with what it holds, under the write lock, so that two processes
        resuming one run at once (`--force`) leave its true state: a run whose planned games are
        all stored is finished whatever is asked, a finished run stays finished, and a process
        that is no longer the run's owner (another one claimed it since) leaves the status to
        the owner while it is alive."""
        with self.transaction():
            row = self.conn.execute(
                "SELECT r.status, r.owner_host, r.owner_pid, r.planned,"
                " (SELECT COUNT(*) FROM games g WHERE g.run_id = r.id) FROM runs r WHERE r.id = ?",
                (run_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no run {run_id} in {self.path}")
            current, host, pid, planned, stored = row
            mine = host == socket.gethostname() and pid == os.getpid()
            other_alive = (not mine and pid is not None and current == "running"
                           and (host != socket.gethostname() or pid_alive(pid)))
            if current == "finished" or stored >= planned:
                status = "finished"
            elif other_alive and status != "finished":
                status = current
            finished = now() if status == "finished" else None
            release = status != "running" and not other_alive
            self.conn.execute(
                "UPDATE runs SET status = ?, updated_at = ?, finished_at = COALESCE(finished_at, ?),"
                " wall_seconds = wall_seconds + ?,"
                " owner_pid = CASE WHEN ? THEN NULL ELSE owner_pid END WHERE id = ?",
                (status, now(), finished, wall_seconds, release, run_id))
        return status

    def run(self, run_id: int) -> RunInfo:
        """A stored run; StoreError naming the recent runs when there is no such run."""
        row = None if not 0 <= run_id <= MAX_ID else self.conn.execute(
            "SELECT id, label, spec, planned, status, created_at, updated_at, finished_at,"
            " owner_host, owner_pid, wall_seconds FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            known = [r[0] for r in self.conn.execute("SELECT id FROM runs ORDER BY id DESC LIMIT 10")]
            hint = f"; recent runs: {', '.join(map(str, known))}" if known else "; the store has no runs"
            raise StoreError(f"there is no run {run_id} in {self.path}{hint}")
        return self._run_info(row)

    def runs(self) -> list[RunInfo]:
        rows = self.conn.execute(
            "SELECT id, label, spec, planned, status, created_at, updated_at, finished_at,"
            " owner_host, owner_pid, wall_seconds FROM runs ORDER BY id").fetchall()
        return [self._run_info(r) for r in rows]

    def _run_info(self, row: tuple[Any, ...]) -> RunInfo:
        (rid, label, spec, planned, status, created, updated, finished, host, pid, wall) = row
        self._row(row, "iSsisssSSIn", f"run {rid}")
        done, errors, last_game = self.conn.execute(
            "SELECT COUNT(DISTINCT g.id), COUNT(s.fault_kind), MAX(g.finished_at) FROM games g"
            " LEFT JOIN seats s ON s.game_id = g.id WHERE g.run_id = ?", (rid,)).fetchone()
        if not isinstance(last_game, (str, type(None))):
            raise self.damaged(f"a game of run {rid} has a malformed finished_at")
        updated = max(updated, last_game or "")
        if (status == "running" and host == socket.gethostname() and pid is not None
                and not pid_alive(pid)):
            status = "stopped"
        try:
            parsed = TournamentSpec.from_dict(self._json(spec, "spec", rid, "run"))
            _check_spec(parsed)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError,
                RecursionError) as e:
            raise StoreError(f"the store {self.path} is damaged: run {rid} has a malformed "
                             f"spec ({type(e).__name__}: {printable(e, 80)})") from None
        return RunInfo(rid, label, parsed, planned, done,
                       errors, status, created, updated, finished, host, pid, wall)

    # -- games ----------------------------------------------------------------------------------

    def completed_keys(self, run_id: int) -> set[tuple[int, int]]:
        """The (deal, seating) pairs of a run already stored (played or voided)."""
        keys = {(d, s) for d, s in self.conn.execute(
            "SELECT deal, seating FROM games WHERE run_id = ?", (run_id,))}
        return keys | {(v["deal"], v["seating"]) for v in self.voided(run_id)}

    def _has_voided(self) -> bool:
        return self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'voided'").fetchone() is not None

    def save_void(self, voided: Any) -> bool:
        """Store a voided game (a `ladder.tournament.worker.VoidedGame`); False when that (run,
        deal, seating) was already stored, played or voided."""
        with self.transaction():
            self.conn.execute(_VOIDED)
            if self.conn.execute("SELECT 1 FROM games WHERE run_id = ? AND deal = ? AND seating = ?",
                                 (voided.run_id, voided.deal, voided.seating)).fetchone():
                return False
            cur = self.conn.execute(
                "INSERT OR IGNORE INTO voided VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (voided.run_id, voided.deal, voided.seating, voided.game, voided.seed,
                 voided.error, voided.worker, now()))
            return cur.rowcount > 0

    def voided(self, run_id: int) -> list[dict[str, Any]]:
        """A run's voided games (see the schema), in plan order."""
        if not self._has_voided():
            return []
        rows = self.conn.execute(
            "SELECT deal, seating, game, seed, error, worker, finished_at FROM voided"
            " WHERE run_id = ? ORDER BY deal, seating", (run_id,)).fetchall()
        for r in rows:
            self._row(r, "iisisSs", f"the voided game of run {run_id}, deal {r[0]}")
        return [{"deal": d, "seating": s, "game": g, "seed": seed, "error": e, "worker": w,
                 "finished_at": f} for d, s, g, seed, e, w, f in rows]

    def save_game(self, outcome: GameOutcome) -> int | None:
        """Store a finished game and its seats in one transaction; returns its id, or None when
        that (run, deal, seating) was already stored."""
        return self.save_games([outcome])[0]

    def save_games(self, outcomes: Sequence[GameOutcome]) -> list[int | None]:
        """Store finished games and their seats in one transaction (all or none); returns each
        one's id, or None for a game whose (run, deal, seating) was already stored. One
        transaction for many games: a commit costs more than a quick game's rows."""
        c = self.conn
        stamp = now()
        pools: dict[tuple[str, str], int] = {}  # (game, options' text) -> pool id
        ids: list[int | None] = []
        seat_rows: list[tuple[Any, ...]] = []
        with self.transaction():
            for outcome in outcomes:
                pool = pools.get((outcome.game, outcome.options_json))
                if pool is None or len(outcome.seats) == 1:
                    options = outcome.options
                if pool is None:
                    pool = pools[(outcome.game, outcome.options_json)] = self._pool_id(
                        pool_key(outcome.game, options))
                goal = (goal_reached(outcome.game, options, outcome.seed, outcome.actions)
                        if len(outcome.seats) == 1 else None)
                cur = c.execute(
                    "INSERT OR IGNORE INTO games (run_id, deal, seating, game, options, players,"
                    " seed, resample_seed, actions, move_times, duration, worker, finished_at,"
                    " pool_id, goal_reached) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (outcome.run_id, outcome.deal, outcome.seating, outcome.game,
                     outcome.options_json, len(outcome.seats), outcome.seed,
                     outcome.resample_seed, outcome.actions_json, outcome.move_times_json,
                     outcome.duration, outcome.worker, stamp, pool,
                     None if goal is None else int(goal)))
                if cur.rowcount == 0:
                    ids.append(None)
                    continue
                game_id = int(cur.lastrowid)
                ids.append(game_id)
                seat_rows.extend(
                    (game_id, s.seat, s.bot, s.spec, s.score, s.rank, s.game_rank,
                     s.fault["kind"] if s.fault else None, s.fault["move"] if s.fault else None,
                     s.fault["message"] if s.fault else None, s.moves, s.think_seconds,
                     s.max_move_seconds) for s in outcome.seats)
            c.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          seat_rows)
        return ids

    def _pool_id(self, key: str) -> int:
        """The id of a pool's row in `pools`, added when new (inside the caller's transaction)."""
        self.conn.execute("INSERT OR IGNORE INTO pools (key) VALUES (?)", (key,))
        (pool_id,) = self.conn.execute("SELECT id FROM pools WHERE key = ?", (key,)).fetchone()
        return int(pool_id)

    @property
    def pool_sql(self) -> tuple[str, str]:
        """How SQL over `games g` reads a game's pool key in this store's schema: (the join to
        add after `games g`, the key's expression). Schema 3 joins `pools p` (a game with no
        pool row reads NULL); schema 2 kept the text in `g.pool`; schema 1 had none (NULL)."""
        if self.version >= 3:
            return " LEFT JOIN pools p ON p.id = g.pool_id", "p.key"
        return "", "g.pool" if self.version == 2 else "NULL"

    def game(self, game_id: int) -> StoredGame:
        """A stored game by its number; StoreError when there is none."""
        games = [] if not 0 <= game_id <= MAX_ID else list(
            self.games(where="g.id = ?", params=(game_id,)))
        if not games:
            raise StoreError(f"there is no game {game_id} in {self.path}")
        return games[0]

    def games(self, where: str = "1", params: tuple[Any, ...] = (), order: str = "g.id") -> Iterator[StoredGame]:
        """Stored games matching an SQL condition on `g` (games), in `order`."""
        rows = self.conn.execute(
            "SELECT g.id, g.run_id, g.deal, g.seating, g.game, g.options, g.players, g.seed,"
            " g.resample_seed, g.actions, g.move_times, g.duration, g.worker, g.finished_at"
            f" FROM games g WHERE {where} ORDER BY {order}", params).fetchall()
        for chunk_start in range(0, len(rows), 500):
            chunk = rows[chunk_start:chunk_start + 500]
            ids = [r[0] for r in chunk]
            seats: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
            marks = ",".join("?" * len(ids))
            for s in self.conn.execute(
                    "SELECT game_id, seat, bot, spec, score, rank, game_rank, fault_kind,"
                    " fault_move, fault, moves, think_seconds, max_move_seconds FROM seats"
                    f" WHERE game_id IN ({marks}) ORDER BY game_id, seat", ids):
                self._row(s, "iissiiiSISinn", f"seat {s[1]} of game {s[0]}")
                if s[7] is not None and (s[8] is None or s[9] is None):
                    raise self.damaged(f"seat {s[1]} of game {s[0]} has a fault without its "
                                       f"move or message")
                seats[s[0]].append({
                    "seat": s[1], "bot": s[2], "spec": s[3], "score": s[4], "rank": s[5],
                    "game_rank": s[6],
                    "fault": None if s[7] is None else {"kind": s[7], "move": s[8], "message": s[9]},
                    "moves": s[10], "think_seconds": s[11], "max_move_seconds": s[12]})
            for r in chunk:
                self._row(r, "iiiis.iii..nSs", f"game {r[0]}")
                if (len(seats[r[0]]) != r[6]
                        or any(s["seat"] != i for i, s in enumerate(seats[r[0]]))):
                    raise self.damaged(f"game {r[0]} of {r[6]} players has seats "
                                       f"{_shown([s['seat'] for s in seats[r[0]]])}")
                yield StoredGame(
                    id=r[0], run_id=r[1], deal=r[2], seating=r[3], game=r[4],
                    options=self._options(r[5], r[0]), players=r[6], seed=r[7],
                    resample_seed=r[8], actions=self._actions(r[9], "actions", r[0]),
                    move_times=self._times(r[10], r[0]), duration=r[11],
                    worker=r[12], finished_at=r[13], seats=seats[r[0]])


class _Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        if kind is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            # SQLite may have rolled back already (a full disk does): then there is nothing to
            # undo, and the original error is the one to report
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
