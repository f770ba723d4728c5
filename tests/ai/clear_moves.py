"""The check shared by the games' "one clear move" position tests."""
from __future__ import annotations

from typing import Any

from ai.bots import make_bot


def assert_found(name: str, state: Any, right: set[int], spec: str, seeds: int = 10,
                 needed: int = 9) -> None:
    """The bot `spec` (with `{seed}` in it) picks a move of `right` from `state` in at least
    `needed` of `seeds` seeds; the position must offer a real choice that includes `right`."""
    legal = set(state.legal_actions())
    assert right <= legal, f"{name}: the position is mis-built"
    assert len(legal) > len(right), f"{name}: no real choice"
    hits = sum(make_bot(spec.format(seed=seed)).step(state.clone()) in right
               for seed in range(seeds))
    assert hits >= needed, f"{name}: {hits}/{seeds}"
