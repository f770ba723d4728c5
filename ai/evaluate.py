"""Head-to-head strength measurement: bot A against bot(s) B with seats rotated.

A small, self-contained runner for tuning and for the strength figures (the ladder's tournaments
are the full-featured tool). Games are played in worker processes; each deal is played with A in
every seat, so seat advantage cancels out.
"""
from __future__ import annotations

import math
import multiprocessing as mp
from dataclasses import dataclass
from typing import Any

import engine
from ai.bots import make_bot
from ai.match import play_game


@dataclass
class MatchResult:
    games: int
    wins: float  # A's wins (a tie for first counts as a shared win)
    mean_rank: float
    seconds_per_move: float
    mean_score: float = 0.0  # A's mean final score (points, reputation)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of the win rate (95% by default)."""
        n, p = self.games, self.win_rate
        if n == 0:
            return (0.0, 1.0)
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        return (max(0.0, centre - half), min(1.0, centre + half))

    def __str__(self) -> str:
        lo, hi = self.interval()
        return (f"{self.wins:g}/{self.games} wins = {self.win_rate:.1%} "
                f"(95% CI {lo:.1%}-{hi:.1%}), mean rank {self.mean_rank:.2f}")


def _play(job: tuple[str, dict[str, Any], list[str], int, int]
          ) -> tuple[float, int, float, int, float]:
    import time

    name, options, specs, seat_a, seed = job
    state = engine.load_game(name, **options).new_initial_state(seed)
    bots = [make_bot(spec) for spec in specs]
    timing = {"a": 0.0, "n": 0}
    wrapped = bots[seat_a]

    class Timed:
        def step(self, st):
            t = time.perf_counter()
            a = wrapped.step(st)
            timing["a"] += time.perf_counter() - t
            timing["n"] += 1
            return a

        def restart(self):
            if hasattr(wrapped, "restart"):
                wrapped.restart()

    bots[seat_a] = Timed()
    result = play_game(state, bots, resample_seed=seed)
    return (result.returns[seat_a], result.ranks[seat_a], timing["a"], timing["n"],
            float(result.scores[seat_a]))


@dataclass
class GameResult:
    """One game of A's: the deal's seed, the seat A took, its share of the win (a solo game: 1
    if the goal was reached), its rank, its final score, and the seconds it spent on its moves
    and how many moves it made."""

    deal: int
    seat: int
    win: float
    rank: int
    score: float
    seconds: float
    moves: int

    @property
    def seconds_per_move(self) -> float:
        return self.seconds / max(1, self.moves)


def play_games(game: str, a: str, others: list[str], deals: int, options: dict | None = None,
               seed: int = 0, workers: int = 2, first: int = 0) -> list[GameResult]:
    """Every game of `head_to_head`, one result each, in deal order (deal d is dealt from
    `seed * 100003 + d`, d from `first`)."""
    options = dict(options or {})
    players = len(others) + 1
    options["players"] = players
    jobs = []
    for d in range(first, first + deals):
        for seat in range(players):
            specs = list(others)
            specs.insert(seat, a)
            jobs.append((game, options, specs, seat, seed * 100003 + d))
    with mp.get_context("fork").Pool(workers) as pool:
        results = pool.map(_play, jobs, chunksize=1)
    return [GameResult(job[4], job[3], r[0], r[1], r[4], r[2], r[3])
            for job, r in zip(jobs, results)]


def head_to_head(game: str, a: str, others: list[str], deals: int, options: dict | None = None,
                 seed: int = 0, workers: int = 2) -> MatchResult:
    """Bot spec `a` against the specs `others` (one per other seat) over `deals` deals, A taking
    every seat of each deal in turn."""
    return summarize(play_games(game, a, others, deals, options, seed, workers))


def summarize(games: list[GameResult]) -> MatchResult:
    """A's results over `games`, as a MatchResult (the time per move over all of A's moves)."""
    n = max(1, len(games))
    return MatchResult(len(games), sum(g.win for g in games), sum(g.rank for g in games) / n,
                       sum(g.seconds for g in games) / max(1, sum(g.moves for g in games)),
                       sum(g.score for g in games) / n)
