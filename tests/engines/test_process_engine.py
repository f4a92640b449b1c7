"""External engine processes: game-independent text in / text out, deadlines that hold whatever
the engine's helpers do with the pipes, resource limits, and no process left behind."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from policies.engines import (
    EngineOutput,
    ProcessEngine,
    ResourceLimits,
    make_cli_engine,
    make_command_engine,
)
from policies.engines.limits import NO_LIMITS

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups and /proc are POSIX")


def py(script: str) -> str:
    return shlex.join([sys.executable, "-c", script])


def alive(pid: int) -> bool:
    """Whether `pid` is a live (non-zombie) process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 :].split()[0] != b"Z"


def wait_dead(pids: list[int], seconds: float = 3.0) -> list[int]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        left = [pid for pid in pids if alive(pid)]
        if not left:
            return []
        time.sleep(0.02)
    return [pid for pid in pids if alive(pid)]


# A move that answers at once but leaves a helper behind that keeps stdout and stderr open and
# writes its pid to a file (so the test can look for it afterwards).
LINGERING = """
import os, sys, subprocess, time
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
with open(sys.argv[1], "a") as f:
    f.write(f"{helper.pid}\\n")
sys.stdout.write("1 1\\n")
sys.stdout.flush()
"""

ESCAPING = """
import os, sys, subprocess
helper = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(60)"], process_group=0
)  # a group of its own, still in the engine's session
with open(sys.argv[1], "a") as f:
    f.write(f"{helper.pid}\\n")
print("0 0", flush=True)
"""


def script(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(body)
    return path


def test_text_in_text_out() -> None:
    engine = make_command_engine(py("import sys; print(sys.stdin.read().upper(), end='')"))
    out = engine.run("e2e4\n", 10.0)
    assert out == EngineOutput(output="E2E4\n", elapsed_ms=out.elapsed_ms)
    assert out.ok and out.instructions is None


def test_a_helper_holding_the_pipes_neither_delays_the_move_nor_survives_it(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "pids"
    command = shlex.join([sys.executable, str(script(tmp_path, "e.py", LINGERING)), str(pids)])
    engine = make_command_engine(command)
    t0 = time.monotonic()
    outputs = [engine.run("3\nX\n...\n...\n...\n", 20.0) for _ in range(5)]
    took = time.monotonic() - t0
    assert all(out.ok and out.output == "1 1\n" for out in outputs), outputs
    assert took < 15.0  # far below the helpers' 60 s: nobody waited for them
    helpers = [int(line) for line in pids.read_text().split()]
    assert len(helpers) == 5
    assert wait_dead(helpers) == []


def test_a_helper_in_another_process_group_is_killed_too(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    engine = make_command_engine(
        shlex.join([sys.executable, str(script(tmp_path, "e.py", ESCAPING)), str(pids)])
    )
    out = engine.run("x", 20.0)
    assert out.ok and out.output == "0 0\n"
    assert wait_dead([int(line) for line in pids.read_text().split()]) == []


def test_the_deadline_holds_and_the_tree_is_killed(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    body = LINGERING.replace('sys.stdout.write("1 1\\n")', "time.sleep(60)")
    engine = make_command_engine(
        shlex.join([sys.executable, str(script(tmp_path, "e.py", body)), str(pids)]),
        timeout_s=30.0,
    )
    t0 = time.monotonic()
    out = engine.run("x", 0.8)  # the request's deadline is shorter than the engine's timeout
    assert time.monotonic() - t0 < 10.0
    assert out.failure == "timeout" and out.error == (
        "timeout: no reply within 800 ms (process killed)"
    )
    assert wait_dead([int(line) for line in pids.read_text().split()]) == []


def test_cancel_stops_a_request() -> None:
    cancel = threading.Event()
    engine = make_command_engine(py("import time; time.sleep(60)"), timeout_s=30.0)
    threading.Timer(0.3, cancel.set).start()
    out = engine.run("", cancel=cancel)
    assert out.failure == "cancelled" and out.error is not None


def test_crash_output_limit_and_missing_program() -> None:
    crash = make_command_engine(py("import sys; sys.stdin.read(); sys.exit('board on fire')"))
    assert crash.run("x").error == "crashed: exit code 1: board on fire"
    assert crash.run("x").failure == "crash"
    flood = make_command_engine(py("while True: print('0 0')"), max_output=1000)
    out = flood.run("")
    assert out.failure == "output-limit" and len(out.output) == 1000
    missing = make_command_engine("/no/such/engine --fast").run("x")
    assert missing.failure == "start" and missing.error is not None
    assert missing.error.startswith("could not start '/no/such/engine'")


def test_large_input_is_fed_without_deadlock() -> None:
    engine = make_command_engine(py("import sys; d = sys.stdin.read(); print(len(d))"))
    assert engine.run("x" * 1_000_000, 20.0).output.strip() == "1000000"


def test_an_engine_that_ignores_stdin_is_not_an_error() -> None:
    engine = make_command_engine(py("print('ok')"))
    assert engine.run("y" * 500_000, 20.0).output == "ok\n"


def test_memory_is_capped_in_the_child() -> None:
    hog = py("b = bytearray(600 * 1024 * 1024); print('allocated')")
    capped = make_command_engine(hog, limits=ResourceLimits(memory_mb=256), timeout_s=20.0)
    out = capped.run("")
    assert out.failure == "crash" and "MemoryError" in (out.error or "")
    show = py("import resource; print(resource.getrlimit(resource.RLIMIT_AS))")
    limited = make_command_engine(show, limits=ResourceLimits(memory_mb=300)).run("")
    assert limited.output.strip() == str((300 * 2**20, 300 * 2**20))
    assert make_command_engine(show, limits=NO_LIMITS).run("").output.strip() == "(-1, -1)"


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [("memory_mb", 0, ValueError), ("cpu_seconds", 1.5, TypeError), ("file_mb", True, TypeError)],
)
def test_bad_limits_are_refused(field: str, value: object, error: type[Exception]) -> None:
    with pytest.raises(error, match=field):
        ResourceLimits(**{field: value})  # type: ignore[arg-type]


def test_bad_engine_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="needs a command"):
        ProcessEngine("  ")
    with pytest.raises(ValueError, match="timeout_s"):
        ProcessEngine("true", timeout_s=0)


CLI = """
import sys
prompt = sys.stdin.read()
if "fail" in prompt:
    sys.exit("quota exceeded")
print(f"<move>{len(prompt.split())} words</move> é")
"""


def test_agent_cli_reads_the_prompt_on_stdin_and_replies_on_stdout(tmp_path: Path) -> None:
    tool = shlex.join([sys.executable, str(script(tmp_path, "agent.py", CLI))])
    engine = make_cli_engine(tool)
    assert engine.encoding == "utf-8" and engine.limits.memory_mb is None
    out = engine.run("play the best move please", 20.0)
    assert out.ok and out.output == "<move>5 words</move> é\n"
    failed = engine.run("fail now", 20.0)
    assert failed.failure == "crash" and "quota exceeded" in (failed.error or "")
    slow = make_cli_engine(py("import time; time.sleep(60)"))
    assert slow.run("x", 0.5).failure == "timeout"


DAEMON = """
import os, sys, subprocess
helper = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True
)  # a session of its own (re-parented away once we exit); it still holds our stdout and stderr
with open(sys.argv[1], "a") as f:
    f.write(f"{helper.pid}\\n")
print("2 2", flush=True)
"""


def test_a_helper_that_leaves_the_session_neither_holds_the_move_nor_survives_it(
    tmp_path: Path,
) -> None:
    """A helper in a session of its own is found by the tree tag it inherited and killed; the
    move returns at once either way."""
    pids = tmp_path / "pids"
    engine = make_command_engine(
        shlex.join([sys.executable, str(script(tmp_path, "e.py", DAEMON)), str(pids)]),
        timeout_s=20.0,
    )
    t0 = time.monotonic()
    out = engine.run("x")
    helpers = [int(line) for line in pids.read_text().split()]
    try:
        assert out.ok and out.output == "2 2\n"
        assert time.monotonic() - t0 < 10.0  # not the helper's 30 s
        assert wait_dead(helpers) == []
    finally:
        for pid in helpers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_engine_output_logs_in_camel_case() -> None:
    out = EngineOutput(output="1 1", failure=None, instructions=7, elapsed_ms=1.5)
    assert out.to_dict() == {
        "output": "1 1",
        "error": None,
        "failure": None,
        "instructions": 7,
        "elapsedMs": 1.5,
    }
