"""`arcade_gym/arena`: the tic-tac-toe arena (suite v1: positions on 3x3, 5x5 and 10x10 boards and
matches against the sparring partners) as an Inspect task. A sample is one position or one match;
its value is the item's own score (a position passed 1 or 0, a match's points), and the metric is
the arena's weighted score 0..100 (`evaluation/benchmarks/ttt_arena/report.py:build_report`, the
grade's figure; an item category the run did not play counts 0, so only the whole suite gives
the official figure)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Metric, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from evaluation.benchmarks.ttt_arena.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.ttt_arena.episode import Item, play_arena_game
from evaluation.benchmarks.ttt_arena.report import build_report
from evaluation.benchmarks.ttt_arena.suite import SUITE_VERSION, SuitePosition, build_suite
from evaluation.inspect_tasks.sample import Game, game_score, play_game, results, run_folder

TASK = "arena"


@metric
def arena_score() -> Metric:
    """The arena's weighted score 0..100 over the items played."""

    def compute(scores: list[Any]) -> float:
        played = results(scores)
        if not played:
            return math.nan
        positions = [r for r in played if r.get("item") == "position"]
        matches = [r for r in played if r.get("item") == "match"]
        return build_report({}, 0, SUITE_VERSION, positions, matches).score

    return compute


def _score(result: Mapping[str, Any]) -> tuple[float, str]:
    if result.get("item") == "position":
        move = result.get("move")
        shown = "no legal move" if move is None else f"move {move[0]} {move[1]}"
        return float(result["score"]), f"{shown}: {'passed' if result.get('passed') else 'failed'}"
    return float(result["score"]), f"{result.get('result')} vs {result.get('opponent')}"


def _game(items: Mapping[str, Item], suite_seed: int, timeout_ms: float | None) -> Game:
    def play(policy: Any, metadata: Mapping[str, Any], log: Path) -> Mapping[str, Any]:
        item = items[str(metadata["item"])]
        played = play_arena_game(policy, item, log, suite_seed=suite_seed, timeout_ms=timeout_ms)
        kind = "position" if isinstance(item, SuitePosition) else "match"
        return {**played, "item": kind}

    return Game(TASK, lambda metadata: "tictactoe", play, _score)


@scorer(metrics=[arena_score()])
def arena_scorer(game: Game) -> Scorer:
    """The item's score by the arena's rules."""

    async def score(state: TaskState, target: Target) -> Score:
        return game_score(game, state)

    return score


@task(name="arena")
def arena(
    seed: int = DEFAULT_SEED,
    items: str = "all",
    limit: int | None = None,
    timeout_s: float | None = DEFAULT_TIMEOUT_MS / 1000,
    temperature: float | None = None,
    max_tokens: int | None = None,
    log_dir: str | None = None,
) -> Task:
    """The arena suite of `seed`: `items` `all` (positions, then matches), `positions` or
    `matches`, the first `limit` of them when given; `timeout_s` per move. `temperature`/
    `max_tokens` None: the eval's, else 0 and the benchmark's budget. Event logs go to a new
    folder under `log_dir` (default `arcade-inspect-logs`)."""
    if items not in ("all", "positions", "matches"):
        raise ValueError(f"items must be all, positions or matches, got {items!r}")
    suite = build_suite(seed)
    chosen: list[Item] = []
    if items in ("all", "positions"):
        chosen.extend(suite.positions)
    if items in ("all", "matches"):
        chosen.extend(suite.matches)
    chosen = chosen[:limit]
    samples = [
        Sample(
            input=f"tic-tac-toe arena {SUITE_VERSION} item {item.id} ({item.size}x{item.size})",
            id=item.id,
            metadata={"item": item.id, "size": item.size},
        )
        for item in chosen
    ]
    timeout_ms = None if timeout_s is None else float(timeout_s) * 1000.0
    folder = run_folder(log_dir, TASK)
    game = _game({item.id: item for item in chosen}, seed, timeout_ms)
    return Task(
        dataset=MemoryDataset(samples, name=f"ttt-arena-{SUITE_VERSION}"),
        solver=play_game(game, str(folder), temperature, max_tokens),
        scorer=arena_scorer(game),
        metadata={"benchmark": "ttt-arena", "eventLogs": str(folder)},
    )
