"""The errors tianti raises on bad input. Each says which value was wrong and what is allowed."""
from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """' (did you mean X?)' with the name closest to a misspelt `word` (difflib), for an
    error message; '' when none is close. One name only, so that the message stays one line of
    an 80-column terminal ("did you mean strong?", not every strong-vN after it)."""
    close = difflib.get_close_matches(str(word), list(names), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


class TiantiError(Exception):
    """Base of every error tianti raises on purpose."""


class IllegalActionError(TiantiError, ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


class OptionError(TiantiError, ValueError):
    """An unknown game, an unknown option, or an option value out of range."""


class RecordError(TiantiError, ValueError):
    """A game record (JSON) that is malformed or does not replay."""
