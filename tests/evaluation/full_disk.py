"""One check for every benchmark's run: a full disk stops it with one line, and it resumes."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest

from evaluation.cli import main
from evaluation.core import eventlog


def full_disk_stops_and_resumes(
    args: list[str],
    run: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *,
    full_at: int,
) -> Path:
    """Run `arcade-eval ARGS --output-dir RUN` with the disk full at the `full_at`-th event line:
    exit 2 and one line on stderr naming the log and saying the same command resumes. Then the
    same command resumes the run to its end and `arcade-eval verify` passes it. Returns the log
    the line named (inside RUN/logs)."""
    real_dumps = eventlog.dumps
    lines = {"written": 0}

    def dumps_then_full(event: Any) -> str:
        lines["written"] += 1
        if lines["written"] == full_at:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_dumps(event)

    command = [*args, "--output-dir", str(run)]
    monkeypatch.setattr(eventlog, "dumps", dumps_then_full)
    capsys.readouterr()
    assert main(command) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    start = f"arcade-eval {args[0]}: no space left on device writing "
    end = ".jsonl; free space and run the same command to resume"
    assert err[0].startswith(start) and err[0].endswith(end), err[0]
    written = Path(err[0][len(start) : -len(end) + len(".jsonl")])
    assert written.is_relative_to(run / "logs")
    monkeypatch.setattr(eventlog, "dumps", real_dumps)
    assert main(command) == 0
    assert main(["verify", str(run)]) == 0
    return written
