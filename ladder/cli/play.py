"""`tianti play`: a person against the AI in the terminal."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from engine.core.errors import TiantiError
from ladder.cli.options import (GameArg, GameOptionsOpt, PlayersOpt, SeedOpt, fail, merge_players,
                                parse_game_options)
from ladder.play import HUMAN, PlayError, PlaySession, default_save_path

HELP = """Commands at any prompt:
  NUMBER or NAME   play that choice (an unambiguous prefix of the name is enough)
  help             this text
  hint             what the strong bot would play here, with its top moves
  undo             back to your previous decision
  board            the full board
  log              the moves since your last turn
  save FILE        save the game (resume with: tianti play --load FILE)
  quit             save the game and stop"""


def _board(session: PlaySession) -> str:
    state = session.state
    compact = getattr(state, "compact_str", None)
    return compact(session.seat) if compact else str(state)


def _thinking(player: int, spec: str) -> Any:
    """A spinner while a bot thinks (plain text when not on a terminal)."""
    if sys.stdout.isatty():
        from rich.console import Console

        return Console().status(f"P{player} ({spec}) is thinking ...", spinner="dots")
    return contextlib.nullcontext()


def _show_board(session: PlaySession, previous: list[str] | None) -> list[str]:
    """Print the compact board, marking the lines that changed since `previous`."""
    lines = _board(session).splitlines()
    for line in lines:
        changed = previous is not None and line not in previous
        if changed:
            typer.secho("* " + line, fg=typer.colors.YELLOW)
        else:
            typer.echo("  " + line)
    return lines


def _show_choices(session: PlaySession) -> None:
    typer.secho(session.state.decision_name(), bold=True)
    for c in session.choices():
        typer.echo(f"  {c.number:2}. {c.text}")


def _save_and_exit(session: PlaySession, path: Path, why: str) -> None:
    saved = session.save(path)
    typer.echo(f"\n{why}: the game is saved to {saved}")
    typer.echo(f"resume it with: tianti play --load {saved}")
    raise typer.Exit(code=0)


def _finish(session: PlaySession, store_path: Optional[Path]) -> None:
    typer.echo("")
    typer.echo(str(session.state))
    summary = session.summary()
    typer.echo("")
    typer.secho("Final scoring", bold=True)
    breakdown = summary.get("breakdown")
    if breakdown:
        sources = [k for k in breakdown[0] if k != "total"]
        for i, b in enumerate(breakdown):
            who = "you" if i == session.seat else session.specs[i]
            parts = ", ".join(f"{k} {b[k]}" for k in sources if b[k])
            typer.echo(f"  P{i} ({who}): {b['total']} = {parts or '0'}")
    typer.secho("Ranking", bold=True)
    order = sorted(range(len(summary["ranks"])), key=lambda i: summary["ranks"][i])
    for i in order:
        who = "you" if i == session.seat else session.specs[i]
        typer.echo(f"  {summary['ranks'][i] + 1}. P{i} ({who}): {summary['scores'][i]} points")
    solo = summary.get("solo")
    if solo:
        typer.echo(f"Solo goal: {solo}")
    try:
        from ladder.human import store_human_game

        where = store_human_game(session, store_path)
        if where:
            typer.echo(f"the game is stored in {where} (your games rate you as 'human')")
    except ImportError:
        pass
    except TiantiError as e:
        typer.secho(f"warning: the game could not be stored: {e}", fg=typer.colors.RED, err=True)


def play(
    game: GameArg = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 moves first in setup)")] = 0,
    opponent: Annotated[
        Optional[list[str]],
        typer.Option("--opponent", "-b", help="bot spec of the other seats (repeat per seat); "
                     "default: strong"),
    ] = None,
    seed: SeedOpt = None,
    load: Annotated[Optional[Path], typer.Option("--load", help="resume a saved game")] = None,
    save_to: Annotated[
        Optional[Path], typer.Option("--save-to", help="where quit / Ctrl-C / end of input save "
                                     "the game (default: a new file in tianti's data folder)")
    ] = None,
    hint_bot: Annotated[str, typer.Option("--hint-bot", help="bot spec that gives hints")] = "strong",
    db: Annotated[Optional[Path], typer.Option("--db", help="store for the finished game "
                                               "(default: the ladder's store)")] = None,
) -> None:
    """Play a game against the AI: the board, your choices in words, hints, undo and saves."""
    try:
        if load is not None:
            session = PlaySession.load(load)
        else:
            options = merge_players(parse_game_options(option), players)
            session = PlaySession.new(game, options, seat, opponent or ["strong"], seed, hint_bot)
    except TiantiError as e:
        raise fail(str(e))
    target = save_to or load or default_save_path(session.state.game.name)
    g = session.state.game
    typer.echo(f"{g.TITLE if hasattr(g, 'TITLE') else g.name}: you are P{session.seat}; "
               + ", ".join(f"P{i} {s}" for i, s in enumerate(session.specs) if s != HUMAN)
               + ". Type 'help' at any prompt.")
    previous: list[str] | None = None

    def announce(move) -> None:
        typer.echo(f"  P{move.player} ({session.specs[move.player]}): {move.text}"
                   + (f"  [{move.seconds:.1f} s]" if move.seconds >= 0.05 else ""))

    try:
        while True:
            session.run_bots(before=lambda p: _thinking(p, session.specs[p]), after=announce)
            if session.state.is_terminal():
                _finish(session, db)
                return
            typer.echo("")
            previous = _show_board(session, previous)
            _show_choices(session)
            while True:
                try:
                    line = input("> ")
                except EOFError:
                    _save_and_exit(session, target, "end of input")
                text = line.strip()
                if not text:
                    continue
                word, _, arg = text.partition(" ")
                word = word.lower()
                if word == "help":
                    typer.echo(HELP)
                elif word == "quit":
                    _save_and_exit(session, target, "quit")
                elif word == "board":
                    typer.echo(str(session.state))
                elif word == "log":
                    moves = session.moves_since_my_last_turn()
                    for m in moves:
                        who = "you" if m.player == session.seat else f"P{m.player}"
                        typer.echo(f"  {who}: {m.text}")
                    if not moves:
                        typer.echo("  (no moves since your last turn)")
                elif word == "save":
                    if not arg.strip():
                        typer.echo("save needs a file name: save FILE")
                        continue
                    saved = session.save(arg.strip())
                    typer.echo(f"saved to {saved}; resume with: tianti play --load {saved}")
                elif word == "hint":
                    with _thinking(session.seat, session.hint_spec):
                        h = session.hint()
                    typer.secho(f"hint: {h['text']}", fg=typer.colors.GREEN)
                    for t in h["top"]:
                        typer.echo(f"   {t['text']}: {t['visits']} visits, value {t['value']:.2f}")
                elif word == "undo":
                    if session.undo():
                        typer.echo("back to your previous decision")
                        previous = None
                        break
                    typer.echo("nothing to undo: this is your first decision")
                else:
                    try:
                        action = session.resolve(text)
                    except PlayError as e:
                        typer.secho(str(e), fg=typer.colors.RED)
                        continue
                    typer.echo(f"  you: {session.state.action_to_string(action)}")
                    session.choose(action)
                    break
    except KeyboardInterrupt:
        _save_and_exit(session, target, "interrupted")
