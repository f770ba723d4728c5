"""The Ray backend, on a local Ray instance: the same games as the local backend, the same
faults when a bot takes its Ray worker down, a stop after repeated losses of a game, and the
user's bot modules shipped to the cluster."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ladder.tournament.backends import (RUNTIME_ENV_VAR, BackendError, runtime_env_for,
                                        shipped_modules)
from ladder.tournament.store import Store
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
    assert "1 Ray node took part; 0 games played again after a lost worker or node" in remote.output
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


@pytest.mark.cluster
def test_bots_that_kill_their_ray_worker_or_ignore_the_interrupt_are_charged_as_locally(
        tmp_path: Path) -> None:
    """A bot that kills its own process, and one that blocks the watchdog's signal, take their
    Ray worker down; the game is played again in a watched process and the bot is faulted as on
    the local backend: the records are the same, and the run finishes."""
    # in the worker's process (inproc:), as asked: out of process they cannot reach it
    common = ["-p", 3, "-b", "rand=random", "-b", f"dies=inproc:{BOTS}dies(after=4)",
              "-b", f"deaf=inproc:{BOTS}deaf(after=2)", "--seatings", "rotations", "--deals", 1,
              "--seed", 8, "--move-timeout", 1, "--workers", 2, "--no-progress"]
    local = cli("tournament", "run", "--db", tmp_path / "local.db", *common)
    assert local.exit_code == 0, local.output
    remote = cli("tournament", "run", "--db", tmp_path / "ray.db", "--backend", "ray", *common)
    assert remote.exit_code == 0, remote.output
    assert "run 1 finished: 3 of 3 games stored" in remote.output
    a, b = _summary(tmp_path / "local.db"), _summary(tmp_path / "ray.db")
    assert len(a) == 3 and a == b
    kinds = {(s["bot"], s["fault"]["kind"]) for g in games(tmp_path / "ray.db") for s in g.seats
             if s["fault"]}
    assert kinds == {("dies", "error"), ("deaf", "timeout")}
    assert "playing it again in a watched process" in remote.output


@pytest.mark.cluster
def test_a_game_lost_again_and_again_stops_the_run_resumably(tmp_path: Path) -> None:
    """A game whose Ray worker is killed from outside every time it is played (here by a bot
    that kills its host process, which the tournament cannot pin on it) is re-played, then the
    run stops after the third loss with a clear message and the games without that bot stored;
    no game is charged to anybody."""
    db = tmp_path / "t.db"
    result = cli("tournament", "run", "--db", db, "--backend", "ray", "-p", 3,
                 "-b", "a=random", "-b", "b=random", "-b", "c=heuristic",
                 "-b", "host=inproc:python:tests.ladder.cluster_bots:kills_its_host(after=2)",
                 "--seatings", "rotations", "--deals", 1, "--seed", 4, "--workers", 2,
                 "--no-progress")
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())  # long lines go on, indented, within 80 columns
    assert re.search(r"error: game \(deal 0, seating \d+\) was lost 3 times with its Ray worker "
                     r"or node", said), result.output
    assert "resume with: tianti tournament resume 1" in said
    stored = games(db)
    assert all("host" not in {s["bot"] for s in g.seats} for g in stored)
    assert all(s["fault"] is None for g in stored for s in g.seats)
    with Store(db, create=False) as store:
        assert store.run(1).status == "failed"


def test_a_users_own_bot_modules_are_shipped_and_installed_ones_are_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "loose.py").write_text("def make():\n    return None\n")
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "bots.py").write_text("def make():\n    return None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    specs = ["random", "ismcts(iterations=10)", "python:loose:make",
             "python:pkg.sub.bots:make(depth=2)", "python:typer:Typer",
             "python:ladder.tournament.worker:play_task", "python:json:loads"]
    assert shipped_modules(specs) == [str((tmp_path / "loose.py").resolve()),
                                      str((tmp_path / "pkg").resolve())]
    monkeypatch.setenv(RUNTIME_ENV_VAR, json.dumps({"pip": ["nothing-real"],
                                                    "py_modules": ["/opt/lib"]}))
    env = runtime_env_for(["python:loose:make"])
    assert env == {"pip": ["nothing-real"],
                   "py_modules": [str((tmp_path / "loose.py").resolve()), "/opt/lib"]}
    monkeypatch.setenv(RUNTIME_ENV_VAR, "{not json")
    with pytest.raises(BackendError, match="TIANTI_RAY_RUNTIME_ENV is not JSON"):
        runtime_env_for([])


def test_exec_tianti_on_the_path_and_in_its_venv_play_on_ray(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 48: `exec:tianti bot heuristic` (found on the user's PATH) and
    `exec:<venv>/bin/tianti bot heuristic` (its interpreter a link the sandbox must bind) play
    on the Ray backend without a fault, as on the local one (tests/ladder/test_sandbox.py)."""
    import sys

    tianti = Path(sys.executable).parent / "tianti"
    if not tianti.exists():
        pytest.skip(f"no tianti script beside {sys.executable}")
    monkeypatch.setenv("PATH", f"{tianti.parent}:/usr/bin:/bin")
    monkeypatch.chdir(tmp_path)
    result = cli("tournament", "run", "--db", tmp_path / "ray.db", "--backend", "ray",
                 "-g", "dragon", "-p", 2, "-b", "path=exec:tianti bot heuristic",
                 "-b", f"venv=exec:{tianti} bot heuristic", "--deals", 1, "--seed", 5,
                 "--move-timeout", 30, "--workers", 1, "--no-progress", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["done"] == 2 and out["report"]["faults"] == 0, out
