"""Playing one game between bots: the loop every command (watch, tournaments) uses.

`play_game` alone plays a game and lets any error of a bot propagate (what `tianti watch` wants).
Given a `Referee`, it plays the game the way a tournament must: every call into a bot is timed,
and a bot that raises, runs past the move time limit or returns an illegal action is *faulted*:
the fault is recorded, a seeded random bot plays its seat for the rest of the game (so the other
seats still finish a real game) and the faulted seat is ranked last.
"""
from __future__ import annotations

import hashlib
import operator
import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from ai.bots import Bot, make_bot

# How much of an error message or traceback a fault keeps.
_MESSAGE_LIMIT = 2000
# The least time a bot may take to be made (see Referee.setup_limit).
SETUP_SECONDS = 60.0


class MoveTimeout(BaseException):
    """Raised inside a bot's call when it has run past the move time limit.

    A BaseException, like KeyboardInterrupt, so that a bot's own `except Exception` does not
    swallow it."""


@dataclass
class Fault:
    """Why a bot lost a game by default: `kind` is "error", "timeout" or "illegal"; `move` is the
    index of the decision during which it happened (-1: before the first move)."""

    seat: int
    move: int
    kind: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": self.move, "kind": self.kind, "message": self.message}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Fault":
        return Fault(int(d["seat"]), int(d["move"]), str(d["kind"]), str(d["message"]))


@dataclass
class MoveEvent:
    """One decision as it happened (given to `on_move` before the action is applied)."""

    index: int
    player: int
    action: int
    text: str
    state: Any  # the state before the action


@dataclass
class GameResult:
    """The outcome of a game. `ranks` are the finishing positions (0 = first) with faulted seats
    moved to the bottom; `game_ranks` are the positions the rules give (equal when nobody
    faulted). `move_times[i]` is the time the mover, seat `movers[i]`, spent on decision i (both
    cover only the decisions played by this call)."""

    scores: list[int]
    ranks: list[int]
    returns: list[float]
    actions: list[int]
    record: dict[str, Any] = field(default_factory=dict)
    game_ranks: list[int] = field(default_factory=list)
    move_times: list[float] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)


class Heartbeat(Protocol):
    """Where the referee reports what is going on, so that a watchdog (a thread, or the process
    that started this one) can interrupt or kill a bot that does not come back."""

    def begin(self, seat: int, index: int, limit: float | None) -> None:
        """A call into `seat`'s bot starts, during decision `index`; it may take `limit`
        seconds (None: no limit)."""

    def end(self) -> None:
        """That call has returned (or raised)."""

    def applied(self, index: int, action: int, seconds: float) -> None:
        """Decision `index` was `action`, the mover having thought `seconds`."""

    def faulted(self, faults: list[Fault]) -> None:
        """The faults so far (called when one is added)."""


class NullHeartbeat:
    """A heartbeat nobody listens to."""

    def begin(self, seat: int, index: int, limit: float | None) -> None:
        pass

    def end(self) -> None:
        pass

    def applied(self, index: int, action: int, seconds: float) -> None:
        pass

    def faulted(self, faults: list[Fault]) -> None:
        pass


def derived_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across processes and machines, unlike hash())."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little") >> 1


def forfeit_ranks(game_ranks: Sequence[int], faulted: set[int] | frozenset[int]) -> list[int]:
    """Finishing positions with the faulted seats last: each seat's position is the number of
    seats strictly ahead of it (so ties share a position); faulted seats tie for last."""
    keys = [(seat in faulted, 0 if seat in faulted else game_ranks[seat])
            for seat in range(len(game_ranks))]
    return [sum(1 for other in keys if other < key) for key in keys]


class Referee:
    """Times every call into a bot and turns its failures into faults.

    `move_timeout` (seconds, None = no limit) is checked when a call returns; interrupting a call
    that does not return is the heartbeat's watchdog's job (it raises MoveTimeout inside it).
    `fallback_seed` seeds the random bots that take over faulted seats."""

    def __init__(
        self,
        move_timeout: float | None = None,
        heartbeat: Heartbeat | None = None,
        fallback_seed: int = 0,
        faults: Sequence[Fault] = (),
    ) -> None:
        self.move_timeout = move_timeout
        self.heartbeat: Heartbeat = heartbeat if heartbeat is not None else NullHeartbeat()
        self.fallback_seed = fallback_seed
        self.faults: list[Fault] = list(faults)
        self._faulted: frozenset[int] = frozenset(f.seat for f in self.faults)

    def faulted_seats(self) -> frozenset[int]:
        return self._faulted

    def fallback(self, seat: int) -> Bot:
        """The bot that plays a faulted seat to the end of the game."""
        return make_bot(f"random(seed={derived_seed(self.fallback_seed, 'fallback', seat)})")

    def add_fault(self, fault: Fault) -> None:
        self.faults.append(fault)
        self._faulted = self._faulted | {fault.seat}
        self.heartbeat.faulted(self.faults)

    def call(self, seat: int, index: int, fn: Callable[..., Any], *args: Any,
             limit: float | None | str = "move") -> tuple[Any, float, Fault | None]:
        """Call a bot's method; returns (value, seconds, fault or None). The call may take
        `limit` seconds: by default the move time limit; making a bot gets `setup_limit()`."""
        limit = self.move_timeout if limit == "move" else limit
        what = "the move time limit" if limit == self.move_timeout else "the time limit"
        hb = self.heartbeat
        start = time.perf_counter()
        hb.begin(seat, index, limit)
        try:
            value = fn(*args)
            hb.end()  # inside the try: an alarm arriving just now still counts as a timeout
        except MoveTimeout:
            hb.end()
            seconds = time.perf_counter() - start
            return None, seconds, Fault(
                seat, index, "timeout",
                f"no answer within {what} of {limit:g} s (interrupted after {seconds:.3f} s)")
        except BaseException as e:  # a bot's SystemExit or KeyboardInterrupt loses it the game too
            hb.end()
            seconds = time.perf_counter() - start
            return None, seconds, Fault(seat, index, "error", _describe_exception(e))
        seconds = time.perf_counter() - start
        if limit is not None and seconds > limit:
            return None, seconds, Fault(
                seat, index, "timeout",
                f"answered after {seconds:.3f} s, past {what} of {limit:g} s")
        return value, seconds, None

    def setup_limit(self) -> float | None:
        """How long making a bot may take: its first imports and tables are not a move, so
        at least a minute (no limit when moves have none)."""
        if self.move_timeout is None:
            return None
        return max(SETUP_SECONDS, self.move_timeout)


def _describe_exception(e: BaseException) -> str:
    """The exception and the last frames of its traceback, bounded in length."""
    lines = traceback.format_exception(type(e), e, e.__traceback__, limit=-4)
    text = "".join(lines).strip()
    if len(text) > _MESSAGE_LIMIT:
        text = "..." + text[-_MESSAGE_LIMIT:]
    return text


def play_game(
    state: Any,
    bots: Sequence[Bot],
    on_move: Callable[[MoveEvent], None] | None = None,
    resample_seed: int = 0,
    referee: Referee | None = None,
) -> GameResult:
    """Play `state` to the end, seat i moved by bots[i]. Each bot is handed a determinization
    from its own seat, so it cannot see hidden information.

    Without a referee a bot's error propagates. With one, faults are handled as the module
    docstring says; seats listed in `referee.faults` already are played by the fallback bot.
    `state` may be part-way through a game: the determinization seeds continue as if the game
    had been played from its start with the same `resample_seed`."""
    if len(bots) != state.num_players():
        raise ValueError(f"{len(bots)} bots for a {state.num_players()}-player game")
    rng = random.Random(resample_seed)
    index = state.move_number()
    for _ in range(index):
        rng.randrange(1 << 63)
    seats: list[Bot] = list(bots)
    if referee is not None:
        for seat in referee.faulted_seats():
            seats[seat] = referee.fallback(seat)
        for seat, bot in enumerate(bots):
            if seat not in referee.faulted_seats() and hasattr(bot, "restart"):
                _, _, fault = referee.call(seat, -1, bot.restart)
                if fault is not None:
                    referee.add_fault(fault)
                    seats[seat] = referee.fallback(seat)
    else:
        for bot in seats:
            if hasattr(bot, "restart"):
                bot.restart()
    move_times: list[float] = []
    movers: list[int] = []
    while not state.is_terminal():
        player = state.current_player()
        view = state.resample_from_infostate(player, rng.randrange(1 << 63))
        if referee is None:
            start = time.perf_counter()
            action = seats[player].step(view)
            seconds = time.perf_counter() - start
        else:
            action, seconds = _refereed_step(referee, seats, player, index, view, state)
        if on_move is not None:
            on_move(MoveEvent(index, player, action, state.action_to_string(action), state))
        state.apply_action(action)
        move_times.append(seconds)
        movers.append(player)
        if referee is not None:
            referee.heartbeat.applied(index, action, seconds)
        faulted = referee.faulted_seats() if referee is not None else frozenset()
        for seat, bot in enumerate(seats):
            if seat in faulted or not hasattr(bot, "inform_action"):
                continue
            if referee is None:
                bot.inform_action(state, player, action)
                continue
            _, _, fault = referee.call(seat, index, bot.inform_action, state, player, action)
            if fault is not None:
                referee.add_fault(fault)
                seats[seat] = referee.fallback(seat)
        index += 1
    game_ranks = state.ranks()
    faults = list(referee.faults) if referee is not None else []
    return GameResult(
        scores=state.scores(),
        ranks=forfeit_ranks(game_ranks, {f.seat for f in faults}),
        returns=state.returns(),
        actions=state.history(),
        record=state.to_record(),
        game_ranks=game_ranks,
        move_times=move_times,
        faults=faults,
        movers=movers,
    )


def _is_legal(state: Any, action: Any) -> bool:
    """Whether a bot's answer is one of the legal actions (an integer, not a bool)."""
    if isinstance(action, bool):
        return False
    try:
        return operator.index(action) in state.legal_actions()
    except TypeError:
        return False


def _refereed_step(
    referee: Referee, seats: list[Bot], player: int, index: int, view: Any, state: Any
) -> tuple[int, float]:
    """The mover's action under the referee; a faulted mover is replaced and the replacement
    moves instead (its time is not counted: the seat's time is what its own bot spent)."""
    if player in referee.faulted_seats():
        return seats[player].step(view), 0.0
    action, seconds, fault = referee.call(player, index, seats[player].step, view)
    if fault is None and not _is_legal(state, action):
        try:
            state.clone().apply_action(action)
            message = f"returned {action!r}, which is not a legal action"
        except Exception as e:  # the engine's own explanation (IllegalActionError, TypeError)
            message = f"returned {action!r}: {e}"
        if len(message) > _MESSAGE_LIMIT:
            message = message[:_MESSAGE_LIMIT] + "..."
        fault = Fault(player, index, "illegal", message)
    if fault is None:
        return operator.index(action), seconds
    referee.add_fault(fault)
    seats[player] = referee.fallback(player)
    return seats[player].step(view), seconds
