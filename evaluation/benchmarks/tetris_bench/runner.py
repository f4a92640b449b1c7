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

A run that is not official may play each game several times (`RunConfig.repeats`, `--repeats`;
`logs/<brain>/<mode>/<seed>/r1.jsonl` ..., `evaluation/core/repeats.py`): the leaderboard ranks
by each seed's mean over repeats and shows the interval over seeds and repeats. An official run
plays each public seed once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from arcade_gym.seeds import load_json
from arcade_gym.tetris.rules import PIECE_CAP, RULESET_ID, TICK_CAP
from evaluation.benchmarks.tetris_bench.defaults import BENCHMARK_ID
from evaluation.benchmarks.tetris_bench.episode import play_tetris
from evaluation.benchmarks.tetris_bench.leaderboard import Leaderboard, build_leaderboard
from evaluation.benchmarks.tetris_bench.records import GameResult, ResultFormatError, camel_case
from evaluation.core import repeats
from evaluation.core.errors import RunError
from evaluation.core.executor import Executor, LocalExecutor
from evaluation.core.grid import Key, PolicyPool, play_grid
from evaluation.core.policy_identity import run_settings
from evaluation.core.rundir import RunDir, RunDirError
from evaluation.core.verify import VerifyReport, verify_log

SEEDS_FILE = "tetris/public-seeds.json"
QUICK_SEEDS = 3
MODES = ("IQ", "Blitz")
IQ_BUDGET_MS = 20_000.0


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
    repeats: int = 1
    """Games per (brain, mode, seed); more than one never in an official run."""

    def __post_init__(self) -> None:
        if self.official and self.repeats != 1:
            raise RunError(
                "--official plays each public seed once (the official protocol); drop --repeats, "
                "or drop --official for a repeated run that is not official"
            )

    def to_dict(self) -> dict[str, Any]:
        """The manifest's `settings` (camelCase keys, like every output; the run directory
        records `repeats` itself, and only when there are several)."""
        return {
            camel_case(key): list(value) if isinstance(value, tuple) else value
            for key, value in asdict(self).items()
            if key != "repeats"
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
    stop_reason: str | None = None
    """Why the run stopped on our side (a dead endpoint, the cost cap); None after Ctrl-C."""


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

Game = Key


def _play(
    budget_ms: float, piece_cap: int, tick_cap: int, policy: Any, key: Key, log: Path
) -> dict[str, Any]:
    """One game (top-level: Ray workers unpickle it); its saved result."""
    _, mode, seed = key
    result = play_tetris(
        policy, seed, mode, log, budget_ms=budget_ms, piece_cap=piece_cap, tick_cap=tick_cap
    )
    result.log_path = str(log)
    return result.to_dict()


def run_tetris_bench(
    config: RunConfig,
    output_dir: Path,
    make_policy: PolicyPool | Callable[[str], Any],
    *,
    progress: ProgressFn | None = None,
    concurrency: int = 1,
    executor: Executor | None = None,
    say: Callable[[str], None] = print,
) -> RunOutcome:
    """Play every game of `config` into `output_dir` (resuming), then build the leaderboard.

    Policies come from `make_policy` (a `PolicyPool`, or a function of the spec). Games run on
    `executor` (default: `concurrency` threads; `evaluation/core/executor.py` for Ray); each has
    its own log and result, so the outcome is the same as a serial run. A KeyboardInterrupt
    stops the run (running games finish first): the manifest says what is missing and the
    outcome is marked interrupted. A brain whose `fatal_error` is set after a game stops the
    batch with `evaluation.core.errors.PolicyUnusableError` (a `RunError`); a game aborted by a
    failure on our side (`policies.base.ServiceFailureError`) is set aside and listed in
    `aborted`; both are played again by a resumed run. The leaderboard is built only when no
    game is missing.
    """
    if concurrency < 1:
        raise RunError("--concurrency must be >= 1")
    run_dir = RunDir(output_dir, BENCHMARK_ID, config.to_dict(), repeats=config.repeats)
    try:
        run_dir.prepare(resume=None)
    except RunDirError as error:
        raise RunError(str(error)) from None
    pool = make_policy if isinstance(make_policy, PolicyPool) else PolicyPool(make_policy)
    made = pool.build_all(config.brains)  # pre-flight happens here
    run_dir.check_policies({spec: run_settings(policy) for spec, policy in made.items()})

    def report(key: Key, saved: Mapping[str, Any]) -> None:
        if progress:
            brain, mode, seed = key[:3]
            progress(brain, mode, seed, GameResult.from_dict(dict(saved)))

    grid = play_grid(
        run_dir,
        config.games(),
        functools.partial(_play, config.budget_ms, config.piece_cap, config.tick_cap),
        pool,
        agrees=_agrees,
        executor=executor or LocalExecutor(concurrency),
        on_result=report,
        verify=_verified,
        say=say,
    )
    games = repeats.expand(config.games(), config.repeats)
    results = [GameResult.from_dict(grid.finished[g]) for g in games if g in grid.finished]
    outcome = RunOutcome(
        output_dir,
        results,
        missing=grid.missing,  # type: ignore[arg-type]
        interrupted=grid.interrupted,
        aborted=grid.aborted,
        stop_reason=grid.stop_reason,
    )
    if not grid.interrupted and not outcome.missing and outcome.results:
        outcome.leaderboard = build_leaderboard(
            outcome.results, official=config.official, repeats=config.repeats
        )
    return outcome
