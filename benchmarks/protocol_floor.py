"""What one decision costs the referee's process in CPU, three ways, in one run: both bots
tianti's random bot in the referee's process; both the C example (`examples/bots/first.c`,
lean messages) through the protocol; and the same with the pipes replaced by a stub that
answers the first legal id at once (every line is still made, none is written or read).

The difference between the last two is what the pipe's write, poll, read and wake-up cost the
referee: the floor under any bot played through the protocol, one round trip a decision
(docs/PROTOCOL.md, "What it costs").

    .venv/bin/python benchmarks/protocol_floor.py --games 400

Needs gcc. Dragon, 2 players, `play_game` in this process (no tournament around it).
"""
from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import engine
from ai.bots import make_bot
from ai.match import Referee, play_game
from ladder.referee import host
from ladder.referee.players import make_player

ROOT = Path(__file__).resolve().parent.parent


def _cpu_per_decision(bots: list[Any], games: int) -> float:
    game = engine.load_game("dragon", players=2)

    def run(n: int, offset: int) -> int:
        decisions = 0
        for i in range(n):
            result = play_game(game.new_initial_state(i + offset), bots, resample_seed=i,
                               referee=Referee(10.0), trusted=True)
            decisions += len(result.actions)
        return decisions

    run(10, 10**6)  # warm up
    start = time.process_time()
    decisions = run(games, 0)
    return (time.process_time() - start) / decisions * 1e6


def _stub_read(self: Any, deadline: Any, what: str, limit: Any) -> dict[str, Any]:
    """The answer the C example gives (the first legal id), read from the line it was sent."""
    line = bytes(self._pending)
    self._pending.clear()
    at = line.rfind(b'"legal":[[') + 10
    return {"type": "action", "action": int(line[at:line.index(b",", at)])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        binary = Path(name) / "first"
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(ROOT / "examples/bots/first.c")],
                       check=True)
        inproc = _cpu_per_decision([make_bot("random(seed=1)"), make_bot("random(seed=2)")],
                                   args.games)
        bots = [make_player(f"exec:{binary}", move_timeout=10.0, setup_timeout=60.0)
                for _ in range(2)]
        try:
            piped = _cpu_per_decision(bots, args.games)
            read, write = host.ProcessBot._read, host.ProcessBot._write_some
            host.ProcessBot._read = _stub_read  # type: ignore[method-assign]
            host.ProcessBot._write_some = lambda self: None  # type: ignore[method-assign]
            try:
                stubbed = _cpu_per_decision(bots, args.games)
            finally:
                host.ProcessBot._read, host.ProcessBot._write_some = read, write
        finally:
            for bot in bots:
                bot.close()
    print(f"in the referee's process:        {inproc:6.1f} us of CPU a decision")
    print(f"the C example through the pipes: {piped:6.1f} us")
    print(f"the same, pipes stubbed:         {stubbed:6.1f} us")
    print(f"the pipes' share: {piped - stubbed:.1f} us a decision, "
          f"{(piped - stubbed) / inproc:.1f}x a whole in-process decision")


if __name__ == "__main__":
    main()
