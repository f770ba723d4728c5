"""`tianti replay`: step through a stored tournament game, board by board."""
from __future__ import annotations

from typing import Annotated

import typer

from engine.core.errors import TiantiError
from engine.core.state import RECORD_VERSION, State, legacy_fill
from engine.core.text import WIDTH, fit_lines, printable
from ladder.cli.options import DbOpt, echo_narration, fail, open_store
from ladder.names import display_name, short
from ladder.table.narrate import HEADER, Line, narrator_for
from ladder.table.play import HUMAN


def replay(
    run: Annotated[int, typer.Argument(help="the run's number (`tianti tournament list`)")],
    game: Annotated[int, typer.Argument(help="the game's number (`tianti tournament show RUN "
                                        "--games`)")],
    db: DbOpt = None,
    board: Annotated[bool, typer.Option("--board/--no-board", help="print the board whenever "
                                        "a new part of the game (month, round) starts")] = True,
    step: Annotated[bool, typer.Option("--step", help="wait for Enter before each new month "
                                       "or round (q then Enter stops)")] = False,
) -> None:
    """Replay a stored tournament game, board by board, each decision in words.

    Shows who took each decision and how long it thought, every automatic step of the rules
    (events, scoring, settlements, the virtual player) narrated, the faults where they
    happened, and the result."""
    store = open_store(db)
    try:
        g = store.game(game)
        if g.run_id != run:
            raise TiantiError(f"game {game} belongs to run {g.run_id}, not run {run}")
        record = g.record()
        # The initial state under the options the record's version replays with.
        state = State.from_record(dict(record, actions=[]))
    except TiantiError as e:
        raise fail(str(e))
    seats = g.seats
    names = [display_name(g.game, s["bot"], s["spec"]) for s in seats]
    faults = {s["fault"]["move"]: s for s in seats if s["fault"] is not None}
    typer.echo(f"run {run}, game {game}: {g.game} (deal {g.deal}, seating {g.seating}), seed {g.seed}")
    # a bot named by its spec shows its level's or short name (the spec: tournament show)
    typer.echo(fit_lines("seats: " + ", ".join(
        f"P{s['seat']} {n}" + ("" if s["spec"] in (s["bot"], HUMAN) else f" ({short(s['spec'])})")
        for s, n in zip(seats, names)), WIDTH))
    for s in seats:
        if s["fault"] is not None and s["fault"]["move"] < 0:
            typer.secho(f"  P{s['seat']} {names[s['seat']]} lost by {printable(s['fault']['kind'])} before "
                        f"its first move: {_last_line(s['fault']['message'])}", fg=typer.colors.RED)
    narrator = narrator_for(state.game.name)
    shown = [False]  # whether a month's or round's header has been shown yet

    def tell(lines: list[Line]) -> bool:
        """Print the narration (and the board after a new header); False: the person stopped
        the --step replay."""
        at = next((k for k, line in enumerate(lines) if line.kind == HEADER), None)
        if at is None:
            echo_narration(lines)
            return True
        echo_narration(lines[:at])
        if step and shown[0] and not _go_on():
            return False
        shown[0] = True
        echo_narration(lines[at:])
        if board:
            typer.echo("")
            typer.echo(str(state))
        return True

    if not tell(narrator.setup(state.events(-1))):
        return
    for i, action in enumerate(g.actions):
        player = state.current_player()
        if i in faults and faults[i]["seat"] == player:
            f = faults[i]["fault"]
            typer.secho(f"  P{player} {names[player]} lost by {printable(f['kind'])}: "
                        f"{_last_line(f['message'])}; a random bot plays this seat from here",
                        fg=typer.colors.RED)
        elif i in faults:
            f = faults[i]["fault"]
            typer.secho(f"  P{faults[i]['seat']} {names[faults[i]['seat']]} lost by {printable(f['kind'])} "
                        f"(told of a move): {_last_line(f['message'])}", fg=typer.colors.RED)
        seconds = g.move_times[i] if i < len(g.move_times) else 0.0
        try:
            text = state.action_to_string(action)
            state.apply_action(action)
        except TiantiError as e:
            raise fail(f"the stored game does not replay at decision {i}: {e}")
        # A person's moves are not timed (`tianti play` stores 0 s for them).
        timing = "" if seats[player]["bot"] == HUMAN else f"  ({_duration(seconds)})"
        echo_narration([narrator.move(f"P{player} {names[player]}: {text}{timing}")])
        if not tell(narrator.step(state.events())):
            return
        if record["version"] < RECORD_VERSION:
            # A game stored before a rules change: what the rules then did by themselves.
            nxt = g.actions[i + 1] if i + 1 < len(g.actions) else None
            for b in legacy_fill(state, record["version"], nxt):
                player = state.current_player()
                text = state.action_to_string(b)
                state.apply_action(b)
                echo_narration([narrator.move(f"P{player}: {text}  (automatic: stored "
                                              f"before the rules change)")])
                if not tell(narrator.step(state.events())):
                    return
    typer.echo("")
    if board:
        typer.echo(str(state))
        typer.echo("")
    scores = state.scores()
    for s in sorted(seats, key=lambda s: (s["rank"], s["seat"])):
        note = f" (lost by {printable(s['fault']['kind'])})" if s["fault"] else ""
        typer.echo(f"{s['rank'] + 1}. P{s['seat']} {names[s['seat']]}: {s['score']} points{note}")
    if scores != [s["score"] for s in seats]:
        typer.secho(f"warning: the replay ends with scores {scores}, the store says "
                    f"{[s['score'] for s in seats]}", fg=typer.colors.YELLOW, err=True)


def _go_on() -> bool:
    answer = typer.prompt("[Enter: next, q: quit]", default="", show_default=False,
                          prompt_suffix=" ")
    return answer.strip().lower() not in ("q", "quit")


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return printable(lines[-1]) if lines else ""


def _duration(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.001:
        return f"{1000 * seconds:.1f} ms"
    return f"{1e6 * seconds:.0f} µs"
