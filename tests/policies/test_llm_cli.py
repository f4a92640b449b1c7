"""Agent CLIs as chat models (`cli:COMMAND`): every lane plays through a small script that reads
the prompt on stdin and replies on stdout; failures are typed; a cut-off request leaves nothing
running."""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from arcade_gym.snake.game import SnakeGame
from arcade_gym.tictactoe.contract import TicTacToeAnswer, TicTacToeQuestion
from policies.base import DecisionContext
from policies.llm import FatalModelError, ServiceFailure, make_cli_policy
from tests.engines.test_process_engine import wait_dead

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")

AGENT = """
import os, sys, subprocess
prompt = sys.stdin.read()
with open(sys.argv[1], "a") as log:
    log.write(f"{os.getpid()}\\n")
if "Actions:" in prompt:  # a NARCADE question
    print('Thinking... {"action": "up"}')
elif "Connection test" in prompt:
    print("<move>0 1</move>" if "<move>" in prompt else '{"action":"up"}')
else:
    print("<move>1 1</move>")
"""

SLOW = """
import os, sys, subprocess, time
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
with open(sys.argv[1], "a") as log:
    log.write(f"{os.getpid()}\\n{helper.pid}\\n")
time.sleep(60)
"""


def tool(tmp_path: Path, body: str) -> tuple[str, Path]:
    script = tmp_path / "agent.py"
    script.write_text(body)
    pids = tmp_path / "pids"
    return shlex.join([sys.executable, str(script), str(pids)]), pids


def test_a_cli_plays_tictactoe_and_snake_through_the_prompt_modules(tmp_path: Path) -> None:
    command, _ = tool(tmp_path, AGENT)
    ttt = make_cli_policy(command, "tictactoe")
    ttt.preflight()
    q = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("...", "...", "..."))
    answer = asyncio.run(ttt.act_async(q, DecisionContext.with_budget(20_000)))
    assert answer == TicTacToeAnswer(row=1, col=1)
    telemetry = ttt.pop_telemetry()
    assert telemetry is not None and telemetry["raw"] == "<move>1 1</move>\n"
    assert telemetry["costSource"] == "unknown" and telemetry["promptTokens"] is None
    assert ttt.spec.provider == "agent-cli" and ttt.run_identity()["command"] == command

    snake = make_cli_policy(command, "snake")
    answer = asyncio.run(snake.act_async(SnakeGame("seed-01").question(), DecisionContext()))
    assert answer.action == "up"


def test_a_cli_reply_is_cached_like_a_servers(tmp_path: Path) -> None:
    command, pids = tool(tmp_path, AGENT)
    q = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("X..", "...", "..."))
    for _ in range(2):
        policy = make_cli_policy(command, "tictactoe", cache_dir=tmp_path / "cache")
        asyncio.run(policy.act_async(q, DecisionContext()))
    assert len(pids.read_text().split()) == 1


def test_cli_failures_are_typed(tmp_path: Path) -> None:
    q = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("...", "...", "..."))
    crash = make_cli_policy(
        shlex.join([sys.executable, "-c", "import sys; sys.exit('quota')"]), "tictactoe"
    )
    with pytest.raises(ServiceFailure, match="quota") as info:
        asyncio.run(crash.act_async(q, DecisionContext()))
    assert info.value.reason == "cli"
    missing = make_cli_policy("/no/such/agent -p", "tictactoe")
    with pytest.raises(FatalModelError, match="could not start"):
        asyncio.run(missing.act_async(q, DecisionContext()))
    assert missing.fatal_error is not None


def test_a_cut_off_cli_request_leaves_nothing_running(tmp_path: Path) -> None:
    command, pids = tool(tmp_path, SLOW)
    policy = make_cli_policy(command, "tictactoe")
    q = TicTacToeQuestion(size=3, k=3, to_move="X", rows=("...", "...", "..."))

    async def cut_off() -> None:
        task = asyncio.ensure_future(policy.act_async(q, DecisionContext()))
        for _ in range(200):
            if pids.exists() and len(pids.read_text().split()) == 2:
                break
            await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    t0 = time.monotonic()
    asyncio.run(cut_off())
    assert time.monotonic() - t0 < 30
    assert wait_dead([int(p) for p in pids.read_text().split()], 5.0) == []

    with pytest.raises(TimeoutError):  # the tool's own deadline: the model was too slow
        asyncio.run(policy.act_async(q, DecisionContext.with_budget(500)))
