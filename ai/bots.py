"""Bots: the `Bot` protocol, the built-in bots, and the parser for bot spec strings.

A bot is asked for a move with `step(state)`. The state it is handed is a determinization from
its own seat's point of view, so a bot cannot read hidden information whatever it does.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Protocol, runtime_checkable

from engine.core.errors import TiantiError


class BotSpecError(TiantiError, ValueError):
    """A bot spec string that names an unknown bot or option, or gives a bad value."""


@runtime_checkable
class Bot(Protocol):
    """What a bot implements; `restart` and `inform_action` are optional."""

    def step(self, state: Any) -> int:
        """The action to play in `state` (one of `state.legal_actions()`)."""
        ...


class RandomBot:
    """Plays a uniformly random legal action."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def step(self, state: Any) -> int:
        return self._rng.choice(state.legal_actions())

    def restart(self) -> None:
        pass


# name -> (factory, {option: (type, default, help)})
BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, tuple[BotFactory, dict[str, tuple[type, Any, str]]]] = {
    "random": (RandomBot, {"seed": (int, None, "seed of the bot's own random choices")}),
}


def bot_names() -> list[str]:
    return sorted(_REGISTRY)


def describe_bots() -> list[dict[str, Any]]:
    """Every bot a spec can name, with its options (for `tianti bots`)."""
    return [
        {"name": name, "help": (factory.__doc__ or "").strip().splitlines()[0],
         "options": {k: {"type": t.__name__, "default": d, "help": h}
                     for k, (t, d, h) in opts.items()}}
        for name, (factory, opts) in sorted(_REGISTRY.items())
    ]


def _convert(value: str, kind: type, bot: str, key: str) -> Any:
    try:
        if kind is bool:
            if value.lower() in ("true", "1", "yes"):
                return True
            if value.lower() in ("false", "0", "no"):
                return False
            raise ValueError(value)
        return kind(value)
    except ValueError:
        raise BotSpecError(
            f"bot {bot!r}: option {key!r} must be {kind.__name__}, got {value!r}"
        ) from None


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split `name(key=value,...)` into the name and its raw options."""
    spec = spec.strip()
    if "(" not in spec:
        return spec, {}
    if not spec.endswith(")"):
        raise BotSpecError(f"bot spec {spec!r}: missing ')'")
    name, _, inner = spec[:-1].partition("(")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in inner.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BotSpecError(f"bot spec {spec!r}: {part!r} is not key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def make_bot(spec: str, **overrides: Any) -> Bot:
    """The bot a spec string describes, e.g. "random" or "random(seed=3)"."""
    name, raw = parse_spec(spec)
    if name.startswith("python:"):
        return _python_bot(name, raw)
    if name not in _REGISTRY:
        raise BotSpecError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
    factory, declared = _REGISTRY[name]
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in declared:
            allowed = ", ".join(declared) or "none"
            raise BotSpecError(f"bot {name!r} has no option {key!r}; its options: {allowed}")
        kwargs[key] = _convert(value, declared[key][0], name, key)
    kwargs.update(overrides)
    return factory(**kwargs)


def _python_bot(name: str, raw: dict[str, str]) -> Bot:
    """`python:module:factory(key=value,...)`: a user's own bot, built by calling factory."""
    import importlib

    parts = name.split(":")
    if len(parts) != 3 or not all(parts[1:]):
        raise BotSpecError(f"bot spec {name!r}: expected python:module:factory")
    try:
        module = importlib.import_module(parts[1])
        factory = getattr(module, parts[2])
    except (ImportError, AttributeError) as e:
        raise BotSpecError(f"bot spec {name!r}: {e}") from None
    bot = factory(**raw)
    if not callable(getattr(bot, "step", None)):
        raise BotSpecError(f"bot spec {name!r}: the factory did not return a bot with step()")
    return bot
