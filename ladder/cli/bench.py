"""`tianti bench`: how fast the engines (and, later, the search) run."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from ai.benchmark import search_speed
from engine.core.errors import TiantiError
from engine.core.playout import random_playouts
from ladder.cli.options import (Format, FormatOpt, GameOpt, GameOptionsOpt, JsonOpt, PlayersOpt,
                                fail, make_game, output_format, write_csv)

app = typer.Typer(help="Measure the speed of the engines.", no_args_is_help=True)


@app.command()
def playouts(
    game: GameOpt = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    seconds: Annotated[float, typer.Option("--seconds", "-s", help="how long to run", min=0.01)] = 3.0,
    seed: Annotated[int, typer.Option("--seed", help="seed of the random games")] = 0,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Random full games inside the compiled core, on one core: games and decisions per second."""
    json_out = output_format(fmt, json_out) is not Format.table
    csv_out = output_format(fmt, False) is Format.csv
    try:
        g = make_game(game, players, option)
    except TiantiError as e:
        raise fail(str(e))
    template = g.new_initial_state(seed)
    if not json_out:
        typer.echo(f"playing random {g.name} games with {g.num_players} players for {seconds:g} s ...",
                   err=True)
    result = random_playouts(template, seconds=seconds, seed=seed)
    if csv_out:
        write_csv(list(result), [list(result.values())])
        return
    if json_out:
        typer.echo(json.dumps(result))
        return
    typer.echo(
        f"{result['game']} ({result['players']} players): "
        f"{result['games_per_second']:,.0f} games/s, "
        f"{result['decisions_per_game']:.1f} decisions/game, "
        f"{result['decisions_per_second']:,.0f} decisions/s, "
        f"state {result['state_bytes']} bytes "
        f"({result['games']:,} games in {result['seconds']:.2f} s)"
    )


@app.command()
def search(
    game: GameOpt = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    bot: Annotated[str, typer.Option("--bot", "-b", help="a search bot spec")] = "ismcts(millis=1000)",
    seed: Annotated[int, typer.Option("--seed", help="seed of the positions")] = 0,
    fmt: FormatOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One search from the opening and from a mid-game position: iterations/s, nodes, bytes."""
    json_out = output_format(fmt, json_out) is not Format.table
    csv_out = output_format(fmt, False) is Format.csv
    try:
        g = make_game(game, players, option)
        if not json_out:
            typer.echo(f"searching with {bot} ...", err=True)
        result = search_speed(g, bot, seed)
    except TiantiError as e:
        raise fail(str(e))
    if csv_out:
        keys = sorted({k for r in result["positions"].values() for k in r})
        write_csv(["game", "players", "bot", "position", *keys],
                  [[result["game"], result["players"], result["bot"], name,
                    *[r.get(k, "") for k in keys]] for name, r in result["positions"].items()])
        return
    if json_out:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"{result['game']} ({result['players']} players), {result['bot']}:")
    for name, r in result["positions"].items():
        typer.echo(
            f"  {name:8} (move {r['move']}, {r['legal_actions']} choices): "
            f"{r['iterations_per_second']:,.0f} iterations/s, {r['iterations']:,} iterations "
            f"in {r['seconds']:.2f} s, {r['nodes']:,} nodes x {r['bytes_per_node']} bytes; "
            f"best: {r['best']}"
        )
