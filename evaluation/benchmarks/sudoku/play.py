"""`arcade-eval play sudoku`: a person answers a grid of set v1 whole, recorded by
`play_sudoku_grid` like any policy's answer (keys: `play_keys.py`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from evaluation.play.human import Human
from evaluation.play.setups import HUMAN_LIMIT_MS, PlayError, PlayOption, PlaySetup, Setup, whole


def sudoku(args: argparse.Namespace) -> Setup:
    """A grid of set v1: `--seed` names it (grid id or seed), `--difficulty N` takes the first
    grid of tier N; the first grid by default."""
    from arcade_gym.sudoku.sets import set_grids
    from evaluation.benchmarks.sudoku.defaults import BENCHMARK_ID
    from evaluation.benchmarks.sudoku.episode import play_sudoku_grid
    from evaluation.benchmarks.sudoku.play_keys import SudokuKeys

    set_version = "v1"
    grids = set_grids(set_version)
    if args.difficulty is not None:
        tier = whole(args.difficulty, "--difficulty (a Sudoku tier, 1-7)")
        grids = [g for g in grids if g["tier"] == tier]
        if not grids:
            raise PlayError(f"--difficulty takes a tier of set {set_version}, 1 to 7; got {tier}")
    if args.seed is not None:
        grids = [g for g in grids if args.seed in (g["id"], g["seed"])]
        if not grids:
            raise PlayError(
                f"--seed {args.seed}: not a grid of set {set_version} (give an id such as "
                "v1-t1-1, or its seed)"
            )
    record = grids[0]

    def play(human: Human, log: Path) -> Any:
        return play_sudoku_grid(
            human, record, log, set_version=set_version, timeout_ms=HUMAN_LIMIT_MS
        )

    settings = {"set": set_version, "grid": record["id"]}
    return Setup(BENCHMARK_ID, SudokuKeys(), str(record["seed"]), settings, play)


def setups() -> tuple[PlaySetup, ...]:
    """The game a person plays under the Sudoku benchmark (`Benchmark.play`)."""
    return (
        PlaySetup(
            name="sudoku",
            game="sudoku",
            summary="Sudoku: a grid of set v1, handed in whole",
            options=(
                PlayOption("seed", "a Sudoku grid id or seed (default the first)"),
                PlayOption("difficulty", "a tier 1-7"),
            ),
            setup=sudoku,
        ),
    )
