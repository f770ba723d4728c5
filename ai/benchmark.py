"""Search speed: iterations per second, nodes and memory of a search bot on fixed positions."""
from __future__ import annotations

import random
from typing import Any

from ai.bots import BotSpecError, make_bot


def positions(game: Any, seed: int = 0) -> dict[str, Any]:
    """The opening position and a mid-game one (half a random game in), both with a real
    choice to make, the same for every run with the same seed."""
    rng = random.Random(seed)
    opening = game.new_initial_state(seed)
    length = 0
    probe = opening.clone()
    while not probe.is_terminal():
        probe.apply_action(rng.choice(probe.legal_actions()))
        length += 1
    rng = random.Random(seed)
    mid = opening.clone()
    for _ in range(length // 2):
        mid.apply_action(rng.choice(mid.legal_actions()))
    while len(mid.legal_actions()) < 2:
        mid.apply_action(mid.legal_actions()[0])
    return {"opening": opening, "midgame": mid}


def search_speed(game: Any, spec: str, seed: int = 0) -> dict[str, Any]:
    """Run the bot's search once on each position; report iterations/s, nodes, bytes."""
    bot = make_bot(spec)
    if not hasattr(bot, "analyse"):
        raise BotSpecError(f"bot {spec!r} does not search; give ismcts(...), pimc(...), "
                           "mo-ismcts(...) or strong")
    out: dict[str, Any] = {"game": game.name, "players": game.num_players, "bot": spec,
                           "positions": {}}
    for name, state in positions(game, seed).items():
        bot.restart()
        r = bot.analyse(state)
        out["positions"][name] = {
            "move": state.move_number(),
            "legal_actions": len(state.legal_actions()),
            "iterations": r["iterations"],
            "seconds": r["seconds"],
            "iterations_per_second": r["iterations"] / r["seconds"] if r["seconds"] else 0.0,
            "nodes": r["nodes"],
            "bytes_per_node": r["node_bytes"],
            "tree_bytes": r["nodes"] * r["node_bytes"],
            "best": state.action_to_string(r["action"]),
        }
    out["config"] = bot.searcher.config
    return out
