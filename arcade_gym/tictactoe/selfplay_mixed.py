"""Self-play tic-tac-toe on several board sizes at once, as one vector env: each size's games in
its own `TicTacToeSelfPlayVectorEnv`, all shown on one canvas so one batch holds them all.

A size-agnostic network (`policies/ppo/network.py`, kind `board`) then trains on 3x3, 5x5 and
10x10 in the same rollouts (`examples/ppo.py --preset tictactoe-selfplay-all`). Each board sits in
the top-left corner of an S x S canvas (S the largest size); the observation says each game's size,
so the network crops the board out again, and the squares off the board are masked actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv

from arcade_gym.core.args import check_choice
from arcade_gym.tictactoe.rules import SIZES
from arcade_gym.tictactoe.selfplay_vector import TicTacToeSelfPlayVectorEnv


class TicTacToeMixedSelfPlayVectorEnv(VectorEnv[Any, np.ndarray, np.ndarray]):
    """Self-play games of several sizes on one canvas.

    `games`: {size: number of games}; `opponents`: {size: an opponent pool spec} (the perfect
    player exists on 3x3 only, so each size names its own pool); `opening`: {size: most random
    opening plies} (`TicTacToeSelfPlayVectorEnv`'s option). Games are ordered by size, smallest
    first.

    Observation: `{"board": (N, S, S, 2) int8, "size": (N,) int64}`; plane 0 the learner's
    stones, plane 1 the opponent's, zero off the board. Actions: (N,) canvas squares
    `row * S + col`. Rewards, terminations and the `action_mask` info (N, S * S) as the
    per-size envs give them; games restart with `reset_finished()` (the trainer's loop) or on the
    next step (NEXT_STEP autoreset, as the per-size envs)."""

    def __init__(
        self,
        games: Mapping[int, int],
        opponents: Mapping[int, Any],
        *,
        opening: Mapping[int, int] | None = None,
        learner: str = "alternate",
    ) -> None:
        if not games:
            raise ValueError("games must name at least one board size: {size: number of games}")
        for size in games:
            check_choice("size", size, SIZES)
            if size not in opponents:
                raise ValueError(f"opponents names no pool for the {size}x{size} games")
        self.sizes = sorted(games)
        self.canvas = max(self.sizes)
        self.envs = [
            TicTacToeSelfPlayVectorEnv(
                games[size],
                size=size,
                opponent=opponents[size],
                learner=learner,
                opening=(opening or {}).get(size, 0),
            )
            for size in self.sizes
        ]
        counts = [env.num_envs for env in self.envs]
        self.num_envs = sum(counts)
        starts = np.cumsum([0, *counts])[:-1]
        self.slices = [slice(a, a + c) for a, c in zip(starts, counts, strict=True)]
        s = self.canvas
        self.single_observation_space = spaces.Dict(
            {
                "board": spaces.Box(0, 1, (s, s, 2), np.int8),
                "size": spaces.Box(min(self.sizes), s, (), np.int64),
            }
        )
        self.single_action_space = spaces.Discrete(s * s)
        self.observation_space = spaces.Dict(
            {
                "board": spaces.Box(0, 1, (self.num_envs, s, s, 2), np.int8),
                "size": spaces.Box(min(self.sizes), s, (self.num_envs,), np.int64),
            }
        )
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, s * s))
        self._size = np.repeat(np.array(self.sizes, np.int64), counts)
        self._board = np.zeros((self.num_envs, s, s, 2), np.int8)
        self._mask = np.zeros((self.num_envs, s * s), np.int8)
        self._cells = [
            (np.arange(n)[:, None] * s + np.arange(n)[None, :]).reshape(-1) for n in self.sizes
        ]

    def _paint(self, parts: list[Any], masks: list[np.ndarray]) -> dict[str, np.ndarray]:
        """Every size's observations and masks onto the canvas (copies: safe to keep)."""
        self._mask[:] = 0
        for n, part, mask, rows, cells in zip(
            self.sizes, parts, masks, self.slices, self._cells, strict=True
        ):
            self._board[rows, :n, :n] = part
            self._mask[rows, cells] = mask
        return {"board": self._board.copy(), "size": self._size.copy()}

    def _infos(self, masks: list[np.ndarray], extra: list[dict[str, Any]]) -> dict[str, Any]:
        infos: dict[str, Any] = {"action_mask": self._mask.copy()}
        for key in ("opponent", "learner_mark"):
            if all(key in e for e in extra):
                infos[key] = np.concatenate([e[key] for e in extra])
        return infos

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Reset every game; game i of the whole batch gets seed `seed + i`."""
        parts, masks, extra = [], [], []
        for env, rows in zip(self.envs, self.slices, strict=True):
            obs, info = env.reset(seed=None if seed is None else seed + rows.start)
            parts.append(obs)
            masks.append(info["action_mask"])
            extra.append(info)
        observation = self._paint(parts, masks)
        return observation, self._infos(masks, extra)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every game with canvas actions (each turned into its board's square)."""
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"step() needs {self.num_envs} actions, got shape {acts.shape}")
        parts, masks, extra = [], [], []
        rewards, terms, truncs = [], [], []
        for env, n, rows in zip(self.envs, self.sizes, self.slices, strict=True):
            row, col = np.divmod(acts[rows], self.canvas)
            obs, reward, term, trunc, info = env.step(row * n + col)
            parts.append(obs)
            masks.append(info["action_mask"])
            extra.append(info)
            rewards.append(reward)
            terms.append(term)
            truncs.append(trunc)
        observation = self._paint(parts, masks)
        return (
            observation,
            np.concatenate(rewards),
            np.concatenate(terms),
            np.concatenate(truncs),
            self._infos(masks, extra),
        )

    def reset_finished(self) -> dict[str, np.ndarray]:
        """Start the games that ended on the last step now (`ArcadeVectorEnv.reset_finished`)."""
        parts = [env.reset_finished() for env in self.envs]
        return self._paint(parts, [env.action_masks() for env in self.envs])

    def action_masks(self) -> np.ndarray:
        """(N, S * S) boolean masks of the legal canvas squares."""
        return self._mask.astype(bool)
