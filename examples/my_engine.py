"""A minimal external tic-tac-toe engine: the centre if it is free, else the first empty square.

It speaks the arena's engine contract: the position on stdin (board size, side to move, then the
rows of X / O / .) and a zero-indexed `row col` on stdout. Plug it into the arena with
`CommandEngine(f"{sys.executable} examples/my_engine.py")`, or try it by hand:

    printf '3\\nX\\n...\\n...\\n...\\n' | python examples/my_engine.py
"""

from __future__ import annotations

import sys


def choose(size: int, rows: list[str]) -> tuple[int, int] | None:
    """Centre first, then the first empty square in row-major order (None on a full board)."""
    centre = size // 2
    if rows[centre][centre] == ".":
        return centre, centre
    for r, row in enumerate(rows):
        c = row.find(".")
        if c >= 0:
            return r, c
    return None


def main() -> None:
    lines = sys.stdin.read().split()
    size = int(lines[0])
    rows = lines[2 : 2 + size]
    move = choose(size, rows)
    if move is not None:
        print(f"{move[0]} {move[1]}")


if __name__ == "__main__":
    main()
