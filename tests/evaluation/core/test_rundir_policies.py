"""A resumed run refuses changed policy settings and names each change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.core.rundir import RunDir, RunDirError

LLM = {"modelId": "m-1", "temperature": 0.0, "maxTokens": 512, "baseUrlHost": "127.0.0.1:9"}


def _start(path: Path, policies: dict[str, dict[str, object]]) -> RunDir:
    run = RunDir(path, "demo", {"seeds": [1, 2]})
    run.prepare(resume=None)
    run.check_policies(policies)
    run.write_manifest("running", [("a", "1")], [])
    return run


def test_the_same_settings_resume_and_are_recorded(tmp_path: Path) -> None:
    _start(tmp_path / "run", {"llm:x": LLM})
    _start(tmp_path / "run", {"llm:x": LLM, "heuristic": {"slug": "heuristic"}})
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["policies"] == {"llm:x": LLM, "heuristic": {"slug": "heuristic"}}


def test_a_changed_temperature_is_refused_naming_it(tmp_path: Path) -> None:
    _start(tmp_path / "run", {"llm:x": LLM})
    with pytest.raises(RunDirError, match=r"llm:x: temperature 0\.0 -> 1\.5"):
        _start(tmp_path / "run", {"llm:x": {**LLM, "temperature": 1.5}})
    with pytest.raises(RunDirError, match="baseUrlHost"):
        _start(tmp_path / "run", {"llm:x": {**LLM, "baseUrlHost": "elsewhere:443"}})


def test_other_settings_of_the_run_are_refused_before_any_policy(tmp_path: Path) -> None:
    _start(tmp_path / "run", {})
    other = RunDir(tmp_path / "run", "demo", {"seeds": [1, 2, 3]})
    with pytest.raises(RunDirError, match="seeds"):
        other.prepare(resume=None)


def test_a_directory_another_live_process_writes_is_refused(tmp_path: Path) -> None:
    import subprocess
    import sys

    from evaluation.core.rundir import LOCK

    _start(tmp_path / "run", {})
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (tmp_path / "run" / LOCK).write_text(str(other.pid))
        with pytest.raises(RunDirError, match=f"another arcade-eval process \\(pid {other.pid}\\)"):
            _start(tmp_path / "run", {})
    finally:
        other.kill()
        other.wait()
    _start(tmp_path / "run", {})  # the holder is gone: its stale lock is taken over
    assert (tmp_path / "run" / LOCK).read_text() == str(__import__("os").getpid())
