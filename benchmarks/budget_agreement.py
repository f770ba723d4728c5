"""How often searches at two budgets choose the same move, on one seat's views of real games.

Issue 49's 4x line (docs/STRENGTH.md): whether 4x the iterations changes a decision at all, and
how much of a search's choice is its own noise. Games are played by `--play` on every seat (each
given a view of its own seat, `resample_from_infostate`); at each of seat 0's decisions with a
choice, `--reps` searches at `--low` and at `--high` iterations (each its own seed, a fresh tree)
choose from that view. Printed: how often two searches at the same budget agree, how often one
at each budget agrees, and how often the budgets' most chosen moves differ.

    nice .venv/bin/python benchmarks/budget_agreement.py --games 2 --low 2500 --high 10000
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from ai.bots import make_bot  # noqa: E402


def choices(spec: str, play: str, players: int, games: int, seed: int, low: int, high: int,
            reps: int) -> list[tuple[list[int], list[int]]]:
    """For each of seat 0's decisions with a choice: the moves of `reps` searches of `spec` at
    `low` iterations, and of `reps` at `high`."""
    rows = []
    for deal in range(seed, seed + games):
        state = engine.load_game("mount-tai", players=players).new_initial_state(deal)
        bots = [make_bot(play) for _ in range(players)]
        views = random.Random(deal)
        while not state.is_terminal():
            seat = state.current_player()
            view = state.resample_from_infostate(seat, views.randrange(2**31))
            if seat == 0 and len(state.legal_actions()) > 1:
                rows.append(tuple(
                    [make_bot(spec, iterations=n, reuse=False, seed=k + 1)
                     .analyse(view.clone())["action"] for k in range(reps)]
                    for n in (low, high)))
            state.apply_action(bots[seat].step(view))
    return rows


def agreement(rows: list[tuple[list[int], list[int]]]) -> dict[str, float]:
    """The mean share of agreeing pairs within each budget and across the two, and the share of
    decisions whose most chosen moves differ."""
    def within(xs: list[int]) -> float:
        pairs = list(combinations(xs, 2))
        return sum(a == b for a, b in pairs) / len(pairs)

    def modal(xs: list[int]) -> int:
        return collections.Counter(xs).most_common(1)[0][0]

    n = len(rows)
    return {"low": sum(within(lo) for lo, _ in rows) / n,
            "high": sum(within(hi) for _, hi in rows) / n,
            "across": sum(sum(a == b for a in lo for b in hi) / (len(lo) * len(hi))
                          for lo, hi in rows) / n,
            "modal_differs": sum(modal(lo) != modal(hi) for lo, hi in rows) / n}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="strong", help="the searching bot (its budget, seed and a fresh tree set here)")
    parser.add_argument("--play", default="strong(iterations=1000)",
                        help="the bot that plays the games on every seat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100, help="the first deal")
    parser.add_argument("--low", type=int, default=2500, help="iterations of the short budget")
    parser.add_argument("--high", type=int, default=10000, help="iterations of the long budget")
    parser.add_argument("--reps", type=int, default=4, help="searches per budget and decision")
    args = parser.parse_args(argv)
    if args.reps < 2:
        parser.error("--reps must be at least 2 (agreement is between pairs of searches)")
    rows = choices(args.spec, args.play, args.players, args.games, args.seed, args.low,
                   args.high, args.reps)
    a = agreement(rows)
    print(f"{len(rows)} decisions of seat 0 of {args.players}, {args.reps} searches each: "
          f"two at {args.low:,} agree {a['low']:.3f}, two at {args.high:,} {a['high']:.3f}, "
          f"one of each {a['across']:.3f}; the most chosen moves differ in "
          f"{a['modal_differs']:.3f}")


if __name__ == "__main__":
    main()
