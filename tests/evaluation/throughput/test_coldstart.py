"""`arcade-eval bench coldstart` (issue 23, item 1): what the first-use child records and how
the report reads it (speed itself is never asserted: the bench measures it)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from arcade_gym.core.coldstart import CompileRecorder, first_use
from evaluation.throughput.coldstart import (
    _summary,
    cold_and_warm,
    coldstart_targets,
    first_decision_s,
    format_coldstart,
    run_child,
)


def _event(start: bool, name: str = "", args: tuple[str, ...] = ()) -> Any:
    function = SimpleNamespace(__module__="game.engine", __qualname__=name)
    data = {"dispatcher": SimpleNamespace(py_func=function), "args": args}
    return SimpleNamespace(is_start=start, data=data)


def test_a_kernel_s_own_time_leaves_out_the_kernels_it_compiled() -> None:
    listener = SimpleNamespace(buffer=[])
    # outer 0..10 s wall (0..8 CPU) compiles inner 2..6 s wall (1..4 CPU) on the way
    listener.buffer += [
        (0.0, 0.0, _event(True, "outer", ("int64",))),
        (2.0, 1.0, _event(True, "inner", ("int8", "int64"))),
        (6.0, 4.0, _event(False)),
        (10.0, 8.0, _event(False)),
    ]
    recorder = CompileRecorder(listener)
    records = {r["kernel"]: r for r in recorder.take()}
    assert records["game.engine.outer"]["selfSeconds"] == 6.0
    assert records["game.engine.outer"]["selfCpuSeconds"] == 5.0
    assert records["game.engine.outer"]["totalSeconds"] == 10.0
    assert records["game.engine.inner"]["selfSeconds"] == 4.0
    assert records["game.engine.inner"]["signature"] == "int8, int64"
    assert recorder.take() == []  # each record is taken once


def test_first_use_times_make_reset_and_step() -> None:
    result = first_use("aec:tictactoe_v0", CompileRecorder(SimpleNamespace(buffer=[])))
    assert list(result["phases"]) == ["make", "reset", "step"]
    assert result["wallSeconds"] >= 0 and result["kernels"] == []
    with pytest.raises(ValueError, match="KIND:NAME"):
        first_use("tictactoe", CompileRecorder(SimpleNamespace(buffer=[])))


def test_every_registered_env_is_a_target() -> None:
    targets = coldstart_targets()
    assert "env:arcade_gym/Tetris-v3" in targets and "aec:chess_v0" in targets
    assert any(t.startswith("vector:") for t in targets)


def _child(kernels: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "import": {"wallSeconds": 0.5, "cpuSeconds": 0.4, "kernels": []},
        "targets": [
            {
                "target": "env:X-v0",
                "phases": {"make": {"wallSeconds": 1.0, "cpuSeconds": 1.0}},
                "kernels": kernels,
            }
        ],
        "wallSeconds": 2.0,
        "cpuSeconds": 1.8,
        "cacheLoads": 0 if kernels else 3,
        "loadAverage": [1.0, 1.2],
    }


def test_the_report_sums_a_kernel_over_its_signatures_and_prints_one_row_a_target() -> None:
    record = {"kernel": "a.b.step", "selfSeconds": 0.5, "selfCpuSeconds": 0.4, "phase": "make"}
    cold = _summary(_child([record, dict(record, signature="int8")]))
    assert cold["kernels"] == [
        {"kernel": "a.b.step", "selfSeconds": 1.0, "selfCpuSeconds": 0.8, "signatures": 2}
    ]
    assert cold["compileCpuSeconds"] == pytest.approx(0.8) and cold["kernelsCompiled"] == 2
    warm = _summary(_child([]))
    report = {
        "packageVersion": "0",
        "python": "3",
        "numba": "0.6",
        "machine": "m",
        "cpuCount": 2,
        "targets": {
            "env:X-v0": {"cold": cold, "warm": warm, "installed": warm},
            "env:Y-v0": {"error": "boom"},
        },
    }
    table = format_coldstart(report)
    assert "env:X-v0" in table and "step 0.80" in table and "env:Y-v0" in table
    assert "failed: boom" in table and "package" in table


def test_a_command_is_timed_until_its_run_directory_holds_a_decision(tmp_path: Path) -> None:
    script = tmp_path / "fake_run.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys, time
            from pathlib import Path
            out = Path(sys.argv[sys.argv.index("--output-dir") + 1])
            out.mkdir(parents=True)
            log = out / "game.jsonl"
            log.write_text('{"header": 1}\\n')
            time.sleep(0.3)
            with open(log, "a") as handle:
                handle.write('{"decision": 0}\\n')
            time.sleep(60)  # playing on: the bench stops it
            """
        )
    )
    timed = first_decision_s([sys.executable, str(script)], str(tmp_path / "cache"), 60.0)
    assert 0.3 <= timed["firstDecisionSeconds"] < 60.0


def test_a_command_that_ends_before_deciding_is_one_line(tmp_path: Path) -> None:
    from evaluation.core.errors import RunError

    with pytest.raises(RunError, match="ended before its first decision: no way"):
        first_decision_s(
            [sys.executable, "-c", "import sys; sys.exit('no way')"], str(tmp_path), 60.0
        )


def test_a_failing_target_is_reported_not_raised(tmp_path: Path) -> None:
    assert "error" in cold_and_warm(["env:arcade_gym/NoSuchEnv-v0"])


@pytest.mark.slow
def test_a_fresh_process_compiles_cold_nothing_at_import_and_loads_warm(tmp_path: Path) -> None:
    cold = run_child(["aec:tictactoe_v0"], str(tmp_path))
    warm = run_child(["aec:tictactoe_v0"], str(tmp_path))
    assert cold["import"]["kernels"] == []  # importing arcade_gym compiles no kernel
    assert cold["targets"][0]["kernels"] and cold["targets"][0]["compileSeconds"] > 0
    assert warm["targets"][0]["kernels"] == [] and warm["cacheLoads"] > 0


def test_the_package_cache_run_ignores_a_numba_cache_dir_of_the_caller(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from evaluation.throughput.coldstart import _child_env

    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere")
    assert "NUMBA_CACHE_DIR" not in _child_env(None)
    assert _child_env("/tmp/empty")["NUMBA_CACHE_DIR"] == "/tmp/empty"
