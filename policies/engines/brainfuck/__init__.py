"""The exact-counting Brainfuck runtime (seed `003`: 8-bit cells, 65,536-cell tape, 100M
instructions) and the game-independent Brainfuck text engine (`bf:PATH`).

The tic-tac-toe arena's bindings of this engine and of `cmd:` engines live in
`policies/engines/arena.py`.
"""

from __future__ import annotations

from policies.engines.brainfuck.engine import BrainfuckTextEngine, make_bf_engine
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
    "BrainfuckTextEngine",
    "Program",
    "compile_program",
    "make_bf_engine",
    "run",
]
