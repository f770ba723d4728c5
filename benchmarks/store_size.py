"""Bytes a game of tournament stores, whole and table by table (docs/STORE.md has the figures).

    python benchmarks/store_size.py STORE.db [STORE.db ...]

For each store: its games, the file's bytes a game as it is (after its writer closed it, which
checkpoints the WAL into the file; a `-wal` file beside it is counted too) and after `VACUUM`
into a temporary copy (the file packed, free pages dropped), and, from the vacuumed copy, each
table's and index's bytes a game (SQLite's `dbstat`: the pages each one uses, unused space in
them included). The stores are only read. Any store schema works (the commit 27af91e's too),
so that one command compares stores written by two versions of tianti side by side.
"""
from __future__ import annotations

import argparse
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass
class StoreSize:
    """One store's figures: games, bytes as it is, bytes vacuumed, bytes by table and index."""

    games: int
    on_disk: int
    vacuumed: int
    objects: dict[str, int]


def measure(path: Path) -> StoreSize:
    """The figures of one store: games, bytes as it is, bytes vacuumed, bytes by object."""
    wal = path.with_name(path.name + "-wal")
    on_disk = path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    with tempfile.TemporaryDirectory() as tmp:
        packed = Path(tmp) / "packed.db"
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            (games,) = conn.execute("SELECT COUNT(*) FROM games").fetchone()
            conn.execute("VACUUM INTO ?", (str(packed),))
        finally:
            conn.close()
        conn = sqlite3.connect(packed)
        try:
            objects = dict(conn.execute(
                "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall())
        finally:
            conn.close()
        vacuumed = packed.stat().st_size
    return StoreSize(games, on_disk, vacuumed, objects)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stores", nargs="+", type=Path)
    args = parser.parse_args()
    for path in args.stores:
        m = measure(path)
        n = max(m.games, 1)
        print(f"{path}: {m.games} games, {m.on_disk / n:,.0f} bytes a game as it is, "
              f"{m.vacuumed / n:,.0f} after VACUUM")
        for name, size in m.objects.items():
            if size / n >= 1:
                print(f"  {name:34} {size / n:8,.0f}")


if __name__ == "__main__":
    main()
