"""A small real tournament shared by the ladder tests: ISMCTS with a small iteration budget,
the heuristic bot and the random bot at 3-player Dragon, every seating of 4 deals (24 games;
a few seconds on two cores)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.ladder.helpers import cli


@pytest.fixture(scope="session")
def quality_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("quality") / "ladder.db"
    result = cli("tournament", "run", "--db", db, "--game", "dragon", "--players", 3,
                 "-b", "search=ismcts(iterations=300)", "-b", "heuristic", "-b", "random",
                 "--deals", 4, "--seed", 7, "--workers", 2, "--no-progress")
    assert result.exit_code == 0, result.output
    return db
