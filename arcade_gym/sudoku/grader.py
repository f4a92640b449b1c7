"""The reference grader: solve like a person and report the tier (1..7) and the path.

At every step it tries the techniques easiest first and applies the first that changes the
board, then starts again from the easiest. Each placed cell is labelled with the technique that
placed it. A grid's tier is the tier of the hardest technique on the path; when the techniques of
tiers 1..`max_tier` do not finish it, the tier is `max_tier + 1` (7, Beyond, for the full set) and
the cells left are labelled "beyond".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from arcade_gym.sudoku import chains, techniques
from arcade_gym.sudoku.board import Board, Step
from arcade_gym.sudoku.rules import BEYOND, CELLS
from arcade_gym.sudoku.techniques import Technique

ORDER: tuple[Technique, ...] = (
    techniques.naked_single,
    techniques.hidden_single,
    techniques.pointing,
    techniques.claiming,
    techniques.naked_pair,
    techniques.hidden_pair,
    techniques.naked_triple,
    techniques.hidden_triple,
    techniques.naked_quad,
    techniques.hidden_quad,
    techniques.x_wing,
    techniques.swordfish,
    techniques.xy_wing,
    techniques.xyz_wing,
    techniques.jellyfish,
    techniques.skyscraper,
    techniques.two_string_kite,
    techniques.w_wing,
    techniques.simple_colouring,
    techniques.unique_rectangle_1,
    chains.x_chain,
    chains.xy_chain,
    chains.aic,
)
"""Every technique, easiest first (the order of `rules.TECHNIQUES`)."""

TIERS: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6)
"""The tier of each technique in `ORDER` (checked against `rules.TECHNIQUE_TIER` in the tests)."""


@dataclass
class Grade:
    """What the grader found: tier, whether the techniques finished the grid, the per-cell labels
    (81 technique names: "given", the placing technique, or "beyond") and the path."""

    tier: int
    finished: bool
    labels: list[str]
    steps: list[Step] = field(default_factory=list)
    grid: list[int] = field(default_factory=list)

    def technique_counts(self) -> dict[str, int]:
        """How many steps used each technique (in the order techniques were first used)."""
        return dict(Counter(step.technique for step in self.steps))

    def path(self) -> list[dict[str, object]]:
        return [step.to_dict() for step in self.steps]


def _techniques_up_to(max_tier: int) -> list[Technique]:
    return [f for f, tier in zip(ORDER, TIERS, strict=True) if tier <= max_tier]


def grade(puzzle: np.ndarray | list[int], max_tier: int = BEYOND - 1) -> Grade:
    """Grade a puzzle with the techniques of tiers 1..`max_tier`.

    The puzzle must have exactly one solution (check with `engine.search` first): the techniques
    are only sound then.
    """
    board = Board(puzzle)
    labels = ["given" if d else "" for d in board.grid]
    usable = _techniques_up_to(max_tier)
    steps: list[Step] = []
    hardest = 1
    while not board.solved():
        for technique in usable:
            step = technique(board)
            if step is not None:
                break
        else:
            for c in range(CELLS):
                if not labels[c]:
                    labels[c] = "beyond"
            return Grade(max_tier + 1, False, labels, steps, board.grid)
        board.apply(step)
        for cell, _ in step.placements:
            labels[cell] = step.technique
        steps.append(step)
        hardest = max(hardest, step.tier)
    return Grade(hardest, True, labels, steps, board.grid)


def warmup() -> None:
    """Compile the grader's numba kernel (the chain search)."""
    chains.warmup()
