"""`tianti watch`: a game between bots, printed move by move with the rules' automatic steps."""
from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

from engine.core.errors import TiantiError
from engine.core.text import WIDTH, display_width, fit_lines
from engine.registry import load_game
from ladder.cli.options import (GameArg, GameOptionsOpt, PlayersOpt, SeedOpt, echo_narration,
                                fail, make_game)
from ai.match import MoveEvent, play_game, setup_limit
from ladder.referee.players import close_all, make_player
from ladder.table.narrate import HEADER, Line, narrator_for


def header(game: Any, seed: int) -> str:
    """'In the Year of the Dragon: 4 players, seed 1', then the options that differ from the
    game's defaults at that player count, in words ('; great wall on')."""
    n = game.num_players
    text = f"{getattr(game, 'TITLE', game.name)}: {n} player{'s' if n != 1 else ''}, seed {seed}"
    defaults = load_game(game.name, players=n).options
    changed = [f"{key.replace('_', ' ')} {_word(value)}" for key, value in game.options.items()
               if key != "players" and defaults.get(key) != value]
    return text + ("; " + ", ".join(changed) if changed else "")


def _word(value: Any) -> str:
    """An option's value as a person reads it."""
    if value is None or isinstance(value, bool):
        return {True: "on", False: "off", None: "none"}[value]
    return str(value)


def watch(
    game: GameArg = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    bots: Annotated[
        Optional[list[str]],
        typer.Option("--bot", "-b", help="a bot spec per seat, repeatable (default: random)"),
    ] = None,
    seed: SeedOpt = None,
    board: Annotated[bool, typer.Option("--board/--no-board", help="show the board each month "
                                        "or round (the narration is shown either way)")] = True,
) -> None:
    """Watch bots play a whole game: every decision in words, every automatic step of the
    rules (events, scoring, settlements, the virtual player) narrated, then the final scores."""
    try:
        g = make_game(game, players, option)
        specs = list(bots or [])
        if len(specs) == 1:
            specs = specs * g.num_players
        if not specs:
            specs = ["random"] * g.num_players
        if len(specs) != g.num_players:
            raise TiantiError(f"{len(specs)} bots given for {g.num_players} players")
        seats = [make_player(spec, setup_timeout=setup_limit(60.0)) for spec in specs]
        state = g.new_initial_state(seed)
    except TiantiError as e:
        raise fail(str(e))
    typer.echo(fit_lines(header(g, state.seed), WIDTH))
    seats_line = "seats: " + ", ".join(f"P{i} {spec}" for i, spec in enumerate(specs))
    if display_width(seats_line) <= WIDTH:
        typer.echo(seats_line)
    else:  # one seat a line: long specs (python:...) stay whole
        typer.echo("seats:")
        for i, spec in enumerate(specs):
            typer.echo(f"  P{i} {spec}")
    narrator = narrator_for(g.name)

    def tell(lines: list[Line], now) -> None:
        """Print the narration; with --board, the board after a new month's or round's
        header (`now`: the state the board shows)."""
        echo_narration(lines)
        if board and any(line.kind == HEADER for line in lines):
            typer.echo("")
            typer.echo(str(now))

    tell(narrator.setup(state.events(-1)), state)

    def show(ev: MoveEvent) -> None:
        # ev.state is the state before this move: its last events are the previous move's.
        if ev.index > 0:
            tell(narrator.step(ev.state.events()), ev.state)
        echo_narration([narrator.move(f"P{ev.player}: {ev.text}")])

    try:
        result = play_game(state, seats, on_move=show)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted: the game was not finished")
        raise typer.Exit(code=130)
    except TiantiError as e:  # a bot in a process of its own failed
        raise fail(str(e))
    finally:
        close_all(seats)
    if state.move_number() > 0:
        echo_narration(narrator.step(state.events()))
    typer.echo("")
    typer.echo(str(state))
    typer.echo("")
    for i in sorted(range(len(result.ranks)), key=lambda i: result.ranks[i]):
        typer.echo(f"{result.ranks[i] + 1}. P{i} ({specs[i]}): {result.scores[i]} points")

