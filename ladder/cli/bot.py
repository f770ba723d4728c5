"""`tianti bot SPEC`: serve one of tianti's bots over the bot protocol on stdin/stdout."""
from __future__ import annotations

from typing import Annotated

import typer


def bot(
    spec: Annotated[str, typer.Argument(
        help="the bot: any spec tianti can make (strong, ismcts(iterations=500), "
             "python:module:factory(...))")],
    lean: Annotated[bool, typer.Option(
        "--lean/--full", help="ask the referee for lean messages (no board, no texts: the "
        "bot rebuilds its view from the compiled block) or the full documents")] = True,
) -> None:
    """Serve a bot over the bot protocol (docs/PROTOCOL.md) on stdin and stdout, until the
    referee says quit or closes stdin: `exec:tianti bot strong` seats tianti's strong bot in
    any referee that speaks the protocol, tianti's own included. What the bot prints goes to
    stderr."""
    from ladder.referee.adapter import bot_maker, protocol_streams, serve

    make, name = bot_maker(spec)
    infile, outfile = protocol_streams()
    raise typer.Exit(code=serve(make, name, {"spec": spec}, infile, outfile, lean))
