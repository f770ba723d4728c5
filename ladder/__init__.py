"""Tournaments and the person's table around the engine and the bots; its parts are folders:

- `referee/`: bots in processes of their own, the bot protocol, the sandbox;
- `tournament/`: the plan, the workers, the store, the ratings;
- `table/`: a person against bots, narration, hints;
- `review/`: a game's decisions judged from a seat's view;
- `cli/`: the `tianti` command line;
- `names`, `plot`: how bots are named on screen, the charts.

The referee's loop (one game between bots) is `ai.match`, below the ladder, so that
`ai.evaluate` and self-play use it too.

`MOVED` maps the modules that stood side by side here before to where they are now: the old
names still import (giving the same module), for scripts written against them.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

MOVED = {"ladder.match": "ai.match"}
MOVED.update({f"ladder.{m}": f"ladder.tournament.{m}" for m in (
    "backends", "ratings", "roster", "runner", "schedule", "sprt", "stats", "store",
    "trueskill_c", "trueskill_ffa", "worker")})
MOVED.update({f"ladder.{m}": f"ladder.table.{m}" for m in (
    "explain", "hints", "human", "narrate", "play")})


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a name of `MOVED` as the module it names (first on `sys.meta_path`: an
    old file of the same name elsewhere on the path does not count)."""

    def find_spec(self, name: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        if name not in MOVED:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(MOVED[spec.name])
        spec.loader_state = module.__spec__  # put back by exec_module
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system gave the module the old name's spec: give it back its own
        module.__spec__ = module.__spec__.loader_state


if not any(isinstance(f, _OldNames) for f in sys.meta_path):
    sys.meta_path.insert(0, _OldNames())
