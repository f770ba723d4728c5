"""Hints a person can read: what a search's numbers mean, which moves are about equal, and an AI
move's own estimate (no terminal I/O here).

A search bot's analysis (`analyse(view)` or its `last` after `step`) gives, for each root move,
its visits and its mean reward. What that mean *is* depends on the search's reward and the game:
the estimated chance to win (ties shared), or to reach the goal in a solo game, an expected
placing, or a score margin. `meaning()` says which, so that the person never sees an unlabelled
"value"; `about_equal()` says which of the top moves the search cannot tell apart.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.core.text import WIDTH, display_width, fill

# Two moves are "about equal" when their estimates differ by less than this (3 points of
# percentage) or by less than the noise their visit counts leave (see `about_equal`).
CLOSE = 0.03
Z = 1.96  # the half-width of a 95% interval, in standard errors


@dataclass(frozen=True)
class Meaning:
    """What a search's mean reward is, in words: `noun` fits "62% <noun>" ("chance to win"),
    `sentence` explains it once."""

    noun: str
    sentence: str


def search_config(bot: Any) -> dict[str, Any]:
    """The search configuration of a bot (SearchBot, StrongBot), or {} for other bots."""
    try:
        searcher = getattr(bot, "searcher", None)
    except RuntimeError:  # a strong bot that has not searched yet
        return {}
    config = getattr(searcher, "config", None)
    return dict(config) if isinstance(config, dict) else {}


def meaning(config: dict[str, Any], players: int) -> Meaning:
    """What the mean reward of a search with `config` is in a game of `players` seats."""
    estimated = ("estimated from playouts cut after "
                 f"{config['cutoff']} steps and scored by the game's evaluation"
                 if config.get("cutoff") else "estimated from playouts to the game's end")
    if players == 1:
        return Meaning("chance to reach the goal",
                       f"the estimated chance to reach the solo game's goal ({estimated})")
    reward = config.get("reward", "win")
    if reward == "rank":
        return Meaning("expected placing",
                       "the expected placing (100% = first, 0% = last; "
                       f"{estimated})")
    if reward == "margin":
        return Meaning("score-margin estimate",
                       "the expected score margin over the best opponent (50% = level, "
                       f"100% = far ahead; {estimated})")
    return Meaning("chance to win",
                   f"the estimated chance to win (a tie counts as a share; {estimated})")


def percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _noise(value: float, visits: int) -> float:
    """The standard error of a mean reward in [0, 1] after `visits` playouts (its variance is
    at most value * (1 - value))."""
    v = min(max(value, 0.0), 1.0)
    return math.sqrt(max(v * (1 - v), 1e-4) / max(visits, 1))


def about_equal(best: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether the search cannot tell `other` from `best` (each a root entry with `value` and
    `visits`): their estimates are within 3 points, or within what their visit counts leave
    uncertain (95% intervals of the difference)."""
    diff = abs(best["value"] - other["value"])
    spread = Z * math.hypot(_noise(best["value"], best["visits"]),
                            _noise(other["value"], other["visits"]))
    return diff < CLOSE or diff <= spread


@dataclass
class Hint:
    """The hint bot's answer at a decision, ready to be worded."""

    action: int
    text: str
    number: int | None = None               # the choice's number as shown at the prompt
    seconds: float | None = None
    iterations: int | None = None
    meaning: Meaning | None = None
    top: list[dict[str, Any]] = field(default_factory=list)  # number, text, visits, value

    def equal_to_best(self) -> list[dict[str, Any]]:
        """The top moves (after the first) that are about equal to the first."""
        if not self.top:
            return []
        return [t for t in self.top[1:] if about_equal(self.top[0], t)]

    def lines(self, width: int = WIDTH) -> list[str]:
        """The hint in words, each line at most `width` columns (a long line continues under
        its own text)."""
        out: list[str] = []
        for prefix, body in self._text():
            room = width - display_width(prefix)
            if display_width(body) <= room:
                out.append(prefix + body)
                continue
            lead = " " * display_width(prefix) if prefix else "  "
            first, *rest = fill(body, room if prefix else width, lead if prefix else "  ")
            out.append(prefix + first)
            out.extend(rest)
        return out

    def _text(self) -> list[tuple[str, str]]:
        """The hint's lines as (a prefix kept as it is, the text that may wrap)."""
        head = f"hint: {self.number}. {self.text}" if self.number else f"hint: {self.text}"
        out = [("", head)]
        if not self.top or self.meaning is None:
            out.append(("", "(this bot gives no estimates: it only names its move)"))
            return out
        searched = ""
        if self.seconds is not None:
            searched = f", after {_seconds(self.seconds)} of search"
            if self.iterations:
                searched += f" ({self.iterations:,} playouts)"
        out.append(("", f"The % is {self.meaning.sentence}{searched}:"))
        for t in self.top:
            number = f"{t['number']:>3}." if t.get("number") else "    "
            out.append((f"  {number} {percent(t['value']):>4}  ",
                        f"{t['text']} ({t['visits']:,} visits)"))
        out.append(("", self.verdict()))
        return out

    def verdict(self) -> str:
        """Whether the best move is clearly ahead, or which moves are about equal to it."""
        if len(self.top) < 2:
            return "It is the only move the search looked at."
        values = {round(t["value"], 6) for t in self.top}
        if len(values) == 1:
            return (f"All {len(self.top)} are about equal: the search cannot tell them apart "
                    f"(each {percent(self.top[0]['value'])}).")
        equal = self.equal_to_best()
        if not equal:
            gap = round(100 * self.top[0]["value"]) - round(100 * self.top[1]["value"])
            first = self.top[0].get("number")
            name = str(first) if first else "The first"
            return (f"{name} is clearly ahead ({gap} points over the next, more than the "
                    "search's visits leave uncertain).")
        names = [str(t.get("number") or t["text"]) for t in [self.top[0], *equal]]
        listed = ", ".join(names[:-1]) + " and " + names[-1]
        return (f"{listed} are about equal (within 3 points, or closer than the search's "
                "visits can tell apart).")


def _seconds(seconds: float) -> str:
    """'1.2 s', '0.04 s'."""
    return f"{seconds:.1f} s" if seconds >= 0.1 else f"{seconds:.2f} s"


def thinking(last: Any, action: int, config: dict[str, Any], players: int) -> str | None:
    """An AI move's own estimate in words, from its bot's analysis `last` (None if the bot
    keeps none, or it is not the analysis of this move)."""
    if not isinstance(last, dict) or last.get("action") != action or not last.get("root"):
        return None
    chosen = next((r for r in last["root"] if r.get("action") == action), last["root"][0])
    m = meaning(config, players)
    seconds = last.get("seconds")
    iterations = last.get("iterations")
    if not iterations:
        # A search with a single legal move does not search; its tree is the earlier one's.
        return f"thinks: {percent(chosen['mean'])} {m.noun} (its only choice: no new search)"
    took = f"{_seconds(seconds)}, " if seconds is not None else ""
    return f"thinks: {percent(chosen['mean'])} {m.noun} ({took}{iterations:,} playouts)"


__all__ = ["Hint", "Meaning", "about_equal", "meaning", "percent", "search_config", "thinking"]
