"""Scoring Sudoku answers: one answer against its grid, and a policy's score over a set.

Per grid: the outcome (`solved`, `wrong` = some filled cell differs from the solution,
`empty` = no wrong cell but some left empty, `changedGiven` = a given digit altered; that outcome
wins over the others, then `wrong` over `empty`; `unreadable` = no grid even after the retry),
cells right (blank cells filled correctly), broke the rules (a complete grid repeating a digit in
a row, column or box), and cell accuracy two ways: by the tier each cell needs (`cell_tiers`: the
hardest technique on the reference grader's path up to the step that placed it, so a naked single
found only after an X-Wing needs tier 4) and by the technique the grader placed it with (its
label: naked single, hidden single, ..., or beyond).

The score is the mean over tiers of each tier's solve rate, 0..100, so every tier weighs the
same. Its 95% interval adds up the tiers' uncertainty: each tier's rate gets the Agresti-Coull
(Wilson-centred) variance `p~(1 - p~) / (n + z^2)` with `p~ = (solved + z^2/2) / (n + z^2)`, the
variances of the mean add (`sum var_t / T^2`), and the half-width `z * sqrt(...)` is laid around
the observed score, clipped to 0..100. Unlike the plain normal interval it does not collapse to
zero width when a tier is all solved or all failed, which with six grids a tier is common.

Confidence is scored with the Brier score over every answer: an answer without a confidence (none
given, or no readable grid) counts as a confidence of 50, so leaving it out never improves the
score (always 50 scores 0.25); the number of answers without one is reported beside it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from arcade_gym.sudoku.grader import grade
from arcade_gym.sudoku.rules import BEYOND, UNITS, parse_puzzle
from evaluation.core.stats import brier

Outcome = Literal["solved", "wrong", "empty", "changedGiven", "unreadable"]
Z95 = 1.959963984540054
SURE = 90.0
"""Confidence (0..100) at or above which an unsolved answer counts as "sure but wrong"."""
MISSING_CONFIDENCE = 50.0
"""The confidence an answer without one counts as in the Brier score."""


@functools.lru_cache(maxsize=64)
def cell_tiers(puzzle: str) -> tuple[int, ...]:
    """Per cell, the tier it needs (0 for a given, 7 for a cell no technique of tiers 1..6
    places): the hardest tier on the grader's path up to the step placing it."""
    result = grade(parse_puzzle(puzzle))
    needs = [0] * 81
    hardest = 0
    for step in result.steps:
        hardest = max(hardest, step.tier)
        for cell, _ in step.placements:
            needs[cell] = hardest
    for cell, label in enumerate(result.labels):
        if label == "beyond":
            needs[cell] = BEYOND
    return tuple(needs)


@dataclass(frozen=True)
class GridScore:
    """The grading of one answer (see the module docstring)."""

    grid_id: str
    tier: int
    outcome: Outcome
    blanks: int
    cells_right: int
    wrong_cells: int
    empty_cells: int
    changed_givens: int
    broke_rules: bool
    confidence: float | None
    by_technique: dict[str, tuple[int, int]] = field(default_factory=dict)
    by_need: dict[int, tuple[int, int]] = field(default_factory=dict)
    """(cells right, cells) of the blank cells by the tier each needs (`cell_tiers`)."""

    @property
    def solved(self) -> bool:
        return self.outcome == "solved"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GridScore:
        """The record `to_dict` wrote (a saved result)."""
        return cls(
            grid_id=data["gridId"],
            tier=int(data["tier"]),
            outcome=data["outcome"],
            blanks=int(data["blanks"]),
            cells_right=int(data["cellsRight"]),
            wrong_cells=int(data["wrongCells"]),
            empty_cells=int(data["emptyCells"]),
            changed_givens=int(data["changedGivens"]),
            broke_rules=bool(data["brokeRules"]),
            confidence=data["confidence"],
            by_technique={k: (int(v[0]), int(v[1])) for k, v in data["byTechnique"].items()},
            by_need={int(k): (int(v[0]), int(v[1])) for k, v in data.get("byNeed", {}).items()},
        )

    def to_dict(self) -> dict[str, Any]:
        """camelCase JSON record."""
        return {
            "gridId": self.grid_id,
            "tier": self.tier,
            "outcome": self.outcome,
            "blanks": self.blanks,
            "cellsRight": self.cells_right,
            "wrongCells": self.wrong_cells,
            "emptyCells": self.empty_cells,
            "changedGivens": self.changed_givens,
            "brokeRules": self.broke_rules,
            "confidence": self.confidence,
            "byTechnique": {k: list(v) for k, v in self.by_technique.items()},
            "byNeed": {str(k): list(v) for k, v in sorted(self.by_need.items())},
        }


def repeats_a_digit(grid: str) -> bool:
    """Whether a digit appears twice in some row, column or box (blanks `0` ignored)."""
    for unit in UNITS:
        digits = [grid[c] for c in unit if grid[c] != "0"]
        if len(digits) != len(set(digits)):
            return True
    return False


def score_answer(
    record: dict[str, Any], answer_grid: str | None, confidence: float | None
) -> GridScore:
    """Grade one answer (81 digits, `0` empty; None when unreadable) against a set record
    (`id`, `tier`, `puzzle`, `solution`, `labels`)."""
    puzzle, solution = record["puzzle"], record["solution"]
    labels: Sequence[str] = record.get("labels") or ["beyond"] * 81
    blanks = [c for c in range(81) if puzzle[c] == "0"]
    needs = cell_tiers(puzzle)
    by_technique: dict[str, list[int]] = {}
    by_need: dict[int, list[int]] = {}
    for c in blanks:
        right = answer_grid is not None and answer_grid[c] == solution[c]
        for totals in (
            by_technique.setdefault(labels[c], [0, 0]),
            by_need.setdefault(needs[c], [0, 0]),
        ):
            totals[0] += right
            totals[1] += 1
    techniques = {k: (v[0], v[1]) for k, v in by_technique.items()}
    tiers = {k: (v[0], v[1]) for k, v in sorted(by_need.items())}
    if answer_grid is None:
        return GridScore(
            record["id"], record["tier"], "unreadable", len(blanks), 0, 0, len(blanks), 0,
            False, confidence, techniques, tiers,
        )  # fmt: skip
    changed = sum(1 for c in range(81) if puzzle[c] != "0" and answer_grid[c] != puzzle[c])
    right = sum(1 for c in blanks if answer_grid[c] == solution[c])
    empty = sum(1 for c in blanks if answer_grid[c] == "0")
    wrong = len(blanks) - right - empty
    outcome: Outcome
    if changed:
        outcome = "changedGiven"
    elif wrong:
        outcome = "wrong"
    elif empty:
        outcome = "empty"
    else:
        outcome = "solved"
    complete = "0" not in answer_grid
    return GridScore(
        grid_id=record["id"],
        tier=record["tier"],
        outcome=outcome,
        blanks=len(blanks),
        cells_right=right,
        wrong_cells=wrong,
        empty_cells=empty,
        changed_givens=changed,
        broke_rules=complete and repeats_a_digit(answer_grid),
        confidence=confidence,
        by_technique=techniques,
        by_need=tiers,
    )


@dataclass(frozen=True)
class Score:
    """A policy's score over a set: mean per-tier solve rate (0..100) and its 95% interval."""

    score: float
    low: float
    high: float
    tiers: dict[int, tuple[int, int]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "ci95": [self.low, self.high],
            "tiers": {str(t): {"solved": s, "grids": n} for t, (s, n) in self.tiers.items()},
        }


def tier_score(results: Iterable[GridScore], z: float = Z95) -> Score:
    """Mean over tiers of the per-tier solve rate, with the interval of the module docstring."""
    tiers: dict[int, list[int]] = {}
    for r in results:
        solved_total = tiers.setdefault(r.tier, [0, 0])
        solved_total[0] += r.solved
        solved_total[1] += 1
    if not tiers:
        raise ValueError("no graded answers to score")
    count = len(tiers)
    mean = sum(s / n for s, n in tiers.values()) / count
    variance = 0.0
    for s, n in tiers.values():
        shrunk = (s + z * z / 2) / (n + z * z)
        variance += shrunk * (1 - shrunk) / (n + z * z)
    half = z * math.sqrt(variance) / count
    return Score(
        score=100 * mean,
        low=100 * max(0.0, mean - half),
        high=100 * min(1.0, mean + half),
        tiers={t: (v[0], v[1]) for t, v in sorted(tiers.items())},
    )


def confidence_brier(results: Iterable[GridScore]) -> float | None:
    """Brier score of the stated confidences (0..100 read as probabilities) against solved, an
    answer without a confidence counting as `MISSING_CONFIDENCE` (50); None without answers."""
    return brier(
        ((MISSING_CONFIDENCE if r.confidence is None else r.confidence) / 100, r.solved)
        for r in results
    )


def missing_confidences(results: Iterable[GridScore]) -> int:
    """Answers without a confidence (counted as 50 in the Brier score)."""
    return sum(1 for r in results if r.confidence is None)


def sure_but_wrong(results: Iterable[GridScore], threshold: float = SURE) -> int:
    """Unsolved answers whose confidence was at least `threshold` (90)."""
    return sum(
        1
        for r in results
        if not r.solved and r.confidence is not None and r.confidence >= threshold
    )


def accuracy_by_technique(results: Iterable[GridScore]) -> dict[str, tuple[int, int]]:
    """(cells right, cells) per technique label, over every answer."""
    totals: dict[str, list[int]] = {}
    for r in results:
        for label, (right, total) in r.by_technique.items():
            acc = totals.setdefault(label, [0, 0])
            acc[0] += right
            acc[1] += total
    return {k: (v[0], v[1]) for k, v in totals.items()}


def accuracy_by_need(results: Iterable[GridScore]) -> dict[int, tuple[int, int]]:
    """(cells right, cells) per tier needed (`cell_tiers`), over every answer."""
    totals: dict[int, list[int]] = {}
    for r in results:
        for tier, (right, total) in r.by_need.items():
            acc = totals.setdefault(tier, [0, 0])
            acc[0] += right
            acc[1] += total
    return {k: (v[0], v[1]) for k, v in sorted(totals.items())}


def summary(policy: str, results: Sequence[GridScore]) -> dict[str, Any]:
    """One policy's row: score and interval, outcomes, cells right, broke the rules, Brier and
    the answers without a confidence, sure but wrong, accuracy by the tier each cell needs and
    by technique (camelCase JSON)."""
    score = tier_score(results)
    outcomes: dict[str, int] = {}
    for r in results:
        outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
    blanks = sum(r.blanks for r in results)
    return {
        "policy": policy,
        **score.to_dict(),
        "outcomes": outcomes,
        "cellsRight": sum(r.cells_right for r in results),
        "blankCells": blanks,
        "brokeRules": sum(r.broke_rules for r in results),
        "brier": confidence_brier(results),
        "missingConfidence": missing_confidences(results),
        "sureButWrong": sure_but_wrong(results),
        "accuracyByNeededTier": {
            str(k): {"right": a, "cells": b} for k, (a, b) in accuracy_by_need(results).items()
        },
        "accuracyByTechnique": {
            k: {"right": a, "cells": b} for k, (a, b) in accuracy_by_technique(results).items()
        },
    }


def tiers_label(rows: Sequence[Mapping[str, Any]]) -> str:
    """The tiers the rows cover, as a table labels them: `1..7` for the whole set, else the
    tiers themselves (`1, 7`), so a partial run never looks complete."""
    tiers = sorted({int(t) for row in rows for t in row["tiers"]})
    if tiers == list(range(1, 8)):
        return "1..7"
    return ", ".join(str(t) for t in tiers)


def table(rows: Sequence[Mapping[str, Any]]) -> str:
    """A Markdown table of `summary` rows, best score first."""
    lines = [
        f"| policy | score | 95% CI | solved by tier ({tiers_label(rows)}) | cells right | "
        "broke rules | Brier | no confidence | sure but wrong |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in sorted(rows, key=lambda r: -r["score"]):
        tiers = " ".join(f"{v['solved']}/{v['grids']}" for v in row["tiers"].values())
        brier = "n/a" if row["brier"] is None else f"{row['brier']:.3f}"
        cells = f"{row['cellsRight']}/{row['blankCells']}"
        low, high = row["ci95"]
        lines.append(
            f"| {row['policy']} | {row['score']:.1f} | {low:.1f}-{high:.1f} | {tiers} | {cells} "
            f"| {row['brokeRules']} | {brier} | {row.get('missingConfidence', 'n/a')} "
            f"| {row['sureButWrong']} |"
        )
    return "\n".join(lines)
