"""The bots a spec names, as the referee seats them: tianti's own in its process, every other in
a process of its own.

- `exec:COMMAND ARGS`: any program that speaks the protocol (docs/PROTOCOL.md). The command is
  split as a shell would (no shell runs it); a command or argument naming an existing file
  relative to the folder tianti was started in is made absolute (the bot itself starts in an
  empty folder of its own); a bare command name is looked up on the user's PATH (the sandbox's
  `programs.find_program`). It gets no PYTHONPATH.
- `python:module:factory(...)`: a user's Python bot, out of process by default, through the
  adapter (`python -m ladder.referee.adapter`), which finds the module on PYTHONPATH, in the
  folder tianti was started in, or among installed packages.
- `inproc:python:module:factory(...)`: the same bot inside the referee's process (faster; the
  user vouches for it: it can reach everything there).
- anything else: tianti's own bots (`ai.bots.make_bot`), in the referee's process.
"""
from __future__ import annotations

import os
import shlex
import sys
from typing import Any, Sequence

from ai.bots import BotSpecError, make_bot

EXEC = "exec:"
PYTHON = "python:"
INPROC = "inproc:"


def placement(spec: str) -> str:
    """Where the bot of `spec` plays: "process" (its own), "inproc" (a user's bot inside the
    referee's process, by request) or "builtin" (tianti's own, inside)."""
    s = spec.strip()
    if s.startswith(EXEC) or s.startswith(PYTHON):
        return "process"
    if s.startswith(INPROC):
        return "inproc"
    return "builtin"


def in_process(spec: str) -> str:
    """`spec` asked to run in the referee's process (`python:` specs get `inproc:`)."""
    s = spec.strip()
    return INPROC + s if s.startswith(PYTHON) else spec


def _tianti_root() -> str:
    import ladder

    return os.path.dirname(os.path.dirname(os.path.abspath(ladder.__file__)))


def python_path(origin: str = "") -> list[str]:
    """Where the adapter looks for modules: tianti's sources, the folder tianti was started in
    (`origin`, if given and here, else the current folder), then this process's own import path
    (PYTHONPATH, installed packages, Ray's shipped modules)."""
    import tempfile

    out: list[str] = []
    # the interpreter finds its own library and installed packages by itself; the whole
    # temporary folder or root are never handed to a bot
    own = tuple(os.path.abspath(p) + os.sep for p in {sys.prefix, sys.base_prefix})
    refused = {os.path.abspath(tempfile.gettempdir()), "/tmp", os.sep}
    for entry in [_tianti_root(), _folder(origin), *sys.path]:
        entry = os.path.abspath(entry or os.getcwd())
        if (entry not in out and entry not in refused and os.path.isdir(entry)
                and not (entry + os.sep).startswith(own)):
            out.append(entry)
    return out


def _folder(origin: str) -> str:
    """The folder relative names are found in: `origin` (the tournament's, from a task) where it
    exists on this machine, else the current folder."""
    return origin if origin and os.path.isdir(origin) else os.getcwd()


def tianti_packages() -> list[str]:
    """The folders of tianti's own packages (what `import ladder` needs, and an editable
    install's finder points at): every bot may see them, never the folder they are in."""
    root = _tianti_root()
    return [os.path.join(root, name) for name in ("ai", "engine", "ladder")
            if os.path.isdir(os.path.join(root, name))]


def module_files(spec: str, pythonpath: Sequence[str]) -> list[str]:
    """The file or package folder of a `python:module:factory` bot's top-level module in the
    first `pythonpath` entry that has it (what the bot may see of the folder tianti runs in);
    [] when it is not in one of them (an installed package: the interpreter finds it)."""
    name = spec.strip()[len(PYTHON):].split(":", 1)[0].split(".", 1)[0].strip()
    if not name.isidentifier():
        return []
    for entry in pythonpath:
        package = os.path.join(entry, name)
        if os.path.isdir(package):
            return [package]
        names = sorted(os.listdir(entry)) if os.path.isdir(entry) else []
        found = [os.path.join(entry, f) for f in names if f == name + ".py"
                 or (f.startswith(name + ".") and f.endswith((".so", ".pyd")))]
        if found:
            return found
    return []


def sandbox_paths(spec: str, origin: str = "") -> dict[str, list[str]]:
    """What a process bot's sandbox is given of the files here, as `sandbox.spawn`'s
    `pythonpath`, `expose` and `conceal`: a `python:` bot its PYTHONPATH (see `python_path`) and
    its module's file or package in the folder tianti runs in; an `exec:` bot no PYTHONPATH;
    both tianti's packages; and that folder concealed (hidden but for what they are given)."""
    folder = _folder(origin)
    pythonpath = python_path(origin) if spec.strip().startswith(PYTHON) else []
    expose = tianti_packages() + (module_files(spec, [folder]) if pythonpath else [])
    return {"pythonpath": pythonpath, "expose": expose, "conceal": [folder]}


def command(spec: str, origin: str = "", user_path: str = "") -> list[str]:
    """The program (argv) that plays a process bot's spec; BotSpecError if it names none. A
    relative name is looked up in `origin` (see `_folder`), a bare command name on `user_path`
    (the tournament's PATH; "": this process's), then the system's PATH (left bare if it is on
    neither: the sandbox says it is not found)."""
    s = spec.strip()
    if s.startswith(PYTHON):
        if len(s.split("(", 1)[0].split(":")) != 3:
            raise BotSpecError(f"bot spec {spec!r}: expected python:module:factory")
        return [sys.executable, "-m", "ladder.referee.adapter", s]
    if not s.startswith(EXEC):
        raise BotSpecError(f"bot spec {spec!r} does not name a program")
    try:
        argv = shlex.split(s[len(EXEC):])
    except ValueError as e:
        raise BotSpecError(f"bot spec {spec!r}: {e}") from None
    if not argv:
        raise BotSpecError(f"bot spec {spec!r}: exec: needs a command")
    here = _folder(origin)
    if "/" not in argv[0]:
        from ladder.referee.programs import find_program

        argv[0] = find_program(argv[0], here, user_path or None) or argv[0]
    out = []
    for i, arg in enumerate(argv):
        path = os.path.join(here, arg)
        if not os.path.isabs(arg) and ("/" in arg or i > 0) and os.path.exists(path):
            arg = path
        out.append(arg)
    return out


def make_player(spec: str, *, move_timeout: float | None = None,
                setup_timeout: float | None = None, origin: str = "", limits: str = "",
                hide: Sequence[str] = (), user_path: str = "", **overrides: Any) -> Any:
    """The bot `spec` names, ready to be seated (see the module doc). A process bot is started
    and has shaken hands when this returns (a failure is a `BotFault`). `origin` is the folder
    the tournament runs in and `limits` its $TIANTI_BOT_LIMITS, when the game is played
    elsewhere (a Ray worker runs in Ray's folder and environment); empty: this process's.
    `hide` names paths the bot's sandbox hides even where it could otherwise see them (the
    tournament's store); `user_path` is the tournament's PATH, where a bare `exec:` command is
    looked up ("": this process's). The folder tianti runs in is hidden from the bot but for
    its own files (its program, the arguments naming files, a `python:` bot's module or
    package) and tianti's packages; tianti's data files are hidden even among those."""
    from ladder.referee.host import ProcessBot

    if placement(spec) == "process":
        return ProcessBot(command(spec, origin, user_path), move_timeout=move_timeout,
                          setup_timeout=setup_timeout, limits=limits, hide=hide,
                          **sandbox_paths(spec, origin))
    return make_bot(spec, **overrides)


def close_all(bots: Sequence[Any]) -> None:
    """Quit the process bots among `bots`."""
    from ladder.referee.host import ProcessBot

    for bot in bots:
        if type(bot) is ProcessBot:
            bot.close()
