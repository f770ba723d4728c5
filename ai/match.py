"""Playing one game between bots: the referee's loop, the one `ai.evaluate`, self-play and the
ladder (watch, play, tournaments) all use.

`play_game` alone plays a game and lets any error of a bot propagate (what `tianti watch` wants).
Given a `Referee`, it plays the game the way a tournament must: every call into a bot is timed,
and a bot that raises, runs past the move time limit or returns an illegal action is *faulted*:
the fault is recorded, a seeded random bot plays its seat for the rest of the game (so the other
seats still finish a real game) and the faulted seat is ranked last.

Hidden information is sacred (DESIGN.md, "Events and views"): the state the referee plays on
never leaves `play_game`. Every call into a bot (`step`, `inform_action`) gets a determinization
of the bot's own seat made for that call, an answer is turned into a plain int once and that
very int is checked and played, and after every call the referee checks that its own state (and
the game options it shares with the views) is as it was: a bot that changed it anyway (through
the process, not through what it was given) loses the game and the game goes on from a replay
of the moves.

A bot that plays from a process of its own (the ladder's `ProcessBot`, its class marked with
`plays_remotely`) runs none of its code here: the loop sends it what its seat sees of each
decision, and it fails by raising `BotFault`. This module knows such bots only by that mark, so
that it stands below the ladder (engine < ai < ladder).
"""
from __future__ import annotations

import copy
import hashlib
import operator
import os
import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from ai.bots import Bot, make_bot
from engine.core.errors import TiantiError

# How much of an error message or traceback a fault keeps.
_MESSAGE_LIMIT = 2000
# How long a bot may take to be made (see Referee.setup_limit): SETUP_MOVES times the move time
# limit, at most SETUP_SECONDS unless a single move may take longer.
SETUP_MOVES = 10
SETUP_SECONDS = 60.0


class BotFault(TiantiError):
    """A bot process failed in one of the protocol's ways; `kind` is "error", "timeout",
    "invalid" or "crashed". Raised inside the referee's timed call, which records it."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


# The classes whose bots play from a process of their own (see `plays_remotely`): exact classes,
# not their subclasses.
_REMOTE: set[type] = set()


def plays_remotely(cls: type) -> type:
    """Mark `cls` (a class decorator) as a bot that plays from a process of its own: none of its
    code runs in the referee's process, so a game whose every seat is one needs no state guard,
    and `play_game` sends it what its seat sees: `begin(state, seat)` when the game starts,
    `observe(state, index, player, action, text)` after every decision (`text` only when its
    `lean` attribute is false). It fails by raising `BotFault`."""
    _REMOTE.add(cls)
    return cls


def is_remote(bot: Any) -> bool:
    """Whether `bot` plays from a process of its own (its exact class is `plays_remotely`)."""
    return type(bot) in _REMOTE


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


class StateTampered(RuntimeError):
    """A bot changed the referee's own state (or the game options it shares with the views)
    during one of its calls, and no referee was there to fault it."""


@dataclass
class MoveEvent:
    """One decision as it happened (given to `on_move` before the action is applied).

    `state` is a copy of the state before the action (the whole truth, for a spectator such as
    `tianti watch`), never the referee's own object: changing it changes nothing in the game."""

    index: int
    player: int
    action: int
    text: str
    state: Any  # a copy of the state before the action


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


class CallGuard(Protocol):
    """What surrounds every call into a bot besides its timing: the process a tournament
    worker plays in puts the bot's output into its own file and, once the call is over, takes
    back what the bot may have changed in the process (signal handlers, `sys.stdout`, ...).

    `enter(seat)` runs just before the call, `leave(seat)` just after it (also after a
    timeout or an error): neither runs any code of the bot's."""

    def enter(self, seat: int) -> None:
        ...

    def leave(self, seat: int) -> None:
        ...


class NullGuard:
    """No guard: the bot's output goes where the process's goes (what `tianti watch` wants)."""

    def enter(self, seat: int) -> None:
        pass

    def leave(self, seat: int) -> None:
        pass


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
    `fallback_seed` seeds the random bots that take over faulted seats. `trusted` says that no
    user's code runs in this process (see `play_game`): no call needs the check for a process a
    bot forked (see `call`)."""

    def __init__(
        self,
        move_timeout: float | None = None,
        heartbeat: Heartbeat | None = None,
        fallback_seed: int = 0,
        faults: Sequence[Fault] = (),
        guard: CallGuard | None = None,
        trusted: bool = False,
    ) -> None:
        self.move_timeout = move_timeout
        # tianti's own bots only (see play_game): none forks a process that could come back
        self.trusted = trusted
        self.heartbeat: Heartbeat = heartbeat if heartbeat is not None else NullHeartbeat()
        self.guard: CallGuard = guard if guard is not None else NullGuard()
        self._pid = os.getpid()
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
        `limit` seconds: by default the move time limit; making a bot gets `setup_limit()`.

        Everything of the bot's runs inside the timed call: `fn` itself and, when it raises,
        the description of its exception (`str()` of a bot's exception is the bot's code, and
        so are the destructors of what its traceback held). A process the bot forked that comes
        back through here ends at once: only the process that plays may go on."""
        limit = self.move_timeout if limit == "move" else limit
        hb = self.heartbeat
        guard = self.guard
        quiet = type(guard) is NullGuard  # (the common case: nothing to enter or leave)
        error: str | None = None
        kind = "error"
        if not quiet:
            guard.enter(seat)
        start = time.perf_counter()
        hb.begin(seat, index, limit)
        try:
            try:
                value = fn(*args)
            except MoveTimeout:
                raise
            except BotFault as e:  # a bot in its own process failed in a protocol's way
                error, kind, value = e.message, e.kind, None
            except BaseException as e:  # a bot's SystemExit or KeyboardInterrupt loses it too
                self._forked_child_ends()
                error = _describe_exception_safely(e)
                value = None
            if not self.trusted:
                self._forked_child_ends()
            hb.end()  # inside the try: an alarm arriving just now still counts as a timeout
        except MoveTimeout:
            self._forked_child_ends()
            hb.end()
            seconds = time.perf_counter() - start
            guard.leave(seat)
            return None, seconds, Fault(
                seat, index, "timeout",
                f"no answer within {self._what(limit)} of {limit:g} s (interrupted after "
                f"{seconds:.3f} s)")
        seconds = time.perf_counter() - start
        if not quiet:
            guard.leave(seat)
        if error is None and (limit is None or seconds <= limit):
            return value, seconds, None
        if error is not None and kind != "error":
            return None, seconds, Fault(seat, index, kind, error)
        if error is not None and limit is not None and seconds > limit:
            # e.g. an interrupt swallowed while describing its exception: late all the same
            last = error.strip().splitlines()[-1] if error.strip() else ""
            return None, seconds, Fault(
                seat, index, "timeout",
                f"no answer within {self._what(limit)} of {limit:g} s (it failed after "
                f"{seconds:.3f} s: {last[:300]})")
        if error is not None:
            return None, seconds, Fault(seat, index, "error", error)
        return None, seconds, Fault(
            seat, index, "timeout",
            f"answered after {seconds:.3f} s, past {self._what(limit)} of {limit:g} s")

    def _what(self, limit: float | None) -> str:
        """The name of a call's time limit in a fault's message."""
        return "the move time limit" if limit == self.move_timeout else "the time limit"

    def _forked_child_ends(self) -> None:
        """In a process a bot forked during its call (and that returned from it), end that
        process now, before it writes to the heartbeat or plays on."""
        if not self.trusted and os.getpid() != self._pid:
            os._exit(0)

    def setup_limit(self) -> float | None:
        """How long making a bot may take: its first imports and tables are not a move, so
        `SETUP_MOVES` moves' time, at most `SETUP_SECONDS` unless one move may take longer (no
        limit when moves have none)."""
        return setup_limit(self.move_timeout)


def setup_limit(move_timeout: float | None) -> float | None:
    """How long making a bot may take under a move time limit of `move_timeout` seconds."""
    if move_timeout is None:
        return None
    return max(move_timeout, min(SETUP_SECONDS, SETUP_MOVES * move_timeout))


def _describe_exception(e: BaseException) -> str:
    """The exception and the last frames of its traceback, bounded in length."""
    lines = traceback.format_exception(type(e), e, e.__traceback__, limit=-4)
    text = "".join(lines).strip()
    if len(text) > _MESSAGE_LIMIT:
        text = "..." + text[-_MESSAGE_LIMIT:]
    return text


def _describe_exception_safely(e: BaseException) -> str:
    """`_describe_exception`, or a plain line when describing it fails (a bot's exception
    whose `__str__` raises, or exits): MoveTimeout still propagates."""
    try:
        return _describe_exception(e)
    except MoveTimeout:
        raise
    except BaseException:
        try:
            name = type(e).__qualname__
        except MoveTimeout:
            raise
        except BaseException:
            name = "?"
        return f"raised an exception of type {name!s:.100} that could not be described"


@dataclass
class _Methods:
    """A bot's methods, looked up once inside a timed call (an attribute lookup can run the
    bot's code: a `__getattr__`, a property): `inform_action` and `restart` are None when the
    bot has none."""

    step: Callable[[Any], Any]
    inform_action: Callable[[Any, int, int], Any] | None
    restart: Callable[[], Any] | None


def _bind(bot: Any) -> _Methods:
    """The methods of `bot` (see `_Methods`); TypeError if it has no callable `step`."""
    step = getattr(bot, "step", None)
    if not callable(step):
        raise TypeError(f"the bot has no step() method (it is a {type(bot).__qualname__})")
    inform = getattr(bot, "inform_action", None)
    restart = getattr(bot, "restart", None)
    return _Methods(step, inform if callable(inform) else None,
                    restart if callable(restart) else None)


class _NotAnAction:
    """A bot's answer that is no integer (or is a bool), shown as text made inside the bot's
    timed call (its repr is the bot's code too)."""

    def __init__(self, shown: str) -> None:
        self.shown = shown


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


def _answer(step: Callable[[Any], Any], view: Any) -> int | _NotAnAction:
    """The bot's answer to `view` as a plain int, converted once (operator.index), so that the
    value checked for legality is exactly the value played, whatever `__index__` or `__eq__`
    the answer's type has. Runs inside the bot's timed call."""
    answer = step(view)
    if isinstance(answer, bool):
        return _NotAnAction(_shown(answer))
    try:
        return operator.index(answer)
    except TypeError:
        return _NotAnAction(_shown(answer))


class StateGuard:
    """What the referee checks after every call into a bot: that its own state is unchanged
    (its raw bytes and its number of moves) and that the game object it shares with every view
    (`view.game`, whose options go into the record) still holds the options it started with.

    A bot cannot reach the referee's state through what it is given, but it runs in the
    referee's process: through the stack, the garbage collector or an unchecked write it could
    still find it, and a tournament must not store a game it changed."""

    def __init__(self, state: Any) -> None:
        self.name = state.game.name
        self.seed = state.seed
        self._game_type = type(state.game)
        self._game_attrs = copy.deepcopy(vars(state.game))
        self.options: dict[str, Any] = copy.deepcopy(state.game.options)
        self.remember(state)

    def remember(self, state: Any) -> None:
        """`state` is now the referee's state as it should be."""
        self.game = state.game
        self._raw = state.raw_bytes()
        self._moves = state.move_number()

    def restore_game(self) -> None:
        """Put back the game object's class and attributes (options) as they were at the start
        (unconditionally: comparing would call whatever `__eq__` a bot put there)."""
        game = self.game
        if type(game) is not self._game_type:
            game.__class__ = self._game_type
        attrs = vars(game)
        attrs.clear()
        attrs.update(copy.deepcopy(self._game_attrs))

    def intact(self, state: Any) -> bool:
        """Whether `state` is as remembered (the game object is restored first)."""
        self.restore_game()
        return state.move_number() == self._moves and state.raw_bytes() == self._raw

    def rebuilt(self, actions: Sequence[int]) -> Any:
        """The true state again: the initial state of the game's seed with `actions` replayed."""
        from engine.core.state import State

        record = {"game": self.name, "options": copy.deepcopy(self.options), "seed": self.seed,
                  "actions": [int(a) for a in actions]}
        state = State.from_record(record)
        self._game_type = type(state.game)
        self.remember(state)
        return state


def play_game(
    state: Any,
    bots: Sequence[Bot],
    on_move: Callable[[MoveEvent], None] | None = None,
    resample_seed: int = 0,
    referee: Referee | None = None,
    trusted: bool = False,
) -> GameResult:
    """Play `state` to the end, seat i moved by bots[i]. Each bot is handed a determinization
    from its own seat, so it cannot see hidden information: `step(view)` a view of the mover's
    seat, `inform_action(view, player, action)` (after each move, to every bot that has it) a
    view of the informed bot's own seat, with `player` and `action` plain ints. The referee's
    `state` itself is never handed to a bot, nor to `on_move` (which gets a copy).

    The step views' seeds are drawn in turn from `random.Random(resample_seed)` (one per
    decision, as always); the inform views' seeds are `derived_seed(resample_seed, "inform",
    index, seat)`, a separate stream, so a game is reproducible from (seed, resample_seed).

    Without a referee a bot's error propagates (a bot that changes the referee's state raises
    StateTampered). With one, faults are handled as the module docstring says; seats listed in
    `referee.faults` already are played by the fallback bot. `state` may be part-way through a
    game: the determinization seeds continue as if the game had been played from its start with
    the same `resample_seed`. (Only if a bot changed the referee's state does the game go on
    from a replayed copy, `state` being left as the bot made it: the result is the true game.)

    `trusted` says that no user's code runs in this process: every bot is tianti's own (made by
    `ai.bots.make_bot` from a built-in spec) or plays from a process of its own (`python:`,
    `exec:`): the game is played without the state guard's snapshot and check after each call.
    The bots still get views, never `state`."""
    if len(bots) != state.num_players():
        raise ValueError(f"{len(bots)} bots for a {state.num_players()}-player game")
    rng = random.Random(resample_seed)
    index = state.move_number()
    for _ in range(index):
        rng.randrange(1 << 63)
    # every seat played from a process of its own (or by the referee's fallback): no bot's code
    # runs in this process, so the state cannot have been changed by one (the check costs a
    # deep copy of the game's attributes at every call); a trusted game (tianti's own bots)
    # needs no guard either
    outside = all(bot is None or is_remote(bot) for bot in bots)
    guard = None if trusted or outside else StateGuard(state)
    history: list[int] = state.history()
    # each seat's bot methods, looked up once (inside a timed call under a referee)
    seats: list[_Methods | None] = [None] * len(bots)

    def tampered(seat: int, what: str) -> bool:
        """After a call into seat's bot: False if the referee's state is intact; otherwise the
        bot is faulted (or StateTampered raised) and the state rebuilt from the moves."""
        nonlocal state
        if guard is None or guard.intact(state):
            return False
        message = (f"changed the referee's own game state during {what} (a bot is only ever "
                   "given a view of its seat)")
        if referee is None:
            raise StateTampered(f"the bot of seat {seat} {message}")
        referee.add_fault(Fault(seat, index, "error", message))
        seats[seat] = _bind(referee.fallback(seat))
        state = guard.rebuilt(history)
        return True

    def refereed_step(referee: Referee, player: int, view_seed: int) -> tuple[int, float]:
        """The mover's action under the referee, a plain int; a faulted mover is replaced and
        the replacement moves instead (its time is not counted: the seat's time is what its own
        bot spent). Each bot asked gets its own view from `view_seed`: the replacement a fresh
        one, equal to the first as it was made (the faulted bot may have changed its own)."""
        if player not in referee.faulted_seats():
            view = state.resample_from_infostate(player, view_seed)
            answer, seconds, fault = referee.call(player, index, _answer, seats[player].step, view)
            if (fault is None and guard is None and type(answer) is int
                    and state.is_legal(answer)):
                return answer, seconds  # the usual case, as the last branch below
            if tampered(player, "step()"):
                fault = None  # faulted for that already
            elif fault is None and isinstance(answer, _NotAnAction):
                fault = Fault(player, index, "illegal",
                              f"returned {answer.shown}, which is not an integer action")
            elif fault is None and not state.is_legal(answer):
                try:
                    state.clone().apply_action(answer)
                    message = f"returned {answer!r}, which is not a legal action"
                except Exception as e:  # the engine's own explanation (IllegalActionError)
                    message = f"returned {answer!r}: {e}"
                if len(message) > _MESSAGE_LIMIT:
                    message = message[:_MESSAGE_LIMIT] + "..."
                fault = Fault(player, index, "illegal", message)
            elif fault is None:
                return answer, seconds
            if fault is not None:
                referee.add_fault(fault)
                seats[player] = _bind(referee.fallback(player))
        else:
            seconds = 0.0
        view = state.resample_from_infostate(player, view_seed)
        return operator.index(seats[player].step(view)), seconds  # type: ignore[union-attr]

    def refereed_bind(referee: Referee, seat: int, bot: Any) -> None:
        """Seat `bot` (its methods looked up in a timed call), then restart it if it can."""
        methods, _, fault = referee.call(seat, -1, _bind, bot)
        if tampered(seat, "setting it up"):
            return
        if fault is None and methods.restart is not None:
            _, _, fault = referee.call(seat, -1, methods.restart)
            if tampered(seat, "restart()"):
                return
        if fault is not None:
            referee.add_fault(fault)
            seats[seat] = _bind(referee.fallback(seat))
        else:
            seats[seat] = methods

    if referee is not None:
        for seat in referee.faulted_seats():
            seats[seat] = _bind(referee.fallback(seat))
        for seat, bot in enumerate(bots):
            if seat not in referee.faulted_seats():
                refereed_bind(referee, seat, bot)
    else:
        for seat, bot in enumerate(bots):
            seats[seat] = methods = _bind(bot)
            if methods.restart is not None:
                methods.restart()
                tampered(seat, "restart()")
    # bots in processes of their own are sent what their seat sees of each decision
    feeds = [(seat, bot) for seat, bot in enumerate(bots) if is_remote(bot)]
    for seat, bot in feeds:
        if referee is None or seat not in referee.faulted_seats():
            bot.begin(state, seat)
    move_times: list[float] = []
    movers: list[int] = []
    # the action's text, for the process bots sent full (not lean) messages
    with_text = any(not b.lean for _, b in feeds)
    applied = referee.heartbeat.applied if referee is not None else None
    # whether any seat's bot has inform_action (looked at again after a fault: a seat's bot
    # changes only then)
    informed = any(m is not None and m.inform_action is not None for m in seats)
    faults_seen = len(referee.faults) if referee is not None else 0
    getrandbits = rng.getrandbits
    while not state.is_terminal():
        player = state.current_player()
        # rng.randrange(1 << 63), drawn as it draws (64 bits until one below 2**63)
        step_seed = getrandbits(64)
        while step_seed >> 63:
            step_seed = getrandbits(64)
        if referee is None:
            view = state.resample_from_infostate(player, step_seed)
            start = time.perf_counter()
            answer = _answer(seats[player].step, view)  # type: ignore[union-attr]
            seconds = time.perf_counter() - start
            tampered(player, "step()")
            if isinstance(answer, _NotAnAction):
                from engine.core.errors import IllegalActionError

                raise IllegalActionError(
                    f"the bot of seat {player} returned {answer.shown}, which is not an action")
            action = answer
        else:
            action, seconds = refereed_step(referee, player, step_seed)
        if on_move is not None:
            on_move(MoveEvent(index, player, action, state.action_to_string(action),
                              state.clone()))
            if guard is not None:
                guard.restore_game()
        text = state.action_to_string(action) if with_text else ""
        state.apply_action(action)
        history.append(action)
        for seat, bot in feeds:
            if referee is None or seat not in referee.faulted_seats():
                bot.observe(state, index, player, action, text)
        if guard is not None:
            guard.remember(state)
        move_times.append(seconds)
        movers.append(player)
        if applied is not None:
            applied(index, action, seconds)
            if len(referee.faults) != faults_seen:  # type: ignore[union-attr]
                faults_seen = len(referee.faults)  # type: ignore[union-attr]
                informed = any(m is not None and m.inform_action is not None for m in seats)
        for seat in range(len(seats) if informed else 0):
            inform = seats[seat].inform_action  # type: ignore[union-attr]
            if inform is None or (referee is not None and seat in referee.faulted_seats()):
                continue
            view = state.resample_from_infostate(
                seat, derived_seed(resample_seed, "inform", index, seat))
            if referee is None:
                inform(view, player, action)
                tampered(seat, "inform_action()")
                continue
            _, _, fault = referee.call(seat, index, inform, view, player, action)
            if not tampered(seat, "inform_action()") and fault is not None:
                referee.add_fault(fault)
                seats[seat] = _bind(referee.fallback(seat))
        index += 1
    if guard is not None:
        guard.restore_game()
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
