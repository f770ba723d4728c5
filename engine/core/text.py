"""Text helpers shared by the games' board views."""
from __future__ import annotations


def wrap(head: str, items: list[str], width: int = 80, sep: str = ", ") -> list[str]:
    """`head` followed by `items` joined with `sep`, broken into lines of at most `width`
    columns (an item longer than that gets a line of its own); continuation lines are indented
    under the first item."""
    lines, cur = [], head
    for item in items:
        piece = item if cur == head else sep + item
        if len(cur) + len(piece) > width and cur != head:
            lines.append(cur)
            cur = " " * len(head) + item
        else:
            cur += piece
    lines.append(cur)
    return lines
