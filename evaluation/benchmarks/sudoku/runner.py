"""A Sudoku run: each policy through every grid of a set (or some tiers of it), then its report.

A run lives in one output directory (`evaluation/core/rundir.py`):

    manifest.json                         what the run is, what is done, what is missing
    logs/<policy>/<grid id>.jsonl         one event log per grid (`arcade-eval verify`)
    results/<policy>/<grid id>.json       the saved result of each finished grid
    report.json, report.md                the reports, written when nothing is missing

Re-running the same command into the same directory resumes it: a grid counts as finished when
its log verifies and its result agrees with it; a grid cut short or aborted by a failure on our
side is set aside and played again. A directory holding another run is refused.

With `repeats` K > 1 (`--repeats`) each grid is played K times (`logs/<policy>/<grid id>/r1.jsonl`
..., `evaluation/core/repeats.py`): the report's score is the mean over repeats with the interval
of `evaluation/core/repeat_report.py` (grids and repeats resampled, tiers weighing the same).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arcade_gym.sudoku.rules import GRADER_VERSION, SETS
from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID, DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.sudoku.episode import play_sudoku_grid
from evaluation.benchmarks.sudoku.report import repeated_report
from evaluation.core.errors import RunError
from evaluation.core.executor import Executor
from evaluation.core.grid import Key, PolicyPool, play_grid
from evaluation.core.header_limits import MAX_TIME_MS
from evaluation.core.policy_identity import policy_identity, run_settings
from evaluation.core.repeats import samples
from evaluation.core.rundir import RunDir, RunDirError

Game = Key
"""(policy spec, grid id)."""


@dataclass
class SudokuRun:
    """What a run produced: a report per policy whose grids are all finished, what is missing."""

    output_dir: Path
    reports: list[dict[str, Any]] = field(default_factory=list)
    missing: list[Game] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    interrupted: bool = False
    stop_reason: str | None = None
    """Why the run stopped on our side (a dead endpoint, the cost cap); None after Ctrl-C."""


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


@functools.lru_cache(maxsize=4)
def _records(set_version: str) -> dict[str, dict[str, Any]]:
    return {g["id"]: g for g in set_grids(set_version)}


def _play(
    set_version: str, timeout_ms: float | None, policy: Any, key: Key, log: Path
) -> Mapping[str, Any]:
    """One grid of the set (top-level: Ray workers unpickle it)."""
    record = _records(set_version)[key[1]]
    return play_sudoku_grid(policy, record, log, set_version=set_version, timeout_ms=timeout_ms)


def run_sudoku(
    policies: Sequence[str],
    pool: PolicyPool,
    output_dir: str | Path,
    *,
    set_version: str = "v1",
    tiers: Sequence[int] = (1, 2, 3, 4, 5, 6, 7),
    timeout_ms: float | None = DEFAULT_TIMEOUT_MS,
    resume: bool | None = None,
    executor: Executor | None = None,
    progress: Callable[[str], None] | None = None,
    say: Callable[[str], None] = print,
    repeats: int = 1,
) -> SudokuRun:
    """Play every policy (a spec, built by `pool` after the directory is checked) through the
    grids of `set_version` in `tiers` into `output_dir`, resuming what it holds. Never raises
    for anything a policy answers; Ctrl-C ends the run resumably (`interrupted`)."""
    if not policies:
        raise RunError("--policy needs at least one policy, e.g. solver")
    if set_version not in SETS:
        raise RunError(f"unknown set {set_version!r}; known sets: {', '.join(SETS)}")
    if not tiers or any(t not in range(1, 8) for t in tiers):
        raise RunError(f"--tiers must be tiers 1..7, got {list(tiers)}")
    if timeout_ms is not None and not (math.isfinite(timeout_ms) and 0 < timeout_ms <= MAX_TIME_MS):
        raise RunError(
            f"--timeout-s must be a finite number of seconds > 0 and at most "
            f"{MAX_TIME_MS / 1000:,.0f} (--timeout-ms: of milliseconds, at most {MAX_TIME_MS:,.0f})"
        )
    run_dir = RunDir(
        output_dir,
        BENCHMARK_ID,
        settings(policies, set_version, tiers, timeout_ms),
        repeats=repeats,
    )
    try:
        run_dir.prepare(resume=resume)
    except RunDirError as error:
        raise RunError(str(error)) from None
    grids = [gid for gid, g in _records(set_version).items() if g["tier"] in tiers]
    made = pool.build_all(policies)
    run_dir.check_policies({spec: run_settings(policy) for spec, policy in made.items()})
    keys: list[Key] = [(spec, grid_id) for spec in policies for grid_id in grids]

    def report(key: Key, saved: Mapping[str, Any]) -> None:
        if progress is not None:
            label = " ".join(key[1:])
            progress(f"{key[0]} {label}: {saved['outcome']} ({saved['cellsRight']} right)")

    grid = play_grid(
        run_dir,
        keys,
        functools.partial(_play, set_version, timeout_ms),
        pool,
        agrees=_agrees,
        executor=executor,
        on_result=report,
        say=say,
    )
    outcome = SudokuRun(
        Path(output_dir),
        missing=grid.missing,
        aborted=grid.aborted,
        interrupted=grid.interrupted,
        stop_reason=grid.stop_reason,
    )
    for spec in policies:
        if grid.complete(spec):
            played = [samples(grid.finished, (spec, grid_id), repeats) for grid_id in grids]
            identity = policy_identity(made[spec])
            outcome.reports.append(repeated_report(identity, played, repeats))
    return outcome
