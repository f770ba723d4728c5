"""Bots for the ladder's tests, named in specs as `python:tests.ladder.bad_bots:FACTORY`.

Some misbehave on purpose (raise, hang, answer illegally, block the timer signal, kill their
own process) at their `after`-th decision, to show that a tournament records the fault and goes
on; two play simple fixed policies of different strength, to show the ladder tells them apart.
"""
from __future__ import annotations

import os
import random
import signal
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
