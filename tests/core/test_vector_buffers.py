"""The vector envs' buffer contract (`arcade_gym/core/vector.py`): `copy=True` hands out new
arrays every step; `copy=False` hands out the env's own observation and mask buffers, which the
next step overwrites, and plays exactly the same games."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from tests.core.conftest import env_ids

VECTOR_IDS = [i for i in env_ids() if gym.registry[i].vector_entry_point is not None]


def _make(env_id: str, n: int, **kw: Any) -> Any:
    return gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kw)


def _leaves(obs: Any) -> list[np.ndarray]:
    return list(obs.values()) if isinstance(obs, dict) else [obs]


def _play(envs: Any, steps: int) -> list[list[np.ndarray]]:
    """Every step's observation leaves, masks and rewards, copied as they come."""
    obs, infos = envs.reset(seed=3)
    envs.action_space.seed(3)
    seen = [[leaf.copy() for leaf in _leaves(obs)] + [infos["action_mask"].copy()]]
    for _ in range(steps):
        obs, rewards, terms, truncs, infos = envs.step(envs.action_space.sample())
        seen.append(
            [leaf.copy() for leaf in _leaves(obs)]
            + [infos["action_mask"].copy(), rewards.copy(), terms | truncs]
        )
    return seen


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_without_copies_the_games_are_the_same(env_id: str) -> None:
    copied, live = _play(_make(env_id, 5), 30), _play(_make(env_id, 5, copy=False), 30)
    for a, b in zip(copied, live, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_copies_are_new_arrays_and_live_buffers_are_reused(env_id: str) -> None:
    envs = _make(env_id, 4)
    obs, infos = envs.reset(seed=0)
    obs2, _, _, _, infos2 = envs.step(envs.action_space.sample())
    for before, after in zip(_leaves(obs), _leaves(obs2), strict=True):
        assert not np.shares_memory(before, after)
    assert not np.shares_memory(infos["action_mask"], infos2["action_mask"])
    live = _make(env_id, 4, copy=False)
    obs, infos = live.reset(seed=0)
    obs2, _, _, _, infos2 = live.step(live.action_space.sample())
    assert infos["action_mask"] is infos2["action_mask"]
    assert any(
        np.shares_memory(before, after)
        for before, after in zip(_leaves(obs), _leaves(obs2), strict=True)
    )


def test_same_step_final_observations_survive_without_copies() -> None:
    kw = {"autoreset_mode": AutoresetMode.SAME_STEP, "size": 3}
    copied, live = (
        _make("arcade_gym/TicTacToe-v0", 4, **kw),
        _make("arcade_gym/TicTacToe-v0", 4, copy=False, **kw),
    )
    for envs in (copied, live):
        envs.reset(seed=1)
        envs.action_space.seed(1)
    ended = 0
    for _ in range(12):
        _, _, _, _, a = copied.step(copied.action_space.sample())
        _, _, _, _, b = live.step(live.action_space.sample())
        if "final_obs" in a:
            for i in np.flatnonzero(a["_final_obs"]):
                np.testing.assert_array_equal(a["final_obs"][i], b["final_obs"][i])
                ended += 1
    assert ended >= 4


def test_copy_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match="copy"):
        _make("arcade_gym/Snake-v0", 2, copy="no")


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_observations_a_caller_keeps_are_never_drawn_over(env_id: str) -> None:
    """`copy=True`: an env may draw into an array it handed out earlier only once the caller
    dropped it (Snake-v0, `arcade_gym/core/recycled.py`); kept arrays, and views of them, keep
    their values, and the games are the ones a caller that keeps nothing sees (`_play`)."""
    envs = _make(env_id, 5)
    obs, infos = envs.reset(seed=3)
    envs.action_space.seed(3)
    seen = [[leaf.copy() for leaf in _leaves(obs)] + [infos["action_mask"].copy()]]
    kept = [(obs, seen[0][:-1])]
    views = []
    for step in range(30):
        obs, rewards, terms, truncs, infos = envs.step(envs.action_space.sample())
        leaves = [leaf.copy() for leaf in _leaves(obs)]
        seen.append([*leaves, infos["action_mask"].copy(), rewards.copy(), terms | truncs])
        if step % 3 == 0:
            kept.append((obs, leaves))
        elif step % 3 == 1:
            views.append((_leaves(obs)[0][1:], leaves[0][1:]))
    for held, values in kept:
        assert all(np.array_equal(a, b) for a, b in zip(_leaves(held), values, strict=True))
    for view, values in views:
        np.testing.assert_array_equal(view, values)
    for a, b in zip(seen, _play(_make(env_id, 5), 30), strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
