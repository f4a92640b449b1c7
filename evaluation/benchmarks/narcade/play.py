"""`arcade-eval play tetris-primitive | snake | minesweeper`: a person plays a NARCADE game in
lockstep (Minesweeper: turn-based), traced so its replay can be shown, recorded by `play_narcade`
like any model (keys: `play_primitive.py`, `play_snake.py`, `play_minesweeper.py`)."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evaluation.play.human import Human
from evaluation.play.setups import HUMAN_LIMIT_MS, PlayError, PlayOption, PlaySetup, Setup, whole


def narcade(game: str, keys: str) -> Callable[[argparse.Namespace], Setup]:
    """The setup of NARCADE game `game`, played with the keys class `keys` (`module:Class`)."""

    def setup(args: argparse.Namespace) -> Setup:
        from evaluation.benchmarks.narcade.defaults import BENCHMARK_ID
        from evaluation.benchmarks.narcade.episode import EpisodeConfig, play_narcade
        from evaluation.benchmarks.narcade.protocol import DIFFICULTIES, game_mode
        from evaluation.benchmarks.narcade.settings import (
            DEFAULT_DIFFICULTY,
            DEFAULT_MAX_DECISIONS,
            FAILURE_STREAK,
            Settings,
        )

        difficulty = args.difficulty or DEFAULT_DIFFICULTY
        if difficulty not in DIFFICULTIES:
            raise PlayError(f"--difficulty takes {', '.join(DIFFICULTIES)}, got {difficulty!r}")
        seed = Settings().seed if args.seed is None else whole(args.seed, "--seed")
        if seed < 0:
            raise PlayError(f"--seed must be >= 0, got {seed}")
        max_pieces = getattr(args, "max_pieces", None)
        if max_pieces is not None and max_pieces < 1:
            raise PlayError(f"--max-pieces must be >= 1, got {max_pieces}")
        config = EpisodeConfig(
            game=game,
            mode=game_mode(game, "lockstep"),
            difficulty=difficulty,
            max_decisions=DEFAULT_MAX_DECISIONS,
            max_pieces=max_pieces if game == "tetris" else None,
            timeout_ms=HUMAN_LIMIT_MS,
            failure_streak=FAILURE_STREAK,
            trace=True,
        )

        def play(human: Human, log: Path) -> Any:
            return play_narcade(human, "human", config, seed, log)

        module, _, name = keys.partition(":")
        settings = {"narcadeGame": game, "mode": config.mode, "difficulty": difficulty}
        return Setup(
            BENCHMARK_ID, getattr(importlib.import_module(module), name)(), seed, settings, play
        )

    return setup


SEED = PlayOption("seed", "a NARCADE episode seed (default 100)")
DIFFICULTY = PlayOption("difficulty", "easy, medium (default) or hard")
HERE = "evaluation.benchmarks.narcade"


def setups() -> tuple[PlaySetup, ...]:
    """The games a person plays under NARCADE (`Benchmark.play`)."""
    return (
        PlaySetup(
            name="tetris-primitive",
            game="tetris",
            summary="NARCADE Tetris with the six primitive controls (lockstep)",
            options=(
                SEED,
                DIFFICULTY,
                PlayOption("max_pieces", "end the game after N pieces", int),
            ),
            setup=narcade("tetris", f"{HERE}.play_primitive:PrimitiveKeys"),
        ),
        PlaySetup(
            name="snake",
            game="snake",
            summary="NARCADE Snake (lockstep)",
            options=(SEED, DIFFICULTY),
            setup=narcade("snake", f"{HERE}.play_snake:SnakeKeys"),
        ),
        PlaySetup(
            name="minesweeper",
            game="minesweeper",
            summary="NARCADE Minesweeper (turn-based)",
            options=(SEED, DIFFICULTY),
            setup=narcade("minesweeper", f"{HERE}.play_minesweeper:MinesweeperKeys"),
        ),
    )
