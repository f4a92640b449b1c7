"""The settings of a NARCADE run: the request (`NarcadeRunSettings`, what the command was asked)
and, validated once from it, the `Settings` recorded in every result, log and manifest."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from evaluation.benchmarks.narcade.protocol import DIFFICULTIES, GAMES, MODES, game_mode
from evaluation.core.errors import RunError
from evaluation.core.header_limits import MAX_TIME_MS

DEFAULT_DIFFICULTY = "medium"
"""The published reference run's difficulty."""
DEFAULT_TIMEOUT_MS = 60_000.0
"""Per-call limit; a call that outlives it is a timeout (the game goes on)."""
FAILURE_STREAK = 5
"""Consecutive timeouts/errors after which a model counts as failed."""
DEFAULT_MAX_DECISIONS = 2000
MAX_DECISIONS_LIMIT = 1_000_000
"""The largest decision cap (and failure streak) a run or a log header may set: the Tetris lane
allocates its piece sequence from it, so a header cannot make a replay exhaust memory."""
MAX_PIECES_LIMIT = 1_000_000
"""The largest Tetris piece cap (one byte a piece up front)."""
MAX_SECONDS_LIMIT = MAX_TIME_MS / 1000
"""The longest Tetris wall-clock cap: one day."""
MAX_EPISODES = 10_000
"""The most episodes a game of one run plays (their seeds are listed in every result)."""
DEFAULT_MODELS = ("random", "heuristic")


@dataclass(frozen=True)
class GameSettings:
    """What shapes a run's games, declared once: the validated `Settings` and the request
    `NarcadeRunSettings` both have these fields (the request before `make_settings` checks
    them). The two differ only in `games` and `hardware`, which a request gives unvalidated."""

    episodes: int = 3
    seed: int = 100
    mode: str = "realtime"
    difficulty: str = DEFAULT_DIFFICULTY
    max_seconds: float | None = None
    max_pieces: int | None = None
    max_decisions: int = DEFAULT_MAX_DECISIONS
    trace: bool = False
    timeout_ms: float = DEFAULT_TIMEOUT_MS
    failure_streak: int = FAILURE_STREAK
    models_file: str | None = None
    base_url: str | None = None
    cache_dir: str | None = None
    transcripts: bool = False
    max_cost_usd: float | None = None
    """The LLM budget of the whole run (each model's process starts from what the run's result
    files say was spent); cache, transcripts and budget never change a game, so a resume may
    change them."""


@dataclass(frozen=True)
class Settings(GameSettings):
    """Everything that shapes a run's games (recorded in results, logs and the manifest):
    `GameSettings` validated, the games in their canonical order and the hardware label."""

    games: tuple[str, ...] = GAMES
    hardware: str = ""

    @property
    def seeds(self) -> list[int]:
        """Episode seeds: seed, seed + 1, ..."""
        return [self.seed + k for k in range(self.episodes)]

    def game_mode(self, game: str) -> str:
        """`realtime`/`lockstep` for Tetris and Snake; Minesweeper is always `turn-based`."""
        return game_mode(game, self.mode)

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


def split_list(value: str | Sequence[str]) -> list[str]:
    """`"a,b"` or `["a", "b"]` -> `["a", "b"]` (blanks dropped)."""
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
    hardware: str = "",
    models_file: str | None = None,
    base_url: str | None = None,
    cache_dir: str | None = None,
    transcripts: bool = False,
    max_cost_usd: float | None = None,
) -> Settings:
    """Validated settings; RunError names the bad value and the choices."""
    game_list = split_list(games)
    unknown = [g for g in game_list if g not in GAMES]
    if not game_list or unknown or len(set(game_list)) != len(game_list):
        raise RunError(
            f"--games takes distinct names from {', '.join(GAMES)}, got {','.join(game_list)!r}"
        )
    if mode not in MODES:
        raise RunError(f"--mode must be one of {', '.join(MODES)}, got {mode!r}")
    if difficulty not in DIFFICULTIES:
        raise RunError(f"--difficulty must be one of {', '.join(DIFFICULTIES)}, got {difficulty!r}")
    if not 1 <= episodes <= MAX_EPISODES:
        raise RunError(f"--episodes must be from 1 to {MAX_EPISODES:,}, got {episodes}")
    if seed < 0:
        raise RunError(f"--seed must be >= 0, got {seed}")
    if not 1 <= max_decisions <= MAX_DECISIONS_LIMIT:
        raise RunError(
            f"--max-decisions must be from 1 to {MAX_DECISIONS_LIMIT:,}, got {max_decisions}"
        )
    if max_pieces is not None and not 1 <= max_pieces <= MAX_PIECES_LIMIT:
        raise RunError(f"--max-pieces must be from 1 to {MAX_PIECES_LIMIT:,}, got {max_pieces}")
    if max_seconds is not None and not (
        math.isfinite(max_seconds) and 0 < max_seconds <= MAX_SECONDS_LIMIT
    ):
        raise RunError(
            f"--max-seconds must be a finite number > 0 and at most {MAX_SECONDS_LIMIT:g}, "
            f"got {max_seconds}"
        )
    if not (math.isfinite(timeout_ms) and 0 < timeout_ms <= MAX_TIME_MS):
        raise RunError(
            f"--timeout-ms must be a finite number > 0 and at most {MAX_TIME_MS:,.0f}, "
            f"got {timeout_ms}"
        )
    if max_cost_usd is not None and not (math.isfinite(max_cost_usd) and max_cost_usd > 0):
        raise RunError(f"--max-cost-usd must be a positive number of dollars, got {max_cost_usd}")
    if not 1 <= failure_streak <= MAX_DECISIONS_LIMIT:
        raise RunError(
            f"failure_streak must be from 1 to {MAX_DECISIONS_LIMIT:,}, got {failure_streak}"
        )
    return Settings(
        games=tuple(g for g in GAMES if g in game_list),
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
        hardware=hardware,
        models_file=models_file,
        base_url=base_url,
        cache_dir=cache_dir,
        transcripts=transcripts,
        max_cost_usd=max_cost_usd,
    )


@dataclass(frozen=True)
class NarcadeRunSettings(GameSettings):
    """What a NARCADE run is asked to do (`arcade-eval narcade` builds it from its flags):
    the policies, what shapes the games (`GameSettings`, with `games` as given: a comma list or
    a tuple; `resolve` validates them into `Settings`), and how the run goes (`resume`,
    `isolate`: one process per model, `quiet`: no per-episode lines)."""

    models: str | tuple[str, ...] = DEFAULT_MODELS
    games: str | tuple[str, ...] = GAMES
    hardware: str | None = None
    """The hardware label results record (None: `results.hardware_label()`)."""
    resume: bool = False
    isolate: bool = True
    quiet: bool = False
    repeats: int = 1
    """Episodes per (model, game, seed) (`--repeats`; the run directory records it)."""

    def resolve(self, default_hardware: str = "") -> tuple[list[str], Settings]:
        """The policy specs and the validated `Settings`; RunError names a bad value."""
        from policies.specs import split_specs

        models = split_specs(self.models)
        if not models:
            raise RunError("--policy needs at least one policy, e.g. random,heuristic")
        shared = {field.name: getattr(self, field.name) for field in fields(GameSettings)}
        settings = make_settings(self.games, **shared, hardware=self.hardware or default_hardware)
        return models, settings
