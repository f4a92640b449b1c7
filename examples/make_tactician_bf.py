"""Write the arena entry `tactician`: a Brainfuck engine that wins if it can, else blocks, else
takes the centre, else the first empty square.

Every decision happens when the Brainfuck runs; this script only emits text. The engine reads the
board size first and runs one of three programs laid out for 3x3 (k = 3), 5x5 (k = 4) or 10x10
(k = 5). Each board square is a block of tape cells on a grid one column wider than the board,
with wall blocks in that extra column and in k + 1 rows below it, so every k-long window in the
four directions (strides 1, W, W + 1 and W - 1, all forward) is the same tape pattern from its
first square and a window that leaves the board holds a wall.

A square's value is 0 (empty), 1 (the mover's), k (the opponent's) or k(k-1)+1 (a wall), so a
window's sum is k-1 exactly when it holds k-1 of the mover's stones and one empty square (a win
there), and k(k-1) exactly when it holds k-1 of the opponent's (a block there). One Brainfuck loop
per direction walks every square, sums its window and marks the window's empty square. Four
passes then print the first marked win, else the first marked block, else the centre when it is
empty, else the first empty square.

Run `python examples/make_tactician_bf.py` to rewrite `seeds/arena/entries/tactician/engine.bf`
(or give another output path).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_first_empty_bf import Emitter  # the sibling example's emitter

# Work cells.
CHAR, F3, F5, F10, SIDE_X, SIDE_O, SCRATCH = range(7)
BASE = 16
# Fields of a square's block.
RUN, VALUE, EMPTY, WIN, BLOCK, ACC, FLAG1, FLAG2, TMP, ROW, COL, SEARCH = range(12)
BLOCK_SIZE = 12


class Board:
    """Tape positions of one board size's layout."""

    def __init__(self, size: int, k: int) -> None:
        self.size = size
        self.k = k
        self.width = size + 1
        self.squares = size * self.width
        self.wall = k * (k - 1) + 1
        self.blocks = self.squares + (k - 1) * (self.width + 1) + 1

    def at(self, block: int, field: int) -> int:
        return BASE + block * BLOCK_SIZE + field

    def block(self, row: int, col: int) -> int:
        return row * self.width + col


def clear(e: Emitter, cell: int) -> None:
    """cell = 0."""
    e.goto(cell)
    e.emit("[-]")


def copy_add(e: Emitter, source: int, target: int, tmp: int) -> None:
    """target += source, keeping source (tmp must be 0 and ends 0)."""
    with e.loop(source):
        e.add(source, -1)
        e.add(target, 1)
        e.add(tmp, 1)
    with e.loop(tmp):
        e.add(tmp, -1)
        e.add(source, 1)


def each_square(e: Emitter, b: Board, body: Callable[[Emitter], None]) -> None:
    """A Brainfuck loop over every square block (the RUN flags); `body(e)` runs with block 0
    standing for the current square and must leave the pointer anywhere in it."""
    e.goto(b.at(0, RUN))
    e.emit("[")
    body(e)
    e.goto(b.at(1, RUN))
    e.at = b.at(0, RUN)
    e.emit("]")
    e.at = b.at(b.squares, RUN)


def print_move(e: Emitter, b: Board, block: int) -> None:
    """Print `row col` and a newline from the block's digit cells."""
    e.goto(b.at(block, ROW))
    e.emit(".")
    e.add(b.at(block, TMP), 32)
    e.emit(".")
    e.goto(b.at(block, COL))
    e.emit(".")
    e.add(b.at(block, TMP), -22)
    e.emit(".")
    e.add(b.at(block, TMP), -10)


def layout(e: Emitter, b: Board) -> None:
    """RUN flags, wall values and the row and column digits of every square."""
    for block in range(b.blocks):
        row, col = divmod(block, b.width)
        if block < b.squares:
            e.add(b.at(block, RUN), 1)
        if row >= b.size or col == b.size:
            e.add(b.at(block, VALUE), b.wall)
        else:
            e.add(b.at(block, ROW), 48 + row)
            e.add(b.at(block, COL), 48 + col)


def parse(e: Emitter, b: Board, own: str) -> None:
    """Read the rows: `.` sets EMPTY, the mover's stones VALUE 1, the opponent's VALUE k."""
    value_x, value_o = (1, b.k) if own == "X" else (b.k, 1)
    for row in range(b.size):
        for col in range(b.size):
            block = b.block(row, col)
            tmp, value, flag = b.at(block, TMP), b.at(block, VALUE), b.at(block, FLAG1)
            e.goto(tmp)
            e.emit(",")
            e.add(tmp, -ord("."))
            e.add(b.at(block, EMPTY), 1)
            with e.loop(tmp):  # not a dot
                e.add(b.at(block, EMPTY), -1)
                e.add(tmp, ord(".") - ord("O"))
                e.add(flag, 1)
                with e.loop(tmp):  # not an O: an X
                    e.add(flag, -1)
                    clear(e, tmp)
                e.add(value, value_x)
                with e.loop(flag):
                    e.add(flag, -1)
                    e.add(value, value_o - value_x)
        e.goto(b.at(0, TMP))
        e.emit(",[-]")  # the newline


def windows(e: Emitter, b: Board, stride: int) -> None:
    """Mark the empty square of every window (from each square, along `stride`) that wins or
    must be blocked."""
    k = b.k

    def body(e: Emitter) -> None:
        acc, win, block = b.at(0, ACC), b.at(0, FLAG1), b.at(0, FLAG2)
        for j in range(k):
            cell = j * stride
            copy_add(e, b.at(cell, VALUE), acc, b.at(cell, TMP))
        e.add(acc, -(k - 1))
        e.add(win, 1)
        with e.loop(acc):  # not a win
            e.add(win, -1)
            e.add(block, 1)
            e.add(acc, -(k * (k - 1) - (k - 1)))
            with e.loop(acc):  # not a block either
                e.add(block, -1)
                clear(e, acc)
        for flag, mark in ((win, WIN), (block, BLOCK)):
            with e.loop(flag):
                e.add(flag, -1)
                for j in range(k):
                    cell = j * stride
                    copy_add(e, b.at(cell, EMPTY), b.at(cell, mark), b.at(cell, TMP))

    each_square(e, b, body)


def first_marked(e: Emitter, b: Board, field: int) -> None:
    """Print the first square whose `field` is set; SEARCH of the end block stays 1 when none is."""
    e.add(b.at(0, SEARCH), 1)

    def body(e: Emitter) -> None:
        acc, found, search = b.at(0, ACC), b.at(0, FLAG1), b.at(0, SEARCH)
        copy_add(e, b.at(0, field), acc, b.at(0, TMP))
        with e.loop(acc):
            e.emit("[-]")
            e.add(found, 1)
        with e.loop(found):
            e.add(found, -1)
            with e.loop(search):
                e.add(search, -1)
                print_move(e, b, 0)
        with e.loop(search):
            e.add(search, -1)
            e.add(b.at(1, SEARCH), 1)

    each_square(e, b, body)


def centre(e: Emitter, b: Board, searching: int) -> None:
    """Print the centre square when it is empty (and clear `searching`)."""
    middle = b.block(b.size // 2, b.size // 2)
    acc, found = b.at(middle, ACC), b.at(middle, FLAG1)
    copy_add(e, b.at(middle, EMPTY), acc, b.at(middle, TMP))
    with e.loop(acc):
        e.emit("[-]")
        e.add(found, 1)
    with e.loop(found):
        e.add(found, -1)
        print_move(e, b, middle)
        e.add(searching, -1)


def program(e: Emitter, size: int, k: int) -> None:
    """The whole engine for one board size (the header is already read)."""
    b = Board(size, k)
    e.comment(f"board {size} by {size} with {k} in a row")
    layout(e, b)
    e.add(SIDE_O, 1)
    with e.loop(SIDE_X):
        e.add(SIDE_X, -1)
        e.add(SIDE_O, -1)
        parse(e, b, "X")
    with e.loop(SIDE_O):
        e.add(SIDE_O, -1)
        parse(e, b, "O")
    e.comment("mark wins and blocks in every window")
    for stride in (1, b.width, b.width + 1, b.width - 1):
        windows(e, b, stride)
    e.comment("win else block else centre else first empty")
    searching = b.at(b.squares, SEARCH)
    first_marked(e, b, WIN)
    with e.loop(searching):
        e.add(searching, -1)
        first_marked(e, b, BLOCK)
        with e.loop(searching):
            centre(e, b, searching)
            with e.loop(searching):
                e.add(searching, -1)
                first_marked(e, b, EMPTY)
                e.goto(searching)
                e.emit("[-]")


def tactician_program() -> str:
    """The engine as Brainfuck source (with comments)."""
    e = Emitter()
    e.comment("tactician: win if you can else block else centre else first empty")
    e.comment("read the size: 3 or 5 or 10")
    e.goto(CHAR)
    e.emit(",")
    e.add(CHAR, -ord("3"))
    e.add(F3, 1)
    with e.loop(CHAR):
        e.add(F3, -1)
        e.add(CHAR, -2)
        e.add(F5, 1)
        with e.loop(CHAR):
            e.add(F5, -1)
            e.add(F10, 1)
            clear(e, CHAR)
    with e.loop(F10):  # the 0 of 10
        e.add(F10, -1)
        e.goto(CHAR)
        e.emit(",[-]")
        e.add(SCRATCH, 1)
    with e.loop(SCRATCH):
        e.add(SCRATCH, -1)
        e.add(F10, 1)
    e.goto(CHAR)
    e.emit(",[-]")
    e.comment("the side to move")
    e.emit(",")
    e.add(CHAR, -ord("O"))
    with e.loop(CHAR):
        e.add(SIDE_X, 1)
        clear(e, CHAR)
    e.emit(",[-]")
    for flag, size, k in ((F3, 3, 3), (F5, 5, 4), (F10, 10, 5)):
        with e.loop(flag):
            e.add(flag, -1)
            program(e, size, k)
    return e.text()


def main() -> None:
    default = Path(__file__).resolve().parents[1] / "seeds/arena/entries/tactician/engine.bf"
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(tactician_program())
    print(f"wrote {target} ({target.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
