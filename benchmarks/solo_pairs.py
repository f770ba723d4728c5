"""Two bots on the same Mount Tai solo deals, compared deal by deal.

    PYTHONPATH=. .venv/bin/python benchmarks/solo_goals.py --bot strong-v7 --only 6 --seed 3 \\
        --games 20 --workers 1 --jsonl a.jsonl &
    PYTHONPATH=. .venv/bin/python benchmarks/solo_goals.py --bot strong --only 6 --seed 3 \\
        --games 20 --workers 1 --jsonl b.jsonl &
    wait; PYTHONPATH=. .venv/bin/python benchmarks/solo_pairs.py a.jsonl b.jsonl

Run the two `solo_goals.py` side by side (one worker each) so that both see the same machine
load. For each game the files share, one row per bot: the deals both played, the goals reached
with a 95% Wilson interval, the mean final reputation and the time per move; then the deals
only one of them reached (discordant pairs) with the two-sided exact sign test's p, and the
mean difference of final reputation (B - A) with its standard error.
"""
from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from typing import Any

from ladder.tournament.ratings import wilson


def load(path: str) -> dict[str, dict[int, dict[str, Any]]]:
    """{game: {deal: row}} from a `solo_goals.py --jsonl` file (a later row of a deal wins)."""
    out: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                out[row["game"]][int(row["deal"])] = row
    return out


def sign_test(only_a: int, only_b: int) -> float:
    """Two-sided exact sign test: the chance of a split at least this uneven of the discordant
    deals if both bots were equally likely to be the one that reached the goal."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def compare(a: dict[int, dict[str, Any]], b: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The paired comparison of one game's rows (see the module's docstring)."""
    deals = sorted(set(a) & set(b))
    n = len(deals)
    out: dict[str, Any] = {"deals": n}
    for name, rows in (("a", a), ("b", b)):
        goals = sum(rows[d]["reached"] for d in deals)
        out[name] = {"bot": rows[deals[0]]["bot"] if deals else "", "goals": goals,
                     "interval": wilson(int(goals), n),
                     "mean": sum(rows[d]["score"] for d in deals) / max(1, n),
                     "seconds_per_move": sum(rows[d]["seconds_per_move"] for d in deals)
                     / max(1, n)}
    out["only_a"] = sum(1 for d in deals if a[d]["reached"] and not b[d]["reached"])
    out["only_b"] = sum(1 for d in deals if b[d]["reached"] and not a[d]["reached"])
    out["p"] = sign_test(out["only_a"], out["only_b"])
    diffs = [b[d]["score"] - a[d]["score"] for d in deals]
    out["diff"] = sum(diffs) / max(1, n)
    out["diff_se"] = (math.sqrt(sum((x - out["diff"]) ** 2 for x in diffs) / (n - 1) / n)
                      if n > 1 else float("nan"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="the first bot's --jsonl file")
    ap.add_argument("b", help="the second bot's --jsonl file")
    args = ap.parse_args()
    a, b = load(args.a), load(args.b)
    print("| game | bot | deals | goal reached | 95% interval | mean reputation | time per move |")
    print("|---|---|---|---|---|---|---|")
    notes = []
    for game in sorted(set(a) & set(b)):
        c = compare(a[game], b[game])
        for name in ("a", "b"):
            r = c[name]
            lo, hi = r["interval"]
            share = r["goals"] / c["deals"] if c["deals"] else 0.0
            print(f"| {game} | {r['bot']} | {c['deals']} | {r['goals']:g} ({share:.0%}) | "
                  f"{lo:.0%}-{hi:.0%} | {r['mean']:.1f} | {r['seconds_per_move'] * 1000:.0f} ms |")
        notes.append(f"{game}: reached by the first only {c['only_a']}, by the second only "
                     f"{c['only_b']} (sign test p = {c['p']:.3f}); final reputation second - "
                     f"first {c['diff']:+.1f} (standard error {c['diff_se']:.1f})")
    print()
    for line in notes:
        print(line)


if __name__ == "__main__":
    main()
