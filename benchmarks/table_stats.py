"""A bot against the others at a full table: its win rate, and in Mount Tai how each side plays.

Plays rotated matches (the deals of `ai.evaluate.play_games`: deal d dealt from
`seed * 100003 + d`, bot A taking every seat of each deal in turn, the other seats played by
`--others`) and prints A's win rate with its 95% Wilson interval. For Mount Tai it also prints,
for A and for the others (per seat and game): Sacrifice Officials taken (and how soon),
celebrations, sacrifices to heaven, talents and level-3 talents, grain, money and wine left at the
end, mean reputation, and the winner's margin over the runner-up in A's wins and in its losses
(issue 49's figures for `strong` at 4 players).

    nice .venv/bin/python benchmarks/table_stats.py --a planner --others heuristic \\
        --players 4 --deals 10 --workers 1
    nice .venv/bin/python benchmarks/table_stats.py --a "strong(iterations=5000)" \\
        --others planner --players 4 --deals 10 --workers 1

`--others` is one spec for every other seat, or one per other seat (comma-free specs separated
by `;`). 10 deals at 4 players are 40 games.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from ai.bots import make_bot  # noqa: E402
from ai.evaluate import GameResult, summarize  # noqa: E402
from ai.match import play_game  # noqa: E402

from engine.mount_tai import data  # noqa: E402
from engine.mount_tai.game import CELL_KINDS  # noqa: E402

SO_KIND = data.T_SACRIFICE
ASCENT = CELL_KINDS.index("ascent")  # a fief cell holding the ascent marker
SUMMIT = 15  # the fief's summit cell (state.pxd SUMMIT_CELL)


def mount_tai_play(game: str, options: dict[str, Any], seed: int,
                   actions: list[int]) -> list[dict[str, Any]]:
    """How each seat played a finished Mount Tai game, replayed from its seed and actions:
    Sacrifice Official (and the round it came), celebrations, sacrifices, talents, level-3
    talents, resources left, reputation, ascent."""
    state = engine.load_game(game, **options).new_initial_state(seed)
    n = state.num_players()
    celebrations, sacrifices = [0] * n, [0] * n
    so_round: list[int | None] = [None] * n
    before = state.snapshot(hidden=False)
    for action in actions:
        state.apply_action(action)
        after = state.snapshot(hidden=False)
        for i in range(n):
            b, a = before["seats"][i], after["seats"][i]
            src_b, src_a = b["reputation_by_source"], a["reputation_by_source"]
            celebrations[i] += src_a["celebration"] > src_b["celebration"]
            sacrifices[i] += src_a["sacrifice to heaven"] > src_b["sacrifice to heaven"]
            if so_round[i] is None and any(k == SO_KIND for k, _ in a["talents"]):
                so_round[i] = int(after["round"]) if after["round"] < 16 else 15
        before = after
    out = []
    for i, seat in enumerate(before["seats"]):
        out.append({
            "official": so_round[i] is not None,
            "official_round": so_round[i],
            "celebrations": celebrations[i],
            "sacrifices": sacrifices[i],
            "talents": len(seat["talents"]),
            "level3": sum(1 for _, lv in seat["talents"] if lv >= 3),
            "no_talent": not seat["talents"],
            "grain": seat["grain"],
            "money": seat["money"],
            "wine": seat["wine"],
            "reputation": seat["reputation"],
            "ascent": seat["cells"][SUMMIT] == ASCENT,
        })
    return out


PLAY_STATS = {"mount-tai": mount_tai_play}


def _play(job: tuple[str, dict[str, Any], list[str], int, int]) -> dict[str, Any]:
    """One game: A's result (as ai.evaluate's jobs) and every seat's play figures."""
    name, options, specs, seat_a, seed = job
    state = engine.load_game(name, **options).new_initial_state(seed)
    bots = [make_bot(spec) for spec in specs]
    start = time.perf_counter()
    result = play_game(state, bots, resample_seed=seed, trusted=True)
    seconds = time.perf_counter() - start
    moves = sum(1 for m in result.movers if m == seat_a)
    seat_seconds = sum(t for t, m in zip(result.move_times, result.movers) if m == seat_a)
    play = PLAY_STATS[name](name, options, seed, result.actions) if name in PLAY_STATS else None
    return {"deal": seed, "seat": seat_a, "win": result.returns[seat_a],
            "rank": result.ranks[seat_a], "score": float(result.scores[seat_a]),
            "seconds": seat_seconds if result.move_times else seconds, "moves": moves,
            "scores": list(result.scores), "play": play}


def run(game: str, a: str, others: list[str], deals: int, options: dict[str, Any],
        seed: int = 0, workers: int = 1) -> list[dict[str, Any]]:
    """Every game of the rotated match, in deal order, seat by seat."""
    players = len(others) + 1
    options = dict(options, players=players)
    jobs = []
    for d in range(deals):
        for seat in range(players):
            specs = list(others)
            specs.insert(seat, a)
            jobs.append((game, options, specs, seat, seed * 100003 + d))
    if workers <= 1:
        return [_play(job) for job in jobs]
    with mp.get_context("fork").Pool(workers) as pool:
        return pool.map(_play, jobs, chunksize=1)


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def report(games: list[dict[str, Any]]) -> dict[str, Any]:
    """A's win rate (Wilson interval) and, with play figures, the means for A and the others."""
    match = summarize([GameResult(g["deal"], g["seat"], g["win"], g["rank"], g["score"],
                                  g["seconds"], g["moves"]) for g in games])
    lo, hi = match.interval()
    out: dict[str, Any] = {"games": match.games, "wins": match.wins, "win_rate": match.win_rate,
                           "interval": [lo, hi], "mean_rank": match.mean_rank,
                           "seconds_per_move": match.seconds_per_move}
    if not games or games[0]["play"] is None:
        return out
    sides: dict[str, list[dict[str, Any]]] = {"A": [], "others": []}
    margins: dict[str, list[float]] = {"won": [], "lost": []}
    for g in games:
        for i, seat in enumerate(g["play"]):
            sides["A" if i == g["seat"] else "others"].append(seat)
        scores = sorted(g["scores"], reverse=True)
        margins["won" if g["win"] > 0 else "lost"].append(float(scores[0] - scores[1]))
    keys = ["official", "official_round", "celebrations", "sacrifices", "talents", "level3",
            "no_talent", "grain", "money", "wine", "reputation", "ascent"]
    for side, seats in sides.items():
        out[side] = {k: _mean([float(s[k]) for s in seats if s[k] is not None]) for k in keys}
    out["best_other_reputation"] = _mean([
        float(max(s["reputation"] for i, s in enumerate(g["play"]) if i != g["seat"]))
        for g in games])
    out["winner_margin"] = {k: _mean(v) for k, v in margins.items()}
    # in A's losses: how often the winner held a Sacrifice Official
    lost = [g for g in games if g["win"] == 0]
    out["losses_winner_had_official"] = sum(
        1 for g in lost if any(s["official"] for i, s in enumerate(g["play"])
                               if g["scores"][i] == max(g["scores"])))
    out["losses"] = len(lost)
    out["A_won_with_official"] = [sum(1 for g in games if g["play"][g["seat"]]["official"]
                                      and g["win"] > 0),
                                  sum(1 for g in games if g["play"][g["seat"]]["official"])]
    return out


def print_report(a: str, others: list[str], game: str, players: int, r: dict[str, Any]) -> None:
    lo, hi = r["interval"]
    print(f"{game}, {players} players: {a} against {' / '.join(others)}")
    print(f"  A wins {r['wins']:g} of {r['games']} ({r['win_rate']:.1%}, 95% {lo:.1%}-{hi:.1%}),"
          f" {r['win_rate'] * players:.1f}x the fair share; mean rank {r['mean_rank']:.2f}; "
          f"{r['seconds_per_move'] * 1000:.0f} ms a move")
    if "A" not in r:
        return
    rows = [("Sacrifice Official taken", "official", "{:.0%}"),
            ("  round it came (mean)", "official_round", "{:.1f}"),
            ("celebrations", "celebrations", "{:.2f}"),
            ("sacrifices to heaven", "sacrifices", "{:.2f}"),
            ("ascents", "ascent", "{:.0%}"),
            ("talents", "talents", "{:.2f}"),
            ("level-3 talents", "level3", "{:.2f}"),
            ("no talent at all", "no_talent", "{:.0%}"),
            ("grain left", "grain", "{:.1f}"),
            ("money left", "money", "{:.1f}"),
            ("wine left", "wine", "{:.1f}"),
            ("mean reputation", "reputation", "{:.1f}")]
    print(f"  {'per seat and game':28s} {'A':>8s} {'others':>8s}")
    for label, key, fmt in rows:
        print(f"  {label:28s} {fmt.format(r['A'][key]):>8s} {fmt.format(r['others'][key]):>8s}")
    print(f"  best other's reputation (mean over games): {r['best_other_reputation']:.1f}")
    print(f"  winner's margin over the runner-up: {r['winner_margin']['won']:.1f} in A's wins, "
          f"{r['winner_margin']['lost']:.1f} in A's losses")
    won, had = r["A_won_with_official"]
    print(f"  A held a Sacrifice Official in {had} games and won {won:g} of them; in "
          f"{r['losses_winner_had_official']} of A's {r['losses']} losses the winner held one")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="mount-tai")
    parser.add_argument("--a", required=True, help="the bot spec measured")
    parser.add_argument("--others", required=True,
                        help="the spec of every other seat, or one per seat separated by ';'")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=10, help="deals (games = deals x players)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[],
                        help="a game option key=value (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    others = [s.strip() for s in args.others.split(";")]
    if len(others) == 1:
        others = others * (args.players - 1)
    if len(others) != args.players - 1:
        parser.error(f"--others names {len(others)} specs for {args.players - 1} other seats")
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    games = run(args.game, args.a, others, args.deals, options, args.seed, args.workers)
    r = report(games)
    if args.json:
        print(json.dumps(r, indent=1))
    else:
        print_report(args.a, others, args.game, args.players, r)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
