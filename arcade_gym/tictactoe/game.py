"""A k-in-a-row game as a small object over one int8 board: play, legality, questions."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arcade_gym.core.copying import KeepsViews
from arcade_gym.core.game import state_digest
from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.contract import TicTacToeQuestion
from arcade_gym.tictactoe.rules import (
    EMPTY,
    ILLEGAL,
    MARKS,
    ONGOING,
    SIZES,
    WIN,
    O,
    X,
    geometry,
    line_length,
    mark_value,
)


def board_from_rows(rows: Sequence[str], size: int | None = None) -> np.ndarray:
    """Rows of `X` / `O` / `.` -> an (n, n) int8 board; ValueError naming what is wrong."""
    n = len(rows) if size is None else size
    if n not in SIZES:
        raise ValueError(f"board size must be one of {SIZES}, got {n}")
    if len(rows) != n:
        raise ValueError(f"expected {n} rows, got {len(rows)}")
    board = np.zeros((n, n), np.int8)
    for r, row in enumerate(rows):
        if len(row) != n:
            raise ValueError(f"row {r} has {len(row)} cells, expected {n}")
        for c, ch in enumerate(row):
            value = MARKS.find(ch)
            if value < 0:
                raise ValueError(f"row {r} col {c}: {ch!r} is not one of X, O, .")
            board[r, c] = value
    return board


def board_to_rows(board: np.ndarray) -> tuple[str, ...]:
    """An (n, n) board -> its rows of `X` / `O` / `.`."""
    return tuple("".join(MARKS[int(v)] for v in row) for row in np.asarray(board))


def position_error(board: np.ndarray, to_move: int) -> str | None:
    """Why `board` with `to_move` to play cannot arise in a game (None when it can): X moves
    first, so X has as many stones as O (X to move) or one more (O to move); nobody has won."""
    board = np.asarray(board)
    xs = int((board == X).sum())
    os_ = int((board == O).sum())
    expected = X if xs == os_ else O if xs == os_ + 1 else None
    if expected is None:
        return f"{xs} X and {os_} O stones cannot arise (X moves first and turns alternate)"
    if expected != to_move:
        return f"{MARKS[expected]} is to move with {xs} X and {os_} O stones"
    flat = np.ascontiguousarray(board, dtype=np.int8).reshape(-1)
    if E.winner(flat, geometry(board.shape[0]).windows):
        return "the game is already won"
    if xs + os_ == flat.shape[0]:
        return "the board is full"
    return None


class TicTacToeGame(KeepsViews):
    """One game: an (n, n) int8 board (0 empty, 1 X, 2 O), the side to move, the result.

    `board` is the live array (row 0 at the top); cell `row * n + col` is the action index.
    """

    def __init__(self, size: int = 3) -> None:
        self.size = size
        self.k = line_length(size)
        self.board = np.zeros((size, size), np.int8)
        self.flat = self.board.reshape(-1)
        self.to_move = X
        self.placed = 0
        self.winner = EMPTY
        self.over = False
        self.moves: list[int] = []

    @classmethod
    def from_rows(cls, rows: Sequence[str], to_move: str, *, strict: bool = True) -> TicTacToeGame:
        """A game set to a position. `strict` refuses positions no game reaches (turn order,
        a finished game)."""
        board = board_from_rows(rows)
        side = mark_value(to_move)
        if strict:
            error = position_error(board, side)
            if error is not None:
                raise ValueError(f"not a reachable position: {error}")
        game = cls(board.shape[0])
        game.board[:] = board
        game.to_move = side
        game.placed = int((board != EMPTY).sum())
        return game

    @classmethod
    def from_question(cls, question: TicTacToeQuestion, *, strict: bool = False) -> TicTacToeGame:
        """The game a question shows (lenient by default: an engine is asked what it is asked)."""
        game = cls.from_rows(question.rows, question.to_move, strict=strict)
        if game.k != question.k:
            raise ValueError(
                f"a {game.size}x{game.size} board plays {game.k} in a row, not {question.k}"
            )
        return game

    def copy(self) -> TicTacToeGame:
        """An independent copy."""
        twin = TicTacToeGame(self.size)
        twin.board[:] = self.board
        twin.to_move = self.to_move
        twin.placed = self.placed
        twin.winner = self.winner
        twin.over = self.over
        twin.moves = list(self.moves)
        return twin

    def cell(self, row: int, col: int) -> int:
        """The action index of (row, col); ValueError when off the board."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise ValueError(f"({row}, {col}) is off the {self.size}x{self.size} board")
        return row * self.size + col

    def is_legal(self, cell: int) -> bool:
        """Whether `cell` is on the board and empty, with the game still on."""
        return not self.over and 0 <= cell < self.flat.shape[0] and self.flat[cell] == EMPTY

    def legal_moves(self) -> list[int]:
        """Empty cells in row-major order (none once the game is over)."""
        if self.over:
            return []
        return [int(c) for c in np.flatnonzero(self.flat == EMPTY)]

    def legal_mask(self) -> np.ndarray:
        """int8 mask of the legal moves."""
        mask = np.zeros(self.flat.shape[0], np.int8)
        if not self.over:
            E.legal_mask(self.flat, mask)
        return mask

    def play(self, cell: int) -> int:
        """Play the side to move on `cell`; returns `rules.WIN`, `DRAW` or `ONGOING`.

        Raises ValueError for an occupied or off-board cell, or after the game ended.
        """
        if self.over:
            raise ValueError("the game is over")
        cell = int(cell)
        outcome = int(E.apply_move(self.flat, self.size, self.k, cell, self.to_move, self.placed))
        if outcome == ILLEGAL:
            where = "off the board" if not 0 <= cell < self.flat.shape[0] else "occupied"
            raise ValueError(f"cell {cell} is {where}")
        self.placed += 1
        self.moves.append(cell)
        if outcome == WIN:
            self.winner = self.to_move
        if outcome != ONGOING:
            self.over = True
        self.to_move = 3 - self.to_move
        return outcome

    # --- the `Game` protocol (`arcade_gym/core/game.py`), in `TicTacToe-v0`'s indices ---------
    def legal_action_indices(self) -> list[int]:
        """`legal_moves()`: the empty cells `row * size + col`, none once the game is over."""
        return self.legal_moves()

    def apply_action(self, action: int) -> float:
        """`play(action)` for the side to move; 1.0 when the move completes its line, else 0.0
        (the env's -1 for the opponent's reply is the opponent's move, not this one)."""
        return 1.0 if self.play(action) == WIN else 0.0

    def state_hash(self) -> str:
        """16 hex digits over the size, the side to move and the board (the move order that
        reached a position does not change how it plays on)."""
        return state_digest(bytes((self.size, self.to_move)), self.board.tobytes())

    @property
    def draw(self) -> bool:
        """Whether the game ended with a full board and no line."""
        return self.over and self.winner == EMPTY

    def rows(self) -> tuple[str, ...]:
        """The board as rows of `X` / `O` / `.`."""
        return board_to_rows(self.board)

    def question(self) -> TicTacToeQuestion:
        """The engine contract's view of the position (side to move included)."""
        return TicTacToeQuestion(
            size=self.size, k=self.k, to_move="X" if self.to_move == X else "O", rows=self.rows()
        )

    @property
    def result(self) -> str:
        """`"X"`, `"O"`, `"draw"` or `"ongoing"`."""
        if not self.over:
            return "ongoing"
        return "draw" if self.winner == EMPTY else MARKS[self.winner]


__all__ = ["TicTacToeGame", "board_from_rows", "board_to_rows", "position_error"]
