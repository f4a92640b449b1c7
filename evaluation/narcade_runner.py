"""The NARCADE suite runner: models x games x seeded episodes, realtime or lockstep.

`run_narcade` plays every model on every game for `episodes` seeds (`seed`, `seed + 1`, ...)
and writes result files, a manifest and optional traces (`evaluation.narcade_results`). Each model
runs in its own process (multiprocessing, spawn), so a model's memory, threads and hung calls die
with it; `isolate=False` runs in this process with identical results (tests, debugging).

Protocol (`shared/RULES.md`, NARCADE):

- realtime (Tetris and Snake by default): the game advances on the wall clock while the policy
  thinks. Snake keeps its heading for every tick that passes; Tetris applies gravity for the time
  and discards an answer whose piece has locked meanwhile. lockstep: latency never advances the
  game (one Tetris control is followed by one gravity row). Minesweeper is always turn-based.
- A bad answer (invalid, timeout, policy error) is counted and the game goes on: Snake keeps its
  heading, Tetris presses nothing (gravity still acts), Minesweeper does nothing.
- `FAILURE_STREAK` consecutive timeouts or errors mean the model is broken (a dead endpoint, a
  crashing adapter): the episode ends with `policy failure`, the model is marked failed and its
  remaining episodes are skipped (recorded as missing). The exit code is then non-zero.
- Caps: `max_decisions` policy calls per episode (default 2,000); `max_pieces` and `max_seconds`
  (wall clock) for Tetris only. A capped game is not a win.

Models: `random`, `heuristic` (the per-game baselines), `llm:<slug>` (the LLM lane,
`policies.llm.make_llm_narcade_policy`) and `py:<module>:<factory>` where `factory(game, seed)`
returns a policy (custom or test policies).
"""

from __future__ import annotations

import importlib
import multiprocessing
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from arcade_gym.core.clock import Clock, WallClock
from evaluation.narcade_results import (
    GAMES,
    INSTRUCTIONS,
    MANIFEST_NAME,
    PROTOCOL_VERSION,
    RULES_VERSION,
    TRACE_FORMAT,
    EpisodeRecord,
    OutputDirError,
    ResultFile,
    TraceWriter,
    collect_model,
    hardware_info,
    missing_results,
    new_manifest,
    package_version,
    prepare_output_dir,
    read_json,
    result_filename,
    safe_name,
    trace_filename,
    utc_now,
    write_json_atomic,
)
from evaluation.narcade_results import hardware_label as default_hardware_label

MODES = ("realtime", "lockstep")
DIFFICULTIES = ("easy", "medium", "hard")
LOCAL_MODELS = ("random", "heuristic")
DEFAULT_MODELS = LOCAL_MODELS
DEFAULT_DIFFICULTY = "medium"
"""The published reference run's difficulty."""
DEFAULT_TIMEOUT_MS = 60_000.0
"""Per-call limit; a call that outlives it is a timeout (the game goes on)."""
FAILURE_STREAK = 5
"""Consecutive timeouts/errors after which a model counts as failed."""

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
FORCED_ENDS = ("decision cap", "time cap", "policy failure", "interrupted")
"""End reasons the runner imposes from outside the game (replays accept them as recorded)."""


class NarcadeError(ValueError):
    """A bad run request (unknown model or game, bad caps, unavailable lane): one clear message."""


@dataclass(frozen=True)
class Settings:
    """Everything that shapes a run's games (recorded in results and the manifest)."""

    games: tuple[str, ...] = GAMES
    episodes: int = 3
    seed: int = 100
    mode: str = "realtime"
    difficulty: str = DEFAULT_DIFFICULTY
    max_seconds: float | None = None
    max_pieces: int | None = None
    max_decisions: int = 2000
    trace: bool = False
    timeout_ms: float = DEFAULT_TIMEOUT_MS
    failure_streak: int = FAILURE_STREAK
    hardware: str = ""
    models_file: str | None = None
    base_url: str | None = None

    @property
    def seeds(self) -> list[int]:
        """Episode seeds: seed, seed + 1, ..."""
        return [self.seed + k for k in range(self.episodes)]

    def game_mode(self, game: str) -> str:
        """`realtime`/`lockstep` for Tetris and Snake; Minesweeper is always `turn-based`."""
        return "turn-based" if game == "minesweeper" else self.mode

    def to_dict(self) -> dict[str, Any]:
        """camelCase settings for results and the manifest (no endpoint details)."""
        return {
            "games": list(self.games),
            "episodes": self.episodes,
            "seed": self.seed,
            "seeds": self.seeds,
            "mode": self.mode,
            "gameModes": {g: self.game_mode(g) for g in self.games},
            "difficulty": self.difficulty,
            "maxSeconds": self.max_seconds,
            "maxPieces": self.max_pieces,
            "maxDecisions": self.max_decisions,
            "trace": self.trace,
            "timeoutMs": self.timeout_ms,
            "failureStreak": self.failure_streak,
        }


# --------------------------------------------------------------------------------------------
# Lanes: one game under the NARCADE protocol (shared with the replay exporter)
# --------------------------------------------------------------------------------------------


class Lane:
    """One episode of one game: ask, judge, apply. `apply(action, elapsed_ms)` plays a validated
    action (None for a bad answer) after the game time `elapsed_ms` (0 unless realtime)."""

    game_name: str = ""
    game: Any  # the game object: question(), score, over, end_reason

    def __init__(self) -> None:
        self.forced_end: str | None = None

    def question(self) -> Any:
        return self.game.question()

    def validate(self, answer: Any, question: Any) -> Any:
        raise NotImplementedError

    def apply(self, action: str | None, elapsed_ms: float) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def score(self) -> int:
        return int(self.game.score)

    @property
    def game_over(self) -> bool:
        return bool(self.game.over)

    @property
    def game_end_reason(self) -> str | None:
        reason: str | None = self.game.end_reason
        return reason

    @property
    def over(self) -> bool:
        return self.forced_end is not None or self.game_over

    @property
    def end_reason(self) -> str | None:
        return self.forced_end if self.forced_end is not None else self.game_end_reason

    def force_end(self, reason: str) -> None:
        """End the episode from outside (caps, failures)."""
        if not self.over:
            self.forced_end = reason

    @property
    def won(self) -> bool:
        return False

    def extra(self) -> dict[str, Any]:
        """Game-specific fields of the episode record."""
        return {}


class SnakeLane(Lane):
    """NARCADE Snake; realtime moves the snake along its heading for the ticks that passed."""

    game_name = "snake"

    def __init__(self, seed: int, settings: Settings) -> None:
        from arcade_gym.snake.game import SnakeGame

        super().__init__()
        self.realtime = settings.mode == "realtime"
        self.game = SnakeGame(seed, settings.difficulty, max_decisions=settings.max_decisions)

    def validate(self, answer: Any, question: Any) -> Any:
        from arcade_gym.snake.contract import validate

        return validate(answer, question)

    def apply(self, action: str | None, elapsed_ms: float) -> dict[str, Any]:
        game = self.game
        moved = game.advance(elapsed_ms) if self.realtime and elapsed_ms > 0 else 0
        if game.over:
            return {"ticks": moved, "discarded": action is not None}
        game.step(action if action is not None else game.heading)
        return {"ticks": moved, "discarded": False}

    @property
    def won(self) -> bool:
        return self.game.won

    def extra(self) -> dict[str, Any]:
        return {"length": self.game.length, "moves": self.game.moves}


class MinesweeperLane(Lane):
    """NARCADE Minesweeper, always turn-based; a bad answer does nothing."""

    game_name = "minesweeper"

    def __init__(self, seed: int, settings: Settings) -> None:
        from arcade_gym.minesweeper.game import MinesweeperGame

        super().__init__()
        self.game = MinesweeperGame(seed, settings.difficulty, max_decisions=settings.max_decisions)

    def validate(self, answer: Any, question: Any) -> Any:
        from arcade_gym.minesweeper.contract import validate

        return validate(answer, question)

    def apply(self, action: str | None, elapsed_ms: float) -> dict[str, Any]:
        if action is not None:
            self.game.play(action)
        return {"discarded": False}

    @property
    def won(self) -> bool:
        return self.game.won

    def extra(self) -> dict[str, Any]:
        game = self.game
        return {"safeCells": game.safe_cells, "mines": game.n_mines, "flags": game.flags}


class TetrisLane(Lane):
    """NARCADE Tetris with primitive controls; realtime gravity by elapsed time, lockstep one row
    per control; a bad answer presses nothing."""

    game_name = "tetris"

    def __init__(self, seed: int, settings: Settings) -> None:
        from arcade_gym.tetris.primitive_game import TetrisControlGame

        super().__init__()
        self.realtime = settings.mode == "realtime"
        self.game = TetrisControlGame(
            seed,
            settings.difficulty,
            max_pieces=settings.max_pieces,
            max_decisions=settings.max_decisions,
        )

    def validate(self, answer: Any, question: Any) -> Any:
        from arcade_gym.tetris.primitive_contract import validate

        return validate(answer, question)

    def apply(self, action: str | None, elapsed_ms: float) -> dict[str, Any]:
        if not self.realtime:
            self.game.step(action)
            return {"discarded": False}
        outcome = self.game.step_realtime(action, elapsed_ms)
        return {
            "rowsFallen": outcome.rows_fallen,
            "lockedByGravity": outcome.locked_by_gravity,
            "discarded": outcome.discarded,
        }

    def extra(self) -> dict[str, Any]:
        game = self.game
        return {"lines": game.lines, "pieces": game.pieces, "level": game.level}


LANES: dict[str, Callable[[int, Settings], Lane]] = {
    "minesweeper": MinesweeperLane,
    "snake": SnakeLane,
    "tetris": TetrisLane,
}


def make_lane(game: str, seed: int, settings: Settings) -> Lane:
    """A fresh episode of `game` from `seed` under `settings`."""
    return LANES[game](seed, settings)


def question_state(question: Any) -> tuple[dict[str, Any], list[str]]:
    """A question's wire form split into (state without the actions, the actions offered)."""
    data = question.to_dict()
    actions = list(data.pop("actions"))
    return data, actions


# --------------------------------------------------------------------------------------------
# Policies
# --------------------------------------------------------------------------------------------


def _llm_factory() -> Callable[..., Any]:
    """`policies.llm.make_llm_narcade_policy`, or NarcadeError when the lane is not there yet."""
    try:
        module = importlib.import_module("policies.llm")
        factory = module.make_llm_narcade_policy
    except (ImportError, AttributeError):
        raise NarcadeError(
            "llm models: the NARCADE LLM lane is not available yet "
            "(policies.llm.make_llm_narcade_policy is missing); run --models random,heuristic "
            "until it lands"
        ) from None
    return factory


def _py_factory(spec: str) -> Callable[..., Any]:
    """The `factory(game, seed)` named by `py:<module>:<attribute>`."""
    parts = spec.split(":")
    if len(parts) != 3 or not parts[1] or not parts[2]:
        raise NarcadeError(f"model {spec!r}: write a Python factory as py:<module>:<function>")
    try:
        factory = getattr(importlib.import_module(parts[1]), parts[2])
    except (ImportError, AttributeError) as exc:
        raise NarcadeError(f"model {spec!r}: cannot import {parts[1]}.{parts[2]} ({exc})") from None
    if not callable(factory):
        raise NarcadeError(f"model {spec!r}: {parts[1]}.{parts[2]} is not callable")
    return factory


def check_model(spec: str) -> None:
    """Refuse an unknown model spec, or an LLM model while the LLM lane is missing."""
    if spec in LOCAL_MODELS:
        return
    if spec.startswith("llm:") and len(spec) > 4:
        _llm_factory()
        return
    if spec.startswith("py:"):
        _py_factory(spec)
        return
    raise NarcadeError(
        f"unknown model {spec!r}: choose from {', '.join(LOCAL_MODELS)}, llm:<model slug> or "
        "py:<module>:<factory>"
    )


def make_policy(spec: str, game: str, seed: int, settings: Settings | None = None) -> Any:
    """The policy of model `spec` for `game` (random baselines are seeded by the episode seed)."""
    if spec == "random":
        if game == "snake":
            from policies.snake import RandomSnake

            return RandomSnake(seed)
        if game == "minesweeper":
            from policies.minesweeper import RandomMinesweeper

            return RandomMinesweeper(seed)
        from policies.tetris.controls import RandomTetrisControls

        return RandomTetrisControls(seed)
    if spec == "heuristic":
        if game == "snake":
            from policies.snake import HeuristicSnake

            return HeuristicSnake()
        if game == "minesweeper":
            from policies.minesweeper import HeuristicMinesweeper

            return HeuristicMinesweeper()
        from policies.tetris.controls import HeuristicTetrisControls

        return HeuristicTetrisControls()
    if spec.startswith("llm:"):
        settings = settings or Settings()
        policy = _llm_factory()(
            spec.removeprefix("llm:"),
            game,
            models_file=settings.models_file,
            base_url=settings.base_url,
        )
        from policies.llm import PreflightError, preflight

        try:  # one real call: a bad key, model or server fails the model before any episode
            preflight(policy.spec, policy.client)
        except PreflightError as error:
            raise NarcadeError(f"{spec}: {error}") from None
        return policy
    if spec.startswith("py:"):
        return _py_factory(spec)(game, seed)
    raise NarcadeError(f"unknown model {spec!r}")


def policy_identity(spec: str, policy: Any) -> dict[str, Any]:
    """Name, kind and revision of a policy for results (the revision: `revision` if the policy
    has one, else its adapter version)."""
    adapter = str(getattr(policy, "adapter_version", "") or "")
    revision = getattr(policy, "revision", None) or (f"adapter-{adapter}" if adapter else None)
    out = {
        "slug": getattr(policy, "slug", spec),
        "name": getattr(policy, "name", spec),
        "kind": getattr(policy, "kind", None),
        "description": getattr(policy, "description", None),
        "adapterVersion": adapter or None,
        "revision": None if revision is None else str(revision),
    }
    for key in ("provider", "model"):
        value = getattr(policy, key, None)
        if value is not None:
            out[key] = str(value)
    return out


# --------------------------------------------------------------------------------------------
# One episode
# --------------------------------------------------------------------------------------------


@dataclass
class EpisodeOutcome:
    """An episode's record and whether the model failed in it."""

    record: EpisodeRecord
    failed: bool
    error: str | None = None


def play_episode(
    policy: Any,
    game: str,
    seed: int,
    settings: Settings,
    *,
    clock: Clock | None = None,
    trace: TraceWriter | None = None,
) -> EpisodeOutcome:
    """Play one episode of `game` from `seed` with `policy` under the NARCADE protocol."""
    from evaluation.core.eventlog import to_jsonable
    from evaluation.core.policy_call import call_policy
    from policies.base import DecisionContext

    clock = clock or WallClock()
    lane = make_lane(game, seed, settings)
    realtime = settings.game_mode(game) == "realtime"
    record = EpisodeRecord(seed, 0, None, 0, 0, 0, 0, 0)
    streak = 0
    last_error: str | None = None
    failed = False
    t0 = time.perf_counter()
    try:
        while not lane.over:
            if record.decisions >= settings.max_decisions:
                lane.force_end("decision cap")
                break
            if (
                game == "tetris"
                and settings.max_seconds is not None
                and time.perf_counter() - t0 >= settings.max_seconds
            ):
                lane.force_end("time cap")
                break
            question = lane.question()
            ctx = DecisionContext.with_budget(settings.timeout_ms)
            clock.start()
            outcome = call_policy(policy, question, ctx, settings.timeout_ms)
            elapsed = clock.elapsed_ms() if realtime else 0.0
            record.decisions += 1
            record.latencies_ms.append(outcome.latency_ms)
            action: str | None = None
            reason: str | None = outcome.error
            if outcome.status == "ok":
                verdict = lane.validate(outcome.answer, question)
                status = verdict.status
                if verdict.usable:
                    action = verdict.action
                else:
                    reason = verdict.reason
                    record.invalid_actions += 1
                streak = 0
            else:
                status = outcome.status
                if status == "timeout":
                    record.timeouts += 1
                else:
                    record.policy_errors += 1
                streak += 1
                last_error = outcome.error
            effect = lane.apply(action, elapsed)
            record.discarded_answers += int(bool(effect.get("discarded")))
            if game == "minesweeper" and lane.won:
                record.solve_time_ms = (time.perf_counter() - t0) * 1000.0
            if trace is not None:
                state, actions = question_state(question)
                trace.write(
                    {
                        "type": "decision",
                        "decision": record.decisions - 1,
                        "state": state,
                        "actions": actions,
                        "answer": to_jsonable(_wire(outcome.answer)),
                        "status": status,
                        "reason": reason,
                        "choice": action,
                        "latencyMs": round(outcome.latency_ms, 3),
                        "elapsedMs": elapsed,
                        "effect": effect,
                        "scoreAfter": lane.score,
                    }
                )
            if streak >= settings.failure_streak:
                lane.force_end("policy failure")
                failed = True
    except KeyboardInterrupt:
        lane.force_end("interrupted")
        _close_record(record, lane, t0)
        if trace is not None:
            trace.close()
        raise _Interrupted(record) from None
    _close_record(record, lane, t0)
    if trace is not None:
        trace.write(
            {
                "type": "result",
                "score": record.score,
                "endReason": record.end_reason,
                "decisions": record.decisions,
                "won": lane.won,
            }
        )
        trace.close()
    error = None
    if failed:
        error = (
            f"{settings.failure_streak} consecutive timeouts/errors on {game} seed {seed} "
            f"(last: {last_error})"
        )
    return EpisodeOutcome(record, failed, error)


def _wire(answer: Any) -> Any:
    """A contract model answer as its wire dict (what the validator reads), else as it is."""
    if isinstance(answer, BaseModel):
        try:
            return answer.model_dump(by_alias=True, mode="json")
        except Exception:
            return answer
    return answer


def _close_record(record: EpisodeRecord, lane: Lane, t0: float) -> None:
    record.score = lane.score
    record.end_reason = lane.end_reason
    record.wall_seconds = time.perf_counter() - t0
    record.extra = {"won": lane.won, **lane.extra()}


class _Interrupted(KeyboardInterrupt):
    """Ctrl-C inside an episode, carrying what the episode had done so far."""

    def __init__(self, record: EpisodeRecord) -> None:
        super().__init__()
        self.record = record


def _trace_header(
    spec: str, identity: dict[str, Any], game: str, seed: int, s: Settings
) -> dict[str, Any]:
    return {
        "type": "header",
        "format": TRACE_FORMAT,
        "model": spec,
        "modelName": identity.get("name"),
        "revision": identity.get("revision"),
        "game": game,
        "seed": seed,
        "mode": s.game_mode(game),
        "difficulty": s.difficulty,
        "maxDecisions": s.max_decisions,
        "maxPieces": s.max_pieces,
        "maxSeconds": s.max_seconds,
        "rulesVersion": RULES_VERSION,
        "protocol": PROTOCOL_VERSION,
        "packageVersion": package_version(),
        "instruction": INSTRUCTIONS[game],
        "startedAt": utc_now(),
    }


# --------------------------------------------------------------------------------------------
# One model (its own process)
# --------------------------------------------------------------------------------------------


def run_model(spec: str, settings: Settings, output_dir: str | Path, *, quiet: bool = False) -> int:
    """Play every game and episode of one model, writing its result files (and traces) as it
    goes. Returns 0 when complete, 1 when the model failed, 130 when interrupted."""
    out = Path(output_dir)
    say: Callable[[str], None] = (lambda _: None) if quiet else (lambda s: print(s, flush=True))
    current: ResultFile | None = None
    try:
        for game in settings.games:
            current = ResultFile(
                out / result_filename(spec, game),
                model=spec,
                game=game,
                game_mode=settings.game_mode(game),
                seeds=settings.seeds,
                settings=settings.to_dict(),
                hardware=settings.hardware,
            )
            current.write()
            llm_policy = None
            for seed in settings.seeds:
                try:
                    if spec.startswith("llm:"):
                        llm_policy = llm_policy or make_policy(spec, game, seed, settings)
                        policy = llm_policy
                    else:
                        policy = make_policy(spec, game, seed, settings)
                except Exception as exc:
                    current.finish("failed", f"could not build the policy: {exc}")
                    say(f"{spec} {game}: FAILED, could not build the policy: {exc}")
                    return EXIT_FAILED
                identity = policy_identity(spec, policy)
                current.set_model(identity)
                trace = None
                if settings.trace:
                    trace = TraceWriter(out / trace_filename(spec, game, seed))
                    trace.write(_trace_header(spec, identity, game, seed, settings))
                try:
                    outcome = play_episode(policy, game, seed, settings, trace=trace)
                except _Interrupted as stop:
                    current.add(stop.record)
                    raise KeyboardInterrupt from None
                current.add(outcome.record)
                rec = outcome.record
                say(
                    f"{spec} {game} seed {seed}: score {rec.score} ({rec.end_reason}), "
                    f"{rec.decisions} decisions, {rec.invalid_actions} invalid, "
                    f"{rec.timeouts} timeouts, {rec.policy_errors} errors"
                )
                fatal = getattr(policy, "fatal_error", None)
                if fatal is not None:  # a refused key or unknown model: no point going on
                    current.finish("failed", f"the model cannot answer: {fatal}")
                    say(f"{spec}: FAILED (the model cannot answer: {fatal})")
                    return EXIT_FAILED
                if outcome.failed:
                    current.finish("failed", outcome.error)
                    say(f"{spec}: FAILED ({outcome.error}); its remaining episodes are skipped")
                    return EXIT_FAILED
            current.finish("complete")
            current = None
    except KeyboardInterrupt:
        if current is not None:
            current.finish("interrupted", "interrupted (Ctrl-C)")
        return EXIT_INTERRUPTED
    except Exception as exc:  # a harness bug must still leave results and a reason behind
        detail = traceback.format_exc(limit=5)
        if current is not None:
            current.finish("failed", f"runner error: {type(exc).__name__}: {exc}")
        print(detail, file=sys.stderr, flush=True)
        return EXIT_FAILED
    return EXIT_OK


def _model_process(spec: str, settings: Settings, output_dir: str, quiet: bool) -> None:
    """Entry point of a model's own process."""
    sys.exit(run_model(spec, settings, output_dir, quiet=quiet))


def _run_isolated(spec: str, settings: Settings, out: Path, quiet: bool) -> int:
    """Run one model in a fresh spawned process; return its exit code."""
    ctx = multiprocessing.get_context("spawn")
    process = ctx.Process(
        target=_model_process,
        args=(spec, settings, str(out), quiet),
        name=f"narcade-{safe_name(spec)}",
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


def _split(value: str | Sequence[str]) -> list[str]:
    items = value.split(",") if isinstance(value, str) else list(value)
    return [item.strip() for item in items if item.strip()]


def make_settings(
    games: str | Sequence[str],
    episodes: int,
    seed: int,
    mode: str,
    difficulty: str,
    max_seconds: float | None,
    max_pieces: int | None,
    max_decisions: int,
    trace: bool,
    *,
    timeout_ms: float = DEFAULT_TIMEOUT_MS,
    failure_streak: int = FAILURE_STREAK,
    hardware: str | None = None,
    models_file: str | None = None,
    base_url: str | None = None,
) -> Settings:
    """Validated settings; NarcadeError names the bad value and the choices."""
    game_list = _split(games)
    unknown = [g for g in game_list if g not in GAMES]
    if not game_list or unknown or len(set(game_list)) != len(game_list):
        raise NarcadeError(
            f"--games takes distinct names from {', '.join(GAMES)}, got {','.join(game_list)!r}"
        )
    if mode not in MODES:
        raise NarcadeError(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")
    if difficulty not in DIFFICULTIES:
        raise NarcadeError(
            f"--difficulty must be one of {', '.join(DIFFICULTIES)}, got {difficulty!r}"
        )
    if episodes < 1:
        raise NarcadeError(f"--episodes must be >= 1, got {episodes}")
    if seed < 0:
        raise NarcadeError(f"--seed must be >= 0, got {seed}")
    if max_decisions < 1:
        raise NarcadeError(f"--max-decisions must be >= 1, got {max_decisions}")
    if max_pieces is not None and max_pieces < 1:
        raise NarcadeError(f"--max-pieces must be >= 1, got {max_pieces}")
    if max_seconds is not None and not max_seconds > 0:
        raise NarcadeError(f"--max-seconds must be > 0, got {max_seconds}")
    if not timeout_ms > 0:
        raise NarcadeError(f"--timeout-ms must be > 0, got {timeout_ms}")
    if failure_streak < 1:
        raise NarcadeError(f"failure_streak must be >= 1, got {failure_streak}")
    ordered = tuple(g for g in GAMES if g in game_list)
    return Settings(
        games=ordered,
        episodes=episodes,
        seed=seed,
        mode=mode,
        difficulty=difficulty,
        max_seconds=max_seconds,
        max_pieces=max_pieces,
        max_decisions=max_decisions,
        trace=trace,
        timeout_ms=float(timeout_ms),
        failure_streak=failure_streak,
        hardware=hardware or default_hardware_label(),
        models_file=models_file,
        base_url=base_url,
    )


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
    max_decisions: int = 2000,
    trace: bool = False,
    *,
    hardware_label: str | None = None,
    timeout_ms: float = DEFAULT_TIMEOUT_MS,
    failure_streak: int = FAILURE_STREAK,
    isolate: bool = True,
    models_file: str | None = None,
    base_url: str | None = None,
    quiet: bool = False,
    log: Callable[[str], None] | None = None,
) -> int:
    """Run the suite; returns the exit code (0 complete, 1 a model failed, 2 a bad request,
    130 interrupted). Bad requests print one clear message through `log` (stderr by default)."""
    say = log or (lambda text: print(text, file=sys.stderr, flush=True))
    try:
        model_list = _split(models)
        if not model_list:
            raise NarcadeError("--models needs at least one model, e.g. random,heuristic")
        if len(set(model_list)) != len(model_list):
            raise NarcadeError(f"--models lists a model twice: {','.join(model_list)}")
        names = [safe_name(m) for m in model_list]
        if len(set(names)) != len(names):
            raise NarcadeError(f"--models: two models share the file name ({', '.join(names)})")
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
            hardware=hardware_label,
            models_file=models_file,
            base_url=base_url,
        )
        for spec in model_list:
            check_model(spec)
        out = prepare_output_dir(output_dir)
    except (NarcadeError, OutputDirError) as error:
        say(f"arcade-eval narcade: {error}")
        return EXIT_USAGE
    manifest = new_manifest(
        models=model_list,
        settings={**settings.to_dict(), "models": model_list, "isolated": isolate},
        hardware=settings.hardware,
        hardware_details=hardware_info(),
    )
    manifest_path = out / MANIFEST_NAME
    write_json_atomic(manifest_path, manifest)
    codes: dict[str, int] = {}
    interrupted = False
    try:
        for spec in model_list:
            manifest["models"][spec]["status"] = "running"
            write_json_atomic(manifest_path, manifest)
            if isolate:
                code = _run_isolated(spec, settings, out, quiet)
            else:
                code = run_model(spec, settings, out, quiet=quiet)
            codes[spec] = code
            _update_manifest(manifest, out, spec, settings, code)
            write_json_atomic(manifest_path, manifest)
            if code == EXIT_INTERRUPTED:
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    for spec in model_list:
        if spec not in codes and manifest["models"][spec]["status"] == "running":
            _update_manifest(manifest, out, spec, settings, EXIT_INTERRUPTED)
    failed = any(code != EXIT_OK for code in codes.values())
    manifest["status"] = "interrupted" if interrupted else ("failed" if failed else "complete")
    manifest["finishedAt"] = utc_now()
    manifest["missing"] = missing_results(out, model_list, settings.to_dict())
    write_json_atomic(manifest_path, manifest)
    if interrupted:
        say(f"arcade-eval narcade: interrupted; partial results kept in {out}")
        return EXIT_INTERRUPTED
    if failed:
        bad = ", ".join(m for m, c in codes.items() if c != EXIT_OK)
        say(f"arcade-eval narcade: model(s) failed: {bad}; partial results kept in {out}")
        return EXIT_FAILED
    return EXIT_OK


def _update_manifest(
    manifest: dict[str, Any], out: Path, spec: str, settings: Settings, code: int
) -> None:
    entry = collect_model(out, spec, settings.games)
    status = {EXIT_OK: "complete", EXIT_INTERRUPTED: "interrupted"}.get(code, "failed")
    manifest["models"][spec].update(
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
        manifest["models"][spec]["error"] = f"the model's process exited with code {code}"


def mean_score_table(output_dir: str | Path) -> str:
    """A text table of mean scores per model and game from a run's result files."""
    out = Path(output_dir)
    manifest = read_json(out / MANIFEST_NAME)
    games = list(manifest["settings"]["games"])
    width = max([24, *(len(spec) + 2 for spec in manifest["models"])])
    header = f"{'model':<{width}}" + "".join(f"{g:>14}" for g in games)
    lines = [header, "-" * len(header)]
    for spec, entry in manifest["models"].items():
        cells = []
        for game in games:
            name = entry.get("files", {}).get(game)
            mean = None
            if name:
                summary = read_json(out / name).get("summary", {})
                mean = summary.get("meanScore")
            cells.append(f"{'-' if mean is None else f'{mean:.2f}':>14}")
        lines.append(f"{spec:<{width}}" + "".join(cells))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m evaluation.narcade_runner ...`: the `arcade-eval narcade` command on its own."""
    import argparse

    from evaluation.narcade_cli import add_narcade_arguments, cmd_narcade

    parser = argparse.ArgumentParser(
        prog="python -m evaluation.narcade_runner", description="Run the NARCADE suite."
    )
    add_narcade_arguments(parser)
    return cmd_narcade(parser.parse_args(argv))


if __name__ == "__main__":
    from evaluation.narcade_runner import main as _main

    sys.exit(_main())
