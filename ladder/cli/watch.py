"""`tianti watch`: a game between bots, printed move by move."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from ai.bots import make_bot
from engine.core.errors import TiantiError
from ladder.cli.options import GameArg, GameOptionsOpt, PlayersOpt, SeedOpt, fail, make_game
from ladder.match import MoveEvent, play_game


def watch(
    game: GameArg = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    bots: Annotated[
        Optional[list[str]],
        typer.Option("--bot", "-b", help="a bot spec per seat, repeatable (default: random)"),
    ] = None,
    seed: SeedOpt = None,
    board: Annotated[bool, typer.Option("--board/--no-board", help="show the board each month")] = True,
) -> None:
    """Watch bots play a whole game: every decision in words, then the final scores."""
    try:
        g = make_game(game, players, option)
        specs = list(bots or [])
        if len(specs) == 1:
            specs = specs * g.num_players
        if not specs:
            specs = ["random"] * g.num_players
        if len(specs) != g.num_players:
            raise TiantiError(f"{len(specs)} bots given for {g.num_players} players")
        seats = [make_bot(spec) for spec in specs]
        state = g.new_initial_state(seed)
    except TiantiError as e:
        raise fail(str(e))
    typer.echo(f"{g!r}, seed {state.seed}")
    typer.echo("seats: " + ", ".join(f"P{i} {spec}" for i, spec in enumerate(specs)))
    last_header = [None]

    def show(ev: MoveEvent) -> None:
        header = _section(ev.state)
        if header != last_header[0]:
            last_header[0] = header
            typer.echo("")
            if board:
                typer.echo(str(ev.state))
            else:
                typer.secho(f"== {header} ==", bold=True)
        typer.echo(f"  P{ev.player}: {ev.text}")

    try:
        result = play_game(state, seats, on_move=show)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted: the game was not finished")
        raise typer.Exit(code=130)
    typer.echo("")
    typer.echo(str(state))
    typer.echo("")
    for i in sorted(range(len(result.ranks)), key=lambda i: result.ranks[i]):
        typer.echo(f"{result.ranks[i] + 1}. P{i} ({specs[i]}): {result.scores[i]} points")


def _section(state) -> str:
    """The part of the game a move belongs to (a new one prints a header)."""
    snap = state.snapshot() if hasattr(state, "snapshot") else {}
    if "month" in snap:
        if snap.get("phase") in ("draft", "start"):
            return "starting draft"
        return f"month {snap['month']}"
    if "round" in snap:
        return f"round {snap['round']}"
    return ""
