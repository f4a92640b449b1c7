"""Tetris Bench in `arcade-eval suite`: `official` is `--official` (30 public seeds, IQ); `quick`
is the first three public seeds in IQ. Headline: the mean IQ score with the leaderboard's 95%
t-interval (`leaderboard.json`'s `score` and `halfWidth95`)."""

from __future__ import annotations

from typing import Any

from evaluation.benchmarks.tetris_bench.cli import add_parsers
from evaluation.benchmarks.tetris_bench.defaults import BENCHMARK_ID
from evaluation.core.rundir import safe_name
from evaluation.suite.part import (
    Cell,
    Headline,
    Part,
    SuiteRequest,
    finish,
    read_object,
    read_results,
    routes,
    run_command,
    settle,
    sub_argv,
    total,
    whole,
    with_references,
)

HEURISTIC = "heuristic"
STRONGEST = "search"
BUDGET_ARGS = {"official": ["--official"], "quick": ["--seeds", "3", "--modes", "iq"]}
HEADLINE = "IQ score"


def run(request: SuiteRequest) -> Part:
    """Play (or resume) Tetris Bench for the policies that route to it."""
    playable, skipped = routes(request.policies, ["tetris"], HEURISTIC)
    root = request.output_dir
    part = Part(BENCHMARK_ID, "not applicable", 0, skipped, str(root))
    if not playable:
        return part
    playable = with_references(playable, STRONGEST)
    repeated = request.budget == "quick"  # the official protocol plays each seed once
    part.repeats = request.repeats if repeated else 1
    budget = BUDGET_ARGS[request.budget]
    argv = sub_argv(BENCHMARK_ID, list(playable.values()), request, budget, repeats=repeated)
    code, held = run_command(add_parsers, argv, request)
    finish(part, code, held, root, "leaderboard.md", "logs")
    board = read_object(root, root / "leaderboard.json") if code == 0 else None
    rows = {
        row.get("slug"): row for row in (board or {}).get("rows") or [] if isinstance(row, dict)
    }
    for policy, spec in playable.items():
        part.cells.append(_cell(policy, spec, root, rows, complete=board is not None))
    settle(part, STRONGEST)
    return part


def _cell(
    policy: str, spec: str, root: Any, rows: dict[Any, dict[str, Any]], *, complete: bool
) -> Cell:
    results = read_results(root, root / "results" / safe_name(spec))
    cell = Cell(policy, spec, status="ok" if complete else "missing")
    iq = [r for r in results if r.get("mode") == "IQ"]
    slug = (iq[0].get("brain") or {}).get("slug") if iq else None
    row = rows.get(slug)
    if row is not None:
        score, half = row.get("score"), row.get("halfWidth95")
        low = score - half if isinstance(score, float | int) and isinstance(half, float) else None
        high = score + half if isinstance(score, float | int) and isinstance(half, float) else None
        if isinstance(row.get("repeats"), dict):  # the mean over repeats and its interval
            low, high = row["repeats"]["ci95"]
        cell.headlines.append(Headline(HEADLINE, score, low, high, "points"))
    elif complete:
        cell.status, cell.note = "missing", "no leaderboard row for this brain"
    cell.cost_usd = total([r.get("costUsd") for r in results])
    cell.prompt_tokens = whole([r.get("promptTokens") for r in results]) or None
    cell.completion_tokens = whole([r.get("completionTokens") for r in results]) or None
    cell.seconds = (total([ms for r in results for ms in r.get("latenciesMs") or []]) or 0) / 1000
    cell.failures = {
        "invalid": whole([r.get("invalid") for r in results]),
        "illegal": whole([r.get("stale") for r in results]),
        "timeouts": whole([r.get("timeouts") for r in results]),
        "aborted": 0 if complete else None,
    }
    return cell
