"""Run-level errors are defined once (`evaluation/core/errors.py`), and a policy that can no
longer answer is a run error: every benchmark's command says so in one line and exits 2."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from evaluation.cli import main
from evaluation.core.errors import PolicyUnusableError, RunError

ROOT = Path(__file__).resolve().parents[3]
RUN_LEVEL = {"RunError", "PolicyUnusableError", "PolicyStoppedError", "FatalBrainError"}
RUN_LEVEL |= {"FatalPolicyError", "NarcadeError"}


def test_the_run_level_errors_are_defined_in_one_module() -> None:
    where: dict[str, list[str]] = {}
    for path in sorted((ROOT / "evaluation").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in RUN_LEVEL:
                where.setdefault(node.name, []).append(path.relative_to(ROOT).as_posix())
    assert where == {
        name: ["evaluation/core/errors.py"]
        for name in ("RunError", "PolicyUnusableError", "PolicyStoppedError")
    }


class _Refused:
    """A policy whose key is refused: it latches `fatal_error` like a chat policy does."""

    slug = name = description = "refused"
    kind = "llm"
    adapter_version = "1"

    def __init__(self) -> None:
        self.fatal_error: Exception | None = None

    def act(self, question: Any, ctx: Any) -> Any:
        self.fatal_error = PermissionError("401 Unauthorized")
        raise self.fatal_error


def refused(game: str, seed: int) -> Any:
    return _Refused()


def test_a_sudoku_policy_that_cannot_answer_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = f"py:{__name__}:refused"
    argv = ["sudoku", "--policy", spec, "--tiers", "1", "--quiet"]
    assert main([*argv, "--output-dir", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot answer" in err[0] and "401" in err[0]
    assert issubclass(PolicyUnusableError, RunError)
