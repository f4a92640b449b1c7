"""`arcade-eval play tetris`: a person plays Tetris Bench (`tetris-bench@3`) in IQ or Blitz, on a
public seed or any name, recorded by `play_tetris` like any brain (keys: `play_keys.py`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from evaluation.play.human import Human
from evaluation.play.setups import HUMAN_LIMIT_MS, PlayError, PlayOption, PlaySetup, Setup


def tetris(args: argparse.Namespace) -> Setup:
    """Tetris Bench in IQ (default) or Blitz, on a public seed (default the first) or any name."""
    from arcade_gym.tetris.rules import PIECE_CAP
    from evaluation.benchmarks.tetris_bench.defaults import BENCHMARK_ID
    from evaluation.benchmarks.tetris_bench.episode import play_tetris
    from evaluation.benchmarks.tetris_bench.play_keys import TetrisKeys
    from evaluation.benchmarks.tetris_bench.runner import parse_modes, public_seeds
    from evaluation.core.errors import RunError

    seed = args.seed if args.seed is not None else public_seeds()[1][0]
    try:
        modes = parse_modes(args.mode or "iq")
    except RunError as error:
        raise PlayError(str(error)) from None
    if len(modes) != 1:
        raise PlayError("--mode takes one mode: iq or blitz")
    mode = modes[0]
    pieces = PIECE_CAP if args.max_pieces is None else args.max_pieces
    if not 1 <= pieces <= PIECE_CAP:
        raise PlayError(f"--max-pieces takes 1 to {PIECE_CAP} (the protocol's cap), got {pieces}")

    def play(human: Human, log: Path) -> Any:
        return play_tetris(human, seed, mode, log, budget_ms=HUMAN_LIMIT_MS, piece_cap=pieces)

    settings = {"mode": mode, "pieceCap": pieces}
    return Setup(BENCHMARK_ID, TetrisKeys(), seed, settings, play)


def setups() -> tuple[PlaySetup, ...]:
    """The game a person plays under Tetris Bench (`Benchmark.play`)."""
    return (
        PlaySetup(
            name="tetris",
            game="tetris",
            summary="Tetris Bench: place candidate pieces (IQ or Blitz)",
            options=(
                PlayOption("seed", "a Tetris Bench seed name (default seed-01)"),
                PlayOption("mode", "iq (default) or blitz (the piece falls meanwhile)"),
                PlayOption("max_pieces", "end the game after N pieces", int),
            ),
            setup=tetris,
        ),
    )
