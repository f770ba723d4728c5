"""Tuning the `strong` bot: each candidate configuration against a baseline, at equal time.

    .venv/bin/python benchmarks/tune_strong.py --game dragon --millis 50 --deals 40

Each line: candidate vs baseline, 2 players, both seats of every deal, win rate with its 95%
interval. Time per move is the lever that matters to users, so candidates get equal time.
"""
from __future__ import annotations

import argparse

from ai.evaluate import head_to_head
from ladder.cli.options import parse_game_options

CANDIDATES = [
    "playout=random",
    "playout=heuristic,epsilon=0.2",
    "playout=heuristic,epsilon=0.2,cutoff=20",
    "playout=mast,epsilon=0.1",
    "playout=heuristic,epsilon=0.2,reward=margin",
    "playout=heuristic,epsilon=0.2,c=0.4",
    "playout=heuristic,epsilon=0.2,c=1.0",
    "playout=heuristic,epsilon=0.2,bias=1.0",
    "playout=heuristic,epsilon=0.05",
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="dragon")
    ap.add_argument("--millis", type=float, default=50)
    ap.add_argument("--iterations", type=int, default=0,
                    help="equal iterations a move instead of equal time (0: use --millis)")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--baseline", default="playout=random")
    ap.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                    help="a game option (repeatable), e.g. -o optional_edict_effects=true")
    ap.add_argument("--only", nargs="*", help="candidate option strings to test instead")
    args = ap.parse_args()
    options = parse_game_options(args.option)
    budget = f"iterations={args.iterations}" if args.iterations else f"millis={args.millis}"
    base = f"ismcts({budget},{args.baseline})"
    for cand in args.only or CANDIDATES:
        spec = f"ismcts({budget},{cand})"
        r = head_to_head(args.game, spec, [base], args.deals, options=options,
                         workers=args.workers, seed=1)
        print(f"{cand:48} vs {args.baseline}: {r}  ({r.seconds_per_move * 1000:.0f} ms/move)",
              flush=True)


if __name__ == "__main__":
    main()
