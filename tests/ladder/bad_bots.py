"""Bots for the ladder's tests, named in specs as `python:tests.ladder.bad_bots:FACTORY`.

Some misbehave on purpose (raise, hang, answer illegally, block the timer signal, kill their
own process) at their `after`-th decision, to show that a tournament records the fault and goes
on; two play simple fixed policies of different strength, to show the ladder tells them apart.
"""
from __future__ import annotations

import os
import random
import signal
import sys
import time
from typing import Any


class _Misbehaving:
    """Plays its first legal action until its `after`-th decision, then misbehaves."""

    def __init__(self, after: str | int = 3) -> None:
        self.after = int(after)
        self.calls = 0

    def step(self, state: Any) -> int:
        self.calls += 1
        if self.calls > self.after:
            return self.misbehave(state)
        return state.legal_actions()[0]

    def misbehave(self, state: Any) -> int:
        raise NotImplementedError


class Raises(_Misbehaving):
    def misbehave(self, state: Any) -> int:
        raise RuntimeError("this bot always fails here")


class Hangs(_Misbehaving):
    def misbehave(self, state: Any) -> int:
        time.sleep(3600)
        return state.legal_actions()[0]


class Spins(_Misbehaving):
    def misbehave(self, state: Any) -> int:
        while True:
            pass


class Illegal(_Misbehaving):
    def misbehave(self, state: Any) -> int:
        return max(state.legal_actions()) + 100_000


class Deaf(_Misbehaving):
    """Hangs with the timer signal blocked: only killing its process stops it."""

    def misbehave(self, state: Any) -> int:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(3600)
        return state.legal_actions()[0]


class Dies(_Misbehaving):
    """Takes its whole process down (as a crash in compiled code would)."""

    def misbehave(self, state: Any) -> int:
        os.kill(os.getpid(), signal.SIGKILL)
        return 0


class BadInform:
    """Plays first-legal moves but raises when told about another player's move."""

    def step(self, state: Any) -> int:
        return state.legal_actions()[0]

    def inform_action(self, state: Any, player: int, action: int) -> None:
        raise ValueError("cannot follow the game")


class First:
    """Always the first legal action."""

    def step(self, state: Any) -> int:
        return state.legal_actions()[0]


class Greedy:
    """One step of lookahead: the action after which its own score leads the others' best by
    the most (ties broken at random, seeded)."""

    def __init__(self, seed: str | int = 0) -> None:
        self.rng = random.Random(int(seed))

    def step(self, state: Any) -> int:
        me = state.current_player()
        best: list[int] = []
        best_value = None
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            scores = child.scores()
            value = scores[me] - max(s for i, s in enumerate(scores) if i != me)
            if best_value is None or value > best_value:
                best, best_value = [a], value
            elif value == best_value:
                best.append(a)
        return self.rng.choice(best)


class Slow:
    """A seeded random player that sleeps `ms` milliseconds before each decision (a game that
    takes long without loading the machine)."""

    def __init__(self, ms: str | float = 1.0, seed: str | int = 0) -> None:
        self.seconds = float(ms) / 1000
        self.rng = random.Random(int(seed))

    def step(self, state: Any) -> int:
        time.sleep(self.seconds)
        return self.rng.choice(state.legal_actions())


def slow(ms: str = "1", seed: str = "0") -> Slow:
    return Slow(ms, seed)


def raises(after: str = "3") -> Raises:
    return Raises(after)


def hangs(after: str = "3") -> Hangs:
    return Hangs(after)


def spins(after: str = "3") -> Spins:
    return Spins(after)


def illegal(after: str = "3") -> Illegal:
    return Illegal(after)


def deaf(after: str = "3") -> Deaf:
    return Deaf(after)


def dies(after: str = "3") -> Dies:
    return Dies(after)


def bad_inform() -> BadInform:
    return BadInform()


def first() -> First:
    return First()


def greedy(seed: str = "0") -> Greedy:
    return Greedy(seed)


def broken_factory() -> Any:
    raise RuntimeError("cannot build this bot")


class Rollout:
    """Flat Monte Carlo: for each legal action, `playouts` random games to the end; plays the
    action whose games end with the best mean finishing position."""

    def __init__(self, playouts: str | int = 1, seed: str | int = 0) -> None:
        self.playouts = int(playouts)
        self.rng = random.Random(int(seed))

    def step(self, state: Any) -> int:
        me = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best, best_value = legal[0], None
        for a in legal:
            total = 0
            for _ in range(self.playouts):
                child = state.clone()
                child.apply_action(a)
                while not child.is_terminal():
                    child.apply_action(self.rng.choice(child.legal_actions()))
                total += child.ranks()[me]
            if best_value is None or total < best_value:
                best, best_value = a, total
        return best


def rollout(playouts: str = "1", seed: str = "0") -> Rollout:
    return Rollout(playouts, seed)


# -- bots that try to reach the referee's state --------------------------------------------------

# Wild values for the engines' test hooks, by hook: each call is tried on its own (a keyword a
# game does not know, or a value it refuses, just skips that call). Seats stay in range: an
# out-of-range seat writes outside the view's memory (an engine matter, not the ladder's).
_WILD_PLAYER = ({"score": 999}, {"yuan": 99, "rice": 99, "fireworks": 99},
                {"reputation": 999}, {"money": 99, "grain": 99, "wine": 99},
                {"hand": []}, {"wildcards": 9}, {"privileges": (5, 5)}, {"track": 99},
                {"talents": []}, {"buildings": []}, {"donation": 9}, {"turn_number": 9})
_WILD_BOARD = ({"month": 12}, {"display": {}}, {"round": 15}, {"piles": [[], [], []]},
               {"virtual_number": 9}, {"supply": []}, {"order": [0]})


def vandalise(state: Any) -> None:
    """Everything a bot could do to what it is handed: every `_debug_*` hook with wild values,
    actions applied to it, lists and dicts it returns mutated, its attributes and its game's
    overwritten or deleted (the game object's class swapped). Never raises."""
    def attempt(fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception:
            return None

    n = attempt(state.num_players) or 1
    for returned in (attempt(state.legal_actions), attempt(state.history)):
        if isinstance(returned, list):
            returned.append(-1)
            returned.reverse()
            returned.clear()
    for returned in (attempt(state.snapshot), attempt(state.to_record)):
        if isinstance(returned, dict):
            for key in list(returned):
                returned[key] = None
            returned["seats"] = []
    for seat in range(n):
        for wild in _WILD_PLAYER:
            attempt(getattr(state, "_debug_set_player", None), seat, **wild)
        attempt(getattr(state, "_debug_policy", None), seat)
    for wild in _WILD_BOARD:
        attempt(getattr(state, "_debug_set_board", None), **wild)
    attempt(getattr(state, "_debug_start_round", None), "action")
    for _ in range(5):  # a few moves on it (whatever comes first)
        legal = attempt(state.legal_actions) or []
        if not legal:
            break
        attempt(state.apply_action, legal[-1])
    attempt(getattr(state, "_debug_run_from", None), "final")
    for name in dir(state):
        if not name.startswith("__"):
            attempt(setattr, state, name, None)
            attempt(delattr, state, name)
    game = getattr(state, "game", None)
    if game is not None:
        options = getattr(game, "options", None)
        if isinstance(options, dict):
            for key in list(options):
                options[key] = 99
            options["players"] = 9
            options["extra"] = "yes"
        attempt(setattr, game, "options", {"players": 1})

        class Impostor(type(game)):  # type: ignore[misc]
            NAME = "impostor"

        attempt(setattr, game, "__class__", Impostor)
        attempt(delattr, game, "options")


class MutatingBot:
    """Plays the first legal action of the view it is given (read before touching it), and
    vandalises whatever it is handed, in `step` and `inform_action` alike: a referee that hands
    bots views plays exactly the game `Polite` plays."""

    def step(self, state: Any) -> int:
        action = state.legal_actions()[0]
        vandalise(state)
        return action

    def inform_action(self, state: Any, player: int, action: int) -> None:
        vandalise(state)


class Polite:
    """MutatingBot's twin that touches nothing: the first legal action; informed, it only
    checks that it was told plain ints."""

    def step(self, state: Any) -> int:
        return state.legal_actions()[0]

    def inform_action(self, state: Any, player: int, action: int) -> None:
        if type(player) is not int or type(action) is not int:
            raise TypeError(f"informed of {player!r}, {action!r}: not plain ints")


class Tamperer:
    """Plays first-legal moves, but at its `after`-th decision walks up the call stack to the
    referee's own state (a local called `state` that is not what it was given) and sets its own
    score to 999 there: what no view allows, but the process does."""

    def __init__(self, after: str | int = 3) -> None:
        self.after = int(after)
        self.calls = 0
        self.reached = False

    def step(self, state: Any) -> int:
        self.calls += 1
        action = state.legal_actions()[0]
        if self.calls > self.after and not self.reached:
            frame = sys._getframe(1)
            while frame is not None:
                found = frame.f_locals.get("state")
                if found is not None and found is not state and hasattr(found, "raw_bytes"):
                    found._debug_set_player(found.current_player(), score=999)
                    self.reached = True
                    break
                frame = frame.f_back
        return action


class TwoFaced:
    """Answers an object whose `__index__` gives the first legal action the first time it is
    asked and an illegal number afterwards (or the other way round, `illegal_first`)."""

    def __init__(self, illegal_first: bool = False) -> None:
        self.illegal_first = illegal_first
        self.given: list[int] = []

    def step(self, state: Any) -> Any:
        legal = state.legal_actions()[0]
        answers = [max(state.legal_actions()) + 100_000, legal]
        if not self.illegal_first:
            answers.reverse()
        class Answer:
            asked = 0

            def __index__(self) -> int:
                value = answers[min(Answer.asked, 1)]
                Answer.asked += 1
                return value

        self.given.append(answers[0])
        return Answer()


def mutating() -> MutatingBot:
    return MutatingBot()


def polite() -> Polite:
    return Polite()


# -- answers, attributes and constructors that misbehave where the referee looks at them ---------

class _Answer:
    """An answer whose conversion to an int (or whose repr, or whose description) is the
    misbehaviour: `how` is raise, sleep, exit (sys.exit), os_exit, or repr_exit (no __index__,
    and a repr that calls sys.exit)."""

    def __init__(self, how: str, value: int) -> None:
        self.how = how
        self.value = value

    def __index__(self) -> int:
        how = self.how
        if how == "raise":
            raise RuntimeError("this answer cannot be read")
        if how == "sleep":
            time.sleep(3600)
        if how == "exit":
            sys.exit(3)
        if how == "os_exit":
            os._exit(0)
        if how == "repr_exit":
            raise TypeError("not an integer")  # so the referee shows it with repr()
        return self.value

    def __repr__(self) -> str:
        if self.how == "repr_exit":
            sys.exit(4)
        return f"_Answer({self.how})"


class BadAnswer(_Misbehaving):
    """Answers a `_Answer(how)` at its `after`-th decision."""

    def __init__(self, how: str = "raise", after: str | int = 3) -> None:
        super().__init__(after)
        self.how = how

    def misbehave(self, state: Any) -> Any:
        return _Answer(self.how, state.legal_actions()[0])


def bad_answer(how: str = "raise", after: str = "3") -> BadAnswer:
    return BadAnswer(how, after)


class _Unspeakable(Exception):
    """An exception whose description is the misbehaviour (exits, or sleeps)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how

    def __str__(self) -> str:
        if self.how == "exit":
            sys.exit(5)
        time.sleep(3600)
        return "never"


class BadException(_Misbehaving):
    """Raises an exception whose `__str__` exits (`how=exit`) or sleeps (`how=sleep`)."""

    def __init__(self, how: str = "exit", after: str | int = 3) -> None:
        super().__init__(after)
        self.how = how

    def misbehave(self, state: Any) -> Any:
        raise _Unspeakable(self.how)


def bad_exception(how: str = "exit", after: str = "3") -> BadException:
    return BadException(how, after)


class Elusive:
    """Plays first-legal moves, but asking it whether it has `restart` or `inform_action` runs
    its `__getattr__`, which misbehaves (`how`: raise, sleep, exit)."""

    def __init__(self, how: str = "sleep") -> None:
        self.how = how

    def step(self, state: Any) -> int:
        return state.legal_actions()[0]

    def __getattr__(self, name: str) -> Any:
        if self.how == "raise":
            raise RuntimeError(f"no {name} here")
        if self.how == "exit":
            sys.exit(6)
        time.sleep(3600)
        raise AttributeError(name)


def elusive(how: str = "sleep") -> Elusive:
    return Elusive(how)


def make_and_misbehave(how: str = "hang") -> Any:
    """A factory that prints, then misbehaves instead of making a bot (`how`: hang, exit
    (sys.exit(0)), os_exit, raise, kill (SIGKILL to its own process)); `ok`: it makes one."""
    print("making the bot ...")
    sys.stderr.write("a warning from the constructor\n")
    if how == "hang":
        time.sleep(3600)
    elif how == "exit":
        sys.exit(0)
    elif how == "os_exit":
        os._exit(3)
    elif how == "raise":
        raise RuntimeError("no bot today")
    elif how == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    return First()


# -- a bot that prints, forks and thinks slowly, and its well-behaved twin -----------------------

class Twin:
    """A seeded random player (one draw per decision, so its moves depend only on its seed
    and the decisions it is asked)."""

    def __init__(self, seed: str | int = 0) -> None:
        self.rng = random.Random(int(seed))

    def step(self, state: Any) -> int:
        return self.rng.choice(state.legal_actions())


class Noisy(Twin):
    """`Twin`'s moves, with bad manners: prints to stdout and stderr at every decision (through
    `print`, `sys.stderr` and the file descriptors), sleeps `ms` milliseconds, and at its first
    decision forks itself (the child returns a move too), starts a process in its own session
    that would sleep a minute, and writes the pids of both to `pids` (a directory) if given."""

    def __init__(self, seed: str | int = 0, ms: str | float = 2, pids: str = "") -> None:
        super().__init__(seed)
        self.seconds = float(ms) / 1000
        self.pids = pids
        self.calls = 0

    def step(self, state: Any) -> int:
        import subprocess

        self.calls += 1
        action = super().step(state)
        print(f"noisy: thinking about decision {self.calls}")
        sys.stderr.write("noisy: a line on stderr\n")
        os.write(1, b"noisy: straight to fd 1\n")
        os.write(2, b"noisy: straight to fd 2\n")
        if self.calls == 1:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                                     start_new_session=True)
            forked = os.fork()
            if forked == 0:  # the child plays on as if it were the bot; the referee ends it
                return action
            if self.pids:
                for pid in (child.pid, forked):
                    with open(os.path.join(self.pids, str(pid)), "w") as f:
                        f.write("bot child\n")
        time.sleep(self.seconds)
        return action


def twin(seed: str = "0") -> Twin:
    return Twin(seed)


def noisy(seed: str = "0", ms: str = "2", pids: str = "") -> Noisy:
    return Noisy(seed, ms, pids)


class Sleepy(First):
    """First-legal moves; at its `after`-th decision writes its pid to the file `marker`
    (once: if the file does not exist yet) and sleeps `seconds` (within the move time limit):
    the moment for a test to kill or stop its worker from outside, during its call."""

    def __init__(self, after: str | int = 3, seconds: str | float = 3, marker: str = "") -> None:
        self.after = int(after)
        self.seconds = float(seconds)
        self.marker = marker
        self.calls = 0

    def step(self, state: Any) -> int:
        self.calls += 1
        if self.calls == self.after and self.marker and not os.path.exists(self.marker):
            with open(self.marker + ".tmp", "w") as f:
                f.write(str(os.getpid()))
            os.rename(self.marker + ".tmp", self.marker)
            time.sleep(self.seconds)
        return super().step(state)


def sleepy(after: str = "3", seconds: str = "3", marker: str = "") -> Sleepy:
    return Sleepy(after, seconds, marker)


class Assassin(First):
    """At its `after`-th decision starts a thread that kills its process with SIGKILL: from
    a thread of its own, which the worker cannot tell from a kill from outside."""

    def __init__(self, after: str | int = 3) -> None:
        self.after = int(after)
        self.calls = 0

    def step(self, state: Any) -> int:
        import threading

        self.calls += 1
        if self.calls == self.after:
            threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGKILL)).start()
        return super().step(state)


def assassin(after: str = "3") -> Assassin:
    return Assassin(after)


class Saboteur(First):
    """At its `after`-th decision breaks the worker's own code (the function that encodes a
    finished game): the game then fails outside any bot's call, which no referee can pin on
    anyone."""

    def __init__(self, after: str | int = 3) -> None:
        self.after = int(after)
        self.calls = 0

    def step(self, state: Any) -> int:
        self.calls += 1
        if self.calls == self.after:
            import ladder.tournament.worker

            def broken(values: Any) -> str:
                raise RuntimeError("sabotaged")

            ladder.tournament.worker._compact = broken  # type: ignore[assignment]
        return super().step(state)


def saboteur(after: str = "3") -> Saboteur:
    return Saboteur(after)
