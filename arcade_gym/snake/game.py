"""A Snake game as a small object over the engine arrays: seed, step, realtime, hash, question."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from arcade_gym.core.seeding import seed_to_u64
from arcade_gym.snake import engine as E
from arcade_gym.snake.contract import Cell, SnakeQuestion, action_order
from arcade_gym.snake.rules import (
    DIFFICULTIES,
    DIRECTION_NAMES,
    EMPTY,
    END_NONE,
    END_REASONS,
    END_WON,
    FOOD,
    MAX_DECISIONS,
    RULES_VERSION,
    SNAKE,
    START_LENGTH,
)

CellTuple = tuple[int, int]


Seed = str | int | np.integer[Any]
"""A game seed: a name such as `"seed-01"` (hashed with blake2b) or an integer."""


def check_seed(seed: object) -> str | int:
    """A game seed is a name (`"seed-01"`) or an int; anything else is the caller's mistake."""
    if isinstance(seed, bool) or not isinstance(seed, str | int | np.integer):
        raise TypeError(
            f"Snake seed must be a string such as 'seed-01' or an int, got {type(seed).__name__}"
        )
    return seed if isinstance(seed, str) else int(seed)


def check_difficulty(difficulty: object) -> str:
    """The difficulty name, or one clear error listing the choices."""
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {list(DIFFICULTIES)}, got {difficulty!r}")
    return difficulty


def direction_index(direction: int | str | np.integer) -> int:
    """0..3 from an index or a name (`"up"`, `"right"`, `"down"`, `"left"`)."""
    if isinstance(direction, str):
        if direction not in DIRECTION_NAMES:
            raise ValueError(f"direction must be one of {DIRECTION_NAMES}, got {direction!r}")
        return DIRECTION_NAMES.index(direction)
    if isinstance(direction, bool) or not isinstance(direction, int | np.integer):
        raise ValueError(
            f"direction must be an integer in [0, 4) (up, right, down, left) or a name, "
            f"got {direction!r}"
        )
    if not 0 <= int(direction) < 4:
        raise ValueError(
            f"direction {int(direction)} is out of range [0, 4) (0 up, 1 right, 2 down, 3 left)"
        )
    return int(direction)


class SnakeGame:
    """One game of Snake (NARCADE rules 0.4.0) on the board of `difficulty`.

    The food sequence comes from the seed alone (a name hashed with blake2b, or an int), so the
    same seed and the same answers replay the same game. `max_decisions` caps the answers (0 for
    no cap); `starve_limit` ends the game after that many moves without food (None: never, as in
    NARCADE; the RL env sets rows * cols * 2).
    """

    def __init__(
        self,
        seed: Seed,
        difficulty: str = "easy",
        *,
        max_decisions: int = MAX_DECISIONS,
        starve_limit: int | None = None,
    ) -> None:
        self.difficulty = check_difficulty(difficulty)
        if max_decisions < 0 or (starve_limit is not None and starve_limit < 0):
            raise ValueError("max_decisions and starve_limit must be >= 0 (0 means no cap)")
        spec = DIFFICULTIES[self.difficulty]
        n = spec.rows * spec.cols
        self.grid = np.zeros(n, np.uint8)
        self.body = np.zeros(n, np.int64)
        self.st = np.zeros(E.STATE_LEN, np.int64)
        self.rng = np.zeros(1, np.uint64)
        st = self.st
        st[E.S_ROWS] = spec.rows
        st[E.S_COLS] = spec.cols
        st[E.S_TICK_MS] = spec.tick_ms
        st[E.S_MAX_DECISIONS] = max_decisions
        st[E.S_STARVE_LIMIT] = starve_limit or 0
        self.reset(seed)

    def reset(self, seed: Seed) -> None:
        """Start a new game from `seed` on the same board and caps, reusing the arrays."""
        self.seed = check_seed(seed)
        self.seed_u64 = seed_to_u64(self.seed)
        E.reset(self.grid, self.body, self.st, self.rng, np.uint64(self.seed_u64))

    @classmethod
    def from_position(
        cls,
        snake: Sequence[CellTuple],
        food: CellTuple | None,
        heading: int | str,
        difficulty: str = "easy",
        *,
        score: int | None = None,
        seed: Seed = "position",
        max_decisions: int = MAX_DECISIONS,
        starve_limit: int | None = None,
    ) -> SnakeGame:
        """A game set to a given position (tests, search): `snake` is `(row, col)` cells head
        first, each next to the one before; `food` an empty cell, or None for a board without
        food (only a full board has none in play). Later food comes from `seed`; `score`
        defaults to `len(snake) - 3`."""
        game = cls(seed, difficulty, max_decisions=max_decisions, starve_limit=starve_limit)
        rows, cols = game.rows, game.cols
        cells = [(int(r), int(c)) for r, c in snake]
        if not cells or len(set(cells)) != len(cells):
            raise ValueError("snake must be a non-empty list of distinct cells")
        for (r, c), (r2, c2) in pairwise(cells):
            if abs(r - r2) + abs(c - c2) != 1:
                raise ValueError(f"snake cells ({r}, {c}) and ({r2}, {c2}) are not neighbours")
        for r, c in [*cells, *([food] if food is not None else [])]:
            if not (0 <= r < rows and 0 <= c < cols):
                raise ValueError(f"cell ({r}, {c}) is off the {rows}x{cols} board")
        if food is not None and tuple(food) in set(cells):
            raise ValueError(f"food {food} is on the snake")
        st = game.st
        game.grid[:] = EMPTY
        for i, (r, c) in enumerate(reversed(cells)):  # body[0] = tail ... head
            game.body[i] = r * cols + c
            game.grid[r * cols + c] = SNAKE
        st[E.S_HEAD] = len(cells) - 1
        st[E.S_LENGTH] = len(cells)
        st[E.S_HEADING] = direction_index(heading)
        st[E.S_SCORE] = len(cells) - START_LENGTH if score is None else score
        if food is None:
            st[E.S_FOOD] = -1
        else:
            st[E.S_FOOD] = food[0] * cols + food[1]
            game.grid[st[E.S_FOOD]] = FOOD
        return game

    @classmethod
    def from_question(cls, question: SnakeQuestion) -> SnakeGame:
        """The position a question describes, as a game to search from. The food after the
        next one is unknown to a policy; it comes from a fixed seed here."""
        spec = DIFFICULTIES.get(question.difficulty)
        if spec is None or (spec.rows, spec.cols) != (question.rows, question.cols):
            raise ValueError(
                f"question board {question.rows}x{question.cols} is not NARCADE "
                f"{question.difficulty!r}"
            )
        food = None if question.food is None else (question.food.row, question.food.col)
        game = cls.from_position(
            [(c.row, c.col) for c in question.snake],
            food,
            question.heading,
            question.difficulty,
            score=question.score,
            seed="from-question",
        )
        game.st[E.S_DECISIONS] = question.decision
        return game

    def copy(self) -> SnakeGame:
        """An independent copy (for lookahead)."""
        other = object.__new__(SnakeGame)
        other.seed = self.seed
        other.difficulty = self.difficulty
        other.seed_u64 = self.seed_u64
        for name in ("grid", "body", "st", "rng"):
            setattr(other, name, getattr(self, name).copy())
        return other

    # --- state --------------------------------------------------------------------------------
    @property
    def rows(self) -> int:
        return int(self.st[E.S_ROWS])

    @property
    def cols(self) -> int:
        return int(self.st[E.S_COLS])

    @property
    def tick_ms(self) -> int:
        return int(self.st[E.S_TICK_MS])

    @property
    def length(self) -> int:
        return int(self.st[E.S_LENGTH])

    @property
    def score(self) -> int:
        """Food eaten."""
        return int(self.st[E.S_SCORE])

    @property
    def heading(self) -> int:
        return int(self.st[E.S_HEADING])

    @property
    def decisions(self) -> int:
        """Answers applied so far (the index of the next decision)."""
        return int(self.st[E.S_DECISIONS])

    @property
    def moves(self) -> int:
        """Moves made: decisions plus realtime ticks."""
        return int(self.st[E.S_MOVES])

    @property
    def over(self) -> bool:
        return int(self.st[E.S_END]) != END_NONE

    @property
    def won(self) -> bool:
        """The snake filled the board."""
        return int(self.st[E.S_END]) == END_WON

    @property
    def end_reason(self) -> str | None:
        """None while playing, else `wall`, `body`, `won`, `decision cap` or `no food`."""
        return END_REASONS[int(self.st[E.S_END])]

    def _cell(self, flat: int) -> CellTuple:
        return divmod(int(flat), self.cols)

    @property
    def food(self) -> CellTuple | None:
        """The food's `(row, col)`; None on a full board."""
        flat = int(self.st[E.S_FOOD])
        return None if flat < 0 else self._cell(flat)

    def snake_cells(self) -> list[CellTuple]:
        """The snake's `(row, col)` cells, head first."""
        n = self.body.shape[0]
        head = int(self.st[E.S_HEAD])
        idx = (head - np.arange(self.length)) % n
        return [self._cell(c) for c in self.body[idx]]

    def legal_directions(self) -> list[int]:
        """Every direction but the reversal (which is allowed, but keeps the heading)."""
        reversal = (self.heading + 2) % 4
        return [d for d in range(4) if d != reversal]

    def state_hash(self) -> str:
        """16 lowercase hex digits (64-bit FNV-1a) over the whole state, counters included."""
        return f"{int(E.state_hash(self.grid, self.body, self.st, self.rng)):016x}"

    # --- moves --------------------------------------------------------------------------------
    def _require_playing(self) -> None:
        if self.over:
            raise RuntimeError(f"the game is over ({self.end_reason}); start a new one")

    def step(self, direction: int | str) -> int:
        """Apply one decision (a direction index or name). Returns the food eaten (0 or 1)."""
        self._require_playing()
        d = direction_index(direction)
        return int(E.move(self.grid, self.body, self.st, self.rng, d, True))

    # --- the `Game` protocol (`arcade_gym/core/game.py`), in `Snake-v0`'s indices (directions) --
    def legal_action_indices(self) -> list[int]:
        """`legal_directions()` while the game is on (the env's mask: the reversal is masked out,
        though `apply_action` plays it, keeping the heading); none once it is over."""
        return [] if self.over else self.legal_directions()

    def apply_action(self, action: int) -> int:
        """One decision on direction index `action` (`step`); returns the food eaten (0 or 1)."""
        return self.step(action)

    def advance(self, elapsed_ms: float) -> int:
        """Realtime: the snake keeps its heading for every tick of `tick_ms` that fell inside
        `elapsed_ms` (the time the policy thought); the remainder carries over. Returns the moves
        made (fewer when the game ends meanwhile)."""
        self._require_playing()
        if not (isinstance(elapsed_ms, int | float) and math.isfinite(elapsed_ms)) or (
            elapsed_ms < 0
        ):
            raise ValueError(f"elapsed time must be a finite number >= 0 ms, got {elapsed_ms!r}")
        moves, _ = E.advance(
            self.grid, self.body, self.st, self.rng, round(float(elapsed_ms) * 1000.0)
        )
        return int(moves)

    # --- the question -------------------------------------------------------------------------
    def question(self) -> SnakeQuestion:
        """The NARCADE question for the next decision."""
        self._require_playing()
        food = self.food
        return SnakeQuestion(
            rules_version=RULES_VERSION,
            difficulty=self.difficulty,
            decision=self.decisions,
            state_hash=self.state_hash(),
            rows=self.rows,
            cols=self.cols,
            tick_ms=self.tick_ms,
            snake=[Cell(row=r, col=c) for r, c in self.snake_cells()],
            heading=DIRECTION_NAMES[self.heading],
            food=None if food is None else Cell(row=food[0], col=food[1]),
            length=self.length,
            score=self.score,
            actions=action_order(self.seed_u64, self.decisions),
        )
