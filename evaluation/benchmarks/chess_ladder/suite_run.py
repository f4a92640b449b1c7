"""The chess ladder in `arcade-eval suite`: `official` is the command's defaults (2 games a rung in
standard chess and Chess960, graded at 1,000,000 nodes); `quick` is one standard game a rung,
graded at 20,000 nodes. Headline: the rating on the ladder's internal engine-anchored scale with
its 95% interval (`report.json`'s `rating`, `low95`, `high95`). Needs Stockfish, as the ladder
does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluation.benchmarks.chess_ladder.cli import add_parsers
from evaluation.benchmarks.chess_ladder.defaults import BENCHMARK_ID
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
    whole,
    with_references,
)

HEURISTIC = "greedy"
STRONGEST = "material-2ply"
HEADLINE = "rating"
BUDGET_ARGS = {
    "official": [],
    "quick": ["--games-per-rung", "1", "--variants", "standard", "--grade-nodes", "20000"],
}


def run(request: SuiteRequest) -> Part:
    """Climb (or resume) the ladder for the policies that route to chess."""
    playable, skipped = routes(request.policies, ["chess"], HEURISTIC)
    root = request.output_dir
    part = Part(BENCHMARK_ID, "not applicable", 0, skipped, str(root))
    if not playable:
        return part
    playable = with_references(playable, STRONGEST)
    specs = list(dict.fromkeys(playable.values()))
    argv = sub_argv(BENCHMARK_ID, specs, request, BUDGET_ARGS[request.budget])
    code, held = run_command(add_parsers, argv, request)
    finish(part, code, held, root, "report.md", "logs")
    report = read_object(root, root / "report.json") if code == 0 else None
    found = [r for r in (report or {}).get("models") or [] if isinstance(r, dict)]
    rows = dict(zip(specs, found, strict=False))  # the report keeps the run's order (slugs)
    for policy, spec in playable.items():
        part.cells.append(_cell(policy, spec, rows.get(spec), root))
    settle(part, STRONGEST)
    return part


def _cell(policy: str, spec: str, row: dict[str, Any] | None, root: Path) -> Cell:
    cell = Cell(policy, spec, status="ok" if row is not None else "missing")
    if row is None:
        return cell
    fit = row.get("rating") or {}
    cell.note = str(fit.get("note") or "")[:200]
    cell.headlines.append(
        Headline(HEADLINE, fit.get("rating"), fit.get("low95"), fit.get("high95"))
    )
    cell.cost_usd = row.get("cost")
    cell.prompt_tokens = row.get("inputTokens")
    cell.completion_tokens = row.get("outputTokens")
    games = read_results(root, root / "results" / safe_name(spec))
    calls = [c for g in games for c in g.get("calls") or [] if isinstance(c, dict)]
    seconds = [float(c["latencyMs"]) for c in calls if isinstance(c.get("latencyMs"), int | float)]
    cell.seconds = sum(seconds) / 1000 if seconds else None
    cell.failures = {
        "invalid": None,  # the ladder counts unreadable and illegal answers together
        "illegal": whole([g.get("rejected") for g in games]),
        "timeouts": 0,  # a timeout aborts the game (played again), never a counted move
        "aborted": 0,
    }
    return cell
