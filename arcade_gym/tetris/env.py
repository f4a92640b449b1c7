"""Gymnasium environments of Tetris: placements (`Tetris-v3`) and primitive controls."""

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
from arcade_gym.core.keys import K_DOWN, K_LEFT, K_RIGHT, K_SPACE, K_UP, key_map
from arcade_gym.tetris import candidates as C
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.primitive_game import TetrisControlGame
from arcade_gym.tetris.render import render_ansi, render_rgb
from arcade_gym.tetris.rules import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    CLASSIC_START_LEVEL,
    END_NONE,
    END_TOP_OUT,
    HOLD_ACTION,
    MIN_X,
    N_ACTIONS,
    PIECE_CAP,
    PLACEMENT_FEATURE_SETS,
    PLACEMENT_XS,
    PREVIEW,
    SCORING_MODES,
    TICK_CAP,
)

RewardFn = Callable[[TetrisGame, int], SupportsFloat]
"""`reward_fn(game, score_delta) -> reward`, called after each step on the game as it is now."""

PRIMITIVE_CONTROLS = ("left", "right", "rotate_cw", "rotate_ccw", "soft_drop", "hard_drop")


def action_to_placement(action: int) -> tuple[int, int] | None:
    """`(x, rotation)` of a `Tetris-v3` action index, or None for the hold action."""
    if action == HOLD_ACTION:
        return None
    rotation, column = divmod(action, PLACEMENT_XS)
    return column + MIN_X, rotation


def placement_to_action(x: int, rotation: int) -> int:
    """The `Tetris-v3` action index of placement `(x, rotation)`."""
    return rotation * PLACEMENT_XS + x - MIN_X


MAX_PIECE_CAP = 1_000_000
"""The largest piece cap (the piece sequence is allocated up front, one byte a piece)."""


BOARD_FEATURE_MAX = (20, 200, 200, 180, 200, 220, 210)
"""Upper bounds of `FEATURE_NAMES` on a 20x10 board (maxHeight ... colTransitions)."""


def max_level(piece_cap: int) -> int:
    """The highest guideline level `piece_cap` pieces can reach (four lines a piece at most)."""
    return 1 + 4 * piece_cap // 10


LANDING_FEATURE_MAX = (BOARD_HEIGHT - E.Y_MIN, 16)
"""Upper bounds of landingHeight (a cell can sit no higher than the search's top origin row) and
erodedCells (4 lines x 4 cells)."""


def placement_feature_high(piece_cap: int, placement_features: str = "basic") -> np.ndarray:
    """Finite upper bounds of the per-placement features: a placement clears at most 4 lines and
    scores at most a back-to-back T-spin triple plus a perfect clear and the longest combo, times
    the highest level, plus drop points; `"extended"` adds `LANDING_FEATURE_MAX`."""
    check_choice("placement_features", placement_features, PLACEMENT_FEATURE_SETS)
    score_max = max_level(piece_cap) * (2400 + 3200 + 50 * piece_cap) + 2 * (BOARD_HEIGHT + 4)
    extra = LANDING_FEATURE_MAX if placement_features == "extended" else ()
    return np.array([4, score_max, 1, *BOARD_FEATURE_MAX, *extra], np.float32)


def _check_caps(piece_name: str, piece_cap: object, tick_name: str, tick_cap: object) -> None:
    check_int(piece_name, piece_cap, low=1, high=MAX_PIECE_CAP)
    check_int(tick_name, tick_cap, low=1)


class TetrisEnv(ArcadeEnv[dict[str, Any]]):
    """Tetris, ruleset `tetris-bench@3`: one action per question, a placement or hold.

    Observation: Dict(
        board=Box(0, 1, (20, 10), uint8) occupancy, row 0 at the top;
        active=Discrete(7) piece type (I J L O S T Z); hold=Discrete(8) (7 = empty);
        next=MultiDiscrete([7] * 5) the preview;
        state=Box((4,), float32): level, combo, back-to-back, can hold;
        placements=Box(0, high, (45, 10), float32): per action, the afterstate of that placement:
            linesCleared, scoreDelta, topOut, maxHeight, aggregateHeight, holes, bumpiness,
            wells, rowTransitions, colTransitions (zeros where masked);
            `placement_features="extended"` makes it (45, 12), adding the El-Tetris
            landingHeight and erodedCells (`rules.EXTENDED_PLACEMENT_FEATURE_NAMES`)).
        Every bound is finite (`placement_feature_high`, `max_level` of the piece cap).
        `observation="flat"` gives the same values as one float32 vector (one-hot for the
        discrete parts) for SB3's `MlpPolicy`.
    Intended input: `placements`. Each row is what that action leads to, so a learner that scores
        each row with shared weights (a linear value of the afterstate features, or a small
        network applied row by row) and picks the best unmasked row learns Tetris the way the
        classic controllers (El-Tetris, cross-entropy) do; the board and pieces are there for
        learners that want to plan further.
    Action: Discrete(45). Index `rotation * 11 + (x + 2)` hard-drops the piece at column x
        (-2..8) and rotation (0..3); index 44 holds. `info["action_mask"]` / `action_masks()`
        mark the reachable placements (identical outcomes listed once) and hold when allowed.
        A masked action raises ValueError (`illegal_action="raise"`), or with `"penalty"`
        leaves the state unchanged, pays `illegal_reward` (-1) and sets `info["illegal"]`,
        each one counted against the tick cap; with `"terminate"` it also ends the episode.
        Out-of-range actions raise ValueError, non-integer ones TypeError.
        `action_space.sample()` draws a legal one.
    Reward: the score delta (drop points + clear points, `docs/rules/tetris.md`), or
        `reward_fn(game, delta)`.
    Termination: top-out. Truncation: `piece_cap` (500) or `tick_cap` (10,000).
    Options: `reset(options={"seed": "seed-07"})` plays a named benchmark seed; `reset(seed=int)`
        follows Gymnasium. `include_question=True` puts the benchmark's `AgentInput` in
        `info["question"]`. `mode="blitz"` lets gravity act for the time the `clock` measures
        between observation and action (default: the wall clock; `SimulatedClock` for
        reproducible runs); `info["blitz"]` then says in-time / late / unreachable /
        locked-by-gravity.
    Versions: v3 (tetris-bench@3).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012
    action_layout = "rotation * 11 + x + 2 for x in -2..8, rotation 0..3; 44 holds"
    named_seed_help = "a seed name such as 'seed-07'"

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        mode: str = "iq",
        clock: Clock | None = None,
        include_question: bool = False,
        reward_fn: RewardFn | None = None,
        piece_cap: int = PIECE_CAP,
        tick_cap: int = TICK_CAP,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        placement_features: str = "basic",
    ) -> None:
        check_choice("mode", mode, ("iq", "blitz"))
        _check_caps("piece_cap", piece_cap, "tick_cap", tick_cap)
        check_choice("placement_features", placement_features, PLACEMENT_FEATURE_SETS)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.mode = mode
        self.clock: Clock = check_clock(clock)
        self.include_question = check_flag("include_question", include_question)
        self.reward_fn = check_optional_callable("reward_fn", reward_fn)
        self.piece_cap = int(piece_cap)
        self.tick_cap = int(tick_cap)
        self.placement_features = placement_features
        n_features = len(PLACEMENT_FEATURE_SETS[placement_features])
        self._featmat = np.zeros((N_ACTIONS, n_features), np.float32)
        self._setup_actions(
            N_ACTIONS,
            np.zeros(N_ACTIONS, np.int8),
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
        )
        feature_high = np.broadcast_to(
            placement_feature_high(self.piece_cap, placement_features), (N_ACTIONS, n_features)
        )
        self._setup_observation(
            spaces.Dict(
                {
                    "board": spaces.Box(0, 1, (BOARD_HEIGHT, BOARD_WIDTH), np.uint8),
                    "active": spaces.Discrete(7),
                    "hold": spaces.Discrete(8),
                    "next": spaces.MultiDiscrete([7] * PREVIEW),
                    "state": spaces.Box(
                        np.array([1, -1, 0, 0], np.float32),
                        np.array([max_level(self.piece_cap), self.piece_cap, 1, 1], np.float32),
                        dtype=np.float32,
                    ),
                    "placements": spaces.Box(
                        np.zeros((N_ACTIONS, n_features), np.float32), feature_high.copy()
                    ),
                }
            ),
            observation,
        )
        self.game = TetrisGame("reset-me", piece_cap=self.piece_cap, tick_cap=self.tick_cap)

    def check_named_seed(self, named: object) -> str | int:
        """Tetris Bench names its seeds with strings; integers go to `reset(seed=...)`."""
        if not isinstance(named, str):
            raise TypeError(
                f"options['seed'] must be a seed name such as 'seed-07', got "
                f"{type(named).__name__}; pass integers as reset(seed=...)"
            )
        return named

    def _draw_seed(self) -> int:
        return int(self.np_random.integers(0, 2**63 - 1))

    # --- the game's hooks -----------------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[dict[str, Any], dict[str, Any]]:
        self.game = TetrisGame(seed, piece_cap=self.piece_cap, tick_cap=self.tick_cap)
        self._project()
        self.clock.start()
        return self._observation(), self._info()

    def _advance(self, action: int) -> StepResult:
        game = self.game
        extra: dict[str, Any] = {}
        if self.mode == "iq":
            delta = int(
                C.placement_step_into(
                    game.board,
                    game.st,
                    game.seq,
                    action,
                    game.cinfo,
                    game.cfeat,
                    self._mask,
                    self._featmat,
                    *C.scratch(),
                )
            )
        else:
            placement = action_to_placement(action)
            result = game.blitz_answer(placement, placement is None, self.clock.elapsed_ms())
            delta = result.score_delta
            extra = {"blitz": result.outcome.value, "rows_fallen": result.rows_fallen}
            self._project()
        end = int(game.st[E.S_END])
        reward = float(delta if self.reward_fn is None else self.reward_fn(game, delta))
        info = self._info()
        info.update(extra)
        self.clock.start()
        truncated = end not in (END_NONE, END_TOP_OUT)
        return self._observation(), reward, end == END_TOP_OUT, truncated, info

    def _current(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return self._observation(), self._info()

    def _decisions_left(self) -> int:
        return self.tick_cap - int(self.game.st[E.S_TICK])

    def _describe_action(self, action: int) -> str:
        placement = action_to_placement(action)
        if placement is None:
            return "hold, not allowed again before a piece locks"
        return f"x {placement[0]}, rotation {placement[1]}: not a reachable placement"

    def render(self) -> str | np.ndarray | None:
        game = self.game
        active = None if game.over else game.active
        if self.render_mode == "ansi":
            header = (
                f"score {game.score}  lines {game.lines}  level {game.level}  "
                f"pieces {game.pieces}  tick {game.tick}"
            )
            return render_ansi(game.board, active, header=header)
        if self.render_mode == "rgb_array":
            return render_rgb(game.board, active)
        return None

    # --- helpers ------------------------------------------------------------------------------
    def _project(self) -> None:
        game = self.game
        C.fill_action_view(game.st, game.cinfo, game.cfeat, self._mask, self._featmat)
        C.fill_landing_columns(game.board, game.st, game.cinfo, self._featmat)

    def _observation(self) -> dict[str, Any]:
        game = self.game
        st = game.st
        q = int(st[E.S_QPOS])
        return {
            "board": (game.board != 0).view(np.uint8),
            "active": int(st[E.S_ACTIVE]),
            "hold": 7 if st[E.S_HOLD] < 0 else int(st[E.S_HOLD]),
            "next": game.seq[q : q + PREVIEW].astype(np.int64),
            "state": np.array(
                [st[E.S_LEVEL], st[E.S_COMBO], st[E.S_B2B], st[E.S_CAN_HOLD]], np.float32
            ),
            "placements": self._featmat.copy(),
        }

    def _info(self) -> dict[str, Any]:
        game = self.game
        st = game.st
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "score": int(st[E.S_SCORE]),
            "lines": int(st[E.S_LINES]),
            "pieces": int(st[E.S_PIECES]),
            "tick": int(st[E.S_TICK]),
            "end_reason": game.end_reason,
        }
        if self.include_question and not game.over:
            info["question"] = game.question("Blitz" if self.mode == "blitz" else "IQ")
        return info


class TetrisPrimitiveEnv(ArcadeEnv[dict[str, Any]]):
    """Tetris with NARCADE's six primitive controls, lockstep: each decision is one control,
    then one gravity row (a hard drop locks at once).

    Observation: Dict(
        board=Box(0, 2, (20, 10), uint8): 0 empty, 1 stack, 2 the falling piece;
        piece=Box((4,), int64): type (I J L O S T Z = 0..6), x, y, rotation of the falling piece;
        next=MultiDiscrete([7] * 5) the preview).
    Action: Discrete(6): left, right, rotate_cw, rotate_ccw, soft_drop, hard_drop (SRS kicks).
        Every control is always legal (a blocked move does nothing): `info["action_mask"]` and
        `action_masks()` are all ones. An out-of-range action raises ValueError, a non-integer
        one TypeError.
    Reward: the score delta. `scoring="classic"` (default, NARCADE): 40 / 100 / 300 / 1200 x
        (level + 1), level from `difficulty` (easy 0, medium 4, hard 9) rising every 10 lines.
        `scoring="guideline"`: the tetris-bench@3 table plus 2 points a hard-dropped row and
        1 a soft-dropped row (`docs/rules/tetris.md`).
    Termination: top-out. Truncation: `max_pieces` (500) or `max_decisions` (10,000).
    Options: `reset(options={"seed": ...})` plays a named seed (a string or an int);
        `reset(seed=int)` follows Gymnasium. `observation="flat"` gives one float32 vector;
        `illegal_action` is accepted as on every env (no control is ever masked here).
    Versions: v3 (same engine as tetris-bench@3; classic scoring = NARCADE rules 0.4.0).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 30}  # noqa: RUF012
    action_layout = ", ".join(f"{i} {name}" for i, name in enumerate(PRIMITIVE_CONTROLS))
    keys_to_action = key_map(
        {
            0: (K_LEFT, "a"),
            1: (K_RIGHT, "d"),
            2: (K_UP, "x"),
            3: ("z",),
            4: (K_DOWN, "s"),
            5: (K_SPACE,),
        }
    )
    variants = tuple({"difficulty": d} for d in CLASSIC_START_LEVEL)

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        scoring: str = "classic",
        difficulty: str = "easy",
        max_pieces: int = PIECE_CAP,
        max_decisions: int = TICK_CAP,
        reward_fn: RewardFn | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        check_choice("scoring", scoring, SCORING_MODES)
        check_choice("difficulty", difficulty, CLASSIC_START_LEVEL)
        _check_caps("max_pieces", max_pieces, "max_decisions", max_decisions)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.scoring = scoring
        self.difficulty = difficulty
        self.max_pieces = int(max_pieces)
        self.max_decisions = int(max_decisions)
        self.reward_fn = check_optional_callable("reward_fn", reward_fn)
        self._setup_actions(
            len(PRIMITIVE_CONTROLS),
            np.ones(len(PRIMITIVE_CONTROLS), np.int8),
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
        )
        self._setup_observation(
            spaces.Dict(
                {
                    "board": spaces.Box(0, 2, (BOARD_HEIGHT, BOARD_WIDTH), np.uint8),
                    "piece": spaces.Box(
                        np.array([0, -3, E.Y_MIN, 0]),
                        np.array([6, BOARD_WIDTH, BOARD_HEIGHT, 3]),
                        dtype=np.int64,
                    ),
                    "next": spaces.MultiDiscrete([7] * PREVIEW),
                }
            ),
            observation,
        )
        self._view = np.zeros((BOARD_HEIGHT, BOARD_WIDTH), np.uint8)
        self.game = self._new_game("reset-me")

    def _new_game(self, seed: str | int) -> TetrisGame:
        return TetrisGame(
            seed,
            scoring=self.scoring,
            difficulty=self.difficulty,
            piece_cap=self.max_pieces,
            tick_cap=self.max_decisions,
            candidates=False,
        )

    def _draw_seed(self) -> int:
        return int(self.np_random.integers(0, 2**63 - 1))

    def as_game(self) -> TetrisControlGame:
        """The env's `TetrisGame` seen through the six controls (the live game, not a copy)."""
        return TetrisControlGame.wrapping(self.game)

    # --- the game's hooks -----------------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[dict[str, Any], dict[str, Any]]:
        self.game = self._new_game(seed)
        E.primitive_view(self.game.board, self.game.st, self._view)
        return self._observation(), {"action_mask": self._mask.copy(), "score": 0, "lines": 0}

    def _advance(self, action: int) -> StepResult:
        game = self.game
        st = game.st
        delta = E.primitive_step_view(game.board, st, game.seq, action, self._view)
        end = int(st[E.S_END])
        reward = delta if self.reward_fn is None else float(self.reward_fn(game, int(delta)))
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "score": int(st[E.S_SCORE]),
            "lines": int(st[E.S_LINES]),
        }
        if end != END_NONE:
            info["end_reason"] = game.end_reason
        truncated = end not in (END_NONE, END_TOP_OUT)
        return self._observation(), reward, end == END_TOP_OUT, truncated, info

    def _current(self) -> tuple[dict[str, Any], dict[str, Any]]:
        st = self.game.st
        info = {"action_mask": self._mask.copy(), "score": int(st[E.S_SCORE])}
        info["lines"] = int(st[E.S_LINES])
        return self._observation(), info

    def _decisions_left(self) -> int:
        return self.max_decisions - int(self.game.st[E.S_TICK])

    def _observation(self) -> dict[str, Any]:
        st = self.game.st
        q = st[E.S_QPOS]
        return {
            "board": self._view.copy(),
            "piece": st[:4].copy(),
            "next": self.game.seq[q : q + PREVIEW].astype(np.int64),
        }

    def render(self) -> str | np.ndarray | None:
        game = self.game
        active = None if game.over else game.active
        if self.render_mode == "ansi":
            header = f"score {game.score}  lines {game.lines}  level {game.level}"
            return render_ansi(game.board, active, header=header)
        if self.render_mode == "rgb_array":
            return render_rgb(game.board, active)
        return None
