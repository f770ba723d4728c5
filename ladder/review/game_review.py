"""A reviewed game: every decision of one seat with its estimates, verdict and words, and the
game's accuracy and luck (no terminal I/O here).

`review_game(start, actions, seat, settings)` is the whole review: it walks the game from
`start` (its true initial state, kept here), asks ladder/review/analysis.py for each decision's
estimates from the seat's views, and adds the verdicts (ladder/review/verdict.py) and the
words (ladder/review/context.py). A `GameReview` is plain data: `to_dict()` / `from_dict()`
round-trip it through JSON (the cache and `tianti review --json`).
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ladder.table.hints import meaning
from ladder.review.analysis import ReviewError, Settings, decisions, estimate_all
from ladder.review.context import followed, period, situation
from ladder.review.verdict import (Balance, balance, classify, decision_weight, game_accuracy,
                                   margin_points, move_accuracy)

FORMAT = "tianti-review"
VERSION = 3   # 2: the accuracy counts only the decisions taken while the game was open;
              # 3: the best and the made choice compared on common random numbers


@dataclass
class Decision:
    """One reviewed decision of the seat (values in [0, 1], `drop` in points)."""

    index: int                 # its number among the seat's reviewed decisions (1..N), the
                               # one the text, the summary and the chart show
    move: int                  # its number in the game's history
    period: str                # "month", "round" or "decision"
    number: int                # which month / round
    situation: str             # the seat's situation in one line
    choices: int               # how many legal choices there were
    made: int
    made_text: str
    best: int
    best_text: str
    before: float              # chance with the best choice
    after: float               # chance after the choice made (before - diff / 100)
    best_visits: int
    diff: float                # best minus made in points, on common random numbers (may be
                               # negative; 0 when the best was made)
    margin: float              # the 95% margin of `diff` in points (0 when the best was made)
    pairs: int                 # the pairs of searches behind `diff` (0: the best was made)
    iterations: int
    drop: float                # max(0, diff): the accuracy's input
    accuracy: float
    verdict: str | None        # blunder / mistake / inaccuracy / None
    weight: float = 1.0        # its weight in the game's accuracy (0: the game was decided)
    luck: float | None = None  # points the chance moved after it, before the next decision
    followed: list[str] = field(default_factory=list)
    top: list[dict[str, Any]] = field(default_factory=list)  # action, text, visits, mean

    def when(self) -> str:
        """'month 6', 'round 3'."""
        return f"{self.period} {self.number}"


@dataclass
class GameReview:
    """One seat's review of one game."""

    game: str
    options: dict[str, Any]
    players: int
    seat: int
    names: list[str]           # who sat where ("you", "strong", ...)
    source: str                # what was reviewed, in words
    settings: dict[str, Any]
    noun: str                  # what the values are ("chance to win", ...)
    finished: bool
    outcome: float | None      # the seat's result in [0, 1] (None: not finished)
    scores: list[int]
    decisions: list[Decision]
    skipped: int               # forced decisions (a single legal choice)
    accuracy: float | None
    balance: dict[str, Any] | None
    seconds: float

    def counts(self) -> dict[str, int]:
        """How many decisions got each verdict."""
        out = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for d in self.decisions:
            if d.verdict:
                out[d.verdict] += 1
        return out

    def worst(self, n: int) -> list[Decision]:
        """The `n` largest differences that earned a verdict, worst first (then in game
        order)."""
        bad = [d for d in self.decisions if d.verdict]
        return sorted(bad, key=lambda d: (-d.diff, d.move))[:n]

    def to_dict(self) -> dict[str, Any]:
        """Everything, as JSON-ready data (with the verdicts' counts)."""
        return {"format": FORMAT, "version": VERSION, **asdict(self), "counts": self.counts()}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "GameReview":
        """A review from `to_dict()`'s data; ReviewError for anything else."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ReviewError(f"not a tianti review (format {FORMAT!r} expected)")
        if data.get("version") != VERSION:
            raise ReviewError(f"a review of version {data.get('version')}, this tianti reads "
                              f"version {VERSION}")
        fields = {k: v for k, v in data.items() if k not in ("format", "version", "counts")}
        try:
            fields["decisions"] = [Decision(**d) for d in fields["decisions"]]
            return GameReview(**fields)
        except (KeyError, TypeError) as e:
            raise ReviewError(f"a broken review: {e}") from None


def _noun(settings: Settings, start: Any) -> str:
    """What the reviewer's values mean in this game."""
    from ai.bots import make_bot

    bot = make_bot(settings.reviewer, **settings.budget())
    make = getattr(bot, "searcher_for", None)
    searcher = make(start) if callable(make) else getattr(bot, "searcher", None)
    config = dict(getattr(searcher, "config", {}) or {})
    return meaning(config, start.num_players()).noun


def review_game(start: Any, actions: list[int], seat: int, settings: Settings, *,
                names: list[str] | None = None, source: str = "",
                workers: int = 1, progress: Callable[[int, int], None] | None = None
                ) -> GameReview:
    """Review `seat`'s decisions in the game that plays `actions` from `start` (a true state:
    it stays here; the searches get views of the seat). `progress(done, total)` after each
    decision estimated."""
    began = time.perf_counter()
    jobs = decisions(start, actions, seat, settings.seed)
    total = len(jobs)
    if progress:
        progress(0, total)
    estimates = estimate_all(jobs, settings, workers,
                             (lambda done: progress(done, total)) if progress else None)
    # The words: a second walk over the true game (read after the game, never searched).
    truth = start.clone()
    at: dict[int, tuple[tuple[str, int], str, int]] = {}
    periods: list[tuple[str, int]] = []
    wanted = {j.move for j in jobs}
    forced = 0
    for a in actions:
        move = truth.move_number()
        if move in wanted:
            at[move] = (period(truth), situation(truth, seat), len(truth.legal_actions()))
        elif truth.current_player() == seat:
            forced += 1
        truth.apply_action(a)
        periods.append(period(truth))
    out: list[Decision] = []
    for index, job in enumerate(jobs, start=1):
        e = estimates[job.move]
        (kind, number), line, choices = at[job.move]
        drop = max(0.0, 100.0 * e.diff)
        top = [dict(t, text=job.view.action_to_string(t["action"])) for t in e.top]
        out.append(Decision(
            index=index, move=job.move, period=kind, number=number, situation=line,
            choices=choices, made=job.made, made_text=job.view.action_to_string(job.made),
            best=e.best, best_text=job.view.action_to_string(e.best), before=e.before,
            after=e.after, best_visits=e.best_visits, diff=100.0 * e.diff,
            margin=margin_points(e.noise, e.pairs), pairs=e.pairs, iterations=e.iterations,
            drop=drop, accuracy=move_accuracy(drop), verdict=classify(e.diff, e.noise, e.pairs),
            weight=decision_weight(e.before, e.after),
            followed=followed(truth, job.move, seat, (kind, number), periods), top=top))
    finished = truth.is_terminal()
    outcome = float(truth.returns()[seat]) if finished else None
    for d, nxt in zip(out, out[1:]):
        d.luck = 100 * (nxt.before - d.after)
    if out and outcome is not None:
        out[-1].luck = 100 * (outcome - out[-1].after)
    bal: Balance | None = balance([d.before for d in out], [d.after for d in out], outcome,
                                  [estimates[j.move].noise for j in jobs])
    return GameReview(
        game=start.game.name, options=dict(start.game.options), players=start.num_players(),
        seat=seat, names=list(names or [f"P{i}" for i in range(start.num_players())]),
        source=source, settings=settings.to_dict(), noun=_noun(settings, start),
        finished=finished, outcome=outcome, scores=list(truth.scores()), decisions=out,
        skipped=forced,
        accuracy=game_accuracy([d.drop for d in out], [d.weight for d in out]),
        balance=asdict(bal) if bal else None, seconds=time.perf_counter() - began)


__all__ = ["Decision", "FORMAT", "GameReview", "VERSION", "review_game"]
