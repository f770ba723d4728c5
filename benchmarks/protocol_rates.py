"""Quick games a minute with bots through the protocol against bots in the referee's process,
side by side in one run (issue 35's overhead figure): the same 2,000 Dragon games (2 players,
1,000 deals at both seatings, seed 5, 2 local workers) played by

- `inproc`: tianti's random bot on both seats, in the referee's process;
- `c-lean`: the C example (`examples/bots/first.c`, which asks for lean messages) on both seats;
- `python`: `python:ai.bots:RandomBot` on both seats (the adapter, with the view);

alternated round by round so that the machine's load falls on each alike. Prints each run's
rate (the run's own "played now" figure, start-up left out), the worker's time and CPU per
game, and each protocol rate over the in-process rate of its round.

    .venv/bin/python benchmarks/protocol_rates.py --rounds 3

Needs gcc for the C example. Writes only to a temporary folder.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(folder: Path, bots: list[str], deals: int) -> dict[str, float]:
    db = folder / "rates.db"
    for end in ("", "-wal", "-shm"):
        Path(f"{db}{end}").unlink(missing_ok=True)
    argv = [sys.executable, "-m", "ladder.cli", "tournament", "run", "--db", str(db),
            "--game", "dragon", "-p", "2", "--deals", str(deals), "--workers", "2",
            "--no-progress", "--seed", "5", "--move-timeout", "10"]
    for bot in bots:
        argv += ["--bot", bot]
    env = dict(os.environ, TIANTI_DATA_DIR=str(folder), COLUMNS="200")
    out = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    text = " ".join(out.stdout.split())
    rate = re.search(r"([\d,]+) games/min", text)
    took = re.search(r"a game took ([\d.]+) ms in its worker \(([\d.]+) ms of CPU\)", text)
    if rate is None or took is None:
        raise SystemExit(f"unexpected output:\n{out.stdout}\n{out.stderr}")
    return {"rate": float(rate.group(1).replace(",", "")), "worker_ms": float(took.group(1)),
            "cpu_ms": float(took.group(2))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        binary = folder / "first"
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(ROOT / "examples/bots/first.c")],
                       check=True)
        configs = {"inproc": ["a=random", "b=random"],
                   "c-lean": [f"a=exec:{binary}", f"b=exec:{binary}"],
                   "python": ["a=python:ai.bots:RandomBot", "b=python:ai.bots:RandomBot"]}
        ratios: dict[str, list[float]] = {k: [] for k in configs if k != "inproc"}
        for round_ in range(1, args.rounds + 1):
            figures = {k: _run(folder, bots, args.deals) for k, bots in configs.items()}
            for key, f in figures.items():
                ratio = f["rate"] / figures["inproc"]["rate"]
                if key != "inproc":
                    ratios[key].append(ratio)
                print(f"round {round_} {key:7s} {f['rate']:9,.0f} games/min  worker "
                      f"{f['worker_ms']:5.1f} ms a game ({f['cpu_ms']:4.1f} ms CPU)  "
                      f"{ratio:5.2f}x in-process", flush=True)
        for key, values in ratios.items():
            print(f"{key}: median {statistics.median(values):.2f}x the in-process rate "
                  f"({min(values):.2f}-{max(values):.2f}, {len(values)} rounds)")


if __name__ == "__main__":
    main()
