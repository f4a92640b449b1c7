"""The run loop every benchmark shares: the games of a grid (policy x seed x mode x ...) on one
`RunDir`, played by an executor, kept when their logs verify, set aside when cut short.

A benchmark gives the game keys (the policy spec first), a `play(policy, key, log_path) -> saved
result` function and how a saved result must agree with its log's result line. `play_grid`
keeps the finished games of an earlier run, plays the others (threads or Ray tasks,
`evaluation/core/executor.py`), saves each result and the manifest as games finish, and says what
is missing: a game aborted by a failure on our side is set aside and listed, a stop or Ctrl-C ends
the run resumably, a policy that can no longer answer (a refused key) stops it.

For Ray, `play` and the policy builder travel by pickle: pass top-level functions (bound with
`functools.partial`); each worker process builds each policy once (`PolicyPool`).
"""

from __future__ import annotations

import functools
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.executor import Executor, ExecutorError, LocalExecutor
from evaluation.core.rundir import GameFiles, RunDir, set_aside
from evaluation.core.verify import verify_log
from policies.specs import SpecOptions, make_policy

Key = tuple[str, ...]
"""A game of the grid: the policy spec first, then what the benchmark needs (mode, seed, ...)."""

_PROCESS_POLICIES: dict[str, dict[str, Any]] = {}
"""Policies built in this process, per pool and thread: a Ray worker builds each policy once."""


class PolicyUnusableError(Exception):
    """A policy can no longer answer at all (a refused key, an unknown model): the run stops."""


@dataclass
class PolicyPool:
    """Policies by spec, each built by `build(spec)` once per thread of each process: games in
    flight at once never share a policy instance (a chat policy's per-decision telemetry and
    fatal latch belong to one game at a time), and a thread's later games reuse its instance."""

    build: Callable[[str], Any]
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    meter: Any = None
    """The run's cost meter (`--max-cost-usd`), shared by the policies it builds."""

    def build_all(self, specs: Sequence[str]) -> dict[str, Any]:
        """Build every policy now (their errors and pre-flight calls come before any game)."""
        return {spec: self.get(spec) for spec in specs}

    def get(self, spec: str) -> Any:
        made = _PROCESS_POLICIES.setdefault(f"{self.token}:{threading.get_ident()}", {})
        if spec not in made:
            made[spec] = self.build(spec)
        return made[spec]


def build_policy(game: str, options: SpecOptions, spec: str) -> Any:
    """The policy `spec` names for `game` (a top-level function, so a pool can travel to Ray
    workers as `functools.partial(build_policy, game, options)`)."""
    return make_policy(spec, game, options)


def spec_pool(game: str, options: SpecOptions) -> PolicyPool:
    """A pool building every policy through the one grammar."""
    return PolicyPool(functools.partial(build_policy, game, options), meter=options.meter)


@dataclass(frozen=True)
class _Task:
    pool: PolicyPool
    play: Callable[[Any, Key, Path], Mapping[str, Any]]
    key: Key
    files: GameFiles


def _play_one(task: _Task) -> tuple[str, Any]:
    """One game, wherever the executor runs it: ("ok", saved), ("aborted", why), ("fatal", why)."""
    policy = task.pool.get(task.key[0])
    log = task.files.log
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        saved = task.play(policy, task.key, log)
    except GameAbortedError as abort:
        set_aside(log, "aborted")
        return "aborted", abort.reason
    except (RunStoppedError, KeyboardInterrupt):
        set_aside(log, "interrupted")
        raise
    fatal = getattr(policy, "fatal_error", None)
    if fatal is not None:
        set_aside(log, "aborted")
        return "fatal", str(fatal)
    return "ok", dict(saved)


@dataclass
class GridRun:
    """Where a grid stands after `play_grid`."""

    finished: dict[Key, dict[str, Any]]
    missing: list[Key] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

    def complete(self, spec: str) -> bool:
        """Whether every game of policy `spec` is finished."""
        return not any(key[0] == spec for key in self.missing)


def play_grid(
    run_dir: RunDir,
    keys: Sequence[Key],
    play: Callable[[Any, Key, Path], Mapping[str, Any]],
    pool: PolicyPool,
    *,
    agrees: Callable[[Mapping[str, Any], Mapping[str, Any]], bool],
    executor: Executor | None = None,
    on_result: Callable[[Key, Mapping[str, Any]], None] | None = None,
    verify: Callable[[Path], Any] = verify_log,
    say: Callable[[str], None] = print,
) -> GridRun:
    """Play every game of `keys` not finished yet into `run_dir` (see the module docstring).

    Raises PolicyUnusableError when a policy can no longer answer (the manifest then says
    `stopped`); returns with `interrupted` set after Ctrl-C or a stop on our side (the cost cap
    included: the pool's meter counts every invocation of the run against it).
    """
    t0 = time.perf_counter()
    executor = executor or LocalExecutor()
    if pool.meter is not None and executor.name != "local":
        raise ExecutorError("--max-cost-usd needs --executor local: the cost meter is per process")
    run_dir.track_cost(pool.meter)
    files = {key: run_dir.game(*key) for key in keys}
    run = GridRun(finished={})
    for key in keys:
        earlier = run_dir.finished(files[key], agrees, verify, say)
        if earlier is not None:
            run.finished[key] = earlier
    run_dir.write_manifest("running", keys, list(run.finished))
    lock = threading.Lock()

    def done(task: _Task, outcome: tuple[str, Any]) -> None:
        status, value = outcome
        key = task.key
        with lock:
            if status == "aborted":
                run.aborted.append(f"{' '.join(key)}: {value}")
                return
            if status == "fatal":
                run_dir.write_manifest("stopped", keys, list(run.finished))
                raise PolicyUnusableError(f"policy {key[0]} cannot answer: {value}")
            run_dir.save_result(task.files, value)
            run.finished[key] = value
            run_dir.write_manifest("running", keys, list(run.finished))
        if on_result is not None:
            on_result(key, value)

    todo = [_Task(pool, play, key, files[key]) for key in keys if key not in run.finished]
    try:
        executor.run(_play_one, todo, done)
    except (KeyboardInterrupt, RunStoppedError):
        run.interrupted = True
    run.missing = [key for key in keys if key not in run.finished]
    run.seconds = time.perf_counter() - t0
    status = "interrupted" if run.interrupted else ("aborted" if run.aborted else "complete")
    run_dir.write_manifest(status, keys, list(run.finished), {"aborted": run.aborted})
    return run
