"""The Brainfuck text engine, the engine-as-policy adapter and the arena's bindings."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from arcade_gym.tictactoe.contract import EngineReply, TicTacToeQuestion, parse_move
from policies.base import DecisionContext
from policies.engines import EngineOutput, EnginePolicy, make_bf_engine, make_command_engine
from policies.engines.arena import CommandEngine
from tests.engines.test_process_engine import LINGERING, wait_dead

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ECHO_UPPER = ",[>++++[<-------->-]<.,]"  # subtract 32 from each input byte


def test_bf_engine_is_text_in_text_out(tmp_path: Path) -> None:
    path = tmp_path / "upper.bf"
    path.write_text(ECHO_UPPER)
    engine = make_bf_engine(path)
    out = engine.run("abc")
    assert out.output == "ABC" and out.ok and out.instructions is not None
    assert engine.label == "upper"


def test_bf_engine_reports_program_faults_as_output() -> None:
    engine = make_bf_engine(EXAMPLES / "first_empty.bf")
    assert engine.syntax_error is None
    with pytest.raises(FileNotFoundError, match="no Brainfuck file"):
        make_bf_engine("no/such.bf")
    from policies.engines.brainfuck import BrainfuckTextEngine

    looping = BrainfuckTextEngine("+[]", max_instructions=1000)
    out = looping.run("")
    assert out.failure == "program" and out.instructions == 1000
    assert out.error == "instruction limit exceeded: 1,000 instructions executed"


def test_bf_engine_refuses_a_request_past_its_deadline() -> None:
    engine = make_bf_engine(EXAMPLES / "first_empty.bf")
    assert engine.run("3\nX\n...\n...\n...\n", 0.0).failure == "cancelled"


def test_engine_policy_takes_the_games_encoding_from_the_caller() -> None:
    engine = make_command_engine(shlex.join([sys.executable, "-c", "print(input()[::-1])"]))
    policy = EnginePolicy(
        engine,
        encode=lambda q: f"{q}\n",
        decode=lambda out, q: (q, out.output.strip()),
        slug="rev",
        name="reverser",
        description="reverses",
    )
    assert policy.act("e2e4", DecisionContext.with_budget(10_000)) == ("e2e4", "4e2e")
    assert policy.kind == "engine" and policy.identity()["slug"] == "rev"


def test_engine_policy_passes_the_decisions_deadline() -> None:
    engine = make_command_engine(shlex.join([sys.executable, "-c", "import time; time.sleep(30)"]))
    seen: list[EngineOutput] = []
    policy = EnginePolicy(
        engine,
        encode=str,
        decode=lambda out, q: seen.append(out),
        slug="s",
        name="s",
        description="s",
    )
    t0 = time.monotonic()
    policy.act("x", DecisionContext.with_budget(500))
    assert time.monotonic() - t0 < 4.0 and seen[0].failure == "timeout"


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_arena_moves_leave_no_process_behind(tmp_path: Path) -> None:
    """The arena's `cmd:` engine over a game's worth of moves, each leaving a helper holding the
    pipes: every move answers at once and no helper survives."""
    engine_file = tmp_path / "engine.py"
    engine_file.write_text(LINGERING)
    pids = tmp_path / "pids"
    engine = CommandEngine(shlex.join([sys.executable, str(engine_file), str(pids)]))
    question = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("...", "...", "..."))
    t0 = time.monotonic()
    replies = [engine.act(question, DecisionContext()) for _ in range(9)]
    assert time.monotonic() - t0 < 20.0
    assert all(isinstance(r, EngineReply) and parse_move(r.output) == (1, 1) for r in replies)
    helpers = [int(line) for line in pids.read_text().split()]
    assert len(helpers) == 9 and wait_dead(helpers) == []
