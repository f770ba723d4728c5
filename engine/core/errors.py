"""The errors tianti raises on bad input. Each says which value was wrong and what is allowed."""
from __future__ import annotations


class TiantiError(Exception):
    """Base of every error tianti raises on purpose."""


class IllegalActionError(TiantiError, ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


class OptionError(TiantiError, ValueError):
    """An unknown game, an unknown option, or an option value out of range."""


class RecordError(TiantiError, ValueError):
    """A game record (JSON) that is malformed or does not replay."""
