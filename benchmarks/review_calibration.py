"""Calibrate `tianti review` (issue 37): its estimated chance to win against the actual outcome,
and its accuracy figure against bots of known strength (the levels of `tianti play --level`).

    nice .venv/bin/python benchmarks/review_calibration.py --seed 1 --json /tmp/cal.json

1. Plays 2-player Dragon games of `strong` at a fixed iteration budget (`--strong-iterations`,
   default 2,000: level 6's bot, far cheaper than its 1 s a move) against each level of
   `--levels` (default 1, 3 and 5 of ai/levels.py), `--deals` deals per level at both
   seatings (duplicate games), with `tianti tournament run` into a fresh SQLite store under
   /tmp (`--db`); `--reuse` takes the games of an existing store instead.
2. Reviews every game for both seats with ladder/review (reviewer `strong` at
   `--review-iterations` a decision, default 1,000, seeded: the same every run), `--workers`
   reviews at a time.
3. Prints (80 columns) the reliability table of every reviewed decision's estimated chance to
   win "before" the decision against the fraction of those decisions whose seat won, in 10
   bins, with the Brier score; and each level's mean game accuracy (decisions while the game
   was open, ladder/review/verdict.py) with a 95% interval over its games against strong,
   strong's over its games against the highest level, checking that it orders the levels as
   `tianti play --level` does and saying which neighbours' intervals are apart. `--json FILE`
   writes everything, every decision's estimates included. Exit status 1 when the ordering
   does not hold.

`--rescore FILE...` plays and searches nothing: it pools earlier `--json` files and prints the
same tables with the accuracy recomputed from their stored estimates by the current rule.

The arithmetic is ladder/review/calibration.py; this script only plays, reviews and prints.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ai.levels import levels_for  # noqa: E402
from engine.core.state import State  # noqa: E402
from ladder.review import Settings, review_game  # noqa: E402
from ladder.review.calibration import (accuracy_by_player, brier, brier_reference,  # noqa: E402
                                       calibration_error, decision_points, ordered,
                                       pair_table_text, reliability, table_text)
from ladder.review.verdict import decision_weight, drop_points, game_accuracy  # noqa: E402
from ladder.tournament.store import Store  # noqa: E402

STRONG = "S"   # the bot name of `strong` in the store


def tianti(*args: str) -> Any:
    """Run this checkout's `tianti` command line with --json and return its answer."""
    cmd = [sys.executable, "-m", "ladder.cli", *args, "--json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise SystemExit(f"failed ({out.returncode}): {' '.join(cmd)}")
    return json.loads(out.stdout)


def review_seat(record: dict[str, Any], seat: int, iterations: int, seed: int
                ) -> dict[str, Any]:
    """One seat's review of a stored game (what a worker process runs), as plain numbers."""
    start = State.from_record(dict(record, actions=[]))
    actions = State.from_record(record).history()
    r = review_game(start, actions, seat, Settings(reviewer="strong", iterations=iterations,
                                                   seed=seed))
    return {"seat": seat, "accuracy": r.accuracy, "outcome": r.outcome,
            "before": [d.before for d in r.decisions], "counts": r.counts(),
            "decisions": len(r.decisions), "skipped": r.skipped,
            "open": sum(1 for d in r.decisions if d.weight > 0),
            "compared": sum(1 for d in r.decisions if d.pairs),
            "seconds": r.seconds, "points": decision_points(r),
            # Per decision: before, after, the best's visits, the comparison's pairs, the
            # number of choices and the search's top root moves as (visits, mean): enough to
            # recompute any accuracy rule from the stored estimates without searching again.
            "steps": [[d.before, d.after, d.best_visits, d.pairs, d.choices,
                       [[t["visits"], t["mean"]] for t in d.top]] for d in r.decisions]}


def rescored(row: dict[str, Any]) -> dict[str, Any]:
    """A review row of an earlier `--json` file with its accuracy and points recomputed from
    its stored estimates (`steps`) by the current rule: no search."""
    steps = row.get("steps")
    if steps is None:
        raise SystemExit("--rescore needs a --json file written with every decision's "
                         "estimates (its reviews have no 'steps')")
    drops = [drop_points(b, a) for b, a, *_ in steps]
    weights = [decision_weight(b, a) for b, a, *_ in steps]
    return dict(row, accuracy=game_accuracy(drops, weights),
                open=sum(1 for w in weights if w > 0),
                points=[(b, row["outcome"]) for b, *_ in steps])


def report(results: list[dict[str, Any]], meta: dict[str, Any], names: dict[str, str],
           numbers: list[int], timings: dict[str, float], out: Path | None) -> int:
    """Print the tables (80 columns) and write the --json file; 0 when the ordering holds."""
    points = [tuple(p) for r in results for p in r["points"]]
    bins = reliability(points)
    score, ref = brier(points), brier_reference(points)
    ece = calibration_error(bins)
    # The same table split by who decided: strong, or the level it played.
    groups = {g: [tuple(p) for r in results if (r["bot"] == STRONG) == (g == STRONG)
                  for p in r["points"]] for g in (STRONG, "levels")}
    split = {g: reliability(pts) for g, pts in groups.items() if pts}
    split_brier = {g: brier(pts) for g, pts in groups.items() if pts}
    acc = accuracy_by_player((r["bot"], r["accuracy"]) for r in results)
    by_pair = accuracy_by_player((f"{r['bot']} vs {r['opponent']}", r["accuracy"])
                                 for r in results)
    # Every level is measured in its games against strong; strong itself in its games against
    # the strongest level played (the same games as that level's figure). Its figure over all
    # its games mixes in the games a weak level lost early, where strong's open decisions are
    # only the opening's, the hardest to judge (docs/review.md).
    highest = f"L{max(numbers)}"
    ranked = {STRONG: by_pair[f"{STRONG} vs {highest}"]}
    ranked.update({f"L{n}": acc[f"L{n}"] for n in numbers})
    order = [STRONG] + [f"L{n}" for n in sorted(numbers, reverse=True)]
    holds, clearly = ordered(ranked, order)
    reviews = len(results)
    decisions = sum(r["decisions"] for r in results)
    open_ = sum(r.get("open", 0) for r in results)

    print(f"tianti review calibration: {meta['games']} Dragon games (2 players), seed "
          f"{meta['seed']},")
    print(f"store {meta['db']};")
    print(f"strong at {meta['strong_iterations']:,} iterations a move against levels "
          f"{', '.join(map(str, numbers))}, both seatings;")
    print(f"reviewer strong at {meta['review_iterations']:,} iterations a decision;")
    print(f"{reviews} seats, {decisions:,} decisions reviewed, {open_:,} while the game was "
          "open.")
    print()
    print("Estimated chance to win before each decision against the seat's result:")
    for line in table_text(bins):
        print(line)
    print(f"  Brier score {score:.4f} (always the base rate: {ref:.4f}); "
          f"calibration error {100 * ece:.1f} pts")
    if len(split) == 2:
        print()
        print("The same, by who decided (Brier score "
              f"{split_brier[STRONG]:.4f} for strong, {split_brier['levels']:.4f} for the levels):")
        for line in pair_table_text(split[STRONG], split["levels"],
                                    ("strong's decisions", "the levels' decisions")):
            print(line)
    print()
    print("Mean game accuracy (decisions while the game was open) with its 95% interval")
    print("over games; each level against strong, strong against the highest level:")
    for name in order:
        s = ranked[name]
        print(f"  {names[name]:38} {s.mean:5.1f}%  ({s.low:5.1f}-{s.high:5.1f}), "
              f"{s.games} games")
    for name in sorted(by_pair):
        s = by_pair[name]
        print(f"    {name:36} {s.mean:5.1f}%  ({s.low:5.1f}-{s.high:5.1f}), {s.games} games")
    s = acc[STRONG]
    print(f"    {'S, all its games':36} {s.mean:5.1f}%  ({s.low:5.1f}-{s.high:5.1f}), "
          f"{s.games} games")
    steps = []
    for hi, lo in zip(order, order[1:]):
        a, b = ranked[hi], ranked[lo]
        word = ("apart" if a.low > b.high else "overlap") if a.mean > b.mean else "NOT above"
        steps.append(f"{names[hi].split()[1]} > {names[lo].split()[1]} {word}")
    verdict = ("holds, clearly (95% intervals apart)" if clearly else "holds" if holds
               else "does NOT hold")
    print(f"Ordering of the levels {verdict}: {'; '.join(steps)}.")
    if timings:
        print(f"Time: {timings.get('play_seconds', 0) / 60:.1f} min playing, "
              f"{timings['review_seconds'] / 60:.1f} min reviewing, "
              f"{timings['wall_seconds'] / 60:.1f} min in all ({meta['workers']} workers).")

    if out:
        data = {**meta, "levels": numbers, "names": names,
                "reliability": [b.to_dict() for b in bins], "brier": score,
                "brier_reference": ref, "calibration_error": ece,
                "reliability_by_decider": {g: [b.to_dict() for b in t]
                                           for g, t in split.items()},
                "brier_by_decider": split_brier,
                "accuracy": {k: v.to_dict() for k, v in acc.items()},
                "accuracy_by_pair": {k: v.to_dict() for k, v in by_pair.items()},
                "accuracy_ranked": {k: v.to_dict() for k, v in ranked.items()},
                "order": order, "ordering_holds": holds, "ordering_clear": clearly,
                "timings": timings, "decisions": decisions, "open_decisions": open_,
                "reviews": [{k: v for k, v in r.items() if k != "points"} for r in results]}
        out.write_text(json.dumps(data, indent=1))
    return 0 if holds else 1


def rescore(files: list[Path], out: Path | None) -> int:
    """The report of earlier `--json` files (pooled) by the current accuracy rule."""
    results: list[dict[str, Any]] = []
    metas = []
    for k, path in enumerate(files):
        data = json.loads(path.read_text())
        metas.append(data)
        for row in data["reviews"]:
            results.append(rescored(dict(row, game=f"{k}:{row['game']}")))
    first = metas[0]
    for m in metas[1:]:
        if (m["strong_iterations"], m["review_iterations"]) != \
                (first["strong_iterations"], first["review_iterations"]):
            raise SystemExit("--rescore: the files' budgets differ")
    numbers = sorted({n for m in metas for n in m["levels"]})
    names = {k: v for m in metas for k, v in m["names"].items()}
    meta = {"seed": ", ".join(str(m["seed"]) for m in metas),
            "db": ", ".join(m["db"] for m in metas),
            "games": sum(m["games"] for m in metas),
            "strong_iterations": first["strong_iterations"],
            "review_iterations": first["review_iterations"], "workers": first["workers"],
            "rescored": [str(f) for f in files]}
    return report(results, meta, names, numbers, {}, out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1, help="seed of the games and the reviews")
    ap.add_argument("--levels", default="1,3,5",
                    help="the Dragon levels strong plays, comma-separated (default 1,3,5)")
    ap.add_argument("--deals", type=int, default=34,
                    help="deals per level, each at both seatings (default 34: 204 games)")
    ap.add_argument("--strong-iterations", type=int, default=2000,
                    help="strong's iteration budget a move in the games (default 2000)")
    ap.add_argument("--review-iterations", type=int, default=1000,
                    help="the reviewer's iteration budget a decision (default 1000)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--db", type=Path, help="the store (default: "
                    "/tmp/tianti-review-calibration-SEED.sqlite)")
    ap.add_argument("--overwrite", action="store_true",
                    help="delete the store first if it exists")
    ap.add_argument("--reuse", action="store_true",
                    help="review the games already in --db instead of playing new ones")
    ap.add_argument("--rescore", type=Path, nargs="+", metavar="JSON",
                    help="no games, no search: recompute the accuracy of earlier --json files "
                         "(pooled) from their stored estimates by the current rule")
    ap.add_argument("--json", type=Path, help="write everything to this file")
    args = ap.parse_args()
    if args.rescore:
        missing = [str(f) for f in args.rescore if not f.exists()]
        if missing:
            ap.error(f"--rescore: no such file {', '.join(missing)}")
        return rescore(args.rescore, args.json)

    try:
        numbers = sorted({int(x) for x in args.levels.split(",") if x.strip()})
    except ValueError:
        ap.error(f"--levels must be numbers separated by commas, got {args.levels!r}")
    table = {lv.number: lv for lv in levels_for("dragon")}
    top = max(table)
    bad = [n for n in numbers if n not in table or n == top]
    if bad or not numbers:
        ap.error(f"--levels must be among 1..{top - 1} (level {top} is strong itself)")
    if min(args.deals, args.strong_iterations, args.review_iterations, args.workers) < 1:
        ap.error("--deals, --strong-iterations, --review-iterations and --workers must be >= 1")
    db = args.db or Path(f"/tmp/tianti-review-calibration-{args.seed}.sqlite")
    names = {STRONG: f"level {top} (strong, {args.strong_iterations:,} iterations)"}
    names.update({f"L{n}": table[n].label for n in numbers})

    began = time.time()
    timings: dict[str, float] = {}
    if not args.reuse:
        if db.exists():
            if not args.overwrite:
                ap.error(f"{db} exists: give --overwrite to replace it, --reuse to review its "
                         "games, or another --db")
            for suffix in ("", "-wal", "-shm"):
                Path(str(db) + suffix).unlink(missing_ok=True)
        for n in numbers:
            t = time.time()
            s = tianti("tournament", "run", "--db", str(db), "--game", "dragon", "--players",
                       "2", "--bot", f"{STRONG}=strong(iterations={args.strong_iterations})",
                       "--bot", f"L{n}={table[n].spec}", "--deals", str(args.deals),
                       "--seed", str(args.seed * 1000 + n), "--workers", str(args.workers),
                       "--move-timeout", "0", "--label", f"review calibration vs L{n}")
            print(f"run {s['run']}: strong vs L{n}: {s['pair']['wins']}/{s['pair']['games']} "
                  f"wins, {time.time() - t:.0f} s", file=sys.stderr, flush=True)
        timings["play_seconds"] = time.time() - began
    elif not db.exists():
        ap.error(f"--reuse: there is no store {db}")

    with Store(db, create=False) as store:
        games = [g for g in store.games() if g.game == "dragon" and g.players == 2]
    if not games:
        ap.error(f"no 2-player Dragon games in {db}")
    jobs = [(g, seat) for g in games for seat in (0, 1)]
    t = time.time()
    results: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = {pool.submit(review_seat, g.record(), seat, args.review_iterations,
                               args.seed): (g, seat) for g, seat in jobs}
        for k, future in enumerate(as_completed(futures), start=1):
            g, seat = futures[future]
            row = future.result()
            bots = [s["bot"] for s in sorted(g.seats, key=lambda s: s["seat"])]
            row.update(game=g.id, run=g.run_id, bot=bots[seat], opponent=bots[1 - seat])
            results.append(row)
            if k % 50 == 0 or k == len(jobs):
                print(f"reviewed {k}/{len(jobs)} seats, {time.time() - t:.0f} s",
                      file=sys.stderr, flush=True)
    timings["review_seconds"] = time.time() - t
    timings["wall_seconds"] = time.time() - began
    results.sort(key=lambda r: (r["game"], r["seat"]))

    meta = {"seed": args.seed, "db": str(db), "games": len(games),
            "strong_iterations": args.strong_iterations,
            "review_iterations": args.review_iterations, "workers": args.workers}
    return report(results, meta, names, numbers, timings, args.json)


if __name__ == "__main__":
    sys.exit(main())
