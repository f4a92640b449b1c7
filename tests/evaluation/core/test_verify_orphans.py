"""`arcade-eval verify RUN_DIR` fails a result file that has no log: nothing proves it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from evaluation import cli


def test_a_planted_result_without_a_log_fails_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    args = ["tetris-bench", "--policy", "random", "--seeds", "1", "--modes", "iq", "--quiet"]
    assert cli.main([*args, "--output-dir", str(run)]) == 0
    assert cli.main(["verify", str(run)]) == 0
    capsys.readouterr()
    real = run / "results" / "random" / "IQ" / "seed-01.json"
    shutil.copy(real, real.with_name("seed-02.json"))
    assert cli.main(["verify", str(run)]) == 1
    out = capsys.readouterr().out
    assert "seed-02.json: a result file without its log" in out and "seed-01.jsonl" in out
