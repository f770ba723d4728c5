"""Playout speed side by side, in one run: Mount Tai against an older build, Dragon against C.

Mount Tai: instructions per decision of the compiled random playouts (callgrind, deterministic),
this tree against another tree's build (e.g. a worktree of commit 27af91e), on the same seeded
games (`benchmarks/playout_instructions.py` in each tree).

Dragon (4 players): the hand-written C reference (`dragon_limit.c`, built with gcc -O2
-march=native, its "4 fresh" measurement through benchmarks/dragon_limit_driver.c) and this
tree's compiled playouts, run alternately under `nice`, each for `--seconds`: games per second of
wall time and of CPU time (the machine is shared: compare CPU time). Also both programs'
instructions per game under callgrind (the C one built with -march=x86-64-v3, since valgrind
does not decode AVX-512).

    $PY benchmarks/playout_side_by_side.py --base /work/wt/base27 \\
        --c-source ../shared/bench/dragon_limit.c --rounds 5 [--dragon-other /work/main]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def callgrind(cmd: list[str], env: dict[str, str], toggle: str | None) -> tuple[int, dict]:
    """Run `cmd` under callgrind; the instructions counted and the JSON line it printed."""
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "cg.out"
        args = ["nice", "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        if toggle:
            args.append(f"--toggle-collect={toggle}")
        r = subprocess.run(args + cmd, env=env, capture_output=True, text=True, check=True)
        m = re.search(r"^summary:\s+(\d+)", out.read_text(), re.M)
        if m is None:
            m = re.search(r"^totals:\s+(\d+)", out.read_text(), re.M)
        line = [ln for ln in r.stdout.splitlines() if ln.startswith("{")][-1]
        return int(m.group(1)), json.loads(line)


def mount_tai(base: Path, games: int) -> None:
    """Instructions per decision of `games` Mount Tai playouts here and in `base`."""
    print(f"Mount Tai, 4 players: {games} seeded random playouts under callgrind")
    rows = []
    for tree in (ROOT, base):
        env = dict(os.environ, PYTHONPATH=str(tree))
        ir, r = callgrind([sys.executable, str(HERE / "playout_instructions.py"), "--game",
                           "mount-tai", "--players", "4", "--games", str(games)], env,
                          "*playout_1random_playouts*")
        rows.append((tree, ir, r["decisions"]))
        print(f"  {str(tree):<22} {ir:>13,} instructions {r['decisions']:>8,} decisions "
              f"{ir / r['decisions']:8.1f} per decision {ir / games:10,.0f} per game")
    print(f"  this tree / base: {rows[0][1] / rows[0][2] / (rows[1][1] / rows[1][2]):.3f} per "
          f"decision, {rows[0][1] / rows[1][1]:.3f} per game")


def cython_rate(seconds: float, tree: Path = ROOT) -> dict:
    """This tree's 4-player Dragon playouts for `seconds`, in a fresh process: games, CPU time."""
    code = ("import engine, json, time\n"
            "from engine.core.playout import random_playouts\n"
            "t = engine.load_game('dragon', players=4).new_initial_state(0)\n"
            "c = time.process_time()\n"
            f"r = random_playouts(t, seconds={seconds}, seed=1)\n"
            "c = time.process_time() - c\n"
            "print(json.dumps({'games': r['games'], 'decisions': r['decisions'], "
            "'wall_seconds': r['seconds'], 'cpu_seconds': c}))\n")
    env = dict(os.environ, PYTHONPATH=str(tree))
    # In the tree's folder: `python -c` puts the working folder first on sys.path.
    out = subprocess.run(["nice", sys.executable, "-c", code], env=env, cwd=tree,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def dragon(c_source: Path, rounds: int, seconds: float, games: int,
           other: Path | None = None) -> None:
    """The C reference and this tree's Dragon playouts, alternately, then both under callgrind."""
    with tempfile.TemporaryDirectory() as d:
        native, v3 = Path(d) / "native", Path(d) / "v3"
        for exe, arch in ((native, "native"), (v3, "x86-64-v3")):
            subprocess.run(["gcc", "-O2", f"-march={arch}", "-I", str(c_source.parent), "-o",
                            str(exe), str(HERE / "dragon_limit_driver.c")], check=True)
        print(f"Dragon, 4 players: C reference (gcc -O2 -march=native) and tianti's compiled "
              f"playouts, alternately, {rounds} rounds of {seconds:g} s")
        print(f"  {'round':<6}{'C games/s':>11}{'C /CPU s':>11}{'tianti':>11}{'tianti /CPU':>13}"
              f"{'ratio CPU':>11}" + (f"{'other /CPU':>12}{'ratio':>7}" if other else ""))
        ratios, c_cpu, t_cpu, o_ratios = [], [], [], []
        for i in range(rounds):
            c = json.loads(subprocess.run(["nice", str(native), "seconds", str(seconds)],
                                          capture_output=True, text=True, check=True).stdout)
            t = cython_rate(seconds)
            cc, tc = c["games"] / c["cpu_seconds"], t["games"] / t["cpu_seconds"]
            c_cpu.append(cc)
            t_cpu.append(tc)
            ratios.append(tc / cc)
            extra = ""
            if other:
                o = cython_rate(seconds, other)
                oc = o["games"] / o["cpu_seconds"]
                o_ratios.append(oc / cc)
                extra = f"{oc:>12,.0f}{oc / cc:>7.3f}"
            print(f"  {i + 1:<6}{c['games'] / c['wall_seconds']:>11,.0f}{cc:>11,.0f}"
                  f"{t['games'] / t['wall_seconds']:>11,.0f}{tc:>13,.0f}{tc / cc:>11.3f}{extra}")
            time.sleep(0.2)
        print(f"  median games per CPU second: C {statistics.median(c_cpu):,.0f}, tianti "
              f"{statistics.median(t_cpu):,.0f}; ratio {statistics.median(ratios):.3f} "
              f"(min {min(ratios):.3f}, max {max(ratios):.3f})")
        if other:
            print(f"  {other}: ratio {statistics.median(o_ratios):.3f} (min {min(o_ratios):.3f}, "
                  f"max {max(o_ratios):.3f})")
        ir_c, rc = callgrind([str(v3), "games", str(games)], dict(os.environ), None)
        ir_c -= callgrind([str(v3), "games", "0"], dict(os.environ), None)[0]  # start-up
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        ir_t, rt = callgrind([sys.executable, str(HERE / "playout_instructions.py"), "--game",
                              "dragon", "--players", "4", "--games", str(games)], env,
                             "*playout_1random_playouts*")
        print(f"  callgrind, {games} games: C {ir_c / games:,.0f} instructions a game "
              f"({rc['decisions'] / games:.1f} decisions; the program less its start-up), "
              f"tianti {ir_t / games:,.0f} ({rt['decisions'] / games:.1f} "
              f"decisions); ratio C/tianti {ir_c / ir_t:.3f}")


def main() -> None:
    """Parse the options and run the comparisons asked for."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, default=Path("/work/wt/base27"),
                    help="a built tree to compare Mount Tai with")
    ap.add_argument("--c-source", type=Path, default=next(
        (p for p in (ROOT.parent / "shared/bench/dragon_limit.c",
                     ROOT.parent.parent / "shared/bench/dragon_limit.c") if p.exists()),
        ROOT.parent / "shared/bench/dragon_limit.c"), help="dragon_limit.c (../shared/bench)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--games", type=int, default=200, help="games counted by callgrind")
    ap.add_argument("--only", choices=["mount-tai", "dragon"])
    ap.add_argument("--dragon-other", type=Path, help="another built tree whose Dragon "
                    "playouts run in the same rounds (e.g. the main checkout, before a change)")
    a = ap.parse_args()
    if a.only != "dragon":
        mount_tai(a.base, a.games)
    if a.only != "mount-tai":
        dragon(a.c_source, a.rounds, a.seconds, a.games, a.dragon_other)


if __name__ == "__main__":
    main()
