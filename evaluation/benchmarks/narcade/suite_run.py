"""NARCADE in `arcade-eval suite`: `official` is the command's defaults (3 episodes from seed 100,
medium, realtime, 2,000 decisions); `quick` is one lockstep episode a game, capped at 300 decisions
and 60 Tetris pieces, models in this process. Headlines, one per game: the mean score over the
episodes (Tetris points, Snake food, Minesweeper safe squares), with a t-interval over episodes
(`evaluation/core/stats.py:t_interval`, withheld below 10 episodes, as Tetris Bench does: NARCADE's
own tables give means only)."""

from __future__ import annotations

from typing import Any

from evaluation.benchmarks.narcade.cli import add_parsers
from evaluation.benchmarks.narcade.defaults import BENCHMARK_ID
from evaluation.benchmarks.narcade.results import run_cost
from evaluation.core.stats import t_interval
from evaluation.suite.part import (
    Cell,
    Headline,
    Part,
    SuiteRequest,
    finish,
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
STRONGEST = "heuristic"
GAMES = {
    "tetris": "Tetris points",
    "snake": "Snake food",
    "minesweeper": "Minesweeper safe squares",
}
POLICY_GAMES = ("tetris-primitive", "snake", "minesweeper")
BUDGET_ARGS = {
    "official": [],
    "quick": [
        "--episodes", "1", "--mode", "lockstep", "--max-decisions", "300", "--max-pieces", "60",
        "--in-process",
    ],
}  # fmt: skip


def run(request: SuiteRequest) -> Part:
    """Play (or resume) NARCADE for the policies that route to all three of its games."""
    playable, skipped = routes(request.policies, POLICY_GAMES, HEURISTIC)
    root = request.output_dir
    part = Part(BENCHMARK_ID, "not applicable", 0, skipped, str(root))
    if not playable:
        return part
    playable = with_references(playable, STRONGEST)
    part.repeats = request.repeats
    budget = BUDGET_ARGS[request.budget]
    argv = sub_argv(BENCHMARK_ID, list(playable.values()), request, budget, repeats=True)
    code, held = run_command(add_parsers, argv, request)
    part.spent_usd = run_cost(root) if (root / "results").is_dir() else 0.0
    finish(part, code, held, root, "results", "logs")
    results = read_results(root, root / "results")
    for policy, spec in playable.items():
        mine = [r for r in results if (r.get("model") or {}).get("spec") == spec]
        part.cells.append(_cell(policy, spec, mine, complete=code == 0))
    settle(part, STRONGEST)
    return part


def _cell(policy: str, spec: str, results: list[dict[str, Any]], *, complete: bool) -> Cell:
    by_game = {r.get("game"): r for r in results}
    done = complete and all(by_game.get(g, {}).get("status") == "complete" for g in GAMES)
    cell = Cell(policy, spec, status="ok" if done else "missing")
    episodes = [e for r in results for e in r.get("episodes") or [] if isinstance(e, dict)]
    for game, label in GAMES.items():
        scores = [
            float(e["score"])
            for e in (by_game.get(game) or {}).get("episodes") or []
            if isinstance(e, dict) and isinstance(e.get("score"), int | float)
        ]
        if not scores:
            continue
        mean, half = t_interval(scores)
        low, high = (None, None) if half is None else (mean - half, mean + half)
        block = ((by_game.get(game) or {}).get("summary") or {}).get("repeats")
        if isinstance(block, dict):  # the mean over repeats and its interval
            low, high = block["ci95"]
        cell.headlines.append(Headline(label, mean, low, high))
    cell.cost_usd = total([e.get("costUsd") for e in episodes])
    cell.prompt_tokens = whole([e.get("promptTokens") for e in episodes])
    cell.completion_tokens = whole([e.get("completionTokens") for e in episodes])
    cell.seconds = total([e.get("wallSeconds") for e in episodes])
    cell.failures = {
        "invalid": whole([e.get("invalidActions") for e in episodes]),
        "illegal": whole([e.get("policyErrors") for e in episodes]),
        "timeouts": whole([e.get("timeouts") for e in episodes]),
        "aborted": 0 if done else None,
    }
    return cell
