"""Is a review's verdict real? Play the decision out.

The review (`tianti review`) estimates what a choice cost with searches. This plays the two
choices of one reviewed decision to the end instead: from N worlds drawn from the reviewed
seat's information at that decision (`State.resample_from_infostate`, the seat's view only),
the review's best choice and the choice made are each applied and the game is finished with
real bots at every seat (`--bot`, each seeing only its own seat's views through the referee),
the same bot seeds and view seeds for both choices (common random numbers). It prints the win
rate after each choice and the paired difference with its 95% margin, and how often the bot
picks each choice when it searches the seat's view afresh (`--picks` seeds).

    nice .venv/bin/python benchmarks/review_playout.py --db /tmp/review2/strong2.db --game 1 \\
        --seat 1 --decision 33 --review new-g1-s1.json --worlds 60 \\
        --bot "strong-v8(iterations=20000)" --picks 8

`--review` is the review's `--json` output for that seat (it names the best choice); the
decision is numbered as the review numbers them (1..N, the seat's decisions with a choice).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.bots import make_bot  # noqa: E402
from ai.match import play_game  # noqa: E402
from ladder.review import sources  # noqa: E402
from ladder.review.analysis import decisions  # noqa: E402
from ladder.tournament.store import Store  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="the tournament store holding the game")
    ap.add_argument("--run", type=int, default=1)
    ap.add_argument("--game", type=int, required=True)
    ap.add_argument("--seat", type=int, required=True)
    ap.add_argument("--decision", type=int, required=True, help="the review's decision number")
    ap.add_argument("--review", required=True, help="the review's --json output for the seat")
    ap.add_argument("--worlds", type=int, default=60)
    ap.add_argument("--bot", default="strong(iterations=20000)", help="plays every seat after")
    ap.add_argument("--picks", type=int, default=0, help="fresh searches of the seat's view")
    args = ap.parse_args(argv)

    src = sources.from_store(Store(args.db), args.run, args.game, args.seat)
    job = decisions(src.start, src.actions, args.seat, 0)[args.decision - 1]
    entry = next(d for d in json.loads(Path(args.review).read_text())["decisions"]
                 if d["index"] == args.decision)
    best, made = entry["best"], job.made
    print(f"decision {args.decision} (move {job.move}): the review's difference "
          f"{entry['diff']:+.1f} ± {entry['margin']:.1f} points; best {best}, made {made}")
    if args.picks:
        picks: dict[int, int] = {}
        for k in range(args.picks):
            view = job.view.resample_from_infostate(args.seat, 777 + k)
            action = make_bot(args.bot, seed=5000 + k).step(view)
            picks[action] = picks.get(action, 0) + 1
        print(f"{args.bot} from fresh views of the seat: {picks}")
    diffs: list[float] = []
    won = {best: 0.0, made: 0.0}
    for k in range(args.worlds):
        world = job.view.resample_from_infostate(args.seat, 90000 + k)
        result = {}
        for action in (best, made):
            state = world.clone()
            state.apply_action(action)
            bots = [make_bot(args.bot, seed=1000 * k + i) for i in range(state.num_players())]
            play_game(state, bots, resample_seed=k, trusted=True)
            result[action] = float(state.returns()[args.seat])
            won[action] += result[action]
        diffs.append(result[best] - result[made])
    n = len(diffs)
    mean = sum(diffs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(1, n - 1) / n)
    print(f"{n} worlds: after the best {won[best] / n:.1%}, after the made {won[made] / n:.1%}; "
          f"difference {100 * mean:+.1f} ± {196 * se:.1f} points (95%)")


if __name__ == "__main__":
    main()
