"""The tic-tac-toe arena's engines: the game-independent text engines bound to the arena contract.

The arena asks a position as `TicTacToeQuestion.to_text()` and judges an `EngineReply` (the raw
output, or the engine's error). This module is that binding and nothing else; it keeps the names
and signatures the arena has always used (`BrainfuckEngine(path)`, `CommandEngine(command,
timeout_ms=...)`), so the arena's `bf:` and `cmd:` specs need no other change.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from arcade_gym.tictactoe.contract import EngineReply, TicTacToeQuestion
from policies.base import DecisionContext
from policies.engines.brainfuck.engine import BrainfuckTextEngine
from policies.engines.brainfuck.interpreter import MAX_INSTRUCTIONS, MAX_OUTPUT, BFResult
from policies.engines.limits import ResourceLimits
from policies.engines.output import EngineOutput
from policies.engines.policy import EnginePolicy, TextEngine
from policies.engines.process import ProcessEngine

ADAPTER_VERSION = "1"


def engine_slug(name: str) -> str:
    """Lowercase letters, digits, `.` and `-` (the arena's entry-folder alphabet)."""
    return re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-") or "engine"


def to_engine_reply(output: EngineOutput, _question: object = None) -> EngineReply:
    """An engine's output as the arena's `EngineReply`."""
    return EngineReply(
        output=output.output,
        error=output.error,
        instructions=output.instructions,
        elapsed_ms=output.elapsed_ms,
    )


def _position(question: TicTacToeQuestion) -> str:
    return question.to_text()


class _ArenaEngine(EnginePolicy):
    """A text engine speaking the arena contract under `label`."""

    def __init__(self, engine: TextEngine, label: str, description: str) -> None:
        super().__init__(
            engine,
            encode=_position,
            decode=to_engine_reply,
            slug=engine_slug(label),
            name=label,
            description=description,
            adapter_version=ADAPTER_VERSION,
        )


class BrainfuckEngine(_ArenaEngine):
    """A Brainfuck program playing the arena (`bf:PATH`)."""

    def __init__(
        self,
        path_or_source: str | bytes | os.PathLike[str],
        *,
        name: str | None = None,
        max_instructions: int = MAX_INSTRUCTIONS,
        max_output: int = MAX_OUTPUT,
    ) -> None:
        engine = BrainfuckTextEngine(
            path_or_source, max_instructions=max_instructions, max_output=max_output
        )
        where = f" {engine.path.name}" if engine.path is not None else ""
        super().__init__(
            engine,
            name or engine.label,
            f"Brainfuck engine{where} ({engine.program.commands:,} commands)",
        )
        self.text_engine = engine
        self.path: Path | None = engine.path
        self.program = engine.program

    @property
    def syntax_error(self) -> str | None:
        """The load-time syntax error, if the program does not parse."""
        return self.text_engine.syntax_error

    def run_text(self, stdin: str) -> BFResult:
        """Run the program on raw stdin text (latin-1)."""
        return self.text_engine.execute(stdin.encode("latin-1"))

    def reply(self, stdin: str) -> EngineReply:
        """The engine's reply to raw stdin text."""
        return to_engine_reply(self.text_engine.run(stdin))


class CommandEngine(_ArenaEngine):
    """An external program playing the arena (`cmd:COMMAND`): one process per move, the position
    on stdin, its whole process tree killed when the move ends."""

    def __init__(
        self,
        command: str,
        *,
        timeout_ms: float = 5000,
        name: str | None = None,
        max_output: int = MAX_OUTPUT,
        cwd: str | os.PathLike[str] | None = None,
        limits: ResourceLimits | None = None,
    ) -> None:
        engine = ProcessEngine(
            command,
            timeout_s=timeout_ms / 1000.0,
            max_output=max_output,
            cwd=cwd,
            limits=limits if limits is not None else ResourceLimits(),
        )
        super().__init__(engine, name or engine.label, f"external engine: {command}")
        self.process = engine
        self.command = command
        self.argv = engine.argv
        self.timeout_ms = timeout_ms

    def reply(self, stdin: str, ctx: DecisionContext | None = None) -> EngineReply:
        """Run the command on raw stdin text."""
        output = self.process.run(
            stdin,
            None if ctx is None or ctx.deadline is None else (ctx.remaining_ms() or 0.0) / 1000.0,
            cancel=None if ctx is None else ctx.cancelled,
        )
        return to_engine_reply(output)
