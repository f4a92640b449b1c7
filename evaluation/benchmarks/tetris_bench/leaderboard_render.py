"""The Tetris Bench leaderboard as a GitHub Markdown table and as aligned terminal text.

The cell functions (`row_cells`, `pair_cells`, `footnotes`, the number formats) are shared with the
site's pages (`site.py`), so every rendering shows the same figures the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from evaluation.benchmarks.tetris_bench.leaderboard_model import Leaderboard, Pair, Row
from evaluation.core.money import usd
from evaluation.core.repeat_report import repeat_line

DASH = "—"
NOT_RUN = "not run"
COLUMNS = (
    "#",
    "Brain",
    "Score",
    "±95%",
    "Lines",
    "Latency",
    "$ / 100 decisions",
    "Tokens in / out",
    "Blitz · Level reached",
    "Blitz · Answered in time",
)


def number_text(value: float, decimals: int = 1) -> str:
    """A figure as the tables show it: thousands separated, `decimals` places."""
    return f"{value:,.{decimals}f}"


def latency_text(ms: float | None) -> str:
    """A latency in ms or s at a precision that reads at a glance (a dash when unmeasured)."""
    if ms is None:
        return DASH
    if ms >= 1000.0:
        return f"{ms / 1000.0:.2f} s"
    return f"{ms:.1f} ms" if ms < 10.0 else f"{ms:.0f} ms"


def money_text(amount: float | None) -> str:
    """Dollars through the one money formatter (`evaluation/core/money.py`: a cost per 100
    decisions is often below a cent); a dash when nothing was priced."""
    return usd(amount, none=DASH)


def tokens_text(prompt: int, completion: int) -> str:
    """`12,345 / 678` tokens sent / received; a dash for a brain that reported none."""
    if prompt == 0 and completion == 0:
        return DASH
    return f"{prompt:,} / {completion:,}"


def row_cells(r: Row) -> list[str]:
    """The table cells of a row (`COLUMNS`), shared by the Markdown and terminal renderings."""
    brain = f"{r.name} ({', '.join(x for x in (r.kind, r.provider) if x)})" if r.kind else r.name
    if r.repeats is not None:
        low, high = r.repeats["ci95"]
        spread = f"{number_text(low)} to {number_text(high)} ({r.repeats['repeats']} repeats)"
    elif r.half_width is not None:
        spread = f"±{number_text(r.half_width)}"
    else:
        spread = "per seed: " + ", ".join(str(v) for v in r.seed_scores.values())
    if r.blitz is None:
        level = in_time = NOT_RUN
    else:
        level = str(r.blitz.level_reached)
        share = r.blitz.in_time_share
        in_time = DASH if share is None else f"{100.0 * share:.1f}%"
    return [
        f"{r.rank} ≈" if r.tied_with_above else str(r.rank),
        brain,
        number_text(r.score),
        spread,
        number_text(r.lines),
        latency_text(r.latency_ms),
        money_text(r.cost_per_100),
        tokens_text(r.prompt_tokens, r.completion_tokens),
        level,
        in_time,
    ]


def footnotes(lb: Leaderboard) -> list[str]:
    """The notes under the table (ruleset and ranking, Elo, Brier), one string each."""
    elo = []
    for r in lb.rows:
        if r.elo_interval is not None:
            interval = f"[{r.elo_interval[0]:.0f}, {r.elo_interval[1]:.0f}]"
        elif len(lb.rows) == 1:
            interval = "(no other brain to compare with)"
        else:
            interval = "(interval withheld: separated record)"
        elo.append(f"{r.slug} {r.elo:.0f} {interval}")
    calib = [
        f"{r.slug} {r.brier:.3f} ({r.risk_reports} reports)"
        if r.brier is not None
        else f"{r.slug} {DASH}"
        for r in lb.rows
    ]
    repeated = [repeat_line(r.slug, dict(r.repeats)) for r in lb.rows if r.repeats is not None]
    several = (
        [
            "Each seed played several times (--repeats, never official): a seed's score is its "
            "mean over repeats; the interval resamples seeds and repeats: "
            + "; ".join(repeated)
            + "."
        ]
        if repeated
        else []
    )
    return [
        f"Ruleset {lb.ruleset}, {len(lb.seeds)} IQ seeds. Ranked by mean IQ score; "
        "≈ marks a head-to-head interval with the row above that includes zero.",
        *several,
        "Elo (penalised Bradley-Terry over the IQ seeds, prior precision 0.25, pairs weighted "
        "1/(n-1), centred at 1500): " + "; ".join(elo) + ".",
        "Brier score of reported top-out risk (lower is better): " + "; ".join(calib) + ".",
    ]


PAIR_COLUMNS = ("Brain A", "Brain B", "Mean A - B", "95% interval", "Seeds won A / B / tied")


def pair_cells(p: Pair) -> list[str]:
    """The five head-to-head table cells of a pair (the columns of `PAIR_COLUMNS`)."""
    h = p.summary
    return [
        p.a,
        p.b,
        f"{h.mean_diff:+,.1f}",
        f"[{h.low:+,.1f}, {h.high:+,.1f}]" + (" ≈" if h.includes_zero else ""),
        f"{h.wins_a} / {h.wins_b} / {h.ties}",
    ]


def pair_title(lb: Leaderboard) -> str:
    """The sentence above the head-to-head table: what a pair's figures mean."""
    return (
        f"Head-to-head: every pair over the {len(lb.seeds)} IQ seeds; mean paired score "
        f"difference with a {lb.replicates:,}-replicate seed-block bootstrap 95% percentile "
        "interval (≈: includes zero)."
    )


def to_markdown(lb: Leaderboard) -> str:
    """A GitHub table with the seed's columns, the Elo and Brier footnotes, and the head-to-head
    table of every pair of brains."""

    def line(cells: Iterable[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    aligns = ["---:", ":---", *["---:"] * (len(COLUMNS) - 2)]
    out = [line(COLUMNS), "|" + "|".join(aligns) + "|"]
    out += [line(row_cells(r)) for r in lb.rows]
    out.append("")
    out += [f"{note}\n" for note in footnotes(lb)]
    if lb.pairs:
        out += [pair_title(lb), "", line(PAIR_COLUMNS), "|:---|:---|---:|---:|---:|"]
        out += [line(pair_cells(p)) for p in lb.pairs]
    return "\n".join(out).rstrip("\n") + "\n"


def _aligned(table: Sequence[Sequence[str]], left: set[int]) -> list[str]:
    """Rows of cells in plain columns (text left-aligned where asked, numbers right), with a
    rule under the first row."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(table[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in table[1:]]


def to_text(lb: Leaderboard) -> str:
    """The same tables aligned in plain columns for a terminal."""
    out = _aligned([list(COLUMNS)] + [row_cells(r) for r in lb.rows], {1})
    out.append("")
    out += footnotes(lb)
    if lb.pairs:
        out += ["", pair_title(lb)]
        out += _aligned([list(PAIR_COLUMNS)] + [pair_cells(p) for p in lb.pairs], {0, 1})
    return "\n".join(out) + "\n"
