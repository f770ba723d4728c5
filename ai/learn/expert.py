"""Expert-iteration data: self-play positions with the search's policy and the game's outcome.

At every decision of a searching bot that has a choice (two legal actions or more), the bot's
own view is recorded: the features of every seat (`engine.mount_tai.knowledge.features`, seat
order, so a decision's rows are consecutive as in `ai.learn.selfplay`), the legal actions, the
hand-written move prior of each (an action feature of the policy head) and the search's root
visits of each (the policy target). When the game ends each row gets its seat's final score,
share of the win and margin to the best other seat (the value targets).

The value rows have the keys of `ai.learn.selfplay.generate` (x, seat, left, final, goal, won,
group, table), so `ai.learn.fit.report` compares the linear model on the same positions; the
policy keys are p_row (the mover's row in x), p_start (offsets into the flat p_* arrays, one
more than the decisions), p_action, p_visits, p_prior. A game is reproducible from (seed, index,
bot spec): the deal, the bots' seeds, the exploration and the views' seeds derive from them.
Mount Tai only for now (Dragon has no learned features yet).
"""
from __future__ import annotations

import multiprocessing as mp
import random
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

import engine
from ai.bots import make_bot
from ai.learn.selfplay import DECISIONS_LEFT, features_fn
from ai.match import derived_seed, play_game


@dataclass
class Decision:
    """One recorded decision: every seat's features, the mover, and per legal action its id,
    root visits and hand prior."""

    x: list[list[float]]
    mover: int
    actions: list[int]
    visits: list[int]
    prior: list[float]


class Recorder:
    """A searching bot (one with `analyse`) that records each decision it makes with a choice;
    with probability `epsilon` it plays a uniformly random legal move instead of the search's
    (the decision is still recorded with the search's visits: the target is the search's)."""

    def __init__(self, inner: Any, game: str, epsilon: float, seed: int) -> None:
        self.inner = inner
        self.feats, _ = features_fn(game)
        self.epsilon = epsilon
        self.rng = random.Random(seed)
        self.decisions: list[Decision] = []

    def step(self, view: Any) -> int:
        legal = view.legal_actions()
        result = self.inner.analyse(view)
        if len(legal) > 1:
            visits = {r["action"]: r["visits"] for r in result["root"]}
            prior = view.move_prior() or [1.0] * len(legal)
            me = view.current_player()
            self.decisions.append(Decision(
                [self.feats(view, i) for i in range(view.num_players())], me, list(legal),
                [int(visits.get(a, 0)) for a in legal], [float(p) for p in prior]))
            if self.epsilon > 0 and self.rng.random() < self.epsilon:
                return self.rng.choice(legal)
        return int(result["action"])

    def inform_action(self, view: Any, player: int, action: int) -> None:
        hook = getattr(self.inner, "inform_action", None)
        if hook is not None:
            hook(view, player, action)

    def restart(self) -> None:
        self.inner.restart()


@dataclass
class ExpertRows:
    """One game's value rows (n decisions x seats) and its decisions' policy data."""

    x: np.ndarray
    seat: np.ndarray
    final: np.ndarray
    won: np.ndarray
    margin: np.ndarray
    mover_row: np.ndarray
    counts: np.ndarray
    action: np.ndarray
    visits: np.ndarray
    prior: np.ndarray
    info: dict[str, float] = field(default_factory=dict)


def play_one(job: tuple[str, dict[str, Any], int, int, str, float]) -> ExpertRows:
    """Play game `index` of data set `seed` (table `options`, every seat the bot `spec`)."""
    game, options, seed, index, spec, epsilon = job
    deal = derived_seed("expert", seed, index)
    state = engine.load_game(game, **options).new_initial_state(deal % (1 << 62))
    n = state.num_players()
    bots = [Recorder(make_bot(spec, seed=derived_seed("bot", seed, index, i) % (1 << 31)),
                     game, epsilon, derived_seed("explore", seed, index, i)) for i in range(n)]
    result = play_game(state, bots, resample_seed=deal, trusted=True)
    # Grouped by seat, each seat's in game order; a decision's rows stay consecutive.
    order = [d for b in bots for d in b.decisions]
    scores = np.asarray(result.scores, dtype=np.float32)
    returns = np.asarray(result.returns, dtype=np.float32)
    margin = np.array([scores[i] - max((scores[j] for j in range(n) if j != i), default=0.0)
                       for i in range(n)], dtype=np.float32)
    rows = [f for d in order for f in d.x]
    seat = np.tile(np.arange(n, dtype=np.int8), len(order))
    mover_row = np.array([k * n + d.mover for k, d in enumerate(order)], dtype=np.int32)
    return ExpertRows(
        np.asarray(rows, dtype=np.float32).reshape(len(order) * n, -1), seat, scores[seat],
        returns[seat], margin[seat], mover_row,
        np.array([len(d.actions) for d in order], dtype=np.int32),
        np.array([a for d in order for a in d.actions], dtype=np.int16),
        np.array([v for d in order for v in d.visits], dtype=np.int32),
        np.array([p for d in order for p in d.prior], dtype=np.float32))


def generate(game: str, games: int, seed: int, spec: str, epsilon: float, workers: int,
             players: int = 2, progress: bool = True) -> dict[str, np.ndarray]:
    """Play `games` games of `players` seats (worker processes) and stack their rows."""
    from tqdm import tqdm

    feats, names = features_fn(game)
    left_col = names.index(DECISIONS_LEFT)
    options: dict[str, Any] = {"solo": True} if players == 1 else {"players": players}
    jobs = [(game, options, seed, i, spec, epsilon) for i in range(games)]
    parts: list[ExpertRows] = []
    with mp.get_context("fork").Pool(workers) as pool:
        it: Iterator[ExpertRows] = pool.imap(play_one, jobs)
        for rows in tqdm(it, total=games, disable=not progress, desc="self-play", unit="game"):
            parts.append(rows)
    offsets = np.cumsum([0] + [len(p.seat) for p in parts])
    x = np.concatenate([p.x for p in parts])
    counts = np.concatenate([p.counts for p in parts])
    table = {1: 0, 2: 9, 3: 10, 4: 11}[players]
    return {
        "x": x,
        "seat": np.concatenate([p.seat for p in parts]),
        "left": x[:, left_col].astype(np.int8),
        "final": np.concatenate([p.final for p in parts]),
        "goal": np.zeros(len(x), dtype=np.float32),
        "won": np.concatenate([p.won for p in parts]),
        "margin": np.concatenate([p.margin for p in parts]),
        "group": np.concatenate([np.full(len(p.seat), i, dtype=np.int32)
                                 for i, p in enumerate(parts)]),
        "table": np.full(len(x), table, dtype=np.int8),
        "p_row": np.concatenate([p.mover_row + o for p, o in zip(parts, offsets)]),
        "p_start": np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
        "p_action": np.concatenate([p.action for p in parts]),
        "p_visits": np.concatenate([p.visits for p in parts]),
        "p_prior": np.concatenate([p.prior for p in parts]),
    }
