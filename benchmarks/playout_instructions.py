"""Instructions per decision of compiled random playouts, counted by callgrind (deterministic).

Plays `--games` seeded random full games through `engine.core.playout.random_playouts` and prints
the games, decisions and a digest of the decision count; run it under callgrind so that only the
playout loop is counted (wall time on a shared machine is too noisy to compare builds):

    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \\
        --toggle-collect='*playout_1random_playouts*' \\
        $PY benchmarks/playout_instructions.py --game mount-tai --players 4 --games 200
    callgrind_annotate /tmp/cg.out | head     # "PROGRAM TOTALS": instructions in the playouts

`benchmarks/playout_instructions.sh BASE_TREE` runs it on this tree and on BASE_TREE (an older
build, e.g. a worktree of commit 27af91e) side by side and prints instructions per decision.
Any tree can run it: it only needs `engine.load_game` and `random_playouts`.
"""
from __future__ import annotations

import argparse
import json

import engine
from engine.core.playout import random_playouts


def main() -> None:
    """Play the games and print one JSON line: game, players, games, decisions."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="mount-tai")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    template = engine.load_game(a.game, players=a.players).new_initial_state(0)
    r = random_playouts(template, games=a.games, seed=a.seed)
    print(json.dumps({"game": a.game, "players": a.players, "games": r["games"],
                      "decisions": r["decisions"], "seed": a.seed}))


if __name__ == "__main__":
    main()
