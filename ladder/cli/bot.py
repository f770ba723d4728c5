"""`tianti bot SPEC`: serve one of tianti's bots over the bot protocol on stdin/stdout; `tianti
bot check COMMAND`: test a bot program as a tournament would play it (`ladder.referee.checker`)."""
from __future__ import annotations

from typing import Annotated, Optional

import typer


def bot(
    spec: Annotated[str, typer.Argument(
        help="the bot: any spec tianti can make (strong, ismcts(iterations=500), "
             "python:module:factory(...)); or `check` followed by a bot's command to test it")],
    command: Annotated[Optional[list[str]], typer.Argument(
        help="after `check`: the bot's command (`./mybot --depth 3`, `python3 bot.py`, or a "
             "spec such as exec:... or python:...)", show_default=False)] = None,
    lean: Annotated[bool, typer.Option(
        "--lean/--full", help="ask the referee for lean messages (no board, no texts: the "
        "bot rebuilds its view from the compiled block) or the full documents")] = True,
    games: Annotated[int, typer.Option(
        "--games", min=1, help="with check: games of each game and player count")] = 2,
    game: Annotated[Optional[list[str]], typer.Option(
        "--game", "-g", help="with check: the games to play (default: every game of tianti's; "
        "repeat the option for more)")] = None,
    move_timeout: Annotated[float, typer.Option(
        "--move-timeout", min=0.001, help="with check: seconds a move may take")] = 5.0,
) -> None:
    """Serve a bot over the bot protocol (docs/PROTOCOL.md) on stdin and stdout, until the
    referee says quit or closes stdin: `exec:tianti bot strong` seats tianti's strong bot in
    any referee that speaks the protocol, tianti's own included. What the bot prints goes to
    stderr.

    `tianti bot check COMMAND...` tests a bot program instead: the handshake, then a few games
    of each game and player count against `random`, in the sandbox and under the time limit a
    tournament uses, and a report of what is wrong (a line that is no JSON, an illegal id, no
    answer: maybe not flushed) and the time per move. Exit code 1 if anything was wrong."""
    if spec == "check":
        if not command:
            raise typer.BadParameter("give the bot's command after check, e.g. "
                                     "`tianti bot check ./mybot`", param_hint="COMMAND")
        import shlex

        from ladder.referee.checker import check

        text = command[0] if len(command) == 1 else shlex.join(command)
        try:
            report = check(text, games=games, game_names=game or (), move_timeout=move_timeout)
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--game") from None
        for line in report.lines():
            typer.echo(line)
        raise typer.Exit(code=0 if report.ok else 1)
    if command:
        raise typer.BadParameter(f"unexpected {' '.join(command)!r} after the spec (quote a "
                                 "spec with spaces)", param_hint="SPEC")
    from ladder.referee.adapter import bot_maker, protocol_streams, serve

    make, name = bot_maker(spec)
    infile, outfile = protocol_streams()
    raise typer.Exit(code=serve(make, name, {"spec": spec}, infile, outfile, lean))
