"""`tianti play`: a person against the AI in the terminal.

Everything printed fits 80 columns (East Asian wide characters counted as 2): the boards are
drawn for it, and every other line goes through `fit_lines`. `NO_COLOR` turns colours off.
The game is saved after every decision, so that no crash, closed terminal or Ctrl-C loses it.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ai.levels import level_names, level_spec, top_level
from engine.core.errors import TiantiError
from engine.core.text import WIDTH, fit_lines
from ladder.cli.options import (GameArg, GameOptionsOpt, PlayersOpt, SeedOpt, fail, merge_players,
                                parse_game_options)
from ladder.explain import explain_choice, legend
from ladder.narrate import HEADER, Line, render
from ladder.play import HUMAN, LoggedMove, PlayError, PlaySession, default_save_path

HELP = """Commands at any prompt:
  NUMBER or NAME   play that choice (an unambiguous prefix of the name is enough)
  explain N        what choice N (or a name / prefix) does and costs
  legend           what the board's words, numbers and letters mean
  help             this text
  hint             what the strong bot would play here, with its top moves
  undo             back to your previous decision
  board            the full board
  log              what happened since your last decision (log all: the whole game)
  save FILE        save the game (resume with: tianti play --load FILE)
  quit             save the game and stop
The game is saved after every decision; `tianti rules GAME` explains the rules."""

# Exit status after Ctrl-C (128 + SIGINT), as `tianti tournament run` and `watch` use.
INTERRUPTED = 130


def colour_on() -> bool:
    """False when NO_COLOR is set to anything (https://no-color.org)."""
    return not os.environ.get("NO_COLOR")


def say(text: str = "", **style: Any) -> None:
    """Print `text` fitted to 80 columns, in colour (`style`: typer.secho's) unless NO_COLOR."""
    text = fit_lines(text, WIDTH) if text else text
    if style and colour_on():
        typer.secho(text, **style)
    else:
        typer.echo(text)


def narrate(lines: list[Line]) -> None:
    """Print narration lines (ladder/narrate.py), headers in bold."""
    for line in lines:
        for text in render([line], WIDTH):
            if line.kind == HEADER and text:
                say(text, bold=True)
            else:
                say(text)


def _board(session: PlaySession) -> str:
    state = session.state
    compact = getattr(state, "compact_str", None)
    return compact(session.seat) if compact else str(state)


def _thinking(player: int, spec: str) -> Any:
    """A spinner while a bot thinks (plain text when not on a terminal)."""
    if sys.stdout.isatty():
        from rich.console import Console

        return Console(no_color=not colour_on()).status(f"P{player} ({spec}) is thinking ...",
                                                        spinner="dots")
    return contextlib.nullcontext()


def _show_board(session: PlaySession, previous: list[str] | None) -> list[str]:
    """Print the compact board, marking with "* " the lines that changed since `previous`
    (the board leaves two columns for the marker)."""
    lines = fit_lines(_board(session), WIDTH - 2).splitlines()
    for line in lines:
        if previous is not None and line not in previous:
            say("* " + line, fg=typer.colors.YELLOW)
        else:
            say("  " + line)
    return lines


def _show_choices(session: PlaySession) -> None:
    say(session.state.decision_name(), bold=True)
    for c in session.choices():
        say(f"  {c.number:2}. {c.text}")


class Saver:
    """Saves the session to its save path: after every decision (autosave), at quit, end of
    input and Ctrl-C. A failed autosave is reported once per distinct problem; the game goes on."""

    def __init__(self, session: PlaySession, path: Path) -> None:
        self.session = session
        self.path = path
        self._reported: set[str] = set()

    def autosave(self) -> None:
        try:
            self.session.save(self.path)
        except PlayError as e:
            if str(e) not in self._reported:
                self._reported.add(str(e))
                say(f"warning: autosave failed: {e} (use 'save FILE' to save elsewhere)",
                    fg=typer.colors.RED)

    def save_and_exit(self, why: str, code: int = 0) -> None:
        """Save, say how to resume, and end the program with `code`."""
        try:
            saved = self.session.save(self.path)
        except PlayError as e:
            say(f"\n{why}: the game could NOT be saved: {e}", fg=typer.colors.RED)
            raise typer.Exit(code=code or 1)
        say(f"\n{why}: the game is saved to {saved}")
        say(f"resume it with: tianti play --load {saved}")
        raise typer.Exit(code=code)


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _finish(session: PlaySession, store_path: Optional[Path]) -> None:
    say("")
    say(str(session.state))
    summary = session.summary()
    breakdown = summary.get("breakdown")
    if breakdown:
        say("")
        say("Final scoring", bold=True)
        sources = [k for k in breakdown[0] if k != "total"]
        for i, b in enumerate(breakdown):
            who = "you" if i == session.seat else session.specs[i]
            parts = ", ".join(f"{k} {b[k]}" for k in sources if b[k])
            say(f"  P{i} ({who}): {b['total']} = {parts or '0'}")
    say("Ranking", bold=True)
    order = sorted(range(len(summary["ranks"])), key=lambda i: summary["ranks"][i])
    for i in order:
        who = "you" if i == session.seat else session.specs[i]
        say(f"  {summary['ranks'][i] + 1}. P{i} ({who}): {_points(summary['scores'][i])}")
    solo = summary.get("solo")
    if solo:
        say(f"Solo goal: {solo}")
    try:
        from ladder.human import store_human_game

        where = store_human_game(session, store_path)
        if where:
            say(f"the game is stored in {where} (your games rate you as 'human')")
    except ImportError:
        pass
    except (TiantiError, OverflowError, sqlite3.Error) as e:
        # The game is saved already (autosave); a store problem must not end in a traceback.
        say(f"warning: the game could not be stored in the ladder: {e}", fg=typer.colors.RED)


def _intro(session: PlaySession) -> str:
    g = session.state.game
    title = getattr(g, "TITLE", g.name)
    others = [f"P{i} {s}" for i, s in enumerate(session.specs) if s != HUMAN]
    if others:
        against = "against " + ", ".join(others)
    elif g.options.get("solo") or g.options.get("challenge"):
        against = "solo, against the virtual player"
    else:
        against = "alone"
    return (f"{title}: you are P{session.seat}, {against}. Type 'help' at any prompt, "
            f"'explain N' for a choice, 'legend' for the board.")


# Arguments that --load ignores (the saved game fixes them).
_LOAD_IGNORES = ("game", "players", "option", "seat", "opponent", "level", "seed", "hint_bot")


def _ignored_with_load(ctx: typer.Context) -> list[str]:
    """The arguments given on the command line that --load ignores."""
    out = []
    for name in _LOAD_IGNORES:
        source = ctx.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            out.append(name.replace("_", "-"))
    return out


def _opponents(game: str, opponent: list[str] | None, level: int | None) -> list[str]:
    """The opponents' bot specs: --opponent as given, else the --level preset, else the
    strongest level (the strong bot). Both --opponent and --level is an error (which wins
    would be a guess)."""
    if level is not None:
        if opponent:
            raise TiantiError("give --level or --opponent, not both (--level chooses the "
                              "opponents' bots)")
        return [level_spec(game, level)]
    return opponent or [top_level(game).spec]


def play(
    ctx: typer.Context,
    game: GameArg = "dragon",
    players: PlayersOpt = None,
    option: GameOptionsOpt = None,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 moves first in setup)")] = 0,
    opponent: Annotated[
        Optional[list[str]],
        typer.Option("--opponent", "-b", help="bot spec of the other seats (repeat per seat); "
                     "default: strong"),
    ] = None,
    level: Annotated[Optional[int], typer.Option(
        "--level", "-l", help="the opponents' difficulty, 1 (a beginner's opponent) up to the "
        "strongest level, the default (the strong bot). Dragon: " + level_names("dragon")
        + ". Mount Tai: " + level_names("mount-tai") + ". `tianti bots` shows their bot "
        "specs; not with --opponent")] = None,
    seed: SeedOpt = None,
    load: Annotated[Optional[Path], typer.Option("--load", help="resume a saved game")] = None,
    save_to: Annotated[
        Optional[Path], typer.Option("--save-to", help="where the game is saved after every "
                                     "decision and at quit / Ctrl-C / end of input (default: a "
                                     "new file in tianti's data folder, or the --load file)")
    ] = None,
    hint_bot: Annotated[str, typer.Option("--hint-bot", help="bot spec that gives hints")] = "strong",
    db: Annotated[Optional[Path], typer.Option("--db", help="store for the finished game "
                                               "(default: the ladder's store)")] = None,
    trust: Annotated[bool, typer.Option(
        "--trust", help="let --load run the Python code of `python:` bots the save names")] = False,
    confirm_forced: Annotated[bool, typer.Option(
        "--confirm-forced", help="ask even when a decision has a single legal choice "
        "(default: it is played for you, with a line saying so)")] = False,
    show_thinking: Annotated[bool, typer.Option(
        "--show-thinking", help="after each AI move, print its own estimate (its chance to "
        "win, or to reach the goal in a solo game) and how long it searched")] = False,
) -> None:
    """Play a game against the AI: the board, your choices in words, hints, undo and saves."""
    try:
        if load is not None:
            session = PlaySession.load(load, trust=trust)
            ignored = _ignored_with_load(ctx)
            if ignored:
                say("warning: --load resumes the saved game as it was; ignored: "
                    + ", ".join(ignored), fg=typer.colors.YELLOW)
        else:
            options = merge_players(parse_game_options(option), players)
            session = PlaySession.new(game, options, seat, _opponents(game, opponent, level),
                                      seed, hint_bot)
    except TiantiError as e:
        raise fail(str(e))
    saver = Saver(session, save_to or load or default_save_path(session.state.game.name))
    say(_intro(session))
    if load is None:
        narrate(session.narrate_setup())
    else:
        say("What happened since your last decision:")
        narrate(session.story())
    previous: list[str] | None = None

    def announce(move: LoggedMove) -> None:
        """A bot's move, its estimate (--show-thinking) and the automatic steps after it."""
        timing = f"  [{move.seconds:.1f} s]" if move.seconds >= 0.05 else ""
        lines = [Line("move", f"{session.mover_name(move.player)}: {move.text}{timing}")]
        if show_thinking and move.thinking:
            lines.append(Line("event", f"P{move.player} {move.thinking}"))
        narrate(lines + session.narrate_last())

    def played(text: str) -> None:
        """The person's move and the automatic steps after it."""
        narrate([Line("move", text)] + session.narrate_last())

    try:
        _loop(session, saver, announce, played, show_thinking, confirm_forced, db, previous)
    except TiantiError as e:  # a bot in a process of its own failed
        raise fail(str(e))
    finally:
        session.close()


def _loop(session: Any, saver: Any, announce: Any, played: Any, show_thinking: bool,
          confirm_forced: bool, db: Any, previous: list[str] | None) -> None:
    """The game's turns until it ends or the person quits (play's body)."""
    try:
        while True:
            session.run_bots(before=lambda p: _thinking(p, session.specs[p]), after=announce)
            if session.state.is_terminal():
                saver.autosave()
                _finish(session, db)
                return
            choices = session.choices()
            if len(choices) == 1 and not confirm_forced:
                session.choose(choices[0].action)
                played(f"you: {choices[0].text} (the only choice: played for you)")
                saver.autosave()
                continue
            saver.autosave()
            say("")
            previous = _show_board(session, previous)
            _show_choices(session)
            while True:
                try:
                    line = input("> ")
                except EOFError:
                    saver.save_and_exit("end of input")
                text = line.strip()
                if not text:
                    continue
                word, _, arg = text.partition(" ")
                word = word.lower()
                if word == "help":
                    say(HELP)
                elif word == "quit":
                    saver.save_and_exit("quit")
                elif word == "board":
                    say(str(session.state))
                elif word == "legend":
                    say(legend(session.state))
                elif word == "explain":
                    try:
                        say(explain_choice(session, arg))
                    except PlayError as e:
                        say(str(e), fg=typer.colors.RED)
                elif word == "log":
                    whole = arg.strip().lower() == "all"
                    lines = session.story(since_my_last_turn=not whole,
                                          thinking=show_thinking)
                    say("The whole game so far:" if whole else
                        "What happened since your last decision:")
                    narrate(lines)
                    if not lines:
                        say("  (nothing yet)")
                elif word == "save":
                    if not arg.strip():
                        say("save needs a file name: save FILE")
                        continue
                    try:
                        saved = session.save(arg.strip())
                    except PlayError as e:
                        say(f"{e}; the game goes on", fg=typer.colors.RED)
                        continue
                    say(f"saved to {saved}; resume with: tianti play --load {saved}")
                elif word == "hint":
                    with _thinking(session.seat, session.hint_spec):
                        h = session.hint()
                    first, *rest = h.lines()
                    say(first, fg=typer.colors.GREEN)
                    for text in rest:
                        say(text)
                elif word == "undo":
                    if session.undo():
                        # A forced decision would be replayed at once: go back past it.
                        while (not confirm_forced and session.decisions
                               and len(session.choices()) == 1):
                            session.undo()
                        say("back to your previous decision")
                        previous = None
                        break
                    say("nothing to undo: this is your first decision")
                else:
                    try:
                        action = session.resolve(text)
                    except PlayError as e:
                        say(str(e), fg=typer.colors.RED)
                        continue
                    text = session.state.action_to_string(action)
                    session.choose(action)
                    played(f"you: {text}")
                    saver.autosave()
                    break
    except KeyboardInterrupt:
        saver.save_and_exit("interrupted", INTERRUPTED)
