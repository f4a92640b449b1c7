"""Calibration end to end on a tiny schedule (slow: Stockfish plays 0.5 s a move)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.benchmarks.chess_ladder.calibrate import (
    calibrate,
    shutout_notes,
    stockfish_rungs,
)
from evaluation.benchmarks.chess_ladder.ladder import parse_ladder
from evaluation.benchmarks.chess_ladder.ratings import PairResult
from tests.engines.stockfish import stockfish_or_skip


def test_stockfish_rungs_span_the_binarys_range() -> None:
    assert stockfish_rungs(1350, 2850) == [1350, 1600, 1850, 2100, 2350, 2600, 2850]
    assert stockfish_rungs(1320, 1400) == [1320, 1400]


def test_shutouts_are_noted() -> None:
    notes = shutout_notes([PairResult("a", "b", 0.0, 4), PairResult("a", "c", 1.5, 3)])
    assert len(notes) == 1 and "b scored 4/4 against a" in notes[0]


@pytest.mark.slow
def test_a_tiny_calibration_writes_a_ladder_file(tmp_path: Path) -> None:
    stockfish_or_skip()
    out = tmp_path / "ladder.json"
    log = tmp_path / "games.jsonl"
    doc = calibrate(out, games_vs_engine=(1, 0, 0), games_between_weak=1, log=log, progress=str)
    assert json.loads(out.read_text()) == doc
    ladder = parse_ladder(doc)
    assert {"random", "greedy", "material-2ply"} <= {r.name for r in ladder.rungs}
    assert doc["calibration"]["games"] == 4 == len(log.read_text().splitlines())
    assert "engine-anchored" in doc["scale"]
