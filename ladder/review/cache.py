"""Reviews kept on disk, so that reviewing the same game again is instant: one JSON file per
(game record, seat, settings) under `data_dir()/reviews`, named by a digest of them."""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from ladder.review.analysis import ReviewError, Settings
from ladder.review.game_review import VERSION, GameReview
from ladder.tournament.store import data_dir


def key(record: dict[str, Any], seat: int, settings: Settings) -> str:
    """The digest of everything a review's numbers depend on."""
    what = {"record": {k: record.get(k) for k in ("game", "options", "seed", "actions",
                                                  "version")},
            "seat": seat, "settings": settings.to_dict(), "review": VERSION}
    text = json.dumps(what, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def folder() -> Path:
    """Where reviews are kept."""
    return data_dir() / "reviews"


def load(digest: str) -> GameReview | None:
    """The cached review, or None (none, or a file that does not read: it is redone)."""
    path = folder() / f"{digest}.json"
    try:
        return GameReview.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, ReviewError):
        return None


def save(digest: str, review: GameReview) -> Path | None:
    """Keep the review (through a temporary file); None when it cannot be written (the review
    is shown all the same)."""
    path = folder() / f"{digest}.json"
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(review.to_dict()))
        tmp.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return None
    return path


__all__ = ["folder", "key", "load", "save"]
