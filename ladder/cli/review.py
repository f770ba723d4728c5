"""`tianti review`: every decision of one seat in a finished game, judged from what it knew."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from engine.core.errors import TiantiError
from engine.core.text import WIDTH
from ladder.cli.options import DbOpt, JsonOpt, fail, open_store

# The budget of a decision's search by default: iterations, not time, so that a game and a seed
# give the same review on any machine under any load. 400,000 is about what 3 s of one idle
# core do in a 2-player Dragon game (the median decision; docs/review.md, "Time and cache", has
# the measurement). A decision whose choice was not the search's own gets as much again for
# the comparison of the two choices.
DEFAULT_ITERATIONS = 400_000

SeatOpt = Annotated[Optional[int], typer.Option(
    "--seat", help="the seat to review (default: yours in a game you played; needed for a "
    "bots' game)")]
SecondsOpt = Annotated[Optional[float], typer.Option(
    "--seconds", help="search time per decision instead of --iterations (faster on an idle "
    "machine, but the review then depends on the machine and its load)")]
IterationsOpt = Annotated[Optional[int], typer.Option(
    "--iterations", help=f"playouts of a decision's search (default {DEFAULT_ITERATIONS:,}, "
    "about 3 s of an idle core; the same seed gives the same review every time)")]
WorkersOpt = Annotated[Optional[int], typer.Option(
    "--workers", "-w", help="processes reviewing decisions in parallel (default: the cores)")]
ReviewerOpt = Annotated[str, typer.Option(
    "--reviewer", help="the analysing bot's spec (a search bot: strong, ismcts(...), ...; its "
    "budget is replaced by --seconds / --iterations)")]


def settings_from(seconds: float | None, iterations: int | None, reviewer: str, seed: int
                  ) -> Any:
    """The review's settings from the command line (one budget; the default: iterations)."""
    from ladder.review import Settings

    if seconds is not None and iterations is not None:
        raise TiantiError("give --seconds or --iterations, not both")
    if seconds is None:
        iterations = DEFAULT_ITERATIONS if iterations is None else iterations
        if iterations <= 0:
            raise TiantiError(f"--iterations must be at least 1, got {iterations}")
        return Settings(reviewer=reviewer, iterations=iterations, seed=seed)
    if not 0 < seconds <= 3600:
        raise TiantiError(f"--seconds must be more than 0 and at most 3600, got {seconds:g}")
    return Settings(reviewer=reviewer, seconds=seconds, seed=seed)


def run_review(source: Any, settings: Any, workers: int | None = None,
               use_cache: bool = True) -> Any:
    """The review of `source` (ladder/review/sources.py), from the cache when it was made with
    the same settings, else searched (a progress bar on a terminal) and cached."""
    from ladder.review import cache, review_game
    from ladder.review.analysis import check_reviewer

    check_reviewer(settings.reviewer)
    digest = cache.key(source.record, source.seat, settings)
    if use_cache:
        found = cache.load(digest)
        if found is not None:
            typer.echo("(reviewed before with the same settings: shown from the cache)",
                       err=True)
            return found
    bar: Any = None

    def progress(done: int, total: int) -> None:
        """A progress bar on stderr when it is a terminal, made once the total is known."""
        nonlocal bar
        if not sys.stderr.isatty():
            return
        if bar is None:
            from tqdm import tqdm

            tqdm.monitor_interval = 0
            bar = tqdm(total=total, unit=" decisions", file=sys.stderr, leave=False,
                       desc="reviewing", dynamic_ncols=True)
        bar.n = done
        bar.refresh()

    try:
        review = review_game(source.start, source.actions, source.seat, settings,
                             names=source.names, source=source.label,
                             workers=workers or os.cpu_count() or 1, progress=progress)
    finally:
        if bar is not None:
            bar.close()
    cache.save(digest, review)
    return review


def show(review: Any, all_decisions: bool = False, worst: int = 3) -> None:
    """Print the review at 80 columns."""
    from ladder.review.text import render

    for line in render(review, all_decisions=all_decisions, worst=worst, width=WIDTH):
        typer.echo(line)


def after_game(session: Any, saved: Path | None = None) -> None:
    """At the end of `tianti play`: offer the review (r or `review`, then Enter); `board`
    shows the board again; anything else, or the end of input, leaves."""
    from ladder.review import sources

    typer.echo("")
    typer.echo("r (or review), Enter: review your decisions (a minute or two); "
               "Enter: leave.")
    while True:
        try:
            word = input("> ").strip().lower()
        except EOFError:
            return
        if word == "board":
            typer.echo(str(session.state))
            continue
        if word not in ("r", "review"):
            return
        try:
            result = run_review(sources.from_session(session),
                                settings_from(None, None, "strong", 0))
        except TiantiError as e:
            typer.secho(f"the review failed: {e}", fg=typer.colors.RED)
            return
        show(result)
        if saved is not None:
            for line in again_hint(saved):
                typer.echo(line)
        return


def _short(path: Path) -> str:
    """`path` for a command line: relative to the working folder when inside it, with `~` for
    the home folder, else whole (quoted for the shell)."""
    import shlex

    p = Path(os.path.abspath(path))
    for base, lead in ((Path.cwd(), ""), (Path.home(), "~/")):
        try:
            return lead + shlex.quote(str(p.relative_to(base)))
        except ValueError:
            continue
    return shlex.quote(str(p))


def again_hint(saved: Path) -> list[str]:
    """The closing hint after a review at the end of `tianti play`: the command that reviews
    the game again, as the person runs tianti (`.venv/bin/tianti` after `make play`) and on a
    line of its own (never broken), with `--plot` only where matplotlib is installed (else
    what to install for it)."""
    import importlib.util

    from ladder.cli.play import program

    command = f"  {program()} review {_short(saved)}"
    if importlib.util.find_spec("matplotlib") is not None:
        return ["Review it again, or with --all (every decision) or --plot FILE.png (a chart):",
                command]
    pip = f"{_short(Path(sys.executable))} -m pip install matplotlib"
    return ["Review it again, or with --all (every decision):", command,
            "A chart (--plot FILE.png) needs matplotlib, the `plot` extra:", f"  {pip}"]


def review(
    target: Annotated[Optional[str], typer.Argument(
        help="a `tianti play` save or a game record file, or a run's number followed by "
        "GAME (default: the last game of `tianti play`)", show_default=False)] = None,
    game: Annotated[Optional[int], typer.Argument(
        help="the game's number in the run (`tianti tournament show RUN --games`)",
        show_default=False)] = None,
    seat: SeatOpt = None,
    db: DbOpt = None,
    seconds: SecondsOpt = None,
    iterations: IterationsOpt = None,
    workers: WorkersOpt = None,
    reviewer: ReviewerOpt = "strong",
    seed: Annotated[int, typer.Option("--seed", help="the seed of the views and searches "
                                      "(the same seed and --iterations: the same review)")] = 0,
    all_decisions: Annotated[bool, typer.Option("--all", help="list every decision")] = False,
    worst: Annotated[int, typer.Option("--worst", help="how many of the largest drops to "
                                       "explain")] = 3,
    json_out: JsonOpt = False,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", help="also draw the chance by decision to this file (.png, .svg, .pdf; "
        "needs matplotlib)")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="search again even if this "
                                           "game was reviewed with the same settings")] = False,
) -> None:
    """Review a finished game: where the chance to win was lost, decision by decision.

    Each decision of the seat that had a choice is searched by the strong bot
    from that seat's view at that moment (what it knew; hidden tiles and the
    future drawn afresh): the chance with the best choice and after the choice
    made. Shows a chart by month or round, the accuracy, the inaccuracies (?!),
    mistakes (?) and blunders (??), what chance did, and the largest drops in
    words. Reviews are cached: the second time is instant."""
    from ladder.review import sources

    try:
        if workers is not None and workers < 1:
            raise TiantiError(f"--workers must be at least 1, got {workers}")
        if worst < 0:
            raise TiantiError(f"--worst must not be negative, got {worst}")
        settings = settings_from(seconds, iterations, reviewer, seed)
        if target is None:
            source = sources.from_file(sources.last_save(), seat)
        elif game is not None:
            try:
                run = int(target)
            except ValueError:
                raise TiantiError(f"RUN must be a run's number, got {target!r}") from None
            store = open_store(db)
            try:
                source = sources.from_store(store, run, game, seat)
            finally:
                store.close()
        elif target.isdigit() and not Path(target).exists():
            raise TiantiError(f"{target} is not a file (a stored game: tianti review RUN GAME "
                              f"--seat N)")
        else:
            source = sources.from_file(target, seat)
        result = run_review(source, settings, workers, use_cache=not no_cache)
        if plot is not None:
            from ladder.review.plot import plot_review

            plot_review(result, plot)
    except TiantiError as e:
        raise fail(str(e))
    if json_out:
        typer.echo(json.dumps(result.to_dict(), indent=1))
        return
    show(result, all_decisions, worst)
    if plot is not None:
        typer.echo(f"chart written to {plot}")
