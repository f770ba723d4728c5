"""Printing to an 80-column terminal: prose lines folded at spaces, and tables whose widest
column (a bot's name) gives way with "…" so that every line fits (`--wide` tables do not)."""
from __future__ import annotations

from typing import Any

import typer

from engine.core.text import WIDTH, display_width, fit_lines, printable
from ladder.names import short


def echo_fit(text: str, err: bool = False, **style: Any) -> None:
    """Print `text` with every line folded to 80 columns at its spaces (continuation lines
    indented by two); `style` is typer.secho's (bold=True, fg=...). Nothing in a line acts on
    the terminal: names and messages read from a store are shown escaped."""
    text = "\n".join(printable(line) for line in text.split("\n")) if text else text
    text = fit_lines(text, WIDTH) if text else text
    if style:
        typer.secho(text, err=err, **style)
    else:
        typer.echo(text, err=err)


def _ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


def _rjust(text: str, width: int) -> str:
    return " " * max(0, width - display_width(text)) + text


def table_lines(header: list[str], rows: list[list[str]], left: set[int],
                flex: int | None = None, width: int | None = WIDTH, gap: int = 2) -> list[str]:
    """Aligned columns (those in `left` aligned left, the others right). When the table is
    wider than `width`, the cells of column `flex` are cut with "…" until it fits (never
    below 8 columns); `width` None: never cut. Cells are shown escaped (`printable`)."""
    rows = [[printable(c) for c in r] for r in rows]
    n = len(header)
    widths = [max(display_width(header[i]), *(display_width(r[i]) for r in rows)) if rows
              else display_width(header[i]) for i in range(n)]
    total = sum(widths) + gap * (n - 1)
    if flex is not None and width is not None and total > width:
        room = max(8, widths[flex] - (total - width))
        rows = [[short(c, room) if i == flex else c for i, c in enumerate(r)] for r in rows]
        header = [short(c, room) if i == flex else c for i, c in enumerate(header)]
        widths[flex] = room

    def line(cells: list[str]) -> str:
        return (" " * gap).join(_ljust(c, w) if i in left else _rjust(c, w)
                                for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return [line(header)] + [line(r) for r in rows]


def echo_table(header: list[str], rows: list[list[str]], left: set[int],
               flex: int | None = None, width: int | None = WIDTH, gap: int = 2) -> None:
    """Print `table_lines(...)`."""
    for text in table_lines(header, rows, left, flex, width, gap):
        typer.echo(text)


def hang(head: str, pieces: list[str], width: int = WIDTH, indent: int = 10) -> list[str]:
    """`head` and then `pieces` (each carrying its own spaces and punctuation) on lines of at
    most `width` columns, the lines after the first starting at column `indent` + 1. A piece
    wider than a line (a file path) is kept whole on a line of its own."""
    lines, cur = [], printable(head)
    for piece in map(printable, pieces):
        if display_width(cur + piece.rstrip()) > width and cur.strip():
            lines.append(cur.rstrip())
            cur = " " * indent
            piece = piece.lstrip()
        cur += piece
    lines.append(cur.rstrip())
    return lines


def words(text: str) -> list[str]:
    """`text` as pieces for `hang`: its words, each with the space before it."""
    first, *rest = text.split(" ")
    return [first] + [" " + w for w in rest]


def spec_pieces(spec: str) -> list[str]:
    """A bot spec as pieces for `hang`, broken after its commas (a spec has no spaces)."""
    parts = spec.split(",")
    return [p + "," for p in parts[:-1]] + parts[-1:]


def chance_text(p: float | None) -> str:
    """A chance as a short percentage ("" for none; never a rounded 0% or 100%)."""
    if p is None:
        return ""
    if p > 0.999:
        return ">99.9%"
    if p < 0.001:
        return "<0.1%"
    return f"{100 * p:.1f}%" if p > 0.99 or p < 0.01 else f"{100 * p:.0f}%"
