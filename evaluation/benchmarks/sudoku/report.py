"""The Sudoku run's reports: per policy the score row (`scoring.summary`) plus what the answers
cost: tokens, API-equivalent cost (n/a when the policy reported none, e.g. a local model) and
the wall-clock time per answer."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from evaluation.benchmarks.sudoku.scoring import GridScore, summary, table


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


def run_document(set_version: str, reports: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """report.json: the set and every policy's report."""
    return {"benchmark": "sudoku", "set": set_version, "policies": list(reports)}


def run_text(set_version: str, reports: Sequence[Mapping[str, Any]]) -> str:
    """report.md: the score table, then cost and time per policy."""
    lines = [f"# Sudoku, set {set_version}", "", table(reports), ""]
    lines.append("| policy | calls | prompt tokens | completion tokens | cost (USD) | s / answer |")
    lines.append("|---|---|---|---|---|---|")
    for r in reports:
        u = r["usage"]
        cost = "n/a" if u["costUsd"] is None else f"{u['costUsd']:.4f}"
        secs = (
            "n/a" if u["medianSecondsPerAnswer"] is None else f"{u['medianSecondsPerAnswer']:.3f}"
        )
        lines.append(
            f"| {r['policy']} | {u['calls']} | {u['promptTokens'] or 'n/a'} | "
            f"{u['completionTokens'] or 'n/a'} | {cost} | {secs} |"
        )
    return "\n".join(lines)
