"""Brainfuck runtime throughput (`arcade-eval bench brainfuck`): counted instructions per second.

An engine, not a game: `evaluation/throughput/registry.py` lists it among the engine benches.

"Counted" instructions are the naive interpreter's (what the arena's limit and tables use), so a
folded loop counts every iteration it stands for. Kernel compile / cache load is reported on its
own; every figure is taken warm.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from arcade_gym.core.throughput import Figures, Peer
from arcade_gym.tictactoe.contract import TicTacToeQuestion
from policies.base import DecisionContext
from policies.engines.arena import BrainfuckEngine
from policies.engines.brainfuck.interpreter import Program, compile_program, run, warmup
from policies.engines.brainfuck.reference import run_naive

CLASSIC_BENCH = (
    ">++[<+++++++++++++>-]<[[>+>+<<-]>[<+>-]++++++++[>++++++++<-]>.[-]<<>++++++++++[>++"
    "++++++++[>++++++++++[>++++++++++[>++++++++++[>++++++++++[>++++++++++[-]<-]<-]<-]<-]<-]<-]"
    "<-]++++++++++."
)
"""The classic `bench.bf` (prints ZYX...A): 26 rounds of six nested counting loops; ~953M counted
instructions, mostly nested loops around a clear loop."""

GENERAL_LOOPS = "-[>-[>-[>+>>[]<<<-]<-]<-]"
"""Three nested 255-counters whose innermost loop holds a (skipped) inner loop, so no loop folds
away: the dispatch-bound case, ~166M counted instructions in short straight-line ops."""

FIRST_EMPTY = Path(__file__).resolve().parents[3] / "examples" / "first_empty.bf"
"""The example engine of the source tree (absent from an installed wheel: its figure is then left
out)."""


def _rate(run_once: Callable[[], int], seconds: float) -> float:
    """Units per second of repeated `run_once() -> units`, at least one call."""
    t0 = time.perf_counter()
    done = 0
    while True:
        done += run_once()
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return done / elapsed


def counted_instructions_per_s(program: Program, seconds: float) -> float:
    """Counted instructions per second of one program run over and over."""

    def once() -> int:
        result = run(program, max_instructions=10**12)
        assert result.error is None, result.error
        return result.instructions

    return _rate(once, seconds)


def naive_reference_per_s(seconds: float) -> float:
    """The pure-Python reference on the same kind of loop (capped at 2M instructions a run)."""
    return _rate(lambda: run_naive(GENERAL_LOOPS, max_instructions=2_000_000).instructions, seconds)


def first_empty_moves_per_s(seconds: float) -> float:
    """`BrainfuckEngine.act` on a 10x10 position whose only empty square is the last one."""
    engine = BrainfuckEngine(FIRST_EMPTY)
    rows = tuple("XO" * 5 if r % 2 else "OX" * 5 for r in range(10))
    question = TicTacToeQuestion(size=10, k=5, to_move="X", rows=(*rows[:9], rows[9][:9] + "."))
    ctx = DecisionContext()

    def once() -> int:
        reply = engine.act(question, ctx)
        assert reply.error is None and reply.output == "9 9\n", reply
        return 1

    return _rate(once, seconds)


def compile_commands_per_s(seconds: float) -> float:
    """Compiler speed on a ~200 KB mix of runs, folded loops and general loops."""
    source = ("+++>>[-]<<[->+>++<<]>>>[>]<<<[>[-]+<-]>.<" * 5000)[:200_000]
    return _rate(lambda: compile_program(source).commands, seconds)


def bench_brainfuck(seconds: float = 3.0) -> Figures:
    """Every Brainfuck runtime figure, beside the pure-Python reference's."""
    compile_s = warmup()
    results = {
        "counted_instructions_per_s": counted_instructions_per_s(
            compile_program(CLASSIC_BENCH), seconds
        ),
        "general_loop_instructions_per_s": counted_instructions_per_s(
            compile_program(GENERAL_LOOPS), seconds
        ),
        "compile_commands_per_s": compile_commands_per_s(seconds),
        "naive_reference_instructions_per_s": naive_reference_per_s(seconds),
    }
    if FIRST_EMPTY.is_file():
        results["first_empty_10x10_moves_per_s"] = first_empty_moves_per_s(seconds)
    return Figures(
        results=results,
        targets={"counted_instructions_per_s": 500_000_000},
        compile_s=compile_s,
        peer=Peer(
            "policies.engines.brainfuck.reference (pure-Python naive interpreter)",
            "policies.engines.brainfuck.reference",
            measured_as="naive_reference_instructions_per_s",
        ),
    )
