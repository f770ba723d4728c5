"""The sequential probability ratio test of a tournament (`tournament run --sprt ELO0,ELO1`).

It tests H0: "the candidate (the first bot named) is elo0 stronger than the field" against
H1: "it is elo1 stronger", in logistic Elo (the scale where 400 points is 10:1 odds), and stops
the run as soon as the evidence accepts one of them, or at `--deals`. This is the test fishtest
runs for Stockfish patches: the generalized SPRT with the normal approximation of the
log-likelihood ratio (Michel Van den Bergh's derivation), over *paired* observations so that
the duplicate-deal design is used and not thrown away:

- An observation is one complete deal (all its seatings stored): the candidate's mean pairwise
  score against the other bots over the deal's games (1 for each opponent it finished above,
  1/2 level, 0 below). For two bots at a 2-player table a deal is the game pair with swapped
  seats and the observation takes the five values 0, 1/4, 1/2, 3/4, 1: fishtest's pentanomial
  model. With more bots or seats it is the same statistic over the candidate's pairings.
- With the observations' mean m and variance v over N deals, and s0 = L(elo0), s1 = L(elo1)
  the expected scores under each hypothesis (L(x) = 1 / (1 + 10^(-x/400))):
      LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v).
  As fishtest does, the empirical distribution gets a prior mass so that the variance is never
  zero. Fishtest's 1e-3 of an observation per cell suits its batches of hundreds of games; a
  tournament checks after every deal, where that prior would let one won pair "prove" any
  Elo difference, so the prior here is half an observation at each extreme score (0 and 1,
  a Jeffreys-like prior): it shrinks the mean towards 1/2 and keeps the variance honest for
  the first few deals, and its weight vanishes as deals accumulate.
- Bounds (Wald): accept H1 when LLR >= log((1 - beta) / alpha), H0 when LLR <= log(beta / (1 -
  alpha)).

Deals count in deal order only while they are all complete (deal 0, 1, 2, ...), so the decision
does not depend on which worker finished first, and a resumed run reaches the same verdict: it
is recomputed from the stored games. A decided run is finished; its remaining deals are not
played.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import TiantiError

# the prior: (score, weight in observations)
PRIOR = ((0.0, 0.5), (1.0, 0.5))


class SprtError(TiantiError, ValueError):
    """A malformed --sprt, --alpha or --beta, or a tournament the test cannot apply to."""


@dataclass(frozen=True)
class SprtSpec:
    """The test's settings: logistic Elo bounds and error rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        """LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """LLR at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def to_dict(self) -> dict[str, float]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "SprtSpec":
        return SprtSpec(float(d["elo0"]), float(d["elo1"]), float(d.get("alpha", 0.05)),
                        float(d.get("beta", 0.05)))

    @staticmethod
    def parse(text: str, alpha: float = 0.05, beta: float = 0.05) -> "SprtSpec":
        """`ELO0,ELO1` (e.g. `0,10`), checked: finite, elo0 < elo1, 0 < alpha, beta < 1/2."""
        parts = [p.strip() for p in text.split(",")]
        try:
            if len(parts) != 2:
                raise ValueError
            elo0, elo1 = float(parts[0]), float(parts[1])
        except ValueError:
            raise SprtError(f"--sprt takes ELO0,ELO1 (e.g. 0,10), got {text!r}") from None
        if not (math.isfinite(elo0) and math.isfinite(elo1)) or max(abs(elo0), abs(elo1)) > 2000:
            raise SprtError(f"--sprt bounds must be finite Elo differences within ±2000, got {text!r}")
        if not elo0 < elo1:
            raise SprtError(f"--sprt needs ELO0 < ELO1, got {text!r}")
        for name, value in (("alpha", alpha), ("beta", beta)):
            if not (math.isfinite(value) and 0 < value < 0.5):
                raise SprtError(f"--{name} must be between 0 and 0.5, got {value}")
        return SprtSpec(elo0, elo1, alpha, beta)


def expected_score(elo: float) -> float:
    """The expected score of a player `elo` logistic Elo stronger than its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def llr(observations: list[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 over H0 (normal approximation, fishtest's prior)."""
    if not observations:
        return 0.0
    weights = [(x, 1.0) for x in observations] + list(PRIOR)
    n = sum(w for _, w in weights)
    mean = sum(x * w for x, w in weights) / n
    var = sum(w * (x - mean) ** 2 for x, w in weights) / n
    if var <= 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


@dataclass
class SprtState:
    """The test as the stored games stand: the observations (complete deals in order), the
    LLR, and the verdict ("H0", "H1" or None) with the deal that reached it."""

    spec: SprtSpec
    candidate: str
    observations: list[float] = field(default_factory=list)
    games: int = 0
    llr: float = 0.0
    result: str | None = None

    def add(self, score: float, games: int) -> None:
        """One more complete deal (ignored once the test has decided)."""
        if self.result is not None:
            return
        self.observations.append(score)
        self.games += games
        self.llr = llr(self.observations, self.spec.elo0, self.spec.elo1)
        if self.llr >= self.spec.upper:
            self.result = "H1"
        elif self.llr <= self.spec.lower:
            self.result = "H0"

    @property
    def deals(self) -> int:
        return len(self.observations)

    def elo(self) -> float | None:
        """The candidate's Elo difference estimated from the mean observed score."""
        if not self.observations:
            return None
        m = min(max(sum(self.observations) / len(self.observations), 1e-6), 1 - 1e-6)
        return -400.0 * math.log10(1.0 / m - 1.0)

    def text(self) -> str:
        """For the progress bar: the LLR and its bounds."""
        verdict = f", accepts {self.result}" if self.result else ""
        return (f"LLR {self.llr:+.2f} [{self.spec.lower:+.2f}, {self.spec.upper:+.2f}]"
                f"{verdict}")

    def to_dict(self) -> dict[str, Any]:
        return {**self.spec.to_dict(), "candidate": self.candidate, "llr": self.llr,
                "lower": self.spec.lower, "upper": self.spec.upper, "deals": self.deals,
                "games": self.games, "result": self.result, "elo": self.elo()}


class DealTracker:
    """Feeds a run's games to the test deal by deal: a deal counts once all its seatings are
    stored, and only after every earlier deal."""

    def __init__(self, spec: SprtSpec, candidate: str, seatings_per_deal: int) -> None:
        self.state = SprtState(spec, candidate)
        self.per_deal = seatings_per_deal
        self.pending: dict[int, list[float]] = {}
        self.next_deal = 0

    def add_game(self, deal: int, seats: list[tuple[str, int]]) -> None:
        """A stored game of the run: its deal and (bot, rank) per seat."""
        ranks: dict[str, list[int]] = {}
        for bot, rank in seats:
            ranks.setdefault(bot, []).append(rank)
        if self.state.candidate not in ranks:
            score = None
        else:
            mine = sum(ranks[self.state.candidate]) / len(ranks[self.state.candidate])
            others = [sum(r) / len(r) for b, r in ranks.items() if b != self.state.candidate]
            score = (sum(1.0 if mine < o else 0.5 if mine == o else 0.0 for o in others)
                     / len(others)) if others else None
        self.pending.setdefault(deal, []).append(-1.0 if score is None else score)
        while len(self.pending.get(self.next_deal, ())) >= self.per_deal:
            scores = [s for s in self.pending.pop(self.next_deal) if s >= 0]
            if scores:
                self.state.add(sum(scores) / len(scores), self.per_deal)
            self.next_deal += 1


def fixed_games_for_power(spec: SprtSpec, variance: float, games_per_deal: int) -> int:
    """Games a fixed-length test needs for the same error rates (one-sided z-test of the mean
    deal score between s0 and s1, with the given per-deal variance)."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(1 - spec.alpha) + NormalDist().inv_cdf(1 - spec.beta)
    delta = expected_score(spec.elo1) - expected_score(spec.elo0)
    return math.ceil((z * math.sqrt(variance) / delta) ** 2) * games_per_deal
