"""The grader's working state: digits placed so far and each empty cell's candidates, and the
`Step` a technique proposes (cells to place, candidates to strike).

Plain Python ints and lists: the patterns of tiers 1..5 touch a few dozen cells each, where list
indexing beats crossing into numba. Chains (tier 6) run in `chains.py` on a numpy copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from arcade_gym.sudoku.rules import (
    ALL_DIGITS,
    CELL_UNITS,
    CELLS,
    PEERS,
    TECHNIQUE_TIER,
    UNITS,
    cell_name,
)

UNIT_CELLS: list[list[int]] = UNITS.tolist()
CELL_UNIT: list[list[int]] = CELL_UNITS.tolist()
PEER_LIST: list[list[int]] = PEERS.tolist()
PEER_SET: list[frozenset[int]] = [frozenset(p) for p in PEER_LIST]
BOX_OF: list[int] = [u[2] - 18 for u in CELL_UNIT]
BIT_COUNT: list[int] = [bin(m).count("1") for m in range(512)]
DIGITS_OF: list[list[int]] = [[d for d in range(1, 10) if m >> (d - 1) & 1] for m in range(512)]


@dataclass
class Step:
    """One application of one technique: cells it places and candidates it strikes.

    `cells` are the cells forming the pattern (for the path), `(cell, digit)` pairs elsewhere.
    """

    technique: str
    placements: list[tuple[int, int]] = field(default_factory=list)
    eliminations: list[tuple[int, int]] = field(default_factory=list)
    cells: list[int] = field(default_factory=list)

    @property
    def tier(self) -> int:
        return TECHNIQUE_TIER[self.technique]

    def to_dict(self) -> dict[str, object]:
        """The step as a path entry (camelCase, cells as `r3c5`)."""
        return {
            "technique": self.technique,
            "tier": self.tier,
            "placed": [f"{cell_name(c)}={d}" for c, d in self.placements],
            "eliminated": [f"{cell_name(c)}<>{d}" for c, d in self.eliminations],
            "pattern": [cell_name(c) for c in self.cells],
        }


class Board:
    """Placed digits (`grid`, 0 = empty) and candidate bitmasks (`cand`, 0 for a filled cell)."""

    __slots__ = ("cand", "grid")

    def __init__(self, puzzle: np.ndarray | list[int]) -> None:
        self.grid: list[int] = [int(d) for d in np.asarray(puzzle).reshape(-1)]
        self.cand: list[int] = [0] * CELLS
        for i in range(CELLS):
            if self.grid[i] == 0:
                m = ALL_DIGITS
                for p in PEER_LIST[i]:
                    d = self.grid[p]
                    if d:
                        m &= ~(1 << (d - 1))
                self.cand[i] = m

    def place(self, cell: int, digit: int) -> None:
        """Write a digit and strike it from the peers' candidates."""
        self.grid[cell] = digit
        self.cand[cell] = 0
        off = ~(1 << (digit - 1))
        cand = self.cand
        for p in PEER_LIST[cell]:
            cand[p] &= off

    def apply(self, step: Step) -> None:
        """Carry out a step's placements and eliminations."""
        for cell, digit in step.placements:
            self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.cand[cell] &= ~(1 << (digit - 1))

    def solved(self) -> bool:
        return 0 not in self.grid

    def cells_with(self, unit: int, digit: int) -> list[int]:
        """The empty cells of a unit where `digit` is still a candidate."""
        bit = 1 << (digit - 1)
        cand = self.cand
        return [c for c in UNIT_CELLS[unit] if cand[c] & bit]

    def strike(self, cells: list[int] | set[int], digit: int) -> list[tuple[int, int]]:
        """The `(cell, digit)` eliminations among `cells` where `digit` is still a candidate."""
        bit = 1 << (digit - 1)
        return [(c, digit) for c in sorted(cells) if self.cand[c] & bit]


def seen_by_all(cells: list[int]) -> set[int]:
    """Cells that see every one of `cells` (none of them included)."""
    common = set(PEER_SET[cells[0]])
    for c in cells[1:]:
        common &= PEER_SET[c]
    return common - set(cells)
