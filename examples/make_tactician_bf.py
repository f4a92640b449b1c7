"""Write the arena entry `tactician`: a Brainfuck engine that wins if it can, else blocks, else
makes or stops a fork, else makes a threat, else takes the centre, else develops a line.

Every decision happens when the Brainfuck runs; this script only emits text. The engine reads the
board size first and runs one of three programs laid out for 3x3 (k = 3), 5x5 (k = 4) or 10x10
(k = 5). Each board square is a block of tape cells on a grid one column wider than the board,
with wall blocks in that extra column and in k rows below it, so every k-long window in the four
directions (strides 1, W, W + 1 and W - 1, all forward) is the same tape pattern from its first
square and a window that leaves the board holds a wall.

A square's value is 0 (empty), 1 (the mover's), k + 1 (the opponent's) or more than k(k + 1) (a
wall), so a window's sum says exactly how many stones of one side it holds when it holds none of
the other's: k - 1 of the mover's is a win on its empty square, k - 1 of the opponent's a block,
k - 2 a threat (two squares in threat windows make a fork), and so on. One Brainfuck loop per
direction walks every square, sums its window and counts, on each empty square of the window,
the windows of each kind it lies in. Passes over the squares then print the first square of the
best kind (`passes`); ties go to the first square in row-major order.

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
RUN, VALUE, EMPTY, ACC, FLAG1, TMP, ROW, COL, SEARCH, SUM = range(10)
# Marks: how many windows of each kind the square is the empty of.
WIN, BLOCK, THREAT, THREAT_AGAINST, DEVELOP, NEAR = range(10, 16)
BLOCK_SIZE = 16


class Board:
    """Tape positions of one board size's layout."""

    def __init__(self, size: int, k: int) -> None:
        self.size = size
        self.k = k
        self.width = size + 1
        self.squares = size * self.width
        self.opponent = k + 1
        self.wall = k * self.opponent + 1
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
    value_x, value_o = (1, b.opponent) if own == "X" else (b.opponent, 1)
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


def targets(b: Board) -> list[tuple[int, int]]:
    """(mark, window sum): the window kinds a square is marked for. With own stones worth 1 and
    the opponent's k + 1, a sum below k + 1 counts own stones in a window without the opponent's,
    a multiple of k + 1 the opponent's in one without own stones."""
    k, opp = b.k, b.opponent
    out = [(WIN, k - 1), (BLOCK, opp * (k - 1)), (THREAT, k - 2), (THREAT_AGAINST, opp * (k - 2))]
    if k >= 4:
        out.append((DEVELOP, k - 3))
    if k >= 5:
        out.append((NEAR, k - 4))
    return out


def windows(e: Emitter, b: Board, stride: int) -> None:
    """Count, on each empty square, the windows (from each square, along `stride`) of each kind
    of `targets` it lies in."""
    k = b.k

    def body(e: Emitter) -> None:
        total, acc, flag, tmp = b.at(0, SUM), b.at(0, ACC), b.at(0, FLAG1), b.at(0, TMP)
        for j in range(k):
            cell = j * stride
            copy_add(e, b.at(cell, VALUE), total, b.at(cell, TMP))
        for mark, target in targets(b):
            copy_add(e, total, acc, tmp)
            e.add(acc, -target)
            e.add(flag, 1)
            with e.loop(acc):  # not this kind
                clear(e, acc)
                e.add(flag, -1)
            with e.loop(flag):
                e.add(flag, -1)
                for j in range(k):
                    cell = j * stride
                    copy_add(e, b.at(cell, EMPTY), b.at(cell, mark), b.at(cell, TMP))
        clear(e, total)

    each_square(e, b, body)


def first_marked(e: Emitter, b: Board, field: int, at_least: int = 1) -> None:
    """Print the first square whose `field` is at least `at_least` (1 or 2); SEARCH of the end
    block stays 1 when none is."""
    e.add(b.at(0, SEARCH), 1)

    def body(e: Emitter) -> None:
        acc, found, search = b.at(0, ACC), b.at(0, FLAG1), b.at(0, SEARCH)
        copy_add(e, b.at(0, field), acc, b.at(0, TMP))
        if at_least == 2:
            with e.loop(acc):
                e.add(acc, -1)
                with e.loop(acc):
                    clear(e, acc)
                    e.add(found, 1)
        else:
            with e.loop(acc):
                clear(e, acc)
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
    e.comment("the first square of the best kind")
    searching = b.at(b.squares, SEARCH)
    e.add(searching, 1)
    choose(e, b, searching, passes(b))


Pass = tuple[int, int] | None
"""(mark, at least how many windows), or None for the centre."""


def passes(b: Board) -> list[Pass]:
    """Best first: win, block, fork (a square in two threat windows), stop a fork, make a threat,
    the centre, stop a threat, develop a line, any empty square. On 3x3 the centre comes before
    stopping a fork (measured on the suite: the perfect-play and fork-defense positions)."""
    if b.k == 3:
        out: list[Pass] = [(WIN, 1), (BLOCK, 1), (THREAT, 2), None, (THREAT_AGAINST, 2)]
        out += [(THREAT, 1), (THREAT_AGAINST, 1)]
    else:
        out = [(WIN, 1), (BLOCK, 1), (THREAT, 2), (THREAT_AGAINST, 2), (THREAT, 1), None]
        out += [(THREAT_AGAINST, 1), (DEVELOP, 2), (DEVELOP, 1)]
    if b.k >= 5:
        out.append((NEAR, 1))
    return [*out, (EMPTY, 1)]


def choose(e: Emitter, b: Board, searching: int, todo: list[Pass]) -> None:
    """Run the passes in order while `searching` is 1 (each leaves it 1 when it printed
    nothing); it ends 0."""
    step, rest = todo[0], todo[1:]
    if step is None:
        centre(e, b, searching)
    else:
        e.add(searching, -1)
        first_marked(e, b, *step)
    with e.loop(searching):
        if rest:
            choose(e, b, searching, rest)
        clear(e, searching)


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
