"""Train a learned evaluation from self-play (reproducible from the seeds).

The shipped model (engine/mount_tai/eval_model.json) was made in two rounds, the second played
with the first round's model:

    python -m ai.learn play --games 6000 --seed 1 --bot "strong-v1(iterations=1000)" --out sp1.npz
    python -m ai.learn fit sp1.npz --out m1.json
    python -m ai.learn play --games 3000 --seed 2 --workers 1 --model m1.json \
        --bot "strong(iterations=1000,evaluation=learned,goal_margin=0.1)" --out sp2.npz
    python -m ai.learn fit sp1.npz sp2.npz --out engine/mount_tai/eval_model.json
    python -m ai.learn report sp1.npz sp2.npz --model engine/mount_tai/eval_model.json
"""
from __future__ import annotations

import argparse
from typing import Callable
import sys
import time

import numpy as np

from ai.learn.fit import LAMBDAS
from ai.learn.selfplay import Interrupted
from ai.learn.winfit import WIN_PENALTIES, fit_win


def _play_and_save(args: argparse.Namespace, play: Callable[[], dict[str, np.ndarray]],
                   extra: dict[str, np.ndarray], counted: Callable[[dict[str, np.ndarray]], str]
                   ) -> int:
    """Self-play (`play()`) saved to `args.out` with the game, seed and bot (and `extra`);
    Ctrl-C saves the games finished before it (self-play; the others nothing) and exits 130."""
    start = time.time()
    try:
        data = play()
    except Interrupted as stop:
        _save(args, extra, stop.data)
        print(f"interrupted: the first {stop.games:,} games saved -> {args.out} "
              f"({counted(stop.data)})", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("interrupted: nothing saved", file=sys.stderr)
        return 130
    _save(args, extra, data)
    print(f"{counted(data)} of {args.games:,} games in {time.time() - start:.0f} s "
          f"-> {args.out}")
    return 0


def _save(args: argparse.Namespace, extra: dict[str, np.ndarray], data: dict[str, np.ndarray]
          ) -> None:
    np.savez_compressed(args.out, game=np.asarray(args.game), seed=np.asarray(args.seed),
                        bot=np.asarray(args.bot), **extra, **data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ai.learn", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play self-play games and save their positions (.npz)")
    p.add_argument("--game", default="mount-tai")
    p.add_argument("--games", type=int, default=6000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bot", default="strong(iterations=1000)", help="the bot of every seat")
    p.add_argument("--epsilon", type=float, default=0.05, help="chance of a random move")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--model", help="the learned model the bots use (default: the shipped one)")
    p.add_argument("--tables", type=int, nargs="+",
                   help="only these tables (mount-tai: 0 solo, 1-8 the challenge games, 9-11: "
                        "2-4 players; dragon: 0-2: 2-4 players)")
    p.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the model on saved positions and write it (.json)")
    f.add_argument("data", nargs="+")
    f.add_argument("--out", required=True)
    f.add_argument("--seed", type=int, default=1, help="seed of the held-out split")
    f.add_argument("--hidden", type=int, default=0, help="hidden units (0: ridge per round)")
    f.add_argument("--own", type=int, nargs="+", default=[], metavar="PLAYERS",
                   help="table sizes (1 = solo .. 4) fitted on their own games (default: none, "
                        "one shared fit)")
    f.add_argument("--penalties", type=float, nargs="+", default=None,
                   help="penalties to choose from on the held-out games (default: ridge "
                        f"{' '.join(f'{v:g}' for v in LAMBDAS)}; with --target win "
                        f"{' '.join(f'{v:g}' for v in WIN_PENALTIES)})")
    f.add_argument("--own-tables", type=int, nargs="+", default=[], metavar="TABLE",
                   help="solo tables (0 the plain game, 1-8 the challenge games) given weights "
                        "and spreads of their own, fitted on their games together")
    f.add_argument("--target", choices=("score", "win"), default="score",
                   help="fit each seat's final score (ridge, then a softmax temperature) or "
                        "the winner itself (a conditional logit, ai/learn/winfit.py; several "
                        "players only)")
    f.add_argument("--keep", metavar="MODEL",
                   help="a model file whose weights the sizes not in --own keep (default: fit "
                        "them too)")
    c = sub.add_parser("calibrate", help="recentre a model's solo predictions on the games of "
                                         "the bot that uses it (.json)")
    c.add_argument("data", nargs="+", help="solo games played by that bot (ai.learn play)")
    c.add_argument("--model", required=True, help="the model to calibrate")
    c.add_argument("--out", required=True)
    c.add_argument("--seed", type=int, default=1, help="seed of the held-out split")
    e = sub.add_parser("expert", help="self-play with policy targets (root visits) for the net "
                                      "(.npz; ai/learn/expert.py)")
    e.add_argument("--game", default="mount-tai")
    e.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    e.add_argument("--games", type=int, default=400)
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--bot", default="strong(iterations=400)", help="the bot of every seat")
    e.add_argument("--epsilon", type=float, default=0.05, help="chance of a random move")
    e.add_argument("--workers", type=int, default=2)
    e.add_argument("--out", required=True)
    n = sub.add_parser("net", help="fit the net (value MLP + policy head) on expert data and "
                                   "report it against the linear model and the hand projection")
    n.add_argument("data", nargs="+")
    n.add_argument("--out", required=True, help="the model file (.json)")
    n.add_argument("--seed", type=int, default=1, help="seed of the held-out split and the fit")
    n.add_argument("--hidden", type=int, default=32)
    n.add_argument("--epochs", type=int, default=40)
    n.add_argument("--head", choices=("score", "win", "best"), default="score",
                   help="fit the value's network on the score, on the win (2 players), or "
                        "both and keep the better on the validation games")
    n.add_argument("--linear", help="the linear model to compare (default: the shipped one)")
    n.add_argument("--compare", nargs="*", default=[], metavar="NAME=MODEL",
                   help="other net model files to report beside the new one")
    n.add_argument("--refit", action="store_true",
                   help="refit the value's linear part on this data (default: keep the linear "
                        "model's weights, --linear, and fit the network on what it leaves)")
    r = sub.add_parser("report", help="error of the hand projection and of a model, by round")
    r.add_argument("data", nargs="+")
    r.add_argument("--model", help="a fitted model (.json) to compare")
    r.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.command == "play":
        from ai.learn.selfplay import features_fn, game_indices, generate
        try:
            features_fn(args.game)
            game_indices(1, args.tables, args.game)
        except ValueError as e:
            ap.error(str(e))
        if args.model:
            from engine.mount_tai import learned
            learned.load_model(args.model)   # before the workers fork: they inherit it
        return _play_and_save(args, lambda: generate(
            args.game, args.games, args.seed, args.bot, args.epsilon, args.workers,
            tables=args.tables), {}, lambda d: f"{len(d['x']):,} positions")
    if args.command == "expert":
        from ai.learn.expert import generate as expert_games
        from ai.learn.selfplay import features_fn
        try:
            features_fn(args.game)
        except ValueError as e:
            ap.error(str(e))
        return _play_and_save(args, lambda: expert_games(
            args.game, args.games, args.seed, args.bot, args.epsilon, args.workers,
            players=args.players), {"players": np.asarray(args.players)},
            lambda d: f"{len(d['p_row']):,} decisions, {len(d['x']):,} value rows")
    if args.command == "net":
        from ai.learn import net
        return net.main(args)
    from ai.learn import fit as fitting
    if args.command == "fit":
        if any(not 1 <= k <= fitting.MODES for k in args.own):
            ap.error(f"--own: table sizes are 1 (solo) to {fitting.MODES} players")
        if args.penalties is None:
            args.penalties = list(WIN_PENALTIES if args.target == "win" else LAMBDAS)
        if any(not lam > 0 for lam in args.penalties):
            ap.error("--penalties must be positive")
        if any(not 0 <= t < fitting.SOLO_TABLES for t in args.own_tables):
            ap.error(f"--own-tables: solo tables are 0 (the plain game) to "
                     f"{fitting.SOLO_TABLES - 1}")
        if args.target == "win" and (args.own or args.own_tables or args.keep or args.hidden):
            ap.error("--target win fits one shared model: no --own, --own-tables, --keep or "
                     "--hidden")
        if args.keep and not args.own and not args.own_tables:
            ap.error("--keep needs --own or --own-tables: what is fitted anew")
        kept = None
        if args.keep:
            try:
                kept = fitting.read(args.keep)
            except (OSError, ValueError) as e:
                ap.error(f"--keep: {e}")
    if args.command == "calibrate":
        try:
            base = fitting.read(args.model)
        except (OSError, ValueError) as e:
            ap.error(f"--model: {e}")
    data = fitting.load(args.data)
    if args.command == "calibrate":
        try:
            model = fitting.calibrate(base, data, seed=args.seed)
        except ValueError as e:
            ap.error(str(e))
        fitting.save(model, args.out)
        print("before:\n" + fitting.report(data, base, seed=args.seed))
        print("after:\n" + fitting.report(data, model, seed=args.seed))
        return 0
    if args.command == "fit":
        try:
            if args.target == "win":
                model = fit_win(data, seed=args.seed, penalties=tuple(args.penalties))
            else:
                model = fitting.fit(data, seed=args.seed, hidden=args.hidden,
                                    own=tuple(args.own), penalties=tuple(args.penalties),
                                    own_tables=tuple(args.own_tables))
        except ValueError as e:
            ap.error(str(e))
        if kept is not None:
            model = fitting.keep(model, kept, tuple(args.own), tuple(args.own_tables))
        fitting.save(model, args.out)
        print(fitting.report(data, model, seed=args.seed))
        return 0
    model = fitting.read(args.model) if args.model else None
    print(fitting.report(data, model, seed=args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
