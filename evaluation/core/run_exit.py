"""How a benchmark command ends when its run did not finish: one way to say it, one exit status.

Every run command (`arena`, `sudoku`, `tetris`, ...) stops the same ways: interrupted (Ctrl-C or a
stop on our side: 130), or finished with games aborted by failures on our side (1, each listed). In
both cases repeating the command into the same output directory finishes the run.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

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
