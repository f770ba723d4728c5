"""How much of a search's root a kept tree holds: one game, seat 0's searches read.

A search that keeps its tree (`reuse`) starts each decision from the node the game reached, with
the visits earlier searches left there. At a 4-player Mount Tai table `strong` models the others
(`opponents=policy`), so that node was reached through every reply of theirs the policy drew,
most of which the game did not play (issue 49, docs/STRENGTH.md "A fresh tree each decision").
This plays one game, seat 0 played by `--a` and the other seats by `--others`, every bot given a
view of its own seat (`resample_from_infostate`), and prints, over seat 0's decisions with a
choice, how many continued a kept tree and the root's visits as a multiple of the search's own
iterations (median and largest).

    nice .venv/bin/python benchmarks/kept_tree.py --a "strong(iterations=10000)" \\
        --others "strong(iterations=2500)" --players 4 --seed 7
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from ai.bots import make_bot  # noqa: E402


def kept_tree_shares(a: str, others: str, players: int, seed: int) -> list[dict[str, Any]]:
    """Seat 0's searches with a choice in one game: whether each continued a kept tree, its own
    iterations and its root's visits (every seat searching a view of its own seat)."""
    state = engine.load_game("mount-tai", players=players).new_initial_state(seed)
    bots = [make_bot(a)] + [make_bot(others) for _ in range(players - 1)]
    views = random.Random(seed)
    rows = []
    while not state.is_terminal():
        seat = state.current_player()
        view = state.resample_from_infostate(seat, views.randrange(2**31))
        if seat == 0 and len(state.legal_actions()) > 1:
            result = bots[0].analyse(view)
            rows.append({"reused": bool(result["reused"]), "iterations": result["iterations"],
                         "root": sum(r["visits"] for r in result["root"])})
            action = result["action"]
        else:
            action = bots[seat].step(view)
        state.apply_action(action)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="strong(iterations=10000)", help="seat 0's bot spec")
    parser.add_argument("--others", default="strong(iterations=2500)",
                        help="the other seats' bot spec")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7, help="the deal")
    args = parser.parse_args(argv)
    rows = kept_tree_shares(args.a, args.others, args.players, args.seed)
    ratios = [r["root"] / r["iterations"] for r in rows if r["iterations"]]
    print(f"{args.a}, seat 0 of {args.players} (deal {args.seed}): {len(rows)} decisions with a "
          f"choice, {sum(r['reused'] for r in rows)} continued a kept tree; root visits / own "
          f"iterations median {statistics.median(ratios):.2f}, largest {max(ratios):.2f}")


if __name__ == "__main__":
    main()
