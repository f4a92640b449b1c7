"""Brainfuck and external-command engines for the tic-tac-toe arena, and the exact-counting
Brainfuck runtime they run on (seed `003`: 8-bit cells, 65,536-cell tape, 100M instructions)."""

from __future__ import annotations

from policies.engines.brainfuck.engine import BrainfuckEngine, CommandEngine
from policies.engines.brainfuck.interpreter import (
    MAX_INSTRUCTIONS,
    MAX_OUTPUT,
    TAPE_SIZE,
    BFResult,
    Program,
    compile_program,
    run,
)

__all__ = [
    "MAX_INSTRUCTIONS",
    "MAX_OUTPUT",
    "TAPE_SIZE",
    "BFResult",
    "BrainfuckEngine",
    "CommandEngine",
    "Program",
    "compile_program",
    "run",
]
