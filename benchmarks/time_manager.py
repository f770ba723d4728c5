"""The time manager at equal time: `strong(think=X)` against `strong(millis=1000X)`, the figures
in docs/TIME_MANAGER.md.

    nice .venv/bin/python benchmarks/time_manager.py --game dragon --think 0.1 --deals 30

Each deal is played twice, the managed bot in each seat (2 players; seats rotated, the same deal
seed for both seatings). Prints the managed bot's wins with a 95% Wilson interval, both bots'
mean seconds per decision (all decisions, forced ones included, as each bot's own clock saw
them), and how the managed bot's decisions spread over the kinds the manager tells apart
(forced, clear, normal, close, out) with their mean seconds.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import time
from collections import defaultdict
from typing import Any

import engine
from ai.bots import make_bot
from ai.evaluate import MatchResult
from ai.match import play_game


class _Timed:
    """A bot whose decisions are timed (seconds and count)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.seconds, self.moves = bot, 0.0, 0

    def step(self, state: Any) -> int:
        start = time.perf_counter()
        action = self.bot.step(state)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action

    def restart(self) -> None:
        self.bot.restart()


def _play(job: tuple[str, int, str, str, int, int]) -> dict[str, Any]:
    game, players, managed, fixed, seat, seed = job
    state = engine.load_game(game, players=players).new_initial_state(seed)
    bots = [_Timed(make_bot(managed if i == seat else fixed)) for i in range(players)]
    result = play_game(state, bots, resample_seed=seed)
    others = [b for i, b in enumerate(bots) if i != seat]
    manager = bots[seat].bot.manager
    return {"win": result.returns[seat], "rank": result.ranks[seat],
            "a_seconds": bots[seat].seconds, "a_moves": bots[seat].moves,
            "b_seconds": sum(b.seconds for b in others), "b_moves": sum(b.moves for b in others),
            "bank": manager.bank, "left": manager.left,
            "kinds": [(d.kind, d.spent) for d in manager.log],
            "out_stages": [d.stage for d in manager.log if d.kind == "out"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="dragon")
    ap.add_argument("--think", type=float, default=0.1, help="seconds a decision on average")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7, help="seed of the deals")
    ap.add_argument("--fixed-millis", type=float, default=0.0,
                    help="the fixed bot's milliseconds a move (default: 1000 x --think)")
    args = ap.parse_args()
    managed = f"strong(think={args.think:g})"
    fixed = f"strong(millis={args.fixed_millis or args.think * 1000:g})"
    jobs = [(args.game, 2, managed, fixed, seat, args.seed * 100003 + d)
            for d in range(args.deals) for seat in range(2)]
    start = time.time()
    with mp.get_context("fork").Pool(args.workers) as pool:
        games = pool.map(_play, jobs, chunksize=1)
    n = len(games)
    r = MatchResult(n, sum(g["win"] for g in games), sum(g["rank"] for g in games) / n,
                    sum(g["a_seconds"] for g in games) / sum(g["a_moves"] for g in games))
    b_per_move = sum(g["b_seconds"] for g in games) / sum(g["b_moves"] for g in games)
    lo, hi = r.interval()
    print(f"{args.game}: {managed} vs {fixed}, {n} games ({args.deals} deals x 2 seats), "
          f"{(time.time() - start) / 60:.1f} min")
    print(f"  managed won {r.wins:g}/{n} = {r.win_rate:.1%} (95% {lo:.1%}-{hi:.1%}), "
          f"mean rank {r.mean_rank:.2f}")
    print(f"  s/decision: managed {r.seconds_per_move:.4f}, fixed {b_per_move:.4f}; "
          f"bank left at the end {sum(g['left'] for g in games) / n:.3f} s of "
          f"{sum(g['bank'] for g in games) / n:.3f} (mean); "
          f"overdrawn in {sum(g['left'] < 0 for g in games)} games, by at most "
          f"{max(0.0, -min(g['left'] for g in games)) * 1000:.1f} ms")
    outs = [o for g in games for o in g["out_stages"]]
    if outs:
        print(f"  out of bank (move prior, no search) at stages: "
              f"{sorted(set(f'{a + 1}/{b}' for a, b in outs if a is not None))}")
    kinds: dict[str, list[float]] = defaultdict(list)
    for g in games:
        for kind, spent in g["kinds"]:
            kinds[kind].append(spent)
    total = sum(len(v) for v in kinds.values())
    for kind in ("forced", "clear", "normal", "close", "out"):
        v = kinds.get(kind, [])
        if v:
            s = sorted(v)
            print(f"  {kind:6} {len(v):5} decisions ({len(v) / total:5.1%}), mean "
                  f"{sum(v) / len(v):.4f} s, median {s[len(s) // 2]:.4f}, max {s[-1]:.4f}, "
                  f"share of time {sum(v) / max(1e-9, sum(map(sum, kinds.values()))):.1%}")


if __name__ == "__main__":
    main()
