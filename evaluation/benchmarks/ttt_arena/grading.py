"""Grading of the tic-tac-toe arena (`docs/rules/tictactoe.md`): weights, the weighted score,
grades, the C cap."""

from __future__ import annotations

from collections.abc import Mapping

WEIGHTS: dict[str, int] = {
    "win_in_1": 10,
    "block": 10,
    "fork": 12,
    "forced_win_5": 14,
    "fork_defense": 14,
    "perfect_play": 10,
    "legality": 5,
    "match_play": 25,
}
"""Category -> weight (they sum to 100)."""

GRADES: tuple[tuple[str, float], ...] = (
    ("S+", 98.0),
    ("S", 93.0),
    ("A", 85.0),
    ("B", 75.0),
    ("C", 65.0),
    ("D", 50.0),
)
"""Grade -> minimum score, best first; anything below the last is F."""

CAP_GRADE = "C"
"""The best grade an engine with any illegal move or runtime error can get."""

_ORDER = [g for g, _ in GRADES] + ["F"]


def weighted_score(accuracy: Mapping[str, float]) -> float:
    """The weighted mean accuracy, 0..100, rounded to one decimal (the published figure).

    `accuracy` maps every category of `WEIGHTS` to a fraction in [0, 1].
    """
    missing = set(WEIGHTS) - set(accuracy)
    if missing:
        raise ValueError(f"accuracy is missing {sorted(missing)}")
    for name, value in accuracy.items():
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"accuracy of {name} must be in [0, 1], got {value}")
    total = sum(WEIGHTS.values())
    return round(100.0 * sum(WEIGHTS[c] * accuracy[c] for c in WEIGHTS) / total, 1)


def grade_for(score: float, *, illegal_moves: int = 0) -> str:
    """The grade of a (rounded) score; any illegal move or runtime error caps it at C."""
    grade = next((g for g, minimum in GRADES if score >= minimum), "F")
    if illegal_moves > 0 and _ORDER.index(grade) < _ORDER.index(CAP_GRADE):
        return CAP_GRADE
    return grade


def match_points(result: str, opponent: str) -> float:
    """Match play points: a win 1, a draw 1/2 (1 against Perfect), a loss 0."""
    if result == "win":
        return 1.0
    if result == "draw":
        return 1.0 if opponent == "perfect" else 0.5
    if result == "loss":
        return 0.0
    raise ValueError(f"result must be win, draw or loss, got {result!r}")
