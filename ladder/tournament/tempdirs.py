"""tianti's temporary folders, named after the process that owns them, and the sweep that
removes those of processes that are gone (a worker or a tournament killed outright, which had no
chance to remove its own).

A folder is `tianti-KIND-PID-RANDOM` (or `tianti-KIND-PID`) in the temporary folder: KIND is
one of `KINDS`, PID the process that removes it when it ends normally. `sweep()` removes such a
folder when it belongs to this user, has not changed for `min_age` seconds and its PID runs no
more. The bot sandbox's own folders (`tianti-bot-PID-...`) are swept by the sandbox
(`ladder.referee.sandbox`), which also ends what a bot left running.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
import time

from ladder.processes import pid_alive

# bots: a process's BotSandbox; worker: a local worker's bots' output; bot-check: the process
# checking a tournament's bots before it starts.
KINDS = ("bots", "worker", "bot-check")
_NAME = re.compile(r"tianti-(" + "|".join(re.escape(k) for k in KINDS) + r")-([0-9]+)(-.*)?")


def make(kind: str) -> str:
    """A fresh folder of `kind` owned by this process (removed by `sweep` once it is gone)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of temporary folder {kind!r}")
    return tempfile.mkdtemp(prefix=f"tianti-{kind}-{os.getpid()}-")


def sweep(min_age: float = 10.0) -> int:
    """Remove the folders of processes that are gone (see the module doc); how many."""
    now = time.time()
    removed = 0
    try:
        entries = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return 0
    for entry in entries:
        match = _NAME.fullmatch(entry.name)
        if not match:
            continue
        pid = int(match.group(2))
        if pid == os.getpid() or pid_alive(pid):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or \
                now - info.st_mtime < min_age:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += not os.path.exists(entry.path)
    return removed
