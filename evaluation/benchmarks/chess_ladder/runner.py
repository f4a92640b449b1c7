"""A ladder run: each policy climbs the rungs (`schedule.py`), each game graded afterwards.

    manifest.json                                   what the run is, what is done, what is missing,
                                                    the schedule (each game's colour and start)
    logs/<policy>/<variant>/<rung>/game-<i>.jsonl   one event log per game (`arcade-eval verify`)
    results/<policy>/<variant>/<rung>/game-<i>.json the result, calls and grades of each game
    pgn/<policy>/<variant>/<rung>/game-<i>.pgn      the game with its grades as comments
    report.json, report.md                          the table, written when nothing is missing

Re-running the same command into the same directory resumes it: a finished game is kept when its
log verifies and its result agrees with it; a game cut short, or aborted by a failure on our side,
is set aside and played again. The schedule depends on the results, so the games a run holds are
known only as it goes; the manifest lists what has been scheduled so far. A kept game played
with another colour or start than the schedule now gives (a run made before colours alternated
over the climb) is set aside and played again.

A policy's climb of one variant depends only on its own games, so each (policy, variant) climb is
one task for the executor (`--concurrency N` threads, or `--executor ray` tasks): the same games,
logs and results wherever they are played.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.benchmarks.chess_ladder.climb import Climb, Climbed, play_climb
from evaluation.benchmarks.chess_ladder.defaults import BENCHMARK_ID
from evaluation.benchmarks.chess_ladder.episode import DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS
from evaluation.benchmarks.chess_ladder.grading import DEFAULT_GRADE_NODES, MoveGrade
from evaluation.benchmarks.chess_ladder.ladder import Ladder, load_ladder
from evaluation.benchmarks.chess_ladder.report import (
    LadderGame,
    ModelRow,
    graded_with,
    markdown_table,
    model_row,
)
from evaluation.benchmarks.chess_ladder.schedule import ScheduledGame
from evaluation.core.episode import RunStoppedError
from evaluation.core.errors import RunError
from evaluation.core.executor import Executor, LocalExecutor
from evaluation.core.policy_identity import policy_identity
from evaluation.core.policy_identity import run_settings as policy_settings
from evaluation.core.rundir import RunDir, RunDirError, write_json_atomic, write_text_atomic

Progress = Callable[[str], None]

MAX_GAMES_PER_RUNG = 1_000
"""More games a rung than any run needs (10 rungs x 2 variants x 1,000 is 20,000 games)."""
MAX_GRADE_NODES = 100_000_000
"""Stockfish nodes per graded position, at most (the default is 1,000,000)."""


@dataclass
class LadderRun:
    """What a run produced."""

    output_dir: Path
    rows: list[ModelRow] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    interrupted: bool = False


def schedule_entry(key: tuple[str, ...], game: ScheduledGame) -> dict[str, Any]:
    """One scheduled game as the manifest records it (`schedule`)."""
    return {
        "policy": key[0],
        "variant": game.variant,
        "rung": game.rung,
        "game": key[-1],
        "colour": game.colour,
        "start": game.start,
    }


def run_settings(
    policies: Sequence[str],
    variants: Sequence[str],
    games_per_rung: int,
    grade_nodes: int,
    timeout_ms: float | None,
    ladder: Ladder,
) -> dict[str, Any]:
    """What makes two runs the same run (a resume must match it exactly)."""
    return {
        "policies": list(policies),
        "variants": list(variants),
        "gamesPerRung": games_per_rung,
        "gradeNodes": grade_nodes,
        "timeoutMs": timeout_ms,
        "ladder": ladder.version,
    }


def run_ladder(
    policies: Sequence[str],
    make_policy: Callable[[str], Any],
    output_dir: str | Path,
    *,
    variants: Sequence[str] = ("standard", "chess960"),
    games_per_rung: int = 2,
    grade_nodes: int = DEFAULT_GRADE_NODES,
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
    resume: bool | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    meter: Any = None,
    say: Callable[[str], None] = print,
) -> LadderRun:
    """Play every policy up the ladder into `output_dir`, resuming what it holds.

    Each (policy, variant) climb is one task for `executor` (default: one after another in this
    process); `make_policy` travels to Ray workers, so pass a top-level function or a closure
    cloudpickle can carry. The games, logs and results do not depend on the executor. `meter`:
    the run's cost meter (`--max-cost-usd`), which counts in one process only.
    """
    if not policies:
        raise RunError("--policy needs at least one policy, e.g. material-2ply")
    for variant in variants:
        if variant not in ("standard", "chess960"):
            raise RunError(f"--variants takes standard and/or chess960, got {variant!r}")
    if not 1 <= games_per_rung <= MAX_GAMES_PER_RUNG:
        raise RunError(
            f"--games-per-rung must be from 1 to {MAX_GAMES_PER_RUNG:,}, got {games_per_rung}"
        )
    if not 1 <= grade_nodes <= MAX_GRADE_NODES:
        raise RunError(f"--grade-nodes must be from 1 to {MAX_GRADE_NODES:,}, got {grade_nodes}")
    if timeout_ms is not None and not 0 < timeout_ms <= MAX_TIMEOUT_MS:  # NaN fails too
        raise RunError(
            f"--timeout-s must be a finite number of seconds from 0 to {MAX_TIMEOUT_MS / 1000:g}"
            f", got {timeout_ms / 1000:g}"
        )
    executor = executor or LocalExecutor()
    if executor.name != "local" and meter is not None:
        raise RunError("--max-cost-usd needs --executor local: the cost meter is per process")
    ladder = load_ladder()
    run_dir = RunDir(
        output_dir,
        BENCHMARK_ID,
        run_settings(policies, variants, games_per_rung, grade_nodes, timeout_ms, ladder),
    )
    try:
        run_dir.prepare(resume=resume)
    except RunDirError as error:
        raise RunError(str(error)) from None
    made = {spec: make_policy(spec) for spec in policies}
    try:
        run_dir.check_policies({spec: policy_settings(made[spec]) for spec in policies})
    except RunDirError as error:
        raise RunError(str(error)) from None
    identities = {spec: str(policy_identity(made[spec]).get("slug", spec)) for spec in policies}
    serial = executor.name == "local" and getattr(executor, "concurrency", 1) == 1
    outcome = LadderRun(Path(output_dir))
    scheduled: list[tuple[str, ...]] = []
    finished: dict[tuple[str, ...], dict[str, Any]] = {}
    plan: dict[tuple[str, ...], ScheduledGame] = {}
    lock = threading.Lock()

    def schedule() -> dict[str, Any]:
        """The manifest's record of the schedule: each scheduled game's colour and start."""
        return {"schedule": [schedule_entry(k, plan[k]) for k in scheduled if k in plan]}

    def record(
        key: tuple[str, ...], saved: dict[str, Any] | None, game: ScheduledGame, new: bool
    ) -> None:
        """The manifest as games are scheduled and finish (per game on the local executor);
        a progress line for each game played now."""
        with lock:
            if key not in scheduled:
                scheduled.append(key)
            plan[key] = game
            if saved is not None:
                finished[key] = saved
            run_dir.write_manifest("running", scheduled, list(finished), schedule())
        if saved is not None and new and progress is not None:
            progress(
                f"{key[0]} {game.variant} vs {game.rung} as {game.colour}: "
                f"{saved['result']} ({saved['endReason']})"
            )

    report = record if executor.name == "local" else None
    climbs = [
        Climb(
            spec,
            variant,
            make_policy,
            run_dir,
            games_per_rung,
            grade_nodes,
            timeout_ms,
            report,
            shared=made if serial else None,
            say=say if executor.name == "local" else print,
        )
        for spec in policies
        for variant in variants
    ]
    climbed: dict[tuple[str, str], Climbed] = {}

    def done(climb: Climb, result: Climbed) -> None:
        climbed[(climb.spec, climb.variant)] = result
        if result.aborted is not None:
            outcome.aborted.append(result.aborted)
            with lock:
                if result.aborted_key in scheduled:
                    scheduled.remove(result.aborted_key)  # scheduled again on resume
        if climb.report is None:
            for key, saved, game, new in result.games:
                record(key, saved, game, new)

    t0 = time.perf_counter()
    try:
        executor.run(play_climb, climbs, done)
    except (KeyboardInterrupt, RunStoppedError):
        outcome.interrupted = True
    finally:
        for policy in made.values():
            close = getattr(policy, "close", None)
            if callable(close):
                close()
    order = [
        key
        for climb in climbs
        for key, *_ in climbed.get((climb.spec, climb.variant), Climbed([])).games
    ]
    ordered = {key: finished[key] for key in order} | finished
    scheduled[:] = list(ordered) + [k for k in scheduled if k not in ordered]
    status = (
        "interrupted" if outcome.interrupted else ("aborted" if outcome.aborted else "complete")
    )
    run_dir.write_manifest(
        status,
        scheduled,
        list(ordered),
        {
            "aborted": outcome.aborted,
            "seconds": round(time.perf_counter() - t0, 1),
            **schedule(),
        },
    )
    if status == "complete":
        games = [
            _ladder_game(key[0], key, saved, ladder, grade_nodes) for key, saved in ordered.items()
        ]
        outcome.rows = [model_row(spec, games) for spec in policies]
        for spec, row in zip(policies, outcome.rows, strict=True):
            row.model = identities[spec]
        write_json_atomic(
            run_dir.path / "report.json",
            {
                "benchmark": BENCHMARK_ID,
                "ladder": ladder.version,
                "scale": ladder.scale,
                "grading": graded_with(games),
                "models": [row.to_dict() for row in outcome.rows],
            },
        )
        write_text_atomic(run_dir.path / "report.md", markdown_table(outcome.rows))
    return outcome


def _ladder_game(
    spec: str, key: tuple[str, ...], saved: Mapping[str, Any], ladder: Ladder, grade_nodes: int
) -> LadderGame:
    calls = saved.get("calls", [])
    costs = [c.get("costUsd") for c in calls]
    graded_by = saved.get("gradedBy")
    if not isinstance(graded_by, Mapping):  # graded before results recorded it: the run's nodes
        graded_by = {"engine": None, "nodes": grade_nodes}
    return LadderGame(
        model=spec,
        variant=key[1],
        rung=key[2],
        rung_rating=float(saved["rungRating"]),
        colour=saved["modelColour"],
        score=float(saved["score"]),
        adjudicated=bool(saved["adjudicated"]),
        requests=int(saved["requests"]),
        rejected=int(saved["rejected"]),
        input_tokens=_tokens(calls, "promptTokens"),
        output_tokens=_tokens(calls, "completionTokens"),
        cost=None if not costs or any(c is None for c in costs) else float(sum(costs)),
        answer_ms=[float(c["latencyMs"]) for c in calls if c.get("latencyMs") is not None],
        grades=[MoveGrade.from_dict(g) for g in saved.get("grades", [])],
        engine=graded_by.get("engine"),
        grade_nodes=graded_by.get("nodes"),
    )


def _tokens(calls: Sequence[Mapping[str, Any]], key: str) -> int | None:
    """The tokens the calls reported under `key` (None when no call reported any)."""
    counts = [int(c[key]) for c in calls if isinstance(c.get(key), int | float)]
    return sum(counts) if counts else None
