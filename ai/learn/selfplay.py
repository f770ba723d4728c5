"""Self-play data: positions of games between the current bots, with each seat's final score.

Every position after a decision is recorded for every seat as the game's feature vector
(`engine.mount_tai.knowledge.features`, `engine.dragon.knowledge.features`), together with
the game it belongs to, the seat, the decisions the seat has left, the seat's final score and,
in a solo game, whether the goal was reached. Games are reproducible from (seed, index): the
deal, the bots' seeds and the exploration.
"""
from __future__ import annotations

import multiprocessing as mp
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np

import engine
from ai.bots import make_bot
from ai.match import MoveEvent, derived_seed, play_game

# The table kinds a data set mixes, in turn: the plain solo game, the eight challenge games,
# and 2, 3 and 4 players.
TABLES: tuple[dict[str, Any], ...] = (
    {"solo": True}, *({"challenge": k} for k in range(1, 9)),
    {"players": 2}, {"players": 3}, {"players": 4},
)

# Dragon's tables: 2, 3 and 4 players, base game (the fit's table sizes stop at 4 players).
DRAGON_TABLES: tuple[dict[str, Any], ...] = ({"players": 2}, {"players": 3}, {"players": 4})

# Column of the decisions left in the feature vector (buckets the model by it).
DECISIONS_LEFT = "decisions_left"


class Explorer:
    """A bot that plays a uniformly random legal move with probability `epsilon`, else asks
    `inner`: exploration keeps the data from covering only the positions the bots like."""

    def __init__(self, inner: Any, epsilon: float, seed: int) -> None:
        self.inner = inner
        self.epsilon = epsilon
        self.rng = random.Random(seed)

    def step(self, view: Any) -> int:
        if self.epsilon > 0 and self.rng.random() < self.epsilon:
            return self.rng.choice(view.legal_actions())
        return self.inner.step(view)

    def inform_action(self, view: Any, player: int, action: int) -> None:
        hook = getattr(self.inner, "inform_action", None)
        if hook is not None:
            hook(view, player, action)


@dataclass
class GameRows:
    """One game's rows: features [n, F], seat [n], decisions left [n], final score [n],
    goal reached [n] (solo; 0 otherwise), won [n] (the seat's share of the win)."""

    x: np.ndarray
    seat: np.ndarray
    left: np.ndarray
    final: np.ndarray
    goal: np.ndarray
    won: np.ndarray


def features_fn(game: str) -> tuple[Callable[[Any, int], list[float]], tuple[str, ...]]:
    """The feature function of a game and its names (Mount Tai and Dragon)."""
    if game == "mount-tai":
        from engine.mount_tai.knowledge import FEATURE_NAMES, features
        return features, FEATURE_NAMES
    if game == "dragon":
        from engine.dragon import knowledge
        return knowledge.features, knowledge.FEATURE_NAMES
    raise ValueError(f"no learned features for {game!r}: only mount-tai and dragon have them")


def tables_for(game: str) -> tuple[dict[str, Any], ...]:
    """The table kinds a data set of `game` mixes in turn (game i plays entry i % len): Mount
    Tai's TABLES (unchanged, so its seeds and indices deal the same games), Dragon's
    DRAGON_TABLES."""
    return DRAGON_TABLES if game == "dragon" else TABLES


def play_one(job: tuple[str, int, int, str, float]) -> GameRows:
    """Play game `index` of data set `seed` and return its rows."""
    game, seed, index, spec, epsilon = job
    feats, names = features_fn(game)
    left_col = names.index(DECISIONS_LEFT)
    tables = tables_for(game)
    options = tables[index % len(tables)]
    deal = derived_seed("learn", seed, index)
    state = engine.load_game(game, **options).new_initial_state(deal % (1 << 62))
    n = state.num_players()
    bots = [Explorer(make_bot(spec, seed=derived_seed("bot", seed, index, i) % (1 << 31)),
                     epsilon, derived_seed("explore", seed, index, i)) for i in range(n)]
    rows: list[list[float]] = []
    seats: list[int] = []

    def record(event: MoveEvent) -> None:
        for i in range(n):
            rows.append(feats(event.state, i))
            seats.append(i)

    result = play_game(state, bots, on_move=record, resample_seed=deal)
    x = np.asarray(rows, dtype=np.float32)
    seat = np.asarray(seats, dtype=np.int8)
    final = np.asarray(result.scores, dtype=np.float32)[seat]
    won = np.asarray(result.returns, dtype=np.float32)[seat]
    goal = won if n == 1 else np.zeros_like(won)
    return GameRows(x, seat, x[:, left_col].astype(np.int8), final, goal, won)


def game_indices(games: int, tables: list[int] | None = None, game: str = "mount-tai"
                 ) -> list[int]:
    """The data set's game indices (game i plays tables_for(game)[i % len]): all of
    0..games-1, or with `tables`, the first `games` indices whose table is one of them (so a
    data set of solo tables only deals the same games as the solo games of a mixed one)."""
    kinds = tables_for(game)
    if tables is None:
        return list(range(games))
    bad = [t for t in tables if not 0 <= t < len(kinds)]
    if bad or not tables:
        raise ValueError(f"tables must be indices of the {game} tables (0..{len(kinds) - 1}), "
                         f"got {tables}")
    keep = set(tables)
    out: list[int] = []
    i = 0
    while len(out) < games:
        if i % len(kinds) in keep:
            out.append(i)
        i += 1
    return out


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during self-play, carrying the rows of the games finished before it (`data`,
    as `generate` returns them, the first `games` of the run: games are reproducible from their
    index, so the part is what a shorter run would have played)."""

    def __init__(self, data: dict[str, np.ndarray], games: int) -> None:
        super().__init__(f"interrupted after {games} games")
        self.data = data
        self.games = games


def generate(game: str, games: int, seed: int, spec: str, epsilon: float, workers: int,
             progress: bool = True, tables: list[int] | None = None) -> dict[str, np.ndarray]:
    """Play `games` games (worker processes) and stack their rows; `group` is the game index.
    `tables` restricts the games to those entries of tables_for(game) (default: all, in turn).
    Ctrl-C after some games raises `Interrupted` with their rows (before any: KeyboardInterrupt)."""
    from tqdm import tqdm

    indices = game_indices(games, tables, game)
    kinds = len(tables_for(game))
    jobs = [(game, seed, i, spec, epsilon) for i in indices]
    parts: list[GameRows] = []
    stopped = False
    with mp.get_context("fork").Pool(workers) as pool:
        it: Iterator[GameRows] = pool.imap(play_one, jobs)
        try:
            for rows in tqdm(it, total=games, disable=not progress, desc="self-play",
                             unit="game"):
                parts.append(rows)
        except KeyboardInterrupt:
            if not parts:
                raise
            stopped = True   # imap yields in order: parts are the first len(parts) games
    data = _stack(parts, indices, kinds)
    if stopped:
        raise Interrupted(data, len(parts))
    return data


def _stack(parts: list[GameRows], indices: list[int], kinds: int) -> dict[str, np.ndarray]:
    """The games' rows stacked into the data set's arrays."""
    group = np.concatenate([np.full(len(p.seat), i, dtype=np.int32)
                            for i, p in zip(indices, parts)])
    table = np.concatenate([np.full(len(p.seat), i % kinds, dtype=np.int8)
                            for i, p in zip(indices, parts)])
    return {
        "x": np.concatenate([p.x for p in parts]),
        "seat": np.concatenate([p.seat for p in parts]),
        "left": np.concatenate([p.left for p in parts]),
        "final": np.concatenate([p.final for p in parts]),
        "goal": np.concatenate([p.goal for p in parts]),
        "won": np.concatenate([p.won for p in parts]),
        "group": group,
        "table": table,
    }
