"""Tetris Bench, the official protocol: every brain plays the same seeds in IQ (and Blitz).

A run lives in one output directory:

    manifest.json                     what the run is, what is done, what is missing
    logs/<brain>/<mode>/<seed>.jsonl  one event log per game (verify with `arcade-eval verify`)
    results/<brain>/<mode>/<seed>.json the GameResult of each finished game
    leaderboard.json, leaderboard.md  the table, written at the end

Re-running the same command into the same directory resumes (`evaluation/core/rundir.py`): a
game counts as finished when its log verifies and its result agrees with it; a game cut short, or
aborted by a failure on our side, is set aside (renamed, never overwritten) and played again. A
directory holding another run, or anything else, is refused.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from arcade_gym.seeds import load_json
from arcade_gym.tetris.rules import PIECE_CAP, RULESET_ID, TICK_CAP
from evaluation.benchmarks.tetris_bench.episode import BENCHMARK_ID, play_tetris
from evaluation.benchmarks.tetris_bench.leaderboard import Leaderboard, build_leaderboard
from evaluation.benchmarks.tetris_bench.records import GameResult, ResultFormatError, camel_case
from evaluation.core.episode import GameAbortedError, RunStoppedError
from evaluation.core.rundir import RunDir, RunDirError
from evaluation.core.verify import VerifyReport, verify_log

SEEDS_FILE = "tetris/public-seeds.json"
QUICK_SEEDS = 3
MODES = ("IQ", "Blitz")
IQ_BUDGET_MS = 20_000.0


class RunError(Exception):
    """A user error that stops the run before any game starts (one clear message)."""


def public_seeds() -> tuple[str, list[str]]:
    """The public seed set id and its seeds."""
    data = load_json(SEEDS_FILE)
    return str(data["seedSet"]), [str(s) for s in data["seeds"]]


def parse_modes(text: str) -> list[str]:
    """`"iq,blitz"` -> `["IQ", "Blitz"]` (case-insensitive, order kept, no duplicates)."""
    names = {m.lower(): m for m in MODES}
    modes: list[str] = []
    for part in text.split(","):
        key = part.strip().lower()
        if key not in names:
            raise RunError(f"unknown mode {part.strip()!r}: use iq, blitz or iq,blitz")
        if names[key] not in modes:
            modes.append(names[key])
    return modes


def parse_seeds(
    text: str | None, official: bool, allow_custom: bool = False
) -> tuple[str, list[str]]:
    """The seed set of a run: all 30 public seeds when official, the first three for a quick
    run, the first N for `--seeds N`, or an explicit comma-separated list of public seeds.

    Names outside the public list (`seed-99`, `-1`) are refused unless `allow_custom`; an
    official run never takes them: its scores must be comparable with every other brain's.
    """
    seed_set, seeds = public_seeds()
    if official and allow_custom:
        raise RunError("--official plays the 30 public seeds only; drop --allow-custom-seeds")
    if text is None:
        return (seed_set, seeds) if official else (f"{seed_set}:quick", seeds[:QUICK_SEEDS])
    if official:
        raise RunError("--official plays all 30 public seeds; drop --seeds")
    text = text.strip()
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= len(seeds):
            raise RunError(f"--seeds N must be between 1 and {len(seeds)}, got {n}")
        return f"{seed_set}:first-{n}", seeds[:n]
    chosen = [s.strip() for s in text.split(",") if s.strip()]
    if not chosen or len(set(chosen)) != len(chosen):
        raise RunError("--seeds needs distinct seed names, e.g. seed-01,seed-02, or a count")
    unknown = [s for s in chosen if s not in seeds]
    if not unknown:
        return f"{seed_set}:chosen", chosen
    if not allow_custom:
        raise RunError(
            f"--seeds {', '.join(unknown[:3])}: not a public seed "
            f"({seeds[0]} to {seeds[-1]}); add --allow-custom-seeds to play other seeds "
            "(never in an official run)"
        )
    return "custom", chosen


@dataclass(frozen=True)
class RunConfig:
    """Everything that makes two runs comparable; a resumed run must match it exactly."""

    brains: tuple[str, ...]
    seeds: tuple[str, ...]
    seed_set: str
    modes: tuple[str, ...]
    official: bool
    budget_ms: float = IQ_BUDGET_MS
    piece_cap: int = PIECE_CAP
    tick_cap: int = TICK_CAP
    ruleset: str = RULESET_ID

    def to_dict(self) -> dict[str, Any]:
        """The manifest's `settings` (camelCase keys, like every output)."""
        return {
            camel_case(key): list(value) if isinstance(value, tuple) else value
            for key, value in asdict(self).items()
        }

    def games(self) -> list[tuple[str, str, str]]:
        """Every (brain, mode, seed) the run plays, in play order."""
        return [(b, m, s) for b in self.brains for m in self.modes for s in self.seeds]


@dataclass
class RunOutcome:
    """What a run produced: results, the leaderboard, and games still missing."""

    output_dir: Path
    results: list[GameResult]
    missing: list[tuple[str, str, str]] = field(default_factory=list)
    leaderboard: Leaderboard | None = None
    interrupted: bool = False
    aborted: list[str] = field(default_factory=list)


def _verified(path: Path) -> VerifyReport:
    """`verify_log`, with the log's header beside its result line for `_agrees`."""
    report = verify_log(path)
    if not report.ok or report.header is None:
        return report
    return replace(report, result={**(report.result or {}), "header": report.header})


def _agrees(saved: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    """A saved result agrees with its verified log: the same brain (the whole identity block),
    seed, mode and ruleset as the header, and the same end, score, lines, pieces and ticks as the
    result line. Results written with the older snake_case keys are read too."""
    try:
        ours = GameResult.from_dict(saved).to_dict()
    except ResultFormatError:
        return False
    header = logged.get("header") or {}
    v1 = header.get("logVersion") == 1
    settings = header if v1 else header.get("settings") or {}
    ruleset = header.get("ruleset") if v1 else (header.get("versions") or {}).get("ruleset")
    expected = {
        "brain": header.get("brain") if v1 else header.get("policy"),
        "seed": header.get("seed"),
        "mode": settings.get("mode"),
        "ruleset": ruleset,
        **{key: logged.get(key) for key in RESULT_KEYS},
    }
    return all(ours.get(key) == value for key, value in expected.items())


RESULT_KEYS = ("endReason", "capDetail", "score", "lines", "pieces", "ticks", "level")
"""Result-line fields a saved result must repeat exactly."""

ProgressFn = Callable[[str, str, str, GameResult | None], None]
"""Called before (result None) and after each game: (brain, mode, seed, result)."""

Game = tuple[str, str, str]


class FatalBrainError(RunError):
    """A brain can no longer answer at all (bad API key, unknown model): the batch stops."""


def run_tetris_bench(
    config: RunConfig,
    output_dir: Path,
    make_policy: Callable[[str], Any],
    *,
    progress: ProgressFn | None = None,
    concurrency: int = 1,
    say: Callable[[str], None] = print,
) -> RunOutcome:
    """Play every game of `config` into `output_dir` (resuming), then build the leaderboard.

    Up to `concurrency` games run at once; each game has its own log and result, so the outcome
    is the same as a serial run. A KeyboardInterrupt stops the run (running games finish first
    when concurrent): the manifest says what is missing and the outcome is marked interrupted.
    A brain whose `fatal_error` is set after a game stops the batch with FatalBrainError; a game
    aborted by a failure on our side (`policies.base.ServiceFailureError`) is set aside and
    listed in `aborted`; both are played again by a resumed run. The leaderboard is built only
    when no game is missing.
    """
    if concurrency < 1:
        raise RunError("--concurrency must be >= 1")
    run_dir = RunDir(output_dir, BENCHMARK_ID, config.to_dict())
    try:
        run_dir.prepare(resume=None)
    except RunDirError as error:
        raise RunError(str(error)) from None
    files = {game: run_dir.game(*game) for game in config.games()}
    policies = {slug: make_policy(slug) for slug in config.brains}  # pre-flight happens here
    finished: dict[Game, GameResult] = {}
    todo: list[Game] = []
    for game in config.games():
        earlier = run_dir.finished(files[game], _agrees, _verified, say)
        if earlier is None:
            todo.append(game)
        else:
            finished[game] = GameResult.from_dict(earlier)
    lock = threading.Lock()
    games = config.games()
    run_dir.write_manifest("running", games, list(finished))
    aborted: list[str] = []

    def play(game: Game) -> None:
        brain, mode, seed = game
        if progress:
            progress(brain, mode, seed, None)
        where = files[game]
        where.log.parent.mkdir(parents=True, exist_ok=True)
        try:
            result = play_tetris(
                policies[brain],
                seed,
                mode,
                where.log,
                budget_ms=config.budget_ms,
                piece_cap=config.piece_cap,
                tick_cap=config.tick_cap,
            )
        except GameAbortedError as abort:
            run_dir.abandon(where, "aborted")
            with lock:
                aborted.append(f"{brain} {mode} {seed}: {abort.reason}")
            return
        except (RunStoppedError, KeyboardInterrupt):
            run_dir.abandon(where, "interrupted")
            raise
        fatal = getattr(policies[brain], "fatal_error", None)
        if fatal is not None:
            run_dir.abandon(where, "aborted")
            raise FatalBrainError(f"brain {brain} cannot answer: {fatal}")
        result.log_path = str(where.log)
        run_dir.save_result(where, result.to_dict())
        with lock:
            finished[game] = result
            run_dir.write_manifest("running", games, list(finished))
        if progress:
            progress(brain, mode, seed, result)

    interrupted = False
    try:
        if concurrency == 1:
            for game in todo:
                play(game)
        else:
            _play_concurrently(play, todo, concurrency)
    except (KeyboardInterrupt, RunStoppedError):
        interrupted = True
    except FatalBrainError:
        run_dir.write_manifest("stopped", games, list(finished))
        raise
    done = [g for g in games if g in finished]
    outcome = RunOutcome(output_dir, [finished[g] for g in done], interrupted=interrupted)
    outcome.missing = [g for g in games if g not in finished]
    outcome.aborted = aborted
    status = "interrupted" if interrupted else ("aborted" if aborted else "complete")
    run_dir.write_manifest(status, games, done, {"aborted": aborted})
    if not interrupted and not outcome.missing and outcome.results:
        outcome.leaderboard = build_leaderboard(outcome.results, official=config.official)
    return outcome


def _play_concurrently(play: Callable[[Game], None], todo: list[Game], workers: int) -> None:
    """Run `play` over the games on a thread pool; the first error (or Ctrl-C) cancels the
    games not yet started, waits for the running ones, and propagates."""
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tetris-game")
    futures = [pool.submit(play, game) for game in todo]
    try:
        for future in as_completed(futures):
            future.result()
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    finally:
        pool.shutdown(wait=True)
