"""Every command the CLI tests run through typer's CliRunner runs on an 80-column terminal
(COLUMNS=80), and when it fails, no line it wrote to stderr may be wider than 80 columns: the
CLI's errors stay one line on the terminal a newcomer has (issue 50). A test making a bad input
fails at once with the line that is too wide, so every error path the CLI tests reach is
checked, and a new test of a new error is checked without listing it anywhere.

Two kinds of line may be wider, because they must be copied whole: a single word (a path kept
unbroken) and a command to copy on a line of its own (`  tianti tournament resume 2 --db ...`).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from engine.core.text import display_width

WIDTH = 80
COMMAND_TO_COPY = re.compile(r"^  \S*tianti ")


def too_wide(result: Result) -> list[str]:
    """The lines of a failed command's stderr wider than WIDTH columns (but for a single
    word or a command to copy); [] for a command that succeeded."""
    if result.exit_code == 0:
        return []
    return [line for line in result.stderr.splitlines()
            if display_width(line) > WIDTH and len(line.split()) > 1
            and not COMMAND_TO_COPY.match(line)]


@pytest.fixture(autouse=True)
def errors_fit_80_columns(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run every CliRunner command at COLUMNS=80 and fail on a wider error line."""
    invoke = CliRunner.invoke

    def checked(self: CliRunner, app: Any, args: Any = None, *rest: Any,
                env: Any = None, **kwargs: Any) -> Result:
        env = {"COLUMNS": str(WIDTH), **(env or {})}
        result = invoke(self, app, args, *rest, env=env, **kwargs)
        wide = too_wide(result)
        assert not wide, (f"`tianti {' '.join(map(str, args or []))}` (exit {result.exit_code}) "
                          f"printed error lines wider than {WIDTH} columns: {wide}")
        return result

    monkeypatch.setattr(CliRunner, "invoke", checked)
    yield
