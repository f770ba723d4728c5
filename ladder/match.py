"""Playing one game between bots: the loop every command (watch, tournaments) uses."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ai.bots import Bot


@dataclass
class MoveEvent:
    """One decision as it happened (given to `on_move` before the action is applied)."""

    index: int
    player: int
    action: int
    text: str
    state: Any  # the state before the action


@dataclass
class GameResult:
    scores: list[int]
    ranks: list[int]
    returns: list[float]
    actions: list[int]
    record: dict[str, Any] = field(default_factory=dict)


def play_game(
    state: Any,
    bots: Sequence[Bot],
    on_move: Callable[[MoveEvent], None] | None = None,
    resample_seed: int = 0,
) -> GameResult:
    """Play `state` to the end, seat i moved by bots[i]. Each bot is handed a determinization
    from its own seat, so it cannot see hidden information."""
    if len(bots) != state.num_players():
        raise ValueError(f"{len(bots)} bots for a {state.num_players()}-player game")
    rng = random.Random(resample_seed)
    for bot in bots:
        if hasattr(bot, "restart"):
            bot.restart()
    index = 0
    while not state.is_terminal():
        player = state.current_player()
        view = state.resample_from_infostate(player, rng.randrange(1 << 63))
        action = bots[player].step(view)
        if on_move is not None:
            on_move(MoveEvent(index, player, action, state.action_to_string(action), state))
        state.apply_action(action)
        for bot in bots:
            if hasattr(bot, "inform_action"):
                bot.inform_action(state, player, action)
        index += 1
    return GameResult(
        scores=state.scores(),
        ranks=state.ranks(),
        returns=state.returns(),
        actions=state.history(),
        record=state.to_record(),
    )
