"""The constants of arcade-gym Sudoku: the set version, the tiers and their techniques, limits,
and the one reader of puzzle text (81 characters, digits with `0` or `.` for blanks).

The tiers follow `docs/rules/sudoku.md`: a grid's tier is the tier of the hardest technique the
grader needed; tier 7 (Beyond) means the techniques of tiers 1..6 do not finish it.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

GAME: Literal["sudoku"] = "sudoku"
SET_VERSION = "v1"
GRADER_VERSION = "1"
"""Bumped on any change to the grader's techniques, their order or the chain limit."""

N = 9
CELLS = 81
ALL_DIGITS = 0x1FF
"""Candidate bitmask with every digit 1..9 (bit d-1 = digit d)."""

CHAIN_MAX_NODES = 12
"""The longest chain (candidates on it, both ends included) the tier-6 techniques try."""

BEYOND = 7
TIER_NAMES: dict[int, str] = {
    1: "Singles",
    2: "Locked candidates",
    3: "Pairs and triples",
    4: "Quads, fish and wings",
    5: "Big fish, kites, colouring, rectangles",
    6: "Chains",
    7: "Beyond",
}

TECHNIQUES: tuple[tuple[str, int], ...] = (
    ("given", 0),
    ("naked single", 1),
    ("hidden single", 1),
    ("pointing", 2),
    ("claiming", 2),
    ("naked pair", 3),
    ("hidden pair", 3),
    ("naked triple", 3),
    ("hidden triple", 3),
    ("naked quad", 4),
    ("hidden quad", 4),
    ("x-wing", 4),
    ("swordfish", 4),
    ("xy-wing", 4),
    ("xyz-wing", 4),
    ("jellyfish", 5),
    ("skyscraper", 5),
    ("2-string kite", 5),
    ("w-wing", 5),
    ("simple colouring", 5),
    ("unique rectangle type 1", 5),
    ("x-chain", 6),
    ("xy-chain", 6),
    ("aic", 6),
    ("beyond", 7),
)
"""Every technique the grader knows, easiest first, with its tier. "given" labels a clue and
"beyond" a cell the grader could not place (it is filled from the solution)."""

TECHNIQUE_TIER: dict[str, int] = dict(TECHNIQUES)
SETS: tuple[str, ...] = (SET_VERSION,)
GRIDS_PER_TIER = 6
BEYOND_POOL = 400
"""Tier 7 of a set keeps, from this many Beyond candidates, the ones needing the most guesses."""


class PuzzleError(ValueError):
    """A malformed puzzle: wrong length, a bad character or a given that repeats in a unit."""


def _units() -> np.ndarray:
    rows = [[r * 9 + c for c in range(9)] for r in range(9)]
    cols = [[r * 9 + c for r in range(9)] for c in range(9)]
    boxes = [
        [(br * 3 + i) * 9 + bc * 3 + j for i in range(3) for j in range(3)]
        for br in range(3)
        for bc in range(3)
    ]
    return np.array(rows + cols + boxes, dtype=np.int64)


UNITS = _units()
"""(27, 9) cell indices: rows 0..8, columns 9..17, boxes 18..26 (row-major inside)."""

CELL_UNITS = np.array(
    [[r, 9 + c, 18 + (r // 3) * 3 + c // 3] for r in range(9) for c in range(9)], dtype=np.int64
)
"""(81, 3) the row, column and box unit of each cell."""

PEERS = np.array(
    [sorted({int(x) for u in CELL_UNITS[i] for x in UNITS[u]} - {i}) for i in range(CELLS)],
    dtype=np.int64,
)
"""(81, 20) the peers of each cell (same row, column or box)."""


def parse_puzzle(text: str) -> np.ndarray:
    """A puzzle as int8 (81,) with 0 for blanks; PuzzleError saying what is wrong.

    Accepts 81 characters of `1`-`9`, `0` or `.` (surrounding whitespace ignored).
    """
    if not isinstance(text, str):
        raise PuzzleError(f"a puzzle must be a string of 81 characters, got {type(text).__name__}")
    s = text.strip()
    if len(s) != CELLS:
        raise PuzzleError(f"a puzzle has 81 cells, got {len(s)} characters")
    bad = sorted({ch for ch in s if ch not in "0123456789."})
    if bad:
        raise PuzzleError(
            "a puzzle uses digits 1-9 and 0 or . for blanks, got " + " ".join(map(repr, bad[:5]))
        )
    grid = np.array([0 if ch == "." else ord(ch) - 48 for ch in s], dtype=np.int8)
    clash = first_clash(grid)
    if clash is not None:
        unit, digit = clash
        raise PuzzleError(f"digit {digit} repeats in {unit_name(unit)}")
    return grid


def first_clash(grid: np.ndarray) -> tuple[int, int] | None:
    """(unit, digit) of the first digit repeated in a unit, or None when no digit repeats."""
    for u in range(27):
        seen = 0
        for cell in UNITS[u]:
            d = int(grid[cell])
            if d:
                if seen >> d & 1:
                    return u, d
                seen |= 1 << d
    return None


def unit_name(unit: int) -> str:
    """`row 3`, `column 5` or `box 7` (numbered from 1, as people do)."""
    kind = ("row", "column", "box")[unit // 9]
    return f"{kind} {unit % 9 + 1}"


def grid_text(grid: np.ndarray | list[int]) -> str:
    """A grid as 81 characters, `0` for blanks."""
    return "".join(str(int(d)) for d in np.asarray(grid).reshape(-1))


def cell_name(cell: int) -> str:
    """`r3c5` (rows and columns from 1, the usual Sudoku notation)."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"
