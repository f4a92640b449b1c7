"""The arena's Brainfuck runtime: an optimising compiler to an op list and a numba kernel that
counts exactly what a naive interpreter would execute.

Machine (seed `003`): 8-bit wrapping cells, a 65,536-cell tape (moving off either end is an error),
EOF reads 0, 100,000,000 executed instructions per move, at most 64 KB of output.

Counting rule: every command counts 1, `[` once per entry, `]` once per iteration (a taken `]`
jumps to the command *after* its `[`). A fault is reported at the instruction that faults, which
is counted (the n-th executed instruction moved off the tape / wrote the byte past the limit); the
instruction limit stops *before* the first instruction past it, so a program of exactly
`max_instructions` instructions succeeds and `instructions` never exceeds the limit.

The op set is described in `opcodes.py`, the compiler is `compiler.py` and the numba kernel
`kernel.py`; this module runs a program and words its errors (their names are importable here).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

import numpy as np

from policies.engines.brainfuck.compiler import Program, compile_program, syntax_error_message
from policies.engines.brainfuck.kernel import ITERATIONS, execute
from policies.engines.brainfuck.opcodes import (
    OP_BLOCK,
    OP_CLEAR,
    OP_MUL,
    OP_SCAN,
    ST_LIMIT,
    ST_OK,
    ST_OUTPUT,
    ST_TAPE_LEFT,
    ST_TAPE_RIGHT,
)

__all__ = [
    "MAX_INSTRUCTIONS",
    "MAX_OUTPUT",
    "OP_BLOCK",
    "OP_CLEAR",
    "OP_MUL",
    "OP_SCAN",
    "ST_LIMIT",
    "ST_OK",
    "ST_OUTPUT",
    "ST_TAPE_LEFT",
    "ST_TAPE_RIGHT",
    "TAPE_SIZE",
    "BFResult",
    "ErrorKind",
    "Program",
    "compile_program",
    "run",
    "runtime_error",
    "syntax_error_message",
    "warmup",
]

TAPE_SIZE = 65_536
MAX_INSTRUCTIONS = 100_000_000
MAX_OUTPUT = 65_536

ErrorKind = Literal["syntax", "tape", "limit", "output"]


@dataclass(frozen=True)
class BFResult:
    """One run: raw output bytes, executed instructions (naive count), and the exact error."""

    output: bytes
    instructions: int
    error: str | None = None
    error_kind: ErrorKind | None = None

    @property
    def ok(self) -> bool:
        """No error."""
        return self.error is None


def runtime_error(
    status: int, instructions: int, tape_size: int, max_output: int
) -> tuple[str, ErrorKind]:
    """The message and kind of a kernel status (not ST_OK)."""
    if status == ST_TAPE_LEFT:
        return f"tape overflow: moved left of cell 0 at instruction {instructions:,}", "tape"
    if status == ST_TAPE_RIGHT:
        return (
            f"tape overflow: moved right of cell {tape_size - 1:,} at instruction {instructions:,}",
            "tape",
        )
    if status == ST_LIMIT:
        return f"instruction limit exceeded: {instructions:,} instructions executed", "limit"
    if status == ST_OUTPUT:
        return (
            f"output limit exceeded: more than {max_output:,} bytes at instruction "
            f"{instructions:,}",
            "output",
        )
    raise ValueError(f"not an error status: {status}")


def run(
    source_or_program: str | bytes | Program,
    input: bytes = b"",
    *,
    max_instructions: int = MAX_INSTRUCTIONS,
    max_output: int = MAX_OUTPUT,
    tape_size: int = TAPE_SIZE,
) -> BFResult:
    """Run a program (source or compiled) on `input`; faults come back in the result, never
    raised. `tape_size` exists for tests; the arena always uses 65,536 cells."""
    program = (
        source_or_program
        if isinstance(source_or_program, Program)
        else compile_program(source_or_program)
    )
    if program.error is not None:
        return BFResult(b"", 0, program.error, "syntax")
    if max_instructions < 0 or max_output < 0 or tape_size < 1:
        raise ValueError("limits must be non-negative and the tape at least one cell")
    tape = np.zeros(tape_size, np.uint8)
    out = np.empty(max_output, np.uint8)
    inp = np.frombuffer(bytes(input), np.uint8)
    status, count, olen = execute(
        program.ops,
        program.targets,
        program.code,
        program.match,
        ITERATIONS,
        tape,
        inp,
        out,
        np.int64(max_instructions),
    )
    output = out[:olen].tobytes()
    if status == ST_OK:
        return BFResult(output, int(count))
    message, kind = runtime_error(int(status), int(count), tape_size, max_output)
    return BFResult(output, int(count), message, kind)


_warm = False


def warmup() -> float:
    """Compile (or load from numba's cache) the kernels once; returns the seconds it took."""
    global _warm
    if _warm:
        return 0.0
    t0 = time.perf_counter()
    run("+[->+<]>[<]>[-]+[>>+<<-]++[.,]<", b"ab", max_output=4)
    run("+[>+]", tape_size=4)
    _warm = True
    return time.perf_counter() - t0
