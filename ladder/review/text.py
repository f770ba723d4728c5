"""A reviewed game as a person reads it, at 80 columns: a chart of the chance by month or round,
the accuracy and the verdicts, where the chance went, and the largest drops in words.

Decisions are numbered one way everywhere: the seat's reviewed decisions 1..N (`Decision.index`),
in the largest drops, in `--all`, in the summary's count and on the chart's axis."""
from __future__ import annotations

from engine.core.text import WIDTH, clip, display_width, fill, pad
from ladder.review.game_review import Decision, GameReview
from ladder.review.verdict import DECIDED, THRESHOLDS

SPARK = "▁▂▃▄▅▆▇█"
BAR = 20
MARK = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
TITLES = {"dragon": "In the Year of the Dragon", "mount-tai": "Mount Tai"}


def pct(value: float) -> str:
    """0.62 -> '62%' (an estimate past 0 or 1, a level minus a noisy difference, shows as 0%
    or 100%)."""
    return f"{100 * min(1.0, max(0.0, value)):.0f}%"


def cut(text: str, width: int) -> str:
    """`text` in at most `width` columns, ending in "…" where it was cut."""
    if display_width(text) <= width:
        return text
    return clip(text, width - 1) + "…"


def spark(values: list[float]) -> str:
    """One block character per value in [0, 1], higher for more."""
    return "".join(SPARK[min(len(SPARK) - 1, max(0, int(v * len(SPARK))))] for v in values)


def _count(n: int, word: str) -> str:
    """'1 blunder', '3 inaccuracies'."""
    plural = {"inaccuracy": "inaccuracies"}.get(word, word + "s")
    return f"{n} {word if n == 1 else plural}"


def _wrap(head: str, text: str, width: int) -> list[str]:
    """`head` + `text` broken at spaces, continuations under the text."""
    lead = " " * display_width(head)
    lines = fill(text, width - display_width(head), "") or [""]
    return [head + lines[0]] + [lead + line for line in lines[1:]]


def header(r: GameReview, width: int = WIDTH) -> list[str]:
    """Who is reviewed, by which bot with what budget, and what the percentages mean."""
    title = TITLES.get(r.game, r.game)
    who = r.names[r.seat] if r.seat < len(r.names) else f"P{r.seat}"
    others = [f"P{i} {n}" for i, n in enumerate(r.names) if i != r.seat]
    setting = f"{r.players} players" if r.players > 1 else "solo"
    s = r.settings
    budget = (f"{s['iterations']:,} playouts" if s.get("iterations")
              else f"{s['seconds']:g} s") + " a search"
    lines = _wrap("", f"Review of P{r.seat} ({who}) in {title}, {setting}"
                  + (f", against {', '.join(others)}" if others else "") + ".", width)
    lines += _wrap("", f"Reviewer: {s['reviewer']}, {budget}, seed {s['seed']}; {r.source}.",
                   width)
    if not r.finished:
        lines += _wrap("", "The game is not finished: its decisions so far are reviewed.",
                       width)
    lines += _wrap("", f"Each % is the reviewer's estimated {r.noun}, searched from what "
                   f"P{r.seat} knew at that decision (hidden tiles and future draws drawn "
                   "afresh, never the real ones).", width)
    return lines


def chart(r: GameReview, width: int = WIDTH) -> list[str]:
    """One line per month or round: a bar of the chance after its last decision, its %, and
    a sparkline of every decision in it with the verdicts' marks."""
    if not r.decisions:
        return []
    groups: dict[tuple[str, int], list[Decision]] = {}
    for d in r.decisions:
        groups.setdefault((d.period, d.number), []).append(d)
    label = max(display_width(f"{k} {n}") for k, n in groups)
    out = [f"{r.noun[:1].upper()}{r.noun[1:]} after each decision (bar: the last one):"]
    for (kind, number), ds in groups.items():
        last = ds[-1].after
        filled = round(last * BAR)
        marks = " ".join(MARK[d.verdict] for d in ds if d.verdict)
        line = (f"  {pad(f'{kind} {number}', label)}  {'█' * filled}{'░' * (BAR - filled)} "
                f"{pct(last):>4}  {spark([d.after for d in ds])} {marks}")
        out.append(clip(line.rstrip(), width))
    return out


def summary(r: GameReview, width: int = WIDTH) -> list[str]:
    """The accuracy and the verdicts' counts, where the chance went, the thresholds."""
    c = r.counts()
    acc = "-" if r.accuracy is None else f"{r.accuracy:.0f}%"
    closed = sum(1 for d in r.decisions if d.weight <= 0)
    counted = ""
    if closed:
        counted = (f"; the accuracy leaves out the {closed} taken when the game was decided, "
                   f"under {100 * DECIDED:.0f}% or over {100 - 100 * DECIDED:.0f}%")
    lines = _wrap("", f"Accuracy {acc}: {_count(c['blunder'], 'blunder')}, "
                  f"{_count(c['mistake'], 'mistake')}, {_count(c['inaccuracy'], 'inaccuracy')} "
                  f"in {_count(len(r.decisions), 'decision')}, 1 to {len(r.decisions)} "
                  f"({r.skipped} forced ones skipped{counted}).", width)
    b = r.balance
    if b:
        end = ("the result" if b["finished"] else "the last estimate")
        result = ""
        if b["finished"]:
            result = " (" + ("goal reached" if r.players == 1 and r.outcome
                             else "goal missed" if r.players == 1
                             else "won" if (r.outcome or 0) >= 1 else
                             "shared the win" if r.outcome else "lost") + ")"
        others = ("draws, shown tiles, the virtual player" if r.players == 1
                  else "draws, shown tiles, the other seats' moves")
        margin = f" ± {b['margin']:.0f}" if b.get("margin") else ""
        lines += _wrap("", f"Where the chance went: {b['start']:.0f}% at the first decision; "
                       f"the decisions {b['decisions']:+.0f}{margin} points; luck "
                       f"{b['chance']:+.0f}{margin} points (what happened between them: "
                       f"{others}, and the estimates' noise); "
                       f"{end} {b['end']:.0f}%{result}.", width)
    steps = ", ".join(f"{name} from {t:.0f}" for name, t in reversed(THRESHOLDS))
    lines += _wrap("", f"Verdicts by the drop in points ({steps}), the best and the made "
                   "choice compared on the same draws; a drop within its 95% margin (±) is "
                   "none.", width)
    return lines


def decision_lines(d: Decision, seat: int, you: bool, width: int = WIDTH) -> list[str]:
    """A drop in words: when, how much, the situation, the choice, the better one, what
    followed."""
    verdict = d.verdict or "no verdict"
    out = _wrap("", f"Decision {d.index} ({d.when()}): {verdict}, {pct(d.before)} -> "
                f"{pct(d.after)} ({-d.diff:+.0f} ± {d.margin:.0f} points)", width)
    who = "you" if you else f"P{seat}"
    out += _wrap(f"  {who} had: ", d.situation, width)
    out += _wrap(f"  {who} chose: ", d.made_text, width)
    if d.best != d.made:
        out += _wrap("  better: ", f"{d.best_text} ({pct(d.before)})", width)
    for text in d.followed:
        out += _wrap("  then: ", text, width)
    return out


def every_decision(r: GameReview, width: int = WIDTH) -> list[str]:
    """One line per decision: when, the chance before and after, the mark, the choice."""
    out = ["Every decision (before -> after; the better choice in brackets):"]
    for d in r.decisions:
        mark = MARK.get(d.verdict or "", "")
        head = (f"  {d.index:>3} {d.period[:1]}{d.number:<2} "
                f"{pct(d.before):>4}->{pct(d.after):>4} {mark:2} ")
        text = d.made_text if d.best == d.made else f"{d.made_text} [{d.best_text}]"
        out.append(cut(head + text, width))
    return out


def render(r: GameReview, all_decisions: bool = False, worst: int = 3,
           width: int = WIDTH) -> list[str]:
    """The whole review as lines of at most `width` columns."""
    out = header(r, width) + [""]
    if not r.decisions:
        return out + ["No decision of this seat had more than one choice: nothing to review."]
    out += chart(r, width) + [""] + summary(r, width)
    bad = r.worst(worst)
    if bad:
        out += ["", f"The largest drops ({len(bad)} of "
                f"{sum(1 for d in r.decisions if d.verdict)} with a verdict):"]
        for d in bad:
            out += decision_lines(d, r.seat, r.names[r.seat] == "you", width)
    else:
        out += ["", "No decision lost more than the search's noise: well played."]
    if all_decisions:
        out += [""] + every_decision(r, width)
    return [clip(line, width) for line in out]


__all__ = ["chart", "cut", "render", "spark", "summary"]
