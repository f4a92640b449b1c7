"""The NARCADE suite runner: models x games x seeded episodes, realtime or lockstep, played by the
one run loop (`evaluation/core/grid.py:play_grid`).

`run_narcade` plays every model on every game for `episodes` seeds (`seed`, `seed + 1`, ...) in
one run directory (`evaluation/core/rundir.py`):

    manifest.json                           the run (settings, models, versions), finished, missing
    logs/<model>/<game>/<seed>.jsonl        one event log per episode (`arcade-eval verify`)
    results/<model>/<game>/<seed>.json      the record of each finished episode
    results/<model>/<game>.json             the model's result file for the game (`results.py`)

Each episode is a game of the grid, keyed (model, game, seed). Each model plays in its own
process (`isolation.py`, spawned), so its memory, threads and hung calls die with it;
`isolate=False` plays in this process with identical results, and under Ray every game is a Ray
task. A non-empty directory is refused unless `resume` is set; a resumed run must have the same
settings, keeps the episodes whose log verifies and whose record agrees with it, sets anything
else aside (renamed, never deleted) and plays it again. A model whose episode ended in `policy
failure` (its failure streak) is failed: its remaining episodes are skipped, also on resume; so
is a model that cannot be built, that can no longer answer (a refused key), or whose identity
changed since the episodes kept from the earlier run (a result file never mixes two policies
under one name). An episode aborted by a failure on our side (`policies.base.ServiceFailureError`)
is set aside, never counted, and played again on resume. The cost cap (`max_cost_usd`) stops the
run resumably; it needs one game at a time.

The files keep the formats of the runner before `play_grid` (`narcade-manifest@2`,
`narcade-result@2`, the same episode records, one more manifest field, `aborted`): runs it wrote
resume, verify and build as they are.
"""

from __future__ import annotations

import functools
import os
import sys
import traceback
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.defaults import BENCHMARK_ID
from evaluation.benchmarks.narcade.episode import (
    POLICY_FAILURE,
    EpisodeConfig,
    identity_of,
    play_narcade,
)
from evaluation.benchmarks.narcade.isolation import IsolatedExecutor
from evaluation.benchmarks.narcade.pool import check_models, narcade_pool
from evaluation.benchmarks.narcade.results import agrees, hardware_label, read_json, run_cost
from evaluation.benchmarks.narcade.run_files import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    RunFiles,
    episode_key,
    failure_text,
)
from evaluation.benchmarks.narcade.settings import NarcadeRunSettings, Settings
from evaluation.core import repeats
from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.errors import PolicyStoppedError, RunError
from evaluation.core.executor import Executor, LocalExecutor
from evaluation.core.grid import DEFAULT_ABORT_LIMIT, Key, play_grid
from evaluation.core.rundir import RunDir, RunDirError, inside_root

EXIT_USAGE = 2
StopText = Callable[[str, int, float], str]
"""The line a stop on our side prints: (reason, episodes missing, dollars spent) -> text."""
Say = Callable[[str], None]


def run_settings(models: Sequence[str], settings: Settings) -> dict[str, Any]:
    """What a resumed run must repeat exactly (the run directory compares it)."""
    return {**settings.to_dict(), "models": list(models), "hardware": settings.hardware}


# --------------------------------------------------------------------------------------------
# One episode (wherever the executor plays it)
# --------------------------------------------------------------------------------------------


def play_episode(settings: Settings, out: str, policy: Any, key: Key, log: Path) -> dict[str, Any]:
    """Play episode `key` (model, game, seed) into `log`; its record (with the policy's
    identity). A policy whose identity differs from the one that played the game's other
    episodes, that can no longer answer, or a harness error stops the model
    (`PolicyStoppedError`); a failure on our side raises as the episode loop raised it."""
    spec, game, seed = key
    identity = identity_of(spec, policy)
    changed = _identity_changed(_earlier_identity(settings, out, key), identity)
    if changed:
        raise PolicyStoppedError(
            f"the policy changed since the episodes kept from the earlier run "
            f"({'; '.join(changed[:3])}); resume with the same policy or choose a new "
            "--output-dir"
        )
    try:
        record = play_narcade(policy, spec, EpisodeConfig.of(settings, game), int(seed), log)
    except (GameAbortedError, RunStoppedError):
        raise
    except Exception as exc:  # a harness bug must still leave results and a reason behind
        traceback.print_exc(limit=5, file=sys.stderr)
        raise PolicyStoppedError(f"runner error: {type(exc).__name__}: {exc}") from None
    fatal = getattr(policy, "fatal_error", None)
    if fatal is not None:  # a refused key or unknown model: no point going on
        raise PolicyStoppedError(f"the model cannot answer: {fatal}")
    entry = {**record.to_dict(), "log": Path(log).relative_to(out).as_posix()}
    repeat = repeats.current()
    if repeat is not None:  # one of several plays of this seed (`--repeats`)
        entry["repeat"] = repeat.index
    return {**entry, "policy": identity}


def failure_stop(streak: int, key: Key, saved: Mapping[str, Any]) -> str | None:
    """An episode that ended in `policy failure` stops its model (`play_grid`'s `stops`)."""
    if saved.get("endReason") != POLICY_FAILURE:
        return None
    return failure_text(streak, key[1], saved)


def _earlier_identity(settings: Settings, out: str, key: Key) -> dict[str, Any]:
    """Who played the game's other finished episodes (their records: each one was verified
    when it was kept, or saved by this run; in a run of several repeats, every other repeat's
    too); empty when none is finished."""
    folder = RunDir(out, BENCHMARK_ID, {}).game(*key).result.parent
    repeat = repeats.current()
    if repeat is None:
        names = [f"{seed}.json" for seed in settings.seeds if str(seed) != key[2]]
    else:
        names = [
            f"{seed}/{repeats.part(i)}.json"
            for seed in settings.seeds
            for i in range(1, repeat.of + 1)
            if (str(seed), i) != (key[2], repeat.index)
        ]
    for name in names:
        if not os.path.isfile(folder / name):
            continue
        try:
            record = read_json(inside_root(out, folder / name))
        except (OSError, ValueError, RunDirError):
            continue
        if isinstance(record, dict) and isinstance(record.get("policy"), dict):
            return dict(record["policy"])
    return {}


def _identity_changed(kept: dict[str, Any], identity: dict[str, Any]) -> list[str]:
    """How a newly built policy differs from the one that played the kept episodes (nothing
    when no episode was kept)."""
    if set(kept) <= {"spec"}:
        return []
    return [
        f"{key}: {kept.get(key)!r} -> {identity.get(key)!r}"
        for key in sorted(set(kept) | set(identity))
        if kept.get(key) != identity.get(key)
    ]


def _note(text: str) -> None:
    """What resume sets aside is said even by a quiet run (stderr)."""
    print(text, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------


def run_narcade(
    request: NarcadeRunSettings,
    output_dir: str | Path,
    *,
    executor: Executor | None = None,
    log: Say | None = None,
    abort_limit: int | None = DEFAULT_ABORT_LIMIT,
    stop_text: StopText | None = None,
) -> int:
    """Run (or, with `request.resume`, finish) the suite; returns the exit code (0 complete,
    1 a model failed, an episode was aborted or the run stopped on our side, 2 a bad request,
    130 interrupted). Bad requests print one clear message through `log` (stderr by default).

    `abort_limit`: episodes of one model aborted in a row on our side after which the run
    stops (`PolicyPool.abort_limit`); `stop_text(reason, missing, spent_usd)`: the line a stop
    on our side prints (the CLI's names the resume command)."""
    say = log or (lambda text: print(text, file=sys.stderr, flush=True))
    executor = executor or LocalExecutor()
    try:
        models, settings = request.resolve(hardware_label())
        if settings.max_cost_usd is not None and (
            executor.name != "local" or getattr(executor, "concurrency", 1) > 1
        ):
            raise RunError(
                "--max-cost-usd needs one game at a time (a cost meter lives in one process); "
                "drop --concurrency / --executor ray, or the cap"
            )
        run_dir = RunDir(
            output_dir, BENCHMARK_ID, run_settings(models, settings), repeats=request.repeats
        )
        for spec in models:  # two models sharing files is refused here
            run_dir.game(*episode_key(spec, settings.games[0], settings.seed))
        check_models(models, settings)
        run_dir.prepare(resume=request.resume)
    except (RunError, RunDirError) as error:
        say(f"arcade-eval narcade: {error}")
        return EXIT_USAGE
    progress: Say = (lambda _: None) if request.quiet else (lambda s: print(s, flush=True))
    files = RunFiles(run_dir, models, settings, progress, repeats=request.repeats)
    keys = [episode_key(m, g, s) for m in models for g in settings.games for s in settings.seeds]
    isolated = None
    if request.isolate and executor.name == "local":
        isolated = IsolatedExecutor(getattr(executor, "concurrency", 1))
    out = str(run_dir.path)
    grid = play_grid(
        run_dir,
        keys,
        functools.partial(play_episode, settings, out),
        narcade_pool(settings, out, uuid.uuid4().hex, abort_limit=abort_limit),
        agrees=agrees,
        executor=isolated or executor,
        on_result=files.saved,
        say=_note,
        stops=functools.partial(failure_stop, settings.failure_streak),
        on_start=files.start,
        manifest=files.manifest,
    )
    crashed = {str(m): code for m, code in (isolated.crashed if isolated else {}).items()}
    codes = files.finish(grid, crashed)
    failed = any(code != EXIT_OK for code in codes.values())
    status = "interrupted" if grid.interrupted else ("failed" if failed else "complete")
    stopped = {} if grid.stop_reason is None else {"stopReason": grid.stop_reason}
    run_dir.write_manifest(
        status,
        repeats.expand(keys, request.repeats),
        list(grid.finished),
        {**files.extra, "aborted": grid.aborted, **stopped},
    )
    where = run_dir.path
    if grid.stop_reason is not None:
        missing, spent = len(grid.missing), run_cost(run_dir.path)
        if stop_text is not None:
            say(f"arcade-eval narcade: {stop_text(grid.stop_reason, missing, spent)}")
        else:
            say(f"arcade-eval narcade: stopped: {grid.stop_reason}; {missing} episodes missing")
        return EXIT_FAILED
    if grid.interrupted:
        say(
            f"arcade-eval narcade: interrupted; partial results kept in {where} (the same "
            "command resumes it)"
        )
        return EXIT_INTERRUPTED
    if failed:
        bad = ", ".join(m for m, c in codes.items() if c != EXIT_OK)
        say(f"arcade-eval narcade: model(s) failed: {bad}; partial results kept in {where}")
        return EXIT_FAILED
    return EXIT_OK
