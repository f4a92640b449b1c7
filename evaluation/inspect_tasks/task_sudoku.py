"""`arcade_gym/sudoku`: Sudoku set v1 as an Inspect task. A sample is one grid; the scorer is the
benchmark's (`evaluation/benchmarks/sudoku/scoring.py`): 1 for a solved grid, else 0, and the
metrics are the set's tier score (the mean per-tier solve rate, 0..100) with its 95% interval."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Metric, Score, Scorer, Target, accuracy, metric, scorer
from inspect_ai.solver import TaskState

from arcade_gym.sudoku.rules import SETS
from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku.defaults import DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.sudoku.episode import play_sudoku_grid
from evaluation.benchmarks.sudoku.scoring import GridScore, tier_score
from evaluation.inspect_tasks.sample import Game, game_score, play_game, results, run_folder

TASK = "sudoku"


def _tier_score(scores: list[Any]) -> tuple[float, float, float]:
    grids = [GridScore.from_dict(dict(r)) for r in results(scores)]
    if not grids:
        return float("nan"), float("nan"), float("nan")
    score = tier_score(grids)
    return score.score, score.low, score.high


@metric
def sudoku_tier_score() -> Metric:
    """The mean over tiers of each tier's solve rate, 0..100 (the benchmark's headline)."""

    def compute(scores: list[Any]) -> float:
        return _tier_score(scores)[0]

    return compute


@metric
def sudoku_ci95_low() -> Metric:
    """The low end of the tier score's 95% interval (`scoring.tier_score`)."""

    def compute(scores: list[Any]) -> float:
        return _tier_score(scores)[1]

    return compute


@metric
def sudoku_ci95_high() -> Metric:
    """The high end of the tier score's 95% interval."""

    def compute(scores: list[Any]) -> float:
        return _tier_score(scores)[2]

    return compute


def _score(result: Mapping[str, Any]) -> tuple[float, str]:
    outcome = str(result.get("outcome"))
    return (1.0 if outcome == "solved" else 0.0), f"{outcome}, {result.get('cellsRight')} right"


def _game(set_version: str, timeout_ms: float | None) -> Game:
    records = {g["id"]: g for g in set_grids(set_version)}

    def play(policy: Any, metadata: Mapping[str, Any], log: Path) -> Mapping[str, Any]:
        record = records[str(metadata["grid"])]
        return play_sudoku_grid(policy, record, log, set_version=set_version, timeout_ms=timeout_ms)

    return Game(TASK, lambda metadata: "sudoku", play, _score)


@scorer(metrics=[accuracy(), sudoku_tier_score(), sudoku_ci95_low(), sudoku_ci95_high()])
def sudoku_scorer(game: Game) -> Scorer:
    """Solved or not, by the benchmark's grading of the grid."""

    async def score(state: TaskState, target: Target) -> Score:
        return game_score(game, state)

    return score


def _tiers(tiers: int | str | Sequence[int] | None) -> list[int]:
    if tiers is None:
        return list(range(1, 8))
    if isinstance(tiers, int):
        return [tiers]
    items = tiers.split(",") if isinstance(tiers, str) else list(tiers)
    out = [int(t) for t in items if str(t).strip()]
    if not out or any(t not in range(1, 8) for t in out):
        raise ValueError(f"tiers must be tiers 1..7, got {tiers!r}")
    return out


@task(name="sudoku")
def sudoku(
    set_version: str = "v1",
    tiers: int | str | list[int] | None = None,
    limit: int | None = None,
    timeout_s: float | None = DEFAULT_TIMEOUT_MS / 1000,
    temperature: float | None = None,
    max_tokens: int | None = None,
    log_dir: str | None = None,
) -> Task:
    """Sudoku set `set_version`, every grid of `tiers` (default 1-7; `"1,2"` picks some), the
    first `limit` of them when given; `timeout_s` is the safety net per answer (a timeout sets
    the grid aside). `temperature`/`max_tokens` None: the eval's, else 0 and the benchmark's
    budget. Event logs go to a new folder under `log_dir` (default `arcade-inspect-logs`)."""
    if set_version not in SETS:
        raise ValueError(f"unknown set {set_version!r}; known sets: {', '.join(SETS)}")
    wanted = _tiers(tiers)
    grids = [g for g in set_grids(set_version) if g["tier"] in wanted][:limit]
    samples = [
        Sample(
            input=f"Sudoku grid {g['id']} (tier {g['tier']}): {g['puzzle']}",
            target=g["solution"],
            id=g["id"],
            metadata={"grid": g["id"], "tier": g["tier"]},
        )
        for g in grids
    ]
    game = _game(set_version, None if timeout_s is None else float(timeout_s) * 1000.0)
    folder = run_folder(log_dir, TASK)
    return Task(
        dataset=MemoryDataset(samples, name=f"sudoku-{set_version}"),
        solver=play_game(game, str(folder), temperature, max_tokens),
        scorer=sudoku_scorer(game),
        metadata={"benchmark": "sudoku", "eventLogs": str(folder)},
    )
