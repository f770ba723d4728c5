"""`tianti tournament`: run bot tournaments (locally or on Ray), resume them, look at runs."""
from __future__ import annotations

import json
import os
import shlex
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from engine.core.errors import TiantiError
from ladder.cli.options import (DbOpt, GameOpt, GameOptionsOpt, JsonOpt, PlayersOpt, fail,
                                make_game, open_store)

if TYPE_CHECKING:
    from ladder.backends import Backend
    from ladder.store import Store

app = typer.Typer(
    help="Bot tournaments: every deal at every seating (duplicate games), stored game by game "
    "in SQLite, resumable, rated with TrueSkill (see `tianti ladder`).",
    no_args_is_help=True,
)


class Seatings(str, Enum):
    permutations = "permutations"
    rotations = "rotations"


class BackendName(str, Enum):
    local = "local"
    ray = "ray"


BotOpt = Annotated[
    Optional[list[str]],
    typer.Option("--bot", "-b", help="a bot as NAME=SPEC, repeatable (e.g. -b rand=random -b "
                 "'deep=ismcts(iterations=5000)'; a spec without options may stand alone: -b random)"),
]
BotsFileOpt = Annotated[
    Optional[Path],
    typer.Option("--bots-file", "-f", help="a TOML file with a \\[bots] table of name = \"spec\" "
                 "lines (may be combined with --bot)"),
]
WorkersOpt = Annotated[
    Optional[int],
    typer.Option("--workers", "-w", help="worker processes (local) or CPUs of the local Ray "
                 "instance (default: this machine's cores)"),
]
BackendOpt = Annotated[
    BackendName,
    typer.Option("--backend", help="where the games run: local worker processes, or Ray tasks"),
]
AddressOpt = Annotated[
    Optional[str],
    typer.Option("--address", help="the Ray cluster to use with --backend ray: its head's "
                 "HOST:PORT (e.g. 10.0.0.5:6379) or auto; default: start a local Ray instance. "
                 "Its nodes need tianti installed; python: bot modules from your folders travel "
                 "with the run"),
]
ProgressOpt = Annotated[
    bool, typer.Option("--progress/--no-progress", help="show the progress bar (on stderr)")
]
def _importable_here() -> None:
    """Let `python:module:factory` specs name modules in the current directory, as they could
    under `python -m` (the worker processes inherit the path)."""
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)


RunArg = Annotated[int, typer.Argument(help="the run's number (`tianti tournament list`)")]


@app.command()
def run(
    game: GameOpt = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    bot: BotOpt = None,
    bots_file: BotsFileOpt = None,
    deals: Annotated[int, typer.Option("--deals", "-n", help="deals to play; each deal is "
                                       "played at every seating with the same seed")] = 10,
    seatings: Annotated[Seatings, typer.Option(
        "--seatings", help="permutations: every seat order of each table; rotations: its "
        "cyclic rotations only (each bot still in each seat equally often)")] = Seatings.permutations,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", help="the tournament's seed; every deal's seed derives from it (default: "
        "random, stored with the run)", min=0)] = None,
    move_timeout: Annotated[float, typer.Option(
        "--move-timeout", help="seconds a bot may take for one decision; past it (or on an "
        "error or an illegal action) it loses that game. 0: no limit", min=0)] = 60.0,
    workers: WorkersOpt = None,
    backend: BackendOpt = BackendName.local,
    address: AddressOpt = None,
    db: DbOpt = None,
    label: Annotated[Optional[str], typer.Option("--label", help="a note to recognize the run "
                                                 "by in `tianti tournament list`")] = None,
    progress: ProgressOpt = True,
    json_out: JsonOpt = False,
) -> None:
    """Play a tournament between named bots, storing every game; prints the run's results.

    Every deal is played at every seating of the bots with the same seed (duplicate games).
    A bot with a seed option that its spec leaves unset gets a seed derived from the deal and
    its name, so that every game can be played again identically.
    Ctrl-C stops it, losing only the games being played; `tianti tournament resume RUN` plays
    the rest."""
    from ladder.backends import make_backend
    from ladder.roster import roster
    from ladder.runner import start_run
    from ladder.schedule import TournamentSpec, check, count_seatings

    _importable_here()
    try:
        g = make_game(game, players, option)
        bots = roster(bot, bots_file)
        if not bots:
            raise TiantiError("name the bots: --bot NAME=SPEC (repeatable) or --bots-file FILE")
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little") >> 1
        if seed >= 1 << 63:
            raise TiantiError(f"--seed must be below 2**63, got {seed}")
        spec = TournamentSpec(game=g.name, options=dict(g.options), bots=tuple(bots),
                              deals=deals, seatings=seatings.value, seed=seed,
                              move_timeout=move_timeout or None)
        planned = check(spec)
    except TiantiError as e:
        raise fail(str(e))
    store = open_store(db, create=True)
    try:
        store.register_bots(list(spec.bots))
        back = make_backend(backend.value, workers, address, [s for _, s in spec.bots])
    except TiantiError as e:
        raise fail(str(e))
    run_id = start_run(store, spec, label)
    per_deal = count_seatings(len(bots), spec.players, spec.seatings)
    if not json_out:
        typer.echo(f"run {run_id}: {planned} games of {g.name} with {spec.players} "
                   f"player{'s' if spec.players != 1 else ''} "
                   f"({deals} deals x {per_deal} seatings), seed {seed}; {back.workers} "
                   f"{back.name} worker{'s' if back.workers != 1 else ''}; store {store.path}")
    _play(store, run_id, back, progress, json_out)


@app.command()
def resume(
    run_id: RunArg,
    workers: WorkersOpt = None,
    backend: BackendOpt = BackendName.local,
    address: AddressOpt = None,
    db: DbOpt = None,
    force: Annotated[bool, typer.Option("--force", help="resume even if the run looks like it "
                                        "is still being played elsewhere")] = False,
    progress: ProgressOpt = True,
    json_out: JsonOpt = False,
) -> None:
    """Play the games a stopped or interrupted run still lacks (and only those)."""
    from ladder.backends import make_backend
    from ladder.roster import roster
    from ladder.runner import missing_tasks

    _importable_here()
    store = open_store(db)
    try:
        info = store.run(run_id)
        roster([f"{n}={s}" for n, s in info.spec.bots], None)  # the bots must still build
        missing = len(missing_tasks(store, run_id))
        if missing == 0:
            if info.status != "finished":
                store.set_status(run_id, "finished")
            typer.echo(f"run {run_id} is complete: {info.planned} of {info.planned} games stored")
            return
        store.claim_run(run_id, force=force)
        back = make_backend(backend.value, workers, address, [s for _, s in info.spec.bots])
    except TiantiError as e:
        raise fail(str(e))
    if not json_out:
        typer.echo(f"run {run_id}: {info.planned - missing} of {info.planned} games stored, "
                   f"playing the {missing} missing on {back.workers} {back.name} "
                   f"worker{'s' if back.workers != 1 else ''}; store {store.path}")
    _play(store, run_id, back, progress, json_out)


def _play(store: Store, run_id: int, backend: Backend, progress: bool, json_out: bool) -> None:
    from ladder.runner import play_run

    report = play_run(store, run_id, backend, progress=progress)
    db_arg = f" --db {shlex.quote(str(store.path.resolve()))}"
    if json_out:
        typer.echo(json.dumps(report.to_dict()))
    else:
        typer.echo(
            f"run {run_id} {report.status}: {report.done} of {report.planned} games stored "
            f"({report.played} played now in {report.wall_seconds:.1f} s, "
            f"{report.games_per_minute:,.0f} games/min on {report.workers} "
            f"worker{'s' if report.workers != 1 else ''})")
        if report.played:
            typer.echo(
                f"a game took {1000 * report.game_seconds:.1f} ms in its worker "
                f"({1000 * report.game_cpu_seconds:.1f} ms of CPU); overhead per game: "
                f"{1000 * report.overhead_seconds:.1f} ms of worker time (start-up, waiting, "
                f"transfer), {1000 * report.parent_cpu_per_game:.2f} ms of CPU in this process")
        if report.nodes is not None:
            typer.echo(f"{report.nodes} Ray node{'s' if report.nodes != 1 else ''} took part; "
                       f"{report.replayed} game{'s' if report.replayed != 1 else ''} played again "
                       f"after a lost worker or node")
        if report.faults:
            typer.echo(f"{report.faults} seat{'s' if report.faults != 1 else ''} lost by a fault "
                       f"(error, timeout or illegal move): `tianti tournament show {run_id} "
                       f"--errors{db_arg}`")
        _print_standings(store, run_id)
    if report.status == "failed":
        typer.secho(f"error: {report.failure}", fg=typer.colors.RED, err=True)
        typer.echo(f"after fixing it, resume with: tianti tournament resume {run_id}{db_arg}",
                   err=True)
        raise typer.Exit(code=1)
    if report.status == "interrupted":
        typer.echo(f"interrupted: the games being played were dropped, {report.done} of "
                   f"{report.planned} are stored. Resume with: tianti tournament resume "
                   f"{run_id}{db_arg}", err=True)
        raise typer.Exit(code=130)


def _standings(store: Store, run_id: int) -> list[dict[str, Any]]:
    rows = store.conn.execute(
        "SELECT s.bot, COUNT(*), SUM(s.rank = 0), AVG(s.rank + 1), SUM(s.fault_kind IS NOT NULL),"
        " SUM(s.think_seconds), SUM(s.moves) FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE g.run_id = ? GROUP BY s.bot ORDER BY AVG(s.rank), s.bot", (run_id,)).fetchall()
    return [{"bot": b, "games": n, "wins": int(w), "mean_place": place, "faults": int(f),
             "ms_per_move": 1000 * t / m if m else 0.0} for b, n, w, place, f, t, m in rows]


def _print_standings(store: Store, run_id: int) -> None:
    rows = _standings(store, run_id)
    if not rows:
        return
    width = max(len("bot"), *(len(r["bot"]) for r in rows))
    typer.echo(f"{'bot':<{width}}  games   wins  mean place  faults   ms/move")
    for r in rows:
        typer.echo(f"{r['bot']:<{width}}  {r['games']:5d}  {r['wins']:5d}  {r['mean_place']:10.2f}"
                   f"  {r['faults']:6d}  {r['ms_per_move']:8.3f}")


@app.command("list")
def list_runs(db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """List the runs in the store: progress, status, game and bots."""
    store = open_store(db)
    runs = store.runs()
    if json_out:
        typer.echo(json.dumps([r.to_dict() for r in runs]))
        return
    if not runs:
        typer.echo(f"no runs in {store.path}")
        return
    typer.echo(f"{'run':>4}  {'status':<11}  {'games':>13}  {'faults':>6}  {'created':<19}  "
               f"game, bots")
    for r in runs:
        bots = ", ".join(n for n, _ in r.spec.bots)
        label = f" [{r.label}]" if r.label else ""
        typer.echo(f"{r.id:>4}  {r.status:<11}  {f'{r.done}/{r.planned}':>13}  {r.errors:>6}  "
                   f"{r.created_at[:19].replace('T', ' '):<19}  {r.spec.game} "
                   f"{r.spec.players}p: {bots}{label}")


@app.command()
def show(
    run_id: RunArg,
    db: DbOpt = None,
    games: Annotated[bool, typer.Option("--games", help="list every stored game (its number "
                                        "is what `tianti replay RUN GAME` takes)")] = False,
    errors: Annotated[bool, typer.Option("--errors", help="print each fault in full")] = False,
    json_out: JsonOpt = False,
) -> None:
    """A run: its settings, progress, results per bot, faults, and (with --games) its games."""
    from ladder.runner import missing_tasks

    store = open_store(db)
    try:
        info = store.run(run_id)
    except TiantiError as e:
        raise fail(str(e))
    stored = list(store.games(where="g.run_id = ?", params=(run_id,), order="g.deal, g.seating"))
    faults = [(g, s) for g in stored for s in g.seats if s["fault"] is not None]
    missing = len(missing_tasks(store, run_id))
    durations = [g.duration for g in stored]
    if json_out:
        typer.echo(json.dumps({
            **info.to_dict(), "missing": missing, "standings": _standings(store, run_id),
            "faults": [{"game": g.id, "deal": g.deal, "seating": g.seating, "bot": s["bot"],
                        **s["fault"]} for g, s in faults],
            "games": [{"game": g.id, "deal": g.deal, "seating": g.seating,
                       "seats": [s["bot"] for s in g.seats], "scores": [s["score"] for s in g.seats],
                       "ranks": [s["rank"] for s in g.seats]} for g in stored] if games else None,
        }))
        return
    spec = info.spec
    typer.secho(f"run {info.id}{f' [{info.label}]' if info.label else ''}: {info.status}", bold=True)
    opts = ", ".join(f"{k}={v}" for k, v in spec.options.items())
    typer.echo(f"game      {spec.game} ({opts})")
    typer.echo(f"bots      " + "; ".join(f"{n} = {s}" for n, s in spec.bots))
    typer.echo(f"plan      {spec.deals} deals, seatings by {spec.seatings}, seed {spec.seed}, "
               f"move time limit {f'{spec.move_timeout:g} s' if spec.move_timeout else 'none'}")
    typer.echo(f"progress  {info.done} of {info.planned} games stored, {missing} missing")
    typer.echo(f"times     created {info.created_at}, last update {info.updated_at}"
               f"{f', finished {info.finished_at}' if info.finished_at else ''}; "
               f"{info.wall_seconds:.1f} s of wall time")
    if durations:
        typer.echo(f"          a game took {1000 * sum(durations) / len(durations):.1f} ms on "
                   f"average in its worker")
    typer.echo("")
    _print_standings(store, run_id)
    if faults:
        typer.echo("")
        typer.echo(f"faults ({len(faults)}):")
        for g, s in faults:
            f = s["fault"]
            message = f["message"] if errors else f["message"].strip().splitlines()[-1][:160]
            where = "before its first move" if f["move"] < 0 else f"at decision {f['move']}"
            typer.echo(f"  game {g.id} (deal {g.deal}, seating {g.seating}): {s['bot']} "
                       f"{f['kind']} {where}: {message}")
    if games:
        typer.echo("")
        typer.echo(f"{'game':>6}  {'deal':>4}  {'seating':>7}  seats (score, place)")
        for g in stored:
            seats = ", ".join(f"{s['bot']} {s['score']} #{s['rank'] + 1}"
                              f"{' (' + s['fault']['kind'] + ')' if s['fault'] else ''}"
                              for s in g.seats)
            typer.echo(f"{g.id:>6}  {g.deal:>4}  {g.seating:>7}  {seats}")
