"""The Gymnasium environment of NARCADE Minesweeper (`arcade_gym/Minesweeper-v0`)."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from arcade_gym.core.spaces import MaskedDiscrete
from arcade_gym.minesweeper import engine as E
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.minesweeper.render import render_ansi, render_rgb
from arcade_gym.minesweeper.rules import CAPPED, DIFFICULTIES, LOST, MAX_DECISIONS, PLAYING, WON

StepResult = tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]
"""What `step` returns: observation, reward, terminated, truncated, info."""


def _episode_seed(env: gym.Env[Any, Any], options: dict[str, Any] | None) -> str | int:
    """A named seed from `options["seed"]` (NARCADE's ints such as 100, or a string), else a draw
    from the env's `np_random` (which `reset(seed=...)` seeds, as Gymnasium specifies)."""
    named = (options or {}).get("seed")
    if named is None:  # one raw 64-bit draw: a tenth of the cost of Generator.integers
        return int(env.np_random.bit_generator.random_raw())
    if isinstance(named, bool) or not isinstance(named, str | int | np.integer):
        raise TypeError(
            "options['seed'] must name a board: an int such as NARCADE's 100 or a string such as "
            f"'seed-01', got {type(named).__name__}"
        )
    return named if isinstance(named, str) else int(named)


class MinesweeperEnv(gym.Env[np.ndarray, np.int64]):
    """Minesweeper, NARCADE rules 0.4.0 (`shared/RULES.md`): reveal or flag one cell per step.

    Observation: Box(-2, 8, (rows, cols), int8), the visible board: -2 hidden, -1 flagged, 0..8
        the revealed cell's count of neighbouring mines. `difficulty` sets the size: easy 9x9
        (10 mines), medium 16x16 (40), hard 16x30 (99).
    Action: Discrete(2 * rows * cols). Index `i < rows*cols` reveals cell `i` (row-major,
        `i = row * cols + col`); index `rows*cols + i` toggles the flag on cell `i`.
        `info["action_mask"]` / `action_masks()` mark the legal ones: reveal a hidden unflagged
        cell, flag or unflag a hidden cell (no limit on flags; the flood fill never lifts one).
        A masked or out-of-range action raises ValueError;
        `action_space.sample()` draws a legal one.
    Reward: the number of safe cells the action revealed (flood fill included); 0 for a flag and for
        a mine. The opening, revealed by `reset` (its 3x3 is mine-free), is not rewarded, so the
        return is the NARCADE score (`info["score"]`) minus the opening's size.
    Termination: a mine (`info["won"] = False`) or every safe cell revealed (`info["won"] = True`).
        Truncation: `max_decisions` (default 2,000) actions, flags included; a capped game is not
        a win.
    Options: `reset(seed=int)` follows Gymnasium (the board is drawn from `np_random`);
        `reset(options={"seed": 100})` plays NARCADE's named seed 100 (ints or strings such as
        "seed-01"). `include_question=True` puts the policy contract's `MinesweeperQuestion` in
        `info["question"]` while the game is in play. Info also holds `score`, `flags`,
        `decisions` and `won`.
    Versions: v0 (rules 0.4.0).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        difficulty: str = "easy",
        max_decisions: int = MAX_DECISIONS,
        include_question: bool = False,
    ) -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {list(DIFFICULTIES)}, got {difficulty!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.difficulty = difficulty
        self.include_question = include_question
        self.game = MinesweeperGame("reset-me", difficulty, max_decisions=max_decisions)
        self.max_decisions = max_decisions
        spec = DIFFICULTIES[difficulty]
        self.rows, self.cols = spec.rows, spec.cols
        self.n_actions = 2 * spec.cells
        self.action_space = MaskedDiscrete(self.n_actions, self.game.mask)
        self.observation_space = spaces.Box(-2, 8, (spec.rows, spec.cols), np.int8)

    # --- Gymnasium API ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.game.reset(_episode_seed(self, options))
        return self.game.board.copy(), self._info(self.game.st.tolist())

    def step(self, action: int | np.integer[Any]) -> StepResult:
        game = self.game
        try:
            a = int(action)
            legal = 0 <= a < self.n_actions and bool(game.mask[a])
        except (TypeError, ValueError, OverflowError):
            legal = False
        if not legal:
            raise self._action_error(action)
        gained = E.step(game.field, game.view, game.st, game.stack, game.mask, a)
        st = game.st.tolist()
        status = st[E.S_STATUS]
        terminated = status in (LOST, WON)
        truncated = status == CAPPED
        return game.board.copy(), float(gained), terminated, truncated, self._info(st)

    def render(self) -> str | np.ndarray | None:
        game = self.game
        field = game.field_grid if game.over else None
        if self.render_mode == "ansi":
            header = (
                f"{self.difficulty} {game.rows}x{game.cols}  mines {game.n_mines}  "
                f"flags {game.flags}  revealed {game.revealed}/{game.safe_cells}  "
                f"decisions {game.decisions}" + (f"  {game.end_reason}" if game.over else "")
            )
            return render_ansi(game.board, field, game.exploded, header=header)
        if self.render_mode == "rgb_array":
            return render_rgb(game.board, field, game.exploded)
        return None

    def action_masks(self) -> np.ndarray:
        """Boolean mask of legal actions (sb3-contrib's MaskablePPO calls this)."""
        return self.game.mask.astype(bool)

    # --- helpers ------------------------------------------------------------------------------
    def _action_error(self, action: Any) -> Exception:
        """The one clear error for an action that cannot be played now."""
        if self.game.over:
            return RuntimeError("the episode has ended; call reset() before step()")
        try:
            a = int(action)
        except (TypeError, ValueError, OverflowError):
            return ValueError(f"action must be an integer in [0, {self.n_actions}), got {action!r}")
        if not 0 <= a < self.n_actions:
            return ValueError(
                f"action {a} is out of range [0, {self.n_actions}): index < {self.n_actions // 2} "
                "reveals a cell, the rest toggle flags"
            )
        return ValueError(
            f"action {a} ({self.game.action_text(a)}) is masked out (revealed cell, or reveal "
            "on a flagged cell); choose an action where info['action_mask'] / "
            "env.action_masks() is 1"
        )

    def _info(self, st: list[int]) -> dict[str, Any]:
        """Step info from the state vector as a list (one conversion, not one per field)."""
        info: dict[str, Any] = {
            "action_mask": self.game.mask.copy(),
            "score": st[E.S_REVEALED],
            "flags": st[E.S_FLAGS],
            "decisions": st[E.S_DECISIONS],
            "won": st[E.S_STATUS] == WON,
        }
        if self.include_question and st[E.S_STATUS] == PLAYING:
            info["question"] = self.game.question()
        return info
