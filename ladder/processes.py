"""Whether a process is alive: what the store (a run's owner), the sandbox (stale cgroups) and
the temporary folders (a killed worker's) ask before taking over what a process left."""
from __future__ import annotations

import os


def pid_alive(pid: int) -> bool:
    """Whether process `pid` exists on this machine (another user's counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # not ours to signal: alive
        return True
    return True
