"""The exact-counting Brainfuck runtime (seed `003`: 8-bit cells, 65,536-cell tape, 100M
instructions) and the game-independent Brainfuck text engine (`bf:PATH`).

`BrainfuckEngine` and `CommandEngine`, the tic-tac-toe arena's engines, are importable from here
as before; they live in `policies/engines/arena.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    "BrainfuckEngine",
    "BrainfuckTextEngine",
    "CommandEngine",
    "Program",
    "compile_program",
    "make_bf_engine",
    "run",
]


if TYPE_CHECKING:
    from policies.engines.arena import BrainfuckEngine, CommandEngine


def __getattr__(name: str) -> Any:
    """The arena's engines under their old import path (lazy: the runtime needs no game)."""
    if name in ("BrainfuckEngine", "CommandEngine"):
        from policies.engines import arena

        return getattr(arena, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
