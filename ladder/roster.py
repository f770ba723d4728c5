"""The named bots of a tournament, from `--bot NAME=SPEC` options or a TOML file.

A name is how the ladder knows a bot; a spec is how `ai.bots.make_bot` builds it. The TOML file
lists the bots in a `[bots]` table, name = spec:

    [bots]
    strong = "strong"
    quick = "ismcts(iterations=500)"
    mine = "python:my_bots:make_bot(depth=2)"

Everything is checked (names, specs, and that every bot can be built) before any game starts.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ai.bots import BotSpecError, make_bot
from engine.core.errors import TiantiError
from ladder.worker import BotSetupError, check_bots, is_foreign

# A bots file is a few lines; anything much larger (or endless, like /dev/zero) is a mistake.
MAX_BOTS_FILE_BYTES = 1 << 20
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+\-]{0,63}$")


class RosterError(TiantiError, ValueError):
    """A malformed bot name, spec or bots file."""


def check_name(name: str, where: str) -> str:
    if not _NAME.match(name):
        raise RosterError(
            f"{where}: the bot name {name!r} is not allowed: use 1-64 letters, digits and "
            f"_ . + - (not starting with . + -)")
    return name


def parse_bot_option(text: str) -> tuple[str, str]:
    """`NAME=SPEC`, or a bare spec without options (`random`), which names itself."""
    head, eq, spec = text.partition("=")
    if eq and "(" not in head:
        name, spec = head.strip(), spec.strip()
    else:
        name, spec = text.strip(), text.strip()
        if "(" in name:
            raise RosterError(
                f"--bot {text!r}: a spec with options needs a name, e.g. --bot 'quick={text}'")
    check_name(name, f"--bot {text!r}")
    if not spec:
        raise RosterError(f"--bot {text!r}: the spec after '=' is empty")
    return name, spec


def load_bots_file(path: str | Path) -> list[tuple[str, str]]:
    """The (name, spec) pairs of a TOML bots file, in file order."""
    p = Path(path)
    try:
        if not p.exists():
            raise RosterError(f"the bots file {p} does not exist")
        if not p.is_file():
            raise RosterError(f"the bots file {p} is not a regular file")
        with open(p, "rb") as f:
            data_bytes = f.read(MAX_BOTS_FILE_BYTES + 1)
        if len(data_bytes) > MAX_BOTS_FILE_BYTES:
            raise RosterError(f"the bots file {p} is larger than {MAX_BOTS_FILE_BYTES // 1024} KiB: "
                              f"not a bots file")
        text = data_bytes.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RosterError(f"cannot read the bots file {p}: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RosterError(f"the bots file {p} is not valid TOML: {e}") from None
    bots = data.get("bots")
    if not isinstance(bots, dict) or not bots:
        raise RosterError(
            f"the bots file {p} needs a [bots] table of name = \"spec\" lines, e.g.\n"
            f"[bots]\nrand = \"random\"")
    out = []
    for name, spec in bots.items():
        if not isinstance(spec, str) or not spec.strip():
            raise RosterError(
                f"the bots file {p}: bots.{name} must be a spec string such as \"random\", got "
                f"{spec!r}")
        out.append((check_name(name, f"the bots file {p}"), spec.strip()))
    other = sorted(set(data) - {"bots"})
    if other:
        raise RosterError(f"the bots file {p} has unknown tables or keys: {', '.join(other)}; "
                          f"only [bots] is read")
    return out


def roster(bot_options: list[str] | None, bots_file: str | Path | None,
           move_timeout: float | None = 60.0) -> list[tuple[str, str]]:
    """All the named bots of a tournament, checked: distinct names, and each spec builds.

    tianti's own bots are made here; a user's bot (`python:` spec) runs code nobody has
    checked, so it is made in a separate process, as a worker would make it (time-limited by
    `move_timeout`, see `ladder.match.setup_limit`; sandboxed): a constructor that raises,
    hangs, exits or kills its process is an error naming the bot, and nothing it prints gets
    into this process's output."""
    bots = [parse_bot_option(b) for b in bot_options or []]
    if bots_file is not None:
        bots += load_bots_file(bots_file)
    names = [n for n, _ in bots]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise RosterError(f"bot names must be distinct; repeated: {', '.join(repeated)}")
    for name, spec in bots:
        if is_foreign(spec):
            continue
        try:
            make_bot(spec)
        except BotSpecError as e:
            raise RosterError(f"bot {name!r}: {e}") from None
        except Exception as e:
            raise RosterError(f"bot {name!r} ({spec}) cannot be made: {type(e).__name__}: {e}") from None
    try:
        check_bots([(n, s) for n, s in bots if is_foreign(s)], move_timeout)
    except BotSetupError as e:
        raise RosterError(str(e)) from None
    return bots
