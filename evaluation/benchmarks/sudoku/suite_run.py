"""Sudoku in `arcade-eval suite`: `official` plays set v1 whole (42 grids, 7 tiers); `quick`
plays tiers 1, 4 and 7 (18 grids). Headline: the tier-weighted score 0..100 with its 95% interval
(`report.json`'s `score` and `ci95`, `evaluation/benchmarks/sudoku/scoring.py`). Sudoku has no
`random` built-in: the normalisation's 0 is the score of an empty answer, 0."""

from __future__ import annotations

from typing import Any

from evaluation.benchmarks.sudoku.cli import add_parsers
from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID
from evaluation.suite.part import (
    Cell,
    Headline,
    Part,
    SuiteRequest,
    finish,
    read_object,
    routes,
    run_command,
    settle,
    sub_argv,
    with_references,
)

HEURISTIC = "techniques:3"
STRONGEST = "solver"
BUDGET_ARGS = {"official": [], "quick": ["--tiers", "1,4,7"]}
HEADLINE = "score"


def run(request: SuiteRequest) -> Part:
    """Play (or resume) the Sudoku set for the policies that route to it."""
    playable, skipped = routes(request.policies, ["sudoku"], HEURISTIC)
    root = request.output_dir
    part = Part(BENCHMARK_ID, "not applicable", 0, skipped, str(root))
    if not playable:
        return part
    playable = with_references(playable, STRONGEST, baseline=None)
    specs = list(dict.fromkeys(playable.values()))
    part.repeats = request.repeats
    argv = sub_argv(BENCHMARK_ID, specs, request, BUDGET_ARGS[request.budget], repeats=True)
    code, held = run_command(add_parsers, argv, request)
    finish(part, code, held, root, "report.md", "logs")
    report = read_object(root, root / "report.json") if code == 0 else None
    found = [r for r in (report or {}).get("policies") or [] if isinstance(r, dict)]
    rows = dict(zip(specs, found, strict=False))  # the report keeps the run's order (slugs)
    for policy, spec in playable.items():
        part.cells.append(_cell(policy, spec, rows.get(spec), complete=report is not None))
    settle(part, STRONGEST, baseline=None)
    part.references.setdefault(HEADLINE, {})["random"] = 0.0
    return part


def _cell(policy: str, spec: str, row: dict[str, Any] | None, *, complete: bool) -> Cell:
    cell = Cell(policy, spec, status="ok" if complete and row is not None else "missing")
    if row is None:
        return cell
    ci = row.get("ci95") or [None, None]
    cell.headlines.append(Headline(HEADLINE, row.get("score"), ci[0], ci[1], "points"))
    usage = row.get("usage") or {}
    outcomes = row.get("outcomes") or {}
    cell.cost_usd = usage.get("costUsd")
    cell.prompt_tokens = usage.get("promptTokens")
    cell.completion_tokens = usage.get("completionTokens")
    median, calls = usage.get("medianSecondsPerAnswer"), usage.get("calls")
    if isinstance(median, int | float) and isinstance(calls, int):
        cell.seconds = median * calls  # the benchmark reports the median answer time
    cell.failures = {
        "invalid": int(outcomes.get("unreadable", 0)),
        "illegal": int(outcomes.get("changedGiven", 0)) + int(row.get("brokeRules") or 0),
        "timeouts": 0,  # a timeout aborts the grid (played again), never a counted answer
        "aborted": 0,
    }
    return cell
