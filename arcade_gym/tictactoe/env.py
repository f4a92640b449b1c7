"""The single-agent Gymnasium env of k-in-a-row: the agent against a built-in sparring partner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

from arcade_gym.core.actions import action_index
from arcade_gym.core.args import check_choice, check_int, check_render_mode
from arcade_gym.core.env import ArcadeEnv, StepResult, reset_options
from arcade_gym.core.seeding import seed_to_u64
from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.game import TicTacToeGame
from arcade_gym.tictactoe.render import render_ansi, render_rgb
from arcade_gym.tictactoe.rules import SIZES, WIN, O, X, line_length
from arcade_gym.tictactoe.sparring import SPARRING

AGENT_MARKS = ("X", "O", "alternate")

Opponent = Callable[[np.ndarray, np.ndarray], Any]
"""A callable opponent: `(obs, mask) -> cell`, obs the (size, size, 2) planes from its side."""


class TicTacToeEnv(ArcadeEnv[np.ndarray]):
    """k-in-a-row tic-tac-toe (`docs/rules/tictactoe.md`): 3x3 (3 in a row), 5x5 (4), 10x10
    (5), X first, no gravity; the agent plays one side, a built-in sparring partner the other.

    Observation: Box(0, 1, (size, size, 2), int8): plane 0 the agent's stones, plane 1 the
        opponent's (the agent's point of view whichever mark it plays).
    Action: MaskedDiscrete(size * size), `row * size + col`. `info["action_mask"]` /
        `action_masks()` mark the empty squares; `action_space.sample()` draws a legal one.
        An occupied square raises ValueError, or with `illegal_action="penalty"` leaves the
        board unchanged, pays `illegal_reward` (-1), sets `info["illegal"]` and counts against
        the size * size plies a game can last (`"terminate"` also ends the episode, for DQN and
        PPO without masks). Out-of-range actions raise ValueError, non-integer ones TypeError.
        `observation="flat"` gives the planes as one float32 vector.
    Reward: +1 when the agent completes a line, -1 when the opponent does, 0 otherwise (a draw
        included).
    Termination: a completed line or a full board. Truncation: only when penalised moves use
        up the size * size plies a game can last.
    Options: `size=3|5|10`; `opponent="random"|"greedy"|"tactician"|"perfect"` (perfect: 3x3
        only), the rules of `arcade_gym.tictactoe.sparring`, its tie-breaks seeded per episode
        from `reset(seed=...)` (or fixed by `opponent_seed`), or any callable `(obs, mask) ->
        cell` seeing the board as the agent would in its place (its own stones in plane 0) and
        the empty squares (a masked answer is a RuntimeError; e.g. a trained model, or the
        `Snapshot` of `arcade_gym/selfplay/`); `agent_mark="X"|"O"|"alternate"`
        (alternate: X, O, X, ... from the first reset and again from every `reset(seed=...)`).
        `reset(options={"seed": ...})` (an int or a string) fixes the episode's tie-breaks.
        When the agent plays O, `reset` already contains the opponent's first move. `info`:
        `action_mask`, `agent_mark`, `opponent_move` (its last cell, -1 for none), `result`
        ("X", "O", "draw", "ongoing").
    Versions: v0 (ruleset k-in-a-row@1).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012
    action_layout = "row * size + col"
    variants = tuple({"size": s} for s in SIZES)

    def __init__(
        self,
        render_mode: str | None = None,
        *,
        size: int = 3,
        opponent: str | Opponent = "random",
        agent_mark: str = "X",
        opponent_seed: int | None = None,
        observation: str = "dict",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        check_choice("size", size, SIZES)
        if isinstance(opponent, str):
            check_choice("opponent", opponent, SPARRING)
        elif not callable(opponent):
            raise TypeError(
                f"opponent must be one of {list(SPARRING)} or a callable (obs, mask) -> cell, "
                f"got {opponent!r:.60}"
            )
        if opponent == "perfect" and size != 3:
            raise ValueError("the perfect opponent plays 3x3 only; use size=3 or 'tactician'")
        check_choice("agent_mark", agent_mark, AGENT_MARKS)
        if opponent_seed is not None:
            check_int("opponent_seed", opponent_seed)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.size = size
        self.k = line_length(size)
        self.opponent = opponent
        self.agent_mark = agent_mark
        self.opponent_seed = opponent_seed
        n2 = size * size
        self._setup_actions(
            n2, np.ones(n2, np.int8), illegal_action=illegal_action, illegal_reward=illegal_reward
        )
        self._setup_observation(spaces.Box(0, 1, (size, size, 2), np.int8), observation)
        self._move = SPARRING[opponent] if isinstance(opponent, str) else self._call_opponent
        self._episodes = 0
        self._seed = 0
        self._reseeded = False
        self.side = X
        self.opponent_move = -1
        self.game = TicTacToeGame(size)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        reset_options(options)  # refused before the alternation is touched
        self._reseeded = seed is not None
        return super().reset(seed=seed, options=options)

    def _draw_seed(self) -> int:
        if self.opponent_seed is not None:
            return self.opponent_seed
        return int(self.np_random.integers(0, 2**63 - 1))

    # --- the game's hooks -----------------------------------------------------------------------
    def _begin(self, seed: str | int) -> tuple[np.ndarray, dict[str, Any]]:
        if self._reseeded:  # a seeded reset starts the alternation again, so it is reproducible
            self._episodes = 0
        if self.agent_mark == "alternate":
            self.side = X if self._episodes % 2 == 0 else O
        else:
            self.side = X if self.agent_mark == "X" else O
        self._episodes += 1
        self._seed = seed_to_u64(seed) if isinstance(seed, str) else seed
        self.game = TicTacToeGame(self.size)
        self.opponent_move = -1
        if self.side == O:
            self._opponent_plays()
        E.legal_mask(self.game.flat, self._mask)
        return self._observation(), self._info()

    def _advance(self, action: int) -> StepResult:
        game = self.game
        reward = 0.0
        if game.play(action) == WIN:
            reward = 1.0
        elif not game.over and self._opponent_plays() == WIN:
            reward = -1.0
        if game.over:
            self._mask[:] = 0
        else:
            E.legal_mask(game.flat, self._mask)
        return self._observation(), reward, game.over, False, self._info()

    def _current(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self._observation(), self._info()

    def _decisions_left(self) -> int:
        """A game has at most size * size plies; penalised moves count against that."""
        return self.size * self.size - int(np.count_nonzero(self.game.flat))

    def _describe_action(self, action: int) -> str:
        return f"row {action // self.size}, col {action % self.size}: occupied"

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            game = self.game
            mover = "XO"[game.to_move - 1]
            status = f"result {game.result}" if game.over else f"{mover} to move"
            header = (
                f"{self.size}x{self.size}, {self.k} in a row, agent {'XO'[self.side - 1]}, {status}"
            )
            return render_ansi(game.board, header=header)
        if self.render_mode == "rgb_array":
            return render_rgb(self.game.board)
        return None

    # --- helpers ------------------------------------------------------------------------------
    def _call_opponent(self, flat: np.ndarray, side: int, seed: int) -> int:
        """The callable opponent's answer, from its side of the board, checked."""
        board = flat.reshape(self.size, self.size)
        obs = np.empty((self.size, self.size, 2), np.int8)
        np.equal(board, side, out=obs[:, :, 0], casting="unsafe")
        np.equal(board, 3 - side, out=obs[:, :, 1], casting="unsafe")
        mask = (flat == 0).astype(np.int8)
        opponent: Any = self.opponent
        cell = action_index(opponent(obs, mask), mask.shape[0], self.action_layout)
        if not mask[cell]:
            raise RuntimeError(f"the opponent chose {self._describe_action(cell)}")
        return cell

    def _opponent_plays(self) -> int:
        cell = self._move(self.game.flat, self.game.to_move, self._seed)
        self.opponent_move = cell
        return self.game.play(cell)

    def _observation(self) -> np.ndarray:
        board = self.game.board
        obs = np.empty((self.size, self.size, 2), np.int8)
        np.equal(board, self.side, out=obs[:, :, 0], casting="unsafe")
        np.equal(board, 3 - self.side, out=obs[:, :, 1], casting="unsafe")
        return obs

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self._mask.copy(),
            "agent_mark": "X" if self.side == X else "O",
            "opponent_move": self.opponent_move,
            "result": self.game.result,
        }


__all__ = ["AGENT_MARKS", "TicTacToeEnv"]
