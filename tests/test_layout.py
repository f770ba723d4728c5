"""The floors of the code (DESIGN.md, "Layout"): engine < ai < ladder, and inside the ladder
referee < tournament < table < review < cli; a floor imports only from floors below it (and its
own), so that `ai.evaluate` and self-play play through the same loop as the ladder (`ai.match`)
without the ladder coming along. The ladder's old module names still import the new modules."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import ladder

ROOT = Path(__file__).resolve().parent.parent
# each floor and what it may import (besides the standard library and the base dependencies)
FLOORS = {
    "engine": {"engine"},
    "ai": {"engine", "ai"},
    "ladder.referee": {"engine", "ai", "ladder", "ladder.referee"},
    "ladder.tournament": {"engine", "ai", "ladder", "ladder.referee", "ladder.tournament"},
    "ladder.table": {"engine", "ai", "ladder", "ladder.referee", "ladder.tournament",
                     "ladder.table"},
    "ladder.review": {"engine", "ai", "ladder", "ladder.tournament", "ladder.table",
                      "ladder.review"},
}


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (function-level imports too)."""
    text = path.read_text()
    if path.suffix in (".pyx", ".pxd"):
        return set(re.findall(r"^\s*(?:from|c?import)\s+([\w.]+)", text, re.M))
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names
                         if node.module in ("ladder", "ladder.referee"))
    return found


def _floor_of(module: str) -> str | None:
    """The floor a module of ours is on (None for anything else)."""
    if module in ladder.MOVED:
        return "an old name (ladder.MOVED)"
    for floor in sorted(FLOORS, key=len, reverse=True):
        if module == floor or module.startswith(floor + "."):
            return floor
    if module == "ladder.cli" or module.startswith("ladder.cli."):
        return "ladder.cli"
    return "ladder" if module == "ladder" or module.startswith("ladder.") else None


@pytest.mark.parametrize("floor", sorted(FLOORS))
def test_no_floor_imports_one_above_it(floor: str) -> None:
    folder = ROOT / floor.replace(".", "/")
    wrong = []
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd"):
            continue
        for module in _imports(path):
            target = _floor_of(module)
            if target is not None and target not in FLOORS[floor]:
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_the_shared_ladder_modules_import_no_part_of_the_ladder() -> None:
    for name in ("names", "plot", "processes"):
        imported = _imports(ROOT / "ladder" / f"{name}.py")
        assert not {m for m in imported if m.startswith("ladder")}, name


def test_the_ladders_old_module_names_import_the_new_modules() -> None:
    for old, new in sorted(ladder.MOVED.items()):
        module = importlib.import_module(old)
        assert module is importlib.import_module(new), old
        assert module.__spec__.name == new and module.__name__ == new
    from ladder.match import MoveEvent, derived_seed, play_game
    from ladder.play import data_dir
    from ladder.tournament.store import data_dir as stored_data_dir

    import ai.match
    assert (play_game, MoveEvent, derived_seed) == (
        ai.match.play_game, ai.match.MoveEvent, ai.match.derived_seed)
    assert data_dir is stored_data_dir


def test_a_name_that_never_was_a_ladder_module_is_still_an_import_error() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ladder.nowhere_at_all")
