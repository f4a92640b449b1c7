"""Write `first_empty.bf`: a Brainfuck engine that plays the first empty square in row-major order.

It never needs the board size: it reads the position a byte at a time, counting rows on newlines
and columns on `X`/`O`, and answers at the first `.`. The row counter starts at -2 so the two
header lines (size, side to move) bring it to 0. Boards are at most 10x10, so row and column are
single digits. At EOF (a full board) it prints nothing.

Run `python examples/make_first_empty_bf.py` to regenerate the file next to this script.
"""

from __future__ import annotations

from pathlib import Path

# Tape cells.
RUNNING, CHAR, FLAG, ROW, COL, TMP = range(6)


class Emitter:
    """Brainfuck text with a tracked pointer, so code can name cells instead of counting `>`."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.at = 0

    def comment(self, text: str) -> None:
        """A comment line; it must not contain any of the eight command characters."""
        assert not set(text) & set("+-<>.,[]"), text
        self.parts.append(f"\n{text}\n")

    def goto(self, cell: int) -> None:
        step = cell - self.at
        self.parts.append(">" * step if step > 0 else "<" * -step)
        self.at = cell

    def add(self, cell: int, amount: int) -> None:
        self.goto(cell)
        self.parts.append("+" * amount if amount > 0 else "-" * -amount)

    def emit(self, code: str) -> None:
        self.parts.append(code)

    def loop(self, cell: int) -> LoopBlock:
        """`with e.loop(cell):` opens `[` at `cell`; the body must end back at `cell`."""
        return LoopBlock(self, cell)

    def text(self) -> str:
        return "".join(self.parts).strip() + "\n"


class LoopBlock:
    """A `[ ... ]` on one cell; the pointer is moved back to that cell before the `]`."""

    def __init__(self, emitter: Emitter, cell: int) -> None:
        self.emitter = emitter
        self.cell = cell

    def __enter__(self) -> None:
        self.emitter.goto(self.cell)
        self.emitter.emit("[")

    def __exit__(self, *exc: object) -> None:
        self.emitter.goto(self.cell)
        self.emitter.emit("]")


def first_empty_program() -> str:
    """The whole engine as Brainfuck source (with comments)."""
    e = Emitter()
    e.comment("first empty square engine: prints row space col newline of the first dot")
    e.comment("cells: running  char  flag  row  col  tmp")
    e.add(RUNNING, 1)
    e.add(ROW, -2)  # the two header lines bring it to 0
    with e.loop(RUNNING):
        e.comment("read a byte and set the case flag")
        e.goto(CHAR)
        e.emit(",")
        e.add(FLAG, 1)
        with e.loop(CHAR):  # not EOF
            e.add(CHAR, -10)
            with e.loop(CHAR):  # not a newline
                e.add(CHAR, -36)
                with e.loop(CHAR):  # not a dot either: an X or an O
                    e.comment("occupied square: next column")
                    e.emit("[-]")
                    e.add(COL, 1)
                    e.add(FLAG, -1)
                with e.loop(FLAG):  # a dot
                    e.comment("empty square: print row and col and stop")
                    e.add(ROW, 48)
                    e.emit(".")
                    e.add(TMP, 32)
                    e.emit(".")
                    e.emit("[-]")
                    e.add(COL, 48)
                    e.emit(".")
                    e.add(TMP, 10)
                    e.emit(".")
                    e.add(RUNNING, -1)
                    e.add(FLAG, -1)
            with e.loop(FLAG):  # a newline
                e.comment("newline: next row and back to column 0")
                e.add(ROW, 1)
                e.goto(COL)
                e.emit("[-]")
                e.add(FLAG, -1)
        with e.loop(FLAG):  # EOF: a full board, nothing to play
            e.add(RUNNING, -1)
            e.add(FLAG, -1)
    return e.text()


def main() -> None:
    target = Path(__file__).resolve().parent / "first_empty.bf"
    target.write_text(first_empty_program())
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
