"""How many games `tournament run --sprt` needs, beside a fixed-length test of the same power.

    python benchmarks/sprt_figures.py [--runs 20] [--sprt 0,100] [--game dragon]

Runs the sequential test `runs` times (tournament seeds 1..runs) for two scenarios at 2 players:
the heuristic bot against the random bot (different strength: H1 should be accepted) and two
copies of the random bot (equal strength: H0 should be accepted), each in its own temporary
store, and prints the mean number of games, how often each hypothesis was accepted, and the
games a fixed-length one-sided test with the same alpha and beta needs at the variance of a
deal's score observed in equal play (the variance one would plan a fixed test with).
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

import engine
from ladder.tournament.backends import make_backend
from ladder.tournament.runner import play_run, start_run
from ladder.tournament.schedule import TournamentSpec
from ladder.tournament.sprt import SprtSpec, fixed_games_for_power
from ladder.tournament.store import Store


def one(game: str, bots: tuple[tuple[str, str], ...], test: SprtSpec, seed: int,
        deals: int) -> tuple[str | None, int, list[float]]:
    """One sequential run: (verdict, games played, the deal scores)."""
    with tempfile.TemporaryDirectory() as tmp:
        g = engine.load_game(game, players=2)
        spec = TournamentSpec(game, dict(g.options), bots, deals, seed=seed,
                              sprt=test.to_dict())
        with Store(Path(tmp) / "s.db") as store:
            run = start_run(store, spec)
            report = play_run(store, run, make_backend("local", 1, None), progress=False)
            state = report.sprt
            assert state is not None
            return state.result, state.games, list(state.observations)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--sprt", default="0,100")
    ap.add_argument("--game", default="dragon")
    ap.add_argument("--deals", type=int, default=2000)
    args = ap.parse_args()
    test = SprtSpec.parse(args.sprt)
    scenarios = {"heuristic vs random (H1 expected)": (("h", "heuristic"), ("r", "random")),
                 "random vs random (H0 expected)": (("a", "random"), ("b", "random"))}
    equal_var = None
    rows = []
    for name, bots in scenarios.items():
        results = [one(args.game, bots, test, seed, args.deals) for seed in range(1, args.runs + 1)]
        games = [r[1] for r in results]
        verdicts = [r[0] for r in results]
        scores = [x for r in results for x in r[2]]
        var = statistics.pvariance(scores) if len(scores) > 1 else 0.0
        if "H0" in name:
            equal_var = var
        rows.append((name, statistics.mean(games), min(games), max(games),
                     verdicts.count("H1"), verdicts.count("H0"), verdicts.count(None), var))
    print(f"SPRT [{test.elo0:g}, {test.elo1:g}] logistic Elo, alpha {test.alpha}, beta "
          f"{test.beta}, {args.game} 2 players, {args.runs} runs each:")
    for name, mean, lo, hi, h1, h0, none, var in rows:
        print(f"  {name}: mean {mean:.1f} games (min {lo}, max {hi}); accepted H1 {h1}, "
              f"H0 {h0}, undecided {none}; variance of a deal's score {var:.4f}")
    assert equal_var is not None
    fixed = fixed_games_for_power(test, equal_var, games_per_deal=2)
    print(f"  a fixed-length test with the same alpha and beta at that variance "
          f"({equal_var:.4f}): {fixed} games")


if __name__ == "__main__":
    main()
