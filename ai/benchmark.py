"""Search speed: iterations per second, time per iteration, nodes and memory of a search bot on
fixed, named positions, each measured over several rounds (`tianti bench search`).

One search is one sample, and one sample cannot be compared between two runs, two builds or
two machines: the search is repeated `rounds` times on each position and the report gives the
median with the minimum, the maximum and the spread ((max - min) / median), as pytest-benchmark
and hyperfine do, and the processor time of the search beside its wall time (a CPU time well
below the wall time: the machine is busy with something else; above it: threads).

The positions are fixed and named, the same for every run, build and machine with the same
game, options and seed: `opening` is the game's first decision; `midgame` and `late` come from
one game played by `POSITION_BOT` (the greedy bot with a fixed seed, each decision taken on a
view of its own seat) from the deal `seed`, and are, among its decisions between 40% and 60% of
the game (midgame) and between 75% and 90% (late), the one with the most legal actions (the
earliest of those): a real choice, not whatever a random walk happens to reach.
"""
from __future__ import annotations

import random
import statistics
import time
from typing import Any

from ai.bots import BotSpecError, make_bot

# The bot that plays the game from which `midgame` and `late` are taken.
POSITION_BOT = "heuristic(seed=0)"
# The share of the game's decisions in which each later position is chosen.
WINDOWS = {"midgame": (0.40, 0.60), "late": (0.75, 0.90)}
DEFAULT_ROUNDS = 5


def _view(state: Any, seed: int) -> Any:
    """What the player to move knows of `state`: a determinization of its own seat (a bot
    never gets the state itself)."""
    return state.resample_from_infostate(state.current_player(), seed)


def positions(game: Any, seed: int = 0) -> dict[str, Any]:
    """The named positions of `game` for deal `seed`: `opening` (the first decision) and, from
    one game of `POSITION_BOT`, `midgame` and `late` (see the module's docstring)."""
    opening = game.new_initial_state(seed)
    out = {"opening": opening}
    bot = make_bot(POSITION_BOT)
    rng = random.Random(seed)
    state = opening.clone()
    path = []
    while not state.is_terminal():
        path.append(state.clone())
        state.apply_action(bot.step(_view(state, rng.randrange(1 << 62))))
    for name, (lo, hi) in WINDOWS.items():
        window = path[int(lo * len(path)):max(int(lo * len(path)) + 1, int(hi * len(path)))]
        if window:
            out[name] = max(window, key=lambda s: len(s.legal_actions()))  # first of the most
    return out


def _spread(values: list[float]) -> dict[str, float]:
    """Median, minimum, maximum and spread ((max - min) / median) of `values`."""
    med = statistics.median(values)
    return {"median": med, "min": min(values), "max": max(values),
            "spread": (max(values) - min(values)) / med if med else 0.0}


def search_speed(game: Any, spec: str, seed: int = 0,
                 rounds: int = DEFAULT_ROUNDS) -> dict[str, Any]:
    """Search each named position `rounds` times (the tree started afresh every time, on the
    same view of the player to move) and report per position the median and spread of the
    iterations per second of wall time and of CPU time (the second is the one to compare on
    a busy machine, where the search gets only part of a core), the time per iteration, wall
    and CPU time, nodes and bytes.

    The keys of one search's report (`iterations`, `seconds`, `iterations_per_second`,
    `nodes`, ...) hold the medians; `samples` holds every round."""
    if rounds < 1:
        raise BotSpecError(f"--rounds must be at least 1, got {rounds}")
    bot = make_bot(spec)
    if not hasattr(bot, "analyse"):
        raise BotSpecError(f"bot {spec!r} does not search; give ismcts(...), pimc(...), "
                           "mo-ismcts(...) or strong")
    out: dict[str, Any] = {"game": game.name, "players": game.num_players, "bot": spec,
                           "rounds": rounds, "seed": seed, "position_bot": POSITION_BOT,
                           "positions": {}}
    for name, state in positions(game, seed).items():
        view = _view(state, seed)
        samples = []
        best: dict[str, int] = {}
        for _ in range(rounds):
            bot.restart()
            wall, cpu = time.perf_counter(), time.process_time()
            r = bot.analyse(view)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            samples.append({"iterations": r["iterations"], "seconds": r["seconds"],
                            "wall_seconds": wall, "cpu_seconds": cpu, "nodes": r["nodes"],
                            "iterations_per_second":
                                r["iterations"] / r["seconds"] if r["seconds"] else 0.0,
                            "iterations_per_cpu_second": r["iterations"] / cpu if cpu else 0.0})
            move = state.action_to_string(r["action"])
            best[move] = best.get(move, 0) + 1
        rate = _spread([s["iterations_per_second"] for s in samples])
        per_cpu = _spread([s["iterations_per_cpu_second"] for s in samples])
        median = {k: statistics.median(s[k] for s in samples)
                  for k in ("iterations", "seconds", "wall_seconds", "cpu_seconds", "nodes")}
        out["positions"][name] = {
            "move": state.move_number(),
            "player": state.current_player(),
            "legal_actions": len(state.legal_actions()),
            "iterations": median["iterations"],
            "seconds": median["seconds"],
            "iterations_per_second": rate["median"],
            "iterations_per_second_min": rate["min"],
            "iterations_per_second_max": rate["max"],
            "spread": rate["spread"],
            "us_per_iteration": 1e6 / rate["median"] if rate["median"] else 0.0,
            "iterations_per_cpu_second": per_cpu["median"],
            "iterations_per_cpu_second_min": per_cpu["min"],
            "iterations_per_cpu_second_max": per_cpu["max"],
            "cpu_spread": per_cpu["spread"],
            "wall_seconds": median["wall_seconds"],
            "cpu_seconds": median["cpu_seconds"],
            "nodes": median["nodes"],
            "bytes_per_node": r["node_bytes"],
            "tree_bytes": median["nodes"] * r["node_bytes"],
            "best": max(best, key=best.get),
            "samples": samples,
        }
    out["config"] = bot.searcher.config if hasattr(bot, "searcher") else None
    return out


def playout_speed(template: Any, seconds: float, rounds: int = DEFAULT_ROUNDS,
                  seed: int = 0) -> dict[str, Any]:
    """Random full games from `template` (the opening of deal `seed`) inside the compiled
    core, `rounds` rounds of `seconds` each: the median games and decisions per second with
    their spread, and wall and CPU time. The keys of one round's report hold the medians (the
    counts: their sums); `samples` holds every round."""
    from engine.core.playout import random_playouts

    if rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {rounds}")
    samples = []
    for i in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        r = random_playouts(template, seconds=seconds, seed=seed + i)
        r["wall_seconds"] = time.perf_counter() - wall
        r["cpu_seconds"] = time.process_time() - cpu
        r["games_per_cpu_second"] = r["games"] / r["cpu_seconds"] if r["cpu_seconds"] else 0.0
        samples.append(r)
    games = _spread([s["games_per_second"] for s in samples])
    first = samples[0]
    return {
        "game": first["game"], "players": first["players"], "options": first["options"],
        "rounds": rounds, "seed": seed,
        "games": sum(s["games"] for s in samples),
        "seconds": sum(s["seconds"] for s in samples),
        "games_per_second": games["median"],
        "games_per_second_min": games["min"],
        "games_per_second_max": games["max"],
        "spread": games["spread"],
        "games_per_cpu_second": statistics.median(s["games_per_cpu_second"] for s in samples),
        "decisions": sum(s["decisions"] for s in samples),
        "decisions_per_game": statistics.median(s["decisions_per_game"] for s in samples),
        "decisions_per_second": statistics.median(s["decisions_per_second"] for s in samples),
        "wall_seconds": statistics.median(s["wall_seconds"] for s in samples),
        "cpu_seconds": statistics.median(s["cpu_seconds"] for s in samples),
        "state_bytes": first["state_bytes"],
        "samples": [{k: s[k] for k in ("games", "seconds", "games_per_second", "decisions",
                                       "decisions_per_second", "wall_seconds", "cpu_seconds",
                                       "games_per_cpu_second")}
                    for s in samples],
    }
