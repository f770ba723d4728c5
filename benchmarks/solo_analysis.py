"""Why a bot misses the Mount Tai solo goal: reputation by source, end-of-game holdings and the
search's own estimate along each game, won games against lost ones.

    PYTHONPATH=. .venv/bin/python benchmarks/solo_analysis.py --games 20
    PYTHONPATH=. .venv/bin/python benchmarks/solo_analysis.py --games 20 --challenge 7
    PYTHONPATH=. .venv/bin/python benchmarks/solo_analysis.py --bot "strong(iterations=2000)" \\
        --games 5 --seed 3 --drops 3

Game d is dealt from seed `seed * 100003 + d` (the deals of benchmarks/solo_goals.py for the
same `--seed`; its default is 3 as there) and played with `ai.match.play_game`, so the bot
only ever sees determinizations of its own seat, as in a tournament. The options are
`{"solo": True}` (the plain solo game, goal 80) or `{"challenge": k}` with `--challenge k` (game k
of the solo challenge; a carried bonus, where the game has one, is chosen by the bot at setup).

The output is markdown:

1. one row per game: the final reputation, the goal, reached or not, and the final reputation by
   source (the engine's `MTPlayer.rep_src`, read through `state.snapshot()`; the sources sum to
   the reputation);
2. the mean reputation by source and the mean end-of-game holdings (from
   `engine.mount_tai.knowledge.features`) for the games that reached the goal and for those that
   did not, and the difference lost - won;
3. the search's value along each game. After each of the bot's searched decisions (more than one
   legal action, so that the search ran), the value is the root mean reward of the move it chose
   (`Searcher.search(...)["root"]`, kept by the bot as `.last`): in solo play the estimated chance
   of reaching the goal. For each lost game, the decisions where that value dropped most from one
   searched decision to the next (the drop happened while the earlier decision's move was played
   out and whatever the rules did after it: the virtual player, events, settlements); then the
   mean value by round for won and lost games.

Rounds are printed 1..16 (the engine counts 0..15); round 17 is the end of the game (the Secretary's
extra decisions after the last settlement).
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import engine
from ai.bots import make_bot
from engine.core.state import State
from engine.mount_tai import data
from engine.mount_tai.knowledge import FEATURE_NAMES, features
from ai.match import MoveEvent, play_game

GAME = "mount-tai"
SOURCES: tuple[str, ...] = tuple(data.REPUTATION_SOURCES)
# End-of-game holdings reported (features() names), with the composite ones built below.
HOLDING_FEATURES: tuple[str, ...] = (
    "farms", "towns", "settlements", "height", "layers", "ascent", "money", "grain", "wine",
)
BUILDING_FEATURES: tuple[str, ...] = (
    "granary", "mint", "works", "market", "academy", "yufu", "garrison", "observatory",
)
TALENT_FEATURES: tuple[str, ...] = (
    "agri", "commerce", "sacrifice", "brewer", "admin", "pioneer", "publicist", "trader",
    "yinyang", "architect", "dugu", "firstborn", "vanguard", "elder", "secretary", "zheng",
)
HOLDINGS: tuple[str, ...] = HOLDING_FEATURES + ("buildings", "n_talents", "talent_levels",
                                                "level3_talents")


@dataclass
class Decision:
    """One searched decision of the bot: `index` is the move number in the game, `round` the
    round (1..16; 17 after the last settlement), `text` the move chosen in words, `value` the
    root mean reward of that move (solo: the estimated chance of reaching the goal), `visits`
    its root visits and `legal` the number of legal actions."""

    index: int
    round: int
    text: str
    value: float
    visits: int
    legal: int


@dataclass
class GameRecord:
    """One game's outcome: the deal's seed, the final reputation, the goal and whether it was
    reached, the reputation by source (name -> points), the end-of-game holdings (HOLDINGS names
    -> counts), the bot's searched decisions in order, and the moves and seconds it took."""

    seed: int
    reputation: int
    goal: int
    reached: bool
    by_source: dict[str, int]
    holdings: dict[str, float]
    decisions: list[Decision] = field(default_factory=list)
    moves: int = 0
    seconds: float = 0.0


@dataclass
class Drop:
    """A fall of the search's value between two consecutive searched decisions of one game."""

    seed: int
    round_before: int
    round_after: int
    played: str       # the move chosen at the earlier decision (played out before the fall)
    decision: str     # the move chosen at the later decision
    before: float
    after: float

    @property
    def change(self) -> float:
        return self.after - self.before


def game_options(challenge: int | None) -> dict[str, Any]:
    """The game options: the plain solo game, or game `challenge` of the solo challenge."""
    return {"solo": True} if not challenge else {"challenge": challenge}


def deal_seed(seed: int, d: int) -> int:
    """The seed of deal `d` (benchmarks/solo_goals.py's scheme through ai.evaluate)."""
    return seed * 100003 + d


def chosen_value(result: dict[str, Any] | None, action: int) -> tuple[float, int] | None:
    """(root mean, visits) of `action` in a search result, or None when the search did not run
    (one legal action, no iterations) or never visited it."""
    if not result or not result.get("iterations"):
        return None
    for row in result.get("root", ()):
        if row["action"] == action and row["visits"] > 0:
            return float(row["mean"]), int(row["visits"])
    return None


def holdings_of(state: Any, seat: int = 0) -> dict[str, float]:
    """The end-of-game holdings of `seat` (HOLDINGS names) from the learned evaluation's
    features: fief (farmland, towns, settlements, height, layers, ascent), resources, buildings
    held, talents held, their summed levels and the talents at level 3."""
    f = dict(zip(FEATURE_NAMES, features(state, seat)))
    out = {name: f[name] for name in HOLDING_FEATURES}
    out["buildings"] = sum(f[name] for name in BUILDING_FEATURES)
    out["n_talents"] = f["n_talents"]
    out["talent_levels"] = sum(f[name] for name in TALENT_FEATURES)
    out["level3_talents"] = sum(1 for _, level in state.snapshot()["seats"][seat]["talents"]
                                if level >= 3)
    return out


def play_one(bot_spec: str, options: dict[str, Any], seed: int) -> GameRecord:
    """Play one solo game dealt from `seed` with a fresh bot of `bot_spec`, recording the root
    value of each searched decision (read from the bot's `.last` inside `on_move`)."""
    state = engine.load_game(GAME, **options).new_initial_state(seed)
    if state.num_players() != 1:
        raise ValueError(f"a solo game is needed, the options {options} give "
                         f"{state.num_players()} players")
    bot = make_bot(bot_spec)
    if not hasattr(bot, "last"):
        raise ValueError(f"bot {bot_spec!r} keeps no search result (.last): use a search bot")
    decisions: list[Decision] = []

    def on_move(event: MoveEvent) -> None:
        last = getattr(bot, "last", None)
        if last is None or last.get("action") != event.action:
            raise RuntimeError(f"move {event.index}: the bot's last search is not the move played")
        found = chosen_value(last, event.action)
        if found is None:
            return
        snap = event.state.snapshot()
        rnd = snap["round"] + 1
        decisions.append(Decision(event.index, rnd, event.text, found[0], found[1],
                                  len(event.state.legal_actions())))

    start = time.perf_counter()
    result = play_game(state, [bot], on_move=on_move, resample_seed=seed)
    seconds = time.perf_counter() - start
    final = State.from_record(result.record)  # the true end of the game, replayed
    summary = final.final_summary()
    by_source = dict(summary["by_source"][0])
    return GameRecord(
        seed=seed,
        reputation=int(summary["reputation"][0]),
        goal=int(summary["goal"]),
        reached=bool(summary["goal_reached"]),
        by_source={name: int(by_source[name]) for name in SOURCES},
        holdings=holdings_of(final, 0),
        decisions=decisions,
        moves=len(result.actions),
        seconds=seconds,
    )


def analyse(bot_spec: str, games: int, seed: int = 3, challenge: int | None = None,
            progress: bool = False) -> list[GameRecord]:
    """Play `games` solo games (deals `deal_seed(seed, d)`) one after another in this process."""
    options = game_options(challenge)
    records = []
    for d in range(games):
        rec = play_one(bot_spec, options, deal_seed(seed, d))
        records.append(rec)
        if progress:
            print(f"game {d + 1}/{games}: seed {rec.seed}, reputation {rec.reputation}/"
                  f"{rec.goal}, {rec.seconds:.2f} s", file=sys.stderr, flush=True)
    return records


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def summarise(records: Sequence[GameRecord]) -> dict[str, dict[str, Any]]:
    """Mean reputation by source and mean holdings per group: {"won": ..., "lost": ...}, each
    {"games": n, "reputation": mean, "sources": {name: mean}, "holdings": {name: mean}}; a group
    without games is left out."""
    out: dict[str, dict[str, Any]] = {}
    for name, reached in (("won", True), ("lost", False)):
        group = [r for r in records if r.reached == reached]
        if not group:
            continue
        out[name] = {
            "games": len(group),
            "reputation": _mean([r.reputation for r in group]),
            "sources": {s: _mean([r.by_source[s] for r in group]) for s in SOURCES},
            "holdings": {h: _mean([r.holdings[h] for r in group]) for h in HOLDINGS},
        }
    return out


def value_drops(record: GameRecord, top: int) -> list[Drop]:
    """The `top` largest falls of the value from one searched decision to the next (largest
    first; rises are not falls)."""
    drops = []
    d = record.decisions
    for a, b in zip(d, d[1:]):
        if b.value < a.value:
            drops.append(Drop(record.seed, a.round, b.round, a.text, b.text, a.value, b.value))
    drops.sort(key=lambda x: x.change)
    return drops[:top]


def value_by_round(records: Sequence[GameRecord]) -> dict[int, float]:
    """Mean value per round over games (each game's decisions of a round averaged first, so that
    every game weighs the same)."""
    per_round: dict[int, list[float]] = {}
    for r in records:
        mine: dict[int, list[float]] = {}
        for d in r.decisions:
            mine.setdefault(d.round, []).append(d.value)
        for rnd, vals in mine.items():
            per_round.setdefault(rnd, []).append(_mean(vals))
    return {rnd: _mean(v) for rnd, v in sorted(per_round.items())}


def _fmt(x: float, digits: int = 1) -> str:
    return "-" if isinstance(x, float) and math.isnan(x) else f"{x:.{digits}f}"


def render_markdown(records: Sequence[GameRecord], bot_spec: str, challenge: int | None,
                    seed: int, drops: int = 3) -> str:
    """The report (see the module docstring) as markdown."""
    lines: list[str] = []
    name = f"challenge game {challenge}" if challenge else "plain solo game"
    won = sum(r.reached for r in records)
    moves = sum(r.moves for r in records)
    secs = sum(r.seconds for r in records)
    lines.append(f"## {name}: {bot_spec}, {len(records)} games from seed {seed}")
    lines.append("")
    lines.append(f"Goal reached in {won} of {len(records)} games; mean reputation "
                 f"{_fmt(_mean([r.reputation for r in records]))}; "
                 f"{secs / max(1, len(records)):.2f} s a game, "
                 f"{1000 * secs / max(1, moves):.1f} ms a decision.")
    lines.append("")
    # Sources that are zero in every game are left out of the tables.
    shown = [s for s in SOURCES if any(r.by_source[s] for r in records)]
    hidden = [s for s in SOURCES if s not in shown]

    lines.append("### 1. Games")
    lines.append("")
    lines.append("| seed | reputation | goal | reached | " + " | ".join(shown) + " |")
    lines.append("|---" * (4 + len(shown)) + "|")
    for r in records:
        cells = [str(r.seed), str(r.reputation), str(r.goal), "yes" if r.reached else "no"]
        cells += [str(r.by_source[s]) for s in shown]
        lines.append("| " + " | ".join(cells) + " |")
    if hidden:
        lines.append("")
        lines.append("Sources at 0 in every game (left out): " + ", ".join(hidden) + ".")
    lines.append("")

    groups = summarise(records)
    lines.append("### 2. Won against lost")
    lines.append("")
    cols = [g for g in ("won", "lost") if g in groups]
    both = len(cols) == 2
    header = ["mean"] + [f"{g} ({groups[g]['games']} games)" for g in cols]
    if both:
        header.append("lost - won")
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|---" * len(header) + "|")

    def row(label: str, values: list[float]) -> None:
        cells = [label] + [_fmt(v) for v in values]
        if both:
            cells.append(f"{values[1] - values[0]:+.1f}")
        lines.append("| " + " | ".join(cells) + " |")

    row("**reputation**", [groups[g]["reputation"] for g in cols])
    for s in shown:
        row(f"rep: {s}", [groups[g]["sources"][s] for g in cols])
    for h in HOLDINGS:
        row(f"held: {h}", [groups[g]["holdings"][h] for g in cols])
    lines.append("")
    lines.append("Holdings at game end (knowledge.features): buildings = kinds held, "
                 "talent_levels = summed levels of the talents held, level3_talents = talents "
                 "at level 3.")
    lines.append("")

    lines.append("### 3. The search's value (estimated chance of the goal) along the games")
    lines.append("")
    lost = [r for r in records if not r.reached]
    if lost and drops > 0:
        lines.append(f"Largest falls of the value in lost games ({drops} per game): the move "
                     "played at the earlier decision, then the move chosen at the next one.")
        lines.append("")
        lines.append("| seed | rounds | after playing | next decision | before | after | "
                     "change |")
        lines.append("|---|---|---|---|---|---|---|")
        for r in lost:
            for x in value_drops(r, drops):
                rounds = (str(x.round_after) if x.round_before == x.round_after
                          else f"{x.round_before}->{x.round_after}")
                lines.append(f"| {x.seed} | {rounds} | {x.played} | {x.decision} | "
                             f"{x.before:.2f} | {x.after:.2f} | {x.change:+.2f} |")
        lines.append("")
    won_by_round = value_by_round([r for r in records if r.reached])
    lost_by_round = value_by_round(lost)
    rounds = sorted(set(won_by_round) | set(lost_by_round))
    lines.append("Mean value by round (each game's decisions in the round averaged first):")
    lines.append("")
    lines.append("| round | won | lost |")
    lines.append("|---|---|---|")
    for rnd in rounds:
        lines.append(f"| {rnd} | {_fmt(won_by_round.get(rnd, math.nan), 2)} | "
                     f"{_fmt(lost_by_round.get(rnd, math.nan), 2)} |")
    lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line, play the games and print the markdown report."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", default="strong(iterations=10000)",
                    help="bot spec (a search bot: strong, ismcts, mo-ismcts, pimc)")
    ap.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    ap.add_argument("--seed", type=int, default=3, help="deals: game d from seed*100003+d")
    ap.add_argument("--challenge", type=int, default=None, choices=range(1, 9),
                    metavar="K", help="play game K (1-8) of the solo challenge instead")
    ap.add_argument("--drops", type=int, default=3,
                    help="largest value falls listed per lost game (default 3)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args(argv)
    records = analyse(args.bot, args.games, args.seed, args.challenge, progress=not args.quiet)
    print(render_markdown(records, args.bot, args.challenge, args.seed, args.drops))


if __name__ == "__main__":
    main()
