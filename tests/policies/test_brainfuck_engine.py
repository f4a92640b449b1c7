"""Arena engines: the example Brainfuck engine plays legal first-empty moves, program faults and
external-command failures come back as `EngineReply.error`, never as exceptions."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from arcade_gym.tictactoe.contract import EngineReply, TicTacToeQuestion, parse_move
from policies.base import DecisionContext
from policies.engines.arena import BrainfuckEngine, CommandEngine

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FIRST_EMPTY = EXAMPLES / "first_empty.bf"
K = {3: 3, 5: 4, 10: 5}


def question(rows: list[str], to_move: str = "X") -> TicTacToeQuestion:
    size = len(rows)
    return TicTacToeQuestion(size=size, k=K[size], to_move=to_move, rows=tuple(rows))


def first_empty(rows: list[str]) -> tuple[int, int]:
    return next((r, row.index(".")) for r, row in enumerate(rows) if "." in row)


def python_cmd(script: str) -> str:
    return shlex.join([sys.executable, "-c", script])


POSITIONS = [
    ["...", "...", "..."],
    ["XO.", "...", "..."],
    ["XOX", "OXO", ".X."],
    ["XXOOX", "OOXXO", "X.O..", ".....", "....."],
    ["XOXOX", "OXOXO", "XOXOX", "OXOXO", "XOXO."],
    ["XOXOXOXOXO"] * 9 + ["XOXOXOXOX."],
    ["XOXOXOXOXO", "OXOXOX.OXO"] + ["." * 10] * 8,
    [".........."] * 10,
]


@pytest.mark.parametrize("rows", POSITIONS, ids=lambda rows: f"{len(rows)}x{len(rows)}")
def test_first_empty_engine_plays_the_first_empty_square(rows: list[str]) -> None:
    engine = BrainfuckEngine(FIRST_EMPTY)
    reply = engine.act(question(rows, to_move="O"), DecisionContext())
    assert reply.error is None
    assert parse_move(reply.output) == first_empty(rows)
    assert reply.instructions is not None and reply.instructions > 0
    assert reply.elapsed_ms is not None


def test_first_empty_engine_identity() -> None:
    engine = BrainfuckEngine(FIRST_EMPTY)
    assert (engine.slug, engine.name, engine.kind) == ("first-empty", "first_empty", "engine")
    assert engine.identity()["kind"] == "engine"
    assert BrainfuckEngine(str(FIRST_EMPTY), name="My Engine").slug == "my-engine"


def test_generator_reproduces_the_checked_in_program() -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        from make_first_empty_bf import first_empty_program
    finally:
        sys.path.remove(str(EXAMPLES))
    assert first_empty_program() == FIRST_EMPTY.read_text()


def test_syntax_error_is_reported_on_every_move() -> None:
    engine = BrainfuckEngine("+++\n[>+<-]]")
    expected = "syntax error: unmatched ']' at position 10 (line 2, column 7)"
    assert engine.syntax_error == expected
    for _ in range(2):
        reply = engine.act(question(["..."] * 3), DecisionContext())
        assert reply == EngineReply(
            output="", error=expected, instructions=0, elapsed_ms=reply.elapsed_ms
        )


def test_looping_program_hits_the_instruction_limit() -> None:
    engine = BrainfuckEngine("+[]", max_instructions=1_000_000)
    reply = engine.act(question(["..."] * 3), DecisionContext())
    assert reply.error == "instruction limit exceeded: 1,000,000 instructions executed"
    assert reply.instructions == 1_000_000


def test_default_limit_is_the_seeds() -> None:
    reply = BrainfuckEngine("+[]").act(question(["..."] * 3), DecisionContext())
    assert reply.instructions == 100_000_000
    assert reply.error is not None and reply.error.startswith("instruction limit exceeded")


def test_tape_overflow_is_reported() -> None:
    reply = BrainfuckEngine("<").act(question(["..."] * 3), DecisionContext())
    assert reply.error == "tape overflow: moved left of cell 0 at instruction 1"


def test_missing_bf_file_is_a_user_error() -> None:
    with pytest.raises(FileNotFoundError, match="no Brainfuck file"):
        BrainfuckEngine("no/such/engine.bf")


def test_command_engine_runs_the_python_example() -> None:
    engine = CommandEngine(shlex.join([sys.executable, str(EXAMPLES / "my_engine.py")]))
    assert engine.kind == "engine" and engine.slug == "my-engine"
    ctx = DecisionContext()
    assert parse_move(engine.act(question(["..."] * 3), ctx).output) == (1, 1)
    reply = engine.act(question(["XO.", ".X.", "..."], to_move="O"), ctx)
    assert reply.error is None and parse_move(reply.output) == (0, 2)
    rows = ["....."] * 2 + ["..X.."] + ["....."] * 2
    assert parse_move(engine.act(question(rows, "O"), ctx).output) == (0, 0)


def test_command_engine_reports_a_crash_with_stderr() -> None:
    engine = CommandEngine(python_cmd("import sys; sys.stdin.read(); sys.exit('board on fire')"))
    reply = engine.act(question(["..."] * 3), DecisionContext())
    assert reply.error == "crashed: exit code 1: board on fire"


def test_command_engine_leaves_garbage_to_the_arena() -> None:
    engine = CommandEngine(python_cmd("print('I resign, good game')"))
    reply = engine.act(question(["..."] * 3), DecisionContext())
    assert reply.error is None
    assert reply.output == "I resign, good game\n"
    assert parse_move(reply.output) is None


def test_command_engine_kills_a_sleeper_at_the_timeout() -> None:
    engine = CommandEngine(python_cmd("import time; time.sleep(30)"), timeout_ms=300)
    reply = engine.act(question(["..."] * 3), DecisionContext())
    assert reply.error == "timeout: no reply within 300 ms (process killed)"
    assert reply.elapsed_ms is not None and 300 <= reply.elapsed_ms < 5000


def test_command_engine_stops_when_cancelled() -> None:
    engine = CommandEngine(python_cmd("import time; time.sleep(30)"), timeout_ms=20_000)
    ctx = DecisionContext()
    ctx.cancelled.set()
    reply = engine.act(question(["..."] * 3), ctx)
    assert reply.error is not None and reply.error.startswith("cancelled")


def test_command_engine_caps_endless_output() -> None:
    engine = CommandEngine(python_cmd("while True: print('0 0')"), max_output=1000)
    reply = engine.act(question(["..."] * 3), DecisionContext())
    assert reply.error == "output limit exceeded: more than 1,000 bytes"
    assert len(reply.output) == 1000


def test_command_engine_reports_a_missing_program() -> None:
    reply = CommandEngine("/no/such/engine --fast").act(question(["..."] * 3), DecisionContext())
    assert reply.error is not None and reply.error.startswith("could not start '/no/such/engine'")


def test_command_engine_needs_a_command() -> None:
    with pytest.raises(ValueError, match="needs a command"):
        CommandEngine("  ")
