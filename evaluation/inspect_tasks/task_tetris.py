"""`arcade_gym/tetris_bench`: Tetris Bench (`tetris-bench@3`) as an Inspect task. A sample is one
public seed played in one mode (IQ by default, or Blitz); its value is the game's score in points,
as the leaderboard counts it (`evaluation/benchmarks/tetris_bench/leaderboard.py`), and the
metrics are the mean with the leaderboard's 95% t-interval half-width (withheld, NaN, below 10
seeds: `evaluation/core/stats.py:t_interval`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Metric, Score, Scorer, Target, mean, metric, scorer
from inspect_ai.solver import TaskState

from arcade_gym.tetris.rules import PIECE_CAP, TICK_CAP
from evaluation.benchmarks.tetris_bench.episode import (
    DEFAULT_BUDGET_MS,
    normalise_mode,
    play_tetris,
)
from evaluation.benchmarks.tetris_bench.runner import public_seeds
from evaluation.core.stats import t_interval
from evaluation.inspect_tasks.sample import Game, game_score, play_game, results, run_folder

TASK = "tetris_bench"


@metric
def tetris_ci95_half_width() -> Metric:
    """Half-width of the 95% t-interval of the mean score over seeds (NaN below 10 seeds)."""

    def compute(scores: list[Any]) -> float:
        values = [float(r["score"]) for r in results(scores)]
        if not values:
            return math.nan
        half = t_interval(values)[1]
        return math.nan if half is None else half

    return compute


def _score(result: Mapping[str, Any]) -> tuple[float, str]:
    return float(result["score"]), f"{result['score']} points, {result['lines']} lines"


def _game(mode: str, budget_ms: float, piece_cap: int, tick_cap: int) -> Game:
    def play(policy: Any, metadata: Mapping[str, Any], log: Path) -> Mapping[str, Any]:
        played = play_tetris(
            policy,
            str(metadata["seed"]),
            mode,
            log,
            budget_ms=budget_ms,
            piece_cap=piece_cap,
            tick_cap=tick_cap,
        )
        out = played.to_dict()
        for key in ("brain", "logPath"):
            out.pop(key, None)
        return out

    return Game(TASK, lambda metadata: "tetris", play, _score)


@scorer(metrics=[mean(), tetris_ci95_half_width()])
def tetris_scorer(game: Game) -> Scorer:
    """The game's score in points."""

    async def score(state: TaskState, target: Target) -> Score:
        return game_score(game, state)

    return score


@task(name="tetris_bench")
def tetris_bench(
    mode: str = "IQ",
    seeds: int | None = None,
    budget_s: float = DEFAULT_BUDGET_MS / 1000,
    piece_cap: int = PIECE_CAP,
    tick_cap: int = TICK_CAP,
    temperature: float | None = None,
    max_tokens: int | None = None,
    log_dir: str | None = None,
) -> Task:
    """The 30 public seeds (the first `seeds` of them when given) in `mode` (`IQ`: `budget_s` a
    decision; `Blitz`: the falling piece is the clock). The caps are the protocol's by default;
    a game under other caps is not an official Tetris Bench result. `temperature`/`max_tokens`
    None: the eval's, else 0 and the benchmark's budget. Event logs go to a new folder under
    `log_dir` (default `arcade-inspect-logs`)."""
    played_mode = normalise_mode(mode)
    if budget_s <= 0 or not math.isfinite(budget_s):
        raise ValueError(f"budget_s must be a finite number of seconds > 0, got {budget_s!r}")
    seed_set, all_seeds = public_seeds()
    chosen = all_seeds if seeds is None else all_seeds[: max(0, int(seeds))]
    samples = [
        Sample(
            input=f"Tetris Bench {played_mode} game on seed {seed} ({seed_set})",
            id=f"{seed}-{played_mode.lower()}",
            metadata={"seed": seed, "mode": played_mode},
        )
        for seed in chosen
    ]
    game = _game(played_mode, float(budget_s) * 1000.0, int(piece_cap), int(tick_cap))
    folder = run_folder(log_dir, TASK)
    return Task(
        dataset=MemoryDataset(samples, name=f"tetris-bench-{seed_set}"),
        solver=play_game(game, str(folder), temperature, max_tokens),
        scorer=tetris_scorer(game),
        metadata={"benchmark": "tetris-bench", "eventLogs": str(folder)},
    )
