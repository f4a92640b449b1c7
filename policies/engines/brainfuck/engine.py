"""Engines for the tic-tac-toe arena: a Brainfuck program run in-process, or any external command.

Both speak the seed's contract: the position as text on stdin (`TicTacToeQuestion.to_text()`), a
zero-indexed `row col` on stdout. Both answer with an `EngineReply` and never raise for an engine's
own fault (syntax error, tape overflow, instruction limit, crash, timeout, garbage): the reply's
`error` names it and the arena scores the move as illegal. Parsing the move is the arena's job.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import threading
import time
from pathlib import Path

from arcade_gym.tictactoe.contract import EngineReply, TicTacToeQuestion
from policies.base import DecisionContext, PolicyIdentity
from policies.engines.brainfuck.interpreter import (
    MAX_INSTRUCTIONS,
    MAX_OUTPUT,
    BFResult,
    Program,
    compile_program,
    run,
)

STDERR_TAIL = 400
"""Characters of a crashed command's stderr kept in the error (its last lines say why)."""


def _slug(name: str) -> str:
    """Lowercase letters, digits, `.` and `-` (the arena's entry-folder alphabet)."""
    return re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-") or "engine"


def _elapsed_ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


def _load_source(path_or_source: str | bytes | os.PathLike[str]) -> tuple[str, Path | None]:
    """(source text, file it came from). A `str` naming an existing file is that file; a `str`
    that looks like a `.bf` path but names no file is a user error, not a program."""
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


class BrainfuckEngine(PolicyIdentity):
    """A Brainfuck program as an arena engine, run on the exact-counting runtime.

    The program is compiled once; a syntax error is found then and reported on every move. Runs
    are bounded by `max_instructions` (a 100M-instruction move takes well under a second), so the
    kernel does not poll `ctx.cancelled`.
    """

    def __init__(
        self,
        path_or_source: str | bytes | os.PathLike[str],
        *,
        name: str | None = None,
        max_instructions: int = MAX_INSTRUCTIONS,
        max_output: int = MAX_OUTPUT,
    ) -> None:
        source, self.path = _load_source(path_or_source)
        self.program: Program = compile_program(source)
        self.max_instructions = max_instructions
        self.max_output = max_output
        label = name or (self.path.stem if self.path is not None else "brainfuck")
        where = f" {self.path.name}" if self.path is not None else ""
        super().__init__(
            slug=_slug(label),
            name=label,
            description=f"Brainfuck engine{where} ({self.program.commands:,} commands)",
            kind="engine",
            adapter_version="1",
        )

    @property
    def syntax_error(self) -> str | None:
        """The load-time syntax error, if the program does not parse."""
        return self.program.error

    def run_text(self, stdin: str) -> BFResult:
        """Run the program on raw stdin text (latin-1), e.g. a position the arena built itself."""
        return run(
            self.program,
            stdin.encode("latin-1"),
            max_instructions=self.max_instructions,
            max_output=self.max_output,
        )

    def reply(self, stdin: str) -> EngineReply:
        """The engine's reply to raw stdin text."""
        t0 = time.perf_counter()
        result = self.run_text(stdin)
        return EngineReply(
            output=result.output.decode("latin-1"),
            error=result.error,
            instructions=result.instructions,
            elapsed_ms=_elapsed_ms(t0),
        )

    def act(self, question: TicTacToeQuestion, ctx: DecisionContext) -> EngineReply:
        """Run the program on the position; output, error and counts go into the reply."""
        return self.reply(question.to_text())


class CommandEngine(PolicyIdentity):
    """Any external program as an arena engine: one process per move, position on stdin.

    The command is split with `shlex` and run without a shell in its own process group, so a
    timeout (or `ctx.cancelled`) kills it and anything it started. A non-zero exit is a crash
    (with the tail of stderr); output past `max_output` bytes kills it too. Whatever it printed is
    returned as is for the arena to parse.
    """

    def __init__(
        self,
        command: str,
        *,
        timeout_ms: float = 5000,
        name: str | None = None,
        max_output: int = MAX_OUTPUT,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("CommandEngine needs a command to run, e.g. 'python my_engine.py'")
        self.command = command
        self.timeout_ms = timeout_ms
        self.max_output = max_output
        self.cwd = cwd
        label = name or Path(self.argv[-1]).stem or Path(self.argv[0]).name
        super().__init__(
            slug=_slug(label),
            name=label,
            description=f"external engine: {command}",
            kind="engine",
            adapter_version="1",
        )

    def act(self, question: TicTacToeQuestion, ctx: DecisionContext) -> EngineReply:
        """Run the command on the position, within the timeout and the context's deadline."""
        return self.reply(question.to_text(), ctx)

    def reply(self, stdin: str, ctx: DecisionContext | None = None) -> EngineReply:
        """Run the command on raw stdin text."""
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                start_new_session=os.name == "posix",
            )
        except OSError as exc:
            return EngineReply(
                error=f"could not start {self.argv[0]!r}: {exc.strerror or exc}",
                elapsed_ms=_elapsed_ms(t0),
            )
        return _Session(proc, stdin.encode("latin-1"), self.max_output).finish(
            t0, self.timeout_ms, ctx
        )


class _Session:
    """One running engine process: feeds stdin, drains stdout (capped) and stderr (tail)."""

    def __init__(self, proc: subprocess.Popen[bytes], data: bytes, max_output: int) -> None:
        self.proc = proc
        self.max_output = max_output
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.overflow = threading.Event()
        self.threads = [
            threading.Thread(target=self._feed, args=(data,), daemon=True),
            threading.Thread(target=self._drain_stdout, daemon=True),
            threading.Thread(target=self._drain_stderr, daemon=True),
        ]
        for thread in self.threads:
            thread.start()

    def _feed(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.close()
        except OSError:  # the engine exited without reading all of it: not our fault to report
            pass

    def _drain_stdout(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while chunk := os.read(fd, 65536):
            self.stdout += chunk
            if len(self.stdout) > self.max_output:
                self.overflow.set()
                return

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        while chunk := os.read(fd, 65536):
            self.stderr += chunk
            del self.stderr[: max(0, len(self.stderr) - 4 * STDERR_TAIL)]

    def _kill(self) -> None:
        """Kill the engine and its process group (it may have started helpers)."""
        try:
            if os.name == "posix":
                os.killpg(self.proc.pid, signal.SIGKILL)
            else:
                self.proc.kill()
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()

    def finish(self, t0: float, timeout_ms: float, ctx: DecisionContext | None) -> EngineReply:
        """Wait for the exit, the timeout, a cancellation or an output overflow; then reply."""
        deadline = t0 + timeout_ms / 1000.0
        error: str | None = None
        while True:
            try:
                self.proc.wait(timeout=max(0.0, min(0.02, deadline - time.perf_counter())))
                break
            except subprocess.TimeoutExpired:
                pass
            if self.overflow.is_set():
                error = f"output limit exceeded: more than {self.max_output:,} bytes"
            elif time.perf_counter() >= deadline:
                error = f"timeout: no move within {timeout_ms:g} ms (process killed)"
            elif ctx is not None and ctx.cancelled.is_set():
                error = "cancelled: the move was no longer wanted (process killed)"
            if error is not None:
                self._kill()
                break
        for thread in self.threads:
            thread.join(timeout=1.0)
        if error is None and self.overflow.is_set():
            error = f"output limit exceeded: more than {self.max_output:,} bytes"
        if error is None and self.proc.returncode != 0:
            error = self._crash_message(self.proc.returncode)
        output = bytes(self.stdout[: self.max_output]).decode("latin-1")
        return EngineReply(output=output, error=error, elapsed_ms=_elapsed_ms(t0))

    def _crash_message(self, code: int) -> str:
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        tail = bytes(self.stderr).decode("utf-8", errors="replace").strip()[-STDERR_TAIL:]
        return f"crashed: {how}" + (f": {tail}" if tail else "")
