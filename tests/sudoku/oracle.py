"""An independent, deliberately plain Sudoku solution counter (sets and recursion, no bitmasks,
no propagation beyond picking the emptiest cell) to check the numba solver and set v1 against."""

from __future__ import annotations


def _options(grid: list[int], cell: int) -> set[int]:
    r, c = divmod(cell, 9)
    used = {grid[r * 9 + k] for k in range(9)} | {grid[k * 9 + c] for k in range(9)}
    br, bc = r - r % 3, c - c % 3
    used |= {grid[(br + i) * 9 + bc + j] for i in range(3) for j in range(3)}
    return set(range(1, 10)) - used


def count_solutions(puzzle: str, limit: int = 2) -> int:
    """Solutions of an 81-character puzzle, counting stops at `limit`."""
    grid = [0 if ch in ".0" else int(ch) for ch in puzzle]
    found = 0

    def go() -> None:
        nonlocal found
        best, best_opts = -1, set(range(10))
        for cell in range(81):
            if grid[cell] == 0:
                opts = _options(grid, cell)
                if len(opts) < len(best_opts):
                    best, best_opts = cell, opts
                    if not opts:
                        return
        if best < 0:
            found += 1
            return
        for d in sorted(best_opts):
            grid[best] = d
            go()
            grid[best] = 0
            if found >= limit:
                return

    go()
    return found
