"""The Sudoku run's reports: per policy the score row (`scoring.summary`: the score, Brier with
the answers that gave no confidence, cell accuracy by the tier each cell needs and by technique)
plus what the answers cost: tokens, API-equivalent cost (n/a when the policy reported none, e.g.
a local model; `evaluation/core/money.py`) and the wall-clock time per answer. A run of some
tiers only (`--tiers 1,7`) is labelled with the tiers it covers."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from arcade_gym.sudoku.rules import TECHNIQUES, TIER_NAMES
from evaluation.benchmarks.sudoku.scoring import GridScore, summary, table, tier_score, tiers_label
from evaluation.core.money import usd
from evaluation.core.repeat_report import repeat_block, repeat_line


def usage_summary(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Calls, tokens, cost and median seconds per answer over a policy's saved grid results."""
    calls = [c for r in results for c in r.get("calls", [])]
    latencies = [c["latencyMs"] for c in calls if c.get("latencyMs") is not None]
    usages = [c["usage"] for c in calls if isinstance(c.get("usage"), Mapping)]

    def total(key: str) -> int | None:
        values = [u[key] for u in usages if isinstance(u.get(key), int | float)]
        return int(sum(values)) if values else None

    costs = [u["costUsd"] for u in usages if isinstance(u.get("costUsd"), int | float)]
    return {
        "calls": len(calls),
        "promptTokens": total("promptTokens"),
        "completionTokens": total("completionTokens"),
        "reasoningTokens": total("reasoningTokens"),
        "costUsd": round(sum(costs), 6) if costs else None,
        "medianSecondsPerAnswer": (
            round(statistics.median(latencies) / 1000, 3) if latencies else None
        ),
    }


def policy_report(
    policy: Mapping[str, Any], results: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """One policy's report: identity, score row, usage and each grid's grade."""
    scores = [GridScore.from_dict(dict(r)) for r in results]
    return {
        **summary(str(policy.get("slug")), scores),
        "identity": dict(policy),
        "usage": usage_summary(results),
        "grids": [s.to_dict() for s in scores],
    }


def repeated_report(
    policy: Mapping[str, Any], played: Sequence[Sequence[Mapping[str, Any]]], repeats: int
) -> dict[str, Any]:
    """One policy's report over grids each played `repeats` times (`played[g]`: grid g's results
    in repeat order). One repeat: `policy_report`. More: the rows count every answer, the score
    is the mean over repeats and its interval resamples grids and repeats (tiers weighing the
    same, `evaluation/core/repeat_report.py`), under `repeats` with each repeat's score."""
    pooled = [result for grid in played for result in grid]
    report = policy_report(policy, pooled)
    if repeats == 1:
        return report
    per_repeat = [
        tier_score(GridScore.from_dict(dict(grid[r])) for grid in played).score
        for r in range(repeats)
    ]
    block = repeat_block(
        [[100.0 * GridScore.from_dict(dict(g)).solved for g in grid] for grid in played],
        per_repeat,
        strata=[str(grid[0]["tier"]) for grid in played],
        unit="grid",
    )
    return {**report, "ci95": block["ci95"], "repeats": block}


def run_document(set_version: str, reports: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """report.json: the set, the tiers the run covers and every policy's report."""
    tiers = sorted({int(t) for r in reports for t in r["tiers"]})
    return {"benchmark": "sudoku", "set": set_version, "tiers": tiers, "policies": list(reports)}


def _share(cell: Mapping[str, int] | None) -> str:
    if not cell or not cell.get("cells"):
        return "\u2014"
    return f"{100 * cell['right'] / cell['cells']:.1f}% ({cell['right']}/{cell['cells']})"


def accuracy_tables(reports: Sequence[Mapping[str, Any]]) -> list[str]:
    """Markdown lines: cell accuracy by the tier each cell needs, then by technique."""
    tiers = sorted({int(t) for r in reports for t in r.get("accuracyByNeededTier", {})})
    lines = [
        "Cell accuracy by the tier each cell needs (the hardest technique on the grader's path "
        "up to the step that placed it):",
        "",
        "| policy | " + " | ".join(f"tier {t} ({TIER_NAMES[t]})" for t in tiers) + " |",
        "|---|" + "---|" * len(tiers),
    ]
    for r in reports:
        by = r.get("accuracyByNeededTier", {})
        lines.append(
            f"| {r['policy']} | " + " | ".join(_share(by.get(str(t))) for t in tiers) + " |"
        )
    seen = {k for r in reports for k in r["accuracyByTechnique"]}
    techniques = [name for name, _ in TECHNIQUES if name in seen]
    lines += [
        "",
        "Cell accuracy by the technique that placed the cell on the grader's path:",
        "",
        "| policy | " + " | ".join(techniques) + " |",
        "|---|" + "---|" * len(techniques),
    ]
    for r in reports:
        by = r["accuracyByTechnique"]
        lines.append(
            f"| {r['policy']} | " + " | ".join(_share(by.get(t)) for t in techniques) + " |"
        )
    return lines


def run_text(set_version: str, reports: Sequence[Mapping[str, Any]]) -> str:
    """report.md: the score table, cell accuracy by tier needed and by technique, then cost and
    time per policy. A run of some tiers says which in its title."""
    covered = tiers_label(reports)
    title = f"# Sudoku, set {set_version}"
    if covered != "1..7":
        title += f", tiers {covered} only"
    lines = [title, "", table(reports), ""]
    repeated = [r for r in reports if "repeats" in r]
    if repeated:
        lines += [
            "Played several times each: the score is the mean over repeats, its interval "
            "resamples grids and repeats (tiers weighing the same); the counts add up every "
            "repeat.",
            "",
            *(f"- {repeat_line(r['policy'], r['repeats'])}" for r in repeated),
            "",
        ]
    lines += [*accuracy_tables(reports), ""]
    lines.append("| policy | calls | prompt tokens | completion tokens | cost | s / answer |")
    lines.append("|---|---|---|---|---|---|")
    for r in reports:
        u = r["usage"]
        cost = usd(u["costUsd"])
        secs = (
            "n/a" if u["medianSecondsPerAnswer"] is None else f"{u['medianSecondsPerAnswer']:.3f}"
        )
        lines.append(
            f"| {r['policy']} | {u['calls']} | {u['promptTokens'] or 'n/a'} | "
            f"{u['completionTokens'] or 'n/a'} | {cost} | {secs} |"
        )
    return "\n".join(lines)
