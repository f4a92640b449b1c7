"""The Gymnasium environment of Sudoku (`arcade_gym/Sudoku-v0`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from arcade_gym.core.args import check_render_mode
from arcade_gym.core.env import ArcadeEnv, StepResult, reset_options
from arcade_gym.core.seeding import seed_to_u64
from arcade_gym.sudoku import engine
from arcade_gym.sudoku.game import N_ACTIONS, SudokuGame
from arcade_gym.sudoku.generator import solve_count
from arcade_gym.sudoku.grader import grade
from arcade_gym.sudoku.render import render_ansi, render_rgb
from arcade_gym.sudoku.rules import BEYOND, CELLS, SETS, parse_puzzle
from arcade_gym.sudoku.sets import set_grids

MAX_TIER_DRAWS = 20_000
"""Generated candidates tried for a wanted tier before giving up (Beyond: about 1 in 27)."""


def _check_source(grid_set: object, tier: object) -> tuple[str | None, int | None]:
    if grid_set is not None and grid_set not in SETS:
        raise ValueError(
            f"set must be None (generated grids) or one of {list(SETS)}, got {grid_set!r}"
        )
    if tier is not None and (
        isinstance(tier, bool) or not isinstance(tier, int | np.integer) or not 1 <= tier <= BEYOND
    ):
        raise ValueError(f"tier must be None or an int in 1..7, got {tier!r}")
    return (None if grid_set is None else str(grid_set)), (None if tier is None else int(tier))


class SudokuEnv(ArcadeEnv[dict[str, Any]]):
    """Sudoku: fill a 9x9 grid so every row, column and box holds 1..9 (`docs/rules/sudoku.md`).

    Observation: Dict(board=Box(0, 9, (9, 9), int8) with 0 for empty cells,
        candidates=Box(0, 1, (9, 9, 9), int8): `candidates[r, c, d - 1]` is 1 when digit d can go
        in (r, c) without repeating in its row, column or box; the same values as the action mask).
    Action: Discrete(729), `(row * 9 + col) * 9 + digit - 1`. `info["action_mask"]` /
        `action_masks()` mark the placements that break no constraint (empty cell, digit not in a
        peer); givens and filled cells cannot be changed. A masked or out-of-range action raises
        ValueError, a non-integer one TypeError.
    Reward: +1 for a digit that matches the (unique) solution, -1 for one that does not. A wrong
        digit can lead to a dead end: cells with no candidate left.
    Termination: no legal placement left, either because the grid is solved (`info["solved"]`)
        or because of a dead end. No truncation (at most 81 placements).
    Options: constructor `set=None | "v1"`, `tier=None | 1..7`, both also `reset` options.
        With `set="v1"`, grids come from the published set (the tier's six, or all 42);
        with `set=None` (default), a fresh minimal puzzle is generated from the episode seed
        (when `tier` is given, candidates are graded until one has that tier; Beyond takes
        about 0.1 s). `reset(options={"puzzle": "<81 chars>"})` plays any grid with exactly one
        solution (`0` or `.` blanks); `reset(options={"set": "v1", "grid": "v1-t3-2"})` one
        grid of the set. `reset(seed=int)` follows Gymnasium; `reset(options={"seed": "s-1"})`
        names the seed that picks or generates the grid. Info holds `action_mask`, `grid_id`,
        `tier` (None when not graded), `filled`, `correct`, `wrong`, `solved`.
    Versions: v0 (set v1, grader 1).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012
    option_keys = frozenset({"seed", "set", "tier", "puzzle", "grid"})
    action_layout = "(row * 9 + col) * 9 + digit - 1"
    variants = ({}, {"set": "v1"}, {"set": "v1", "tier": 7})

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        set: str | None = None,
        tier: int | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.grid_set, self.tier = _check_source(set, tier)
        self.game = SudokuGame()
        self._board_view = self.game.board.reshape(9, 9)
        self._cand_view = self.game.mask.reshape(9, 9, 9)
        self._options: dict[str, Any] = {}
        self._setup_actions(
            N_ACTIONS, self.game.mask, illegal_action=illegal_action, illegal_reward=illegal_reward
        )
        self._setup_observation(
            spaces.Dict(
                {
                    "board": spaces.Box(0, 9, (9, 9), np.int8),
                    "candidates": spaces.Box(0, 1, (9, 9, 9), np.int8),
                }
            ),
            observation,
        )

    # --- Gymnasium API --------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self._options = dict(reset_options(options))
        return super().reset(seed=seed, options=options)

    def render(self) -> str | np.ndarray | None:
        game = self.game
        if self.render_mode == "ansi":
            tier = "" if game.tier is None else f"  tier {game.tier}"
            header = f"{game.grid_id}{tier}  correct {game.correct}  wrong {game.wrong}"
            return render_ansi(game.board, game.puzzle, header=header)
        if self.render_mode == "rgb_array":
            return render_rgb(game.board, game.puzzle, game.solution)
        return None

    # --- the game's hooks -----------------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[dict[str, Any], dict[str, Any]]:
        opts = self._options
        grid_set, tier = _check_source(opts.get("set", self.grid_set), opts.get("tier", self.tier))
        if "puzzle" in opts:
            self._start_puzzle(opts["puzzle"])
        elif "grid" in opts:
            self._start_set_grid(grid_set or "v1", opts["grid"])
        elif grid_set is not None:
            pool = set_grids(grid_set, tier)
            self._start_record(pool[seed_to_u64(seed) % len(pool)])
        else:
            self._start_generated(seed_to_u64(seed), tier)
        return self._current()

    def _advance(self, action: int) -> StepResult:
        reward = self.game.play(action)
        obs, info = self._current()
        return obs, float(reward), self.game.legal == 0, False, info

    def _current(self) -> tuple[dict[str, Any], dict[str, Any]]:
        game = self.game
        correct, wrong = game.correct, game.wrong
        obs = {"board": self._board_view.copy(), "candidates": self._cand_view.copy()}
        info = {
            "action_mask": game.mask.copy(),
            "grid_id": game.grid_id,
            "tier": game.tier,
            "filled": game.givens + correct + wrong,
            "correct": correct,
            "wrong": wrong,
            "solved": game.legal == 0 and wrong == 0,
        }
        return obs, info

    def _describe_action(self, action: int) -> str:
        return self.game.action_text(action)

    # --- where grids come from ------------------------------------------------------------------
    def _start_puzzle(self, text: object) -> None:
        if not isinstance(text, str):
            raise TypeError(f"options['puzzle'] must be an 81-character string, got {text!r:.40}")
        puzzle = parse_puzzle(text)
        count, _, solution = solve_count(puzzle)
        if count != 1:
            many = "more than one solution" if count > 1 else "no solution"
            raise ValueError(f"options['puzzle'] has {many}; Sudoku-v0 needs exactly one")
        self.game.reset(puzzle, solution, "custom", None)

    def _start_set_grid(self, grid_set: str, grid_id: object) -> None:
        for record in set_grids(grid_set):
            if record["id"] == grid_id:
                self._start_record(record)
                return
        raise ValueError(f"no grid {grid_id!r} in set {grid_set} (ids like '{grid_set}-t3-2')")

    def _start_record(self, record: dict[str, Any]) -> None:
        puzzle = np.frombuffer(record["puzzle"].encode(), np.uint8).astype(np.int8) - 48
        solution = np.frombuffer(record["solution"].encode(), np.uint8).astype(np.int8) - 48
        self.game.reset(puzzle, solution, record["id"], record["tier"])

    def _start_generated(self, seed: int, tier: int | None) -> None:
        solution = np.zeros(CELLS, np.int8)
        for attempt in range(MAX_TIER_DRAWS):
            key = seed if attempt == 0 else seed_to_u64(f"{seed}/{attempt}")
            puzzle = engine.new_puzzle(np.uint64(key), solution)
            graded = None if tier is None else grade(puzzle).tier
            if graded == tier:
                self.game.reset(puzzle, solution, f"gen-{key:016x}", graded)
                return
        raise RuntimeError(f"no tier-{tier} grid in {MAX_TIER_DRAWS} generated candidates")
