"""The Gymnasium environment of NARCADE Minesweeper (`arcade_gym/Minesweeper-v0`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from arcade_gym.core.args import check_choice, check_flag, check_int, check_render_mode
from arcade_gym.core.env import ArcadeEnv, StepResult
from arcade_gym.minesweeper import engine as E
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.minesweeper.render import render_ansi, render_rgb
from arcade_gym.minesweeper.rules import CAPPED, DIFFICULTIES, LOST, MAX_DECISIONS, PLAYING, WON


class MinesweeperEnv(ArcadeEnv[np.ndarray]):
    """Minesweeper, NARCADE rules 0.4.0 (`docs/rules/narcade.md`): reveal or flag one cell per step.

    Observation: Box(-2, 8, (rows, cols), int8), the visible board: -2 hidden, -1 flagged, 0..8
        the revealed cell's count of neighbouring mines. `difficulty` sets the size: easy 9x9
        (10 mines), medium 16x16 (40), hard 16x30 (99).
    Action: Discrete(2 * rows * cols). Index `i < rows*cols` reveals cell `i` (row-major,
        `i = row * cols + col`); index `rows*cols + i` toggles the flag on cell `i`.
        `info["action_mask"]` / `action_masks()` mark the legal ones: reveal a hidden unflagged
        cell, flag or unflag a hidden cell (no limit on flags; the flood fill never lifts one).
        A masked action raises ValueError, or with `illegal_action="penalty"` leaves the board
        unchanged, pays `illegal_reward` (-1), sets `info["illegal"]` and counts against
        `max_decisions` (`"terminate"` also ends the episode). Out-of-range actions raise
        ValueError, non-integer ones TypeError. `action_space.sample()` draws a legal one.
        `observation="flat"` gives the board as one float32 vector.
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
    action_layout = "row * cols + col reveals a cell, rows * cols more toggles its flag"
    named_seed_help = "a board name: an int such as NARCADE's 100 or a string such as 'seed-01'"
    variants = tuple({"difficulty": d} for d in DIFFICULTIES)

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        difficulty: str = "easy",
        max_decisions: int = MAX_DECISIONS,
        include_question: bool = False,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        check_choice("difficulty", difficulty, DIFFICULTIES)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.max_decisions = check_int("max_decisions", max_decisions, low=1)
        self.include_question = check_flag("include_question", include_question)
        self.difficulty = difficulty
        self.game = MinesweeperGame("reset-me", difficulty, max_decisions=self.max_decisions)
        spec = DIFFICULTIES[difficulty]
        self.rows, self.cols = spec.rows, spec.cols
        self.n_actions = 2 * spec.cells
        self._setup_actions(
            self.n_actions,
            self.game.mask,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
        )
        self._setup_observation(spaces.Box(-2, 8, (spec.rows, spec.cols), np.int8), observation)

    # --- the game's hooks -----------------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[np.ndarray, dict[str, Any]]:
        self.game.reset(seed)
        return self.game.board.copy(), self._info(self.game.st.tolist())

    def _advance(self, action: int) -> StepResult:
        game = self.game
        gained = E.step(game.field, game.view, game.st, game.stack, game.mask, action)
        st = game.st.tolist()
        status = st[E.S_STATUS]
        terminated = status in (LOST, WON)
        truncated = status == CAPPED
        return game.board.copy(), float(gained), terminated, truncated, self._info(st)

    def _current(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self.game.board.copy(), self._info(self.game.st.tolist())

    def _decisions_left(self) -> int:
        return self.max_decisions - int(self.game.st[E.S_DECISIONS])

    def _describe_action(self, action: int) -> str:
        return f"{self.game.action_text(action)}: a revealed cell, or a reveal on a flagged cell"

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

    # --- helpers ------------------------------------------------------------------------------
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
