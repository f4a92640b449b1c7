"""A Sudoku run: each policy through every grid of a set (or some tiers of it), then its report.

A run lives in one output directory (`evaluation/core/rundir.py`):

    manifest.json                         what the run is, what is done, what is missing
    logs/<policy>/<grid id>.jsonl         one event log per grid (`arcade-eval verify`)
    results/<policy>/<grid id>.json       the saved result of each finished grid
    report.json, report.md                the reports, written when nothing is missing

Re-running the same command into the same directory resumes it: a grid counts as finished when
its log verifies and its result agrees with it; a grid cut short or aborted by a failure on our
side is set aside and played again. A directory holding another run is refused.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arcade_gym.sudoku.rules import GRADER_VERSION, SETS
from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID, DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.sudoku.episode import play_sudoku_grid
from evaluation.benchmarks.sudoku.report import policy_report
from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.policy_identity import policy_identity
from evaluation.core.rundir import GameFiles, RunDir, RunDirError
from evaluation.core.verify import verify_log

Game = tuple[str, str]
"""(policy spec, grid id)."""


class RunError(Exception):
    """A user error that stops the run before any grid is played (one clear message)."""


@dataclass
class SudokuRun:
    """What a run produced: a report per policy whose grids are all finished, what is missing."""

    output_dir: Path
    reports: list[dict[str, Any]] = field(default_factory=list)
    missing: list[Game] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    interrupted: bool = False


def _agrees(saved: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    return all(saved.get(key) == value for key, value in logged.items() if key != "type")


def settings(
    policies: Sequence[str], set_version: str, tiers: Sequence[int], timeout_ms: float | None
) -> dict[str, Any]:
    """What makes two runs the same run (a resume must match it exactly)."""
    return {
        "policies": list(policies),
        "set": set_version,
        "tiers": list(tiers),
        "grader": GRADER_VERSION,
        "timeoutMs": timeout_ms,
    }


def run_sudoku(
    policies: Sequence[str],
    make_policy: Callable[[str], Any],
    output_dir: str | Path,
    *,
    set_version: str = "v1",
    tiers: Sequence[int] = (1, 2, 3, 4, 5, 6, 7),
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
    resume: bool | None = None,
    progress: Callable[[str], None] | None = None,
    say: Callable[[str], None] = print,
) -> SudokuRun:
    """Play every policy (a spec, made by `make_policy` after the directory is checked) through
    the grids of `set_version` in `tiers` into `output_dir`, resuming what it holds. Never raises
    for anything a policy answers; Ctrl-C ends the run resumably (`interrupted`)."""
    if not policies:
        raise RunError("--policy needs at least one policy, e.g. solver")
    if set_version not in SETS:
        raise RunError(f"unknown set {set_version!r}; known sets: {', '.join(SETS)}")
    if not tiers or any(t not in range(1, 8) for t in tiers):
        raise RunError(f"--tiers must be tiers 1..7, got {list(tiers)}")
    if timeout_ms is not None and not timeout_ms > 0:
        raise RunError("--timeout-ms must be > 0")
    run_dir = RunDir(output_dir, BENCHMARK_ID, settings(policies, set_version, tiers, timeout_ms))
    try:
        run_dir.prepare(resume=resume)
    except RunDirError as error:
        raise RunError(str(error)) from None
    t0 = time.perf_counter()
    records = {g["id"]: g for g in set_grids(set_version) if g["tier"] in tiers}
    made = {spec: make_policy(spec) for spec in policies}
    games: list[Game] = [(spec, grid_id) for spec in policies for grid_id in records]
    files: dict[Game, GameFiles] = {game: run_dir.game(*game) for game in games}
    finished: dict[Game, dict[str, Any]] = {}
    for game in games:
        earlier = run_dir.finished(files[game], _agrees, verify_log, say)
        if earlier is not None:
            finished[game] = earlier
    outcome = SudokuRun(Path(output_dir))
    run_dir.write_manifest("running", games, list(finished))
    try:
        for game in games:
            if game in finished:
                continue
            spec, grid_id = game
            where = files[game]
            try:
                saved = play_sudoku_grid(
                    made[spec],
                    records[grid_id],
                    where.log,
                    set_version=set_version,
                    timeout_ms=timeout_ms,
                )
            except GameAbortedError as abort:
                run_dir.abandon(where, "aborted")
                outcome.aborted.append(f"{spec} {grid_id}: {abort.reason}")
                continue
            except (RunStoppedError, KeyboardInterrupt):
                run_dir.abandon(where, "interrupted")
                raise
            run_dir.save_result(where, saved)
            finished[game] = saved
            run_dir.write_manifest("running", games, list(finished))
            if progress is not None:
                progress(f"{spec} {grid_id}: {saved['outcome']} ({saved['cellsRight']} right)")
    except (KeyboardInterrupt, RunStoppedError):
        outcome.interrupted = True
    outcome.missing = [g for g in games if g not in finished]
    status = (
        "interrupted" if outcome.interrupted else ("aborted" if outcome.aborted else "complete")
    )
    extra = {"aborted": outcome.aborted, "seconds": round(time.perf_counter() - t0, 3)}
    run_dir.write_manifest(status, games, list(finished), extra)
    for spec in policies:
        if any(g[0] == spec for g in outcome.missing):
            continue
        results = [finished[(spec, grid_id)] for grid_id in records]
        outcome.reports.append(policy_report(policy_identity(made[spec]), results))
    return outcome
