"""The tic-tac-toe arena in `arcade-eval suite`: both budgets play the whole suite `v1` (188
positions and 24 matches; it has no smaller official sample, and for the built-ins it takes
seconds), so a `quick` arena differs from an official one only in its label. Headline: the
weighted score 0..100 (`report.json`'s `score`, graded S+ .. F); the arena defines no interval."""

from __future__ import annotations

from typing import Any

from evaluation.benchmarks.ttt_arena.cli import add_parsers
from evaluation.benchmarks.ttt_arena.defaults import BENCHMARK_ID
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

HEURISTIC = "tactician"
STRONGEST = "perfect"
HEADLINE = "score"


def run(request: SuiteRequest) -> Part:
    """Play (or resume) the arena for the policies that route to it."""
    playable, skipped = routes(request.policies, ["tictactoe"], HEURISTIC)
    root = request.output_dir
    part = Part(BENCHMARK_ID, "not applicable", 0, skipped, str(root))
    if not playable:
        return part
    playable = with_references(playable, STRONGEST)
    specs = list(dict.fromkeys(playable.values()))
    part.repeats = request.repeats
    argv = sub_argv(BENCHMARK_ID, specs, request, [], repeats=True)
    code, held = run_command(add_parsers, argv, request)
    finish(part, code, held, root, "report.txt", "logs")
    document = read_object(root, root / "report.json") if code == 0 else None
    reports = [r for r in (document or {}).get("reports") or [] if isinstance(r, dict)]
    by_spec = dict(zip(specs, reports, strict=False))  # the report keeps the run's order
    for policy, spec in playable.items():
        part.cells.append(_cell(policy, spec, by_spec.get(spec)))
    settle(part, STRONGEST)
    return part


def _cell(policy: str, spec: str, report: dict[str, Any] | None) -> Cell:
    cell = Cell(policy, spec, status="ok" if report is not None else "missing")
    if report is None:
        return cell
    cell.note = f"grade {report.get('grade')}"
    repeated = report.get("repeats")
    low, high = repeated["ci95"] if isinstance(repeated, dict) else (None, None)
    cell.headlines.append(Headline(HEADLINE, report.get("score"), low, high, "points"))
    stats = report.get("moveStats") or {}
    cell.cost_usd = stats.get("costUsd")
    cell.prompt_tokens = stats.get("promptTokens")
    cell.completion_tokens = stats.get("completionTokens")
    cell.seconds = report.get("seconds")
    illegal = report.get("illegalMoves") or []
    cell.failures = {
        "invalid": None,  # the arena counts an unreadable move as an illegal one
        "illegal": len(illegal) if isinstance(illegal, list) else None,
        "timeouts": None,
        "aborted": 0,
    }
    return cell
