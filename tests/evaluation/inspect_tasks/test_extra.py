"""The `inspect` extra stays optional: only `evaluation/inspect_tasks/` imports Inspect, using it
without the extra fails in one line naming the fix, and the distribution declares the entry
point Inspect discovers the tasks by (run through it when installed)."""

from __future__ import annotations

import ast
import importlib.metadata
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "evaluation" / "inspect_tasks"
ENTRY = "evaluation.inspect_tasks.registry"


def _imports_inspect(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        if any(name.split(".")[0] == "inspect_ai" for name in names):
            return True
    return False


def test_only_the_inspect_package_imports_inspect() -> None:
    for top in ("arcade_gym", "policies", "evaluation"):
        for path in (ROOT / top).rglob("*.py"):
            if PACKAGE in path.parents:
                continue
            assert not _imports_inspect(path), f"{path} imports inspect_ai"


def test_without_the_extra_the_package_says_how_to_install_it() -> None:
    code = "import sys; sys.modules['inspect_ai'] = None; import evaluation.inspect_tasks.registry"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert out.returncode != 0
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: the Inspect tasks need the inspect extra")
    assert 'pip install -e ".[inspect]"' in last


def test_the_distribution_declares_the_extra_and_the_entry_point() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(req.startswith("inspect-ai") for req in project["optional-dependencies"]["inspect"])
    assert project["entry-points"]["inspect_ai"] == {"arcade_gym": ENTRY}


def test_inspect_finds_the_tasks_through_the_installed_entry_point(tmp_path: Path) -> None:
    """In a fresh process that never imports the tasks itself, `eval("arcade_gym/sudoku")` loads
    them through the entry point (as `inspect eval arcade_gym/sudoku` does)."""
    pytest.importorskip("inspect_ai")
    points = importlib.metadata.entry_points(group="inspect_ai")
    if not any(p.name == "arcade_gym" and p.value == ENTRY for p in points):
        pytest.skip("this checkout is not installed with its entry point (pip install -e .)")
    code = textwrap.dedent(
        f"""
        import json, sys
        from inspect_ai import eval
        sys.path.insert(0, {str(ROOT)!r})
        from tests.evaluation.inspect_tasks.mock import mock_model
        grid = json.load(open(sys.argv[1]))
        model = mock_model([json.dumps({{"grid": grid}})])
        (log,) = eval("arcade_gym/sudoku", model=model, display="none",
                      task_args={{"limit": 1, "log_dir": sys.argv[2]}}, log_dir=sys.argv[3])
        (sample,) = log.samples
        print(log.status, log.eval.task, next(iter(sample.scores.values())).value)
        """
    )
    from arcade_gym.sudoku.sets import set_grids

    grid_file = tmp_path / "grid.json"
    grid_file.write_text(json_dump(set_grids("v1")[0]["solution"]))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code, str(grid_file), str(tmp_path / "g"), str(tmp_path / "i")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["success", "arcade_gym/sudoku", "1.0"]


def json_dump(value: object) -> str:
    import json

    return json.dumps(value)


@pytest.mark.slow
def test_the_inspect_command_plays_sudoku_and_tetris_and_the_logs_verify(tmp_path: Path) -> None:
    """`inspect eval arcade_gym/sudoku --model mockllm/model` (and Tetris Bench) from the command
    line, then `arcade-eval verify` on the event logs they wrote. The mock's default reply is
    unreadable: the grids end unreadable and the Tetris game ends after three unusable answers."""
    pytest.importorskip("inspect_ai")
    from inspect_ai.model._providers.mockllm import MockLLM

    if hasattr(MockLLM, "_ensure_default_usage"):
        pytest.skip("this Inspect's mock counts tokens with tiktoken, which needs the network")
    points = importlib.metadata.entry_points(group="inspect_ai")
    if not any(p.name == "arcade_gym" and p.value == ENTRY for p in points):
        pytest.skip("this checkout is not installed with its entry point (pip install -e .)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    games = tmp_path / "games"
    for task, argument in (("sudoku", "limit=2"), ("tetris_bench", "seeds=1")):
        command = [sys.executable, "-m", "inspect_ai", "eval", f"arcade_gym/{task}"]
        command += ["--model", "mockllm/model", "-T", argument, "-T", f"log_dir={games}"]
        command += ["--log-dir", str(tmp_path / "inspect"), "--display", "none"]
        out = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=600,
        )
        assert out.returncode == 0, out.stderr[-2000:]
    verify = subprocess.run(
        [sys.executable, "-m", "evaluation.cli", "verify", str(games)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert verify.returncode == 0, verify.stdout[-2000:]
    assert verify.stdout.count("OK    ") == 3
