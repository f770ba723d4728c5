"""The sandbox a bot process runs in, so that nothing of the referee is within its reach.

`spawn(argv)` starts a bot with only its two pipes (stdin, stdout; every other descriptor closed;
its stderr goes to a size-capped file in a folder of the referee's that the bot cannot read), an
empty working folder of its own (also its HOME), a scrubbed environment, rlimits on memory, file
size, processes and open files (`Limits`), in a session and process group of its own, first in
line for the kernel's OOM killer, and killed if the referee's side dies.

On Linux, where the kernel allows, it also gets namespaces of its own (util-linux `unshare`): a
PID namespace (it is PID 1 there: it cannot see or signal the referee, the worker or other bots),
a network namespace (no network, unless `Limits.network`), IPC and UTS namespaces, and a mount
namespace in which every file system is read-only, /tmp and /dev/shm are small private tmpfs, and
what the bot has no business in is hidden: the referee's home, tianti's data folder (stores, saves,
seat outputs), the TIANTI_DB store, what the caller names (`hide`: a tournament names its store,
wherever `--db` put it), and as root the folders its uid
could not enter anyway (such as /root). The paths it needs (its interpreter, its PYTHONPATH, files
named on its command line, `expose`) are bound back read-only; a store stays hidden even there.

Run as root, the bot also drops to an unprivileged uid of its own (one per bot, from `UID_BASE`),
so a 0600 file stays out of reach and one bot cannot touch another's files or processes; not root,
it gets a user namespace instead (and runs as the user: it can read the user's files that are not
hidden). What the machine refuses is found once per process (`probe()`): the sandbox then falls
back to process group + rlimits (+ a uid of its own as root) and says so in
`BotProcess.isolation.warnings`.

`BotProcess.kill()` ends the bot and everything it started (its PID namespace, every process of
its uid, its process group) and removes its folder; a referee calls it when the bot's games end
as well as on a fault. A referee that dies without calling it (killed outright, or ended by
`os._exit` as multiprocessing's workers are) takes its bots along (PR_SET_PDEATHSIG), and the
next `spawn` on the machine sweeps their folders (named after the referee's pid).

As root, where the machine has a memory cgroup it may add to (v1 or v2), each bot also gets a
cgroup of its own whose limit is `memory_mb`: what all its processes hold together, so a bot that
forks cannot multiply its share (the kernel's OOM killer ends one of its processes past it).

Not covered by default: CPU time between the bot's turns (the referee's clock only bounds its
answers; `Limits.pause` stops its process group between turns, which a process of the bot that
left the group with setsid escapes), the total memory of a bot that forks where there is no
memory cgroup (not root, or none to add to: each process then has `memory_mb`), and, without
namespaces, writes to world-writable folders and (not root) signals to the user's own processes.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import random
import re
import resource
import shlex
import shutil
import signal
import stat
import subprocess
import tempfile
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ladder.processes import pid_alive
from ladder.referee import programs

# Folders of the system's own, never scanned for tianti's data files.
_SYSTEM = (Path("/usr"), Path("/bin"), Path("/lib"), Path("/lib64"), Path("/sbin"), Path("/etc"),
           Path("/opt"))
# Uids a bot runs as when the referee is root: one per bot, far above any real account's.
UID_BASE = 1_900_000_000
UID_SPAN = 50_000_000
# The PATH a bot sees: system tools only, never the user's.
BOT_PATH = programs.BOT_PATH
# The exit status of a bot whose sandbox could not be set up (a mount refused): not its fault.
SETUP_FAILED = 125
# A bot's folder in the temporary folder: this prefix, the referee's pid, a dash, random letters.
_FOLDER = "tianti-bot-"
# How much of a bot's stderr is kept once it is killed (its folder is removed then).
_TAIL_KEPT = 65536
_TOOLS = ("unshare", "setpriv", "mount", "prlimit")


@dataclass(frozen=True)
class Limits:
    """What one bot process may use. The defaults suit a search bot with a big tree; a tournament
    may lower them (`--limits memory_mb=2048`) or let a bot use the network (`network=true`)."""

    memory_mb: int = 4096   # address space (RLIMIT_AS) of each of its processes, and (with a
    #                         memory cgroup) the memory all its processes hold together
    file_mb: int = 64       # the largest file it may write, stderr included (RLIMIT_FSIZE);
    #                         its private /tmp and working folder hold 4x that in all
    processes: int = 64     # processes and threads it may have at once (RLIMIT_NPROC)
    open_files: int = 256   # open descriptors per process (RLIMIT_NOFILE)
    network: bool = False   # False: a network namespace of its own, with no network at all
    pause: bool = True      # True: between its turns all its processes are frozen (a freezer
    #                         cgroup of its own, else SIGSTOP to each): it thinks only on its turn

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise ValueError(f"limit {field.name} must be true or false, not {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"limit {field.name} must be a whole number >= 1, not {value!r}")
        if self.open_files < 8:
            raise ValueError(f"limit open_files must be at least 8, not {self.open_files}")

    @staticmethod
    def parse(text: str) -> "Limits":
        """`"memory_mb=2048,network=true"` -> Limits with those two changed; ValueError (one line)
        names what is wrong: an unknown or repeated name, a missing `=`, a bad value."""
        names = {field.name: field for field in dataclasses.fields(Limits)}
        values: dict[str, int | bool] = {}
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            name, sep, raw = (piece.strip() for piece in item.partition("="))
            if not sep:
                raise ValueError(f"limit {item!r} needs the form name=value")
            if name not in names:
                raise ValueError(f"unknown limit {name!r}; known: {', '.join(names)}")
            if name in values:
                raise ValueError(f"limit {name!r} given twice")
            if names[name].type in ("bool", bool):
                word = raw.lower()
                if word not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                    raise ValueError(f"limit {name} must be true or false, not {raw!r}")
                values[name] = word in ("true", "yes", "on", "1")
            else:
                if not re.fullmatch(r"[0-9]{1,9}", raw):
                    raise ValueError(f"limit {name} must be a whole number, not {raw!r}")
                values[name] = int(raw)
        return Limits(**values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Isolation:
    """What a bot's sandbox achieved (`features`) and what the machine refused, with what was done
    instead (`warnings`); the run summary shows `summary()` for each bot."""

    features: tuple[str, ...]
    warnings: tuple[str, ...] = ()

    _SHORT = {"pid-namespace": "pid", "net-namespace": "net", "ipc-namespace": "ipc",
              "uts-namespace": "uts", "mount-namespace": "mnt", "user-namespace": "user"}

    def summary(self) -> str:
        """One line, at most 80 columns: the namespaces, then the other features, then how many
        warnings there are."""
        spaces = [self._SHORT[f] for f in self.features if f in self._SHORT]
        others = [f for f in self.features if f not in self._SHORT]
        short = {"private-tmp": "tmp", "read-only-root": "ro", "hidden-paths": "hide",
                 "uid-drop": "uid", "process-group": "pgrp", "empty-cwd": "cwd",
                 "scrubbed-env": "env", "no-inherited-fds": "fds", "rlimits": "rlim",
                 "memory-cgroup": "mcg", "freezer-cgroup": "frz", "stop-signals": "stop",
                 "pgrp-stop": "pgstop"}
        line = (f"ns:{','.join(spaces)} " if spaces else "no namespaces ")
        line += "+" + ",".join(short.get(f, f) for f in others)
        tail = ""
        if self.warnings:
            tail = f" ({len(self.warnings)} warning{'s' if len(self.warnings) > 1 else ''})"
        if len(line) + len(tail) > 80:
            line = line[:77 - len(tail)] + "..."
        return line + tail


_BASE_FEATURES = ("rlimits", "process-group", "empty-cwd", "scrubbed-env", "no-inherited-fds")
_NS_FEATURES = ("pid-namespace", "ipc-namespace", "uts-namespace", "mount-namespace",
                "private-tmp", "read-only-root", "hidden-paths")


@dataclass(frozen=True)
class _Plan:
    """How bots are started on this machine: `mode` is "root-ns" (namespaces + a uid of its own),
    "user-ns" (a user namespace, not root), "root-plain" (no namespaces, a uid of its own) or
    "plain" (process group + rlimits only)."""

    mode: str
    tools: Mapping[str, str]
    isolation: Isolation


def _root() -> bool:
    return os.geteuid() == 0


def _tools() -> dict[str, str]:
    found = {}
    for name in _TOOLS + ("sh",):
        path = shutil.which(name, path=BOT_PATH + ":/usr/sbin:/sbin")
        if path:
            found[name] = path
    return found


@functools.lru_cache(maxsize=1)
def _plan() -> _Plan:
    tools = _tools()
    warnings: list[str] = []
    missing = [name for name in ("unshare", "mount", "sh") + (("setpriv",) if _root() else ())
               if name not in tools]
    if not os.path.isdir("/proc/self/ns"):
        warnings.append("no Linux namespaces here: bots share the machine's view")
    elif missing:
        warnings.append(f"no {', '.join(missing)} (util-linux): bots run without namespaces")
    else:
        mode = "root-ns" if _root() else "user-ns"
        error = _try_namespaces(mode, tools)
        if error is None:
            notes = () if mode == "root-ns" else (
                "not root: a bot runs as you in a user namespace and can read your files "
                "outside the folders hidden from it",)
            return _Plan(mode, tools, Isolation(_features(mode, Limits()), notes))
        warnings.append(f"the kernel refused namespaces ({error}): "
                        "bots run in a process group with rlimits only")
    if "prlimit" not in tools:
        warnings.append("no prlimit: rlimits set in the child before exec")
    mode = "root-plain" if _root() else "plain"
    if mode == "plain":
        warnings.append("not root and no user namespace: a bot runs as you and can read your "
                        "files, and could leave its process group with setsid")
    return _Plan(mode, tools, Isolation(_features(mode, Limits()), tuple(warnings)))


def _features(mode: str, limits: Limits) -> tuple[str, ...]:
    features: list[str] = []
    if mode in ("root-ns", "user-ns"):
        features += ["pid-namespace"]
        if not limits.network:
            features.append("net-namespace")
        features += list(_NS_FEATURES[1:])
        if mode == "user-ns":
            features.append("user-namespace")
    if mode in ("root-ns", "root-plain"):
        features.append("uid-drop")
        if _memory_cgroup() is not None:
            features.append("memory-cgroup")
    if limits.pause:
        if mode in ("root-ns", "root-plain") and _freezer_root() is not None:
            features.append("freezer-cgroup")
        elif mode in ("root-ns", "user-ns", "root-plain"):
            features.append("stop-signals")
        else:
            features.append("pgrp-stop")
    return tuple(features) + _BASE_FEATURES


def pause_method(isolation: "Isolation") -> str:
    """How a bot's processes are kept off the CPU between its turns, in words, for a run's
    header: a freezer cgroup, SIGSTOP to each of its processes, its process group only, or not
    at all."""
    features = isolation.features
    if "freezer-cgroup" in features:
        return "frozen (a freezer cgroup of its own: every process it starts, in any session)"
    if "stop-signals" in features:
        return "stopped (SIGSTOP to each of its processes: no freezer cgroup here)"
    if "pgrp-stop" in features:
        return ("stopped by process group only (no freezer cgroup, no namespace: a process "
                "that calls setsid escapes)")
    return "left running (pause=false): it may take CPU from the others while they think"


@functools.lru_cache(maxsize=None)
def _memory_cgroup() -> tuple[Path, str] | None:
    """The memory cgroup this process is in, as (folder, name of its limit file), if a bot's
    cgroup can be made under it (as root; cgroup v1's memory controller, or v2's where it is
    enabled); None otherwise."""
    if not _root():
        return None
    try:
        with open("/proc/self/cgroup") as f:
            lines = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return None
    found: list[tuple[Path, str]] = []
    for _, controllers, path in lines:
        if "memory" in controllers.split(","):  # v1
            found.append((Path("/sys/fs/cgroup/memory") / path.lstrip("/"),
                          "memory.limit_in_bytes"))
    for _, controllers, path in lines:
        if controllers == "":  # v2: its memory controller enabled for the children
            root = Path("/sys/fs/cgroup")
            folder = root / path.lstrip("/")
            try:
                enabled = (folder / "cgroup.subtree_control").read_text().split()
            except OSError:
                continue
            if "memory" in enabled:
                found.append((folder, "memory.max"))
    for folder, limit in found:
        if _child_cgroup_works(folder, limit):
            return folder, limit
    return None


def _child_cgroup_works(folder: Path, control: str) -> bool:
    """Whether a cgroup made under `folder` gets the `control` file and can take processes
    (a child is made and removed)."""
    probe = folder / f"{_FOLDER}probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError:
        return False
    try:
        return (probe / control).exists() and (probe / "cgroup.procs").exists()
    finally:
        _remove_cgroup(probe, wait=0)


def _make_cgroup(limits: Limits) -> Path | None:
    """A memory cgroup of the bot's own, limited to `memory_mb` (None where there is none)."""
    found = _memory_cgroup()
    if found is None:
        return None
    parent, limit = found
    name = f"{_FOLDER}{os.getpid()}-{random.getrandbits(48):012x}"
    folder = parent / name
    try:
        folder.mkdir()
        (folder / limit).write_text(str(limits.memory_mb * 1024 * 1024))
    except OSError:
        _remove_cgroup(folder)
        return None
    return folder


def _remove_cgroup(folder: Path | None, wait: float = 2.0) -> None:
    """Remove a bot's cgroup once its processes are gone (the kernel refuses before)."""
    if folder is None:
        return
    end = time.monotonic() + wait
    while True:
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > end:
                return
            time.sleep(0.01)


def _cgroup_mounts() -> dict[str, Path]:
    """Where the cgroup hierarchies are mounted: "v2" for cgroup2, and each v1 controller's name
    (from /proc/self/mountinfo)."""
    found: dict[str, Path] = {}
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as file:
            for line in file:
                head, _, tail = line.partition(" - ")
                fields, rest = head.split(), tail.split()
                if len(fields) < 5 or len(rest) < 3:
                    continue
                point = Path(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)),
                                    fields[4]))
                if rest[0] == "cgroup2":
                    found.setdefault("v2", point)
                elif rest[0] == "cgroup":
                    for option in rest[2].split(","):
                        found.setdefault(option, point)
    except OSError:
        pass
    return found


@functools.lru_cache(maxsize=None)
def _freezer_root() -> tuple[str, Path] | None:
    """Where a bot's freezer cgroup is made, as ("v2", folder) (cgroup v2's `cgroup.freeze`, in
    the cgroup this process is in) or ("v1", folder) (the v1 freezer hierarchy's
    `freezer.state`); None where neither can be made (not root, or no freezer here). Tried once:
    a child cgroup is made and removed."""
    if not _root():
        return None
    try:
        with open("/proc/self/cgroup") as f:
            lines = [line.rstrip("\n").split(":", 2) for line in f]
    except OSError:
        return None
    mounts = _cgroup_mounts()
    candidates: list[tuple[str, Path, str]] = []
    for hierarchy, controllers, path in lines:
        if hierarchy == "0" and controllers == "" and "v2" in mounts:
            candidates.append(("v2", mounts["v2"] / path.lstrip("/"), "cgroup.freeze"))
    for hierarchy, controllers, path in lines:
        if "freezer" in controllers.split(",") and "freezer" in mounts:
            candidates.append(("v1", mounts["freezer"] / path.lstrip("/"), "freezer.state"))
    for kind, folder, control in candidates:
        if _child_cgroup_works(folder, control):
            return kind, folder
    return None


def _make_freezer() -> tuple[str, Path] | None:
    """A freezer cgroup of the bot's own, as (kind, folder), thawed; None where there is none."""
    found = _freezer_root()
    if found is None:
        return None
    kind, parent = found
    folder = parent / f"{_FOLDER}{os.getpid()}-{random.getrandbits(48):012x}"
    try:
        folder.mkdir()
    except OSError:
        return None
    return kind, folder


def _freeze_control(freezer: tuple[str, Path]) -> Path:
    """The file that freezes and thaws the cgroup."""
    kind, folder = freezer
    return folder / ("cgroup.freeze" if kind == "v2" else "freezer.state")


def _freeze_word(freezer: tuple[str, Path], frozen: bool) -> bytes:
    if freezer[0] == "v2":
        return b"1" if frozen else b"0"
    return b"FROZEN" if frozen else b"THAWED"


def _set_frozen(freezer: tuple[str, Path], frozen: bool) -> bool:
    """Freeze or thaw every process in the cgroup (the kernel does it; what they started in
    any session is in it too). False if the kernel refused."""
    try:
        _freeze_control(freezer).write_bytes(_freeze_word(freezer, frozen))
    except OSError:
        return False
    return True


def _try_namespaces(mode: str, tools: Mapping[str, str]) -> str | None:
    """Start `true` the way a bot would be started (with the limits the bots will get: those of
    $TIANTI_BOT_LIMITS, fitted to this process's own); None if it worked, else why not (one
    line: the first the tools wrote, such as prlimit's or mount's)."""
    base = Path(tempfile.mkdtemp(prefix="tianti-probe-"))
    try:
        work = base / "work"
        work.mkdir()
        argv, _ = _ns_argv(mode, tools, fit(_env_limits())[0], base, work,
                           _pick_uid() if mode == "root-ns" else None,
                           [tools["sh"], "-c", "test -d /proc/1 && test ! -e /proc/2"], (),
                           *_default_hides())
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                                  timeout=20, cwd=base, close_fds=True)
        except (OSError, subprocess.TimeoutExpired) as err:
            return str(err).splitlines()[0] if str(err) else type(err).__name__
        if done.returncode != 0:  # the first line that says why (mount's, unshare's)
            text = [line for line in done.stderr.decode(errors="replace").splitlines()
                    if line.strip() and not line.startswith((" ", "tianti sandbox:"))]
            return text[0][:120] if text else f"exit status {done.returncode}"
        return None
    finally:
        shutil.rmtree(base, ignore_errors=True)


def probe(limits: Limits | None = None) -> Isolation:
    """What this machine allows a bot's sandbox with `limits` (None: those of
    $TIANTI_BOT_LIMITS, else the defaults), fitted to this process's own (`fit`): the namespaces
    are tried once and cached."""
    plan = _plan()
    fitted, lowered = fit(limits if limits is not None else _env_limits())
    return Isolation(_features(plan.mode, fitted), plan.isolation.warnings + tuple(lowered))


def _env_limits() -> Limits:
    """The limits $TIANTI_BOT_LIMITS names (the defaults if it is unset or wrong: where it is
    wrong, the run says so before any bot starts)."""
    try:
        return Limits.parse(os.environ.get("TIANTI_BOT_LIMITS", ""))
    except ValueError:
        return Limits()


# (field of Limits, rlimit, bytes per unit, what the user set it with)
_FITTED = (("memory_mb", resource.RLIMIT_AS, 1024 * 1024, "ulimit -v"),
           ("file_mb", resource.RLIMIT_FSIZE, 1024 * 1024, "ulimit -f"),
           ("open_files", resource.RLIMIT_NOFILE, 1, "ulimit -n"),
           ("processes", resource.RLIMIT_NPROC, 1, "ulimit -u"))


def fit(limits: Limits) -> tuple[Limits, list[str]]:
    """`limits` lowered to this process's own soft rlimits, with a line for each one lowered: a
    bot never gets more than tianti runs with (`ulimit -v 3000000` makes its 4096 MB 2929), and
    prlimit could not raise a limit without privilege anyway, which would cost the bot its
    namespaces."""
    changes: dict[str, int] = {}
    lines: list[str] = []
    for name, which, unit, how in _FITTED:
        try:
            soft, _ = resource.getrlimit(which)
        except (OSError, ValueError):
            continue
        wanted = getattr(limits, name)
        if soft == resource.RLIM_INFINITY or wanted * unit <= soft:
            continue
        value = max(8 if name == "open_files" else 1, soft // unit)
        if value >= wanted:
            continue
        changes[name] = value
        lines.append(f"limit {name} lowered from {wanted} to {value}: tianti itself runs "
                     f"under that limit ({how})")
    return (dataclasses.replace(limits, **changes) if changes else limits), lines


# ---------------------------------------------------------------------------------------------
# Paths a bot needs, and whether an unprivileged uid can reach them


def _others_can(path: Path, bits: int) -> bool:
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return mode & bits == bits


def _blocking_ancestor(path: Path) -> Path | None:
    """The outermost folder above `path` that others cannot enter (no o+x), if any."""
    for parent in reversed(path.parents):
        if not _others_can(parent, stat.S_IXOTH):
            return parent
    return None


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _needed_paths(argv: Sequence[str], pythonpath: Sequence[str],
                  expose: Sequence[str], program_paths: Sequence[Path] = (),
                  conceal: Sequence[Path] = ()) -> list[Path]:
    """The paths the bot must see: what its program needs (`program_paths`, from
    `programs.program_needs`: its installation, links, interpreters), its PYTHONPATH, files on
    its command line (each with its folder, unless that folder is one of `conceal` or holds
    one: then the file alone), and whatever the caller names. A PYTHONPATH entry that is one of
    `conceal` (or holds one) is not bound as a whole: its caller exposes what is needed of it."""
    found: list[Path] = list(program_paths)
    if not program_paths:
        program = argv[0] if "/" in argv[0] else shutil.which(argv[0], path=BOT_PATH)
        if program:
            for candidate in {Path(os.path.abspath(program)), Path(os.path.realpath(program))}:
                parent = candidate.parent
                found.append(parent.parent if parent.name == "bin" and parent.parent != Path("/")
                             else candidate)
    concealed = [Path(os.path.abspath(c)) for c in conceal]

    def hides_something(folder: Path) -> bool:
        return any(_under(c, folder) for c in concealed)

    for item in list(argv[1:]) + list(expose) + [p for p in pythonpath if p]:
        if (item.startswith("/") or item in pythonpath or item in expose) and os.path.exists(item):
            for path in {Path(os.path.abspath(item)), Path(os.path.realpath(item))}:
                if item in pythonpath and item not in expose and hides_something(path):
                    continue
                found.append(path)
                if item in argv[1:] and path.is_file() and not hides_something(path.parent) \
                        and path.parent != Path("/"):
                    found.append(path.parent)  # a script's folder: its own modules, data
    unique: list[Path] = []
    for path in sorted(set(found), key=lambda p: len(p.parts)):
        if not any(_under(path, kept) for kept in unique) and path != Path("/"):
            unique.append(path)
    return unique


def _reach_warnings(paths: Sequence[Path]) -> list[str]:
    """Paths a dropped uid could not read even once bound back (their own mode lacks o+r)."""
    warnings = []
    for path in paths:
        if not path.exists():
            continue
        wanted = stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0)
        if not _others_can(path, wanted):
            warnings.append(f"{path} is not readable by others: the bot may fail to load it")
    return warnings


# ---------------------------------------------------------------------------------------------
# The command that starts a bot


def _pick_uid() -> int:
    """A uid no running process has, for one bot."""
    taken = set()
    try:
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    taken.add(entry.stat().st_uid)
                except OSError:
                    pass
    except OSError:
        pass
    while True:
        uid = UID_BASE + random.randrange(UID_SPAN)
        if uid not in taken:
            return uid


def _lifeline(tools: Mapping[str, str]) -> list[str]:
    """setpriv --pdeathsig: the bot's side is killed when the referee's thread that started it
    ends (a worker that dies takes its bots along; none is left running)."""
    return [tools["setpriv"], "--pdeathsig=KILL", "--"] if "setpriv" in tools else []


def _rlimit_args(tools: Mapping[str, str], limits: Limits, nproc: int) -> list[str]:
    if "prlimit" not in tools:
        return []
    mb = 1024 * 1024
    return [tools["prlimit"], f"--as={limits.memory_mb * mb}", f"--fsize={limits.file_mb * mb}",
            f"--nproc={nproc}", f"--nofile={limits.open_files}", "--core=0", "--"]


def _nproc(mode: str, limits: Limits) -> int:
    """RLIMIT_NPROC counts every process of the real uid: a uid of its own counts only the bot's;
    running as the user, the user's own processes count too, so they are added."""
    if mode in ("root-ns", "root-plain"):
        return limits.processes
    uid, mine = os.getuid(), 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status", "rb") as status:
                    for line in status:
                        if line.startswith(b"Uid:"):
                            mine += int(line.split()[1]) == uid
                            break
            except (OSError, ValueError):
                pass
    soft, _ = resource.getrlimit(resource.RLIMIT_NPROC)
    total = mine + limits.processes
    # never above what this process has: prlimit could not raise it, and the bot would not start
    return total if soft == resource.RLIM_INFINITY else min(total, soft)


def _writable_mounts() -> list[Path]:
    """The mount points mounted read-write, except the kernel's own (/proc, /sys, /dev) and /tmp's,
    which the bot's namespace replaces or keeps as they are."""
    found = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as file:
            for line in file:
                fields = line.split()
                point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
                if "rw" not in fields[5].split(","):
                    continue
                path = Path(point)
                if path == Path("/") or any(_under(path, Path(top)) for top in
                                            ("/proc", "/sys", "/dev", "/tmp")):
                    continue
                found.append(path)
    except (OSError, IndexError):
        pass
    return sorted(set(found), key=lambda p: len(p.parts))


def _default_hides() -> tuple[list[Path], list[Path]]:
    """What a bot never needs to see of the referee's user, as (soft, hard). Soft: their home and
    XDG folders (keys, saves; the bot's own paths under them are bound back). Hard: tianti's data
    folder (stores, saves, seat outputs) and the store TIANTI_DB names, hidden even inside a path
    the bot is given."""
    soft = [Path(os.path.expanduser("~"))]
    soft += [Path(os.environ[name]) for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME")
             if os.environ.get(name)]
    hard = []
    data = os.environ.get("TIANTI_DATA_DIR") or _app_dir()
    if data:
        hard.append(Path(data))
    if os.environ.get("TIANTI_DB"):
        hard.append(Path(os.environ["TIANTI_DB"]))
    return soft, hard


def _app_dir() -> str | None:
    """tianti's data folder when TIANTI_DATA_DIR is not set (where `ladder.tournament.store`
    puts it)."""
    try:
        import typer
    except ImportError:
        return None
    return typer.get_app_dir("tianti")


def _ns_argv(mode: str, tools: Mapping[str, str], limits: Limits, base: Path, work: Path,
             uid: int | None, argv: Sequence[str], needed: Sequence[Path],
             soft: Sequence[Path] = (), hard: Sequence[Path] = (),
             cgroup: Path | None = None, freezer: Path | None = None,
             files: Sequence[Path] = ()) -> tuple[list[str], list[str]]:
    """`[prlimit ...] unshare ... sh -ec SCRIPT sh ARGV...`, and warnings. The script, root of
    the new namespaces, makes every writable mount read-only, mounts the private tmpfs (on a
    staging folder first, so that needed paths under /tmp can still be bound into it), hides the
    `soft` folders (and, as root, those the bot's uid could not enter anyway) under small tmpfs,
    binds the needed paths under them back read-only, then hides the `hard` paths wherever they
    still show (a folder under a tmpfs, a file, with its SQLite companions, under /dev/null),
    makes the working folder and execs the bot through setpriv (its own uid, no capabilities, no
    new privileges, killed if the referee's side dies). With `cgroup`, the script first moves
    itself into it (what it starts is then counted there); the same with `freezer`, the bot's
    freezer cgroup. `files` are hidden one by one wherever they show (tianti's data found in the
    folders the bot is given), with their SQLite companions."""
    q = shlex.quote
    stage = base / "stage"
    stage.mkdir(exist_ok=True)
    tmp, shm = Path("/tmp"), Path("/dev/shm")
    protected = [Path("/"), tmp, shm, Path("/proc"), Path("/dev"), Path("/sys"), work]
    folders: list[Path] = []
    for path in [Path(os.path.abspath(h)) for h in soft]:
        # never over / or what the sandbox needs itself; under /tmp it is hidden already
        if path.is_dir() and not _under(path, tmp) and not _under(path, shm) and \
                not any(_under(keep, path) for keep in protected):
            folders.append(path)
    if mode == "root-ns":
        for path in needed:
            block = _blocking_ancestor(path)
            if block is not None and not _under(block, tmp) and not _under(block, shm) and \
                    not any(_under(keep, block) for keep in protected):
                folders.append(block)
    hides: list[Path] = []
    for folder in sorted(set(folders), key=lambda p: len(p.parts)):
        if not any(_under(folder, kept) for kept in hides):
            hides.append(folder)
    inodes = f"nr_inodes={max(1024, 256 * limits.file_mb)}"
    failed = (f"echo 'tianti sandbox: could not set up the namespaces of the bot (see above)' >&2;"
              f" exit {SETUP_FAILED}")
    lines = [f"trap {q(failed)} EXIT"]
    for group in (cgroup, freezer):  # "0": the writing process (the script, becoming the bot)
        if group is not None:
            lines.append(f"echo 0 > {q(str(group / 'cgroup.procs'))}")
    lines.append("mount -n -o remount,bind,ro /")
    lines += [f"mount -n -o remount,bind,ro {q(str(point))} 2>/dev/null || true"
              for point in _writable_mounts()]
    lines.append(f"mount -n -t tmpfs -o size={4 * limits.file_mb}m,{inodes},mode=1777,nosuid,nodev"
                 f" tianti-tmp {q(str(stage))}")
    binds: list[tuple[Path, str]] = []
    for index, path in enumerate(needed):
        if any(_under(path, cover) for cover in [tmp, shm, *hides]) and path.exists():
            name = f".tianti-bind-{index}"
            lines.append(f"{'mkdir' if path.is_dir() else 'touch'} {q(str(stage / name))}")
            # a path gone since it was looked at (a folder the user moved mid-run) is left out
            # rather than failing the bot: it then finds its modules where they still are
            lines.append(f"if mount -n --bind {q(str(path))} {q(str(stage / name))} 2>/dev/null;"
                         f" then bind{index}=1; else bind{index}=0; fi")
            lines.append(f"[ $bind{index} = 0 ] || "
                         f"mount -n -o remount,bind,ro,nosuid,nodev {q(str(stage / name))}")
            binds.append((path, name))
    lines.append(f"mount -n --move {q(str(stage))} /tmp")
    if shm.is_dir():
        lines.append(f"mount -n -t tmpfs -o size={limits.file_mb}m,{inodes},mode=1777,nosuid,nodev"
                     " tianti-shm /dev/shm")
    for folder in hides:
        lines.append("mount -n -t tmpfs -o size=1m,nr_inodes=4096,mode=755,nosuid,nodev "
                     f"tianti-hide {q(str(folder))}")
    for path, name in binds:
        source = f"/tmp/{name}"
        number = name.rsplit("-", 1)[1]
        if path.is_dir():
            make = f"mkdir -p {q(str(path))}"
        else:
            make = f"mkdir -p {q(str(path.parent))} && touch {q(str(path))}"
        lines.append(f"if [ $bind{number} = 1 ]; then {make} && "
                     f"mount -n --move {q(source)} {q(str(path))}; fi")
        lines.append(f"rm -d {q(source)}")
    warnings: list[str] = []
    bound = [path for path, _ in binds]

    def shows(path: Path) -> bool:
        return path.exists() and (any(_under(path, p) for p in bound) or not any(
            _under(path, cover) for cover in [tmp, shm, *hides]))

    for path in [Path(os.path.abspath(h)) for h in hard]:
        folder = path if path.is_dir() else path.parent
        if any(_under(keep, folder) for keep in protected + list(needed)):
            if path.is_dir():
                warnings.append(f"{path} holds what the bot needs: not hidden")
                continue
            for file in [path] + [Path(f"{path}{end}") for end in ("-wal", "-shm", "-journal")]:
                if file.is_file() and shows(file):
                    lines.append(f"mount -n --bind /dev/null {q(str(file))}")
        elif shows(folder):
            lines.append("mount -n -t tmpfs -o size=1m,nr_inodes=64,mode=755,ro,nosuid,nodev "
                         f"tianti-hide {q(str(folder))}")
    for path in files:
        for file in [path] + [Path(f"{path}{end}") for end in ("-wal", "-shm", "-journal")]:
            if file.is_file() and shows(file):
                lines.append(f"mount -n --bind /dev/null {q(str(file))}")
    lines.append(f"mkdir -p {q(str(work))}")
    if uid is not None:
        lines.append(f"chown {uid}:{uid} {q(str(work))}")
    lines.append(f"chmod 700 {q(str(work))}")
    lines.append(f"cd {q(str(work))}")
    lines.append("echo 1000 > /proc/self/oom_score_adj")  # the kernel's OOM killer takes it first
    lines.append("unset PWD OLDPWD")
    drop = ([f"--reuid={uid}", f"--regid={uid}", "--clear-groups"] if uid is not None else [])
    setpriv = [tools["setpriv"], *drop, "--no-new-privs", "--inh-caps=-all",
               "--bounding-set=-all", "--pdeathsig=KILL", "--"] if "setpriv" in tools else []
    lines.append("trap - EXIT")
    lines.append("exec " + " ".join(q(part) for part in setpriv) + ' "$@"')
    spaces = ["--pid", "--fork", "--kill-child", "--mount-proc", "--ipc", "--uts", "--mount",
              "--propagation", "private"]
    if not limits.network:
        spaces.append("--net")
    if mode == "user-ns":
        spaces = ["--user", "--map-root-user"] + spaces
    command = (_lifeline(tools) + _rlimit_args(tools, limits, _nproc(mode, limits))
               + [tools["unshare"], *spaces, "--", tools["sh"], "-ec", "\n".join(lines), "sh",
                  *argv])
    return command, warnings


def _bot_env(work: Path, env: Mapping[str, str] | None,
             pythonpath: Sequence[str], path_dirs: Sequence[str] = ()) -> dict[str, str]:
    """PATH (`path_dirs`, the folders of its interpreters, then the system's), LANG, HOME (its
    working folder), PYTHONPATH and what the caller adds; nothing of the user's environment
    (never TIANTI_DB)."""
    lang = os.environ.get("LANG", "")
    bot = {"PATH": ":".join([*path_dirs, BOT_PATH]),
           "LANG": lang if re.fullmatch(r"[A-Za-z0-9_.@-]{1,40}", lang) else "C.UTF-8",
           "HOME": str(work), "PYTHONDONTWRITEBYTECODE": "1"}
    if pythonpath:
        bot["PYTHONPATH"] = os.pathsep.join(os.path.realpath(p) for p in pythonpath)
    for key, value in (env or {}).items():
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) or "\0" in value:
            raise ValueError(f"bad environment variable for a bot: {key!r}")
        if key == "TIANTI_DB":
            raise ValueError("a bot is never given TIANTI_DB")
        bot[key] = value
    return bot


def _set_rlimits(limits: Limits, nproc: int) -> None:
    """The rlimits, set in the child before exec (only where prlimit is missing)."""
    mb = 1024 * 1024
    for which, value in ((resource.RLIMIT_AS, limits.memory_mb * mb),
                         (resource.RLIMIT_FSIZE, limits.file_mb * mb),
                         (resource.RLIMIT_NPROC, nproc),
                         (resource.RLIMIT_NOFILE, limits.open_files),
                         (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(which, (value, value))


# ---------------------------------------------------------------------------------------------
# The bot's process


def _processes_of(uid: int) -> list[int]:
    """Every process whose real or effective uid is `uid` (read from status, which a process
    cannot hide by making itself non-dumpable)."""
    pids = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as status:
                for line in status:
                    if line.startswith(b"State:") and line.split()[1] in (b"Z", b"X"):
                        break  # already dead, waiting to be reaped
                    if line.startswith(b"Uid:"):
                        if uid in (int(x) for x in line.split()[1:3]):
                            pids.append(int(entry.name))
                        break
        except (OSError, ValueError):
            pass
    return pids


def children_of(pid: int) -> list[int]:
    """The child processes of `pid`, started by any of its threads (Linux /proc; [] elsewhere
    or if it is gone)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            pass
    return out


def _kill_uid(uid: int) -> None:
    """SIGKILL every process of `uid` until none is left (a bot's, as root)."""
    for _ in range(400):
        pids = _processes_of(uid)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.005)


_swept = [0.0]


def _sweep(min_age: float = 10.0) -> None:
    """Clear what referees that died without cleaning up left (killed outright, or ended by
    `os._exit` as multiprocessing's workers are): their bots' folders (named after the referee's
    pid) and, as root, any process still running as such a bot's uid (one that left its process
    group in the fallback). Only folders of this user, older than `min_age` seconds."""
    now = time.time()
    _swept[0] = now
    try:
        entries = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return
    for entry in entries:
        match = re.fullmatch(_FOLDER + r"([0-9]+)-[A-Za-z0-9_]+", entry.name)
        if not match or int(match.group(1)) == os.getpid() or pid_alive(int(match.group(1))):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or \
                    now - info.st_mtime < min_age:
                continue
            uid = os.stat(os.path.join(entry.path, "work")).st_uid
        except OSError:
            continue
        if _root() and UID_BASE <= uid < UID_BASE + UID_SPAN:
            _kill_uid(uid)
        shutil.rmtree(entry.path, ignore_errors=True)
    for found in (_memory_cgroup(), _freezer_root()):
        if found is None:
            continue
        try:
            groups = list(os.scandir(found[1] if isinstance(found[0], str) else found[0]))
        except OSError:
            groups = []
        for entry in groups:
            match = re.fullmatch(_FOLDER + r"([0-9]+)-[0-9a-f]+", entry.name)
            if match and int(match.group(1)) != os.getpid() and not pid_alive(int(match.group(1))):
                if isinstance(found[0], str):  # a freezer: what is still in it thaws, and dies
                    freezer = (found[0], Path(entry.path))
                    _set_frozen(freezer, False)
                    for pid in _cgroup_pids(freezer[1]):
                        try:
                            os.kill(pid, signal.SIGKILL)
                        except OSError:
                            pass
                _remove_cgroup(Path(entry.path), wait=0)


def _reap(popen: subprocess.Popen[bytes], uid: int | None, base: Path, owner: int,
          wrapped: bool = True, cgroup: Path | None = None,
          freezer: tuple[str, Path] | None = None) -> None:
    """Kill the bot and everything it started, collect its exit status, remove its folders; only
    in the process that started it (a forked child's exit leaves its parent's bots alone).
    `wrapped`: started through `unshare --fork`, whose child is the namespace's init."""
    if os.getpid() != owner:
        return
    if freezer is not None:  # v2 kills frozen processes at once; v1's must thaw to die
        if freezer[0] == "v2":
            try:
                (freezer[1] / "cgroup.kill").write_text("1")
            except OSError:
                pass
        _set_frozen(freezer, False)
    for pid in _descendants(popen.pid) if wrapped else []:  # stopped one by one: run to die
        try:
            os.kill(pid, signal.SIGCONT)
        except OSError:
            pass
    try:  # a paused bot (and its namespace's wrapper, which must reap it) runs again to die
        os.killpg(popen.pid, signal.SIGCONT)
    except OSError:
        pass
    inits = children_of(popen.pid) if wrapped and popen.poll() is None else []
    for pid in inits:  # a namespace's init (the bot): its death ends every process in it
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:  # unshare reaps the init, then exits: killing it first would leave the init a zombie
        popen.wait(timeout=2 if inits else 0)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(popen.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        popen.kill()
    except OSError:
        pass
    try:
        popen.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    if uid is not None:  # whatever left the process group (setsid) still has the bot's uid
        _kill_uid(uid)
    for pipe in (popen.stdin, popen.stdout):
        try:
            if pipe is not None:
                pipe.close()
        except OSError:
            pass
    _remove_cgroup(cgroup)
    if freezer is not None:
        if freezer[0] == "v1":  # what is left of it (it thawed above)
            for pid in _cgroup_pids(freezer[1]):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        _remove_cgroup(freezer[1])
    shutil.rmtree(base, ignore_errors=True)


def _cgroup_pids(folder: Path) -> list[int]:
    """The processes in a cgroup ([] if it is gone)."""
    try:
        return [int(x) for x in (folder / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _descendants(pid: int) -> list[int]:
    """Every process below `pid` (children, theirs, ...); in a PID namespace, whatever a bot
    started in a session of its own is still below its init."""
    out: list[int] = []
    queue = children_of(pid)
    seen: set[int] = set()
    while queue:
        child = queue.pop()
        if child in seen:
            continue
        seen.add(child)
        out.append(child)
        queue.extend(children_of(child))
    return out


class BotProcess:
    """A bot running in its sandbox: write to `stdin`, read `stdout`; `kill()` when done."""

    stdin: BinaryIO
    stdout: BinaryIO
    pid: int             # the process the referee started: the leader of the bot's process group
    isolation: Isolation
    workdir: Path        # the bot's working folder and HOME (same path inside its namespace)
    stderr_path: Path    # its stderr, in the referee's folder (mode 0700), capped by file_mb
    cgroup: Path | None  # its memory cgroup (as root, where the machine has one), else None

    def __init__(self, popen: subprocess.Popen[bytes], isolation: Isolation, workdir: Path,
                 base: Path, stderr_path: Path, uid: int | None, wrapped: bool = False,
                 pause: bool = False, cgroup: Path | None = None,
                 freezer: tuple[str, Path] | None = None) -> None:
        assert popen.stdin is not None and popen.stdout is not None
        self._popen = popen
        self.stdin = popen.stdin  # type: ignore[assignment]
        self.stdout = popen.stdout  # type: ignore[assignment]
        self.pid = popen.pid
        self.isolation = isolation
        self.workdir = workdir
        self.stderr_path = stderr_path
        self.uid = uid
        self._wrapped = wrapped  # started through `unshare --fork`, which holds the pipes too
        self._pause = pause  # stopped between its turns (`Limits.pause`)
        self._paused = False
        self.cgroup = cgroup
        self.freezer = freezer  # (kind, folder) of its freezer cgroup, if it has one
        # its control file, kept open: a write through it costs a few us, an open ~50 us
        self._freeze_fd: int | None = None
        if freezer is not None and pause:
            try:
                self._freeze_fd = os.open(_freeze_control(freezer), os.O_WRONLY | os.O_CLOEXEC)
            except OSError:
                self._freeze_fd = None
        self._tail: bytes | None = None
        self._finalizer = weakref.finalize(self, _reap, popen, uid, base, os.getpid(), wrapped,
                                           cgroup, freezer)

    def kill(self) -> None:
        """Kill the bot and everything it started, and remove its folders. Idempotent."""
        if self._tail is None:
            self._tail = self._read_tail(_TAIL_KEPT)
        if self._freeze_fd is not None:
            try:
                os.close(self._freeze_fd)
            except OSError:
                pass
            self._freeze_fd = None
        self._finalizer()

    def wait(self, timeout: float | None = None) -> int | None:
        """Its exit status (negative: killed by that signal; SETUP_FAILED: its sandbox could not
        be set up, the bot never ran), or None if still running after `timeout` seconds."""
        try:
            return self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def alive(self) -> bool:
        return self._popen.poll() is None

    def pause(self) -> None:
        """Keep every process of the bot off the CPU until `resume()`, if its limits say
        `pause` (the default): between its turns it then uses no CPU while the others think.
        Its freezer cgroup is frozen where it has one (what it started in sessions of its own
        included); else each of its processes is sent SIGSTOP (those below its namespace's init,
        those of its uid, its process group)."""
        if not self._pause or self._paused or self._popen.poll() is not None:
            return
        self._paused = True
        if self._freeze(True):
            return
        self._signal_all(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a paused bot run again (thaw its cgroup, or SIGCONT to each of its processes)."""
        if not self._paused:
            return
        self._paused = False
        if self._freeze(False):
            return
        self._signal_all(signal.SIGCONT)

    def _freeze(self, frozen: bool) -> bool:
        """Freeze or thaw its cgroup through the kept control file; False if it has none or
        the kernel refused (the caller then signals each process)."""
        if self.freezer is None:
            return False
        if self._freeze_fd is not None:
            try:
                os.pwrite(self._freeze_fd, _freeze_word(self.freezer, frozen), 0)
                return True
            except OSError:
                pass
        return _set_frozen(self.freezer, frozen)

    def _signal_all(self, sig: int) -> None:
        """`sig` to the bot's process group, every process below its namespace's wrapper and
        every process of its uid; twice, for a process that forked meanwhile."""
        for _ in range(2):
            pids = set(_descendants(self.pid)) if self._wrapped else set()
            if self.uid is not None:
                pids.update(_processes_of(self.uid))
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
            try:
                os.killpg(self.pid, sig)
            except OSError:
                pass

    def pipe_closed(self) -> str | None:
        """"output" or "input" if no process of the bot holds that end of its pipes any more
        (it closed it, and can never answer again), else None; None too when it cannot be told
        (no namespace wrapper, a process the referee may not inspect, the bot gone).

        Only the namespace's wrapper (`unshare --fork`, the parent of the bot's PID 1) keeps
        copies of the pipe ends, so closing them is no end of file the referee can see: instead
        the descriptors of every process in the bot's namespace are read from /proc. Without the
        wrapper the bot is the process the referee started and its closing is an end of file."""
        if not self._wrapped or self._popen.poll() is not None:
            return None
        try:
            wanted = {"output": f"pipe:[{os.fstat(self.stdout.fileno()).st_ino}]",
                      "input": f"pipe:[{os.fstat(self.stdin.fileno()).st_ino}]"}
        except (OSError, ValueError):
            return None
        queue = children_of(self._popen.pid)
        if not queue:
            return None  # not started yet, or ending: its exit is seen on the pipe
        held: set[str] = set()
        seen: set[int] = set()
        while queue:
            pid = queue.pop()
            if pid in seen:
                continue
            seen.add(pid)
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except FileNotFoundError:
                continue  # ended meanwhile
            except OSError:
                return None  # not ours to inspect: cannot tell
            for fd in fds:
                try:
                    held.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
                except OSError:
                    pass
            queue.extend(children_of(pid))
        if self._popen.poll() is not None:
            return None
        for end, link in wanted.items():
            if link not in held:
                return end
        return None

    def _read_tail(self, limit: int) -> bytes:
        try:
            with open(self.stderr_path, "rb") as file:
                size = file.seek(0, os.SEEK_END)
                file.seek(max(0, size - limit))
                return file.read(limit)
        except OSError:
            return b""

    def stderr_tail(self, limit: int = 4000) -> str:
        """The last `limit` bytes it wrote to stderr (still there after `kill()`)."""
        data = self._tail[-limit:] if self._tail is not None else self._read_tail(limit)
        return data.decode("utf-8", errors="replace")

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    def __repr__(self) -> str:
        return f"BotProcess(pid={self.pid}, {self.isolation.summary()})"


def spawn(argv: Sequence[str], *, limits: Limits = Limits(), env: Mapping[str, str] | None = None,
          pythonpath: Sequence[str] = (), expose: Sequence[str] = (),
          hide: Sequence[str] = (), conceal: Sequence[str] = ()) -> BotProcess:
    """Start `argv` as a bot in its sandbox (see the module's docstring). `argv[0]` is found as
    the user's shell would (`programs.find_program`: a bare name on the user's PATH, then the
    system's); what it needs to run (its `#!` interpreter, a venv's, their links into a home
    folder) is bound in read-only. `pythonpath` is its PYTHONPATH; `expose` names more paths
    it must see (both are bound into its namespace read-only, even from a hidden folder); `hide`
    names more paths it must not see even there (a store: its folder, or if the bot needs that
    folder, the file and its SQLite companions), on top of the referee's home, tianti's data
    folder, the TIANTI_DB store and tianti's data files found in the folders it is given
    (`programs.tianti_files`). `conceal` names folders hidden from it but for the paths it needs
    in them (the folder tianti runs in; the current folder always is). The working folder and
    stderr file live in a fresh referee folder that `kill()` removes. FileNotFoundError if the
    command is not there, ValueError for a bad `env`.

    The bot is killed when the thread that called `spawn` ends (PR_SET_PDEATHSIG, so that a
    worker killed outright leaves no bot behind): start bots from a thread that outlives them,
    such as the worker's main thread."""
    if not argv:
        raise ValueError("a bot needs a command")
    program = programs.find_program(argv[0])
    if program is None:
        where = ("" if "/" in argv[0] else
                 " (looked up on the PATH of the user who runs tianti, then the system's)")
        raise FileNotFoundError(f"bot command not found or not executable: {argv[0]}{where}")
    argv = [program, *argv[1:]]
    needs = programs.program_needs(program)
    concealed = [os.getcwd(), *conceal]
    plan = _plan()
    mode, tools = plan.mode, plan.tools
    warnings = list(plan.isolation.warnings)
    limits, lowered = fit(limits)
    warnings += lowered
    if time.time() - _swept[0] > 60:
        _sweep()
    base = Path(tempfile.mkdtemp(prefix=f"{_FOLDER}{os.getpid()}-"))
    cgroup: Path | None = None
    freezer: tuple[str, Path] | None = None
    try:
        os.chmod(base, 0o711)  # its uid may pass through to `work`, not list or read the rest
        work = base / "work"
        work.mkdir(mode=0o700)
        stderr_path = base / "stderr"
        bot_env = _bot_env(work, env, pythonpath, needs.path_dirs)
        needed = _needed_paths(argv, pythonpath, expose, needs.paths,
                               [Path(c) for c in conceal])
        data_files = programs.tianti_files(
            [p for p in needed if not any(_under(p, root) for root in _SYSTEM)])
        closed = [(p, _blocking_ancestor(p)) for p in needed] if mode == "root-plain" else []
        closed = [(path, block) for path, block in closed if block is not None]
        if closed:  # no mount namespace to bind them through: the bot keeps root's uid
            mode = "plain"
            warnings.append(f"{closed[0][0]} is closed to other users (no o+x on "
                            f"{closed[0][1]}): the bot runs as root, with no uid of its own "
                            "and no process limit")
        uid = _pick_uid() if mode in ("root-ns", "root-plain") else None
        if uid is not None:
            os.chown(work, uid, uid)
            warnings += _reach_warnings(needed)
        features = _features(mode, limits)
        if limits.network and mode in ("root-ns", "user-ns"):
            warnings.append("network allowed by the limits: the bot shares the machine's network")
        nproc = _nproc(mode, limits)
        preexec = None
        if "memory-cgroup" in features:  # the fallback joins as root, then drops with setpriv
            can_join = mode == "root-ns" or ("setpriv" in tools and "sh" in tools)
            cgroup = _make_cgroup(limits) if can_join else None
            if cgroup is None:
                features = tuple(f for f in features if f != "memory-cgroup")
                warnings.append("could not make the bot's memory cgroup: memory_mb limits each "
                                "of its processes, not all of them together")
        if "freezer-cgroup" in features:
            can_join = mode == "root-ns" or ("setpriv" in tools and "sh" in tools)
            freezer = _make_freezer() if can_join else None
            if freezer is None:
                features = tuple("stop-signals" if f == "freezer-cgroup" else f
                                 for f in features)
                warnings.append("could not make the bot's freezer cgroup: its processes are "
                                "stopped one by one between its turns (SIGSTOP)")
        joined = [group for group in (cgroup, freezer[1] if freezer else None)
                  if group is not None]
        if mode in ("root-ns", "user-ns"):
            soft, hard = _default_hides()
            command, hidden = _ns_argv(mode, tools, limits, base, work, uid, argv, needed,
                                       soft + [Path(c) for c in concealed],
                                       hard + [Path(h) for h in hide], cgroup,
                                       freezer[1] if freezer else None, data_files)
            warnings += hidden
        else:
            join, drop = "", ""
            if joined:  # as root: join, then become the bot's uid
                join = "".join(f"echo 0 > {shlex.quote(str(group / 'cgroup.procs'))} || exit "
                               f"{SETUP_FAILED}; " for group in joined)
                drop = (f"{shlex.quote(tools['setpriv'])} --reuid={uid} --regid={uid} "
                        "--clear-groups --pdeathsig=KILL -- ")  # a uid change clears it
            oom = ([tools["sh"], "-c", join + "echo 1000 > /proc/self/oom_score_adj; "
                    f'unset PWD OLDPWD; exec {drop}"$@"', "sh"] if "sh" in tools else [])
            command = _lifeline(tools) + _rlimit_args(tools, limits, nproc) + oom + list(argv)
        if "prlimit" not in tools:
            preexec = functools.partial(_set_rlimits, limits, nproc)
        fd = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        try:
            popen = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=fd,
                cwd=work if mode not in ("root-ns", "user-ns") else base, env=bot_env,
                close_fds=True, start_new_session=True, preexec_fn=preexec,
                user=uid if mode == "root-plain" and not joined else None,
                group=uid if mode == "root-plain" and not joined else None,
                extra_groups=[] if mode == "root-plain" and not joined else None)
        finally:
            os.close(fd)
    except BaseException:
        _remove_cgroup(cgroup, wait=0)
        _remove_cgroup(freezer[1] if freezer else None, wait=0)
        shutil.rmtree(base, ignore_errors=True)
        raise
    return BotProcess(popen, Isolation(features, tuple(warnings)), work, base, stderr_path, uid,
                      wrapped=mode in ("root-ns", "user-ns"), pause=limits.pause, cgroup=cgroup,
                      freezer=freezer)
