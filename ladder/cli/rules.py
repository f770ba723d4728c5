"""`tianti rules [GAME [TOPIC]]`: a concise guide to each game, in our own words.

The texts live with the games (``engine/<game>/guide.py``); this module only finds and prints
them. TOPIC is a topic name, an unambiguous prefix of one, or the name of a single entry (a
person, an event, a talent, a building ...), whose paragraph alone is shown.
"""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from engine.core.guide import Topic, render, render_index
from engine.core.text import WIDTH, fill
from ladder.cli.options import fail
from ladder.table.explain import GUIDES, guide_module


def _guide(game: str) -> dict[str, Topic]:
    key = game.strip().lower().replace("_", "-")
    key = {"mounttai": "mount-tai", "tai": "mount-tai", "yotd": "dragon"}.get(key, key)
    if key not in GUIDES:
        raise fail(f"no guide for {game!r}; games with a guide: {', '.join(GUIDES)}")
    return guide_module(key).GUIDE


def find(guide: dict[str, Topic], topic: str) -> str:
    """The text for `topic` in `guide`: a topic (by name or unambiguous prefix) or an entry."""
    t = topic.strip().lower()
    if t in guide:
        return render(guide[t])
    prefixed = [name for name in guide if name.startswith(t)]
    if len(prefixed) == 1:
        return render(guide[prefixed[0]])
    entries = [(name, key, text) for name, top in guide.items()
               for key, text in top.entries.items()]
    exact = [e for e in entries if e[1].lower() == t]
    hits = exact or [e for e in entries if e[1].lower().startswith(t)]
    if len(hits) == 1:
        name, key, text = hits[0]
        return "\n".join(fill(f"{key} ({guide[name].title}): {text}", WIDTH, "    "))
    if prefixed or hits:
        options = prefixed + [key for _, key, _ in hits]
        raise fail(f"{topic!r} is ambiguous: {', '.join(options)}")
    raise fail(f"no topic or entry {topic!r}; topics: {', '.join(guide)}")


def rules(
    game: Annotated[Optional[str], typer.Argument(help="the game: dragon or mount-tai "
                                                  "(none: list the games and their topics)")] = None,
    topic: Annotated[Optional[str], typer.Argument(
        help="a topic (e.g. events), a prefix of one, or an entry (e.g. 'drought', "
        "'brewer'); none: the overview and the list of topics")] = None,
) -> None:
    """The rules of a game in short: setup, a turn, every action, person, event, talent ..."""
    if game is None:
        typer.echo("tianti rules GAME [TOPIC]: the games' rules in short.")
        for name in GUIDES:
            guide = _guide(name)
            typer.echo("")
            typer.echo(render_index(name, guide))
        return
    guide = _guide(game)
    if topic is None:
        typer.echo(render(guide["overview"]))
        typer.echo("")
        typer.echo(render_index(game, guide))
        return
    typer.echo(find(guide, topic))
