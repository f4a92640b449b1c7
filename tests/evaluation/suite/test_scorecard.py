"""The scorecard: a row per policy, a column per benchmark, the normalised score, the labels."""

from __future__ import annotations

import json

import pytest

from evaluation.suite import scorecard
from evaluation.suite.part import QUICK_LABEL, Cell, Headline, Part
from evaluation.suite.runner import part_from_dict


def _parts() -> list[Part]:
    tetris = Part("tetris-bench", "complete", 0, [], "tetris-bench", "leaderboard.md", "logs")
    tetris.cells = [
        Cell("random", "random", headlines=[Headline("IQ score", 500.0, 400.0, 600.0)]),
        Cell(
            "heuristic",
            "heuristic",
            headlines=[Headline("IQ score", 250_250.0)],
            cost_usd=0.5,
            prompt_tokens=10,
            completion_tokens=2,
            failures={"invalid": 1, "illegal": 0, "timeouts": 2, "aborted": 0},
        ),
    ]
    tetris.references = {"IQ score": {"random": 500.0, "strongest": 500_000.0}}
    chess = Part("chess-ladder", "stopped", 1, [], "chess-ladder")
    sudoku = Part("sudoku", "complete", 0, [Cell("random", None, "not applicable")], "sudoku")
    return [tetris, chess, sudoku]


def test_normalised_is_zero_at_random_and_100_at_the_strongest() -> None:
    refs = {"random": 10.0, "strongest": 110.0}
    assert scorecard.normalised(10.0, refs) == 0
    assert scorecard.normalised(110.0, refs) == 100
    assert scorecard.normalised(60.0, refs) == pytest.approx(50)
    assert scorecard.normalised(60.0, {"random": 10.0}) is None
    assert scorecard.normalised(60.0, {"random": 5.0, "strongest": 5.0}) is None


def test_a_row_per_policy_a_column_per_benchmark_and_the_quick_label_everywhere() -> None:
    card = scorecard.build(["random", "heuristic"], "quick", _parts())
    assert [row["policy"] for row in card["rows"]] == ["random", "heuristic"]
    for row in card["rows"]:
        assert list(row["cells"]) == ["tetris-bench", "chess-ladder", "sudoku"]
        assert all(cell["label"] == QUICK_LABEL for cell in row["cells"].values())
    heuristic = card["rows"][1]["cells"]
    head = heuristic["tetris-bench"]["headlines"][0]
    assert head["normalised"] == pytest.approx(50.0)
    assert heuristic["tetris-bench"]["report"] == "tetris-bench/leaderboard.md"
    assert heuristic["tetris-bench"]["costUsd"] == 0.5
    assert heuristic["chess-ladder"]["status"] == "stopped"
    assert card["rows"][0]["cells"]["sudoku"]["status"] == "not applicable"
    json.loads(scorecard.to_json(card))
    text = scorecard.markdown(card)
    table = [line for line in text.splitlines() if line.startswith("| ") and "policy" not in line]
    assert table and all(QUICK_LABEL in line for line in table)
    assert "$0.50" in text and "10 in / 2 out" in text and "1 / 0 / 2 / 0" in text
    assert "[report](tetris-bench/leaderboard.md)" in text


def test_an_official_card_says_official() -> None:
    card = scorecard.build(["random"], "official", _parts())
    assert QUICK_LABEL not in scorecard.markdown(card)
    assert card["label"] == "official"


def test_a_part_reads_back_as_the_manifest_stored_it() -> None:
    from dataclasses import asdict

    part = _parts()[0]
    again = part_from_dict(json.loads(json.dumps(asdict(part))))
    assert again == part
