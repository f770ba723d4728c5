"""Strength of the search bots: the matches behind the figures in ai/STRONG.md.

    .venv/bin/python benchmarks/strength.py --game dragon --iterations 10000 --deals 25

Every match rotates the tested bot through every seat of each deal (the same deal seed for
each seating), and prints its wins with a 95% Wilson interval, the games played, its mean
finishing position and the time it took per move. `--only` picks matches by name. `--millis`
gives every search bot the same time a move instead (equal time), `--seed` another set of deals,
and `--model` a Mount Tai evaluation model file to load in place of the shipped one.

    .venv/bin/python benchmarks/strength.py --game mount-tai --millis 100 --deals 100 \
        --seed 11 --workers 1 --only strong-v1-2p
"""
from __future__ import annotations

import argparse
import time

from ai.evaluate import head_to_head
from ladder.cli.options import parse_game_options



def matches(iterations: int, strong: str, millis: float = 1000.0) -> dict[str, tuple[str, list[str]]]:
    it = iterations
    ms = millis  # the 1x time a move of the `strong-4x-time` matches
    # The strong bot before issue 14 at the same budget (ai/bots.py PREVIOUS_STRONG).
    v1 = strong.replace("strong", "strong-v1", 1)
    # Issue 14's first learned configuration (random playouts) at the same budget.
    v2 = strong.replace("strong", "strong-v2", 1)
    # Its second (heuristic playouts, the model before 2-player weights of their own).
    v3 = strong.replace("strong", "strong-v3", 1)
    # Its third (2-player weights of their own, before 2,000 more 2-player self-play games).
    v4 = strong.replace("strong", "strong-v4", 1)
    return {
        "strong-v1-2p": (strong, [v1]),
        "strong-v1-4p": (strong, [v1, v1, v1]),
        "strong-v2-2p": (strong, [v2]),
        "strong-v3-2p": (strong, [v3]),
        "strong-v4-2p": (strong, [v4]),
        "strong-4x-2p": (f"strong(iterations={4 * it})", [f"strong(iterations={it})"]),
        "strong-4x-4p": (f"strong(iterations={4 * it})", [f"strong(iterations={it})"] * 3),
        # 4x the time a move against 1x (--millis, default the default second)
        "strong-4x-time-2p": (f"strong(millis={4 * ms:g})", [f"strong(millis={ms:g})"]),
        "strong-4x-time-4p": (f"strong(millis={4 * ms:g})", [f"strong(millis={ms:g})"] * 3),
        # the same with the learned net's value at the cut-off (Mount Tai, ai/NET_MOUNT_TAI.md)
        "net-4x-2p": (f"strong(iterations={4 * it},evaluation=net)",
                      [f"strong(iterations={it},evaluation=net)"]),
        "strong-random-2p": (strong, ["random"]),
        "strong-heuristic-2p": (strong, ["heuristic"]),
        "strong-heuristic-3p": (strong, ["heuristic", "heuristic"]),
        "strong-heuristic-4p": (strong, ["heuristic", "heuristic", "heuristic"]),
        "ismcts-pimc-2p": (f"ismcts(iterations={it // 2},playout=heuristic,epsilon=0.2,seed=1)",
                           [f"pimc(iterations={it // 2},playout=heuristic,epsilon=0.2,"
                            "determinizations=10,seed=1)"]),
        "ismcts-pimc-random-playouts-2p": (f"ismcts(iterations={it // 2},seed=1)",
                                           [f"pimc(iterations={it // 2},determinizations=10,seed=1)"]),
        "ismcts-pimc-cutoff-2p": (f"ismcts(iterations={it // 2},playout=random,cutoff=6,c=0.35,"
                                  "seed=1)",
                                  [f"pimc(iterations={it // 2},playout=random,cutoff=6,c=0.35,"
                                   "determinizations=10,seed=1)"]),
        "heuristic-random-2p": ("heuristic", ["random"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="dragon")
    ap.add_argument("--iterations", type=int, default=10000,
                    help="the strong bot's iteration budget per move (0: its 1 s time budget)")
    ap.add_argument("--deals", type=int, default=25)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                    help="a game option (repeatable), e.g. -o optional_edict_effects=true")
    ap.add_argument("--only", nargs="*", help="match names to run")
    ap.add_argument("--millis", type=float, default=0.0,
                    help="time a move for strong and its earlier versions (instead of iterations)")
    ap.add_argument("--seed", type=int, default=7, help="seed of the deals")
    ap.add_argument("--model", help="Mount Tai: a learned evaluation model file to load first")
    args = ap.parse_args()
    options = parse_game_options(args.option)
    if args.model:
        from engine.mount_tai import learned
        learned.load_model(args.model)     # before the workers fork: they inherit it
    if args.millis:
        strong = f"strong(millis={args.millis:g})"
    else:
        strong = f"strong(iterations={args.iterations})" if args.iterations else "strong"
    table = matches(args.iterations or 20000, strong, args.millis or 1000.0)
    for name in args.only or list(table):
        a, others = table[name]
        start = time.time()
        r = head_to_head(args.game, a, others, args.deals, options=options,
                         workers=args.workers, seed=args.seed)
        share = 1 / (len(others) + 1)
        print(f"| {name} | {a} vs {', '.join(others)} | {r.games} | {r.win_rate:.1%} "
              f"({r.interval()[0]:.1%}-{r.interval()[1]:.1%}) | {share:.0%} | "
              f"{r.mean_rank:.2f} | {r.seconds_per_move * 1000:.0f} ms | "
              f"{(time.time() - start) / 60:.0f} min |", flush=True)


if __name__ == "__main__":
    main()
