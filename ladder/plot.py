"""Drawing the rating history of a pool: each bot's mu after each of its games, with a band of
one sigma either side and the conservative rating (mu - 3 sigma) dashed. Needs matplotlib (the
`plot` extra); it is imported only here, so the rest of tianti does not need it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core.errors import TiantiError


class PlotError(TiantiError):
    """The plot cannot be drawn (matplotlib missing, nothing to draw, a bad output path)."""


def pyplot() -> Any:
    """matplotlib's pyplot on a backend that needs no screen; PlotError when it is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError("plotting needs matplotlib: pip install 'tianti[plot]'") from None
    return plt


def output(out: str | Path) -> Path:
    """`out` as a path a chart can be written to (its folder exists), else PlotError."""
    out = Path(out)
    if not out.parent.is_dir():
        raise PlotError(f"cannot write {out}: the directory {out.parent} does not exist")
    return out


def save(plt: Any, fig: Any, out: Path) -> Path:
    """Lay out `fig`, write it to `out` (the format follows its suffix) and close it."""
    fig.tight_layout()
    try:
        fig.savefig(out)
    except (OSError, ValueError) as e:
        raise PlotError(f"cannot write {out}: {e}") from None
    finally:
        plt.close(fig)
    return out


def plot_history(histories: dict[str, list[tuple[int, float, float]]], title: str,
                 out: str | Path) -> Path:
    """Write the rating history chart to `out` (the format follows its suffix: .png, .svg,
    .pdf ...)."""
    plt = pyplot()
    if not histories:
        raise PlotError(f"no rated games to plot for {title} (one-player games are not rated)")
    out = output(out)
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
    for bot, points in sorted(histories.items(), key=lambda kv: -kv[1][-1][1]):
        x = [p[0] for p in points]
        mu = [p[1] for p in points]
        sigma = [p[2] for p in points]
        (line,) = ax.plot(x, mu, label=f"{bot} ({mu[-1]:.1f} ± {sigma[-1]:.1f})", linewidth=1.6)
        ax.fill_between(x, [m - s for m, s in zip(mu, sigma)], [m + s for m, s in zip(mu, sigma)],
                        color=line.get_color(), alpha=0.18, linewidth=0)
        ax.plot(x, [m - 3 * s for m, s in zip(mu, sigma)], color=line.get_color(), linewidth=0.8,
                linestyle="--", alpha=0.7)
    ax.set_title(f"TrueSkill rating history: {title}")
    ax.set_xlabel("games rated in this pool")
    ax.set_ylabel("rating (mu; band ± sigma; dashed mu - 3 sigma)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    return save(plt, fig, out)
