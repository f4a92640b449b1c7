"""The run loop every benchmark shares: the games of a grid (policy x seed x mode x ...) on one
`RunDir`, played by an executor, kept when their logs verify, set aside when cut short.

A benchmark gives the game keys (the policy spec first), a `play(policy, key, log_path) -> saved
result` function and how a saved result must agree with its log's result line. `play_grid`
keeps the finished games of an earlier run, plays the others (threads or Ray tasks,
`evaluation/core/executor.py`), saves each result and the manifest as games finish, and says what
is missing: a game aborted by a failure on our side is set aside and listed, a stop or Ctrl-C ends
the run resumably, a policy that can no longer answer (a refused key) stops it
(`evaluation/core/errors.py:PolicyUnusableError`).

A dead endpoint is noticed once: after `PolicyPool.abort_limit` games of one policy in a row are
aborted by failures on our side (`--max-consecutive-aborts`, default 3; a finished game of that
policy resets its count), the run stops resumably (`GridRun.stop_reason` says why) instead of
aborting every remaining game one by one.

A benchmark may also stop one policy and go on with the others: its `play` raises
`PolicyStoppedError` (the game is set aside), or `stops(key, saved)` names why a saved game ends
its policy's run (NARCADE: a failure streak; a kept game counts too, so a resume stops it again).
Its games not started yet are skipped and stay missing (`GridRun.stopped`). Games in flight finish;
under Ray, games already handed to other workers may still play.

Repeats (`--repeats K`, `evaluation/core/repeats.py`): a `RunDir` of K > 1 repeats gives the
grid a repeat axis: every key the benchmark gives is played K times under the key followed by
`r1` .. `rK` (the keys of `GridRun`, the manifest and the hooks), while `play` receives the
benchmark's own key; the game's log header says which repeat it is, and a policy with
`set_repeat(index)` is told before each game.

Hooks: `on_start(run)` sees the kept games before anything plays, `on_result(key, saved)` each game
as it is saved, `manifest()` adds the benchmark's own fields to every manifest written.

For Ray, `play` and the policy builder travel by pickle: pass top-level functions (bound with
`functools.partial`); each worker process builds each policy once (`PolicyPool`).
"""

from __future__ import annotations

import functools
import threading
import time
import uuid
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.core import repeats
from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.errors import PolicyStoppedError, PolicyUnusableError
from evaluation.core.executor import Executor, ExecutorError, LocalExecutor
from evaluation.core.repeats import Repeat
from evaluation.core.rundir import GameFiles, RunDir, set_aside
from evaluation.core.verify import verify_log
from policies.specs import SpecOptions, make_policy

Key = tuple[str, ...]
"""A game of the grid: the policy spec first, then what the benchmark needs (mode, seed, ...)."""

__all__ = [
    "DEFAULT_ABORT_LIMIT",
    "GridRun",
    "Key",
    "PolicyPool",
    "PolicyStoppedError",
    "PolicyUnusableError",
    "Stop",
    "abort_streak_reason",
    "build_policy",
    "play_grid",
    "spec_pool",
]

DEFAULT_ABORT_LIMIT = 3
"""Games of one policy aborted in a row by failures on our side after which a run stops."""

COST_CAP_ERROR = "CostCapReached"
"""How a call the cost meter refused is described (`policies/llm/errors.py:CostCapReached`)."""

_PROCESS_POLICIES: dict[str, dict[Hashable, Any]] = {}
"""Policies built in this process, per pool and thread: a Ray worker builds each policy once."""
_STOPPED: dict[str, dict[str, str]] = {}
"""Policies stopped, per run, as this process knows it (spec -> why): a stopped policy's later
games in this process are skipped (the driver's threads, a benchmark's per-policy process)."""


@dataclass
class PolicyPool:
    """Policies by spec, each built by `build(spec)` once per thread of each process: games in
    flight at once never share a policy instance (a chat policy's per-decision telemetry and
    fatal latch belong to one game at a time), and a thread's later games reuse its instance."""

    build: Callable[[Any], Any]
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    meter: Any = None
    """The run's cost meter (`--max-cost-usd`), shared by the policies it builds."""
    abort_limit: int | None = DEFAULT_ABORT_LIMIT
    """Games of one policy aborted in a row on our side (an outage, a dead endpoint) after which
    `play_grid` stops the run, resumable (`--max-consecutive-aborts`); None: never."""
    per_game: Callable[[Key], Hashable] | None = None
    """Which instance a game plays with, for a benchmark whose policies depend on more than the
    spec (NARCADE seeds a baseline per episode, builds an LLM once per game): `build` receives
    `per_game(key)`, and a thread keeps only its latest instance of each spec. A top-level
    function, so the pool still travels to other processes. Default: one instance per spec."""

    def build_all(self, specs: Sequence[str]) -> dict[str, Any]:
        """Build every policy now (their errors and pre-flight calls come before any game)."""
        return {spec: self.get(spec) for spec in specs}

    def get(self, spec: str) -> Any:
        made = _PROCESS_POLICIES.setdefault(self._slot(), {})
        if spec not in made:
            made[spec] = self.build(spec)
        return made[spec]

    def for_game(self, key: Key) -> Any:
        """The policy that plays game `key` (its spec's, unless `per_game` says otherwise)."""
        if self.per_game is None:
            return self.get(key[0])
        instance = self.per_game(key)
        made = _PROCESS_POLICIES.setdefault(f"{self._slot()}:per-game", {})
        held = made.get(key[0])
        if held is None or held[0] != instance:
            made[key[0]] = held = (instance, self.build(instance))
        return held[1]

    def _slot(self) -> str:
        return f"{self.token}:{threading.get_ident()}"


def build_policy(game: str, options: SpecOptions, spec: str) -> Any:
    """The policy `spec` names for `game` (a top-level function, so a pool can travel to Ray
    workers as `functools.partial(build_policy, game, options)`)."""
    return make_policy(spec, game, options)


def spec_pool(
    game: str, options: SpecOptions, *, abort_limit: int | None = DEFAULT_ABORT_LIMIT
) -> PolicyPool:
    """A pool building every policy through the one grammar."""
    return PolicyPool(
        functools.partial(build_policy, game, options),
        meter=options.meter,
        abort_limit=abort_limit,
    )


def abort_streak_reason(spec: str, games: int, last: str) -> str:
    """Why a run stopped after `games` games of `spec` in a row were aborted on our side."""
    return (
        f"{games} games of {spec} in a row were aborted by failures on our side (last: {last}); "
        "nothing was counted against the policy"
    )


Stops = Callable[[Key, Mapping[str, Any]], "str | None"]
"""Why a saved game ends its policy's run (None: it goes on); a top-level function."""


@dataclass(frozen=True)
class _Task:
    pool: PolicyPool
    play: Callable[[Any, Key, Path], Mapping[str, Any]]
    key: Key
    files: GameFiles
    run: str
    stops: Stops | None = None
    game: Key = ()
    """The benchmark's own key (`key` without its repeat part)."""
    repeat: Repeat | None = None


def _stop(run: str, spec: str, why: str) -> None:
    _STOPPED.setdefault(run, {}).setdefault(spec, why)


def _play_one(task: _Task) -> tuple[str, Any]:
    """One game, wherever the executor runs it: ("ok", saved), ("aborted", why), ("fatal", why),
    ("stopped", why) when its policy stopped, ("skipped", why) when it had stopped before."""
    spec = task.key[0]
    earlier = _STOPPED.get(task.run, {}).get(spec)
    if earlier is not None:
        return "skipped", earlier
    log = task.files.log
    try:
        policy = task.pool.for_game(task.key)
        log.parent.mkdir(parents=True, exist_ok=True)
        repeats.tell_policy(policy, task.repeat)
        with repeats.playing(task.repeat):
            saved = task.play(policy, task.game or task.key, log)
    except GameAbortedError as abort:
        set_aside(log, "aborted")
        return "aborted", abort.reason
    except PolicyStoppedError as stop:
        set_aside(log, "aborted")
        _stop(task.run, spec, stop.reason)
        return "stopped", stop.reason
    except (RunStoppedError, KeyboardInterrupt):
        set_aside(log, "interrupted")
        raise
    fatal = getattr(policy, "fatal_error", None)
    if fatal is not None:
        set_aside(log, "aborted")
        return "fatal", str(fatal)
    result = dict(saved)
    why = None if task.stops is None else task.stops(task.key, result)
    if why is not None:
        _stop(task.run, spec, why)
    return "ok", result


@dataclass(frozen=True)
class Stop:
    """Why a policy's run stopped, and at which game."""

    key: Key
    reason: str


@dataclass
class GridRun:
    """Where a grid stands after `play_grid`."""

    finished: dict[Key, dict[str, Any]]
    missing: list[Key] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    aborted_games: dict[Key, str] = field(default_factory=dict)
    """The games of `aborted` and why (set aside, played again on resume)."""
    stopped: dict[str, Stop] = field(default_factory=dict)
    """Policies whose remaining games were skipped, by spec."""
    interrupted: bool = False
    stop_reason: str | None = None
    """Why the run stopped on our side (a cost cap), when it did; None after Ctrl-C."""
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
    stops: Stops | None = None,
    on_start: Callable[[GridRun], None] | None = None,
    manifest: Callable[[], Mapping[str, Any]] | None = None,
) -> GridRun:
    """Play every game of `keys` not finished yet into `run_dir` (see the module docstring).

    Raises PolicyUnusableError when a policy can no longer answer (the manifest then says
    `stopped`); returns with `interrupted` set after Ctrl-C or a stop on our side (the cost cap
    included: the pool's meter counts every invocation of the run against it; and
    `pool.abort_limit` games of one policy aborted in a row), `stop_reason` saying why a stop
    came from our side. The manifest ends `interrupted` (with `stopReason`), `aborted`, `failed`
    (a policy stopped) or `complete`.
    """
    t0 = time.perf_counter()
    keys = repeats.expand(keys, run_dir.repeats)
    executor = executor or LocalExecutor()
    if pool.meter is not None and executor.name != "local":
        raise ExecutorError("--max-cost-usd needs --executor local: the cost meter is per process")
    run_dir.track_cost(pool.meter)
    files = {key: run_dir.game(*key) for key in keys}
    run = GridRun(finished={})
    token = uuid.uuid4().hex

    def write(status: str, more: Mapping[str, Any] | None = None) -> None:
        extra = {**(manifest() if manifest is not None else {}), **(more or {})}
        run_dir.write_manifest(status, keys, list(run.finished), extra)

    def stop(key: Key, why: str) -> None:
        if key[0] not in run.stopped:
            run.stopped[key[0]] = Stop(key, why)
        _stop(token, key[0], why)

    for key in keys:
        earlier = run_dir.finished(files[key], agrees, verify, say)
        if earlier is not None:
            run.finished[key] = earlier
            why = None if stops is None else stops(key, earlier)
            if why is not None:
                stop(key, why)
    if on_start is not None:
        on_start(run)
    write("running")
    lock = threading.Lock()
    streaks: dict[str, int] = {}
    """Games of each policy aborted in a row, in the order they finished."""

    def done(task: _Task, outcome: tuple[str, Any]) -> None:
        status, value = outcome
        key = task.key
        with lock:
            if status == "skipped":
                return
            if status == "stopped":
                stop(key, value)
                return
            if status == "aborted":
                run.aborted.append(f"{' '.join(key)}: {value}")
                run.aborted_games[key] = value
                streaks[key[0]] = streaks.get(key[0], 0) + 1
                if pool.abort_limit is not None and streaks[key[0]] >= pool.abort_limit:
                    raise RunStoppedError(abort_streak_reason(key[0], streaks[key[0]], value), 0)
                return
            if status == "fatal":
                write("stopped")
                raise PolicyUnusableError(f"policy {key[0]} cannot answer: {value}")
            run_dir.save_result(task.files, value)
            run.finished[key] = value
            streaks[key[0]] = 0
            why = None if stops is None else stops(key, value)
            if why is not None:
                stop(key, why)
            write("running")
        if on_result is not None:
            on_result(key, value)

    todo = [
        _Task(pool, play, key, files[key], token, stops, *repeats.split(key, run_dir.repeats))
        for key in keys
        if key not in run.finished and key[0] not in run.stopped
    ]
    capped = _capped_before(run_dir, pool.meter)
    if capped is not None:  # the same cap again: stop at once, with the same reason
        todo, run.interrupted, run.stop_reason = [], True, capped
    try:
        executor.run(_play_one, todo, done)
    except RunStoppedError as halt:
        run.interrupted, run.stop_reason = True, halt.reason
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        _STOPPED.pop(token, None)
    run.missing = [key for key in keys if key not in run.finished]
    run.seconds = time.perf_counter() - t0
    status = "interrupted" if run.interrupted else ("aborted" if run.aborted else "complete")
    if status == "complete" and run.stopped:
        status = "failed"
    more: dict[str, Any] = {"aborted": run.aborted}
    if run.stop_reason is not None:
        more["stopReason"] = run.stop_reason
        if COST_CAP_ERROR in run.stop_reason and pool.meter is not None:
            more["costCapUsd"] = pool.meter.cap_usd
    write(status, more)
    return run


def _capped_before(run_dir: RunDir, meter: Any) -> str | None:
    """The earlier stop's reason when the run being resumed stopped at the cost cap and the cap
    was not raised since: nothing could be played, so nothing is tried."""
    earlier = run_dir.earlier
    reason, cap = earlier.get("stopReason"), earlier.get("costCapUsd")
    if meter is None or not isinstance(reason, str) or COST_CAP_ERROR not in reason:
        return None
    if isinstance(cap, int | float) and not isinstance(cap, bool) and meter.cap_usd <= cap:
        return reason
    return None
