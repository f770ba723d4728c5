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
from engine.core.text import printable
from ladder.cli.options import (DbOpt, Format, FormatOpt, GameOptionsOpt, JsonOpt, fail,
                                open_store, output_format, parse_game_options)
from engine.core.text import WIDTH, display_width
from ladder.cli.screen import chance_text, echo_fit, echo_table, table_lines
from ladder.names import display_name

app = typer.Typer(
    help="The rating ladder: TrueSkill free-for-all ratings per pool (a game, its player count "
    "and the options that change its rules), derived from every stored game.",
    no_args_is_help=True,
)


PoolGameOpt = Annotated[Optional[str], typer.Option("--game", "-g", help="only this game "
                                                    "(default: every game with stored games)")]
PoolPlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", help="only this "
                                                       "player count (default: every one)")]
PoolOptionsOpt = Annotated[
    Optional[list[str]],
    typer.Option("--option", "-o", help="only pools with this game option, KEY=VALUE, "
                 "repeatable (e.g. -o great_wall=true, -o solo=true)"),
]
WideOpt = Annotated[bool, typer.Option("--wide", help="every column and every name in full "
                                       "(wider than 80 columns)")]
OutOpt = Annotated[Optional[Path], typer.Option("--out", help="the file to write (default: "
                                                "standard output)")]


def _filters(option: list[str] | None, game: str | None) -> dict:
    """The -o filters, checked against the games' options (a typo is an error, not an empty
    ladder)."""
    from engine.registry import game_class, game_names

    for pair in option or []:
        if "=" not in pair:
            raise TiantiError(f"-o {pair!r} is not KEY=VALUE: -o is --option, a pool filter "
                              f"(the file to write is --out)")
    wanted = parse_game_options(option)
    names = [game] if game else game_names()
    known: set[str] = set()
    for name in names:
        known.update(o.name for o in game_class(name).OPTIONS)
    for key in wanted:
        if key not in known:
            raise TiantiError(f"-o {key}: no such option of {game or 'any game'} (-o filters "
                              f"pools by game option; `tianti games` lists them; the image or "
                              f"file to write is --out)")
    return wanted


@app.command()
def show(
    game: PoolGameOpt = None,
    players: PoolPlayersOpt = None,
    option: PoolOptionsOpt = None,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
    db: DbOpt = None,
    wide: WideOpt = False,
) -> None:
    """The ladder of each pool (game, player count, rule options), highest mu first.

    mu is a bot's estimated skill and sigma its uncertainty, given all the pool's games at once
    (the order they were stored in does not matter). Columns: rank, bot, mu, sigma, >next
    (the chance that the bot is stronger than the next one: near 50% their order is not
    decided), games, win rate with its 95% interval, mean finishing place, and errors (games
    lost by a fault) when there are any; --wide adds mu - 3 sigma, wins, the standard errors and the mean score, and
    never shortens a bot's name. One-player pools are not rated: a solo game is won only when
    it reaches its goal, and they are ordered by goal rate, then mean score. A read-only store
    is shown with its ratings computed in memory."""
    from ladder.tournament.ratings import ladder

    out_fmt = output_format(fmt, json_out)
    store = open_store(db)
    try:
        wanted = _filters(option, game)
    except TiantiError as e:
        raise fail(str(e))
    pools = ladder(store, game, players, wanted)
    if not pools:
        raise fail(f"no stored games{_filter_text(game, players, wanted)} in {store.path}")
    if out_fmt is Format.json:
        typer.echo(json.dumps([p.to_dict() for p in pools]))
        return
    if out_fmt is Format.csv:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["game", "players", "variant", "rank", "bot", "mu", "sigma", "conservative",
                    "games", "wins", "win_rate", "win_low", "win_high", "mean_place",
                    "mean_place_se", "errors", "mean_score", "mean_score_se"])
        for p in pools:
            variant = " ".join(f"{k}={v}" for k, v in p.variant.items())
            for r in p.rows:
                w.writerow([p.game, p.players, variant, r.rank, r.bot, _num(r.mu, 4),
                            _num(r.sigma, 4), _num(r.conservative, 4), r.games, r.wins,
                            f"{r.win_rate:.4f}", f"{r.win_low:.4f}", f"{r.win_high:.4f}",
                            f"{r.mean_place:.4f}", f"{r.mean_place_se:.4f}", r.errors,
                            f"{r.mean_score:.4f}", f"{r.mean_score_se:.4f}"])
        typer.echo(buf.getvalue(), nl=False)
        return
    for i, p in enumerate(pools):
        if i:
            typer.echo("")
        typer.secho(printable(p.title), bold=True)
        win = "goal" if p.solo_goal else "wins"
        if wide:
            names = [r.bot for r in p.rows]
            header = ["rank", "bot", "mu", "sigma", ">next", "mu-3σ", "games", win,
                      f"{win} % (95%)", "mean place", "errors", "mean score"]
            rows = [[str(r.rank), name, _num(r.mu, 2), _num(r.sigma, 2),
                     chance_text(r.above_next), _num(r.conservative, 2), str(r.games), str(r.wins),
                     f"{100 * r.win_rate:.1f} ({100 * r.win_low:.0f}-{100 * r.win_high:.0f})",
                     f"{r.mean_place:.2f} ± {r.mean_place_se:.2f}", str(r.errors),
                     f"{r.mean_score:.1f} ± {r.mean_score_se:.1f}"]
                    for r, name in zip(p.rows, names)]
            echo_table(header, rows, left={1}, width=None)
        else:
            names = [display_name(p.game, r.bot) for r in p.rows]
            rated = p.players > 1
            errors = any(r.errors for r in p.rows)
            header = ["rank", "bot", *(["mu", "σ", ">next"] if rated else []), "games",
                      f"{win} % (95%)", *([] if rated else ["mean score"]),
                      *(["mean place"] if rated else []), *(["errors"] if errors else [])]
            rows = [[str(r.rank), name,
                     *([_num(r.mu, 2), _num(r.sigma, 2), chance_text(r.above_next)]
                       if rated else []), str(r.games),
                     f"{100 * r.win_rate:.1f} ({100 * r.win_low:.0f}-{100 * r.win_high:.0f})",
                     *([] if rated else [f"{r.mean_score:.1f}"]),
                     *([f"{r.mean_place:.2f}"] if rated else []),
                     *([str(r.errors)] if errors else [])] for r, name in zip(p.rows, names)]
            echo_table(header, rows, left={1}, flex=1)
        if p.players > 1 and len(p.rows) > 1:
            _echo_order_note(p.rows)
        if p.solo_goal:
            typer.echo("(solo games are not rated: a game is won only when it reaches its goal; "
                       "the bots are ordered by goal rate, then mean score)")
        elif p.players == 1:
            typer.echo("(one-player games are not rated: the bots are ordered by mean score)")


def _echo_order_note(rows: list) -> None:
    """What ">next" means, and how many neighbours' order the games have not decided."""
    open_pairs = sum(1 for r in rows if r.above_next is not None and r.above_next < 0.95)
    note = ("(>next: the chance that a bot is stronger than the next one, given all the "
            "pool's games")
    if open_pairs:
        note += (f"; below 95% the order is not decided: {open_pairs} "
                 f"pair{'s' if open_pairs > 1 else ''} here")
    echo_fit(note + ")")


@app.command()
def recompute(db: DbOpt = None) -> None:
    """Forget the cached ratings and fit every pool again from all its stored games."""
    from ladder.tournament.ratings import recompute as redo

    store = open_store(db)
    try:
        n = redo(store)
    except TiantiError as e:
        raise fail(str(e))
    typer.echo(f"rated {n} games from the records in {store.path}")


@app.command()
def export(
    out: OutOpt = None,
    run: Annotated[Optional[int], typer.Option("--run", help="only this run's games")] = None,
    game: PoolGameOpt = None,
    players: PoolPlayersOpt = None,
    option: PoolOptionsOpt = None,
    db: DbOpt = None,
) -> None:
    """Write the stored games as JSON lines, one game per line.

    Each line holds the engine record (game, options, seed, actions: `State.from_record`
    replays it), the seats with bots, scores, places and faults, and the per-move times.
    -o KEY=VALUE keeps the games of the pools with that option (as in `ladder show`); the
    file is --out (-o was its short form before -o meant --option everywhere)."""
    from ladder.tournament.ratings import matches

    store = open_store(db)
    try:
        wanted = _filters(option, game)
        if run is not None:
            store.run(run)  # a run that does not exist is an error, not an empty export
    except TiantiError as e:
        raise fail(str(e))
    where, params = ["1"], []
    for column, value in (("g.run_id", run), ("g.game", game), ("g.players", players)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    try:
        stream = open(out, "w", encoding="utf-8") if out is not None else sys.stdout
    except OSError as e:
        raise fail(f"cannot write {out}: {e}")
    n = 0
    try:
        for g in store.games(where=" AND ".join(where), params=tuple(params)):
            if not matches(g.options, wanted):
                continue
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
    option: PoolOptionsOpt = None,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Head to head: how often each bot finished above each other bot at the same table.

    Row bot against column bot; a level finish counts half; the number of meetings follows.
    One table per pool; a bot in several seats of a game counts once (by its mean place)."""
    from ladder.tournament.ratings import head_to_head, ladder

    out_fmt = output_format(fmt, json_out)
    store = open_store(db)
    try:
        wanted = _filters(option, game)
    except TiantiError as e:
        raise fail(str(e))
    pools = ladder(store, game, players, wanted)
    if not pools:
        raise fail(f"no stored games{_filter_text(game, players, wanted)} in {store.path}")
    tables = [head_to_head(store, p) for p in pools]
    if out_fmt is Format.json:
        typer.echo(json.dumps([t.to_dict() for t in tables]))
        return
    if out_fmt is Format.csv:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["game", "players", "variant", "bot", "opponent", "above", "below", "level"])
        for t, p in zip(tables, pools):
            variant = " ".join(f"{k}={v}" for k, v in p.variant.items())
            for d in t.to_dict()["pairs"]:
                w.writerow([t.game, t.players, variant, d["bot"], d["opponent"], d["above"],
                            d["below"], d["level"]])
        typer.echo(buf.getvalue(), nl=False)
        return
    for i, (t, p) in enumerate(zip(tables, pools)):
        if i:
            typer.echo("")
        if p.players == 1:
            typer.secho(f"{printable(p.title)}: no head to head in one-player games", bold=True)
            continue
        echo_fit(f"{p.title}: % of meetings the row bot finished above the column bot",
                 bold=True)
        _print_h2h(t, p.game)


def _print_h2h(t, game: str) -> None:
    """The head-to-head table of a pool at 80 columns: with the bots' names as column heads
    when that fits, else with numbers for heads (the rows say which bot is which), else one
    line per pair."""
    names = [display_name(game, b) for b in t.bots]
    shares = [[t.score(a, b) if a != b else None for b in t.bots] for a in t.bots]
    cells = [["-" if s is None else f"{100 * s:.0f}% ({t.meetings(a, b)})"
              for b, s in zip(t.bots, row)] for a, row in zip(t.bots, shares)]
    named = table_lines([""] + names, [[n] + c for n, c in zip(names, cells)], left={0},
                        width=None)
    numbered = table_lines(["", ""] + [str(i + 1) for i in range(len(names))],
                           [[str(i + 1), n] + c for i, (n, c) in enumerate(zip(names, cells))],
                           left={1}, flex=1)
    if max(display_width(line) for line in named) <= WIDTH:
        lines = named
    elif max(display_width(line) for line in numbered) <= WIDTH and len(names) <= 9:
        lines = numbered
    else:
        lines = [f"{a} against {b}: {cells[i][j]}" for i, a in enumerate(names)
                 for j, b in enumerate(names) if shares[i][j] is not None]
    for line in lines:
        echo_fit(line)


@app.command()
def plot(
    out: Annotated[Optional[Path], typer.Option("--out", help="the image to write (.png, .svg, "
                                                ".pdf); required")] = None,
    game: PoolGameOpt = None,
    players: PoolPlayersOpt = None,
    option: PoolOptionsOpt = None,
    db: DbOpt = None,
) -> None:
    """Draw each bot's rating history in one pool to an image file.

    mu with a band of ± sigma, and the conservative rating dashed. Needs matplotlib:
    pip install 'tianti\\[plot]' (`make test` installs it). The image is --out (-o was its
    short form before -o meant --option everywhere); -o KEY=VALUE chooses the pool."""
    from ladder.plot import plot_history
    from ladder.tournament.ratings import history, ladder

    if out is None:
        raise fail("give the image to write: --out FILE.png (-o now means --option KEY=VALUE)")
    store = open_store(db)
    try:
        wanted = _filters(option, game)
    except TiantiError as e:
        raise fail(str(e))
    found = ladder(store, game, players, wanted)
    if not found:
        raise fail(f"no stored games{_filter_text(game, players, wanted)} in {store.path}")
    if len(found) > 1:
        listed = "; ".join(_choice(p) for p in found)
        raise fail(f"several pools have games; choose one: {listed}")
    p = found[0]
    try:
        path = plot_history(history(store, p.game, p.players, p.options), p.title, out)
    except TiantiError as e:
        raise fail(str(e))
    typer.echo(f"wrote {path}")


def _choice(p) -> str:
    """The options that select a pool on the command line."""
    return " ".join([f"--game {p.game} --players {p.players}"]
                    + [f"-o {k}={str(v).lower() if isinstance(v, bool) else v}"
                       for k, v in p.variant.items()])


def _num(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _filter_text(game: str | None, players: int | None, options: dict | None = None) -> str:
    parts = ([f"game {game}"] if game else []) + ([f"{players} players"] if players else [])
    parts += [f"{k}={v}" for k, v in (options or {}).items()]
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
