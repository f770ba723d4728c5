"""Game names -> games: `load_game("dragon", players=3, great_wall=True)`."""
from __future__ import annotations

import importlib
from typing import Any

from engine.core.errors import OptionError, did_you_mean

# name -> "module:class", imported on first use.
_GAMES: dict[str, str] = {
    "dragon": "engine.dragon.game:DragonGame",
    "mount-tai": "engine.mount_tai.game:MountTaiGame",
    "fusion": "engine.toy.fusion:FusionGame",
}


def register_game(name: str, target: str) -> None:
    """Register a game class ("module:Class") under `name`."""
    _GAMES[name] = target


def game_names() -> list[str]:
    return sorted(_GAMES)


def game_class(name: str) -> type:
    if not isinstance(name, str) or name not in _GAMES:
        # The closest name, else the list: the message stays one line of 80 columns.
        hint = (did_you_mean(name, game_names())
                or f"; known games: {', '.join(game_names())}")
        raise OptionError(f"unknown game {name!r}{hint}")
    module, cls = _GAMES[name].split(":")
    return getattr(importlib.import_module(module), cls)


def load_game(name: str, **options: Any):
    """The game `name` with `options` (see `tianti games` for each game's options)."""
    return game_class(name)(**options)
