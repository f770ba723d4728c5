"""How often a bot reaches the solo goal of Mount Tai: the plain solo game and each game of the
solo challenge, the yardstick the rulebook prints (reputation goals from 80 to 90).

    .venv/bin/python benchmarks/solo_goals.py --bot "strong(iterations=10000)" --games 20

Each row: the game, games played, goals reached with a 95% Wilson interval, the mean final
reputation and the bot's time per move. Game k of the challenge starts with the bonus the
rulebook carries into it (the carried talent or buildings), which the bot chooses at setup like
any other decision. `--seed` picks another set of deals (`--first D` starts at deal D), `--model`
loads a learned evaluation model file in place of the shipped one, `--option KEY=VALUE` sets a
game option (a fixed carried bonus, say), and `--jsonl FILE` appends one line per game (the
game, the bot, the deal's seed, goal reached, final reputation, seconds per move), for a paired
comparison of two bots on the same deals with benchmarks/solo_pairs.py.
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ai.evaluate import play_games, summarize


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bot", default="strong(iterations=10000)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", nargs="*", type=int, help="challenge games (0: plain solo)")
    ap.add_argument("--seed", type=int, default=3, help="seed of the deals")
    ap.add_argument("--first", type=int, default=0, help="the first deal (default 0)")
    ap.add_argument("--jsonl", help="append one JSON line per game to this file")
    ap.add_argument("--model", help="a learned evaluation model file to load first")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a game option for every game (repeatable), e.g. bonus_buildings=mint")
    args = ap.parse_args()
    if args.model:
        from engine.mount_tai import learned
        learned.load_model(args.model)     # before the workers fork: they inherit it
    extra = dict(o.split("=", 1) for o in args.option)
    print("| game | games | goal reached | 95% interval | mean reputation | time per move "
          "| minutes |")
    print("|---|---|---|---|---|---|---|")
    for k in args.only if args.only is not None else range(9):
        options: dict[str, Any] = {"solo": True} if k == 0 else {"challenge": k}
        options.update(extra)
        start = time.time()
        games = play_games("mount-tai", args.bot, [], args.games, options=options,
                           workers=args.workers, seed=args.seed, first=args.first)
        r = summarize(games)
        lo, hi = r.interval()
        name = "solo" if k == 0 else f"challenge {k}"
        if args.jsonl:
            with open(args.jsonl, "a", encoding="utf-8") as f:
                for g in games:
                    f.write(json.dumps({"game": name, "bot": args.bot, "deal": g.deal,
                                        "reached": g.win, "score": g.score,
                                        "seconds_per_move": round(g.seconds_per_move, 4)})
                            + "\n")
        print(f"| {name} | {r.games} | {r.wins:g} ({r.win_rate:.0%}) | {lo:.0%}-{hi:.0%} | "
              f"{r.mean_score:.1f} | "
              f"{r.seconds_per_move * 1000:.0f} ms | {(time.time() - start) / 60:.1f} |",
              flush=True)


if __name__ == "__main__":
    main()
