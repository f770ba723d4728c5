"""`tianti bench`: how fast the engines and the search run, over repeated rounds."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from ai.benchmark import DEFAULT_ROUNDS, POSITION_BOT, WINDOWS, playout_speed, search_speed
from engine.core.errors import TiantiError
from ladder.cli.options import (Format, FormatOpt, GameOpt, GameOptionsOpt, JsonOpt, PlayersOpt,
                                fail, make_game, output_format, write_csv)
from ladder.cli.screen import echo_fit, echo_table

app = typer.Typer(help="Measure the speed of the engines and the search.", no_args_is_help=True)

RoundsOpt = Annotated[int, typer.Option(
    "--rounds", "-r", min=1, max=1000,
    help="how many times each measurement is repeated (the report gives the median, the "
    "minimum, the maximum and the spread)")]


def _rate(x: float) -> str:
    """A rate for a table cell: 98,765 or, from 100,000 on, 987.6k."""
    return f"{x:,.0f}" if x < 100_000 else f"{x / 1000:,.1f}k"


def _spread(r: dict, key: str) -> list[str]:
    """The median, min and max of `key` and the spread, as table cells."""
    return [_rate(r[key]), _rate(r[f"{key}_min"]), _rate(r[f"{key}_max"]),
            f"{100 * r['spread']:.1f}%"]


@app.command()
def playouts(
    game: GameOpt = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    seconds: Annotated[float, typer.Option("--seconds", "-s", help="how long each round runs",
                                           min=0.01)] = 1.0,
    rounds: RoundsOpt = DEFAULT_ROUNDS,
    seed: Annotated[int, typer.Option("--seed", help="the deal the games start from; round i "
                                      "plays its random moves from seed + i")] = 0,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Random full games from the opening inside the compiled core, on one core: games and
    decisions per second (median of the rounds, with min, max and spread), CPU and wall time."""
    json_out = output_format(fmt, json_out) is not Format.table
    csv_out = output_format(fmt, False) is Format.csv
    try:
        g = make_game(game, players, option)
    except TiantiError as e:
        raise fail(str(e))
    template = g.new_initial_state(seed)
    if not json_out:
        typer.echo(f"playing random {g.name} games with {g.num_players} players: {rounds} "
                   f"rounds of {seconds:g} s ...", err=True)
    result = playout_speed(template, seconds, rounds, seed)
    if csv_out:
        keys = [k for k in result if k != "samples"]
        write_csv(keys, [[result[k] for k in keys]])
        return
    if json_out:
        typer.echo(json.dumps(result))
        return
    echo_fit(f"{result['game']} ({result['players']} players): random games from the "
             f"opening of deal {seed}, {rounds} rounds of {seconds:g} s")
    echo_table(["", "median", "min", "max", "spread", "per CPU s"],
               [["games/s", *_spread(result, "games_per_second"),
                 _rate(result["games_per_cpu_second"])]], left={0})
    echo_fit(f"{result['decisions_per_game']:.1f} decisions a game, "
             f"{result['decisions_per_second']:,.0f} decisions/s (median); a round took "
             f"{result['wall_seconds']:.2f} s of wall time and {result['cpu_seconds']:.2f} s of "
             f"CPU; state {result['state_bytes']} bytes; {result['games']:,} games in all")


@app.command()
def search(
    game: GameOpt = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    bot: Annotated[str, typer.Option("--bot", "-b", help="a search bot spec; with "
                                     "iterations=N every round searches N iterations (compare "
                                     "the time per iteration), with millis=N for N ms "
                                     "(compare iterations/s)")] = "ismcts(millis=1000)",
    rounds: RoundsOpt = DEFAULT_ROUNDS,
    seed: Annotated[int, typer.Option("--seed", help="the deal the positions come from")] = 0,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Search fixed, named positions (opening, midgame, late) several times each: iterations
    per second and time per iteration (median, min, max, spread), wall and CPU time, nodes.

    The opening is the deal's first decision; midgame and late are the decisions with the
    most legal actions between 40% and 60% and between 75% and 90% of one game played by
    the greedy bot (heuristic(seed=0)) from the same deal: the same positions for every run,
    build and machine."""
    json_out = output_format(fmt, json_out) is not Format.table
    csv_out = output_format(fmt, False) is Format.csv
    try:
        g = make_game(game, players, option)
        if not json_out:
            typer.echo(f"searching with {bot}, {rounds} rounds a position ...", err=True)
        result = search_speed(g, bot, seed, rounds)
    except TiantiError as e:
        raise fail(str(e))
    if csv_out:
        keys = sorted({k for r in result["positions"].values() for k in r} - {"samples"})
        write_csv(["game", "players", "bot", "rounds", "position", *keys],
                  [[result["game"], result["players"], result["bot"], rounds, name,
                    *[r.get(k, "") for k in keys]] for name, r in result["positions"].items()])
        return
    if json_out:
        typer.echo(json.dumps(result))
        return
    echo_fit(f"{result['game']} ({result['players']} players), {result['bot']}: {rounds} "
             f"rounds a position")
    rows = [[name, str(r["legal_actions"]), *_spread(r, "iterations_per_second"),
             _rate(r["iterations_per_cpu_second"]), f"{100 * r['cpu_spread']:.1f}%",
             f"{r['cpu_seconds'] / r['wall_seconds']:.2f}" if r["wall_seconds"] else "-"]
            for name, r in result["positions"].items()]
    echo_table(["position", "legal", "iter/s", "min", "max", "spread", "per CPU s", "spread",
                "CPU"], rows, left={0})
    for name, r in result["positions"].items():
        echo_fit(f"{name} (move {r['move']}): {r['iterations']:,.0f} iterations in {r['wall_seconds']:.2f} s "
                 f"({r['cpu_seconds']:.2f} s CPU, {r['us_per_iteration']:.2f} µs an iteration), "
                 f"{r['nodes']:,.0f} nodes x {r['bytes_per_node']} bytes; best: {r['best']}")
    windows = ", ".join(f"{n} {100 * lo:.0f}-{100 * hi:.0f}%" for n, (lo, hi) in WINDOWS.items())
    echo_fit(f"(medians of {rounds} rounds; spread = (max - min) / median; iterations per "
             f"second of wall time, and per second of CPU time, the figure to compare on a busy "
             f"machine; CPU: CPU time / wall time; positions of deal "
             f"{seed}: the opening, and the most legal actions in a game of {POSITION_BOT}: "
             f"{windows} of its decisions)")
