"""A/B speed of two checkouts of tianti, measured in one run: `tianti bench playouts` and
`tianti bench search` alternated between the two builds, so that the machine's load falls on
both alike; prints each figure and the ratio B/A (the median of the rounds).

    .venv/bin/python benchmarks/ab_speed.py --a /path/to/old/checkout --b . --rounds 3

`--bot SPEC` (a bot spec with a search, such as `strong`) measures that bot's searches instead:
Mount Tai solo, 2 and 4 players, wall-clock iterations a second (`bench search`: its opening and
mid-game positions) or, with `--instructions`, the instructions of a search of 20,000
iterations from each opening and from a position after some random moves.

    .venv/bin/python benchmarks/ab_speed.py --a /path/to/old --b . --bot strong --instructions

Each checkout must have its extensions built in place (`setup.py build_ext --inplace`).

On a loaded machine wall-clock rates swing by tens of percent between runs; `--instructions`
counts instead the CPU instructions of a fixed workload (a number of random playouts, a search
of a number of iterations with a fixed seed) under valgrind's callgrind, minus the same process
without the workload: a figure the load does not change (needs `valgrind`).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

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


INSTRUCTION_CASES: list[tuple[str, str, str, int, int]] = [
    ("playouts dragon 4p", "playouts", "dragon", 4, 2000),
    ("playouts mount-tai 3p", "playouts", "mount-tai", 3, 2000),
    ("search dragon 4p", "search", "dragon", 4, 20000),
    ("search mount-tai 3p", "search", "mount-tai", 3, 20000),
]

_WORKLOAD = """
import sys
import engine
from engine.core.playout import random_playouts
from ai.search import Searcher
kind, game, players, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
state = engine.load_game(game, players=players).new_initial_state(0)
searcher = Searcher(mode="ismcts", iterations=max(n, 1), seed=1)
if n and kind == "playouts":
    random_playouts(state, games=n, seed=1)
elif n:
    searcher.search(state)
"""


# The same for a bot spec's search (--bot): argv = spec, game, options as JSON, iterations,
# random moves played first (seeded: the same position in both checkouts).
_BOT_WORKLOAD = """
import json, random, sys
import engine
from ai.bots import make_bot
spec, game, options, n = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
state = engine.load_game(game, **options).new_initial_state(0)
rng = random.Random(0)
for _ in range(int(sys.argv[5])):
    state.apply_action(rng.choice(state.legal_actions()))
bot = make_bot(spec, iterations=max(n, 1), seed=1)
if n:
    bot.step(state)
"""

# (name, game, options, random moves before the search)
BOT_CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("mount-tai solo", "mount-tai", {"solo": True}, 0),
    ("mount-tai solo, move 25", "mount-tai", {"solo": True}, 25),
    ("mount-tai 2p", "mount-tai", {"players": 2}, 0),
    ("mount-tai 2p, move 46", "mount-tai", {"players": 2}, 46),
    ("mount-tai 4p", "mount-tai", {"players": 4}, 0),
    ("mount-tai 4p, move 106", "mount-tai", {"players": 4}, 106),
]


def _instructions(tree: Path, kind: str, game: str, players: int, n: int,
                  bot: str | None = None, options: dict[str, Any] | None = None,
                  moves: int = 0) -> int:
    env = dict(os.environ, PYTHONPATH=str(tree))
    args = ([_BOT_WORKLOAD, bot, game, json.dumps(options or {}), str(n), str(moves)] if bot
            else [_WORKLOAD, kind, game, str(players), str(n)])
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", *args],
        env=env, cwd=tree, capture_output=True, text=True, check=True)
    for line in run.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split("Collected :")[1].strip())
    raise RuntimeError(f"no instruction count in valgrind's output:\n{run.stderr[-2000:]}")


def instructions(a: Path, b: Path) -> None:
    for name, kind, game, players, n in INSTRUCTION_CASES:
        counts = []
        for tree in (a, b):
            counts.append(_instructions(tree, kind, game, players, n)
                          - _instructions(tree, kind, game, players, 0))
        print(f"{name} ({n} {'games' if kind == 'playouts' else 'iterations'}): "
              f"A {counts[0]:,} B {counts[1]:,} instructions, B/A {counts[1] / counts[0]:.3f}",
              flush=True)


def bot_instructions(a: Path, b: Path, bot: str, n: int = 20000) -> None:
    for name, game, options, moves in BOT_CASES:
        counts = []
        for tree in (a, b):
            counts.append(_instructions(tree, "search", game, 0, n, bot, options, moves)
                          - _instructions(tree, "search", game, 0, 0, bot, options, moves))
        print(f"{bot} {name} ({n} iterations): A {counts[0]:,} B {counts[1]:,} instructions, "
              f"B/A {counts[1] / counts[0]:.3f}", flush=True)


def bot_cases(bot: str) -> list[tuple[str, list[str], str]]:
    """`bench search` of `bot` (one second a search) on each BOT_CASES table (its opening and
    a mid-game position of its own)."""
    cases = []
    for name, game, options, moves in BOT_CASES:
        if moves:
            continue
        args = ["bench", "search", "-g", game, "-b", f"{bot}(millis=1000)"]
        for key, value in options.items():
            args += (["-p", str(value)] if key == "players"
                     else ["-o", f"{key}={str(value).lower()}"])
        cases.append((f"{bot} {name}", args, "iterations_per_second"))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, required=True, help="the reference checkout")
    parser.add_argument("--b", type=Path, required=True, help="the checkout to compare")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions of fixed workloads (valgrind) instead of rates")
    parser.add_argument("--bot", help="measure this search bot spec's searches (e.g. strong)")
    ns = parser.parse_args()
    if ns.instructions:
        if ns.bot:
            bot_instructions(ns.a.resolve(), ns.b.resolve(), ns.bot)
        else:
            instructions(ns.a.resolve(), ns.b.resolve())
        return
    for name, args, key in (bot_cases(ns.bot) if ns.bot else CASES):
        ratios = []
        for r in range(ns.rounds):
            a = _figure(ns.a.resolve(), args, key)
            b = _figure(ns.b.resolve(), args, key)
            ratios.append(b / a)
            print(f"{name} round {r + 1}: A {a:,.0f}  B {b:,.0f}  B/A {b / a:.3f}", flush=True)
        print(f"{name}: median B/A {statistics.median(ratios):.3f}", flush=True)


if __name__ == "__main__":
    main()
