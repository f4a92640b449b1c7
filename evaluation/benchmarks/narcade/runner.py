"""The NARCADE suite runner: models x games x seeded episodes, realtime or lockstep.

`run_narcade` plays every model on every game for `episodes` seeds (`seed`, `seed + 1`, ...) in
one run directory (`evaluation/core/rundir.py`):

    manifest.json                           the run (settings, models, versions), finished, missing
    logs/<model>/<game>/<seed>.jsonl        one event log per episode (`arcade-eval verify`)
    results/<model>/<game>/<seed>.json      the record of each finished episode
    results/<model>/<game>.json             the model's result file for the game (`results.py`)

Each model runs in its own process (multiprocessing, spawn), so a model's memory, threads and hung
calls die with it; `isolate=False` runs in this process with identical results. A non-empty
directory is refused unless `resume` is set; a resumed run must have the same settings, keeps the
episodes whose log verifies and whose record agrees with it, sets anything else aside (renamed,
never deleted) and plays it again. A model whose episode ended in `policy failure` is failed: its
remaining episodes are skipped, also on resume. An episode aborted by a failure on our side
(`policies.base.ServiceFailureError`) is set aside, never counted, and played again on resume.

Policies come from the one grammar (`policies/specs.py`) with the game names `snake`,
`minesweeper` and `tetris-controls`: `random` (seeded by the episode seed), `heuristic`,
`llm:SLUG` (built and pre-flighted once per game), `py:MODULE:FACTORY` (`FACTORY(game, seed)`
per episode), `cmd:`/`bf:` where the game takes them.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.episode import (
    POLICY_FAILURE,
    EpisodeConfig,
    identity_of,
    play_narcade,
)
from evaluation.benchmarks.narcade.protocol import (
    BENCHMARK_ID,
    MANIFEST_FORMAT,
    POLICY_GAMES,
)
from evaluation.benchmarks.narcade.results import (
    ResultFile,
    agrees,
    collect_model,
    hardware_info,
    hardware_label,
    read_json,
    result_path,
    run_cost,
    versions,
)
from evaluation.benchmarks.narcade.settings import (
    DEFAULT_DIFFICULTY,
    DEFAULT_MAX_DECISIONS,
    DEFAULT_TIMEOUT_MS,
    FAILURE_STREAK,
    NarcadeError,
    Settings,
    make_settings,
)
from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.eventlog import utc_now_iso
from evaluation.core.executor import Executor, LocalExecutor
from evaluation.core.rundir import RunDir, RunDirError
from evaluation.core.verify import verify_log

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
EXIT_ABORTED = 3
"""A model process whose episodes were all played but some aborted on our side (the run exits
1; the model's other games still play)."""
DEFAULT_MODELS = ("random", "heuristic")

Say = Callable[[str], None]


# --------------------------------------------------------------------------------------------
# Policies
# --------------------------------------------------------------------------------------------


def make_policy(
    spec: str,
    game: str,
    seed: int,
    settings: Settings,
    *,
    preflight: bool = True,
    meter: Any = None,
) -> Any:
    """The policy `spec` names for NARCADE `game` (random baselines seeded by the episode seed;
    LLMs with the run's cache, transcripts and cost `meter`); NarcadeError says what is wrong
    with the spec."""
    from policies.specs import SpecError, SpecOptions
    from policies.specs import make_policy as make

    options = SpecOptions(
        seed=seed,
        timeout_ms=settings.timeout_ms,
        models_file=settings.models_file,
        base_url=settings.base_url,
        preflight=preflight,
        cache_dir=settings.cache_dir,
        meter=meter,
        transcripts=settings.transcripts,
    )
    try:
        return make(spec, POLICY_GAMES[game], options)
    except SpecError as error:
        raise NarcadeError(str(error)) from None


def check_models(models: Sequence[str], settings: Settings) -> None:
    """Build each model's policy for each game once without any network call, so a bad spec
    stops the run before it starts (an LLM's pre-flight happens in its own process)."""
    for spec in models:
        for game in settings.games:
            make_policy(spec, game, settings.seed, settings, preflight=False)


# --------------------------------------------------------------------------------------------
# One model (its own process)
# --------------------------------------------------------------------------------------------


def run_settings(models: Sequence[str], settings: Settings) -> dict[str, Any]:
    """What a resumed run must repeat exactly (the run directory compares it)."""
    return {**settings.to_dict(), "models": list(models), "hardware": settings.hardware}


def episode_key(model: str, game: str, seed: int) -> tuple[str, str, str]:
    return (model, game, str(seed))


def _policy_failed(episodes: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    return next((e for e in episodes if e.get("endReason") == POLICY_FAILURE), None)


def run_model(
    spec: str,
    models: Sequence[str],
    settings: Settings,
    output_dir: str | Path,
    *,
    quiet: bool = False,
    only_game: str | None = None,
) -> int:
    """Play (or keep, when resumed) every episode of one model (of one game with `only_game`),
    rewriting its result files as it goes. Returns 0 when complete, 1 when the model failed or an
    episode was aborted, 130 when interrupted."""
    out = Path(output_dir)
    say: Say = (lambda _: None) if quiet else (lambda s: print(s, flush=True))
    run_dir = RunDir(out, BENCHMARK_ID, run_settings(models, settings))
    current: ResultFile | None = None
    aborted = 0
    meter = None
    if settings.max_cost_usd is not None:
        from policies.llm.cost_meter import CostMeter

        meter = CostMeter(settings.max_cost_usd, spent_usd=run_cost(out))
    try:
        for game in settings.games:
            if only_game is not None and game != only_game:
                continue
            config = EpisodeConfig.of(settings, game)
            current = ResultFile(
                result_path(out, spec, game),
                model=spec,
                game=game,
                game_mode=settings.game_mode(game),
                seeds=settings.seeds,
                settings=settings.to_dict(),
                hardware=settings.hardware,
            )
            todo = []
            for seed in settings.seeds:
                files = run_dir.game(*episode_key(spec, game, seed))
                kept = run_dir.finished(files, agrees, verify_log, _note)
                if kept is None:
                    todo.append((seed, files))
                else:
                    current.data["model"] = {"spec": spec, **kept.pop("policy", {})}
                    current.add(kept)
            failure = _policy_failed(current.data["episodes"])
            if failure is not None:
                current.finish("failed", _failure_text(settings, game, failure))
                return EXIT_FAILED
            current.write()
            game_aborted = 0
            llm_policy = None
            for seed, files in todo:
                try:
                    if spec.startswith("llm:"):
                        llm_policy = llm_policy or make_policy(
                            spec, game, seed, settings, meter=meter
                        )
                        policy = llm_policy
                    else:
                        policy = make_policy(spec, game, seed, settings, meter=meter)
                except Exception as exc:
                    current.finish("failed", f"could not build the policy: {exc}")
                    say(f"{spec} {game}: FAILED, could not build the policy: {exc}")
                    return EXIT_FAILED
                identity = identity_of(spec, policy)
                changed = _identity_changed(current.data["model"], identity)
                if changed:
                    error = (
                        f"the policy changed since the episodes kept from the earlier run "
                        f"({'; '.join(changed[:3])}); resume with the same policy or choose a new "
                        "--output-dir"
                    )
                    current.finish("failed", error)
                    say(f"{spec} {game}: FAILED, {error}")
                    return EXIT_FAILED
                current.set_model(identity)
                try:
                    record = play_narcade(policy, spec, config, seed, files.log)
                except GameAbortedError as abort:
                    run_dir.abandon(files, "aborted")
                    game_aborted += 1
                    say(f"{spec} {game} seed {seed}: aborted, not counted ({abort.reason})")
                    continue
                except RunStoppedError as stop:
                    run_dir.abandon(files, "interrupted")
                    _note(f"{spec} {game} seed {seed}: the run stops ({stop.reason}); resumable")
                    raise _Stopped(stop.reason) from None
                except KeyboardInterrupt:
                    run_dir.abandon(files, "interrupted")
                    raise
                fatal = getattr(policy, "fatal_error", None)
                if fatal is not None:  # a refused key or unknown model: no point going on
                    run_dir.abandon(files, "aborted")
                    current.finish("failed", f"the model cannot answer: {fatal}")
                    say(f"{spec}: FAILED (the model cannot answer: {fatal})")
                    return EXIT_FAILED
                entry = {**record.to_dict(), "log": files.log.relative_to(out).as_posix()}
                run_dir.save_result(files, {**entry, "policy": identity})
                current.add(entry)
                say(
                    f"{spec} {game} seed {seed}: score {record.score} ({record.end_reason}), "
                    f"{record.decisions} decisions, {record.invalid_actions} invalid, "
                    f"{record.timeouts} timeouts, {record.policy_errors} errors"
                )
                if record.end_reason == POLICY_FAILURE:
                    error = _failure_text(settings, game, entry)
                    current.finish("failed", error)
                    say(f"{spec}: FAILED ({error}); its remaining episodes are skipped")
                    return EXIT_FAILED
            if game_aborted:
                aborted += game_aborted
                current.finish(
                    "aborted",
                    f"{game_aborted} episodes aborted by failures on our side; resume to play them",
                )
            else:
                current.finish("complete")
            current = None
    except KeyboardInterrupt as stop:
        if current is not None:
            why = (
                f"stopped: {stop.reason}" if isinstance(stop, _Stopped) else "interrupted (Ctrl-C)"
            )
            current.finish("interrupted", why)
        return EXIT_INTERRUPTED
    except Exception as exc:  # a harness bug must still leave results and a reason behind
        detail = traceback.format_exc(limit=5)
        if current is not None:
            current.finish("failed", f"runner error: {type(exc).__name__}: {exc}")
        print(detail, file=sys.stderr, flush=True)
        return EXIT_FAILED
    return EXIT_ABORTED if aborted else EXIT_OK


class _Stopped(KeyboardInterrupt):
    """The run must stop now, resumably (a cost cap reached): handled like Ctrl-C."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _identity_changed(kept: dict[str, Any], identity: dict[str, Any]) -> list[str]:
    """How a newly built policy differs from the one that played the kept episodes (nothing
    when no episode was kept): a result file never mixes two policies under one name."""
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


def _failure_text(settings: Settings, game: str, episode: dict[str, Any]) -> str:
    return (
        f"{settings.failure_streak} consecutive timeouts/errors on {game} seed {episode['seed']} "
        f"({episode['timeouts']} timeouts, {episode['policyErrors']} errors)"
    )


def _exit_with_parent(parent: int) -> None:
    """A model's process ends when the run that started it is gone (killed without a chance
    to stop its children), so a resumed run never races an orphan."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(EXIT_INTERRUPTED)

    threading.Thread(target=watch, name="narcade-parent-watch", daemon=True).start()


def _model_process(
    spec: str,
    models: list[str],
    settings: Settings,
    output_dir: str,
    quiet: bool,
    parent: int,
    only_game: str | None,
) -> None:
    """Entry point of a model's own process."""
    _exit_with_parent(parent)
    sys.exit(run_model(spec, models, settings, output_dir, quiet=quiet, only_game=only_game))


def _run_isolated(
    spec: str,
    models: list[str],
    settings: Settings,
    out: Path,
    quiet: bool,
    only_game: str | None = None,
) -> int:
    """Run one model (one game of it) in a fresh spawned process; return its exit code."""
    ctx = multiprocessing.get_context("spawn")
    process = ctx.Process(
        target=_model_process,
        args=(spec, models, settings, str(out), quiet, os.getpid(), only_game),
        name="narcade-model",
    )
    process.start()
    try:
        process.join()
    except KeyboardInterrupt:
        # The child got the same Ctrl-C; give it time to write its partial results.
        process.join(15.0)
        if process.is_alive():
            process.terminate()
            process.join(5.0)
        raise
    code = process.exitcode
    return EXIT_FAILED if code is None else (code if code >= 0 else EXIT_FAILED)


# --------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------


class _Manifest:
    """The run's manifest: the core's (finished / missing episodes) plus NARCADE's model
    block, versions and hardware."""

    def __init__(self, run_dir: RunDir, models: list[str], settings: Settings) -> None:
        self.run_dir = run_dir
        self.settings = settings
        self.episodes = [
            episode_key(m, g, s) for m in models for g in settings.games for s in settings.seeds
        ]
        self.extra: dict[str, Any] = {
            "format": MANIFEST_FORMAT,
            "startedAt": utc_now_iso(),
            "finishedAt": None,
            "versions": versions(),
            "hardware": settings.hardware,
            "hardwareDetails": hardware_info(),
            "models": {
                m: {
                    "status": "pending",
                    "exitCode": None,
                    "error": None,
                    "revisions": {},
                    "files": {},
                }
                for m in models
            },
        }

    def finished(self) -> list[tuple[str, str, str]]:
        """The episodes the result files hold (each one verified when it was kept or played)."""
        done: list[tuple[str, str, str]] = []
        out = self.run_dir.path
        for model in self.extra["models"]:
            for game in self.settings.games:
                try:
                    data = read_json(result_path(out, model, game))
                except (OSError, ValueError):
                    continue
                done.extend(episode_key(model, game, int(e["seed"])) for e in data["episodes"])
        return done

    def model_done(self, spec: str, code: int) -> None:
        entry = collect_model(self.run_dir.path, spec, self.settings.games)
        status = {EXIT_OK: "complete", EXIT_INTERRUPTED: "interrupted"}.get(code, "failed")
        block = self.extra["models"][spec]
        block.update(
            {
                "status": status,
                "exitCode": code,
                "error": entry["error"],
                "name": entry["name"],
                "kind": entry.get("kind"),
                "revisions": entry["revisions"],
                "files": entry["files"],
            }
        )
        if code not in (EXIT_OK, EXIT_INTERRUPTED) and entry["error"] is None:
            block["error"] = f"the model's process exited with code {code}"

    def write(self, status: str) -> None:
        if status != "running":
            self.extra["finishedAt"] = utc_now_iso()
        self.run_dir.write_manifest(status, self.episodes, self.finished(), self.extra)


SKIPPED = -1
"""A game task not played because its model already failed in another game."""


def _play_model(
    models: list[str],
    settings: Settings,
    out: str,
    quiet: bool,
    isolate: bool,
    failed: set[str],
    task: tuple[str, str],
) -> int:
    """One model's episodes of one game (a top-level function: a Ray worker unpickles it; a Ray
    worker is already a process of its own, so it plays in place). A model that failed in an
    earlier game of this process's run is not played again (`failed` is shared by threads)."""
    spec, game = task
    if spec in failed:
        return SKIPPED
    if isolate:
        return _run_isolated(spec, models, settings, Path(out), quiet, game)
    return run_model(spec, models, settings, Path(out), quiet=quiet, only_game=game)


def _model_code(codes: list[int]) -> int:
    """A model's exit code from its games' codes."""
    if EXIT_INTERRUPTED in codes:
        return EXIT_INTERRUPTED
    # An aborted episode leaves the model unfinished: it counts as failed (exit 1), as before.
    return EXIT_FAILED if any(code not in (EXIT_OK, SKIPPED) for code in codes) else EXIT_OK


def run_narcade(
    models: str | Sequence[str],
    games: str | Sequence[str],
    episodes: int,
    seed: int,
    output_dir: str | Path,
    mode: str = "realtime",
    difficulty: str = DEFAULT_DIFFICULTY,
    max_seconds: float | None = None,
    max_pieces: int | None = None,
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    trace: bool = False,
    *,
    resume: bool = False,
    hardware: str | None = None,
    timeout_ms: float = DEFAULT_TIMEOUT_MS,
    failure_streak: int = FAILURE_STREAK,
    isolate: bool = True,
    executor: Executor | None = None,
    models_file: str | None = None,
    base_url: str | None = None,
    cache_dir: str | None = None,
    transcripts: bool = False,
    max_cost_usd: float | None = None,
    quiet: bool = False,
    log: Say | None = None,
) -> int:
    """Run (or, with `resume`, finish) the suite; returns the exit code (0 complete, 1 a model
    failed or an episode was aborted, 2 a bad request, 130 interrupted). Bad requests print one
    clear message through `log` (stderr by default)."""
    from policies.specs import split_specs

    say = log or (lambda text: print(text, file=sys.stderr, flush=True))
    try:
        model_list = split_specs(models)
        if not model_list:
            raise NarcadeError("--policy needs at least one policy, e.g. random,heuristic")
        settings = make_settings(
            games,
            episodes,
            seed,
            mode,
            difficulty,
            max_seconds,
            max_pieces,
            max_decisions,
            trace,
            timeout_ms=timeout_ms,
            failure_streak=failure_streak,
            hardware=hardware or hardware_label(),
            models_file=models_file,
            base_url=base_url,
            cache_dir=cache_dir,
            transcripts=transcripts,
            max_cost_usd=max_cost_usd,
        )
        run_dir = RunDir(output_dir, BENCHMARK_ID, run_settings(model_list, settings))
        for spec in model_list:  # two models sharing files is refused here
            run_dir.game(*episode_key(spec, settings.games[0], settings.seed))
        check_models(model_list, settings)
        run_dir.prepare(resume=resume)
    except (NarcadeError, RunDirError) as error:
        say(f"arcade-eval narcade: {error}")
        return EXIT_USAGE
    manifest = _Manifest(run_dir, model_list, settings)
    manifest.write("running")
    codes: dict[str, int] = {}
    interrupted = False
    executor = executor or LocalExecutor()
    if settings.max_cost_usd is not None and (
        executor.name != "local" or getattr(executor, "concurrency", 1) > 1
    ):
        say(
            "arcade-eval narcade: --max-cost-usd needs one game at a time (a cost meter lives in "
            "one process); drop --concurrency / --executor ray, or the cap"
        )
        return EXIT_USAGE
    failed_models: set[str] = set()
    isolated = isolate and executor.name == "local"
    play = functools.partial(
        _play_model, model_list, settings, str(run_dir.path), quiet, isolated, failed_models
    )
    tasks = [(spec, game) for spec in model_list for game in settings.games]
    for spec in model_list:
        manifest.extra["models"][spec]["status"] = "running"
    manifest.write("running")
    game_codes: dict[str, list[int]] = {spec: [] for spec in model_list}

    def done(task: tuple[str, str], code: int) -> None:
        nonlocal interrupted
        spec = task[0]
        game_codes[spec].append(code)
        if code not in (EXIT_OK, SKIPPED, EXIT_ABORTED):
            failed_models.add(spec)
        if code == EXIT_INTERRUPTED:
            interrupted = True
            raise KeyboardInterrupt
        if len(game_codes[spec]) == len(settings.games):
            codes[spec] = _model_code(game_codes[spec])
            manifest.model_done(spec, codes[spec])
            manifest.write("running")

    try:
        executor.run(play, tasks, done)
    except KeyboardInterrupt:
        interrupted = True
    for spec in model_list:
        if spec not in codes and manifest.extra["models"][spec]["status"] == "running":
            manifest.model_done(spec, EXIT_INTERRUPTED)
    failed = any(code != EXIT_OK for code in codes.values())
    manifest.write("interrupted" if interrupted else ("failed" if failed else "complete"))
    where = run_dir.path
    if interrupted:
        say(f"arcade-eval narcade: interrupted; partial results kept in {where} (add --resume)")
        return EXIT_INTERRUPTED
    if failed:
        bad = ", ".join(m for m, c in codes.items() if c != EXIT_OK)
        say(f"arcade-eval narcade: model(s) failed: {bad}; partial results kept in {where}")
        return EXIT_FAILED
    return EXIT_OK
