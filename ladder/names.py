"""How bots are named on screen: by their given name, a difficulty level's name, or a short
form of their spec, never by a long spec that pushes a line past 80 columns.

A tournament names its bots (`-b quick=ismcts(iterations=500)`); a game stored by `tianti
play` and a bare `-b random` name a bot by its spec. Those are stored as they are (the store's
data stays what older code reads) and only shown differently: a level's bot as "level 3
(search 30)", another long spec cut with "…" (the full spec is in `tournament show` and in
every --format json/csv output).
"""
from __future__ import annotations

from ai.levels import bot_label
from engine.core.text import clip, display_width, printable

# The most columns a bot's name takes in a line of prose or a table cell before it is cut.
NAME_WIDTH = 32


def short(text: str, width: int = NAME_WIDTH) -> str:
    """`text` cut to `width` columns, ending with "…" when it was cut."""
    if display_width(text) <= width:
        return text
    return clip(text, max(1, width - 1)) + "…"


def display_name(game: str, name: str, spec: str | None = None, width: int = NAME_WIDTH) -> str:
    """A bot's name on screen: a bot named by its own spec (`spec` is None or equal to
    `name`) by its level's name when it is a level's bot, every name cut to `width` columns."""
    if spec is None or spec == name:
        name = bot_label(game, name)
    return short(printable(name), width)  # a name read from a store may hold anything


def seat_name(player: int, name: str) -> str:
    """A seat and its bot in a line of prose: "P1 (strong)", "P1 level 3 (search 30)"."""
    return f"P{player} {name}" if name.startswith("level ") else f"P{player} ({name})"
