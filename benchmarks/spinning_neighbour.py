"""How much a bot that spins between its turns slows the seat beside it (issue 48): tianti's
`ismcts(iterations=4000)` in the referee's process plays Dragon (2 players) against a bot in a
process of its own that answers the first legal id at once, once quiet and once with N spinning
processes, each in a session of its own (`setsid`, so a process-group stop misses them), and the
in-process bot's think time per decision (wall clock, `step` alone) is compared.

    nice .venv/bin/python benchmarks/spinning_neighbour.py --games 4 --rounds 2
    nice .venv/bin/python benchmarks/spinning_neighbour.py --pause false   # the old default

The games are the same in both conditions (fixed seeds, a deterministic opponent), so the ratio
is the machine's alone. Conditions alternate, quiet first, `--rounds` times. `--pause` is the
sandbox's `Limits.pause` (TIANTI_BOT_LIMITS): by default the bot is frozen between its turns.
The header says how (`sandbox.pause_method`). Run it on a quiet machine: other work's load
swings the figures.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import engine
from ai.bots import make_bot
from ai.match import Referee, play_game
from ladder.referee import sandbox
from ladder.referee.players import make_player

# The opponent: the protocol with the standard library only; `N` spinners in sessions of their
# own, started at the handshake, spinning for the whole run (or, with "others", only while the
# bot is not asked: a spinner checks a flag file the bot writes).
BOT = textwrap.dedent('''
    import os, sys
    spin = int(sys.argv[1])
    for _ in range(spin):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                x = 0
                while True:
                    x += 1
            os._exit(0)
    for line in sys.stdin:
        if line.startswith('{"type":"hello"'):
            sys.stdout.write('{"type":"hello","protocol":1,"name":"spinner","wants":["lean"]}\\n')
        elif line.startswith('{"type":"move"'):
            at = line.index('"legal":[') + 9
            first = line[at:].lstrip("[").split(",", 1)[0].split("]", 1)[0]
            sys.stdout.write('{"type":"action","action":%s}\\n' % first)
        elif line.startswith('{"type":"quit"'):
            break
        else:
            continue
        sys.stdout.flush()
''')


def think_times(spin: int, games: int, pause: bool, folder: Path) -> list[float]:
    """Seconds per decision of the in-process ismcts, over `games` games against the bot."""
    script = folder / "spinner.py"
    script.write_text(BOT)
    limits = f"pause={'true' if pause else 'false'}"
    opponent = make_player(f"exec:{sys.executable} {script} {spin}", move_timeout=30.0,
                           setup_timeout=60.0, limits=limits)
    times: list[float] = []
    try:
        time.sleep(0.5)  # the spinners are up
        game = engine.load_game("dragon", players=2)
        for i in range(games):
            searcher = make_bot(f"ismcts(iterations=4000,seed={i})")
            step = searcher.step

            def timed(view: Any, _step: Any = step) -> int:
                start = time.perf_counter()
                try:
                    return _step(view)
                finally:
                    times.append(time.perf_counter() - start)

            searcher.step = timed  # type: ignore[method-assign]
            seats = [searcher, opponent] if i % 2 == 0 else [opponent, searcher]
            play_game(game.new_initial_state(1000 + i), seats, resample_seed=i,
                      referee=Referee(30.0), trusted=True)
    finally:
        opponent.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per condition and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--spin", type=int, default=6, help="spinning processes of the bot")
    parser.add_argument("--pause", choices=("true", "false"), default="true")
    args = parser.parse_args()
    pause = args.pause == "true"
    isolation = sandbox.probe(sandbox.Limits(pause=pause))
    print(f"sandbox: {isolation.summary()}")
    print(f"between its turns the bot is {sandbox.pause_method(isolation)}")
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    quiet: list[float] = []
    spinning: list[float] = []
    with tempfile.TemporaryDirectory() as name:
        os.chmod(name, 0o755)  # the bot's uid (as root) reads its script there
        for round_ in range(args.rounds):
            q = think_times(0, args.games, pause, Path(name))
            s = think_times(args.spin, args.games, pause, Path(name))
            quiet += q
            spinning += s
            print(f"round {round_ + 1}: quiet {statistics.median(q) * 1000:.1f} ms, "
                  f"beside {args.spin} spinners {statistics.median(s) * 1000:.1f} ms "
                  f"(median per decision, {len(q)} and {len(s)} decisions)")
    for what, f in (("median", statistics.median), ("mean", statistics.fmean),
                    ("slowest", max)):
        print(f"{what}: quiet {f(quiet) * 1000:.1f} ms, spinning {f(spinning) * 1000:.1f} ms, "
              f"ratio {f(spinning) / f(quiet):.2f}x")
    print(f"total think time: ratio {sum(spinning) / sum(quiet):.2f}x; "
          f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
