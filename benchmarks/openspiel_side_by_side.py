"""OpenSpiel's Python ISMCTS beside ours, on the same game and positions (run by hand, not in CI).

Both sides play random playouts: OpenSpiel's `ISMCTSBot` with its `RandomRolloutEvaluator`
(one rollout per new node), and ours as `ismcts(iterations=N,playout=random,c=C,reuse=false)`,
with the same UCT constant C. OpenSpiel's bot reaches the game through `engine.openspiel`; its
resampler calls our `resample_from_infostate`, so both searches see the same determinizations
of the same rules.

Two measurements, per seat count:

1. speed: iterations per second of each search from the opening and from a mid-game position
   (`ai.benchmark.positions`, the positions `tianti bench search` uses);
2. strength: ours in one seat against OpenSpiel's ISMCTS in every other seat, each deal played
   with ours in every seat in turn (seat advantage cancels out), at equal iterations per move
   and at equal wall time per move (ours gets, as a time budget, the mean time OpenSpiel's
   ISMCTS spent per searched move at N iterations in the equal-iterations match). A win is a
   return of 1 (ties for first share it); the win rate has a 95% Wilson interval; the share a
   seat wins by chance is 1/players.

Ours keeps no tree between moves here (reuse=false), like OpenSpiel's bot, so that equal
iterations means equal work; `--reuse` lets ours keep it, as it does by default.

Run time is almost all OpenSpiel's search: about 4-5 ms per iteration in Dragon on one core,
so about 4 s (2 players) to 5 s (4 players) a move at the default 1000 iterations. The default
run (2 and 4 players, 10 deals each, both modes) plays 120 games and takes about 16 hours in one
process (2.5 h for 2 players, 13.5 h for 4, where three seats search in Python); `--workers N`
divides that by up to N on N free cores. The speed measurement alone (`--skip-strength`) takes
about 10 seconds.

Examples:

    .venv/bin/python benchmarks/openspiel_side_by_side.py --help
    .venv/bin/python benchmarks/openspiel_side_by_side.py --players 2 --iterations 100 --deals 1
    .venv/bin/python benchmarks/openspiel_side_by_side.py --players 2 4 --json side_by_side.json
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import engine  # noqa: E402
from ai.benchmark import positions  # noqa: E402
from ai.bots import make_bot  # noqa: E402
from ai.evaluate import MatchResult  # noqa: E402
from ai.match import derived_seed, play_game  # noqa: E402


def _openspiel() -> Any:
    """engine.openspiel, or exit with the message saying how to install OpenSpiel."""
    try:
        import engine.openspiel as eo
    except ImportError as e:
        sys.exit(f"openspiel_side_by_side: {e}")
    return eo


class OpenSpielISMCTS:
    """OpenSpiel's Python ISMCTS with random rollouts, as a tianti bot (`step(state)`).

    It is handed our state (a determinization from its seat), wraps it as an OpenSpiel state and
    asks `ISMCTSBot` for a move; the bot's resampler calls our `resample_from_infostate`, seeded
    from the bot's own numpy RNG so that a seed reproduces a game."""

    def __init__(self, os_game: Any, iterations: int, c: float, seed: int,
                 rollouts: int = 1) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        self.game = os_game
        self.rs = np.random.RandomState(seed % (1 << 32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=self.rs)
        self.bot = ismcts.ISMCTSBot(
            os_game, evaluator, uct_c=c, max_simulations=iterations, random_state=self.rs,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.bot.set_resampler(self._resample)
        self.search_seconds: list[float] = []  # per move with a real choice

    def _resample(self, state: Any, player: int) -> Any:
        return state.resample_from_infostate(player, self.rs.uniform)

    def search(self, tianti_state: Any) -> tuple[int, float, int]:
        """(action, seconds, nodes) of one search from `tianti_state`."""
        wrapped = self.game.wrap(tianti_state)
        start = time.perf_counter()
        policy = self.bot.run_search(wrapped)
        seconds = time.perf_counter() - start
        action = max(policy, key=lambda ap: ap[1])[0]
        return int(action), seconds, len(self.bot._nodes)

    def step(self, tianti_state: Any) -> int:
        wrapped = self.game.wrap(tianti_state)
        choice = len(wrapped.legal_actions()) > 1
        start = time.perf_counter()
        action = self.bot.step(wrapped)
        if choice:
            self.search_seconds.append(time.perf_counter() - start)
        return int(action)

    def restart(self) -> None:
        self.bot.reset()


def our_spec(c: float, seed: int, reuse: bool, iterations: int = 0, millis: float = 0.0) -> str:
    budget = f"iterations={iterations}" if iterations else f"millis={millis:.3f}"
    return (f"ismcts({budget},playout=random,c={c:g},reuse={'true' if reuse else 'false'},"
            f"seed={seed})")


# -- speed ---------------------------------------------------------------------------------------

def speed(game_name: str, players: int, theirs_iterations: int, ours_iterations: int,
          c: float, seed: int, reuse: bool) -> list[dict[str, Any]]:
    """Iterations per second of both searches on the opening and a mid-game position."""
    eo = _openspiel()
    os_game = eo.load(game_name, players=players, rng_seed=seed)
    rows = []
    for name, state in positions(os_game.tianti_game, seed).items():
        theirs = OpenSpielISMCTS(os_game, theirs_iterations, c, seed)
        their_action, their_seconds, their_nodes = theirs.search(state)
        ours = make_bot(our_spec(c, seed, reuse, iterations=ours_iterations))
        result = ours.analyse(state)
        ours_rate = result["iterations"] / result["seconds"]
        theirs_rate = theirs_iterations / their_seconds
        rows.append({
            "game": game_name, "players": players, "position": name,
            "move": state.move_number(), "legal_actions": len(state.legal_actions()),
            "theirs_iterations": theirs_iterations, "theirs_seconds": their_seconds,
            "theirs_iterations_per_second": theirs_rate, "theirs_nodes": their_nodes,
            "theirs_choice": state.action_to_string(their_action),
            "ours_iterations": result["iterations"], "ours_seconds": result["seconds"],
            "ours_iterations_per_second": ours_rate, "ours_nodes": result["nodes"],
            "ours_choice": state.action_to_string(result["action"]),
            "speedup": ours_rate / theirs_rate,
        })
    return rows


# -- strength ------------------------------------------------------------------------------------

@dataclass
class Job:
    game: str
    players: int
    mode: str          # "equal-iterations" or "equal-time"
    deal: int
    seat: int          # our seat
    iterations: int    # OpenSpiel's simulations per move (and ours at equal iterations)
    millis: float      # ours per move at equal time
    c: float
    seed: int
    reuse: bool


@dataclass
class GameOutcome:
    players: int
    mode: str
    deal: int
    seat: int
    ours_return: float
    ours_rank: int
    ours_seconds: list[float] = field(default_factory=list)
    theirs_seconds: list[float] = field(default_factory=list)
    ours_iterations: list[int] = field(default_factory=list)
    wall: float = 0.0


def play(job: Job) -> GameOutcome:
    """One game: ours in `job.seat`, OpenSpiel's ISMCTS in the other seats."""
    eo = _openspiel()
    start = time.perf_counter()
    deal_seed = derived_seed(job.seed, job.game, job.players, job.deal)
    os_game = eo.load(job.game, players=job.players, rng_seed=deal_seed % (1 << 31))
    ours_seed = derived_seed(deal_seed, job.mode, job.seat, "ours") % (1 << 31)
    if job.mode == "equal-iterations":
        ours = make_bot(our_spec(job.c, ours_seed, job.reuse, iterations=job.iterations))
    else:
        ours = make_bot(our_spec(job.c, ours_seed, job.reuse, millis=job.millis))
    bots: list[Any] = []
    theirs: list[OpenSpielISMCTS] = []
    for seat in range(job.players):
        if seat == job.seat:
            bots.append(ours)
        else:
            bot = OpenSpielISMCTS(os_game, job.iterations, job.c,
                                  derived_seed(deal_seed, job.mode, job.seat, seat))
            theirs.append(bot)
            bots.append(bot)
    ours_seconds: list[float] = []
    ours_iterations: list[int] = []
    step = ours.step

    def timed_step(state: Any) -> int:
        action = step(state)
        if ours.last and ours.last["iterations"] > 0:
            ours_seconds.append(ours.last["seconds"])
            ours_iterations.append(ours.last["iterations"])
        return action

    ours.step = timed_step  # type: ignore[method-assign]
    state = os_game.tianti_game.new_initial_state(deal_seed)
    result = play_game(state, bots, resample_seed=deal_seed)
    return GameOutcome(
        players=job.players, mode=job.mode, deal=job.deal, seat=job.seat,
        ours_return=result.returns[job.seat], ours_rank=result.ranks[job.seat],
        ours_seconds=ours_seconds, ours_iterations=ours_iterations,
        theirs_seconds=[s for bot in theirs for s in bot.search_seconds],
        wall=time.perf_counter() - start,
    )


def run_jobs(jobs: list[Job], workers: int) -> list[GameOutcome]:
    """Play the games, in `workers` processes; progress on stderr."""
    out: list[GameOutcome] = []
    if workers <= 1:
        results = map(play, jobs)
    else:
        pool = mp.get_context("fork").Pool(workers)
        results = pool.imap_unordered(play, jobs)
    for outcome in results:
        out.append(outcome)
        print(f"  [{len(out)}/{len(jobs)}] {outcome.players}p {outcome.mode} deal {outcome.deal} "
              f"ours in seat {outcome.seat}: return {outcome.ours_return:g}, "
              f"{outcome.wall:.0f} s", file=sys.stderr, flush=True)
    if workers > 1:
        pool.close()
        pool.join()
    return out


def summarize(outcomes: list[GameOutcome], players: int, mode: str) -> dict[str, Any]:
    games = [o for o in outcomes if o.players == players and o.mode == mode]
    ours_s = [s for o in games for s in o.ours_seconds]
    theirs_s = [s for o in games for s in o.theirs_seconds]
    ours_it = [n for o in games for n in o.ours_iterations]
    match = MatchResult(
        games=len(games), wins=sum(o.ours_return for o in games),
        mean_rank=sum(o.ours_rank for o in games) / max(1, len(games)),
        seconds_per_move=sum(ours_s) / max(1, len(ours_s)))
    low, high = match.interval()
    return {
        "players": players, "mode": mode, "games": match.games, "ours_wins": match.wins,
        "ours_win_rate": match.win_rate, "wilson95": [low, high], "chance_share": 1 / players,
        "ours_mean_rank": match.mean_rank,
        "ours_seconds_per_move": match.seconds_per_move,
        "ours_iterations_per_move": sum(ours_it) / max(1, len(ours_it)),
        "theirs_seconds_per_move": sum(theirs_s) / max(1, len(theirs_s)),
        "wall_seconds": sum(o.wall for o in games),
    }


# -- the command ---------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="OpenSpiel's Python ISMCTS beside tianti's ISMCTS: iterations per second "
                    "on the same positions, and head-to-head matches at equal iterations and "
                    "at equal wall time per move (both with random playouts).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--game", default="dragon", help="tianti game")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="seat counts")
    parser.add_argument("--c", type=float, default=0.7, help="UCT constant of both searches")
    parser.add_argument("--iterations", type=int, default=1000,
                        help="iterations per move in the matches (OpenSpiel's max_simulations)")
    parser.add_argument("--deals", type=int, default=10,
                        help="deals per seat count and mode; each is played once per seat")
    parser.add_argument("--speed-iterations", type=int, default=300,
                        help="OpenSpiel's iterations per speed measurement")
    parser.add_argument("--ours-speed-iterations", type=int, default=50000,
                        help="our iterations per speed measurement")
    parser.add_argument("--millis", type=float, default=None,
                        help="our time per move at equal time (default: OpenSpiel's mean time "
                             "per searched move in the equal-iterations match)")
    parser.add_argument("--reuse", action="store_true",
                        help="let our search keep its tree between moves")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-strength", action="store_true")
    parser.add_argument("--workers", type=int, default=1, help="processes for the matches")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="write every figure here")
    args = parser.parse_args(argv)
    _openspiel()
    if args.game not in engine.game_names():
        parser.error(f"unknown game {args.game!r}; known: {', '.join(engine.game_names())}")

    report: dict[str, Any] = {"settings": {k: (str(v) if isinstance(v, Path) else v)
                                           for k, v in vars(args).items()},
                              "speed": [], "matches": [], "games": []}
    started = time.perf_counter()
    if not args.skip_speed:
        print(f"== speed: iterations per second, {args.game}, random playouts, c={args.c:g}")
        print(f"{'players':>7} {'position':>9} {'move':>4} {'legal':>5} "
              f"{'OpenSpiel it/s':>15} {'ours it/s':>11} {'ours/OpenSpiel':>14}")
        for players in args.players:
            for row in speed(args.game, players, args.speed_iterations,
                             args.ours_speed_iterations, args.c, args.seed, args.reuse):
                report["speed"].append(row)
                print(f"{players:>7} {row['position']:>9} {row['move']:>4} "
                      f"{row['legal_actions']:>5} {row['theirs_iterations_per_second']:>15.1f} "
                      f"{row['ours_iterations_per_second']:>11.0f} {row['speedup']:>13.0f}x",
                      flush=True)

    if not args.skip_strength:
        for players in args.players:
            jobs = [Job(args.game, players, "equal-iterations", d, seat, args.iterations, 0.0,
                        args.c, args.seed, args.reuse)
                    for d in range(args.deals) for seat in range(players)]
            print(f"== {players} players, equal iterations ({args.iterations} per move): "
                  f"{len(jobs)} games", flush=True)
            outcomes = run_jobs(jobs, args.workers)
            equal_it = summarize(outcomes, players, "equal-iterations")
            report["matches"].append(equal_it)
            millis = args.millis if args.millis is not None else \
                1000.0 * equal_it["theirs_seconds_per_move"]
            jobs = [Job(args.game, players, "equal-time", d, seat, args.iterations, millis,
                        args.c, args.seed, args.reuse)
                    for d in range(args.deals) for seat in range(players)]
            print(f"== {players} players, equal time ({millis:.0f} ms per move for ours, "
                  f"OpenSpiel {args.iterations} iterations): {len(jobs)} games", flush=True)
            outcomes += run_jobs(jobs, args.workers)
            report["games"] += [asdict(o) for o in outcomes]
            equal_t = summarize(outcomes, players, "equal-time")
            equal_t["ours_millis"] = millis
            report["matches"].append(equal_t)
            for m in (equal_it, equal_t):
                lo, hi = m["wilson95"]
                print(f"   {m['mode']:>16}: ours won {m['ours_wins']:g}/{m['games']} = "
                      f"{m['ours_win_rate']:.1%} (95% Wilson {lo:.1%}-{hi:.1%}; chance "
                      f"{m['chance_share']:.0%}), mean rank {m['ours_mean_rank']:.2f}; per move "
                      f"ours {m['ours_seconds_per_move'] * 1000:.0f} ms / "
                      f"{m['ours_iterations_per_move']:.0f} it, OpenSpiel "
                      f"{m['theirs_seconds_per_move'] * 1000:.0f} ms", flush=True)
    report["wall_seconds"] = time.perf_counter() - started
    print(f"== done in {report['wall_seconds']:.0f} s")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2))
        print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
