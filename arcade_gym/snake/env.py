"""The Gymnasium environment of NARCADE Snake (`arcade_gym/Snake-v0`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from arcade_gym.core.clock import Clock, WallClock
from arcade_gym.core.spaces import MaskedDiscrete
from arcade_gym.snake import engine as E
from arcade_gym.snake.game import SnakeGame, check_difficulty, check_seed
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

StepResult = tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]
"""What `step` returns: observation, reward, terminated, truncated, info."""

RewardFn = Callable[[SnakeGame, int], SupportsFloat]
"""`reward_fn(game, food_eaten) -> reward`, called after each step on the game as it is now."""

MODES = ("lockstep", "realtime")
_ACTIONS = frozenset(range(N_DIRECTIONS))
_OPTION_KEYS = frozenset({"seed"})


def _episode_seed(env: gym.Env[Any, Any], options: dict[str, Any] | None) -> str | int:
    """A named NARCADE seed (int or str) from `options["seed"]`, else a draw from `np_random`."""
    unknown = set(options or {}) - _OPTION_KEYS
    if unknown:
        raise ValueError(
            f"unknown reset option(s) {sorted(unknown)}; Snake-v0 understands only 'seed'"
        )
    named = (options or {}).get("seed")
    if named is None:
        return int(env.np_random.bit_generator.random_raw())  # 64 bits, 5x faster than integers
    try:
        return check_seed(named)
    except TypeError:
        raise TypeError(
            f"options['seed'] must be a NARCADE seed (an int such as 100, or a string), "
            f"got {type(named).__name__}"
        ) from None


def _check_action(action: Any) -> int:
    """The slow path of `step`'s action check: 0-d arrays convert, anything else is refused."""
    value = action
    if isinstance(action, np.ndarray) and action.ndim == 0:
        value = action.item()
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(
            f"action must be an integer in [0, 4) (0 up, 1 right, 2 down, 3 left), got {action!r}"
        )
    if int(value) not in _ACTIONS:
        raise ValueError(
            f"action {int(value)} is out of range [0, 4) (0 up, 1 right, 2 down, 3 left)"
        )
    return int(value)


class SnakeEnv(gym.Env[dict[str, Any], np.int64]):
    """Snake on a rows x cols board (NARCADE rules 0.4.0, `shared/RULES.md`).

    Observation: Dict(
        board=Box(0, 1, (rows, cols, 5), float32): planes body (every snake cell), head, tail,
            food, and body order (head 1.0, then (length - i) / length down to the tail
            1 / length, so the way each segment will move is visible);
        length=Box(0, rows * cols, (1,), float32) the snake's length).
        Row 0 is the top; rows x cols is 8x8 (easy), 12x12 (medium) or 16x16 (hard).
    Action: Discrete(4), absolute directions 0 up, 1 right, 2 down, 3 left.
        `info["action_mask"]` / `action_masks()` mask the reversal (turning back into the neck);
        stepping it anyway is legal and keeps the heading (RULES.md). `action_space.sample()`
        draws an unmasked action. An out-of-range action raises ValueError.
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
    Versions: v0 (rules 0.4.0).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012
    action_space: MaskedDiscrete
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
    ) -> None:
        check_difficulty(difficulty)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {list(MODES)}, got {mode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}"
            )
        if clock is not None and not isinstance(clock, Clock):
            raise TypeError("clock must provide start() and elapsed_ms(), e.g. SimulatedClock(50)")
        spec = DIFFICULTIES[difficulty]
        cells = spec.rows * spec.cols
        if max_steps_without_food is None:
            max_steps_without_food = 2 * cells
        if max_decisions < 0 or max_steps_without_food < 0:
            raise ValueError("max_decisions and max_steps_without_food must be >= 0 (0 = no cap)")
        self.render_mode = render_mode
        self.difficulty = difficulty
        self.mode = mode
        self.clock: Clock = clock if clock is not None else WallClock()
        self.max_decisions = max_decisions
        self.max_steps_without_food = max_steps_without_food
        self.include_question = include_question
        self.reward_fn = reward_fn
        self._mask = np.ones(N_DIRECTIONS, np.int8)
        self._board = np.zeros((spec.rows, spec.cols, N_PLANES), np.float32)
        self._length = np.zeros(1, np.float32)
        self.action_space = MaskedDiscrete(N_DIRECTIONS, self._mask)
        self.observation_space = spaces.Dict(
            {
                "board": spaces.Box(0.0, 1.0, self._board.shape, np.float32),
                "length": spaces.Box(0.0, float(cells), (1,), np.float32),
            }
        )
        self.game = SnakeGame(
            "reset-me",
            difficulty,
            max_decisions=max_decisions,
            starve_limit=max_steps_without_food,
        )
        self._project()

    # --- Gymnasium API ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.game.reset(_episode_seed(self, options))
        self._project()
        if self.mode == "realtime":
            self.clock.start()
        return self._observation(), self._info(self.game.st.tolist(), 0)

    def step(self, action: int | np.integer[Any]) -> StepResult:
        game = self.game
        try:
            fast = action in _ACTIONS
        except TypeError:  # unhashable, e.g. a 0-d array
            fast = False
        direction = int(action) if fast else _check_action(action)
        ticks = 0
        if self.mode == "lockstep":
            eaten = E.step_observe(
                game.grid,
                game.body,
                game.st,
                game.rng,
                direction,
                self._board,
                self._length,
                self._mask,
            )
            if eaten < 0:
                raise RuntimeError("the episode has ended; call reset() before step()")
        else:
            eaten, ticks = self._realtime_step(direction)
        st = game.st.tolist()  # one conversion beats several numpy scalar reads
        end = st[E.S_END]
        reward = float(eaten) if self.reward_fn is None else self.reward_fn(game, eaten)
        terminated = end in TERMINAL_ENDS
        truncated = end != END_NONE and not terminated
        return self._observation(), reward, terminated, truncated, self._info(st, ticks)

    def _realtime_step(self, direction: int) -> tuple[int, int]:
        """The ticks that fell inside the thinking time, then the decision's own move."""
        game = self.game
        if game.over:
            raise RuntimeError("the episode has ended; call reset() before step()")
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

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the unmasked actions (sb3-contrib's MaskablePPO calls this)."""
        return self._mask.astype(bool)

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


_warm = False


def warmup() -> float:
    """Compile (or load from numba's cache) every Snake kernel once per process; returns the
    seconds it took (0 when already warm)."""
    global _warm
    if _warm:
        return 0.0
    t0 = time.perf_counter()
    env = SnakeEnv()
    env.reset(seed=0)
    env.step(1)
    game = env.game
    game.state_hash()
    game.advance(float(game.tick_ms))
    realtime = SnakeEnv(mode="realtime")
    realtime.reset(seed=0)
    realtime.step(1)
    _warm = True
    return time.perf_counter() - t0
