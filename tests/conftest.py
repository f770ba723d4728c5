"""Every test runs away from the user's own files: HOME, the XDG folders and TIANTI_DATA_DIR
point into one temporary folder for the whole session (subprocesses inherit them), and
TIANTI_DB is unset, so no test can write into a real store or save folder."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

_SANDBOX = Path(tempfile.mkdtemp(prefix="tianti-tests-"))
USER_ENV = {
    "HOME": _SANDBOX / "home",
    "XDG_CONFIG_HOME": _SANDBOX / "home" / ".config",
    "XDG_DATA_HOME": _SANDBOX / "home" / ".local" / "share",
    "TIANTI_DATA_DIR": _SANDBOX / "data",
}


def pytest_configure(config: pytest.Config) -> None:
    for key, path in USER_ENV.items():
        path.mkdir(parents=True, exist_ok=True)
        os.environ[key] = str(path)
    os.environ.pop("TIANTI_DB", None)
