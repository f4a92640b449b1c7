"""`make_vec(..., "sync"|"async")` with masks: the batched sampler takes (N, A) masks, the
`MaskedVectorEnv` wrapper samples from the live masks and stops a masked action in the main
process, so an async worker never dies of one."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from arcade_gym.core.masked_vector import MaskedVectorEnv
from tests.core.conftest import env_ids

IDS = env_ids()


@pytest.mark.parametrize("env_id", IDS)
def test_sync_vectors_sample_legal_actions_from_the_reported_masks(env_id: str) -> None:
    envs = gym.make_vec(env_id, num_envs=3, vectorization_mode="sync")
    _, infos = envs.reset(seed=0)
    for _ in range(60):
        actions = envs.action_space.sample(mask=infos["action_mask"])
        _, _, _, _, infos = envs.step(actions)  # a masked action would raise here
    envs.close()


@pytest.mark.parametrize("env_id", IDS)
def test_the_wrapper_samples_from_live_masks(env_id: str) -> None:
    envs = MaskedVectorEnv(gym.make_vec(env_id, num_envs=3, vectorization_mode="sync"))
    _, infos = envs.reset(seed=0)
    for _ in range(60):
        _, _, _, _, infos = envs.step(envs.action_space.sample())
        np.testing.assert_array_equal(envs.action_masks(), infos["action_mask"].astype(bool))
    envs.close()


def test_an_illegal_action_never_reaches_an_async_worker() -> None:
    envs = MaskedVectorEnv(
        gym.make_vec("arcade_gym/TicTacToe-v0", num_envs=2, vectorization_mode="async")
    )
    _, infos = envs.reset(seed=0)
    _, _, _, _, infos = envs.step(np.array([4, 4]))
    with pytest.raises(ValueError, match="game 0 is masked out"):
        envs.step(np.array([4, int(np.flatnonzero(infos["action_mask"][1])[0])]))
    for _ in range(30):  # the workers are alive and keep playing
        _, _, _, _, infos = envs.step(envs.action_space.sample())
    envs.close()


def test_async_workers_take_penalties_for_unmasked_samples() -> None:
    envs = gym.make_vec(
        "arcade_gym/TicTacToe-v0",
        num_envs=2,
        vectorization_mode="async",
        illegal_action="penalty",
    )
    envs.reset(seed=0)
    envs.action_space.seed(0)
    illegal = 0
    for _ in range(40):
        _, _, _, _, infos = envs.step(envs.action_space.sample())  # ignores the masks
        illegal += int(np.sum(infos.get("illegal", False)))
    assert illegal > 0
    envs.close()
