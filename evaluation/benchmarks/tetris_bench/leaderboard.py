"""The Tetris Bench leaderboard: one row per brain, ranked by mean IQ score, and its index file.

Only IQ is ranked; Blitz is reported beside it. The ±95% column, the `≈` marker, the
head-to-head table and the Elo footnote all come from `evaluation.core.stats`, computed over the
IQ seeds every brain played. The ±95% interval is shown for official results only (all public
seeds, at least ten): any other run lists its per-seed scores, so a partial run never looks
official.

This module builds the board; its figures are `leaderboard_model.py`, the checks on the results
`leaderboard_checks.py`, the JSON `leaderboard_json.py`, the tables `leaderboard_render.py` and the
index file `leaderboard_index.py` (their public names are importable from here too).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from evaluation.benchmarks.tetris_bench.leaderboard_checks import (
    check_modes_and_duplicates,
    check_one_ruleset,
    check_same_seeds,
    iq_seed_sets,
)
from evaluation.benchmarks.tetris_bench.leaderboard_index import (
    INDEX_FORMAT,
    load_index,
    merge_index,
)
from evaluation.benchmarks.tetris_bench.leaderboard_json import leaderboard_from_json, to_json
from evaluation.benchmarks.tetris_bench.leaderboard_model import (
    MODES,
    BlitzSummary,
    Leaderboard,
    Pair,
    Row,
)
from evaluation.benchmarks.tetris_bench.leaderboard_render import (
    COLUMNS,
    DASH,
    NOT_RUN,
    PAIR_COLUMNS,
    footnotes,
    latency_text,
    money_text,
    number_text,
    pair_cells,
    pair_title,
    row_cells,
    to_markdown,
    to_text,
    tokens_text,
)
from evaluation.benchmarks.tetris_bench.records import GameResult
from evaluation.core.repeat_report import repeat_block
from evaluation.core.stats import (
    PRIOR_PRECISION,
    bradley_terry,
    brier,
    bt_bootstrap,
    paired_bootstrap,
    seed_comparisons,
    t_interval,
)

MIN_SEEDS_FOR_INTERVAL = 10
"""The fewest IQ seeds an official ±95% interval is computed over."""

__all__ = [
    "COLUMNS",
    "DASH",
    "INDEX_FORMAT",
    "MIN_SEEDS_FOR_INTERVAL",
    "MODES",
    "NOT_RUN",
    "PAIR_COLUMNS",
    "BlitzSummary",
    "Leaderboard",
    "Pair",
    "Row",
    "build_leaderboard",
    "cost_per_100",
    "footnotes",
    "latency_text",
    "leaderboard_from_json",
    "load_index",
    "median_latency",
    "merge_index",
    "money_text",
    "number_text",
    "pair_cells",
    "pair_title",
    "row_cells",
    "to_json",
    "to_markdown",
    "to_text",
    "tokens_text",
]


def _mean_score(values: Sequence[float]) -> float:
    """A seed's score: its one game's (a whole number, as a one-repeat board always wrote it),
    else the mean over its repeats."""
    return int(values[0]) if len(values) == 1 else float(np.mean(values))


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
    repeats: int = 1,
) -> Leaderboard:
    """Rank every brain by mean IQ score (ties: mean lines, then slug) with the seed's columns.

    Refuses results mixing rulesets, duplicated games, brains without IQ games, and IQ seed sets
    that differ between brains: a mean over other seeds is not the same quantity. `official`
    (all public seeds) shows the ±95% interval; other runs list per-seed scores instead.
    `replicates` and `seed` drive both bootstraps (head-to-head and Elo interval).

    `repeats` > 1 (`--repeats`, never official): each seed's games, in repeat order, count as
    that seed's mean score (ranking, Elo and head-to-head use the means), and each row carries
    the repeat block (`evaluation/core/repeat_report.py`): the mean over repeats with an interval
    resampling seeds and repeats, and the score of each repeat alone.
    """
    results = list(results)
    if not results:
        raise ValueError("no results to rank: a leaderboard needs at least one brain's IQ games")
    ruleset = check_one_ruleset(results)
    check_modes_and_duplicates(results, repeats=repeats)
    seeds = tuple(sorted(check_same_seeds(iq_seed_sets(results))))

    by_brain: dict[str, list[GameResult]] = {}
    for r in results:
        by_brain.setdefault(r.slug, []).append(r)

    scores: dict[str, dict[str, float]] = {}
    drafts: list[dict[str, Any]] = []
    for slug, games in by_brain.items():
        iq = sorted((g for g in games if g.mode == "IQ"), key=lambda g: g.seed)
        blitz = [g for g in games if g.mode == "Blitz"]
        samples: dict[str, list[float]] = {}
        for g in iq:  # sorted by seed, each seed's repeats in their order
            samples.setdefault(g.seed, []).append(float(g.score))
        per_seed = {s: _mean_score(values) for s, values in samples.items()}
        scores[slug] = {s: float(v) for s, v in per_seed.items()}
        mean, half = t_interval(list(scores[slug].values()), min_n=MIN_SEEDS_FOR_INTERVAL)
        if not official:
            half = None
        block = None
        if repeats > 1:
            rounds = range(max(len(values) for values in samples.values()))
            each = [float(np.mean([v[r] for v in samples.values() if r < len(v)])) for r in rounds]
            block = repeat_block(list(samples.values()), each, unit="seed")
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
                "prompt_tokens": sum(g.prompt_tokens for g in games),
                "completion_tokens": sum(g.completion_tokens for g in games),
                "priced_calls": sum(g.priced_calls for g in games),
                "unpriced_calls": sum(g.unpriced_calls for g in games),
                "blitz": _blitz_summary(blitz),
                "brier": brier(risks),
                "risk_reports": len(risks),
                "repeats": block,
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
