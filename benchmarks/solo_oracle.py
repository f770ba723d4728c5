"""How reachable the Mount Tai solo goals are on given deals: a clairvoyant bound.

    PYTHONPATH=. .venv/bin/python benchmarks/solo_oracle.py --games 20 --only 0 6 7

The same deals as benchmarks/solo_goals.py (deal d of `--seed` s is `s * 100003 + d`), played by
the `strong` search (its Mount Tai entry, `STRONG["mount-tai"]`, without the per-variant
entries, so that earlier figures stay reproducible: `--set normalize=true` gives the plain solo
game's `strong`) with `oracle=True` on the referee's own state: it never determinizes, so
it sees the face-down tiles, the virtual player's undrawn tiles and the future chance of the
state's RNG. This is a diagnostic, not a bot: it reads what no seat may see, and nothing in
`ai/bots.py` can build it. Where the clairvoyant search misses a goal, a fair bot with the same
search and evaluation can hardly be blamed; where it reaches goals the fair bot misses, what
the fair bot does not know (or how it plans around it) is the gap. Rows as solo_goals.py's;
`--missed` lists the deals (their seeds, as benchmarks/solo_analysis.py names them) missed.
"""
from __future__ import annotations

import argparse
import time
from multiprocessing import Pool
from typing import Any

import engine
from ai.bots import STRONG
from ai.search import Searcher
from benchmarks.solo_analysis import deal_seed, game_options
from ladder.tournament.ratings import wilson


def play(job: tuple[dict[str, Any], int, int] | tuple[dict[str, Any], int, int, dict[str, Any]]
         ) -> tuple[float, float, int]:
    """One deal played by the clairvoyant search: (reached, final reputation, searches). A
    fourth item, if given, overrides options of the `strong` search (a diagnostic variant); its
    `seed`, if any, is added to the deal's seed to seed the search (another search, same deal)."""
    options, seed, iterations = job[:3]
    state = engine.load_game("mount-tai", **options).new_initial_state(seed)
    cfg = {k: v for k, v in STRONG["mount-tai"].items() if k != "millis"}
    shift = 0
    if len(job) > 3:
        cfg.update(job[3])
        shift = cfg.pop("seed", 0)
    cfg.pop("seed", None)
    searcher = Searcher(**cfg, iterations=iterations, seed=seed + shift, oracle=True)
    searches = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        state.apply_action(searcher.search(state)["action"])
        searches += 1
    return state.returns()[0], float(state.scores()[0]), searches


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """`KEY=VALUE` items as search options, typed as the bot options table types them."""
    from ai.bots import _SEARCH_OPTIONS
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or key not in _SEARCH_OPTIONS:
            raise SystemExit(f"--set takes KEY=VALUE with KEY one of "
                             f"{', '.join(sorted(_SEARCH_OPTIONS))}; got {item!r}")
        kind = _SEARCH_OPTIONS[key][0]
        out[key] = (value.lower() in ("1", "true", "yes")) if kind is bool else kind(value)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=10000, help="iterations a search")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", nargs="*", type=int, help="challenge games (0: plain solo)")
    ap.add_argument("--seed", type=int, default=3, help="seed of the deals")
    ap.add_argument("--missed", action="store_true", help="list the deals whose goal was missed")
    ap.add_argument("--deals", type=int, nargs="*",
                    help="these deal seeds (as --missed lists them) instead of --games/--seed")
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE",
                    help="override options of the strong search, e.g. cutoff=0 c=0.7")
    args = ap.parse_args()
    overrides = parse_overrides(args.set)
    print("| game | games | goal reached (clairvoyant) | 95% interval | mean reputation "
          "| minutes |")
    print("|---|---|---|---|---|---|")
    with Pool(args.workers) as pool:
        for k in args.only if args.only is not None else range(9):
            options = game_options(k)
            start = time.time()
            deals = args.deals or [deal_seed(args.seed, d) for d in range(args.games)]
            jobs = [(options, d, args.iterations, overrides) for d in deals]
            rows = pool.map(play, jobs)
            won = int(sum(r[0] for r in rows))
            lo, hi = wilson(won, len(rows))
            name = "solo" if k == 0 else f"challenge {k}"
            print(f"| {name} | {len(rows)} | {won:g} ({won / len(rows):.0%}) | {lo:.0%}-{hi:.0%} "
                  f"| {sum(r[1] for r in rows) / len(rows):.1f} "
                  f"| {(time.time() - start) / 60:.1f} |", flush=True)
            if args.missed:
                print(f"missed: {' '.join(str(j[1]) for j, r in zip(jobs, rows) if not r[0])}",
                      flush=True)


if __name__ == "__main__":
    main()
