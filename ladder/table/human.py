"""Storing a finished `tianti play` game in the ladder's store, the person rated as `human`."""
from __future__ import annotations

import json
import os
from pathlib import Path

from ladder.table.play import HUMAN, PlaySession
from ladder.tournament.ratings import update_ratings
from ladder.tournament.schedule import TournamentSpec
from ladder.tournament.store import Store
from ladder.tournament.worker import GameOutcome, SeatOutcome


def store_human_game(session: PlaySession, path: str | os.PathLike[str] | None = None) -> Path:
    """Save the session's finished game as a one-game run labelled "play" and update the
    ratings; returns the store's path. The opponents are named by their specs."""
    state = session.state
    if not state.is_terminal():
        raise ValueError("only a finished game can be stored")
    names = list(dict.fromkeys(session.specs))
    spec = TournamentSpec(game=state.game.name, options=dict(state.game.options),
                          bots=tuple((n, n) for n in names), deals=1, seed=state.seed)
    scores, ranks = state.scores(), state.ranks()
    players = [m.player for m in session.log]
    seconds = [m.seconds for m in session.log]
    seats = []
    for i, bot in enumerate(session.specs):
        mine = [t for p, t in zip(players, seconds) if p == i]
        seats.append(SeatOutcome(seat=i, bot=bot, spec=bot, score=scores[i], rank=ranks[i],
                                 game_rank=ranks[i], fault=None, moves=len(mine),
                                 think_seconds=sum(mine), max_move_seconds=max(mine, default=0.0)))
    with Store(path) as store:
        run_id = store.create_run(spec, planned=1, label="play")
        store.save_game(GameOutcome(
            run_id=run_id, deal=0, seating=0, game=state.game.name,
            options_json=json.dumps(state.game.options), seed=state.seed, resample_seed=0,
            actions_json=json.dumps(state.history()), move_times_json=json.dumps(seconds),
            seats=seats, duration=sum(seconds)))
        store.set_status(run_id, "finished", sum(seconds))
        update_ratings(store)
        return Path(store.path)


__all__ = ["HUMAN", "store_human_game"]
