"""Games from the same seed, played again: are they bit-for-bit the same as another build's?

A speed change to the rules must not change a single game. This plays a fixed set of seeded
games of both games (random and greedy bots, every Mount Tai player count and challenge layout,
a few small ISMCTS games that determinize) and records for each the actions, the scores, the
returns and the raw rule events, plus the compiled random playouts' decision count. Save the
record of one build and compare another against it:

    PYTHONPATH=/old/tree $PY benchmarks/same_games.py --save /tmp/before.json
    PYTHONPATH=$PWD      $PY benchmarks/same_games.py --compare /tmp/before.json

Exit status 0 when every game is identical, 1 (listing the first differences) otherwise.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

import engine
from ai.bots import make_bot
from engine.core.playout import random_playouts

# (game, options, bot spec, games): the configurations played.
CONFIGS: list[tuple[str, dict[str, Any], str, int]] = [
    ("mount-tai", {"players": 4}, "random", 40),
    ("mount-tai", {"players": 4}, "heuristic", 20),
    ("mount-tai", {"players": 3}, "random", 20),
    ("mount-tai", {"players": 2}, "heuristic", 20),
    ("mount-tai", {"players": 1}, "random", 20),
    *[("mount-tai", {"challenge": c}, "heuristic", 6) for c in range(1, 9)],
    *[("mount-tai", {"challenge": c}, "random", 6) for c in range(1, 9)],
    ("mount-tai", {"players": 2}, "ismcts(iterations=30)", 2),
    ("mount-tai", {"challenge": 6}, "ismcts(iterations=30)", 2),
    ("mount-tai", {"challenge": 7}, "ismcts(iterations=30)", 2),
    ("dragon", {"players": 4}, "random", 30),
    ("dragon", {"players": 2}, "heuristic", 20),
    ("dragon", {"players": 4, "great_wall": True, "super_events": True}, "random", 20),
    ("dragon", {"players": 3}, "ismcts(iterations=30)", 2),
]


def _digest(x: Any) -> str:
    """A short, stable hash of a JSON-able value."""
    return hashlib.sha256(json.dumps(x, sort_keys=True, default=str).encode()).hexdigest()[:16]


def play(game: str, options: dict[str, Any], spec: str, seed: int) -> dict[str, Any]:
    """One game from deal `seed`, every seat played by `spec` seeded from `seed`."""
    g = engine.load_game(game, **options)
    state = g.new_initial_state(seed)
    bots = [make_bot(spec, seed=seed * 10 + i) for i in range(g.num_players)]
    actions: list[int] = []
    while not state.is_terminal():
        a = bots[state.current_player()].step(state)
        actions.append(a)
        state.apply_action(a)
    return {"actions": _digest(actions), "n": len(actions), "scores": state.scores(),
            "returns": state.returns(), "events": _digest(state.raw_events())}


def run() -> dict[str, Any]:
    """Every configuration's games, and the compiled playouts' decisions."""
    out: dict[str, Any] = {}
    for game, options, spec, n in CONFIGS:
        key = f"{game} {json.dumps(options, sort_keys=True)} {spec}"
        out[key] = [play(game, options, spec, seed) for seed in range(n)]
    for game, players in (("mount-tai", 4), ("mount-tai", 2), ("dragon", 4)):
        template = engine.load_game(game, players=players).new_initial_state(3)
        r = random_playouts(template, games=300, seed=7)
        out[f"{game} {players} compiled playouts"] = [{"games": r["games"],
                                                       "decisions": r["decisions"]}]
    return out


def main() -> None:
    """Play the games; save them and/or compare them with a saved file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", help="write the games to this JSON file")
    ap.add_argument("--compare", help="compare the games with this JSON file")
    a = ap.parse_args()
    now = run()
    print(f"{sum(len(v) for v in now.values())} records, digest {_digest(now)}")
    if a.save:
        with open(a.save, "w") as f:
            json.dump(now, f)
    if a.compare:
        with open(a.compare) as f:
            before = json.load(f)
        bad = [(k, i) for k in sorted(set(before) | set(now))
               for i in range(max(len(before.get(k, [])), len(now.get(k, []))))
               if before.get(k, [])[i:i + 1] != now.get(k, [])[i:i + 1]]
        for k, i in bad[:10]:
            print(f"DIFFERENT: {k} #{i}: {before.get(k, [])[i:i + 1]} != "
                  f"{now.get(k, [])[i:i + 1]}")
        print("identical" if not bad else f"{len(bad)} records differ")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
