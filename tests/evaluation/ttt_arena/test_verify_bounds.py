"""Arena verify trusts no header: a free match's `bf:` engine file is read only as the very file
the match was played against (bounded, no link out of its folder, no digest revealed), and the
fields that size work (`timeoutMs`, the seed, the board size) are checked before any replay."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaluation import cli
from evaluation.benchmarks.ttt_arena.defaults import DEFAULT_SEED
from evaluation.benchmarks.ttt_arena.episode import play_arena_game
from evaluation.benchmarks.ttt_arena.runner import _items
from evaluation.core.verify import verify_log
from policies.tictactoe import make_player
from tests.evaluation.ttt_arena.test_free_match import WINNING_LINE, lines, play, rewrite

REPO = Path(__file__).resolve().parents[3]
FIRST_EMPTY = REPO / "seeds" / "arena" / "entries" / "first-empty" / "engine.bf"


@pytest.fixture
def free_log(tmp_path: Path) -> Path:
    """A verified free match against a copy of the first-empty engine."""
    engine = tmp_path / "engines" / "engine.bf"
    engine.parent.mkdir()
    shutil.copyfile(FIRST_EMPTY, engine)
    log = tmp_path / "free.jsonl"
    play(engine, log, WINNING_LINE)
    assert verify_log(log).ok
    return log


@pytest.fixture
def position_log(tmp_path: Path) -> Path:
    log = tmp_path / "position.jsonl"
    item = _items(DEFAULT_SEED)[("positions", "fork-3-01")]
    play_arena_game(make_player("tactician"), item, log, suite_seed=DEFAULT_SEED)
    assert verify_log(log).ok
    return log


def with_settings(log: Path, **changes: Any) -> list[dict[str, Any]]:
    events = lines(log)
    events[0]["settings"].update(changes)
    rewrite(log, events)
    return events


def test_a_free_match_naming_another_file_is_refused_without_revealing_it(
    free_log: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("not an engine, someone's file")
    with_settings(free_log, opponentSpec=f"bf:{secret}")
    report = verify_log(free_log)
    assert report.status == "fail" and "has changed" in report.message
    assert hashlib.sha256(secret.read_bytes()).hexdigest() not in report.message


def test_a_free_match_engine_that_is_a_link_out_of_its_folder_is_refused(
    free_log: Path, tmp_path: Path
) -> None:
    spec = lines(free_log)[0]["settings"]["opponentSpec"]
    engine = Path(spec[3:])
    real = tmp_path / "elsewhere" / "real.bf"
    real.parent.mkdir()
    shutil.move(engine, real)
    engine.symlink_to(real)
    report = verify_log(free_log)
    assert report.status == "fail"
    assert f"{engine} is a symbolic link to {real}" in report.message


@pytest.mark.parametrize("kind", ["fifo", "huge", "relative"])
def test_a_free_match_engine_that_is_no_small_regular_file_is_refused(
    free_log: Path, tmp_path: Path, kind: str
) -> None:
    if kind == "fifo":
        path = tmp_path / "pipe.bf"
        os.mkfifo(path)
        expected = "missing"
    elif kind == "huge":
        path = tmp_path / "huge.bf"
        with open(path, "wb") as handle:
            handle.truncate(64 * 1024 * 1024)  # sparse: never read whole
        expected = "larger than 8 MB"
    else:
        path = Path("engines/engine.bf")
        expected = "absolute path"
    with_settings(free_log, opponentSpec=f"bf:{path}")
    report = verify_log(free_log)
    assert report.status == "fail" and expected in report.message


BAD_TIMEOUTS = [-1, 0, -0.5, 1e18, "20000", [20000], True, {"$type": "float", "value": "Infinity"}]


@pytest.mark.parametrize("timeout", BAD_TIMEOUTS)
@pytest.mark.parametrize("which", ["position", "free"])
def test_a_timeout_that_is_no_positive_finite_limit_is_refused_naming_the_field(
    position_log: Path, free_log: Path, which: str, timeout: Any
) -> None:
    log = position_log if which == "position" else free_log
    with_settings(log, timeoutMs=timeout)
    report = verify_log(log)
    assert report.status == "fail" and "settings.timeoutMs" in report.message


@pytest.mark.parametrize("literal", ["Infinity", "-Infinity", "NaN"])
@pytest.mark.parametrize("which", ["position", "free"])
def test_infinite_or_nan_timeout_literals_are_refused(
    position_log: Path, free_log: Path, which: str, literal: str
) -> None:
    log = position_log if which == "position" else free_log
    text = log.read_text().replace('"timeoutMs":20000.0', f'"timeoutMs":{literal}', 1)
    text = text.replace('"timeoutMs": 20000.0', f'"timeoutMs": {literal}', 1)
    assert literal in text.splitlines()[0]
    log.write_text(text)
    report = verify_log(log)
    assert report.status == "fail" and "settings.timeoutMs" in report.message


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7"])
def test_a_seed_out_of_range_is_refused_naming_the_field(free_log: Path, seed: Any) -> None:
    events = lines(free_log)
    events[0]["seed"] = seed
    rewrite(free_log, events)
    report = verify_log(free_log)
    assert report.status == "fail" and "header field seed" in report.message


@pytest.mark.parametrize("size", ["3", 3.0, 10**9, None])
def test_a_free_match_board_size_that_is_not_the_arenas_is_refused(
    free_log: Path, size: Any
) -> None:
    with_settings(free_log, size=size)
    report = verify_log(free_log)
    assert report.status == "fail" and "size" in report.message


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--timeout-ms", "inf"], "--timeout-ms must be > 0 and at most"),
        (["--timeout-ms", "nan"], "--timeout-ms must be > 0 and at most"),
        (["--timeout-ms", "1e18"], "--timeout-ms must be > 0 and at most"),
        (["--seed", "-1"], "--seed must be an integer from 0"),
    ],
)
def test_a_run_refuses_what_verify_would_refuse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out = tmp_path / "run"
    assert cli.main(["ttt-arena", "--policy", "random", "--output-dir", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
