"""What the CLI tests expect of an error: one message on stderr, `error: ...`, on one line
when it fits 80 columns and otherwise continued on lines indented under its first word
(ladder/cli/errorline.py); tests/cli/conftest.py checks every line's width."""
from __future__ import annotations

from typer.testing import Result

INDENT = " " * len("error: ")


def error_message(result: Result, stream: str = "stderr") -> str:
    """The error `result` printed, its lines joined into one; fails unless it is one error
    (a first line starting with 'error: ', the others indented continuations)."""
    text = getattr(result, stream)
    first, *rest = [line for line in text.splitlines() if line.strip()] or [""]
    assert first.startswith("error: "), text
    assert all(line.startswith(INDENT) for line in rest), text
    return " ".join(text.split())
