"""The Gymnasium environment of NARCADE Snake (`arcade_gym/Snake-v0`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import numpy as np
from gymnasium import spaces

from arcade_gym.core.args import (
    check_choice,
    check_flag,
    check_int,
    check_optional_callable,
    check_render_mode,
)
from arcade_gym.core.clock import Clock, check_clock
from arcade_gym.core.env import ArcadeEnv, StepResult
from arcade_gym.core.keys import K_DOWN, K_LEFT, K_RIGHT, K_UP, key_map
from arcade_gym.core.warmup import warm
from arcade_gym.snake import engine as E
from arcade_gym.snake.game import SnakeGame
from arcade_gym.snake.render import render_ansi, render_rgb
from arcade_gym.snake.rules import (
    DIFFICULTIES,
    DIRECTION_NAMES,
    END_NONE,
    END_REASONS,
    END_WON,
    MAX_DECISIONS,
    N_DIRECTIONS,
    N_PLANES,
    TERMINAL_ENDS,
)

RewardFn = Callable[[SnakeGame, int], SupportsFloat]
"""`reward_fn(game, food_eaten) -> reward`, called after each step on the game as it is now."""

MODES = ("lockstep", "realtime")


class SnakeEnv(ArcadeEnv[dict[str, Any]]):
    """Snake on a rows x cols board (NARCADE rules 0.4.0, `docs/rules/narcade.md`).

    Observation: Dict(
        board=Box(0, 1, (rows, cols, 5), float32): planes body (every snake cell), head, tail,
            food, and body order (head 1.0, then (length - i) / length down to the tail
            1 / length, so the way each segment will move is visible);
        length=Box(0, rows * cols, (1,), float32) the snake's length).
        Row 0 is the top; rows x cols is 8x8 (easy), 12x12 (medium) or 16x16 (hard).
    Action: Discrete(4), absolute directions 0 up, 1 right, 2 down, 3 left.
        `info["action_mask"]` / `action_masks()` mask the reversal (turning back into the neck);
        stepping it anyway is legal and keeps the heading (`docs/rules/narcade.md`).
        `action_space.sample()` draws an unmasked action. An out-of-range action raises
        ValueError, a non-integer one TypeError.
    Reward: +1 per food eaten, 0 otherwise, or `reward_fn(game, food_eaten)`.
    Termination: wall or body collision, or a full board (a win, `info["won"]`).
    Truncation: `max_decisions` (2,000, NARCADE's default; 0 = none), or `max_steps_without_food`
        moves without eating (default rows * cols * 2; 0 = none). `info["end_reason"]` is
        `wall`, `body`, `won`, `decision cap` or `no food` once the episode ends.
    Info: `action_mask`, `score` (food eaten), `length`, `won`; `end_reason` once ended.
    Options: `difficulty="easy" | "medium" | "hard"`. `reset(seed=int)` follows Gymnasium;
        `reset(options={"seed": 100})` plays a named NARCADE seed (an int or a string).
        `mode="realtime"` lets the snake keep its heading for every tick (250 / 150 / 100 ms)
        of the time the `clock` measures between observation and action (default: the wall
        clock; `SimulatedClock` for reproducible runs) before the action moves it;
        `info["ticks"]` counts those moves. `include_question=True` puts the NARCADE
        `SnakeQuestion` in `info["question"]`. `render_mode` is `ansi` or `rgb_array`.
        `observation="flat"` gives the same values as one float32 vector. `illegal_action` is
        accepted as on every env, but no Snake action is ever illegal (the masked reversal is
        played by the rules).
    Versions: v0 (rules 0.4.0).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012
    masked_actions_legal = True  # the rules define the reversal: it keeps the heading
    action_layout = "0 up, 1 right, 2 down, 3 left"
    keys_to_action = key_map(
        {0: (K_UP, "w"), 1: (K_RIGHT, "d"), 2: (K_DOWN, "s"), 3: (K_LEFT, "a")}
    )
    named_seed_help = "a NARCADE seed (an int such as 100, or a string)"
    variants = tuple({"difficulty": d} for d in DIFFICULTIES)
    observation_space: spaces.Dict

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        difficulty: str = "easy",
        mode: str = "lockstep",
        clock: Clock | None = None,
        max_decisions: int = MAX_DECISIONS,
        max_steps_without_food: int | None = None,
        include_question: bool = False,
        reward_fn: RewardFn | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        check_choice("difficulty", difficulty, DIFFICULTIES)
        check_choice("mode", mode, MODES)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.clock: Clock = check_clock(clock)
        spec = DIFFICULTIES[difficulty]
        cells = spec.rows * spec.cols
        if max_steps_without_food is None:
            max_steps_without_food = 2 * cells
        self.max_decisions = check_int("max_decisions (>= 0, 0 = no cap)", max_decisions)
        self.max_steps_without_food = check_int(
            "max_steps_without_food (>= 0, 0 = no cap)", max_steps_without_food
        )
        self.difficulty = difficulty
        self.mode = mode
        self.include_question = check_flag("include_question", include_question)
        self.reward_fn = check_optional_callable("reward_fn", reward_fn)
        self._board = np.zeros((spec.rows, spec.cols, N_PLANES), np.float32)
        self._length = np.zeros(1, np.float32)
        self._setup_actions(
            N_DIRECTIONS,
            np.ones(N_DIRECTIONS, np.int8),
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
        )
        self._setup_observation(
            spaces.Dict(
                {
                    "board": spaces.Box(0.0, 1.0, self._board.shape, np.float32),
                    "length": spaces.Box(0.0, float(cells), (1,), np.float32),
                }
            ),
            observation,
        )
        self.game = SnakeGame(
            "reset-me",
            difficulty,
            max_decisions=self.max_decisions,
            starve_limit=self.max_steps_without_food,
        )
        self._project()

    # --- the game's hooks -----------------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[dict[str, Any], dict[str, Any]]:
        self.game.reset(seed)
        self._project()
        if self.mode == "realtime":
            self.clock.start()
        return self._observation(), self._info(self.game.st.tolist(), 0)

    def _advance(self, action: int) -> StepResult:
        game = self.game
        ticks = 0
        if self.mode == "lockstep":
            eaten = E.step_observe(
                game.grid,
                game.body,
                game.st,
                game.rng,
                action,
                self._board,
                self._length,
                self._mask,
            )
        else:
            eaten, ticks = self._realtime_step(action)
        st = game.st.tolist()  # one conversion beats several numpy scalar reads
        end = st[E.S_END]
        reward = float(eaten) if self.reward_fn is None else self.reward_fn(game, eaten)
        terminated = end in TERMINAL_ENDS
        truncated = end != END_NONE and not terminated
        return self._observation(), reward, terminated, truncated, self._info(st, ticks)

    def _current(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return self._observation(), self._info(self.game.st.tolist(), 0)

    def _decisions_left(self) -> int | None:
        if not self.max_decisions:
            return None
        return self.max_decisions - int(self.game.st[E.S_DECISIONS])

    def _realtime_step(self, direction: int) -> tuple[int, int]:
        """The ticks that fell inside the thinking time, then the decision's own move."""
        game = self.game
        score = game.score
        ticks = game.advance(self.clock.elapsed_ms())
        if not game.over:
            E.move(game.grid, game.body, game.st, game.rng, direction, True)
        self._project()
        self.clock.start()
        return game.score - score, ticks

    def render(self) -> str | np.ndarray | None:
        game = self.game
        snake, food = game.snake_cells(), game.food
        if self.render_mode == "ansi":
            header = (
                f"score {game.score}  length {game.length}  decision {game.decisions}  "
                f"heading {DIRECTION_NAMES[game.heading]}"
            )
            if game.over:
                header += f"  ended: {game.end_reason}"
            return render_ansi(game.rows, game.cols, snake, food, header=header)
        if self.render_mode == "rgb_array":
            return render_rgb(game.rows, game.cols, snake, food)
        return None

    # --- helpers ------------------------------------------------------------------------------
    def _project(self) -> None:
        game = self.game
        E.observe(game.grid, game.body, game.st, self._board, self._length, self._mask)

    def _observation(self) -> dict[str, np.ndarray]:
        return {"board": self._board.copy(), "length": self._length.copy()}

    def _info(self, st: list[int], ticks: int) -> dict[str, Any]:
        """`st` is the game's state vector as a list (read once per step)."""
        end = st[E.S_END]
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "score": st[E.S_SCORE],
            "length": st[E.S_LENGTH],
            "won": end == END_WON,
        }
        if self.mode == "realtime":
            info["ticks"] = ticks
        if end != END_NONE:
            info["end_reason"] = END_REASONS[end]
        elif self.include_question:
            info["question"] = self.game.question()
        return info


def warmup() -> float:
    """Warm the Snake kernels once per process; seconds taken (0 when already warm)."""
    return warm("snake")


def compile_kernels() -> None:
    """Run every Snake kernel once (numba compiles, or loads its cache); the registered warmup."""
    env = SnakeEnv()
    env.reset(seed=0)
    env.step(1)
    game = env.game
    game.state_hash()
    game.advance(float(game.tick_ms))
    realtime = SnakeEnv(mode="realtime")
    realtime.reset(seed=0)
    realtime.step(1)
