"""An error message fitted to one line of an 80-column terminal.

Every error of the command line is one line on stderr, `error: ...`; on an 80-column terminal a
longer line would be two or three. Messages are written short where they are made (one "did you
mean", a pointer to `tianti bots` or `tianti games` instead of a full list), but some carry
what the user gave: a path, a bot spec, a list of names. `fit_error` shortens those, in the
order that loses least, until the line fits:

1. a path under the home folder as `~/...`, one under the current folder relative to it (both
   still name the same file);
2. a list of four or more names after `: ` cut to as many as fit (at least two) and "…";
3. a path elsewhere, outside parentheses and quotes (one inside a bot spec is shown whole),
   to `.../folder/file`, then to `.../file` (the user gave it, and the name says which); then
   the store's path left out of "the store PATH is ..." (the one the command was given);
4. the pointer to `--help` after a usage error (first where a "did you mean" says what was
   meant);
5. as a last resort, the message broken at its spaces over more lines of at most 80 columns,
   the later ones indented (what a message says is never cut off).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from engine.core.text import WIDTH, display_width, fill

PREFIX = "error: "

# An absolute or home path: a run of characters without spaces, quotes or the punctuation that
# ends a path in a sentence. (`name=/tmp/x` inside a spec counts too.)
_PATH = re.compile(r"(?<![\w.~…])[~…]?/[^\s'\"(),;:]*[^\s'\"(),;:.]")
# A list of four or more names after ": ", comma-separated, up to a ")", a ";" or the end.
_LIST = re.compile(r"(?<=: )((?:[^,;()'\s][^,;()']*?, ){3,}[^,;()']*?[^,;()'\s.])(?=\)|;|$)")
ELLIPSIS = "…"


def short_path(path: str | os.PathLike[str]) -> str:
    """`path` as `~/...` when it is under the home folder, relative when it is under the
    current folder (whichever is shorter), else as given: the same file, fewer columns."""
    text = str(path)
    try:
        p = Path(text).expanduser()
        if not p.is_absolute():
            return text
        forms = [text]
        for base, lead in ((Path.cwd(), ""), (Path.home(), "~/")):
            try:
                forms.append(lead + str(p.relative_to(base)))
            except ValueError:
                pass
        return min((f for f in forms if f not in ("", ".", "~/.")), key=len)
    except (OSError, RuntimeError, ValueError):  # no home or no current folder: as given
        return text


def _elide_path(path: str, keep_parent: bool) -> str:
    parts = path.rstrip("/").split("/")
    tail = parts[-2:] if keep_parent and len(parts) > 2 else parts[-1:]
    short = ELLIPSIS + "/" + "/".join(tail)
    return short if len(short) < len(path) else path


def _cap_lists(text: str, room: int) -> str:
    """`text` with its longest list of names cut to as many as fit (at least 2) and "…"."""
    lists = sorted(_LIST.finditer(text), key=lambda m: -len(m.group(1)))
    if not lists:
        return text
    m = lists[0]
    names = m.group(1).split(", ")
    for keep in range(len(names) - 1, 1, -1):
        shorter = text[:m.start(1)] + ", ".join(names[:keep]) + ", " + ELLIPSIS + text[m.end(1):]
        if display_width(shorter) <= room or keep == 2:
            return shorter
    return text


def _outside(text: str, pos: int) -> bool:
    """Whether `pos` of `text` lies outside parentheses and quotes: a path there is one the
    message is about (a store, a save, a file to write), not part of a bot spec or of a
    command shown for the user to judge, which must be shown whole."""
    depth, quoted = 0, False
    for ch in text[:pos]:
        if ch == "'":
            quoted = not quoted
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
    return depth == 0 and not quoted


def _elide_paths(text: str, keep_parent: bool) -> str:
    return _PATH.sub(lambda m: _elide_path(m.group(0), keep_parent)
                     if _outside(text, m.start()) else m.group(0), text)


def fit_error(message: str, width: int = WIDTH) -> str:
    """`message` (without its `error: `) shortened so that `error: message` fits `width`
    columns, by the steps in the module's docstring. The result is one line unless nothing
    could be shortened enough (then continuation lines); lines of detail after the message's
    first (a bot's last output) follow it, each cut to `width` columns."""
    lines = message.splitlines() if message else []
    text = lines[0] if lines else "failed"
    details = "".join("\n" + _cut(line, width) for line in lines[1:])
    room = width - len(PREFIX)

    def fits(t: str) -> bool:
        return display_width(t) <= room

    steps = [
        lambda t: _PATH.sub(lambda m: short_path(m.group(0)), t),
        lambda t: _cap_lists(t, room),
        lambda t: _elide_paths(t, keep_parent=True),
        lambda t: _elide_paths(t, keep_parent=False),
        lambda t: re.sub(r"\bthe store \S+ is\b", "the store is", t),
        lambda t: re.sub(r" \(try '[^']*--help'\)$", "", t) if "did you mean" in t else t,
        lambda t: re.sub(r" \(try '[^']*--help'\)$", "", t),
    ]
    for step in steps:
        if fits(text):
            return text + details
        text = step(text)
    if fits(text):
        return text + details
    # Nothing left to shorten without losing what the message says: break it at its spaces,
    # the lines after the first indented (a word longer than a line is kept whole).
    first, *rest = fill(text, room, "  ")
    return "\n".join([first, *(" " * (len(PREFIX) - 2) + r for r in rest)]) + details


def _cut(line: str, width: int) -> str:
    """`line` cut to `width` columns, with "…" where it was cut."""
    if display_width(line) <= width:
        return line
    while line and display_width(line) > width - 1:
        line = line[:-1]
    return line + ELLIPSIS
