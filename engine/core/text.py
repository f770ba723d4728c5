"""Text helpers shared by the games' board views.

Widths are terminal columns, not characters: an East Asian wide or full-width character (the
Chinese names of Mount Tai's Eight Praises tiles, talents and buildings) takes two columns, a
combining mark none. `unicodedata` (the standard library) is enough for that, so tianti needs no
`wcwidth` dependency.
"""
from __future__ import annotations

import unicodedata

# A board line's width. The compact board leaves two columns for the change marker ("* ") that
# `tianti play` puts before a line that changed, so that marked lines still fit 80 columns.
WIDTH = 80
MARKER = 2
COMPACT_WIDTH = WIDTH - MARKER


def display_width(text: str) -> int:
    """Columns `text` takes in a terminal: wide (W) and full-width (F) characters count 2,
    combining marks 0, everything else 1."""
    cols = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        cols += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return cols


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` columns (wide characters counted as 2)."""
    return text + " " * max(0, width - display_width(text))


def clip(text: str, width: int) -> str:
    """`text` cut to at most `width` columns (never splitting a wide character)."""
    if display_width(text) <= width:
        return text
    out, cols = [], 0
    for ch in text:
        w = display_width(ch)
        if cols + w > width:
            break
        out.append(ch)
        cols += w
    return "".join(out)


def wrap(head: str, items: list[str], width: int = WIDTH, sep: str = ", ") -> list[str]:
    """`head` followed by `items` joined with `sep`, broken into lines of at most `width`
    columns; continuation lines are indented under the first item. An item longer than a line
    is broken at its spaces; a single word longer than a line (a file path) is kept whole, on a
    line of its own, never cut."""
    indent = " " * display_width(head)
    room = max(10, width - len(indent))
    pieces: list[str] = []
    for item in items:
        pieces.extend(_split_long(item, room))
    lines, cur = [], head
    for piece in pieces:
        add = piece if cur == head or cur == indent else sep + piece
        if display_width(cur) + display_width(add) > width and cur not in (head, indent):
            lines.append(cur)
            cur = indent + piece
        else:
            cur += add
    lines.append(cur)
    return lines


def _split_long(item: str, room: int) -> list[str]:
    """An item that does not fit `room` columns, as several pieces broken at spaces."""
    if display_width(item) <= room:
        return [item]
    out, cur = [], ""
    for word in item.split(" "):
        trial = f"{cur} {word}" if cur else word
        if display_width(trial) > room and cur:
            out.append(cur)
            cur = word
        else:
            cur = trial
    if cur:
        out.append(cur)
    return out


def fill(text: str, width: int = WIDTH, indent: str = "") -> list[str]:
    """A paragraph broken at spaces into lines of at most `width` columns, each line after the
    first starting with `indent` (the first one with nothing: the caller gives it its head)."""
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}" if cur else word
        limit = width - (display_width(indent) if lines else 0)
        if display_width(trial) > limit and cur:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    lines.append(cur)
    return [lines[0]] + [indent + line for line in lines[1:]]


def fit_lines(text: str, width: int = WIDTH) -> str:
    """Every line of `text` at most `width` columns: a longer line is broken at its spaces and
    continued under its own indentation plus two spaces. A single word longer than that (a file
    path) is kept whole on a line of its own, so that it can be copied."""
    out: list[str] = []
    for line in text.splitlines():
        if display_width(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip())]
        first, *rest = fill(line.strip(), width - len(lead), "  ")
        out.append(lead + first)
        out.extend(lead + r for r in rest)
    return "\n".join(out)


# Characters a terminal acts on instead of showing (line breaks, ESC and the other controls,
# bidirectional overrides, line and paragraph separators) and those with no meaning yet.
_UNSAFE = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"))


def unsafe_characters(text: str) -> list[str]:
    """The characters of `text` that would act on a terminal rather than show (a name holding
    one could forge or hide lines of a listing), escaped, without repeats."""
    return list(dict.fromkeys(_escape(c) for c in text if unicodedata.category(c) in _UNSAFE))


def printable(text: object, limit: int | None = None) -> str:
    """`text` as one harmless line: every character a terminal would act on written as its
    Python escape (`\\n`, `\\x1b`, `\\u202e`), and cut to `limit` characters (with "...") when
    given. For text read from files and stores that tianti did not check as it was written."""
    s = str(text)
    if limit is not None and len(s) > limit:
        s = s[:limit] + "..."
    if s.isprintable():
        return s
    return "".join(_escape(c) if unicodedata.category(c) in _UNSAFE else c for c in s)


def _escape(c: str) -> str:
    return c.encode("unicode_escape").decode("ascii")
