"""How a benchmark command ends: the reports of a finished run written and shown one way, and an
unfinished run said one way with one exit status.

Every run command (`arena`, `sudoku`, `tetris`, ...) stops the same ways: interrupted (Ctrl-C or a
stop on our side: 130), or finished with games aborted by failures on our side (1, each listed). In
both cases repeating the command into the same output directory finishes the run.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from evaluation.core.rundir import write_text_atomic

INTERRUPTED = 130
ABORTED = 1


def unfinished_exit(
    output_dir: str | Path,
    *,
    interrupted: bool,
    missing: int,
    aborted: Sequence[str],
    unit: str = "games",
    out: TextIO | None = None,
) -> int | None:
    """Say why a run is not finished and return its exit status (None: it finished)."""
    stream = out if out is not None else sys.stderr
    if interrupted:
        print(
            f"interrupted: {missing} {unit} missing; repeat the command (or add --resume) with "
            f"--output-dir {output_dir} to finish the run",
            file=stream,
        )
        return INTERRUPTED
    if aborted:
        for line in aborted:
            print(f"aborted (not counted): {line}", file=stream)
        print(
            f"{len(aborted)} {unit} aborted by failures on our side; repeat the command with "
            f"--output-dir {output_dir} to play them again",
            file=stream,
        )
        return ABORTED
    return None


def default_output_dir(benchmark: str) -> Path:
    """A fresh `runs/<benchmark>-<UTC time>` for a run given no `--output-dir`."""
    return Path(f"runs/{benchmark}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}")


def write_reports(
    output_dir: Path,
    files: Mapping[str, str],
    shown: str,
    *,
    copy: tuple[str, str | None] | None = None,
) -> None:
    """Write a finished run's report files into `output_dir`, print `shown` and where the run
    is, and copy one report (`(name, path)`, e.g. `--json PATH`) where the user asked."""
    for name, text in files.items():
        write_text_atomic(output_dir / name, text if text.endswith("\n") else text + "\n")
    print(shown)
    print(f"\nrun written to {output_dir} (verify with: arcade-eval verify {output_dir})")
    if copy is not None and copy[1]:
        path = Path(copy[1])
        write_text_atomic(path, files[copy[0]])
        print(f"wrote {path}")
