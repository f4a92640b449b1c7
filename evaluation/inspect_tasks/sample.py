"""What every task shares: the solver that plays one sample through the one episode loop into
this project's event log, the scorer's reading of the result, and where the logs go.

A benchmark task describes its game as a `Game`: which policy game (lane) answers a sample, how a
sample is played into a log (the benchmark's own one-game function, e.g.
`evaluation/benchmarks/sudoku/episode.py:play_sudoku_grid`), and how a finished game scores (its
own rule). The solver builds the lane over Inspect's model (`lane.py`), plays the game on its own
thread while the model requests go back to Inspect (`bridge.py`), and keeps the result line's
fields and the log's path in the sample's metadata (`arcade`), where the scorer reads them.

A game set aside by a failure on our side (a provider error, an Inspect limit: the log ends with
an `aborted` or `stopped` result line) is never scored: the solver raises Inspect's own exception
again (or says why), and the scorer of a sample Inspect ended before its game did refuses it, so
Inspect counts an error for the sample and `inspect eval-retry` plays it again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspect_ai.model import ModelOutput, get_model
from inspect_ai.scorer import Score
from inspect_ai.solver import Generate, Solver, TaskState, solver

from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.rundir import safe_name
from evaluation.inspect_tasks.bridge import ModelBridge, play_in_thread
from evaluation.inspect_tasks.lane import inspect_lane

DEFAULT_LOG_DIR = "arcade-inspect-logs"
"""Where the event logs go by default (relative to the working directory): one folder per task
run, `<log_dir>/<task>/<UTC time>-<random>/<sample id>-epoch<N>.jsonl` (`-attemptK` added when
Inspect plays a sample again)."""

RESULT_KEY = "arcade"
"""The sample-metadata key of a played game: `{"log": path, "result": result line fields}`."""


@dataclass(frozen=True)
class Game:
    """How one benchmark plays and scores a sample.

    `lane(metadata)` names the policy game that answers the sample (`tetris`, `snake`, ...);
    `play(policy, metadata, log_path)` plays it into a new log and returns the result fields;
    `score(result)` gives the sample's value and a short answer text (the benchmark's rule)."""

    task: str
    lane: Callable[[Mapping[str, Any]], str]
    play: Callable[[Any, Mapping[str, Any], Path], Mapping[str, Any]]
    score: Callable[[Mapping[str, Any]], tuple[float, str]]


def run_folder(log_dir: str | Path | None, task: str) -> Path:
    """A new folder for one task run's logs (`DEFAULT_LOG_DIR` when `log_dir` is None), made
    absolute when the task is built: Inspect may run a task from another working directory
    (the folder of the module that defines it)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    root = Path(DEFAULT_LOG_DIR if log_dir is None else log_dir).absolute()
    return root / safe_name(task) / f"{stamp}-{secrets.token_hex(3)}"


def log_path(folder: Path, sample_id: object, epoch: int) -> Path:
    """The event log of one sample and epoch in a run folder; a sample Inspect plays again (a
    retry after an error) gets the next free `-attemptK` name, the earlier log is kept."""
    stem = f"{safe_name(sample_id)}-epoch{int(epoch)}"
    path = folder / f"{stem}.jsonl"
    attempt = 1
    while path.exists() or path.is_symlink():
        attempt += 1
        path = folder / f"{stem}-attempt{attempt}.jsonl"
    return path


def _kept(result: Mapping[str, Any]) -> dict[str, Any]:
    """The result fields the metadata keeps (per-call telemetry stays in the log)."""
    return {k: v for k, v in result.items() if k not in ("calls", "latenciesMs", "risks")}


@solver
def play_game(
    game: Game,
    folder: str,
    temperature: float | None = None,
    max_tokens: int | None = None,
) -> Solver:
    """Play the sample's game with the eval's model (see the module docstring)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        bridge = ModelBridge()
        model = get_model()
        metadata = dict(state.metadata or {})
        policy = inspect_lane(
            game.lane(metadata), model, bridge, temperature=temperature, max_tokens=max_tokens
        )
        path = log_path(Path(folder), state.sample_id, getattr(state, "epoch", 1))
        state.metadata[RESULT_KEY] = {"log": str(path)}  # the scorer names it if Inspect stops us

        def play() -> Mapping[str, Any]:
            return game.play(policy, metadata, path)

        try:
            result = await play_in_thread(play, bridge)
        except (GameAbortedError, RunStoppedError) as ended:
            if bridge.failure is not None:
                raise bridge.failure from None
            raise RuntimeError(
                f"{game.task}: the game was set aside ({ended.reason}); its event log {path} "
                "ends unfinished and is not scored"
            ) from None
        kept = _kept(result)
        state.metadata[RESULT_KEY] = {"log": str(path), "result": kept}
        answer = game.score(kept)[1]
        state.output = ModelOutput.from_content(
            model=str(model), content=f"{answer} ({kept.get('endReason')}; event log {path})"
        )
        return state

    return solve


def game_score(game: Game, state: TaskState) -> Score:
    """The sample's score by the benchmark's rule, with the result and the log in metadata."""
    played = (state.metadata or {}).get(RESULT_KEY)
    if not isinstance(played, Mapping) or not isinstance(played.get("result"), Mapping):
        where = played.get("log") if isinstance(played, Mapping) else None
        log = f" (its event log {where} ends unfinished)" if where else ""
        raise ValueError(
            f"{game.task}: the game was set aside before it ended{log}: a game cut short is "
            "never scored; inspect eval-retry plays it again"
        )
    result = dict(played["result"])
    value, answer = game.score(result)
    return Score(
        value=value,
        answer=answer,
        explanation=f"{result.get('endReason')}; event log {played.get('log')}",
        metadata={"result": result, "log": played.get("log")},
    )


def results(scores: list[Any]) -> list[Mapping[str, Any]]:
    """The result fields behind a metric's sample scores (`SampleScore`s, or bare `Score`s)."""
    out = []
    for item in scores:
        score = getattr(item, "score", item)
        metadata = getattr(score, "metadata", None) or {}
        result = metadata.get("result")
        if isinstance(result, Mapping):
            out.append(result)
    return out
