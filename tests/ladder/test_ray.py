"""The Ray backend, on a local Ray instance: the same games as the local backend."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.ladder.helpers import BOTS, cli, games

pytest.importorskip("ray")


def _summary(db: Path) -> dict[tuple[int, int], tuple]:
    out = {}
    for g in games(db):
        out[(g.deal, g.seating)] = (
            g.seed, g.resample_seed, tuple(g.actions),
            tuple((s["bot"], s["score"], s["rank"]) for s in g.seats),
            tuple((s["fault"]["kind"], s["fault"]["move"]) if s["fault"] else None for s in g.seats))
    return out


def test_ray_backend_plays_the_same_games_as_the_local_backend(tmp_path: Path) -> None:
    """Seeded bots with iteration budgets give identical records on both backends, faults
    included (the move watchdog works inside Ray's workers too)."""
    common = ["-p", 3, "-b", "search=ismcts(iterations=30)", "-b", "rand=random",
              "-b", f"raises={BOTS}raises(after=5)", "-b", f"hangs={BOTS}hangs(after=3)",
              "--seatings", "rotations", "--deals", 1, "--seed", 21, "--move-timeout", 1.5,
              "--workers", 2, "--no-progress"]
    local = cli("tournament", "run", "--db", tmp_path / "local.db", *common)
    assert local.exit_code == 0, local.output
    remote = cli("tournament", "run", "--db", tmp_path / "ray.db", "--backend", "ray", *common)
    assert remote.exit_code == 0, remote.output
    assert "2 ray workers" in remote.output
    assert "run 1 finished: 12 of 12 games stored" in remote.output
    a, b = _summary(tmp_path / "local.db"), _summary(tmp_path / "ray.db")
    assert len(a) == 12 and a == b
    faults = [f for v in a.values() for f in v[4] if f]
    assert sorted({f[0] for f in faults}) == ["error", "timeout"]


def test_an_unreachable_ray_cluster_is_a_clear_error(tmp_path: Path) -> None:
    result = cli("tournament", "run", "--db", tmp_path / "t.db", "-p", 2, "-b", "a=random",
                 "-b", "b=random", "--backend", "ray", "--address", "127.0.0.1:1",
                 "--no-progress")
    assert result.exit_code == 2, result.output
    assert "cannot start or reach the Ray cluster at '127.0.0.1:1'" in result.output


def test_ray_backend_charges_the_same_faults_and_keeps_bots_output_out(tmp_path: Path) -> None:
    """The fault bots that need no process kill, on Ray as locally: answers whose conversion
    exits, exceptions whose description exits, a `__getattr__` that raises, and a bot that
    prints, forks and starts a process (its moves those of a quiet twin): the same games, the
    same faults, and stdout stays pure JSON."""
    import json

    from tests.ladder.helpers import spawn

    common = ["-p", 2, "-b", f"x={BOTS}noisy(seed=1,ms=1)", "-b", "rand=random",
              "-b", f"ans={BOTS}bad_answer(how=exit,after=2)",
              "-b", f"exc={BOTS}bad_exception(how=exit,after=2)", "-b", f"el={BOTS}elusive(how=raise)",
              "--seatings", "rotations", "--deals", 1, "--seed", 21, "--move-timeout", 5,
              "--workers", 2, "--no-progress", "--json"]
    local = cli("tournament", "run", "--db", tmp_path / "local.db", *common)
    assert local.exit_code == 0, local.output
    proc = spawn("tournament", "run", "--db", tmp_path / "ray.db", "--backend", "ray", *common)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, out + err
    report = json.loads(out)
    assert report["status"] == "finished" and report["done"] == 20
    assert "noisy" not in out + err
    a, b = _summary(tmp_path / "local.db"), _summary(tmp_path / "ray.db")
    assert len(a) == 20 and a == b
    charged = {s["bot"] for g in games(tmp_path / "ray.db") for s in g.seats if s["fault"]}
    assert charged == {"ans", "exc", "el"}
