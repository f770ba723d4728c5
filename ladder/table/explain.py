"""What a choice does and what the board's words mean, for `explain` and `legend` at the
`tianti play` prompt and for `tianti rules` (no terminal I/O here).

The words live with each game (``engine/<game>/guide.py``: GUIDE topics, `explain_action`,
LEGEND); this module finds a game's guide by the game's name and answers for any state.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ladder.table.play import PlaySession

# Game name -> the module holding its guide (games without one get generic answers).
GUIDES: dict[str, str] = {
    "dragon": "engine.dragon.guide",
    "mount-tai": "engine.mount_tai.guide",
}


def guide_module(game: str) -> ModuleType | None:
    """The guide module of `game` (None if the game has none)."""
    name = GUIDES.get(game)
    return importlib.import_module(name) if name else None


def explain_action(state: Any, action: int) -> str:
    """What `action` does and costs for the player to move in `state`: the action's own words
    plus the game guide's paragraph on it."""
    text = state.action_to_string(action)
    guide = guide_module(state.game.name)
    if guide is None or not hasattr(guide, "explain_action"):
        return text
    more = guide.explain_action(state.snapshot(), action)
    return f"{text}\n{more}" if more else text


def choice_groups(state: Any, actions: list[int]) -> list[tuple[str, str] | None]:
    """For each of `actions`: its group's heading and its short label in a long list of
    choices, from the game's guide (`choice_group`); None where the guide has none."""
    guide = guide_module(state.game.name)
    group = getattr(guide, "choice_group", None) if guide is not None else None
    if group is None:
        return [None] * len(actions)
    snap = state.snapshot()
    return [group(snap, a) for a in actions]


def explain_choice(session: "PlaySession", arg: str) -> str:
    """`explain N` / `explain NAME` at the prompt: the choice's explanation, numbered as shown."""
    from ladder.table.play import PlayError

    if not arg.strip():
        raise PlayError("explain what? explain N (a choice's number) or a choice's name")
    action = session.resolve(arg)
    number = next(c.number for c in session.choices() if c.action == action)
    return f"{number}. {explain_action(session.state, action)}"


def legend(state: Any) -> str:
    """The key to the game's board (its words, numbers and letters)."""
    guide = guide_module(state.game.name)
    if guide is None or not hasattr(guide, "LEGEND"):
        return "This board is all in words; `tianti rules` lists the games' guides."
    return guide.LEGEND
