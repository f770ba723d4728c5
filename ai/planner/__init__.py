"""Planner bots: each game's standard plan played by a readable list of rules, no search.

`PlannerBot` is the `planner` bot spec (ai/bots.py). It hands each decision to the rule module of
the game it is asked about (`ai.planner.mount_tai`, `ai.planner.dragon`), imported the first time
that game is seen; each such module offers `choose(state, rng) -> action`. The state a bot is
handed is already a determinization of its own seat (ai/match.py), and the rules read only what
that seat may see.

Why: issue 49 measures `strong` at 3 and 4 players against opponents that play each game's
usual plan (in Mount Tai: a Sacrifice Official early, celebrations, sacrifices to heaven, talents
raised to level 3, grain and money used up by the end), and such a bot is also a useful level for
players between `heuristic` and `strong`.
"""
from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

from engine.core.errors import TiantiError

# game name (engine registry) -> the module of its rules
PLANNERS: dict[str, str] = {
    "mount-tai": "ai.planner.mount_tai",
    "dragon": "ai.planner.dragon",
}


class NoPlannerError(TiantiError, ValueError):
    """A game the planner has no rules for (or whose rule module is missing)."""


def planner_module(game: str) -> ModuleType:
    """The rule module of `game` (NoPlannerError if there is none)."""
    name = PLANNERS.get(game)
    if name is None:
        raise NoPlannerError(f"no planner for game {game!r}; the planner plays "
                             f"{', '.join(sorted(PLANNERS))}")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        raise NoPlannerError(f"no planner for game {game!r}: its rules ({name}) are not "
                             "installed") from None


class PlannerBot:
    """Plays the game's standard plan by rules (no search): see ai/planner/<game>.py.

    `epsilon` is the chance of a uniformly random legal move instead of the planned one (a
    weaker, more human-looking opponent, as `heuristic(epsilon=...)`); `seed` seeds the bot's
    own random choices (ties between equal moves, epsilon)."""

    def __init__(self, seed: int | None = None, epsilon: float = 0.0) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, got {epsilon}")
        self.seed = seed
        self.epsilon = epsilon
        self._rng = random.Random(seed)
        self._modules: dict[str, ModuleType] = {}

    def _rules(self, state: Any) -> ModuleType:
        game = state.game.name
        module = self._modules.get(game)
        if module is None:
            module = self._modules[game] = planner_module(game)
        return module

    def step(self, state: Any) -> int:
        rules = self._rules(state)
        legal = state.legal_actions()
        if self.epsilon and self._rng.random() < self.epsilon:
            return self._rng.choice(legal)
        action = rules.choose(state, self._rng)
        if action not in legal:
            raise RuntimeError(f"the {state.game.name} planner chose {action}, which is not a "
                               f"legal action here ({state.decision_name()}): a bug")
        return action

    def restart(self) -> None:
        pass  # nothing is carried from one game to the next (the rules read the state alone)
