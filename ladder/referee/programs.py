"""How a bot's command is found, and what it needs to run, so that it runs in its sandbox as it
runs in the user's shell.

`find_program(name)` looks a bare name up on the PATH of the user who runs tianti (then the
system's), and a relative path in the folder tianti runs in; a pyenv shim (a shell script that
needs the whole pyenv tree) is replaced by the interpreter it would run (`pyenv which`).
`program_needs(program)` lists what the sandbox must bind read-only for it: the program's
installation (for `.../bin/prog`, the folder above bin: an interpreter's prefix, a virtual
environment), every link on the way to the real file (a venv's `python` -> a pyenv or user
Python in a home folder), its `#!` interpreter and that interpreter's own needs (recursively), a
venv's base interpreter (`home` in pyvenv.cfg); and the folders to put first on the bot's PATH
(an interpreter found through `#!/usr/bin/env NAME` on the user's PATH, so that `env` inside the
sandbox finds the same one). Nothing else of a home folder is named.

`tianti_files(folders)` finds tianti's own data in folders a bot is given (an SQLite store, a
save, an export, a review), which the sandbox hides even there.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

# The PATH a bot sees after the folders of its interpreters: system tools only.
BOT_PATH = "/usr/local/bin:/usr/bin:/bin"
# How deep `#!` interpreters are followed (a script run by a script run by ...).
_MAX_DEPTH = 4
# How many entries `tianti_files` looks at in the folders a bot is given, at most.
_SCAN_LIMIT = 20000
# Folders `tianti_files` does not descend into: installed libraries and tools' own.
_SKIPPED = {"site-packages", "dist-packages", "__pycache__", ".git", "node_modules", ".hg",
            ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache", "lib", "lib64", "include"}
# What the first bytes of tianti's JSON files hold: a save, a review, a game record (an
# export is one record a line). Not its models (`tianti-eval-model`), which are its code's.
_JSON_MARKS = tuple(f'"format":{space}"tianti-{kind}"'.encode()
                    for kind in ("play", "review", "record") for space in ("", " "))
_SQLITE = b"SQLite format 3\0"


def user_path() -> str:
    """The PATH of the user who runs tianti (this process's), or the system's if it has none."""
    return os.environ.get("PATH") or BOT_PATH


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_program(name: str, cwd: str | None = None, path: str | None = None) -> str | None:
    """The absolute path of the program `name` as the user's shell would run it, None if there
    is none: a name with a slash is taken relative to `cwd` (default: the current folder); a bare
    name is looked up on `path` (default: the user's PATH), then on the system's. A pyenv shim is
    resolved to the interpreter it runs."""
    if "/" in name:
        found = os.path.abspath(os.path.join(cwd or os.getcwd(), name))
        return found if _executable(found) else None
    for where in (path if path is not None else user_path(), BOT_PATH):
        hit = shutil.which(name, path=where)
        if hit:
            hit = os.path.abspath(hit)
            real = _unshim(hit, name, cwd)
            if real is not None:
                return real
    return None


def _unshim(program: str, name: str, cwd: str | None) -> str | None:
    """`program` itself, or for a pyenv shim (`PYENV_ROOT/shims/NAME`), the interpreter pyenv
    would run in `cwd` (None if pyenv cannot say)."""
    folder = Path(program).parent
    if folder.name != "shims":
        return program
    root = folder.parent
    pyenv = next((str(p) for p in (root / "libexec" / "pyenv", root / "bin" / "pyenv")
                  if _executable(str(p))), None)
    if pyenv is None:
        return program
    try:
        done = subprocess.run([pyenv, "which", name], capture_output=True, text=True, timeout=20,
                              cwd=cwd or os.getcwd(), env={**os.environ, "PYENV_ROOT": str(root)},
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    real = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    return os.path.abspath(real) if done.returncode == 0 and _executable(real) else None


@dataclass
class Needs:
    """What a program needs in its sandbox: `paths` bound read-only, `path_dirs` first on its
    PATH."""

    paths: list[Path] = field(default_factory=list)
    path_dirs: list[str] = field(default_factory=list)


def _links(program: str) -> list[Path]:
    """`program`, every link on the way to the real file (each hop, as written), and the real
    file."""
    chain: list[Path] = []
    current = os.path.abspath(program)
    for _ in range(40):
        chain.append(Path(current))
        if not os.path.islink(current):
            break
        target = os.readlink(current)
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
    chain.append(Path(os.path.realpath(program)))
    return chain


def _installation(path: Path) -> Path:
    """The folder above `bin` for `.../bin/prog` (an interpreter's prefix, a venv), else the
    file itself."""
    parent = path.parent
    return parent.parent if parent.name == "bin" and parent.parent != Path("/") else path


def _shebang(path: Path) -> list[str]:
    """The words of a script's `#!` line ([] if it has none)."""
    try:
        with open(path, "rb") as file:
            head = file.read(512)
    except OSError:
        return []
    if not head.startswith(b"#!"):
        return []
    return head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()


def _venv_home(root: Path) -> Path | None:
    """A virtual environment's base interpreter folder (`home` in its pyvenv.cfg)."""
    try:
        text = (root / "pyvenv.cfg").read_text(errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() == "home" and value.strip():
            return Path(value.strip())
    return None


def program_needs(program: str, path: str | None = None, cwd: str | None = None) -> Needs:
    """What `program` (an absolute path, from `find_program`) needs in the sandbox (see the
    module doc); `path` is the user's PATH, for `#!/usr/bin/env NAME`."""
    needs = Needs()
    seen: set[str] = set()

    def visit(target: str, depth: int) -> None:
        if target in seen or depth > _MAX_DEPTH:
            return
        seen.add(target)
        for link in _links(target):
            needs.paths.append(_installation(link))
            home = _venv_home(_installation(link))
            if home is not None:
                needs.paths.append(home.parent if home.name == "bin" else home)
        words = _shebang(Path(os.path.realpath(target)))
        if not words:
            return
        if os.path.basename(words[0]) == "env":
            name = next((w for w in words[1:] if not w.startswith("-") and "=" not in w), None)
            found = find_program(name, cwd, path) if name else None
            if found is not None:
                folder = os.path.dirname(found)
                if folder not in needs.path_dirs:
                    needs.path_dirs.append(folder)
                visit(found, depth + 1)
            visit(words[0], depth + 1)
        else:
            visit(words[0], depth + 1)

    visit(program, 0)
    return needs


def tianti_files(folders: list[Path]) -> list[Path]:
    """tianti's own data among the files of `folders` (and their subfolders, but not installed
    libraries'): SQLite files (a store) and JSON files that say they are tianti's (a save, a
    review, an export), at most `_SCAN_LIMIT` entries looked at."""
    found: list[Path] = []
    budget = _SCAN_LIMIT
    queue = [f for f in folders if f.is_dir()]
    seen: set[Path] = set()
    while queue and budget > 0:
        folder = queue.pop()
        if folder in seen:
            continue
        seen.add(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            budget -= 1
            if budget <= 0:
                break
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in _SKIPPED:
                        queue.append(Path(entry.path))
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue
                with open(entry.path, "rb") as file:
                    head = file.read(256)
            except OSError:
                continue
            if head.startswith(_SQLITE) or (head.lstrip().startswith(b"{")
                                            and any(mark in head for mark in _JSON_MARKS)):
                found.append(Path(entry.path))
    return found
