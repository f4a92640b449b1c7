"""`reset(options=...)` that is not a dict is one clear TypeError naming `options`, for every
registered env, every native vector env and both PettingZoo envs, and leaves the env playable."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from arcade_gym.core.env import reset_options
from arcade_gym.multiagent import chess_v0, tictactoe_v0
from tests.core.conftest import env_ids

NOT_DICTS: list[Any] = ["notadict", 5, ["seed", "seed-01"], ("seed", 1), b"seed"]


@pytest.mark.parametrize("bad", NOT_DICTS, ids=repr)
def test_reset_options_names_options(bad: Any) -> None:
    with pytest.raises(TypeError, match=r"reset\(options=\.\.\.\) must be a dict or None"):
        reset_options(bad)


def test_reset_options_passes_dicts_and_none() -> None:
    assert reset_options(None) == {}
    assert reset_options({"seed": 1}) == {"seed": 1}


@pytest.mark.parametrize("env_id", env_ids())
def test_single_env_refuses_non_dict_options(env_id: str) -> None:
    env = gym.make(env_id)
    env.reset(seed=0)  # Gymnasium's checker wrapper wants its first reset to succeed
    for bad in NOT_DICTS:
        with pytest.raises(TypeError, match="options"):
            env.reset(options=bad)
    _, info = env.reset(seed=0)  # still usable
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


@pytest.mark.parametrize(
    "env_id", [i for i in env_ids() if gym.registry[i].vector_entry_point is not None]
)
def test_vector_env_refuses_non_dict_options(env_id: str) -> None:
    envs = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point")
    for bad in NOT_DICTS:
        with pytest.raises(TypeError, match="options"):
            envs.reset(options=bad)
    with pytest.raises(ValueError, match=r"unknown reset option\(s\) \['seed'\]"):
        envs.reset(options={"seed": 1})
    envs.reset(seed=0)


@pytest.mark.parametrize("make", [tictactoe_v0.env, chess_v0.env], ids=["tictactoe", "chess"])
def test_pettingzoo_env_refuses_non_dict_options(make: Any) -> None:
    env = make()
    for bad in NOT_DICTS:
        with pytest.raises(TypeError, match="options"):
            env.reset(options=bad)
    env.reset(seed=0)
    assert env.observe(env.agent_selection)["action_mask"].any()
