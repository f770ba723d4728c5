"""`tianti bot check COMMAND` (issue 48): a bot author's test of a bot program. A good bot plays
every configuration asked for without a problem; a bot that never flushes, one that writes what
is no JSON and one that answers an illegal id are each reported with their kind and advice, and
the command's exit code says whether anything was wrong."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from ladder.referee.checker import check, configurations, spec_of
from tests.ladder.helpers import cli

REPO = Path(__file__).resolve().parents[2]
GOOD = REPO / "examples" / "bots" / "greedy_points.py"


def bot_variant(folder: Path, name: str, old: str, new: str) -> Path:
    """The example bot with one line changed, in a folder its sandbox may read."""
    text = GOOD.read_text()
    assert old in text
    path = folder / name
    path.write_text(text.replace(old, new))
    os.chmod(folder, 0o755)
    return path


def test_configurations_cover_every_player_count() -> None:
    assert ("dragon", 2) in configurations() and ("mount-tai", 1) in configurations()
    assert ("fusion", 2) not in configurations()
    assert configurations(["dragon"]) == [("dragon", p) for p in (2, 3, 4, 5)]
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        configurations(["chess"])
    assert spec_of("./mybot -d 3") == "exec:./mybot -d 3"
    assert spec_of("python:m:f") == "python:m:f"


def test_a_good_bot_has_no_problems() -> None:
    report = check(f"{sys.executable} {GOOD}", games=1, game_names=["dragon"])
    assert report.ok, report.lines()
    assert report.name == "greedy-points" and report.handshake_ms is not None
    assert [(g, p, n) for g, p, n, _ in report.played] == [("dragon", p, 1) for p in (2, 3, 4, 5)]
    assert all(times for *_, times in report.played)
    assert report.lines()[-1] == "no problems found"


def test_a_bot_that_never_flushes_is_told_so(tmp_path: Path) -> None:
    bot = bot_variant(tmp_path, "quiet.py", "        sys.stdout.flush()\n", "")
    report = check(f"{sys.executable} {bot}", games=1, game_names=["dragon"],
                   setup_timeout=3.0)
    assert not report.ok and report.handshake_ms is None
    [problem] = report.problems
    assert problem.kind == "timeout" and problem.where == "handshake"
    assert "wrote nothing at all" in problem.message and "flush" in problem.message


def test_a_line_that_is_no_json_and_an_illegal_id_are_reported(tmp_path: Path) -> None:
    garbled = bot_variant(tmp_path, "garbled.py", 'sys.stdout.write(json.dumps(reply) + "\\n")',
                          'sys.stdout.write(("move " if reply["type"] == "action" else '
                          'json.dumps(reply)) + "\\n")')
    report = check(f"{sys.executable} {garbled}", games=1, game_names=["dragon"])
    assert report.name == "greedy-points"
    assert len(report.problems) == 4 and {p.kind for p in report.problems} == {"invalid"}
    assert "no message" in report.problems[0].message
    assert "what to do" in "\n".join(report.problems[0].lines())
    illegal = bot_variant(tmp_path, "illegal.py", '"action": action}', '"action": action + 999}')
    report = check(f"{sys.executable} {illegal}", games=1, game_names=["mount-tai"])
    assert len(report.problems) == 4
    assert all("not legal" in p.message for p in report.problems)


def test_the_command_exits_1_on_a_problem_and_0_without(tmp_path: Path) -> None:
    good = cli("bot", "check", "--games", 1, "--game", "dragon", sys.executable, str(GOOD))
    assert good.exit_code == 0, good.output
    assert "dragon, 5 players: 1 game" in good.output and "no problems found" in good.output
    missing = cli("bot", "check", "--game", "dragon", str(tmp_path / "no-such-bot"))
    assert missing.exit_code == 1
    assert "not found" in missing.output
