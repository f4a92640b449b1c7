"""The episode seeds a vector env draws ahead (`seed_block`) are bounded for the batch
(`arcade_gym/core/vector.py` SEED_BYTES), and the block size never changes what the games play:
a game's seeds are the same stream of its `np_random` in blocks of any size."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import arcade_gym.core.vector as base


def _make(env_id: str, n: int) -> Any:
    return gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point")


def _play(env_id: str, n: int, steps: int) -> tuple[tuple[int, ...], list[np.ndarray]]:
    envs = _make(env_id, n)
    obs, info = envs.reset(seed=3)
    rng = np.random.default_rng(0)
    seen: list[Any] = []
    for _ in range(steps):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, term, trunc, info = envs.step(actions)
        board = obs["board"] if isinstance(obs, dict) else obs
        seen += [np.array(board), reward, term, trunc]
    return envs.unwrapped._seeds.shape, seen


@pytest.mark.parametrize("env_id", ["arcade_gym/TicTacToe-v0", "arcade_gym/Snake-v0"])
def test_a_smaller_block_plays_the_same_games(env_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    shape, wide = _play(env_id, 8, 120)
    assert shape == (8, 256)
    monkeypatch.setattr(base, "SEED_BYTES", 8 * 8 * 20)  # 20 seeds a game: refilled often
    shape, narrow = _play(env_id, 8, 120)
    assert shape == (8, 20)
    for a, b in zip(wide, narrow, strict=True):
        np.testing.assert_array_equal(a, b)


def test_the_block_shrinks_for_very_many_games_but_not_below_the_default() -> None:
    def block(n: int) -> int:
        envs = gym.make_vec(
            "arcade_gym/TicTacToe-v0", num_envs=n, vectorization_mode="vector_entry_point"
        )
        return int(envs.unwrapped._seeds.shape[1])

    assert block(4096) == 256
    assert block(1 << 16) == base.SEED_BYTES // ((1 << 16) * 8) == 64
    assert block(1 << 20) == base.SEED_BLOCK
