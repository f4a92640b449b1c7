"""A Minesweeper game as a small object over the engine's arrays: seed, reveal, flag, questions."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from arcade_gym.core.copying import KeepsViews
from arcade_gym.core.seeding import seed_to_u64
from arcade_gym.minesweeper import engine as E
from arcade_gym.minesweeper.contract import MinesweeperQuestion, parse_action
from arcade_gym.minesweeper.render import board_rows
from arcade_gym.minesweeper.rules import (
    CAPPED,
    DIFFICULTIES,
    END_REASONS,
    FLAG,
    LOST,
    MAX_DECISIONS,
    MINE,
    PLAYING,
    REVEAL,
    RULES_VERSION,
    WON,
    action_from_index,
    action_index,
    action_text,
)

CUSTOM = "custom"
"""The difficulty name of a board built by `from_layout`."""


def game_seed_u64(seed: str | int) -> int:
    """The 64-bit engine seed of a game seed: a string is hashed (BLAKE2b, as Tetris seeds), an int
    taken mod 2**64, so NARCADE's seed 100 and the name "seed-01" both name one board each."""
    if isinstance(seed, bool) or not isinstance(seed, str | int | np.integer):
        raise TypeError(
            f"Minesweeper seed must be an int (e.g. NARCADE's 100) or a string such as 'seed-01', "
            f"got {type(seed).__name__}"
        )
    return seed_to_u64(seed)


@lru_cache(maxsize=16)
def _action_texts(rows: int, cols: int) -> tuple[str, ...]:
    """Every flat action index's string, shared by all games of one size (saves memory per env)."""
    return tuple(action_text(*action_from_index(a, rows, cols)) for a in range(2 * rows * cols))


class MinesweeperGame(KeepsViews):
    """One game: the hidden field, the visible board, counters, the legal-action mask.

    The opening cell is the first draw of the seed's splitmix64 stream (uniform over all cells,
    row-major index); the mines follow, uniformly among the cells outside its 3x3. The opening is
    revealed at construction (flood fill through zeros) and counts towards the score, not as a
    decision. `board` is a live (rows, cols) int8 view of what a player sees.
    """

    def __init__(
        self,
        seed: str | int = 0,
        difficulty: str = "easy",
        *,
        max_decisions: int = MAX_DECISIONS,
    ) -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {list(DIFFICULTIES)}, got {difficulty!r}")
        spec = DIFFICULTIES[difficulty]
        self._allocate(spec.rows, spec.cols, spec.mines, max_decisions)
        self.difficulty = difficulty
        self.reset(seed)

    def _allocate(self, rows: int, cols: int, mines: int, max_decisions: int) -> None:
        if isinstance(max_decisions, bool) or not isinstance(max_decisions, int | np.integer):
            raise TypeError(f"max_decisions must be an int, got {type(max_decisions).__name__}")
        if max_decisions < 1:
            raise ValueError(f"max_decisions must be >= 1, got {max_decisions}")
        n = rows * cols
        self.rows, self.cols, self.n_mines = rows, cols, mines
        self.field = np.zeros(n, np.int8)
        self.view = np.full(n, -2, np.int8)
        self.st = np.zeros(E.STATE_LEN, np.int64)
        self.stack = np.zeros(n, np.int32)
        self.mask = np.zeros(2 * n, np.int8)
        self.board = self.view.reshape(rows, cols)
        self._texts = _action_texts(rows, cols)
        self.st[E.S_ROWS], self.st[E.S_COLS], self.st[E.S_MINES] = rows, cols, mines
        self.st[E.S_MAX_DECISIONS] = max_decisions

    def reset(self, seed: str | int) -> int:
        """A new board from `seed` in the same buffers; returns the cells the opening revealed."""
        u64 = game_seed_u64(seed)
        self.seed = seed
        self.seed_u64 = u64
        return int(
            E.new_board(np.uint64(u64), self.field, self.view, self.st, self.stack, self.mask)
        )

    @classmethod
    def from_layout(
        cls,
        layout: Sequence[str],
        opening: tuple[int, int],
        *,
        max_decisions: int = MAX_DECISIONS,
        seed: str | int = "layout",
    ) -> MinesweeperGame:
        """A game on a given mine layout (rows of `*` mine and `.` safe), opened at `opening`.

        For fixtures and tests: the opening only has to be safe here, its 3x3 need not be.
        `seed` only keys the question's action order.
        """
        rows, cols = len(layout), len(layout[0]) if layout else 0
        if rows == 0 or cols == 0 or any(len(line) != cols for line in layout):
            raise ValueError("layout must be non-empty rows of equal length")
        if any(ch not in "*." for line in layout for ch in line):
            raise ValueError("layout rows may only hold '*' (mine) and '.' (safe)")
        r0, c0 = opening
        if not (0 <= r0 < rows and 0 <= c0 < cols) or layout[r0][c0] == "*":
            raise ValueError(f"opening {opening} must be a safe cell on the board")
        mines = sum(line.count("*") for line in layout)
        game = object.__new__(cls)
        game._allocate(rows, cols, mines, max_decisions)
        game.difficulty = CUSTOM
        game.seed = seed
        game.seed_u64 = game_seed_u64(seed)
        for r, line in enumerate(layout):
            for c, ch in enumerate(line):
                game.field[r * cols + c] = MINE if ch == "*" else 0
        E.compute_counts(game.field, rows, cols)
        game.st[E.S_OPENING] = r0 * cols + c0
        E.open_board(game.field, game.view, game.st, game.stack, game.mask)
        return game

    def copy(self) -> MinesweeperGame:
        """An independent copy (for search, and for tests that branch a game)."""
        other = object.__new__(MinesweeperGame)
        other.__dict__.update(self.__dict__)
        for name in ("field", "view", "st", "stack", "mask"):
            setattr(other, name, getattr(self, name).copy())
        other.board = other.view.reshape(self.rows, self.cols)
        return other

    # --- state --------------------------------------------------------------------------------
    @property
    def status(self) -> int:
        """`rules.PLAYING`, `LOST`, `WON` or `CAPPED`."""
        return int(self.st[E.S_STATUS])

    @property
    def over(self) -> bool:
        return self.status != PLAYING

    @property
    def won(self) -> bool:
        return self.status == WON

    @property
    def lost(self) -> bool:
        return self.status == LOST

    @property
    def capped(self) -> bool:
        return self.status == CAPPED

    @property
    def end_reason(self) -> str | None:
        """None while playing, else `mine`, `solved` or `decision cap`."""
        return END_REASONS[self.status]

    @property
    def score(self) -> int:
        """Safe cells revealed, the opening included (NARCADE's score)."""
        return int(self.st[E.S_REVEALED])

    @property
    def revealed(self) -> int:
        return int(self.st[E.S_REVEALED])

    @property
    def safe_cells(self) -> int:
        return self.rows * self.cols - self.n_mines

    @property
    def flags(self) -> int:
        return int(self.st[E.S_FLAGS])

    @property
    def decisions(self) -> int:
        """Actions applied since the opening (flags included)."""
        return int(self.st[E.S_DECISIONS])

    @property
    def max_decisions(self) -> int:
        return int(self.st[E.S_MAX_DECISIONS])

    @property
    def opening(self) -> tuple[int, int]:
        """(row, col) of the opening cell."""
        return divmod(int(self.st[E.S_OPENING]), self.cols)

    @property
    def exploded(self) -> tuple[int, int] | None:
        """(row, col) of the mine that ended the game, if one did."""
        return divmod(int(self.st[E.S_LAST]), self.cols) if self.lost else None

    @property
    def mines(self) -> np.ndarray:
        """Boolean (rows, cols) map of the mines (the hidden truth: tests and renders only)."""
        return (self.field == MINE).reshape(self.rows, self.cols)

    @property
    def field_grid(self) -> np.ndarray:
        """The hidden field as (rows, cols): 9 = mine, else the count of neighbouring mines."""
        return self.field.reshape(self.rows, self.cols)

    def state_hash(self) -> str:
        """8 lowercase hex digits over the visible state (board, counters, decision index)."""
        return f"{int(E.state_hash(self.view, self.st)):08x}"

    # --- actions ------------------------------------------------------------------------------
    def legal_indices(self) -> np.ndarray:
        """Flat env indices of the legal actions, ascending (reveals row-major, then flags)."""
        return np.flatnonzero(self.mask)

    def legal_actions(self) -> list[str]:
        """The legal actions as strings, canonical (unshuffled) order."""
        return [self.action_text(int(a)) for a in self.legal_indices()]

    def legal_action_indices(self) -> list[int]:
        """`legal_indices()` as a list (the `Game` protocol, `arcade_gym/core/game.py`); the mask
        is empty once the game is over."""
        return self.legal_indices().tolist()

    def apply_action(self, action: int) -> int:
        """`step(action)` (the `Game` protocol); returns the safe cells newly revealed."""
        if not 0 <= action < self.mask.shape[0]:
            raise ValueError(f"action {action} is out of range [0, {self.mask.shape[0]})")
        return self.step(action)

    def action_text(self, index: int) -> str:
        """`"reveal r c"` / `"flag r c"` of a flat env index."""
        action_from_index(index, self.rows, self.cols)  # range check with a clear message
        return self._texts[index]

    def action_index(self, text: str) -> int:
        """The flat env index of an action string (ValueError when unreadable)."""
        parsed = parse_action(text)
        if parsed is None:
            raise ValueError(f"cannot read an action from {text!r}; expected e.g. 'reveal 3 4'")
        return action_index(*parsed, self.rows, self.cols)

    def step(self, index: int) -> int:
        """Apply a flat env action; returns the safe cells newly revealed."""
        if self.over:
            raise RuntimeError(f"the game is over ({self.end_reason}); start a new one")
        gained = int(E.step(self.field, self.view, self.st, self.stack, self.mask, int(index)))
        if gained < 0:
            raise ValueError(f"{self.action_text(int(index))!r} is not legal now")
        return gained

    def reveal(self, row: int, col: int) -> int:
        """Reveal a hidden unflagged cell; returns the safe cells newly revealed (0 on a mine)."""
        return self._act(REVEAL, row, col)

    def flag(self, row: int, col: int) -> None:
        """Toggle the flag on a hidden cell."""
        self._act(FLAG, row, col)

    def play(self, action: str) -> int:
        """Apply an action string (`"reveal 3 4"`); returns the safe cells newly revealed."""
        return self.step(self.action_index(action))

    def _act(self, kind: str, row: int, col: int) -> int:
        if self.over:
            raise RuntimeError(f"the game is over ({self.end_reason}); start a new one")
        index = action_index(kind, row, col, self.rows, self.cols)
        if not self.mask[index]:
            state = {-2: "hidden", -1: "flagged"}.get(int(self.board[row, col]), "revealed")
            raise ValueError(f"cannot {kind} cell ({row}, {col}): it is {state}")
        return self.step(index)

    # --- the question -------------------------------------------------------------------------
    def action_order(self) -> np.ndarray:
        """The legal flat indices in the question's order: shuffled per (seed, decision)."""
        legal = self.legal_indices()
        return legal[E.action_order(np.uint64(self.seed_u64), self.decisions, legal.size)]

    def question(self) -> MinesweeperQuestion:
        """What a policy is asked now: the visible board and the shuffled legal actions."""
        if self.over:
            raise RuntimeError(f"the game is over ({self.end_reason}); start a new one")
        texts = self._texts
        actions = [texts[a] for a in self.action_order().tolist()]
        return MinesweeperQuestion(
            game="minesweeper",
            rules_version=RULES_VERSION,
            difficulty=self.difficulty,
            state_hash=self.state_hash(),
            decision=self.decisions,
            rows=self.rows,
            cols=self.cols,
            mines=self.n_mines,
            flags=self.flags,
            revealed=self.revealed,
            board=board_rows(self.board),
            actions=actions,
        )
