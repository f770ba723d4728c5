"""What a choice does and what the board's words mean, for `explain` and `legend` at the
`tianti play` prompt and for `tianti rules` (no terminal I/O here).

The words live with each game (``engine/<game>/guide.py``: GUIDE topics, `explain_action`,
LEGEND); this module finds a game's guide by the game's name and answers for any state.

Hidden information: a guide reads the board of the seat it explains to, made from a view of
that seat (`resample_from_infostate`) with the hidden part left out (`public_board`: Mount
Tai's face-down piles, supply order and face-down edicts are not in it, nor shown as drawn),
never the referee's state, so no explanation can depend on what the seat does not know.
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


# The seed of the views explain makes: its own constant, never the game's seed, and not drawn
# from the session's generator (that would change the bots' later views, so a game with
# `explain` typed would play differently). The view's drawn part is never read (public_board).
VIEW_SEED = 0x5EA7


def seat_view(state: Any, seat: int | None = None) -> tuple[Any, Any]:
    """A view of `seat` (default: the player to move) and the board that seat sees from it,
    as plain data (`public_board`: the hidden part left out, not shown as drawn). `state` may
    be the referee's state: only the view is read. A view of `seat` is used as it is."""
    from ladder.referee.protocol import public_board

    if seat is None:
        seat = state.current_player()
    if state.is_view() and state.viewer == seat:
        view = state
    else:
        view = state.resample_from_infostate(seat, VIEW_SEED)
    return view, public_board(view, seat)


def explain_action(state: Any, action: int, seat: int | None = None) -> str:
    """What `action` does and costs for the player to move in `state`, told to `seat` (default:
    the player to move): the action's own words plus the game guide's paragraph on it, both
    from a view of the seat (`seat_view`)."""
    view, board = seat_view(state, seat)
    text = view.action_to_string(action)
    guide = guide_module(view.game.name)
    if guide is None or not hasattr(guide, "explain_action"):
        return text
    more = guide.explain_action(board, action)
    return f"{text}\n{more}" if more else text


def choice_groups(state: Any, actions: list[int],
                  seat: int | None = None) -> list[tuple[str, str] | None]:
    """For each of `actions`: its group's heading and its short label in a long list of
    choices, from the game's guide (`choice_group`) reading the board `seat` (default: the
    player to move) sees; None where the guide has none."""
    guide = guide_module(state.game.name)
    group = getattr(guide, "choice_group", None) if guide is not None else None
    if group is None:
        return [None] * len(actions)
    board = seat_view(state, seat)[1]
    return [group(board, a) for a in actions]


def explain_choice(session: "PlaySession", arg: str) -> str:
    """`explain N` / `explain NAME` at the prompt: the choice's explanation, numbered as shown."""
    from ladder.table.play import PlayError

    if not arg.strip():
        raise PlayError("explain what? explain N (a choice's number) or a choice's name")
    action = session.resolve(arg)
    number = next(c.number for c in session.choices() if c.action == action)
    return f"{number}. {explain_action(session.state, action, session.seat)}"


def legend(state: Any) -> str:
    """The key to the game's board (its words, numbers and letters)."""
    guide = guide_module(state.game.name)
    if guide is None or not hasattr(guide, "LEGEND"):
        return "This board is all in words; `tianti rules` lists the games' guides."
    return guide.LEGEND
