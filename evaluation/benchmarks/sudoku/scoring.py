"""Scoring Sudoku answers: one answer against its grid, and a policy's score over a set.

Per grid: the outcome (`solved`, `wrong` = some filled cell differs from the solution,
`empty` = no wrong cell but some left empty, `changedGiven` = a given digit altered; that outcome
wins over the others, then `wrong` over `empty`; `unreadable` = no grid even after the retry),
cells right (blank cells filled correctly), broke the rules (a complete grid repeating a digit in
a row, column or box), and cell accuracy by the technique the grader labelled each cell with.

The score is the mean over tiers of each tier's solve rate, 0..100, so every tier weighs the
same. Its 95% interval adds up the tiers' uncertainty: each tier's rate gets the Agresti-Coull
(Wilson-centred) variance `p~(1 - p~) / (n + z^2)` with `p~ = (solved + z^2/2) / (n + z^2)`, the
variances of the mean add (`sum var_t / T^2`), and the half-width `z * sqrt(...)` is laid around
the observed score, clipped to 0..100. Unlike the plain normal interval it does not collapse to
zero width when a tier is all solved or all failed, which with six grids a tier is common.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from arcade_gym.sudoku.rules import UNITS
from evaluation.core.stats import brier

Outcome = Literal["solved", "wrong", "empty", "changedGiven", "unreadable"]
Z95 = 1.959963984540054
SURE = 90.0
"""Confidence (0..100) at or above which an unsolved answer counts as "sure but wrong"."""


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
    by_technique: dict[str, list[int]] = {}
    for c in blanks:
        right_total = by_technique.setdefault(labels[c], [0, 0])
        right_total[1] += 1
        if answer_grid is not None and answer_grid[c] == solution[c]:
            right_total[0] += 1
    if answer_grid is None:
        return GridScore(
            record["id"], record["tier"], "unreadable", len(blanks), 0, 0, len(blanks), 0,
            False, confidence, {k: (v[0], v[1]) for k, v in by_technique.items()},
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
        by_technique={k: (v[0], v[1]) for k, v in by_technique.items()},
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
    """Brier score of the stated confidences (0..100 read as probabilities) against solved;
    answers without a confidence are left out; None when none has one."""
    return brier((r.confidence / 100, r.solved) for r in results if r.confidence is not None)


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


def summary(policy: str, results: Sequence[GridScore]) -> dict[str, Any]:
    """One policy's row: score and interval, outcomes, cells right, broke the rules, Brier,
    sure but wrong, accuracy by technique (camelCase JSON)."""
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
        "sureButWrong": sure_but_wrong(results),
        "accuracyByTechnique": {
            k: {"right": a, "cells": b} for k, (a, b) in accuracy_by_technique(results).items()
        },
    }


def table(rows: Sequence[Mapping[str, Any]]) -> str:
    """A Markdown table of `summary` rows, best score first."""
    lines = [
        "| policy | score | 95% CI | solved by tier (1..7) | cells right | broke rules | Brier "
        "| sure but wrong |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in sorted(rows, key=lambda r: -r["score"]):
        tiers = " ".join(f"{v['solved']}/{v['grids']}" for v in row["tiers"].values())
        brier = "n/a" if row["brier"] is None else f"{row['brier']:.3f}"
        cells = f"{row['cellsRight']}/{row['blankCells']}"
        low, high = row["ci95"]
        lines.append(
            f"| {row['policy']} | {row['score']:.1f} | {low:.1f}-{high:.1f} | {tiers} | {cells} "
            f"| {row['brokeRules']} | {brier} | {row['sureButWrong']} |"
        )
    return "\n".join(lines)
