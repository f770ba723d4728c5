"""The Python-facing `Game`: a game's name, its validated options, and its initial states."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from engine.core.errors import OptionError, did_you_mean


@dataclass(frozen=True)
class Option:
    """One game option: its type, default, allowed values and a line of help."""

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None  # the allowed values, when a short list
    check: Callable[[Any], str | None] | None = None  # returns a complaint, or None if fine

    def validate(self, value: Any) -> Any:
        if value is None and self.default is None:
            return None
        if self.kind is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} must be true or false, got {value!r}")
        elif self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} must be an integer, got {value!r}")
        elif not isinstance(value, self.kind):
            raise OptionError(
                f"option {self.name!r} must be a {self.kind.__name__}, got {value!r}"
            )
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError(f"option {self.name!r} is {value!r}; allowed: {allowed}")
        if self.check is not None:
            complaint = self.check(value)
            if complaint:
                raise OptionError(f"option {self.name!r} is {value!r}: {complaint}")
        return value


class Game:
    """A game with fixed options; makes initial states. Subclasses set NAME, OPTIONS and
    implement `_new_state`."""

    NAME: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: Any) -> None:
        known = {o.name: o for o in self.OPTIONS}
        unknown = sorted(set(options) - set(known))
        if unknown:
            # The closest name, else the list (`tianti games` lists every game's options).
            hint = did_you_mean(unknown[0], known) or f"; allowed: {', '.join(known)}"
            raise OptionError(
                f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
                f"for {self.NAME}{hint}"
            )
        values = {}
        for name, opt in known.items():
            values[name] = opt.validate(options.get(name, opt.default))
        self.options: dict[str, Any] = self._complete_options(values)

    def _complete_options(self, values: dict[str, Any]) -> dict[str, Any]:
        """Cross-option checks and implied values (games override)."""
        return values

    @classmethod
    def _legacy_record_options(cls, options: dict[str, Any], version: int) -> dict[str, Any]:
        """The options under which a record of an older `version` (see
        engine.core.state.RECORD_VERSIONS) replays to the same game (games override)."""
        return options

    @classmethod
    def _stored_record_version(cls, options: dict[str, Any], actions: list[int]) -> int:
        """The record version a game kept without one (a ladder store's row: its complete
        options and its actions) was written under (games override)."""
        from engine.core.state import RECORD_VERSION

        return RECORD_VERSION

    def _legacy_record_fill(self, state, version: int, next_action: int | None) -> tuple[int, ...]:
        """Replaying a record of an older `version`: the actions the older rules took by
        themselves after the action just applied to `state` (`next_action` is the record's
        next one, None at its end); games override."""
        return ()

    @property
    def name(self) -> str:
        return self.NAME

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    @property
    def num_distinct_actions(self) -> int:
        raise NotImplementedError

    def new_initial_state(self, seed: int | None = None):
        """The initial state; `seed` fixes every chance event (None: a random seed)."""
        from engine.core.state import normalize_seed

        return self._new_state(normalize_seed(seed))

    def _new_state(self, seed: int):
        raise NotImplementedError

    @classmethod
    def describe_options(cls) -> list[dict[str, Any]]:
        """The options with their defaults and help, for `tianti games`."""
        return [
            {"name": o.name, "type": o.kind.__name__, "default": o.default, "help": o.help,
             "choices": list(o.choices) if o.choices else None}
            for o in cls.OPTIONS
        ]

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.NAME!r}, {opts})"
