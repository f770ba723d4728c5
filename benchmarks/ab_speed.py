"""A/B speed of two checkouts of tianti, measured in one run: `tianti bench playouts` and
`tianti bench search` alternated between the two builds, so that the machine's load falls on
both alike; prints each figure and the ratio B/A (the median of the rounds).

    .venv/bin/python benchmarks/ab_speed.py --a /path/to/old/checkout --b . --rounds 3

Each checkout must have its extensions built in place (`setup.py build_ext --inplace`).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CASES: list[tuple[str, list[str], str]] = [
    ("playouts dragon 4p", ["bench", "playouts", "-g", "dragon", "-p", "4", "-s", "2"],
     "games_per_second"),
    ("playouts mount-tai 3p", ["bench", "playouts", "-g", "mount-tai", "-p", "3", "-s", "2"],
     "games_per_second"),
    ("search dragon 4p", ["bench", "search", "-g", "dragon", "-p", "4",
                          "-b", "ismcts(millis=1000)"], "iterations_per_second"),
    ("search mount-tai 3p", ["bench", "search", "-g", "mount-tai", "-p", "3",
                             "-b", "ismcts(millis=1000)"], "iterations_per_second"),
]


def _figure(tree: Path, args: list[str], key: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-m", "ladder.cli", *args, "--json"], env=env,
                         cwd=tree, capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    if key in data:
        return float(data[key])
    # `bench search` reports per position: the mean over its positions.
    values = [p[key] for p in data.get("positions", {}).values() if key in p]
    if not values:
        raise KeyError(f"{key} not in {sorted(data)}")
    return statistics.fmean(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, required=True, help="the reference checkout")
    parser.add_argument("--b", type=Path, required=True, help="the checkout to compare")
    parser.add_argument("--rounds", type=int, default=3)
    ns = parser.parse_args()
    for name, args, key in CASES:
        ratios = []
        for r in range(ns.rounds):
            a = _figure(ns.a.resolve(), args, key)
            b = _figure(ns.b.resolve(), args, key)
            ratios.append(b / a)
            print(f"{name} round {r + 1}: A {a:,.0f}  B {b:,.0f}  B/A {b / a:.3f}", flush=True)
        print(f"{name}: median B/A {statistics.median(ratios):.3f}", flush=True)


if __name__ == "__main__":
    main()
