"""The Tetris Bench leaderboard: one row per brain, ranked by mean IQ score, and its index file.

Only IQ is ranked; Blitz is reported beside it. The ±95% column, the `≈` marker, the
head-to-head table and the Elo footnote all come from `evaluation.core.stats`, computed over the
IQ seeds every brain played. The ±95% interval is shown for official results only (all public
seeds, at least ten): any other run lists its per-seed scores, so a partial run never looks
official.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.benchmarks.tetris_bench.records import GameResult, ResultFormatError
from evaluation.core.episode import INCOMPLETE_ENDS
from evaluation.core.rundir import write_text_atomic
from evaluation.core.stats import (
    PRIOR_PRECISION,
    HeadToHead,
    bradley_terry,
    brier,
    bt_bootstrap,
    paired_bootstrap,
    seed_comparisons,
    t_interval,
)
from evaluation.core.untrusted_json import read_json

MODES = ("IQ", "Blitz")
MIN_SEEDS_FOR_INTERVAL = 10
INDEX_FORMAT = "arcade-gym/leaderboard-index@1"
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
    "Blitz · Level reached",
    "Blitz · Answered in time",
)


@dataclass(frozen=True)
class BlitzSummary:
    """A brain's Blitz games: the highest level reached and how many questions were in time.

    `questions` counts ticks (one tick is one question), so late, unusable and gravity-locked
    questions all count against the in-time share.
    """

    games: int
    level_reached: int
    questions: int
    in_time: int
    late: int
    unreachable: int
    locked: int

    @property
    def in_time_share(self) -> float | None:
        """Answered in time / questions asked; None when no question was asked."""
        return self.in_time / self.questions if self.questions else None


@dataclass(frozen=True)
class Row:
    """One brain on the leaderboard (IQ figures unless named Blitz)."""

    rank: int
    tied_with_above: bool  # the `≈`: head-to-head interval with the row above includes zero
    slug: str
    name: str
    kind: str
    provider: str | None
    score: float
    half_width: float | None  # None unless official: `seed_scores` are listed instead
    seed_scores: dict[str, int]
    lines: float
    latency_ms: float | None
    cost_per_100: float | None  # None: nothing priced (a local brain), shown as a dash
    priced_calls: int
    unpriced_calls: int
    blitz: BlitzSummary | None  # None: "not run"
    vs_above: HeadToHead | None
    elo: float
    elo_interval: tuple[float, float] | None  # None: withheld (separated record)
    brier: float | None
    risk_reports: int


@dataclass(frozen=True)
class Pair:
    """Head-to-head of two brains over the shared IQ seeds, `a` ranked above `b`: the paired
    differences (a - b) per seed and their bootstrap summary."""

    a: str
    b: str
    differences: dict[str, float]
    summary: HeadToHead


@dataclass(frozen=True)
class Leaderboard:
    """The ranked rows of one ruleset over one IQ seed set, and every pair's head-to-head."""

    ruleset: str
    seeds: tuple[str, ...]
    rows: tuple[Row, ...]
    pairs: tuple[Pair, ...] = ()
    official: bool = False
    replicates: int = 2000


# --------------------------------------------------------------------------- validation


def median_latency(results: Iterable[GameResult]) -> float | None:
    """Median milliseconds over every completed call of the games (both modes); None if none."""
    values = [ms for r in results for ms in r.latencies_ms]
    return float(np.median(values)) if values else None


def cost_per_100(results: Iterable[GameResult]) -> float | None:
    """Reported USD per hundred decisions over the games given (both modes).

    None when no game reported a cost (a local brain, shown as a dash) or no decision was made.
    Calls the provider left unpriced add decisions but no cost; they are counted separately.
    """
    games = list(results)
    reported = [r.cost_usd for r in games if r.cost_usd is not None]
    decisions = sum(r.decisions for r in games)
    if not reported or decisions == 0:
        return None
    return 100.0 * math.fsum(reported) / decisions


def _check_one_ruleset(results: Sequence[GameResult], where: str = "results") -> str:
    rulesets = sorted({r.ruleset for r in results})
    if len(rulesets) > 1:
        raise ValueError(
            f"{where} mix rulesets {', '.join(rulesets)}: results of different rulesets are not "
            "comparable; build one leaderboard per ruleset"
        )
    return rulesets[0]


def _check_modes_and_duplicates(results: Sequence[GameResult], where: str = "results") -> None:
    seen: set[tuple[str, str, str]] = set()
    for r in results:
        if r.end_reason in INCOMPLETE_ENDS:
            raise ValueError(
                f"{r.slug} {r.mode} {r.seed} ended {r.end_reason!r}: a game that did not finish "
                "is never counted; resume the run to play it again"
            )
        if r.mode not in MODES:
            raise ValueError(
                f"unknown mode {r.mode!r} for {r.slug} on {r.seed}; expected IQ or Blitz"
            )
        key = (r.slug, r.mode, r.seed)
        if key in seen:
            raise ValueError(
                f"{where} hold {r.slug} {r.mode} {r.seed} more than once; "
                "each brain plays each seed once per mode"
            )
        seen.add(key)


def _iq_seed_sets(results: Sequence[GameResult]) -> dict[str, frozenset[str]]:
    """Per brain, the IQ seeds it played; refuses a brain with no IQ game (IQ is not optional)."""
    sets: dict[str, set[str]] = {r.slug: set() for r in results}
    for r in results:
        if r.mode == "IQ":
            sets[r.slug].add(r.seed)
    no_iq = sorted(slug for slug, seeds in sets.items() if not seeds)
    if no_iq:
        raise ValueError(
            f"{', '.join(no_iq)} played no IQ game: "
            "IQ is required for every brain, Blitz is optional"
        )
    return {slug: frozenset(seeds) for slug, seeds in sets.items()}


def _check_same_seeds(sets: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """The one IQ seed set every brain played, or a ValueError naming who differs and how."""
    distinct = set(sets.values())
    if len(distinct) == 1:
        return next(iter(distinct))
    common = frozenset.intersection(*sets.values())
    detail = "; ".join(
        f"{slug}: {len(seeds)} seeds, not shared {', '.join(sorted(seeds - common))}"
        for slug, seeds in sorted(sets.items())
        if seeds != common
    )
    raise ValueError(
        "brains played different IQ seed sets; every brain must play the same seeds to be "
        f"ranked together ({detail})"
    )


# --------------------------------------------------------------------------- building


def _blitz_summary(games: Sequence[GameResult]) -> BlitzSummary | None:
    if not games:
        return None
    return BlitzSummary(
        games=len(games),
        level_reached=max(g.level for g in games),
        questions=sum(g.ticks for g in games),
        in_time=sum(g.blitz_in_time for g in games),
        late=sum(g.blitz_late for g in games),
        unreachable=sum(g.blitz_unreachable for g in games),
        locked=sum(g.blitz_locked for g in games),
    )


def _head_to_heads(
    order: Sequence[str],
    scores: Mapping[str, Mapping[str, float]],
    seeds: Sequence[str],
    replicates: int,
    seed: int,
) -> dict[tuple[str, str], Pair]:
    """Every pair of brains (in rank order): paired seed differences and their bootstrap."""
    pairs: dict[tuple[str, str], Pair] = {}
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            xa = [scores[a][s] for s in seeds]
            xb = [scores[b][s] for s in seeds]
            pairs[(a, b)] = Pair(
                a,
                b,
                {s: x - y for s, x, y in zip(seeds, xa, xb, strict=True)},
                paired_bootstrap(xa, xb, replicates, seed),
            )
    return pairs


def build_leaderboard(
    results: Sequence[GameResult],
    *,
    official: bool = False,
    replicates: int = 2000,
    seed: int = 0,
) -> Leaderboard:
    """Rank every brain by mean IQ score (ties: mean lines, then slug) with the seed's columns.

    Refuses results mixing rulesets, duplicated games, brains without IQ games, and IQ seed sets
    that differ between brains: a mean over other seeds is not the same quantity. `official`
    (all public seeds) shows the ±95% interval; other runs list per-seed scores instead.
    `replicates` and `seed` drive both bootstraps (head-to-head and Elo interval).
    """
    results = list(results)
    if not results:
        raise ValueError("no results to rank: a leaderboard needs at least one brain's IQ games")
    ruleset = _check_one_ruleset(results)
    _check_modes_and_duplicates(results)
    seeds = tuple(sorted(_check_same_seeds(_iq_seed_sets(results))))

    by_brain: dict[str, list[GameResult]] = {}
    for r in results:
        by_brain.setdefault(r.slug, []).append(r)

    scores: dict[str, dict[str, float]] = {}
    drafts: list[dict[str, Any]] = []
    for slug, games in by_brain.items():
        iq = sorted((g for g in games if g.mode == "IQ"), key=lambda g: g.seed)
        blitz = [g for g in games if g.mode == "Blitz"]
        per_seed = {g.seed: g.score for g in iq}
        scores[slug] = {s: float(v) for s, v in per_seed.items()}
        mean, half = t_interval([g.score for g in iq], min_n=MIN_SEEDS_FOR_INTERVAL)
        if not official:
            half = None
        identity = iq[-1].brain
        risks = [pair for g in games for pair in g.risks]
        drafts.append(
            {
                "slug": slug,
                "name": str(identity.get("name") or slug),
                "kind": str(identity.get("kind") or ""),
                "provider": identity.get("provider") or None,
                "score": mean,
                "half_width": half,
                "seed_scores": per_seed,
                "lines": sum(g.lines for g in iq) / len(iq),
                "latency_ms": median_latency(games),
                "cost_per_100": cost_per_100(games),
                "priced_calls": sum(g.priced_calls for g in games),
                "unpriced_calls": sum(g.unpriced_calls for g in games),
                "blitz": _blitz_summary(blitz),
                "brier": brier(risks),
                "risk_reports": len(risks),
            }
        )
    drafts.sort(key=lambda d: (-d["score"], -d["lines"], d["slug"]))

    elo = bradley_terry(seed_comparisons(scores), PRIOR_PRECISION, brains=scores)
    elo_ci = bt_bootstrap(scores, replicates, seed, prior_precision=PRIOR_PRECISION)
    pairs = _head_to_heads([d["slug"] for d in drafts], scores, seeds, replicates, seed)
    rows: list[Row] = []
    for position, draft in enumerate(drafts, start=1):
        vs_above = pairs[(rows[-1].slug, draft["slug"])].summary if rows else None
        rows.append(
            Row(
                rank=position,
                tied_with_above=vs_above is not None and vs_above.includes_zero,
                vs_above=vs_above,
                elo=elo[draft["slug"]],
                elo_interval=elo_ci[draft["slug"]],
                **draft,
            )
        )
    return Leaderboard(
        ruleset=ruleset,
        seeds=seeds,
        rows=tuple(rows),
        pairs=tuple(pairs.values()),
        official=official,
        replicates=replicates,
    )


# --------------------------------------------------------------------------- output


def to_json(lb: Leaderboard) -> dict[str, Any]:
    """Every figure of the leaderboard as plain JSON values (None where the table shows a dash)."""

    def row(r: Row) -> dict[str, Any]:
        blitz = None
        if r.blitz is not None:
            blitz = {
                "games": r.blitz.games,
                "levelReached": r.blitz.level_reached,
                "questions": r.blitz.questions,
                "inTime": r.blitz.in_time,
                "late": r.blitz.late,
                "unreachable": r.blitz.unreachable,
                "locked": r.blitz.locked,
                "inTimeShare": r.blitz.in_time_share,
            }
        vs_above = None
        if r.vs_above is not None:
            h = r.vs_above
            vs_above = {
                "meanDiff": h.mean_diff,
                "low": h.low,
                "high": h.high,
                "winsAbove": h.wins_a,
                "winsThis": h.wins_b,
                "ties": h.ties,
                "seeds": h.n,
                "includesZero": h.includes_zero,
            }
        return {
            "rank": r.rank,
            "tiedWithAbove": r.tied_with_above,
            "slug": r.slug,
            "name": r.name,
            "kind": r.kind,
            "provider": r.provider,
            "score": r.score,
            "halfWidth95": r.half_width,
            "seedScores": dict(r.seed_scores),
            "lines": r.lines,
            "latencyMs": r.latency_ms,
            "costPer100Decisions": r.cost_per_100,
            "pricedCalls": r.priced_calls,
            "unpricedCalls": r.unpriced_calls,
            "blitz": blitz,
            "vsAbove": vs_above,
            "elo": r.elo,
            "eloInterval": list(r.elo_interval) if r.elo_interval is not None else None,
            "brier": r.brier,
            "riskReports": r.risk_reports,
        }

    def pair(p: Pair) -> dict[str, Any]:
        h = p.summary
        return {
            "brainA": p.a,
            "brainB": p.b,
            "meanDiff": h.mean_diff,
            "low": h.low,
            "high": h.high,
            "winsA": h.wins_a,
            "winsB": h.wins_b,
            "ties": h.ties,
            "seeds": h.n,
            "includesZero": h.includes_zero,
            "differences": dict(p.differences),
        }

    return {
        "ruleset": lb.ruleset,
        "official": lb.official,
        "seeds": list(lb.seeds),
        "rows": [row(r) for r in lb.rows],
        "headToHead": [pair(p) for p in lb.pairs],
        "headToHeadReplicates": lb.replicates,
    }


def _head_to_head(data: Mapping[str, Any] | None, a: str = "winsA", b: str = "winsB") -> Any:
    """The `HeadToHead` a `to_json` pair (or row's `vsAbove`, with its own win keys) holds."""
    if data is None:
        return None
    return HeadToHead(
        mean_diff=float(data["meanDiff"]),
        low=float(data["low"]),
        high=float(data["high"]),
        wins_a=int(data[a]),
        wins_b=int(data[b]),
        ties=int(data["ties"]),
        n=int(data["seeds"]),
    )


def leaderboard_from_json(data: Mapping[str, Any]) -> Leaderboard:
    """The `Leaderboard` a `leaderboard.json` (`to_json`) holds, so the site renders a shipped
    board with the same cell functions as the Markdown table."""
    rows = []
    for r in data["rows"]:
        b = r.get("blitz")
        blitz = None
        if b is not None:
            blitz = BlitzSummary(
                games=int(b["games"]),
                level_reached=int(b["levelReached"]),
                questions=int(b["questions"]),
                in_time=int(b["inTime"]),
                late=int(b["late"]),
                unreachable=int(b["unreachable"]),
                locked=int(b["locked"]),
            )
        interval = r.get("eloInterval")
        rows.append(
            Row(
                rank=int(r["rank"]),
                tied_with_above=bool(r["tiedWithAbove"]),
                slug=str(r["slug"]),
                name=str(r["name"]),
                kind=str(r.get("kind") or ""),
                provider=r.get("provider"),
                score=float(r["score"]),
                half_width=r.get("halfWidth95"),
                seed_scores={str(k): int(v) for k, v in r["seedScores"].items()},
                lines=float(r["lines"]),
                latency_ms=r.get("latencyMs"),
                cost_per_100=r.get("costPer100Decisions"),
                priced_calls=int(r.get("pricedCalls", 0)),
                unpriced_calls=int(r.get("unpricedCalls", 0)),
                blitz=blitz,
                vs_above=_head_to_head(r.get("vsAbove"), "winsAbove", "winsThis"),
                elo=float(r["elo"]),
                elo_interval=None if interval is None else (float(interval[0]), float(interval[1])),
                brier=r.get("brier"),
                risk_reports=int(r.get("riskReports", 0)),
            )
        )
    pairs = tuple(
        Pair(str(p["brainA"]), str(p["brainB"]), dict(p["differences"]), _head_to_head(p))
        for p in data.get("headToHead", [])
    )
    return Leaderboard(
        ruleset=str(data["ruleset"]),
        seeds=tuple(str(s) for s in data["seeds"]),
        rows=tuple(rows),
        pairs=pairs,
        official=bool(data.get("official")),
        replicates=int(data.get("headToHeadReplicates", 2000)),
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


def money_text(usd: float | None) -> str:
    """Dollars to three significant figures: a cost per 100 decisions is often below a cent."""
    if usd is None:
        return DASH
    if usd == 0.0:
        return "$0"
    if usd >= 1.0:
        return f"${usd:,.2f}"
    decimals = min(8, 2 - math.floor(math.log10(usd)))
    return f"${usd:.{decimals}f}"


def row_cells(r: Row) -> list[str]:
    """The nine table cells of a row, shared by the Markdown and terminal renderings."""
    brain = f"{r.name} ({', '.join(x for x in (r.kind, r.provider) if x)})" if r.kind else r.name
    if r.half_width is not None:
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
    return [
        f"Ruleset {lb.ruleset}, {len(lb.seeds)} IQ seeds. Ranked by mean IQ score; "
        "≈ marks a head-to-head interval with the row above that includes zero.",
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

    aligns = ["---:", ":---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]
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


# --------------------------------------------------------------------------- index file


def load_index(index_path: str | os.PathLike[str]) -> list[GameResult]:
    """The results stored in a leaderboard index (an empty list when there is no index yet)."""
    path = Path(index_path)
    return _index_results(path, _read_index(path))


def _index_results(path: Path, index: Mapping[str, Any]) -> list[GameResult]:
    """The index's results (camelCase, or the snake_case keys of indexes written before)."""
    try:
        return [GameResult.from_dict(d) for d in index.get("results", [])]
    except ResultFormatError as exc:
        raise ValueError(f"cannot read leaderboard index {path}: {exc}") from None


def _read_index(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = read_json(path)
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read leaderboard index {path}: {exc}") from None
    if not (
        isinstance(data, dict)
        and isinstance(data.get("ruleset"), str)
        and isinstance(data.get("seeds"), list)
        and isinstance(data.get("results"), list)
    ):
        raise ValueError(
            f"{path} is not a leaderboard index (expected an object with ruleset, seeds, results)"
        )
    return data


def merge_index(
    index_path: str | os.PathLike[str],
    results: Sequence[GameResult],
    *,
    official: bool = True,
) -> dict[str, Any]:
    """Merge an official run into the index file and return the index as written.

    The first merge fixes the index's ruleset and IQ seed set; later merges must match both.
    A brain already in the index is replaced as a whole (latest wins); the same game twice within
    one merge is refused. Quick (non-official) runs are never merged. The file is replaced
    atomically so a crash leaves the previous index intact.
    """
    path = Path(index_path)
    if not official:
        raise ValueError(
            "only official results are merged into a leaderboard index; "
            "rerun with --official (all public seeds) to publish"
        )
    new = list(results)
    if not new:
        raise ValueError("nothing to merge: no results given")
    ruleset = _check_one_ruleset(new, "the results to merge")
    _check_modes_and_duplicates(new, "the results to merge")
    seeds = _check_same_seeds(_iq_seed_sets(new))
    blitz_elsewhere = sorted({r.seed for r in new if r.mode == "Blitz"} - seeds)

    index = _read_index(path)
    if index:
        index_seeds = frozenset(str(s) for s in index["seeds"])
        if index["ruleset"] != ruleset or index_seeds != seeds:
            raise ValueError(
                f"cannot merge into {path}: the index holds {index['ruleset']} over "
                f"{len(index_seeds)} IQ seeds, these results are {ruleset} over {len(seeds)} "
                f"IQ seeds ({_seed_difference(index_seeds, seeds)}); an index holds one ruleset "
                "and one seed set, so start a new index for a new ruleset or seed set"
            )
    if blitz_elsewhere:
        raise ValueError(
            f"Blitz games on seeds outside the IQ seed set: {', '.join(blitz_elsewhere)}; "
            "an index holds one seed set"
        )

    incoming = {r.slug for r in new}
    kept = [r.to_dict() for r in _index_results(path, index) if r.slug not in incoming]
    merged = {
        "format": INDEX_FORMAT,
        "ruleset": ruleset,
        "seeds": sorted(seeds),
        "results": kept + [r.to_dict() for r in new],
    }
    write_text_atomic(path, json.dumps(merged, indent=1, ensure_ascii=False) + "\n", fsync=True)
    return merged


def _seed_difference(old: frozenset[str], new: frozenset[str]) -> str:
    parts = []
    if new - old:
        parts.append("not in the index: " + ", ".join(sorted(new - old)))
    if old - new:
        parts.append("missing: " + ", ".join(sorted(old - new)))
    return "; ".join(parts) or "same seeds"
