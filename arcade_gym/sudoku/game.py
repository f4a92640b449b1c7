"""The state of one Sudoku game over numpy arrays: the board, its candidates and legal actions.

An action is `cell * 9 + digit - 1` (cell = row * 9 + col): write `digit` in an empty cell where
no peer holds it. The solution is kept to reward placements and to tell when the grid is solved.
"""

from __future__ import annotations

import numpy as np

from arcade_gym.core.copying import KeepsViews
from arcade_gym.core.game import state_digest
from arcade_gym.sudoku import engine as E
from arcade_gym.sudoku.contract import SudokuQuestion
from arcade_gym.sudoku.rules import CELLS, cell_name, grid_text

N_ACTIONS = CELLS * 9


class SudokuGame(KeepsViews):
    """One grid being filled in; `reset` starts a puzzle, `play` applies a legal action."""

    def __init__(self) -> None:
        self.puzzle = np.zeros(CELLS, np.int8)
        self.solution = np.zeros(CELLS, np.int8)
        self.board = np.zeros(CELLS, np.int8)
        self.cand = np.zeros(CELLS, np.int32)
        self.mask = np.zeros(N_ACTIONS, np.int8)
        self.legal = 0
        self.givens = 0
        self.correct = 0
        self.wrong = 0
        self.grid_id = ""
        self.tier: int | None = None

    def reset(
        self, puzzle: np.ndarray, solution: np.ndarray, grid_id: str = "", tier: int | None = None
    ) -> None:
        """Start `puzzle` (int8 (81,), 0 = blank) whose unique solution is `solution`."""
        self.puzzle[:] = puzzle
        self.solution[:] = solution
        self.board[:] = puzzle
        self.legal = E.fill_mask(self.board, self.cand, self.mask)
        self.givens = int(np.count_nonzero(self.puzzle))
        self.correct = self.wrong = 0
        self.grid_id = grid_id
        self.tier = tier

    def play(self, action: int) -> int:
        """Apply a legal action; +1 if the digit is the solution's, -1 if not."""
        reward, self.legal = E.step(self.board, self.cand, self.mask, self.solution, action)
        if reward > 0:
            self.correct += 1
        else:
            self.wrong += 1
        return reward

    @property
    def filled(self) -> int:
        return self.givens + self.correct + self.wrong

    @property
    def solved(self) -> bool:
        """Every cell filled and no wrong digit (a grid with only right digits always has a
        legal placement left until it is full)."""
        return self.legal == 0 and self.wrong == 0

    @property
    def over(self) -> bool:
        """Solved, or no legal placement left (a dead end after a wrong digit)."""
        return self.legal == 0

    # --- the `Game` protocol (`arcade_gym/core/game.py`), in `Sudoku-v0`'s indices ------------
    def legal_action_indices(self) -> list[int]:
        """The actions the mask allows, ascending (none once `over`)."""
        return np.flatnonzero(self.mask).tolist()

    def apply_action(self, action: int) -> int:
        """`play(action)` after checking it is legal; +1 for the solution's digit, -1 if not."""
        if not (0 <= action < N_ACTIONS and self.mask[action]):
            raise ValueError(f"action {action} is not a legal placement now")
        return self.play(action)

    def state_hash(self) -> str:
        """16 hex digits over the puzzle, its solution and the board (the candidates, the mask
        and the right/wrong counts follow from those three)."""
        return state_digest(self.puzzle.tobytes(), self.solution.tobytes(), self.board.tobytes())

    def question(self) -> SudokuQuestion:
        """The benchmark question for the grid as it stands."""
        return SudokuQuestion.from_puzzle(grid_text(self.board), self.grid_id)

    @staticmethod
    def action_text(action: int) -> str:
        """`r3c5=7` for an action index."""
        return f"{cell_name(action // 9)}={action % 9 + 1}"
