"""Calibrate the difficulty levels of `tianti play --level N` (ai/levels.py): the tables in
docs/LEVELS.md.

    nice .venv/bin/python benchmarks/calibrate_levels.py --game dragon --seed 1

Each level plays the level below it (level 1 plays `random`, an anchor that is not a level) in a
2-player `tianti tournament run`: every deal is played at both seatings with the same seed
(duplicate games), in one fresh SQLite store. All the games then make one TrueSkill ladder
(`tianti ladder show`). The table gives, per level: its bot, its time a move, its TrueSkill
mu with a 95% interval (mu +- 1.96 sigma), and its games, wins (95% Wilson interval) and Elo
difference (95% interval) against the level below. The last lines say whether every level is
clearly above the one below (the 95% interval of its win rate against it lies wholly above
50%, so the two levels' strengths do not overlap) and whether TrueSkill orders them the same
way. The exit status is 1 when some level is not clearly above the one below.

The separation is read from the pairwise intervals, not from TrueSkill's mu +- 1.96 sigma:
the ladder's mu and sigma are fitted on all the games at once (their order does not matter),
but two levels' posteriors are correlated through the games between them, which
mu +- 1.96 sigma taken one level at a time ignores; mu still orders the levels.

The top level is the `strong` bot, about 1 s a move: expensive, and not reproducible (a time
budget buys a different number of iterations on every run). It is calibrated at a fixed
iteration budget (`--top-iterations`; by default 20,000 in Dragon, 10,000 in Mount Tai: fewer
than its second buys on this project's loaded 2-core machine), so its measured margin over the
level below is a lower bound; `--top-iterations 0` plays it as shipped. With
iteration budgets every game is reproducible from `--seed` (the bots' seeds derive from the
deal and the bot's name). Times a move are measured on the machine as loaded when it runs.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ai.levels import Level, levels_for  # noqa: E402

ANCHOR = ("random", "random")  # the bot below level 1: (name, spec)
Z95 = 1.96

# The top level's (`strong`) iteration budget in the calibration, per game: fewer than its
# second buys on this machine even when loaded (Dragon: 24,000 from the opening, up to 95,000
# later; Mount Tai: about 150,000 from the opening on an idle core, ai/STRONG_MOUNT_TAI.md).
TOP_ITERATIONS: dict[str, int] = {"dragon": 20000, "mount-tai": 10000}

# Deals per pair (level 1 vs the anchor first, then each level vs the one below), sized for
# this machine: hundreds of games where a game takes milliseconds, tens where it takes minutes.
DEFAULT_DEALS: dict[str, list[int]] = {
    "dragon": [100, 100, 100, 60, 100, 30],
    "mount-tai": [100, 100, 100, 40],
}


def tianti(*args: str) -> Any:
    """Run the `tianti` command line (this checkout's) with --json and return its answer."""
    cmd = [sys.executable, "-m", "ladder.cli", *args, "--json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise SystemExit(f"failed ({out.returncode}): {' '.join(cmd)}")
    return json.loads(out.stdout)


def calibration_spec(level: Level, top: bool, top_iterations: int) -> str:
    """The spec a level plays in the calibration: its own, but the top level (`strong`) at an
    iteration budget when `top_iterations` is set."""
    if top and level.spec == "strong" and top_iterations:
        return f"strong(iterations={top_iterations})"
    return level.spec


def elo_text(pair: dict[str, Any]) -> str:
    """The Elo difference with its 95% interval ("+inf" when one side won every game)."""
    def show(x: float | None, inf: str) -> str:
        return inf if x is None else f"{round(x) + 0:+d}"
    if pair["elo"] is None:  # one side won every game: the estimate is infinite
        if pair["score"] < 0.5:
            return "-inf"
        return "+inf" if pair["elo_low"] is None else f"+inf (at least {show(pair['elo_low'], '')})"
    return (f"{pair['elo']:+.0f} ({show(pair['elo_low'], '-inf')} to "
            f"{show(pair['elo_high'], '+inf')})")


def ms_text(ms: float) -> str:
    return "< 0.1 ms" if ms < 0.1 else f"{ms:.1f} ms" if ms < 10 else f"{ms:,.0f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="dragon")
    ap.add_argument("--seed", type=int, default=1, help="the seed every run derives from")
    ap.add_argument("--deals", type=lambda s: [int(x) for x in s.split(",")],
                    help="deals per pair, comma-separated, level 1 vs random first (each deal "
                    "is 2 games); default: per game, see DEFAULT_DEALS")
    ap.add_argument("--top-iterations", type=int,
                    help="the top level's iteration budget in the calibration (0: its 1 s; "
                    "default: per game, see TOP_ITERATIONS)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--db", type=Path, help="the store to create (default: "
                    "/tmp/tianti-levels-GAME-SEED.sqlite)")
    ap.add_argument("--overwrite", action="store_true", help="delete the store first if it "
                    "exists (otherwise an existing store is an error: its games would count)")
    args = ap.parse_args()

    levels = levels_for(args.game)
    if args.top_iterations is None:
        args.top_iterations = TOP_ITERATIONS.get(args.game, 20000)
    deals = args.deals or DEFAULT_DEALS.get(args.game, [50] * len(levels))
    if len(deals) != len(levels):
        ap.error(f"--deals needs {len(levels)} numbers for {args.game}'s {len(levels)} levels")
    db = args.db or Path(f"/tmp/tianti-levels-{args.game}-{args.seed}.sqlite")
    if db.exists():
        if not args.overwrite:
            ap.error(f"{db} exists: give --overwrite to replace it, or another --db")
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)

    start = time.time()
    names = [ANCHOR[0]] + [f"L{lv.number}" for lv in levels]
    specs = [ANCHOR[1]] + [calibration_spec(lv, lv is levels[-1], args.top_iterations)
                           for lv in levels]
    pairs: list[dict[str, Any]] = []
    for k, lv in enumerate(levels, start=1):
        t = time.time()
        summary = tianti("tournament", "run", "--db", str(db), "--game", args.game,
                         "--players", "2", "--bot", f"{names[k]}={specs[k]}",
                         "--bot", f"{names[k - 1]}={specs[k - 1]}", "--deals", str(deals[k - 1]),
                         "--seed", str(args.seed * 1000 + k), "--workers", str(args.workers),
                         "--move-timeout", "0", "--label", f"levels {names[k]} vs {names[k - 1]}")
        shown = tianti("tournament", "show", str(summary["run"]), "--db", str(db))
        row = next(r for r in summary["ladder"]["rows"] if r["bot"] == names[k])
        ms = next(r["ms_per_move"] for r in shown["standings"] if r["bot"] == names[k])
        pairs.append({"row": row, "pair": summary["pair"], "ms": ms, "run": summary["run"],
                      "minutes": (time.time() - t) / 60})
        print(f"run {summary['run']}: {names[k]} vs {names[k - 1]}: {row['wins']}/{row['games']}"
              f" wins ({100 * row['win_low']:.1f}-{100 * row['win_high']:.1f}%), "
              f"{ms_text(ms)} a move, {pairs[-1]['minutes']:.1f} min", file=sys.stderr,
              flush=True)

    pool = tianti("ladder", "show", "--db", str(db), "--game", args.game, "--players", "2")[0]
    rating = {r["bot"]: r for r in pool["rows"]}

    def interval(name: str) -> tuple[float, float]:
        r = rating[name]
        return r["mu"] - Z95 * r["sigma"], r["mu"] + Z95 * r["sigma"]

    top_note = (f" (calibrated as strong(iterations={args.top_iterations}))"
                if levels[-1].spec == "strong" and args.top_iterations else "")
    print(f"{args.game}, 2 players, seed {args.seed}, store {db}, "
          f"{(time.time() - start) / 60:.0f} min")
    print()
    print("| level | bot | time a move | TrueSkill mu (95%) | games vs level below | "
          "wins vs level below (95%) | Elo vs level below (95%) |")
    print("|---|---|---|---|---|---|---|")
    a_lo, a_hi = interval(ANCHOR[0])
    print(f"| (random) | random | {ms_text(0)} | {rating[ANCHOR[0]]['mu']:.1f} "
          f"({a_lo:.1f}-{a_hi:.1f}) | | | |")
    separated = rising = True
    verdicts = []
    for k, (lv, p) in enumerate(zip(levels, pairs), start=1):
        row, pair = p["row"], p["pair"]
        lo, hi = interval(names[k])
        apart = row["win_low"] > 0.5  # the interval of the step lies above parity
        rising &= rating[names[k]]["mu"] > rating[names[k - 1]]["mu"]
        separated &= apart
        spec = lv.spec + (top_note if lv is levels[-1] else "")
        time_text = ms_text(p["ms"]) + (" (1 s as played)" if top_note and lv is levels[-1]
                                        else "")
        print(f"| {lv.number} {lv.name} | `{spec}` | {time_text} | "
              f"{rating[names[k]]['mu']:.1f} ({lo:.1f}-{hi:.1f}) | {row['games']} | "
              f"{100 * row['win_rate']:.1f}% ({100 * row['win_low']:.1f}-"
              f"{100 * row['win_high']:.1f}%) | {elo_text(pair)} |")
        verdicts.append(f"level {lv.number} above {'level ' + str(k - 1) if k > 1 else 'random'}: "
                        f"wins at least {100 * row['win_low']:.1f}% (95%): "
                        f"{'yes' if apart else 'NOT SHOWN'}")
    print()
    for v in verdicts:
        print(v)
    print("TrueSkill mu rises with every level: " + ("yes" if rising else "NO"))
    print("every level clearly above the one below (its win interval above 50%): "
          + ("yes" if separated else "NO"))
    return 0 if separated else 1


if __name__ == "__main__":
    raise SystemExit(main())
