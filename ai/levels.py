"""Difficulty levels: `tianti play --level N`, a preset bot spec per game and level.

Level 1 is a beginner's opponent and the highest level is the `strong` bot (the default
opponent). The presets are data, kept here so that a recalibration changes one table; the
measured strength of each level (its rating, its win rate against the level below with a 95%
interval, its time a move) is in docs/LEVELS.md, from `benchmarks/calibrate_levels.py`.

Why these bots: the heuristic bot with a chance of random moves (`epsilon`) is a weak but
sensible-looking opponent; the heuristic bot alone plays the game's move prior greedily; above
it (Dragon), the game's tuned search configuration (`STRONG` in ai/bots.py) at growing
iteration budgets gives levels that are cheap, reproducible and clearly apart; the top level
is `strong` itself, about one second a move. Each level won at least 62% of its games against
the level below (the lower end of the 95% interval) in the calibration.
"""
from __future__ import annotations

from dataclasses import dataclass

from ai.bots import STRONG
from engine.core.errors import TiantiError


class LevelError(TiantiError, ValueError):
    """A difficulty level that the game does not have."""


@dataclass(frozen=True)
class Level:
    """One difficulty level: its number, the bot spec that plays it, and a one-line description."""

    number: int
    name: str  # a word or two, for lists and errors
    spec: str
    text: str

    @property
    def label(self) -> str:
        """How the level's bot is named on screen: "level 3 (search 30)"."""
        return f"level {self.number} ({self.name})"


def _tuned_search(game: str) -> str:
    """The game's tuned search (`STRONG[game]` in ai/bots.py) as a spec with an iteration
    budget `{n}` in place of its time budget: one source for the levels and the strong bot."""
    options = {k: v for k, v in STRONG[game].items() if k not in ("mode", "millis")}
    return STRONG[game]["mode"] + "(iterations={n}," + ",".join(
        f"{k}={v}" for k, v in options.items()) + ")"


# Dragon: heuristic playouts. Mount Tai: heuristic playouts cut off after 6 decisions and scored
# by the learned evaluation, a tenth of a solo reward for the goal margin.
_DRAGON_SEARCH = _tuned_search("dragon")
_MOUNT_TAI_SEARCH = _tuned_search("mount-tai")


_BEGINNER = Level(1, "beginner", "heuristic(epsilon=0.5)",
                  "the greedy move half the time, a random one otherwise")
_CASUAL = Level(0, "casual", "heuristic(epsilon=0.25)",
                "the greedy move three times in four, a random one otherwise")
_GREEDY = Level(0, "greedy", "heuristic", "greedy on the game's move prior, no look-ahead")


def _ladder(lower: tuple[Level, ...], search: str, budgets: tuple[int, ...]) -> tuple[Level, ...]:
    """The `lower` levels (renumbered from 1), a level per search budget, and `strong` on top."""
    levels = [Level(i, lv.name, lv.spec, lv.text) for i, lv in enumerate(lower, start=1)]
    for n in budgets:
        levels.append(Level(len(levels) + 1, f"search {n:,}", search.format(n=n),
                            f"the tuned search with {n:,} iterations a move"))
    levels.append(Level(len(levels) + 1, "strong", "strong",
                        "the tuned search, about 1 s a move (the default opponent)"))
    return tuple(levels)


LEVELS: dict[str, tuple[Level, ...]] = {
    # Dragon: the search gains a lot from more iterations at small budgets (300 iterations
    # beat 30 in 120 games of 120, 3,000 beat 300 in 81%), less above a few thousand
    # (strong at 20,000 beat 3,000 in only 67.5% of 40 games, 52-80%), so the level below
    # `strong` has 1,000 iterations, about as far from 300 as from strong in Elo.
    "dragon": _ladder((_BEGINNER, _GREEDY), _DRAGON_SEARCH, (30, 300, 1000)),
    # Mount Tai: the steps below `strong` are the heuristic with fewer random moves, not search
    # budgets: before issue 14 the search needed about 10,000 iterations to win three games in
    # four against greedy (ai/STRONG_MOUNT_TAI.md). Since, `strong` at 10,000 wins nine in ten
    # (docs/LEVELS.md); budgets between greedy and `strong` have not been calibrated again.
    "mount-tai": _ladder((_BEGINNER, _CASUAL, _GREEDY), _MOUNT_TAI_SEARCH, ()),
    # Games without their own presets (the `fusion` test game): not calibrated.
    "default": (
        Level(1, "random", "random", "uniformly random legal moves (not calibrated)"),
        Level(2, "greedy", "heuristic", "greedy on the game's move prior (not calibrated)"),
        Level(3, "strong", "strong", "the strong bot, about 1 s a move (the default opponent)"),
    ),
}


def levels_for(game: str) -> tuple[Level, ...]:
    """The difficulty levels of `game` (its own presets, or the uncalibrated default ones)."""
    return LEVELS.get(game, LEVELS["default"])


def top_level(game: str) -> Level:
    """The strongest level of `game`: the default opponent of `tianti play`."""
    return levels_for(game)[-1]


def level_names(game: str) -> str:
    """The levels of `game` on one line ("1 beginner, 2 greedy, ..., 6 strong")."""
    return ", ".join(f"{lv.number} {lv.name}" for lv in levels_for(game))


def describe_levels(games: list[str] | None = None) -> list[dict[str, object]]:
    """Every level of each game with presets (or of `games`): for `tianti bots` and --help."""
    names = games or [g for g in LEVELS if g != "default"]
    return [{"game": g, "level": lv.number, "name": lv.name, "spec": lv.spec, "help": lv.text}
            for g in names for lv in levels_for(g)]


def level_of(game: str, spec: str) -> Level | None:
    """The level of `game` whose bot is `spec` (spaces ignored), or None."""
    wanted = "".join(spec.split())
    return next((lv for lv in levels_for(game) if lv.spec == wanted), None)


def bot_label(game: str, spec: str) -> str:
    """A bot's name on screen from its spec: a level's bot with options, such as
    `ismcts(iterations=30,c=0.7,...)`, is "level 3 (search 30)"; any other spec (`strong`,
    `heuristic`, a spec of your own) is itself."""
    level = level_of(game, spec) if "(" in spec else None
    return level.label if level is not None else spec


def level_spec(game: str, number: int) -> str:
    """The bot spec of level `number` of `game`; a level the game lacks is a LevelError (one
    line of 80 columns) that names the game's lowest and highest levels."""
    levels = levels_for(game)
    for lv in levels:
        if lv.number == number:
            return lv.spec
    first, last = levels[0], levels[-1]
    raise LevelError(f"{game} has no level {number}: they go from 1 ({first.name}) to "
                     f"{last.number} ({last.name})")
