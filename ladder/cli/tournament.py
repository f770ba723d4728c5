"""`tianti tournament`: run bot tournaments (locally or on Ray), resume them, look at runs."""
from __future__ import annotations

import json
import math
import os
import shlex
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from engine.core.errors import TiantiError
from engine.core.text import printable
from ladder.cli.options import (DbOpt, Format, FormatOpt, GameOpt, GameOptionsOpt, JsonOpt,
                                PlayersOpt, fail, make_game, open_store, output_format,
                                write_csv)
from engine.core.text import WIDTH, display_width, fill, wrap
from ladder.cli.errorline import fit_error
from ladder.cli.screen import chance_text, echo_fit, echo_table, hang, spec_pieces, words
from ladder.names import display_name
from ladder.tournament.stats import elo_text

# The longest move time limit accepted: a day (more is a typo, and some would overflow timers).
MAX_MOVE_TIMEOUT = 86400.0

if TYPE_CHECKING:
    from ladder.tournament.backends import Backend
    from ladder.tournament.store import Store

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
    Optional[bool], typer.Option("--progress/--no-progress", help="show the progress bar on "
                                 "stderr (default: only when stderr is a terminal)")
]


def _count(n: int, word: str) -> str:
    """`n word` with the plural when n is not 1 ("1 deal", "6 seatings")."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def _importable_here() -> None:
    """Let `python:module:factory` specs name modules in the current directory, as they could
    under `python -m` (the worker processes inherit the path)."""
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)


RunArg = Annotated[int, typer.Argument(help="the run's number (`tianti tournament list`)")]
SprtOpt = Annotated[Optional[str], typer.Option(
    "--sprt", metavar="ELO0,ELO1",
    help="a sequential test (fishtest's SPRT) of the first bot against the others: H0 'it is "
    "ELO0 logistic Elo stronger' against H1 'ELO1 stronger'; the run stops when the test "
    "decides, or after --deals")]
AlphaOpt = Annotated[float, typer.Option("--alpha", help="--sprt: the chance of accepting H1 "
                                         "when H0 holds")]
BetaOpt = Annotated[float, typer.Option("--beta", help="--sprt: the chance of accepting H0 "
                                        "when H1 holds")]


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
        "error or an illegal action) it loses that game. 0: no limit")] = 60.0,
    workers: WorkersOpt = None,
    backend: BackendOpt = BackendName.local,
    address: AddressOpt = None,
    db: DbOpt = None,
    label: Annotated[Optional[str], typer.Option("--label", help="a note to recognize the run "
                                                 "by in `tianti tournament list`")] = None,
    progress: ProgressOpt = None,
    sprt: SprtOpt = None,
    alpha: AlphaOpt = 0.05,
    beta: BetaOpt = 0.05,
    in_process: Annotated[bool, typer.Option(
        "--in-process", help="run python: bots inside the referee's process (faster; they can "
        "reach everything there, so only for bots you trust); the run records it")] = False,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Play a tournament between named bots, storing every game; prints the run's results.

    tianti's own bots play inside the referee's process; every other bot (python:, exec:)
    plays from a sandboxed process of its own over the bot protocol (docs/PROTOCOL.md),
    unless --in-process (or an inproc: spec) asks otherwise.

    Every deal is played at every seating of the bots with the same seed (duplicate games).
    A bot with a seed option that its spec leaves unset gets a seed derived from the deal and
    its name, so that every game can be played again identically.
    Ctrl-C stops it, losing only the games being played; `tianti tournament resume RUN` plays
    the rest. It ends with the run's ladder (TrueSkill mu and sigma given all its games, the
    chance that each bot is stronger than the next, win rate with its 95% interval, mean place) and, for two bots, the Elo difference with its
    error bar and the likelihood of superiority. With --sprt it stops as soon as the
    sequential test decides (exit code 0 either way; the verdict is printed and in --json)."""
    from ladder.tournament.backends import make_backend
    from ladder.tournament.roster import check_text, roster
    from ladder.tournament.runner import start_run
    from ladder.tournament.schedule import TournamentSpec, check, count_seatings

    from ladder.tournament.sprt import SprtSpec
    from ladder.tournament.store import Store

    _importable_here()
    out_fmt = output_format(fmt, json_out)
    try:
        if label is not None:
            check_text(label, "--label")
        g = make_game(game, players, option)
        bots = roster(bot, bots_file, move_timeout or None)
        if in_process:
            from ladder.referee.players import in_process as inproc

            bots = [(n, inproc(s)) for n, s in bots]
        if not bots:
            raise TiantiError("name the bots: --bot NAME=SPEC (repeatable) or --bots-file FILE")
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little") >> 1
        if seed >= 1 << 63:
            raise TiantiError(f"--seed must be below 2**63, got {seed}")
        if not (math.isfinite(move_timeout) and 0 <= move_timeout <= MAX_MOVE_TIMEOUT):
            raise TiantiError(f"--move-timeout must be between 0 and {MAX_MOVE_TIMEOUT:g} "
                              f"seconds (0: no limit), got {move_timeout}")
        if deals > 10**9:
            raise TiantiError(f"--deals must be at most 10**9, got {deals}")
        test = SprtSpec.parse(sprt, alpha, beta) if sprt is not None else None
        spec = TournamentSpec(game=g.name, options=dict(g.options), bots=tuple(bots),
                              deals=deals, seatings=seatings.value, seed=seed,
                              move_timeout=move_timeout or None,
                              sprt=test.to_dict() if test is not None else None)
        planned = check(spec)
        # a refused command leaves the disk untouched: everything that can refuse it is
        # checked before the store is created or written
        path = Path(db) if db is not None else _default_db()
        if _exists(path):
            # (empty: another tournament is creating it right now)
            with Store(path, create=False, write=False, allow_empty=True) as probe:
                probe.check_bots(list(spec.bots))
                if not probe.writable:
                    raise TiantiError(f"the store {probe.path} is read-only: it can be "
                                      f"listed and shown, not added to")
        back = make_backend(backend.value, workers, address, [s for _, s in spec.bots])
    except TiantiError as e:
        raise fail(str(e))
    try:
        store = open_store(db, create=True)
        try:
            store.register_bots(list(spec.bots))
            run_id = start_run(store, spec, label)
        except TiantiError as e:
            raise fail(str(e))
    except BaseException:
        back.close()
        raise
    per_deal = count_seatings(len(bots), spec.players, spec.seatings)
    if out_fmt is Format.table:
        echo_fit(f"run {run_id}: {'at most ' if test is not None else ''}"
                 f"{_count(planned, 'game')} of {g.name} with {spec.players} "
                 f"player{'s' if spec.players != 1 else ''} "
                 f"({_count(deals, 'deal')} x {_count(per_deal, 'seating')}), seed {seed}")
        if test is not None:
            echo_fit(f"SPRT {test.elo0:g},{test.elo1:g} of {bots[0][0]} against the others "
                     f"(alpha {test.alpha:g}, beta {test.beta:g}): stops when it decides")
        echo_fit(f"{back.workers} {back.name} worker{'s' if back.workers != 1 else ''}; "
                 f"store {store.path}")
        for line in placement_lines(spec.bots):
            echo_fit(line)
    _play(store, run_id, back, progress, out_fmt)


def _exists(path: Path) -> bool:
    """Whether a store file is there (a path the system refuses is left to the store's check)."""
    try:
        return path.exists()
    except OSError:
        return False


def _default_db() -> Path:
    from ladder.tournament.store import default_path

    return default_path()


@app.command()
def resume(
    run_id: RunArg,
    workers: WorkersOpt = None,
    backend: BackendOpt = BackendName.local,
    address: AddressOpt = None,
    db: DbOpt = None,
    force: Annotated[bool, typer.Option("--force", help="resume even if the run looks like it "
                                        "is still being played elsewhere")] = False,
    progress: ProgressOpt = None,
    bot: Annotated[Optional[list[str]], typer.Option(
        "--bot", "-b", help="a python: or exec: bot of the run, named again as NAME=SPEC "
        "(repeatable): the store's word alone does not run code")] = None,
    trust: Annotated[bool, typer.Option(
        "--trust", help="run the python: and exec: bots the store names without naming them "
        "again")] = False,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Play the games a stopped or interrupted run still lacks (and only those).

    A store is data: a bot of the run that runs code of its own (python:, exec:)
    is made only when named again with --bot NAME=SPEC (as when the run was
    started) or with --trust.

    A run with a sequential test goes on until the test decides; one that has decided is
    complete. Ends with the same summary as `tournament run`."""
    from ladder.tournament.backends import make_backend
    from ladder.tournament.roster import check_trusted, roster
    from ladder.tournament.runner import missing_tasks

    _importable_here()
    out_fmt = output_format(fmt, json_out)
    store = open_store(db, write=True)
    try:
        info = store.run(run_id)
        missing = len(missing_tasks(store, run_id))
        # a complete run makes no bot; the others are checked (code only with consent) and
        # must still build, before anything is played
        check_trusted(list(info.spec.bots), bot, trust or missing == 0, f"run {run_id}")
        if missing:
            roster([f"{n}={s}" for n, s in info.spec.bots], None, info.spec.move_timeout)
        if missing == 0:
            status = store.set_status(run_id, "finished")
            if out_fmt is Format.table:
                decided = info.spec.sprt is not None and info.done < info.planned
                typer.echo(f"run {run_id} is complete: {info.done} of {info.planned} games stored"
                           + (" (its sequential test has decided)" if decided else ""))
            else:
                _emit_summary(store, run_id, None, out_fmt)
            return
        back = make_backend(backend.value, workers, address, [s for _, s in info.spec.bots])
        try:
            store.claim_run(run_id, force=force)
        except BaseException:
            back.close()
            raise
    except TiantiError as e:
        raise fail(str(e))
    if out_fmt is Format.table:
        echo_fit(f"run {run_id}: {info.planned - missing} of {info.planned} games stored, "
                 f"playing the {missing} missing on {back.workers} {back.name} "
                 f"worker{'s' if back.workers != 1 else ''}; store {store.path}")
    _play(store, run_id, back, progress, out_fmt)


def command_path(path: Path) -> str:
    """`path` for a command to copy, short as the play resume hint writes it: relative to the
    working folder when inside it, with `~` for the home folder, else whole; shell-quoted."""
    p = Path(path).resolve()
    try:
        return shlex.quote(str(p.relative_to(Path.cwd().resolve())))
    except (ValueError, OSError):
        pass
    try:
        return "~/" + shlex.quote(str(p.relative_to(Path.home().resolve())))
    except (ValueError, RuntimeError):
        return shlex.quote(str(p))


def _hint(lead: str, command: str) -> None:
    """`lead` and a command to copy on stderr: on one line when it fits 80 columns, else the
    lead fitted to 80 columns and the command whole on a line of its own (never broken)."""
    if display_width(f"{lead} {command}") <= WIDTH:
        typer.echo(f"{lead} {command}", err=True)
        return
    for line in fill(lead, WIDTH):
        typer.echo(line, err=True)
    typer.echo(f"  {command}", err=True)


def _play(store: Store, run_id: int, backend: Backend, progress: bool | None,
          out_fmt: Format) -> None:
    from ladder.tournament.roster import runs_code
    from ladder.tournament.runner import play_run

    # the user who started a run with bots of their own code vouches for them on its resume
    trust = any(runs_code(s) for _, s in store.run(run_id).spec.bots)
    report = play_run(store, run_id, backend, progress=progress)
    db_arg = f" --db {command_path(store.path)}"
    resume = f"tianti tournament resume {run_id}{db_arg}{' --trust' if trust else ''}"
    if out_fmt is not Format.table:
        _emit_summary(store, run_id, report, out_fmt)
    else:
        echo_fit(
            f"run {run_id} {report.status}: {report.done} of {report.planned} games stored "
            f"({report.played} played now in {report.wall_seconds:.1f} s, "
            f"{report.games_per_minute:,.0f} games/min on {report.workers} "
            f"worker{'s' if report.workers != 1 else ''})")
        if report.played:
            echo_fit(
                f"a game took {1000 * report.game_seconds:.1f} ms in its worker "
                f"({1000 * report.game_cpu_seconds:.1f} ms of CPU); overhead per game: "
                f"{1000 * report.overhead_seconds:.1f} ms of worker time (start-up, waiting, "
                f"transfer), {1000 * report.parent_cpu_per_game:.2f} ms of CPU in this process")
        if report.nodes is not None:
            echo_fit(f"{report.nodes} Ray node{'s' if report.nodes != 1 else ''} took part; "
                       f"{report.replayed} game{'s' if report.replayed != 1 else ''} played again "
                       f"after a lost worker or node")
        if report.faults:
            echo_fit(f"{report.faults} seat{'s' if report.faults != 1 else ''} lost by a fault "
                       f"(error, timeout or illegal move): `tianti tournament show {run_id} "
                       f"--errors{db_arg}`")
        if not report.store_failure:
            _print_summary(store, run_id, report)
    if report.store_failure:
        typer.secho(f"error: {fit_error(report.failure)}", fg=typer.colors.RED, err=True)
        _hint(f"the run is interrupted ({report.done} of {report.planned} games stored); "
              f"once the store is usable again, resume with:", resume)
        raise typer.Exit(code=1)
    if report.status == "failed":
        typer.secho(f"error: {fit_error(report.failure)}", fg=typer.colors.RED, err=True)
        _hint("after fixing it, resume with:", resume)
        raise typer.Exit(code=1)
    if report.status == "interrupted":
        _hint(f"interrupted: the games being played were dropped, {report.done} of "
              f"{report.planned} are stored. Resume with:", resume)
        raise typer.Exit(code=130)


def placement_lines(bots: Any) -> list[str]:
    """Where each bot plays, for the run's header: one line per kind of place (none when every
    bot is tianti's own), each fitting 80 columns by listing names only."""
    from ladder.referee.players import placement

    where: dict[str, list[str]] = {}
    for name, spec in bots:
        where.setdefault(placement(spec), []).append(name)
    out = []
    if where.get("process"):
        from ladder.referee.sandbox import pause_method, probe

        isolation = probe()
        out.append("in processes of their own: " + ", ".join(where["process"]))
        out.append("  their sandbox here: " + isolation.summary())
        import textwrap

        out += textwrap.wrap("between its turns a bot is " + pause_method(isolation), 80,
                             initial_indent="  ", subsequent_indent="    ")
        for w in isolation.warnings:
            out += textwrap.wrap("warning: " + w, 80, initial_indent="  ",
                                 subsequent_indent="    ")
    if where.get("inproc"):
        out.append("in the referee's process, as asked (trusted): " + ", ".join(where["inproc"]))
    return [line if len(line) <= 80 else line[:77] + "..." for line in out]


def _isolation(bots: Any) -> dict[str, Any] | None:
    """The sandbox the bots in processes of their own get on this machine (None: none)."""
    from ladder.referee.players import placement

    if not any(placement(s) == "process" for _, s in bots):
        return None
    from ladder.referee.sandbox import probe

    isolation = probe()
    return {"features": list(isolation.features), "warnings": list(isolation.warnings)}


def run_summary(store: Store, run_id: int, report: Any = None) -> dict[str, Any]:
    """The run's answer: its own ladder (its games only, rated in memory), the pairwise Elo
    difference for two bots, the sequential test, and the report of this invocation."""
    from ladder.tournament.ratings import head_to_head_of, ladder, load_games
    from ladder.tournament.runner import sprt_tracker
    from ladder.tournament.stats import elo_summary

    info = store.run(run_id)
    pools = ladder(store, run=run_id)
    pool = pools[0] if pools else None
    pair = None
    names = [n for n, _ in info.spec.bots]
    if len(names) == 2 and info.spec.players > 1:
        h = head_to_head_of(load_games(store, run=run_id))
        a, b = names
        pair = {"bot": a, "opponent": b,
                **elo_summary(h.above.get((a, b), 0), h.below.get((a, b), 0),
                              h.level.get((a, b), 0))}
    tracker = sprt_tracker(store, run_id, info.spec)
    from ladder.referee.players import placement

    return {"run": run_id, "status": info.status, "planned": info.planned, "done": info.done,
            "placement": {n: placement(s) for n, s in info.spec.bots},
            "isolation": _isolation(info.spec.bots),
            "report": report.to_dict() if report is not None else None,
            "ladder": pool.to_dict() if pool is not None else None, "pair": pair,
            "sprt": tracker.state.to_dict() if tracker is not None else None}


def _emit_summary(store: Store, run_id: int, report: Any, out_fmt: Format) -> None:
    summary = run_summary(store, run_id, report)
    if out_fmt is Format.json:
        typer.echo(json.dumps(summary))
        return
    rows = (summary["ladder"] or {}).get("rows", [])
    write_csv(["run", "rank", "bot", "mu", "sigma", "conservative", "games", "wins", "win_rate",
               "win_low", "win_high", "mean_place", "errors"],
              [[run_id, r["rank"], r["bot"], r["mu"], r["sigma"], r["conservative"], r["games"],
                r["wins"], r["win_rate"], r["win_low"], r["win_high"], r["mean_place"],
                r["errors"]] for r in rows])


def _print_summary(store: Store, run_id: int, report: Any) -> None:
    """The end of a run in words: its ladder, and for two bots the Elo difference."""
    summary = run_summary(store, run_id, report)
    pool = summary["ladder"]
    if not pool:
        return
    rated = pool["players"] > 1
    game = pool["game"]
    echo_fit(f"run {run_id}: {pool['title']}", bold=True)
    win = "goal" if pool["solo_goal"] else "wins"
    header = ["bot", *(["mu", "σ", ">next"] if rated else []), "games", win,
              f"{win} % (95%)", "mean place",
              *([] if rated or pool["solo_goal"] else ["mean score"])]
    rows = []
    for r in pool["rows"]:
        rows.append([display_name(game, r["bot"]),
                     *([f"{r['mu']:.2f}", f"{r['sigma']:.2f}", chance_text(r["above_next"])]
                       if rated else []),
                     str(r["games"]), str(r["wins"]),
                     f"{100 * r['win_rate']:.1f} ({100 * r['win_low']:.1f}-"
                     f"{100 * r['win_high']:.1f})", f"{r['mean_place']:.2f}",
                     *([] if rated or pool["solo_goal"] else [f"{r['mean_score']:.1f}"])])
    echo_table(header, rows, left={0}, flex=0)
    pair = summary["pair"]
    if pair and pair["games"]:
        echo_fit(f"{pair['bot']} against {pair['opponent']}: {pair['wins']} above, "
                 f"{pair['losses']} below, {pair['draws']} level; Elo difference "
                 f"{elo_text(pair)} (95%), likelihood of superiority {100 * pair['los']:.1f}%")
    test = summary["sprt"]
    if test:
        verdict = {"H1": f"accepts H1: {test['candidate']} is at least {test['elo1']:g} Elo stronger",
                   "H0": f"accepts H0: {test['candidate']} is at most {test['elo0']:g} Elo stronger",
                   None: "undecided"}[test["result"]]
        echo_fit(f"SPRT [{test['elo0']:g}, {test['elo1']:g}] (alpha {test['alpha']:g}, beta "
                 f"{test['beta']:g}): LLR {test['llr']:+.2f} in [{test['lower']:+.2f}, "
                 f"{test['upper']:+.2f}] after {test['deals']} deals ({test['games']} games): "
                 f"{verdict}")


def _standings(store: Store, run_id: int) -> list[dict[str, Any]]:
    rows = store.conn.execute(
        "SELECT s.bot, COUNT(*), SUM(s.rank = 0), AVG(s.rank + 1), SUM(s.fault_kind IS NOT NULL),"
        " SUM(s.think_seconds), SUM(s.moves) FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE g.run_id = ? GROUP BY s.bot ORDER BY AVG(s.rank), s.bot", (run_id,)).fetchall()
    return [{"bot": b, "games": n, "wins": int(w), "mean_place": place, "faults": int(f),
             "ms_per_move": 1000 * t / m if m else 0.0} for b, n, w, place, f, t, m in rows]


def _print_standings(store: Store, run_id: int, game: str) -> None:
    rows = _standings(store, run_id)
    if not rows:
        return
    echo_table(["bot", "games", "wins", "mean place", "faults", "ms/move"],
               [[display_name(game, r["bot"]), str(r["games"]), str(r["wins"]),
                 f"{r['mean_place']:.2f}", str(r["faults"]), f"{r['ms_per_move']:.3f}"]
                for r in rows], left={0}, flex=0)


@app.command("list")
def list_runs(db: DbOpt = None, fmt: FormatOpt = None, json_out: JsonOpt = False) -> None:
    """List the runs in the store: progress, status, game and bots."""
    out_fmt = output_format(fmt, json_out)
    store = open_store(db)
    runs = store.runs()
    if out_fmt is Format.json:
        typer.echo(json.dumps([r.to_dict() for r in runs]))
        return
    if out_fmt is Format.csv:
        write_csv(["run", "label", "status", "done", "planned", "errors", "created_at", "game",
                   "players", "bots"],
                  [[r.id, r.label or "", r.status, r.done, r.planned, r.errors, r.created_at,
                    r.spec.game, r.spec.players, " ".join(n for n, _ in r.spec.bots)]
                   for r in runs])
        return
    if not runs:
        typer.echo(f"no runs in {store.path}")
        return
    games = max(5, *(len(f"{r.done}/{r.planned}") for r in runs))
    typer.echo(f"{'run':>4}  {'status':<11}  {'games':>{games}}  {'faults':>6}  {'created':<16}  "
               f"game, bots")
    for r in runs:
        bots = [display_name(r.spec.game, n, s) for n, s in r.spec.bots]
        label = [f"[{r.label}]"] if r.label else []
        head = (f"{r.id:>4}  {_status(store, r):<11}  {f'{r.done}/{r.planned}':>{games}}  {r.errors:>6}  "
                f"{r.created_at[:16].replace('T', ' '):<16}  {r.spec.game} {r.spec.players}p:")
        # the bots (and label) follow on the line, continued below it when they do not fit
        for line in hang(head, [f" {b}," for b in bots[:-1]] + [f" {b}" for b in bots[-1:]]
                         + [f" {x}" for x in label], indent=6):
            typer.echo(line)


def _status(store: Store, info: Any) -> str:
    """A run's status in `tournament list`: a finished run with a sequential test says its
    verdict ("accepted H1", "accepted H0", or "no verdict" when every deal was played)."""
    if info.status != "finished" or info.spec.sprt is None:
        return info.status
    from ladder.tournament.runner import sprt_tracker

    tracker = sprt_tracker(store, info.id, info.spec)
    result = tracker.state.result if tracker is not None else None
    return f"accepted {result}" if result else "no verdict"


@app.command()
def show(
    run_id: RunArg,
    db: DbOpt = None,
    games: Annotated[bool, typer.Option("--games", help="list every stored game (its number "
                                        "is what `tianti replay RUN GAME` takes)")] = False,
    errors: Annotated[bool, typer.Option("--errors", help="print each fault in full")] = False,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A run: its settings, progress, results per bot, faults, and (with --games) its games.

    --format csv prints the results per bot (or, with --games, one row per game)."""
    from ladder.tournament.runner import missing_tasks

    out_fmt = output_format(fmt, json_out)
    store = open_store(db)
    try:
        info = store.run(run_id)
    except TiantiError as e:
        raise fail(str(e))
    stored = list(store.games(where="g.run_id = ?", params=(run_id,), order="g.deal, g.seating"))
    faults = [(g, s) for g in stored for s in g.seats if s["fault"] is not None]
    voided = store.voided(run_id)
    try:
        missing = len(missing_tasks(store, run_id))
    except TiantiError:  # a `tianti play` game: one bot name per spec, not a plan to replay
        missing = info.planned - info.done
    durations = [g.duration for g in stored]
    if out_fmt is Format.csv:
        if games:
            write_csv(["game", "deal", "seating", "seat", "bot", "score", "rank", "fault"],
                      [[g.id, g.deal, g.seating, s["seat"], s["bot"], s["score"], s["rank"],
                        s["fault"]["kind"] if s["fault"] else ""] for g in stored for s in g.seats])
        else:
            rows = _standings(store, run_id)
            write_csv(["bot", "games", "wins", "mean_place", "faults", "ms_per_move"],
                      [[r["bot"], r["games"], r["wins"], r["mean_place"], r["faults"],
                        r["ms_per_move"]] for r in rows])
        return
    if out_fmt is Format.json:
        typer.echo(json.dumps({
            **info.to_dict(), "missing": missing, "standings": _standings(store, run_id),
            "summary": run_summary(store, run_id),
            "faults": [{"game": g.id, "deal": g.deal, "seating": g.seating, "bot": s["bot"],
                        **s["fault"]} for g, s in faults],
            "voided": voided,
            "games": [{"game": g.id, "deal": g.deal, "seating": g.seating,
                       "seats": [s["bot"] for s in g.seats], "scores": [s["score"] for s in g.seats],
                       "ranks": [s["rank"] for s in g.seats]} for g in stored] if games else None,
        }))
        return
    spec = info.spec
    typer.secho(f"run {info.id}{f' [{printable(info.label)}]' if info.label else ''}: "
                f"{printable(info.status)}", bold=True)
    field = " " * 10  # the fields' values start in column 11; continuation lines too
    options = [f"{k}={v}" for k, v in spec.options.items()]
    lines = hang(f"game      {spec.game} (", [f"{o}, " for o in options[:-1]]
                 + [f"{o})" for o in options[-1:]])
    for i, (n, s) in enumerate(spec.bots):  # each bot on its own line, its spec in full
        shown = display_name(spec.game, n, s)
        lines += hang(f"{'bots' if i == 0 else '':10}{shown}" + ("" if s == shown else " = "),
                      [] if s == shown else spec_pieces(s))
    for line in (
        f"plan      {spec.deals} deals, seatings by {spec.seatings}, seed {spec.seed}, "
        f"move time limit {f'{spec.move_timeout:g} s' if spec.move_timeout else 'none'}",
        f"progress  {info.done} of {info.planned} games stored, {missing} missing"
        + (f", {len(voided)} voided (lost outside any bot's call; nobody's loss)"
           if voided else ""),
        f"times     created {info.created_at[:19].replace('T', ' ')}, last update "
        f"{info.updated_at[:19].replace('T', ' ')}"
        f"{f', finished {info.finished_at[:19]}'.replace('T', ' ') if info.finished_at else ''}; "
        f"{info.wall_seconds:.1f} s of wall time",
    ):
        lines += hang(line[:10], words(line[10:]))
    for text in lines:
        typer.echo(text)
    if durations:
        typer.echo(f"{field}a game took {1000 * sum(durations) / len(durations):.1f} ms on "
                   f"average in its worker")
    typer.echo("")
    _print_standings(store, run_id, spec.game)
    if voided:
        typer.echo("")
        typer.echo(f"voided games ({len(voided)}):")
        for v in voided:
            echo_fit(f"  deal {v['deal']}, seating {v['seating']}: {_message(v['error'], errors)}")
    if faults:
        typer.echo("")
        typer.echo(f"faults ({len(faults)}):")
        for g, s in faults:
            f = s["fault"]
            message = _message(f["message"], errors)
            where = "before its first move" if f["move"] < 0 else f"at decision {f['move']}"
            echo_fit(f"  game {g.id} (deal {g.deal}, seating {g.seating}): "
                     f"{display_name(spec.game, s['bot'], s['spec'])} {printable(f['kind'])} {where}: "
                     f"{message}")
    if games:
        typer.echo("")
        typer.echo(f"{'game':>6}  {'deal':>4}  {'seating':>7}  seats (score, place)")
        for g in stored:
            seats = [f"{display_name(spec.game, s['bot'], s['spec'], 24)} {s['score']} "
                     f"#{s['rank'] + 1}{' (' + printable(s['fault']['kind']) + ')' if s['fault'] else ''}"
                     for s in g.seats]
            for text in wrap(f"{g.id:>6}  {g.deal:>4}  {g.seating:>7}  ", seats, WIDTH):
                typer.echo(text)


def _message(text: str, full: bool) -> str:
    """A stored fault or void message for a listing: its last line (cut to 160 characters),
    or with `full` every line, the later ones indented; either way nothing in it acts on the
    terminal (a bot chooses its own error messages, and could otherwise forge lines)."""
    lines = text.strip().splitlines() or [""]
    if not full:
        return printable(lines[-1][:160])
    return "\n    ".join(printable(line) for line in lines)
