"""`tianti ladder`: TrueSkill ratings and statistics derived from the stored games."""
from __future__ import annotations

import csv
import io
import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.core.errors import TiantiError
from ladder.cli.options import DbOpt, fail, open_store

app = typer.Typer(
    help="The rating ladder: TrueSkill free-for-all ratings per game and player count, "
    "derived from every stored game.",
    no_args_is_help=True,
)


class Format(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


PoolGameOpt = Annotated[Optional[str], typer.Option("--game", "-g", help="only this game "
                                                    "(default: every game with stored games)")]
PoolPlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", help="only this "
                                                       "player count (default: every one)")]
FormatOpt = Annotated[Format, typer.Option("--format", help="table (for people), csv or json")]


@app.command()
def show(
    game: PoolGameOpt = None,
    players: PoolPlayersOpt = None,
    fmt: FormatOpt = Format.table,
    db: DbOpt = None,
) -> None:
    """The ladder of each game and player count, best conservative rating first.

    Columns: rank, bot, mu, sigma, mu - 3 sigma (the conservative rating it is ordered by),
    games, wins, win rate, mean finishing place with its standard error, errors (games lost
    by a fault) and mean score. One-player pools are not rated; they are ordered by mean
    score."""
    from ladder.ratings import ladder

    store = open_store(db)
    pools = ladder(store, game, players)
    if not pools:
        raise fail(f"no stored games{_filter_text(game, players)} in {store.path}")
    if fmt is Format.json:
        typer.echo(json.dumps([{"game": p.game, "players": p.players,
                                "rows": [r.to_dict() for r in p.rows]} for p in pools]))
        return
    if fmt is Format.csv:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["game", "players", "rank", "bot", "mu", "sigma", "conservative", "games",
                    "wins", "win_rate", "mean_place", "mean_place_se", "errors", "mean_score",
                    "mean_score_se"])
        for p in pools:
            for r in p.rows:
                w.writerow([p.game, p.players, r.rank, r.bot, _num(r.mu, 4), _num(r.sigma, 4),
                            _num(r.conservative, 4), r.games, r.wins, f"{r.win_rate:.4f}",
                            f"{r.mean_place:.4f}", f"{r.mean_place_se:.4f}", r.errors,
                            f"{r.mean_score:.4f}", f"{r.mean_score_se:.4f}"])
        typer.echo(buf.getvalue(), nl=False)
        return
    for i, p in enumerate(pools):
        if i:
            typer.echo("")
        typer.secho(p.title, bold=True)
        header = ["rank", "bot", "mu", "sigma", "mu-3σ", "games", "wins", "win %",
                  "mean place", "errors", "mean score"]
        rows = [[str(r.rank), r.bot, _num(r.mu, 2), _num(r.sigma, 2), _num(r.conservative, 2),
                 str(r.games), str(r.wins), f"{100 * r.win_rate:.1f}",
                 f"{r.mean_place:.2f} ± {r.mean_place_se:.2f}", str(r.errors),
                 f"{r.mean_score:.1f} ± {r.mean_score_se:.1f}"] for r in p.rows]
        _table(header, rows, left={1})
        if p.players == 1:
            typer.echo("(one-player games are not rated: the bots are ordered by mean score)")


@app.command()
def recompute(db: DbOpt = None) -> None:
    """Forget the cached ratings and rate every stored game again, in the order stored."""
    from ladder.ratings import recompute as redo

    store = open_store(db)
    n = redo(store)
    typer.echo(f"rated {n} games from the records in {store.path}")


@app.command()
def export(
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="the file to write "
                                                "(default: standard output)")] = None,
    run: Annotated[Optional[int], typer.Option("--run", help="only this run's games")] = None,
    game: PoolGameOpt = None,
    db: DbOpt = None,
) -> None:
    """Write the stored games as JSON lines, one game per line.

    Each line holds the engine record (game, options, seed, actions: `State.from_record`
    replays it), the seats with bots, scores, places and faults, and the per-move times."""
    store = open_store(db)
    where, params = ["1"], []
    if run is not None:
        where.append("g.run_id = ?")
        params.append(run)
    if game is not None:
        where.append("g.game = ?")
        params.append(game)
    try:
        stream = open(out, "w", encoding="utf-8") if out is not None else sys.stdout
    except OSError as e:
        raise fail(f"cannot write {out}: {e}")
    n = 0
    try:
        for g in store.games(where=" AND ".join(where), params=tuple(params)):
            stream.write(json.dumps(g.to_dict(), separators=(",", ":")) + "\n")
            n += 1
    finally:
        if out is not None:
            stream.close()
    if out is not None:
        typer.echo(f"wrote {n} games to {out}", err=True)


@app.command()
def h2h(
    game: PoolGameOpt = None,
    players: PoolPlayersOpt = None,
    fmt: FormatOpt = Format.table,
    db: DbOpt = None,
) -> None:
    """Head to head: how often each bot finished above each other bot at the same table.

    Row bot against column bot; a level finish counts half; the number of meetings follows."""
    from ladder.ratings import head_to_head, ladder

    store = open_store(db)
    pools = ladder(store, game, players)
    if not pools:
        raise fail(f"no stored games{_filter_text(game, players)} in {store.path}")
    tables = [head_to_head(store, p.game, p.players, [r.bot for r in p.rows]) for p in pools]
    if fmt is Format.json:
        typer.echo(json.dumps([t.to_dict() for t in tables]))
        return
    if fmt is Format.csv:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["game", "players", "bot", "opponent", "above", "below", "level"])
        for t in tables:
            for d in t.to_dict()["pairs"]:
                w.writerow([t.game, t.players, d["bot"], d["opponent"], d["above"], d["below"],
                            d["level"]])
        typer.echo(buf.getvalue(), nl=False)
        return
    for i, (t, p) in enumerate(zip(tables, pools)):
        if i:
            typer.echo("")
        if p.players == 1:
            typer.secho(f"{p.title}: no head to head in one-player games", bold=True)
            continue
        typer.secho(f"{p.title}: share of meetings the row bot finished above the column bot "
                    f"(meetings)", bold=True)
        rows = []
        for a in t.bots:
            cells = [a]
            for b in t.bots:
                share = t.score(a, b) if a != b else None
                cells.append("-" if share is None else f"{100 * share:.0f}% ({t.meetings(a, b)})")
            rows.append(cells)
        _table([""] + t.bots, rows, left={0})


@app.command()
def plot(
    out: Annotated[Path, typer.Option("--out", "-o", help="the image to write (.png, .svg, .pdf)")],
    game: PoolGameOpt = None,
    players: PoolPlayersOpt = None,
    db: DbOpt = None,
) -> None:
    """Draw each bot's rating history in one pool to an image file.

    mu with a band of ± sigma, and the conservative rating dashed. Needs matplotlib:
    pip install 'tianti[plot]'."""
    from ladder.plot import plot_history
    from ladder.ratings import history, pools

    store = open_store(db)
    found = pools(store, game, players)
    if not found:
        raise fail(f"no stored games{_filter_text(game, players)} in {store.path}")
    if len(found) > 1:
        listed = ", ".join(f"--game {g} --players {p}" for g, p in found)
        raise fail(f"several pools have games; choose one: {listed}")
    g, p = found[0]
    try:
        path = plot_history(history(store, g, p), f"{g}, {p} player{'s' if p != 1 else ''}", out)
    except TiantiError as e:
        raise fail(str(e))
    typer.echo(f"wrote {path}")


def _num(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _filter_text(game: str | None, players: int | None) -> str:
    parts = ([f"game {game}"] if game else []) + ([f"{players} players"] if players else [])
    return f" for {', '.join(parts)}" if parts else ""


def _table(header: list[str], rows: list[list[str]], left: set[int]) -> None:
    """Print aligned columns (the columns in `left` aligned left, the others right)."""
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) if rows else len(header[i])
              for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    typer.echo(line(header))
    for r in rows:
        typer.echo(line(r))
