"""`tianti play`: a person against the AI in the terminal.

Everything printed fits 80 columns (East Asian wide characters counted as 2): the boards are
drawn for it, and every other line goes through `fit_lines`. `NO_COLOR` turns colours off.
The game is saved after every decision, so that no crash, closed terminal or Ctrl-C loses it.
"""
from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ai.bots import parse_spec
from ai.levels import level_names, level_spec, top_level
from engine.core.errors import TiantiError
from ladder.cli.options import ThinkOpt, check_think
from engine.core.text import WIDTH, display_width, fill, fit_lines, wrap
from ladder.cli.options import (GameArg, GameOptionsOpt, PlayersOpt, SeedOpt, fail, merge_players,
                                parse_game_options)
from ladder.table.explain import choice_groups, explain_choice, legend
from ladder.names import seat_name, short
from ladder.table.narrate import HEADER, Line, render
from ladder.table.play import (HUMAN, Choice, LoggedMove, PlayError, PlaySession,
                               default_save_path, find_save, saves_dir)

# The commands at play's prompt, as `help` lists them: (command, what it does).
HELP_ROWS: tuple[tuple[str, str], ...] = (
    ("NUMBER or NAME", "play that choice (an unambiguous prefix of its name will do)"),
    ("explain N", "what choice N (or a name / prefix) does and costs"),
    ("legend", "what the board's words, numbers and letters mean"),
    ("help", "this text"),
    ("hint", "what the strong bot would play here, with its top moves"),
    ("undo", "back to your previous decision"),
    ("board", "the full board"),
    ("log", "what happened since your last move (log all: the whole game)"),
    ("save FILE", "save the game (resume it with: {program} play --load FILE)"),
    ("quit", "save the game and stop"),
    ("review", "(after the game) where your decisions won or lost it"),
)


def help_text(program: str, width: int = WIDTH) -> str:
    """`help`'s text: one row per command, the descriptions in one column, a description too
    long for its row continued under that column (not under the command), within `width`."""
    column = 2 + max(len(command) for command, _ in HELP_ROWS) + 3
    lines = ["Commands at any prompt:"]
    for command, what in HELP_ROWS:
        body = fill(what.format(program=program), width - column)
        lines.append(("  " + command).ljust(column) + body[0])
        lines.extend(" " * column + rest for rest in body[1:])
    lines.extend(fill("The game is saved after every decision; `tianti rules GAME` explains "
                      "the rules.", width))
    return "\n".join(lines)

# Games whose narration ends with the final scoring and the ranking (ladder/table/narrate.py).
NARRATED_RANKING = ("dragon", "mount-tai")

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
    """Print narration lines (ladder/table/narrate.py), headers in bold."""
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


def _thinking(player: int, name: str) -> Any:
    """A spinner while a bot thinks (plain text when not on a terminal)."""
    if sys.stdout.isatty():
        from rich.console import Console

        return Console(no_color=not colour_on()).status(f"{seat_name(player, name)} is thinking ...",
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


# A choice list longer than this is shown compactly (grouped), so that board and choices fit
# a 45-line terminal.
LONG_LIST = 12
# Choices grouped under shared first words only when what is left of each is this short.
SHORT_LABEL = 30


def choice_lines(choices: list[Choice], width: int = WIDTH,
                 groups: list[tuple[str, str] | None] | None = None) -> list[str]:
    """The numbered choices, one a line; a long list (the draft's pairs, recruiting with
    wildcards) compactly, in groups on wrapped lines under a heading: the game's groups
    (`groups`: a heading and a short label per choice, from its guide) where it has them,
    else choices in a row that share their first words (at least two: "draft craftsman +")."""
    if len(choices) <= LONG_LIST:
        return [f"  {c.number:2}. {c.text}" for c in choices]
    groups = groups or [None] * len(choices)
    lines: list[str] = []
    i = 0
    while i < len(choices):
        if groups[i] is not None:
            j = i
            while j < len(choices) and groups[j] is not None and groups[j][0] == groups[i][0]:
                j += 1
            lines.extend(wrap(f"  {groups[i][0]}: ", [f"{c.number}. {g[1]}" for c, g in
                                                       zip(choices[i:j], groups[i:j])],
                              width, sep="  "))
            i = j
            continue
        words = choices[i].text.split(" ")
        common = 0
        j = i + 1
        while j < len(choices) and groups[j] is None:
            other = choices[j].text.split(" ")
            n = 0
            while n < min(len(words), len(other)) - 1 and words[n] == other[n]:
                n += 1
            if n < 2 or (common and n < common):
                break
            common = n if not common else min(common, n)
            j += 1
        rests = [" ".join(c.text.split(" ")[common:]) for c in choices[i:j]]
        if j - i < 2 or max(map(display_width, rests)) > SHORT_LABEL:
            lines.append(f"  {choices[i].number:2}. {choices[i].text}")
            i += 1
            continue
        head = "  " + " ".join(words[:common]) + " "
        lines.extend(wrap(head, [f"{c.number}. {rest}" for c, rest in zip(choices[i:j], rests)],
                          width, sep="  "))
        i = j
    return lines


def _show_choices(session: PlaySession) -> None:
    say(session.state.decision_name(), bold=True)
    needed = session.picks_needed()
    if needed:
        picked = [session.state.action_to_string(a) for a in session.picks]
        left = needed - len(picked)
        if picked:
            for line in wrap("  your picks so far: ", picked, WIDTH, sep="; "):
                say(line)
        say(f"  pick {left} {'more ' if picked else ''}(one at a time, in any order; "
            "'undo' takes back a pick)")
    choices = session.choices()
    groups = choice_groups(session.state, [c.action for c in choices], session.seat)
    for line in choice_lines(choices, groups=groups):
        say(line)


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
        resume_hint(saved)
        raise typer.Exit(code=code)


def program() -> str:
    """The command that runs tianti again as it was started: `tianti` when that is what the
    PATH finds, else the path it was started by (`.venv/bin/tianti` after `make play`, which
    does not put it on the PATH)."""
    started = sys.argv[0] if sys.argv else ""
    if not os.path.basename(started).startswith("tianti"):
        return "tianti"  # python -m ladder.cli, or a test
    found = shutil.which("tianti")
    if found and os.path.realpath(found) == os.path.realpath(started):
        return "tianti"
    return shlex.quote(started)


def short_path(path: Path) -> str:
    """`path` as `--load` reads it, short: its name alone in the saves folder, relative to
    the working folder when inside it, with `~` for the home folder, else whole."""
    p = Path(path).resolve()
    if p.parent == saves_dir().resolve() and find_save(p.name) == saves_dir() / p.name:
        return shlex.quote(p.name)
    with contextlib.suppress(ValueError):
        return shlex.quote(str(p.relative_to(Path.cwd().resolve())))
    with contextlib.suppress(ValueError, RuntimeError):
        return "~/" + shlex.quote(str(p.relative_to(Path.home().resolve())))
    return shlex.quote(str(p))


def resume_hint(path: Path, lead: str = "resume it with: ") -> None:
    """How to resume the game saved at `path`: a command to copy, never broken over lines (on
    a line of its own when it does not fit after `lead`)."""
    command = f"{program()} play --load {short_path(path)}"
    if display_width(lead + command) <= WIDTH:
        typer.echo(lead + command)
    else:
        typer.echo(lead.rstrip())
        typer.echo("  " + command)


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _finish(session: PlaySession, store_path: Optional[Path]) -> None:
    """The end: the final board, and where each player's points came from over the whole game
    (the final scoring and the ranking were narrated just before, so they are not repeated;
    a game whose narration has no ranking gets it here)."""
    say("")
    for line in fit_lines(_board(session), WIDTH).splitlines():
        say(line)
    summary = session.summary()
    breakdown = summary.get("breakdown")
    order = sorted(range(len(summary["ranks"])), key=lambda i: (summary["ranks"][i], i))
    if breakdown:
        say("")
        say("Where each score came from over the whole game", bold=True)
        sources = [k for k in breakdown[0] if k != "total"]
        for i in order:
            b = breakdown[i]
            who = seat_name(i, "you" if i == session.seat else session.bot_name(i))
            parts = ", ".join(f"{k} {b[k]}" for k in sources if b[k])
            say(f"  {who}: {b['total']} = {parts or '0'}")
    elif session.state.game.name not in NARRATED_RANKING:
        say("Ranking", bold=True)
        for i in order:
            who = seat_name(i, "you" if i == session.seat else session.bot_name(i))
            say(f"  {summary['ranks'][i] + 1}. {who}: {_points(summary['scores'][i])}")
    solo = summary.get("solo")
    if solo:
        say(f"Solo goal: {solo}")
    try:
        from ladder.table.human import store_human_game

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
    others = [f"P{i} {session.bot_name(i)}" for i, s in enumerate(session.specs) if s != HUMAN]
    if others:
        against = "against " + ", ".join(others)
    elif g.options.get("solo") or g.options.get("challenge"):
        against = "solo, against the virtual player"
    else:
        against = "alone"
    return (f"{title}: you are P{session.seat}, {against}. Type 'help' at any prompt, "
            f"'explain N' for a choice, 'legend' for the board.")


# Arguments that --load ignores (the saved game fixes them).
_LOAD_IGNORES = ("game", "players", "option", "seat", "opponent", "level", "seed", "hint_bot",
                 "think")


def _ignored_with_load(ctx: typer.Context) -> list[str]:
    """The arguments given on the command line that --load ignores."""
    out = []
    for name in _LOAD_IGNORES:
        source = ctx.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            out.append(name.replace("_", "-"))
    return out


def _with_think(specs: list[str], think: float | None) -> list[str]:
    """The opponents' specs with --think: `think=SECONDS` added to every strong bot's spec
    (strong, strong-v1, ...); an error if no opponent is one, or if one already has a budget."""
    if think is None:
        return specs
    out = []
    for spec in specs:
        name, raw = parse_spec(spec)
        if not name.startswith("strong"):
            out.append(spec)
            continue
        given = [k for k in ("think", "think_iterations", "millis", "iterations") if k in raw]
        if given:
            raise TiantiError(f"--think: the opponent {spec!r} already has a budget "
                              f"({given[0]}); give one of them")
        inner = ",".join([f"{k}={v}" for k, v in raw.items()] + [f"think={think:g}"])
        out.append(f"{name}({inner})")
    if out == specs:
        raise TiantiError("--think applies to the strong bots (strong, strong-v1, ...); no "
                          f"opponent is one: {', '.join(specs)}")
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
    load: Annotated[Optional[Path], typer.Option(
        "--load", help="resume a saved game: its file, or its name in the saves folder")] = None,
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
    think: ThinkOpt = None,
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
            opponents = _with_think(_opponents(game, opponent, level), check_think(think))
            session = PlaySession.new(game, options, seat, opponents, seed, hint_bot)
    except TiantiError as e:
        raise fail(str(e))
    saver = Saver(session, save_to or (find_save(load) if load else None)
                  or default_save_path(session.state.game.name))
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

    def played(action: int, forced: bool = False) -> None:
        """The person plays `action`: their move(s) and the automatic steps after each; at an
        orderless decision (releases) a pick, played when the set is complete."""
        text = session.state.action_to_string(action)
        moves = session.choose(action)
        if not moves:
            say(f"you pick: {text}" + (" (the only choice)" if forced else ""))
            return
        lines = session.narrate_moves(moves)
        if forced and len(moves) == 1:
            lines[0] = Line("move", f"{lines[0].text} (the only choice: played for you)")
        narrate(lines)

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
            session.run_bots(before=lambda p: _thinking(p, session.bot_name(p)), after=announce)
            if session.state.is_terminal():
                saver.autosave()
                _finish(session, db)
                from ladder.cli.review import after_game

                after_game(session, saver.path)
                return
            choices = session.choices()
            if len(choices) == 1 and not confirm_forced:
                played(choices[0].action, forced=True)
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
                    say(help_text(program()))
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
                    say(f"saved to {saved}")
                    resume_hint(saved, "resume with: ")
                elif word == "hint":
                    try:
                        with _thinking(session.seat, short(session.hint_spec)):
                            h = session.hint()
                    except PlayError as e:
                        say(str(e), fg=typer.colors.RED)
                        continue
                    first, *rest = h.lines()
                    say(first, fg=typer.colors.GREEN)
                    for text in rest:
                        say(text)
                elif word == "undo":
                    if session.picks:
                        gone = session.state.action_to_string(session.picks[-1])
                        session.unpick()
                        say(f"took back your pick: {gone}")
                        break
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
                    played(action)
                    saver.autosave()
                    break
    except KeyboardInterrupt:
        saver.save_and_exit("interrupted", INTERRUPTED)
