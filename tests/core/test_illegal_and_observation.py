"""`illegal_action` modes and `observation="flat"` on every env, and the checkers on each
combination with no warning about bounds (issue 13, items 3 and 4)."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

from tests.core.conftest import env_ids, env_variants

IDS = env_ids()
MODES = ("raise", "penalty", "terminate")
COMBOS = [
    (env_id, kw, mode, obs)
    for (env_id, kw), mode, obs in itertools.product(env_variants(), MODES, ("dict", "flat"))
]


def _combo_id(combo: tuple[str, dict[str, Any], str, str]) -> str:
    env_id, kw, mode, obs = combo
    return "-".join([env_id.split("/")[-1], *map(str, kw.values()), mode, obs])


def _masked_state(env_id: str, **kw: Any) -> tuple[gym.Env[Any, Any], Any, dict[str, Any], int]:
    """An env after reset with a masked action available (skips envs that never mask)."""
    env = gym.make(env_id, **kw)
    obs, info = env.reset(seed=5)
    if getattr(env.unwrapped, "masked_actions_legal", False):
        pytest.skip("the mask only advises here: no action is illegal")
    masked = np.flatnonzero(info["action_mask"] == 0)
    if masked.size == 0:
        pytest.skip("every action is legal in this env")
    return env, obs, info, int(masked[0])


def _bound_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    """Warnings about the bounds of a space. SB3 takes any 3-D Box for an image and asks image
    bounds of [0, 255]: that is its CNN heuristic, not a bound problem (`observation="flat"`
    avoids it and is asserted warning-free)."""
    words = ("infinity", "bound", "normaliz")
    messages = [str(w.message) for w in caught]
    return [m for m in messages if any(k in m.lower() for k in words) and "an image" not in m]


@pytest.mark.parametrize("combo", COMBOS, ids=[_combo_id(c) for c in COMBOS])
def test_gymnasium_and_sb3_checkers_pass_without_bound_warnings(
    combo: tuple[str, dict[str, Any], str, str],
) -> None:
    env_id, kw, mode, obs = combo
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gym.make(env_id, **kw, illegal_action=mode, observation=obs)
        check_env(env.unwrapped, skip_render_check=True)
        sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
        sb3_checker.check_env(
            gym.make(env_id, **kw, illegal_action=mode, observation=obs).unwrapped, warn=True
        )
    assert _bound_warnings(caught) == []
    if obs == "flat":  # the shape SB3's MlpPolicy takes without a word
        assert [str(w.message) for w in caught if "stable_baselines3" in w.filename] == []


@pytest.mark.parametrize("env_id", IDS)
def test_every_box_bound_is_finite(env_id: str) -> None:
    for kw in (
        dict(env_variants()).values() if False else [kw for i, kw in env_variants() if i == env_id]
    ):
        space = gym.make(env_id, **kw).observation_space
        leaves = space.spaces.values() if isinstance(space, spaces.Dict) else [space]
        for leaf in leaves:
            if isinstance(leaf, spaces.Box):
                assert np.isfinite(leaf.low).all() and np.isfinite(leaf.high).all()


@pytest.mark.parametrize("env_id", IDS)
def test_flat_observations_hold_the_dict_values(env_id: str) -> None:
    structured = gym.make(env_id)
    flat = gym.make(env_id, observation="flat")
    assert isinstance(flat.observation_space, spaces.Box)
    assert flat.observation_space.dtype == np.float32 and len(flat.observation_space.shape) == 1
    a, info = structured.reset(seed=9)
    b, _ = flat.reset(seed=9)
    for _ in range(25):
        expected = spaces.flatten(structured.observation_space, a).astype(np.float32)
        np.testing.assert_array_equal(b, expected)
        assert flat.observation_space.contains(b)
        action = int(np.flatnonzero(info["action_mask"])[0])
        a, _, terminated, truncated, info = structured.step(action)
        b, *_ = flat.step(action)
        if terminated or truncated:
            break


@pytest.mark.parametrize("env_id", IDS)
def test_penalty_leaves_the_state_and_pays_the_illegal_reward(env_id: str) -> None:
    env, obs, info, masked = _masked_state(env_id, illegal_action="penalty", illegal_reward=-2.5)
    again, reward, terminated, truncated, after = env.step(masked)
    assert reward == -2.5 and after["illegal"] is True and after["illegal_actions"] == 1
    assert not terminated and not truncated
    np.testing.assert_array_equal(
        spaces.flatten(env.observation_space, again), spaces.flatten(env.observation_space, obs)
    )
    np.testing.assert_array_equal(after["action_mask"], info["action_mask"])
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _, _, _, _, later = env.step(legal)
    assert "illegal" not in later


@pytest.mark.parametrize("env_id", IDS)
def test_terminate_ends_the_episode_with_the_penalty(env_id: str) -> None:
    env, _, _, masked = _masked_state(env_id, illegal_action="terminate")
    _, reward, terminated, truncated, info = env.step(masked)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(masked)


@pytest.mark.parametrize("env_id", IDS)
def test_raise_stays_the_default(env_id: str) -> None:
    env, _, _, masked = _masked_state(env_id)
    with pytest.raises(ValueError, match="masked out"):
        env.step(masked)


@pytest.mark.parametrize(
    ("env_id", "kw", "cap"),
    [
        ("arcade_gym/Minesweeper-v0", {"max_decisions": 7}, 7),
        ("arcade_gym/Tetris-v3", {"tick_cap": 6}, 6),
        ("arcade_gym/TicTacToe-v0", {"size": 3}, 9),
    ],
)
def test_penalised_actions_count_towards_truncation(
    env_id: str, kw: dict[str, Any], cap: int
) -> None:
    env, _, _, masked = _masked_state(env_id, illegal_action="penalty", **kw)
    for step in range(1, cap + 1):
        _, _, terminated, truncated, info = env.step(masked)
        assert not terminated and truncated == (step == cap), step
    assert info["illegal_actions"] == cap


def test_penalised_actions_shorten_the_cap_for_legal_ones_too() -> None:
    env, _, info, masked = _masked_state(
        "arcade_gym/Minesweeper-v0", illegal_action="penalty", max_decisions=5
    )
    for _ in range(3):
        env.step(masked)
    results = []
    for _ in range(2):
        flag = 81 + int(np.flatnonzero(info["action_mask"][81:])[0])  # a flag: never ends a game
        _, _, _, truncated, info = env.step(flag)
        results.append(truncated)
    assert results == [False, True]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"illegal_action": "ignore"}, ValueError, "illegal_action"),
        ({"illegal_reward": "x"}, TypeError, "illegal_reward"),
        ({"illegal_reward": float("nan")}, ValueError, "illegal_reward"),
        ({"observation": "image"}, ValueError, "observation"),
    ],
)
@pytest.mark.parametrize("env_id", IDS)
def test_bad_modes_are_named(env_id: str, kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        gym.make(env_id, **kwargs)


@pytest.mark.parametrize(
    ("env_id", "algo"),
    [
        ("arcade_gym/Tetris-v3", "PPO"),
        ("arcade_gym/Tetris-v3", "DQN"),
        ("arcade_gym/TicTacToe-v0", "PPO"),
        ("arcade_gym/TicTacToe-v0", "DQN"),
    ],
)
def test_plain_ppo_and_dqn_run_with_penalties(env_id: str, algo: str) -> None:
    sb3 = pytest.importorskip("stable_baselines3")
    env = gym.make(env_id, illegal_action="penalty", observation="flat")
    kwargs: dict[str, Any] = (
        {"n_steps": 64, "batch_size": 32}
        if algo == "PPO"
        else {
            "learning_starts": 50,
            "buffer_size": 1000,
        }
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = getattr(sb3, algo)("MlpPolicy", env, seed=0, device="cpu", **kwargs)
        model.learn(total_timesteps=256)
    assert [str(w.message) for w in caught if "stable_baselines3" in w.filename] == []
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs, deterministic=True)
    env.step(action)  # a masked choice is a penalty, never an exception
