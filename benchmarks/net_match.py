"""The net's search options against today's `strong`, at equal iterations or equal time
(issue 38, item 1).

    nice .venv/bin/python benchmarks/net_match.py --iterations 2000 --deals 20 \
        --only "prior=net,puct=1.0" "evaluation=net"

Each line: `strong(iterations=N,CANDIDATE)` against `strong(iterations=N)` (with --millis:
the same at M ms a move), 2-player Mount Tai
unless -o says otherwise (with `-o players=N` the baseline takes the other N-1 seats), the
candidate taking every seat of every deal in turn (ai.evaluate's
head_to_head: wins with ties shared, 95% Wilson interval). The figures are in
ai/NET_MOUNT_TAI.md.
"""
from __future__ import annotations

import argparse

from ai.evaluate import head_to_head
from ladder.cli.options import parse_game_options

CANDIDATES = ["prior=net,puct=1.0", "evaluation=net", "evaluation=net,prior=net,puct=1.0"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="mount-tai")
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--millis", type=float, default=0.0,
                    help="equal time a move instead of equal iterations (0: use --iterations)")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline", default="strong", help="the bot spec name to play against")
    ap.add_argument("--option", "-o", action="append", default=["players=2"],
                    metavar="KEY=VALUE", help="a game option (repeatable; default players=2)")
    ap.add_argument("--only", nargs="*", help="candidate option strings to test instead")
    ap.add_argument("--net", help="the net model file the candidates use (default: the "
                                  "shipped net_model.json); the workers fork with it loaded")
    ap.add_argument("--model", help="the Dragon model file evaluation=learned uses (default: "
                                    "the shipped eval_model.json); the workers fork with it")
    args = ap.parse_args()
    if args.model and args.game != "dragon":
        ap.error("--model is Dragon's evaluation file (Mount Tai's net: --net)")
    if args.model:
        from engine.dragon.learned import load_model
        print(f"model: {load_model(args.model)}", flush=True)
    if args.net:
        from engine.mount_tai.net import load_net
        print(f"net: {load_net(args.net)['path']}", flush=True)
    options = parse_game_options(args.option)
    budget = f"millis={args.millis:g}" if args.millis else f"iterations={args.iterations}"
    base = f"{args.baseline}({budget})"
    seats = int(options.get("players", 2))
    if seats < 2:
        ap.error("a match needs 2 or more players (-o players=N)")
    for cand in args.only or CANDIDATES:
        spec = f"strong({budget},{cand})"
        r = head_to_head(args.game, spec, [base] * (seats - 1), args.deals, options=options,
                         workers=args.workers, seed=args.seed)
        print(f"{cand:40} vs {base}: {r}  ({r.seconds_per_move * 1000:.0f} ms/move)",
              flush=True)


if __name__ == "__main__":
    main()
