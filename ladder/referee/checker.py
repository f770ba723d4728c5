"""`tianti bot check COMMAND`: a bot author's test of a bot program, as a UCI engine tester
(cutechess-cli's or Kaggle's validation episode) does it: the handshake, then a few games of each
game and player count against tianti's `random` bot, played exactly as a tournament plays them
(the same sandbox, the same referee and time limit), and a report of what is wrong.

Each fault is reported with its kind, its message (a bot that never answers is told that its
output may not be flushed; a line that is no JSON, an action id that is not legal, a process that
ended, with the end of its stderr) and what to do about it; the time the bot took per move is
reported per game and player count (median and slowest, against the limit). `check` returns the
report; the command prints it and exits 1 if anything was wrong.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

# What each kind of fault most likely means, for a bot author.
_ADVICE = {
    "timeout": "answer `hello` at once and every `move` within its `time_ms`, each with one "
               "line, flushed",
    "invalid": "answer with one JSON object per line, `{\"type\":\"action\",\"action\":ID}`, ID "
               "one of the `legal` ids of that `move`",
    "illegal": "answer with one of the `legal` ids of that `move`",
    "crashed": "keep reading stdin until `quit` (or its end); the end of its stderr is above",
    "error": "the bot said it failed: its message is above",
}


@dataclass
class Problem:
    """One thing wrong with the bot: where (`where`), its fault's kind and message, advice."""

    where: str
    kind: str
    message: str

    def lines(self) -> list[str]:
        first, *rest = self.message.strip().splitlines() or [""]
        out = [f"{self.where}: {self.kind}: {first}"]
        out += ["    " + line for line in rest[-12:]]
        if self.kind in _ADVICE:
            out.append(f"    what to do: {_ADVICE[self.kind]}")
        return out


@dataclass
class Report:
    """What `check` found: the bot's name and wants, each configuration's games and move
    times, and the problems."""

    spec: str
    name: str = ""
    wants: tuple[str, ...] = ()
    handshake_ms: float | None = None
    played: list[tuple[str, int, int, list[float]]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    move_timeout: float = 5.0

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """The report, as printed."""
        out = [f"bot: {self.spec}"]
        if self.handshake_ms is None:
            out.append("handshake: failed")
        else:
            wants = ", ".join(self.wants) if self.wants else "nothing"
            out.append(f"handshake: ok in {self.handshake_ms:.0f} ms; name {self.name!r}, "
                       f"wants {wants}")
        for game, players, games, times in self.played:
            head = f"{game}, {players} player{'s' if players > 1 else ''}: {games} " \
                   f"game{'s' if games != 1 else ''}"
            if times:
                head += (f", {len(times)} moves; time per move: median "
                         f"{statistics.median(times) * 1000:.1f} ms, slowest "
                         f"{max(times) * 1000:.1f} ms (limit {self.move_timeout:g} s)")
            out.append(head)
        if self.problems:
            out.append(f"{len(self.problems)} problem{'s' if len(self.problems) > 1 else ''}:")
            for problem in self.problems:
                out += ["  " + line for line in problem.lines()]
        else:
            out.append("no problems found")
        return out


def configurations(games: Sequence[str] = ()) -> list[tuple[str, int]]:
    """(game, players) for every player count of each game named (default: tianti's games,
    without its test game `fusion`)."""
    import engine

    names = list(games) or [n for n in engine.game_names() if n != "fusion"]
    out = []
    for name in names:
        if name not in engine.game_names():
            raise ValueError(f"unknown game {name!r}; known: {', '.join(engine.game_names())}")
        for players in range(1, 9):
            try:
                engine.load_game(name, players=players)
            except Exception:
                continue
            out.append((name, players))
    return out


def spec_of(command: str) -> str:
    """The bot spec of what was given: a spec (`exec:...`, `python:...`) as it is, else a
    command line, as `exec:COMMAND`."""
    text = command.strip()
    return text if text.startswith(("exec:", "python:")) else "exec:" + text


def check(command: str, *, games: int = 2, game_names: Sequence[str] = (),
          move_timeout: float = 5.0, setup_timeout: float = 10.0, seed: int = 1) -> Report:
    """Check the bot `command` runs (see the module doc): the handshake, then `games` games of
    each game and player count against `random`, the bot's seat rotating. After a fault the next
    game starts a fresh process; a configuration stops at its first fault."""
    from ai.bots import make_bot
    from ai.match import BotFault, Referee, play_game
    from ladder.referee.host import ProcessBot
    from ladder.referee.players import make_player
    import engine

    spec = spec_of(command)
    report = Report(spec, move_timeout=move_timeout)

    def start() -> ProcessBot | None:
        began = time.monotonic()
        try:
            bot = make_player(spec, move_timeout=move_timeout, setup_timeout=setup_timeout)
        except BotFault as fault:
            report.problems.append(Problem("handshake", fault.kind, fault.message))
            return None
        except Exception as error:  # a spec that names nothing, a command not found
            report.problems.append(Problem("start", "error", str(error)))
            return None
        if report.handshake_ms is None:
            report.handshake_ms = (time.monotonic() - began) * 1000
            report.name, report.wants = bot.name, tuple(sorted(bot.wants))
        return bot

    bot = start()
    if bot is None:
        return report
    try:
        for name, players in configurations(game_names):
            game = engine.load_game(name, players=players)
            times: list[float] = []
            played = 0
            for index in range(games):
                if bot is None or bot.dead:
                    if bot is not None:
                        bot.close()
                    bot = start()
                    if bot is None:
                        return report
                seat = index % players
                seats: list[Any] = [make_bot(f"random(seed={seed + index * 10 + s})")
                                    for s in range(players)]
                seats[seat] = bot
                referee = Referee(move_timeout, fallback_seed=seed)
                result = play_game(game.new_initial_state(seed + index), seats,
                                   resample_seed=seed + index, referee=referee, trusted=True)
                played += 1
                fault = next((f for f in result.faults if f.seat == seat), None)
                end = len(result.move_times) if fault is None else max(0, fault.move)
                times += [t for t, m in zip(result.move_times[:end], result.movers[:end])
                          if m == seat]  # its own moves, not its stand-in's after a fault
                if fault is not None:
                    where = (f"{name}, {players} player{'s' if players > 1 else ''}, game "
                             f"{index + 1}, decision {fault.move}")
                    report.problems.append(Problem(where, fault.kind, fault.message))
                    break
            report.played.append((name, players, played, times))
    finally:
        if bot is not None:
            bot.close()
    return report
