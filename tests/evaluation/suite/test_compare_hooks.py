"""The benchmarks' `compare` hooks on hand-written result files: NARCADE pairs episodes by seed
on each game with the seed-block bootstrap, Sudoku grids within tiers; anything unpaired (a
missing policy, the same spec twice, a result of the wrong type) gives no comparison."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.benchmarks.narcade.compare import compare as narcade_compare
from evaluation.benchmarks.sudoku.compare import compare as sudoku_compare
from evaluation.core.stats import paired_bootstrap


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_narcade_pairs_seeds_per_game(tmp_path: Path) -> None:
    scores = {"a": {100: 5, 101: 9, 102: 2}, "b": {100: 3, 101: 9, 102: 4, 103: 7}}
    for spec, by_seed in scores.items():
        episodes = [{"seed": s, "score": v} for s, v in by_seed.items()]
        _write(tmp_path / "results" / spec / "snake.json", {"episodes": episodes})
    _write(tmp_path / "results" / "a" / "tetris.json", {"episodes": [{"seed": 1, "score": "9"}]})
    (paired,) = narcade_compare(tmp_path, "a", "b")  # tetris: no number; minesweeper: no file
    assert (paired.label, paired.unit) == ("Snake food", "seed")
    assert paired.differences == {"100": 2.0, "101": 0.0, "102": -2.0}  # seed 103: b only
    assert paired.summary == paired_bootstrap([5, 9, 2], [3, 9, 4], 2000, 0)
    assert narcade_compare(tmp_path, "a", "a") == []
    assert narcade_compare(tmp_path, "a", "missing") == []


def test_sudoku_pairs_grids_within_tiers(tmp_path: Path) -> None:
    outcomes = {
        "a": {"v1-t1-1": "solved", "v1-t1-2": "solved", "v1-t4-1": "wrong", "v1-t4-2": "solved"},
        "b": {"v1-t1-1": "solved", "v1-t1-2": "wrong", "v1-t4-1": "wrong", "v1-t4-2": "wrong"},
    }
    for spec, grids in outcomes.items():
        for grid, outcome in grids.items():
            tier = int(grid.split("-t")[1].split("-")[0])
            record = {"gridId": grid, "tier": tier, "outcome": outcome}
            _write(tmp_path / "results" / spec / f"{grid}.json", record)
    (paired,) = sudoku_compare(tmp_path, "a", "b")
    # tier 1: a 100%, b 50%; tier 4: a 50%, b 0%: scores 75 and 25
    assert paired.summary.mean_diff == pytest.approx(50.0)
    assert (paired.summary.wins_a, paired.summary.wins_b, paired.summary.ties) == (2, 0, 2)
    assert 0.0 <= paired.summary.low <= 50.0 <= paired.summary.high <= 100.0
    flipped = paired.flipped()
    assert flipped.summary.mean_diff == -50.0 and flipped.summary.low == -paired.summary.high
    assert sudoku_compare(tmp_path, "a", "nobody") == []


def test_the_suite_pages_name_no_benchmark_and_no_game() -> None:
    import evaluation.benchmarks  # noqa: F401  (registers every benchmark)
    from arcade_gym.games import descriptors
    from evaluation.core.registry import benchmarks

    names = {b.name for b in benchmarks()} | {"tetris", "sudoku", "arena", "narcade", "chess"}
    for game in descriptors():
        names |= {game.name, *game.games}
    root = Path(__file__).resolve().parents[3] / "evaluation"
    for module in ("suite/site_pages.py", "suite/site_inputs.py", "suite/paired.py"):
        text = (root / module).read_text().lower()
        assert not sorted(n for n in names if n.lower() in text), module
