"""Checks for the index arguments of the public State methods (a seat, a cell, a talent ...).

The compiled rules index fixed-size C arrays with these values and check nothing (they run
without the GIL in the search's inner loop), so every Python entry point that passes a caller's
value down must check it first: an out-of-range seat would read past the players, a huge one
would crash the process. These helpers convert a value once, with `operator.index` (so a numpy
integer works, and an object whose `__index__` answers differently on each call is asked only
once: the caller must use the returned int, never the original object), and raise a clear error
naming the argument, the value and the allowed range:

- TypeError for what is not an integer (a str, a float, None, a bool ...);
- ValueError for an integer out of range.
"""
from __future__ import annotations

import operator
from typing import Any, Sequence


def safe_repr(value: Any) -> str:
    """repr() that cannot fail or run long on a caller's object (a bot's object may do anything
    in `__repr__`), cut to 80 characters."""
    try:
        text = repr(value)
    except Exception:
        return f"<{type(value).__name__} object>"
    return text if len(text) <= 80 else text[:77] + "..."


def as_index(value: Any, name: str) -> int:
    """`value` as a plain int (converted once, with operator.index); TypeError if it is not an
    integer. bool is refused: True as "seat 1" is almost certainly a bug in the caller."""
    if type(value) is int:  # the common case, first (a bool's type is bool)
        return value
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got the bool {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{name} must be an integer, got {type(value).__name__} {safe_repr(value)}"
        ) from None


def check_range(value: Any, name: str, low: int, high: int) -> int:
    """`value` as an int in low..high-1 (`as_index`, then ValueError if out of range)."""
    i = as_index(value, name)
    if not low <= i < high:
        raise ValueError(f"{name} must be in {low}..{high - 1}, got {i}")
    return i


def check_seat(state: Any, seat: Any, name: str = "seat") -> int:
    """`seat` as an int naming one of `state`'s seats (0..num_players-1)."""
    n = state.num_players()
    i = as_index(seat, name)
    if not 0 <= i < n:
        raise ValueError(f"{name} must be a seat in 0..{n - 1} ({n} players), got {i}")
    return i


def check_optional_seat(state: Any, seat: Any, name: str = "seat") -> int | None:
    """None, or `seat` checked as by `check_seat`."""
    return None if seat is None else check_seat(state, seat, name)


def check_name_or_index(names: Sequence[str], value: Any, name: str) -> int:
    """An index into `names`, given either as one of the names (a str) or as an index in
    0..len(names)-1; ValueError for an unknown name or an index out of range."""
    if isinstance(value, str):
        try:
            return names.index(value)
        except ValueError:
            raise ValueError(f"unknown {name} {value!r}") from None
    try:
        return check_range(value, name, 0, len(names))
    except TypeError:
        raise TypeError(
            f"{name} must be a name or an index in 0..{len(names) - 1}, "
            f"got {type(value).__name__} {value!r}"
        ) from None
