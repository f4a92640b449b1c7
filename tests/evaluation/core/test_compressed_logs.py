"""Logs shipped compressed (`*.jsonl.xz`) are read by the one log reader: the same contents as
the plain log, verified and found by `verify` like it, and a hostile file (a decompression bomb,
a cut-off or padded stream, not xz at all) is refused with a clear error, never inflated
beyond the bound."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from evaluation.benchmarks.tetris_bench.episode import play_tetris
from evaluation.cli import main
from evaluation.core import eventlog
from evaluation.core.eventlog import (
    LogFormatError,
    is_log_name,
    log_stem,
    read_header,
    read_log,
)
from evaluation.core.verify import verify_log, verify_paths
from tests.evaluation.tetris_bench.test_logs_verify import Scripted, lowest, valid


@pytest.fixture
def plain_log(tmp_path: Path) -> Path:
    path = tmp_path / "games" / "iq.jsonl"
    play_tetris(Scripted([valid, lowest]), "seed-01", "IQ", path, piece_cap=15)
    return path


def compress(plain: Path, name: str = "packed.jsonl.xz") -> Path:
    packed = plain.with_name(name)
    packed.write_bytes(lzma.compress(plain.read_bytes(), preset=9))
    return packed


def test_a_compressed_log_reads_and_verifies_as_the_plain_one(plain_log: Path) -> None:
    packed = compress(plain_log)
    assert packed.stat().st_size < plain_log.stat().st_size
    ours, theirs = read_log(packed), read_log(plain_log)
    assert (ours.header, ours.events, ours.result) == (theirs.header, theirs.events, theirs.result)
    assert read_header(packed) == read_header(plain_log) == theirs.header
    report = verify_log(packed)
    assert report.ok, report.message
    assert report.result == verify_log(plain_log).result


def test_verify_finds_compressed_logs_in_a_folder(
    plain_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compress(plain_log)
    (plain_log.parent / "notes.xz").write_bytes(lzma.compress(b"not a log"))
    names = [Path(r.path).name for r in verify_paths([plain_log.parent])]
    assert names == ["iq.jsonl", "packed.jsonl.xz"]
    assert main(["verify", str(plain_log.parent)]) == 0
    assert capsys.readouterr().out.count("OK") == 2


def test_log_names_and_stems() -> None:
    assert is_log_name("seed-01.jsonl") and is_log_name("seed-01.jsonl.xz")
    assert not is_log_name("seed-01.json") and not is_log_name("seed-01.xz")
    assert log_stem("a/seed-01.jsonl.xz") == log_stem("seed-01.jsonl") == "seed-01"
    assert log_stem("r2.jsonl.xz") == "r2"


def test_a_decompression_bomb_is_refused_before_it_inflates(
    plain_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bomb = plain_log.with_name("bomb.jsonl.xz")
    bomb.write_bytes(lzma.compress(read_text_header(plain_log) + b" " * 4_000_000, preset=1))
    assert bomb.stat().st_size < 10_000
    monkeypatch.setattr(eventlog, "MAX_LOG_BYTES", 1_000_000)
    with pytest.raises(LogFormatError, match="decompresses to more than"):
        read_log(bomb)
    report = verify_log(bomb)
    assert not report.ok and "decompresses to more than" in report.message


def read_text_header(plain: Path) -> bytes:
    return plain.read_bytes().split(b"\n", 1)[0] + b"\n"


def test_a_cut_off_padded_or_foreign_stream_is_not_a_log(plain_log: Path) -> None:
    whole = lzma.compress(plain_log.read_bytes())
    cut = plain_log.with_name("cut.jsonl.xz")
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(LogFormatError, match="cut off"):
        read_log(cut)
    padded = plain_log.with_name("padded.jsonl.xz")
    padded.write_bytes(whole + b"junk")
    with pytest.raises(LogFormatError, match="data after the xz stream"):
        read_log(padded)
    foreign = plain_log.with_name("foreign.jsonl.xz")
    foreign.write_bytes(plain_log.read_bytes())  # not compressed at all
    with pytest.raises(LogFormatError, match="not an xz-compressed log"):
        read_log(foreign)
    assert read_header(foreign) is None
    for path in (cut, padded, foreign):
        assert not verify_log(path).ok


def test_a_header_line_is_read_within_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(eventlog, "MAX_HEADER_BYTES", 100)
    long = tmp_path / "long.jsonl.xz"
    long.write_bytes(lzma.compress(b'{"type": "header", "pad": "' + b"x" * 10_000 + b'"}\n'))
    assert read_header(long) is None  # the line is cut at the bound: not a JSON object
    short = tmp_path / "short.jsonl.xz"
    short.write_bytes(lzma.compress(b'{"type": "header"}\n'))
    assert read_header(short) == {"type": "header"}
    assert read_header(tmp_path / "missing.jsonl") is None
