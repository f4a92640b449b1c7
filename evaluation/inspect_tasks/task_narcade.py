"""`arcade_gym/narcade`: NARCADE (Snake, Minesweeper, Tetris with primitive controls) as an Inspect
task. A sample is one episode of one game on one seed, under the benchmark's defaults (3 episodes
from seed 100, medium, realtime, 2,000 decisions); its value is the episode's score (Tetris
points, Snake food, Minesweeper safe squares), and the metrics are the mean score of each game,
NARCADE's headlines (NaN for a game the run did not play)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Metric, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from evaluation.benchmarks.narcade.episode import EpisodeConfig, play_narcade
from evaluation.benchmarks.narcade.protocol import POLICY_GAMES
from evaluation.benchmarks.narcade.settings import (
    DEFAULT_DIFFICULTY,
    DEFAULT_MAX_DECISIONS,
    DEFAULT_TIMEOUT_MS,
    FAILURE_STREAK,
    make_settings,
)
from evaluation.inspect_tasks.sample import Game, game_score, play_game, results, run_folder

TASK = "narcade"


def _mean_of(scores: list[Any], game: str) -> float:
    values = [float(r["score"]) for r in results(scores) if r.get("game") == game]
    return sum(values) / len(values) if values else math.nan


@metric
def narcade_tetris_mean() -> Metric:
    """Mean Tetris points per episode."""

    def compute(scores: list[Any]) -> float:
        return _mean_of(scores, "tetris")

    return compute


@metric
def narcade_snake_mean() -> Metric:
    """Mean Snake food per episode."""

    def compute(scores: list[Any]) -> float:
        return _mean_of(scores, "snake")

    return compute


@metric
def narcade_minesweeper_mean() -> Metric:
    """Mean Minesweeper safe squares revealed per episode."""

    def compute(scores: list[Any]) -> float:
        return _mean_of(scores, "minesweeper")

    return compute


def _score(result: Mapping[str, Any]) -> tuple[float, str]:
    return float(result["score"]), f"{result.get('game')}: score {result['score']}"


def _game(configs: Mapping[str, EpisodeConfig]) -> Game:
    def play(policy: Any, metadata: Mapping[str, Any], log: Path) -> Mapping[str, Any]:
        game = str(metadata["game"])
        spec = f"inspect:{getattr(policy, 'inspect_model', policy)}"
        record = play_narcade(policy, spec, configs[game], int(metadata["seed"]), log)
        return {**record.to_dict(), "game": game}

    return Game(TASK, lambda metadata: POLICY_GAMES[str(metadata["game"])], play, _score)


@scorer(metrics=[narcade_tetris_mean(), narcade_snake_mean(), narcade_minesweeper_mean()])
def narcade_scorer(game: Game) -> Scorer:
    """The episode's score."""

    async def score(state: TaskState, target: Target) -> Score:
        return game_score(game, state)

    return score


@task(name="narcade")
def narcade(
    games: str | Sequence[str] = "minesweeper,snake,tetris",
    episodes: int = 3,
    seed: int = 100,
    mode: str = "realtime",
    difficulty: str = DEFAULT_DIFFICULTY,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    max_pieces: int | None = None,
    max_seconds: float | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_MS / 1000,
    failure_streak: int = FAILURE_STREAK,
    temperature: float | None = None,
    max_tokens: int | None = None,
    log_dir: str | None = None,
) -> Task:
    """`episodes` episodes of each of `games` from `seed` (seed, seed + 1, ...), validated as
    `arcade-eval narcade` validates them (`evaluation/benchmarks/narcade/settings.py`).
    `temperature`/`max_tokens` None: the eval's, else 0 and the benchmark's budget. Event logs go
    to a new folder under `log_dir` (default `arcade-inspect-logs`)."""
    settings = make_settings(
        games,
        episodes,
        seed,
        mode,
        difficulty,
        max_seconds,
        max_pieces,
        max_decisions,
        False,
        timeout_ms=float(timeout_s) * 1000.0,
        failure_streak=failure_streak,
    )
    configs = {game: EpisodeConfig.of(settings, game) for game in settings.games}
    samples = [
        Sample(
            input=f"NARCADE {game} ({configs[game].mode}, {settings.difficulty}), seed {s}",
            id=f"{game}-{s}",
            metadata={"game": game, "seed": s},
        )
        for game in settings.games
        for s in settings.seeds
    ]
    folder = run_folder(log_dir, TASK)
    game = _game(configs)
    return Task(
        dataset=MemoryDataset(samples, name="narcade"),
        solver=play_game(game, str(folder), temperature, max_tokens),
        scorer=narcade_scorer(game),
        metadata={"benchmark": "narcade", "eventLogs": str(folder)},
    )
