"""Tests never touch the user's data, and the store follows TIANTI_DATA_DIR."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ladder.cli import app
from ladder.tournament.store import data_dir, default_path


def test_default_store_follows_tianti_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "d"))
    assert data_dir() == tmp_path / "d"
    assert default_path() == tmp_path / "d" / "tianti.db"


def test_a_played_game_lands_in_tianti_data_dir_not_home(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("TIANTI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("TIANTI_DB", raising=False)
    result = CliRunner().invoke(app, ["play", "dragon", "-p", "2", "--opponent", "random"],
                                input="quit\n")
    assert result.exit_code in (0, 130), result.output
    assert list(home.rglob("*")) == []
    assert (tmp_path / "data" / "saves").is_dir()


def test_the_session_never_points_at_the_real_home() -> None:
    import os

    assert "tianti-tests-" in os.environ["HOME"]
    assert "tianti-tests-" in os.environ["TIANTI_DATA_DIR"]
