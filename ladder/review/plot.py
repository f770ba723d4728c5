"""A reviewed game's chance by decision as a picture (`tianti review --plot FILE.png`). Needs
matplotlib (the `plot` extra); it is imported only here."""
from __future__ import annotations

from pathlib import Path

from ladder.plot import PlotError, output, pyplot, save
from ladder.review.game_review import GameReview

COLOURS = {"inaccuracy": "#e0b000", "mistake": "#e07000", "blunder": "#d00000"}


def _pct(value: float) -> float:
    """A chance in percent, within 0..100 (a level minus a noisy difference may pass them)."""
    return 100.0 * min(1.0, max(0.0, value))


def plot_review(r: GameReview, out: str | Path) -> Path:
    """Write the chart of the chance before and after each decision, the verdicts marked and
    each month or round shaded in turn, to `out` (the format follows its suffix)."""
    plt = pyplot()
    if not r.decisions:
        raise PlotError("nothing to plot: no decision of this seat had more than one choice")
    out = output(out)
    fig, ax = plt.subplots(figsize=(10, 4.8), dpi=110)
    x = [d.index for d in r.decisions]   # the seat's decisions 1..N, as in the text
    ax.plot(x, [_pct(d.after) for d in r.decisions], color="#2060c0", linewidth=1.6,
            label="after the choice made")
    ax.plot(x, [_pct(d.before) for d in r.decisions], color="#909090", linewidth=0.9,
            linestyle="--", label="with the best choice")
    for kind, colour in COLOURS.items():
        pts = [(d.index, _pct(d.after)) for d in r.decisions if d.verdict == kind]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], color=colour, zorder=3,
                       label=kind)
    start, shade = 0, False
    for i in range(1, len(r.decisions) + 1):
        d = r.decisions[start]
        if i == len(r.decisions) or (r.decisions[i].period, r.decisions[i].number) != \
                (d.period, d.number):
            if shade:
                ax.axvspan(start + 0.5, i + 0.5, color="#f0f0f0", zorder=0)
            ax.text((start + i + 1) / 2, 101, str(d.number), ha="center", fontsize=7)
            start, shade = i, not shade
    ax.set_ylim(-2, 106)
    ax.set_xlabel(f"decisions of P{r.seat}, 1 to {len(r.decisions)} "
                  f"(numbers on top: {r.decisions[0].period})")
    ax.set_ylabel(f"{r.noun} (%)")
    from ladder.review.text import TITLES

    ax.set_title(f"Review of P{r.seat} in {TITLES.get(r.game, r.game)}")
    ax.legend(loc="best", fontsize="small")
    return save(plt, fig, out)


__all__ = ["plot_review"]
