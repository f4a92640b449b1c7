"""Tetris Bench, the official protocol: every brain plays the same seeds in IQ (and Blitz).

A run lives in one output directory:

    manifest.json                     what the run is, what is done, what is missing
    logs/<brain>/<mode>/<seed>.jsonl  one event log per game (verify with `arcade-eval verify`)
    results/<brain>/<mode>/<seed>.json the GameResult of each finished game
    leaderboard.json, leaderboard.md  the table, written at the end

Re-running the same command into the same directory resumes: finished games are kept, a game cut
short is set aside (its log renamed, never overwritten) and played again. A directory holding
another run, or anything else, is refused.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from arcade_gym import __version__
from arcade_gym.seeds import load_json
from arcade_gym.tetris.rules import PIECE_CAP, RULESET_ID, TICK_CAP
from evaluation.harness import play_tetris
from evaluation.leaderboard import Leaderboard, build_leaderboard
from evaluation.logs import utc_now_iso
from evaluation.records import GameResult

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


def parse_seeds(text: str | None, official: bool) -> tuple[str, list[str]]:
    """The seed set of a run: all 30 public seeds when official, the first three for a quick
    run, the first N for `--seeds N`, or an explicit comma-separated list."""
    seed_set, seeds = public_seeds()
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
        out = asdict(self)
        for key in ("brains", "seeds", "modes"):
            out[key] = list(out[key])
        return out

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


def _safe(slug: str) -> str:
    """A brain slug as a folder name (`llm:vendor/model` -> `llm_vendor_model`)."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in slug)


class RunDirectory:
    """The output directory of one run: layout, manifest, resume and refusal rules."""

    MANIFEST = "manifest.json"

    def __init__(self, path: Path, config: RunConfig) -> None:
        self.path = path
        self.config = config

    def check(self) -> None:
        """Refuse a directory that holds anything but this same run (nothing is written)."""
        manifest = self.path / self.MANIFEST
        if self.path.exists() and not self.path.is_dir():
            raise RunError(f"{self.path} is a file; --output-dir needs a directory")
        if self.path.exists() and any(self.path.iterdir()):
            if not manifest.exists():
                raise RunError(
                    f"{self.path} is not empty and holds no Tetris Bench run; "
                    "choose a new or empty --output-dir"
                )
            earlier = json.loads(manifest.read_text())
            if earlier.get("config") != self.config.to_dict():
                raise RunError(
                    f"{self.path} holds another run (different brains, seeds, modes or caps); "
                    "choose a new --output-dir, or repeat that run's exact command to resume it"
                )

    def log_path(self, brain: str, mode: str, seed: str) -> Path:
        return self.path / "logs" / _safe(brain) / mode / f"{seed}.jsonl"

    def result_path(self, brain: str, mode: str, seed: str) -> Path:
        return self.path / "results" / _safe(brain) / mode / f"{seed}.json"

    def finished(self, brain: str, mode: str, seed: str) -> GameResult | None:
        path = self.result_path(brain, mode, seed)
        if not path.exists():
            return None
        return GameResult.from_dict(json.loads(path.read_text()))

    def set_aside_partial_log(self, brain: str, mode: str, seed: str) -> Path | None:
        """Rename the log of a game cut short so it is kept and the game can be replayed."""
        log = self.log_path(brain, mode, seed)
        if not log.exists():
            return None
        n = 1
        while (aside := log.with_name(f"{log.name}.interrupted-{n}")).exists():
            n += 1
        log.rename(aside)
        return aside

    def save_result(self, brain: str, mode: str, seed: str, result: GameResult) -> None:
        path = self.result_path(brain, mode, seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(path, json.dumps(result.to_dict(), indent=1) + "\n")

    def write_manifest(self, status: str, done: Sequence[tuple[str, str, str]]) -> None:
        done_set = set(done)
        missing = [g for g in self.config.games() if g not in done_set]
        manifest = {
            "benchmark": "tetris-bench",
            "packageVersion": __version__,
            "config": self.config.to_dict(),
            "status": status,
            "updatedAt": utc_now_iso(),
            "games": len(self.config.games()),
            "finished": len(done_set),
            "missing": [{"brain": b, "mode": m, "seed": s} for b, m, s in missing],
        }
        _write_atomically(self.path / self.MANIFEST, json.dumps(manifest, indent=1) + "\n")


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


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
) -> RunOutcome:
    """Play every game of `config` into `output_dir` (resuming), then build the leaderboard.

    Up to `concurrency` games run at once; each game has its own log and result, so the outcome
    is the same as a serial run. A KeyboardInterrupt stops the run (running games finish first
    when concurrent): the manifest says what is missing and the outcome is marked interrupted.
    A brain whose `fatal_error` is set after a game stops the batch with FatalBrainError; that
    game is set aside so a resumed run plays it again.
    """
    if concurrency < 1:
        raise RunError("--concurrency must be >= 1")
    run_dir = RunDirectory(output_dir, config)
    run_dir.check()
    policies = {slug: make_policy(slug) for slug in config.brains}  # pre-flight happens here
    run_dir.path.mkdir(parents=True, exist_ok=True)
    finished: dict[Game, GameResult] = {}
    todo: list[Game] = []
    for game in config.games():
        earlier = run_dir.finished(*game)
        if earlier is None:
            todo.append(game)
        else:
            finished[game] = earlier
    lock = threading.Lock()
    run_dir.write_manifest("running", list(finished))

    def play(game: Game) -> None:
        brain, mode, seed = game
        run_dir.set_aside_partial_log(brain, mode, seed)
        if progress:
            progress(brain, mode, seed, None)
        log = run_dir.log_path(brain, mode, seed)
        log.parent.mkdir(parents=True, exist_ok=True)
        result = play_tetris(
            policies[brain],
            seed,
            mode,
            log,
            budget_ms=config.budget_ms,
            piece_cap=config.piece_cap,
            tick_cap=config.tick_cap,
        )
        fatal = getattr(policies[brain], "fatal_error", None)
        if fatal is not None:
            run_dir.set_aside_partial_log(brain, mode, seed)
            raise FatalBrainError(f"brain {brain} cannot answer: {fatal}")
        run_dir.save_result(brain, mode, seed, result)
        with lock:
            finished[game] = result
            run_dir.write_manifest("running", list(finished))
        if progress:
            progress(brain, mode, seed, result)

    interrupted = False
    try:
        if concurrency == 1:
            for game in todo:
                play(game)
        else:
            _play_concurrently(play, todo, concurrency)
    except KeyboardInterrupt:
        interrupted = True
    except FatalBrainError:
        run_dir.write_manifest("stopped", list(finished))
        raise
    done = [g for g in config.games() if g in finished]
    outcome = RunOutcome(output_dir, [finished[g] for g in done], interrupted=interrupted)
    outcome.missing = [g for g in config.games() if g not in finished]
    run_dir.write_manifest("interrupted" if interrupted else "complete", done)
    if not interrupted and outcome.results:
        outcome.leaderboard = build_leaderboard(outcome.results)
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
