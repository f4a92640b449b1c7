"""A Brainfuck program as a text engine, run in-process on the exact-counting runtime.

Game-independent: `run(text, deadline_s)` feeds the text (latin-1 bytes) to the program's input
and returns its output as an `EngineOutput`; what the text means (a tic-tac-toe position, a chess
FEN) is the caller's business. Runs are bounded by the instruction limit (seed `003`: 100M
instructions, well under a second), not by the clock, so the kernel never polls a deadline; a
request whose deadline has already passed is refused without running. A syntax error is found when
the program is loaded and reported on every request; nothing raises for the program's fault.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from policies.engines.brainfuck.interpreter import (
    MAX_INSTRUCTIONS,
    MAX_OUTPUT,
    BFResult,
    Program,
    compile_program,
    run,
)
from policies.engines.output import EngineOutput


def load_source(path_or_source: str | bytes | os.PathLike[str]) -> tuple[str, Path | None]:
    """(source text, file it came from). A `str` naming an existing file is that file; a `str`
    that looks like a `.bf` path but names no file is a user error (FileNotFoundError)."""
    if isinstance(path_or_source, bytes):
        return path_or_source.decode("latin-1"), None
    if isinstance(path_or_source, os.PathLike):
        path = Path(path_or_source)
        return path.read_bytes().decode("latin-1"), path
    looks_like_path = "\n" not in path_or_source and len(path_or_source) < 4096
    if looks_like_path and os.path.isfile(path_or_source):
        path = Path(path_or_source)
        return path.read_bytes().decode("latin-1"), path
    if looks_like_path and path_or_source.strip().endswith(".bf"):
        raise FileNotFoundError(f"no Brainfuck file at {path_or_source!r}")
    return path_or_source, None


class BrainfuckTextEngine:
    """A compiled Brainfuck program answering text with text (`bf:PATH`)."""

    def __init__(
        self,
        path_or_source: str | bytes | os.PathLike[str],
        *,
        max_instructions: int = MAX_INSTRUCTIONS,
        max_output: int = MAX_OUTPUT,
    ) -> None:
        source, self.path = load_source(path_or_source)
        self.program: Program = compile_program(source)
        self.max_instructions = max_instructions
        self.max_output = max_output

    @property
    def label(self) -> str:
        """The file's stem, or `brainfuck` for inline source."""
        return self.path.stem if self.path is not None else "brainfuck"

    @property
    def syntax_error(self) -> str | None:
        """The load-time syntax error, if the program does not parse."""
        return self.program.error

    def execute(self, data: bytes) -> BFResult:
        """Run the program on raw input bytes (the runtime's own result, for benches)."""
        return run(
            self.program, data, max_instructions=self.max_instructions, max_output=self.max_output
        )

    def run(
        self, text: str, deadline_s: float | None = None, *, cancel: threading.Event | None = None
    ) -> EngineOutput:
        """The program's output for `text` (latin-1 both ways)."""
        t0 = time.perf_counter()
        if (deadline_s is not None and deadline_s <= 0) or (cancel is not None and cancel.is_set()):
            return EngineOutput(
                error="cancelled: the reply was no longer wanted", failure="cancelled"
            )
        result = self.execute(text.encode("latin-1", errors="replace"))
        return EngineOutput(
            output=result.output.decode("latin-1"),
            error=result.error,
            failure=None if result.error is None else "program",
            instructions=result.instructions,
            elapsed_ms=(time.perf_counter() - t0) * 1000.0,
        )


def make_bf_engine(path: str | os.PathLike[str], **options: int) -> BrainfuckTextEngine:
    """The `bf:PATH` engine; FileNotFoundError when `path` is not a file. Options:
    `max_instructions`, `max_output`."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"no Brainfuck file at {str(path)!r}")
    return BrainfuckTextEngine(Path(path), **options)
