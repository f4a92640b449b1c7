"""Tetris Bench (`tetris-bench@3`) at the keyboard: the person walks a ghost through the question's
candidate placements and places one.

Candidates are sorted by (rotation, x). Left/right move the ghost to the nearest candidate of the
same rotation to that side, up/`x` and `z` turn it to the next rotation clockwise /
counter-clockwise that has candidates (keeping the column as near as possible), Enter or space
places it, `c` holds (when the question allows a hold). The answer is the one-entry `AgentAnswer`
any brain gives, so the game is judged and recorded exactly as a brain's. The board's rows and
columns are numbered from 1 on screen (`evaluation/play/board.py`); the placement's `x` is the
protocol's (the piece box's left column, from 0), with the columns it covers beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import AgentAnswer, AgentInput, Candidate
from arcade_gym.tetris.render import render_ansi
from arcade_gym.tetris.rules import PIECE_LETTERS
from evaluation.play.board import labelled, render_cells
from evaluation.play.screen import View

HELP = (
    "left/right  move the ghost to the next placement",
    "up or x     rotate clockwise      z  rotate counter-clockwise",
    "enter/space place the piece       c  hold (when allowed)",
)


def board_of(question: AgentInput) -> np.ndarray:
    """The question's grid as the engine's board (piece index + 1, 0 empty)."""
    return np.array(
        [
            [0 if cell is None else PIECE_LETTERS.index(cell) + 1 for cell in row]
            for row in question.grid
        ],
        dtype=np.uint8,
    )


def ordered(question: AgentInput) -> list[Candidate]:
    """The candidates in walking order: by rotation, then column."""
    return sorted(question.candidates, key=lambda c: (c.placement.rotation, c.placement.x))


def landing(question: AgentInput, candidate: Candidate) -> tuple[int, int, int, int] | None:
    """(type, x, y, rotation) where the candidate's piece lands when dropped straight from the
    active piece's height (None when it cannot start there: a kicked placement)."""
    board = board_of(question)
    t = PIECE_LETTERS.index(question.active.type)
    x, r, y = candidate.placement.x, candidate.placement.rotation, question.active.y
    if E.collides(board, t, x, y, r):
        return None
    return t, x, y + int(E.drop_distance(board, t, x, y, r)), r


class TetrisKeys:
    """The ghost cursor over one question's candidates (reset when a new question comes)."""

    title = "Tetris Bench"
    help: Sequence[str] = HELP

    def __init__(self) -> None:
        self.asked: str | None = None
        self.index = 0

    def typing(self) -> bool:
        return False

    def chosen(self, question: AgentInput) -> Candidate:
        """The candidate under the ghost (the one nearest the spawn column at a new question)."""
        order = ordered(question)
        if self.asked != question.state_hash:
            self.asked = question.state_hash
            spawn = [c for c in order if c.placement.rotation == question.active.rotation]
            pool = spawn or order
            best = min(pool, key=lambda c: (abs(c.placement.x - question.active.x), c.placement.x))
            self.index = order.index(best)
        return order[self.index]

    def _move(self, question: AgentInput, step: int) -> None:
        order = ordered(question)
        here = self.chosen(question).placement
        same = [
            i
            for i, c in enumerate(order)
            if c.placement.rotation == here.rotation and (c.placement.x - here.x) * step > 0
        ]
        if same:
            self.index = min(same, key=lambda i: abs(order[i].placement.x - here.x))

    def _turn(self, question: AgentInput, step: int) -> None:
        order = ordered(question)
        here = self.chosen(question).placement
        rotations = {c.placement.rotation for c in order}
        for k in range(1, 4):
            rotation = (here.rotation + step * k) % 4
            if rotation in rotations:
                pool = [i for i, c in enumerate(order) if c.placement.rotation == rotation]
                self.index = min(pool, key=lambda i: (abs(order[i].placement.x - here.x), i))
                return

    def press(self, question: AgentInput, key: str) -> AgentAnswer | None:
        candidate = self.chosen(question)
        if key in ("left", "h"):
            self._move(question, -1)
        elif key in ("right", "l"):
            self._move(question, 1)
        elif key in ("up", "x"):
            self._turn(question, 1)
        elif key == "z":
            self._turn(question, -1)
        elif key in ("enter", "space", "down"):
            return AgentAnswer.single(question.state_hash, candidate.placement)
        elif key == "c":
            if not question.can_hold:
                raise ValueError("no hold now: one hold per piece")
            return AgentAnswer.single(question.state_hash, candidate.placement, hold=True)
        return None

    def view(self, question: AgentInput) -> View:
        candidate = self.chosen(question)
        ghost = landing(question, candidate)
        board = board_of(question)
        picture = render_ansi(board, ghost).splitlines()
        if ghost is None:  # a kicked placement: mark the cells its afterstate adds
            added = {
                (r, c)
                for r, row in enumerate(candidate.grid)
                for c, cell in enumerate(row)
                if cell is not None and board[r, c] == 0
            }
            picture = [
                "".join("@" if (r, c - 3) in added else ch for c, ch in enumerate(line))
                for r, line in enumerate(picture)
            ]
        rows, cols = board.shape
        cells = render_cells(picture, rows, cols)
        covered = sorted({c for row in cells for c, ch in enumerate(row) if ch == "@"})
        where = f"columns {covered[0] + 1}-{covered[-1] + 1}" if covered else "above the board"
        side = [
            f"piece {question.active.type}   hold {question.hold or '-'}"
            + ("" if question.can_hold else " (used)"),
            f"next  {' '.join(question.next)}",
            "",
            f"score {question.score}",
            f"lines {question.lines}   level {question.level}",
            f"pieces {question.pieces}   tick {question.tick}",
            "",
            f"placement x {candidate.placement.x} rotation {candidate.placement.rotation}",
            f"  on {where}",
            f"  clears {candidate.lines_cleared}, +{candidate.score_delta} points"
            + ("  TOP-OUT" if candidate.top_out else ""),
            f"  holes {candidate.features.holes}, height {candidate.features.max_height}",
        ]

        def style(r: int, c: int) -> str | None:
            return "entry" if cells[r][c] == "@" else None  # the ghost

        drawn = labelled(cells, style=style)
        return drawn.view([f"{self.title}  (mode {question.mode})"], [], side=side)
