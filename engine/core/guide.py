"""The shape of a game's guide (the texts of `tianti rules GAME [TOPIC]`) and its rendering.

A guide is an ordered mapping topic name -> Topic; a topic has a title, paragraphs, and
optionally entries (one short text per person, event, talent ...) keyed by the names the game's
data module uses, so that a test can check that every name has its text.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.text import WIDTH, fill


@dataclass(frozen=True)
class Topic:
    """One topic of a guide: `summary` is the one line `tianti rules GAME` lists it with."""

    title: str
    summary: str
    paragraphs: tuple[str, ...] = ()
    entries: dict[str, str] = field(default_factory=dict)


def render(topic: Topic, width: int = WIDTH) -> str:
    """A topic as text of at most `width` columns: the title, the paragraphs, then each entry
    as a hanging paragraph under its name."""
    lines = [topic.title, "=" * min(width, len(topic.title))]
    for p in topic.paragraphs:
        lines.append("")
        lines.extend(fill(p, width))
    if topic.entries:
        lines.append("")
        for name, text in topic.entries.items():
            lines.extend(fill(f"{name}: {text}", width, "    "))
    return "\n".join(lines)


def render_index(game: str, guide: dict[str, Topic], width: int = WIDTH) -> str:
    """The list of a guide's topics with their one-line summaries."""
    lines = [f"tianti rules {game} TOPIC, where TOPIC is one of:"]
    for name, topic in guide.items():
        first, *rest = fill(topic.summary, width - 17)
        lines.append(f"  {name:<14} {first}")
        lines.extend(" " * 17 + line for line in rest)
    return "\n".join(lines)
