"""tianti's rules engines. `load_game(name, **options)` is the entry point."""
from engine.core.errors import IllegalActionError, OptionError, RecordError, TiantiError
from engine.registry import game_names, load_game

__all__ = [
    "IllegalActionError",
    "OptionError",
    "RecordError",
    "TiantiError",
    "game_names",
    "load_game",
]
