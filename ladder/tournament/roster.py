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
from engine.core.text import printable, unsafe_characters
from ladder.tournament.bot_check import BotSetupError, check_bots, is_foreign

# A bots file is a few lines; anything much larger (or endless, like /dev/zero) is a mistake.
MAX_BOTS_FILE_BYTES = 1 << 20
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+\-]{0,63}$")


class RosterError(TiantiError, ValueError):
    """A malformed bot name, spec or bots file."""


# The spec prefixes of a user's own code: a Python bot (`python:module:factory`) or a program
# speaking the bot protocol (`exec:COMMAND ARGS`).
CODE_PREFIXES = ("python:", "inproc:", "exec:")


def runs_code(spec: str) -> bool:
    """Whether a bot spec runs code of the user's (a `python:`, `inproc:python:` or `exec:`
    bot) rather than one of tianti's own bots. A file or store naming one is data, not consent: such a bot is only
    made when the user names it again or says they trust the file (`--trust`)."""
    return spec.strip().lower().startswith(CODE_PREFIXES)


def check_trusted(bots: list[tuple[str, str]], named: list[str] | None, trust: bool,
                  source: str) -> None:
    """Refuse, before anything is made, the bots read from `source` (a stored run) that run
    code (`runs_code`) unless `trust` or the user named each again with the same spec (`--bot
    NAME=SPEC`, as when the run was started). A bot named again must be one of `bots` with its
    spec: a resumed run keeps its bots."""
    stored = dict(bots)
    again = [parse_bot_option(b) for b in named or []]
    for name, spec in again:
        if name not in stored:
            raise RosterError(f"--bot {name}: {source} has no bot {name!r} (its bots: "
                              f"{printable(', '.join(stored), 120)})")
        if stored[name] != spec:
            raise RosterError(f"--bot {name}={spec}: {source} plays {name!r} as "
                              f"{printable(stored[name], 80)!r}, and a resumed run keeps its bots")
    if trust:
        return
    vouched = dict(again)
    unnamed = [(n, s) for n, s in bots if runs_code(s) and vouched.get(n) != s]
    if unnamed:
        shown = "; ".join(f"{n}={s}" for n, s in unnamed)
        raise RosterError(
            f"{source} names bots that run code ({printable(shown, 160)}): name each again "
            f"with --bot NAME=SPEC, or pass --trust only if you trust the store")


def check_text(text: str, what: str) -> str:
    """Refuse text (a label, a spec) holding characters a terminal acts on (line breaks,
    ESC...): in a listing they could forge or hide lines."""
    bad = unsafe_characters(text)
    if bad:
        raise RosterError(f"{what} holds control characters ({' '.join(bad)}): they are not "
                          f"allowed")
    return text


def check_name(name: str, where: str) -> str:
    if not _NAME.fullmatch(name):
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
    check_text(spec, f"--bot {printable(text, 60)!r}: the spec")
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
        check_text(spec, f"the bots file {p}: bots.{printable(name, 64)}")
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
    `move_timeout`, see `ai.match.setup_limit`; sandboxed): a constructor that raises,
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
