"""`chess calibrate` writes its ladder by atomic replace and appends its log through no link."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from evaluation.benchmarks.chess_ladder.calibrate import _open_append


def test_the_calibration_log_is_never_written_through_a_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("keep\n")
    link = tmp_path / "run" / "calibration.jsonl"
    link.parent.mkdir()
    link.symlink_to(outside)
    with pytest.raises(OSError) as caught:
        _open_append(link)
    assert caught.value.errno == errno.ELOOP
    assert outside.read_text() == "keep\n"


def test_the_calibration_log_appends(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "calibration.jsonl"
    for line in ("a\n", "b\n"):
        with _open_append(path) as handle:
            handle.write(line)
    assert path.read_text() == "a\nb\n"
