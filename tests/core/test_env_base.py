"""The shared env base: every registered env refuses bad actions, enforces the call order, parses
options by one rule, keeps `info["action_mask"]` equal to `action_masks()`, and passes the checkers
on every board."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tests.core.conftest import env_ids, env_variants

IDS = env_ids()
VARIANTS = env_variants()


def _variant_id(item: tuple[str, dict[str, Any]]) -> str:
    env_id, kw = item
    return env_id.split("/")[-1] + "".join(f"-{v}" for v in kw.values())


def _ready(env_id: str, **kw: Any) -> tuple[gym.Env[Any, Any], dict[str, Any]]:
    env = gym.make(env_id, **kw)
    _, info = env.reset(seed=3)
    return env, info


def test_the_registry_holds_the_games() -> None:
    for game in ("Tetris-v3", "TetrisPrimitive-v3", "Snake-v0", "Minesweeper-v0", "TicTacToe-v0"):
        assert f"arcade_gym/{game}" in IDS


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("action", [1.7, "0", True, np.bool_(True), None, np.array([0]), 0.0])
def test_non_integer_actions_are_a_type_error_naming_the_action(env_id: str, action: Any) -> None:
    env, _ = _ready(env_id)
    with pytest.raises(TypeError, match="action must be an integer"):
        env.step(action)


@pytest.mark.parametrize("env_id", IDS)
def test_integer_like_actions_are_accepted(env_id: str) -> None:
    for convert in (int, np.int64, np.int32, np.uint8, np.array):
        env, info = _ready(env_id)
        legal = int(np.flatnonzero(info["action_mask"])[0])
        env.step(convert(legal))


@pytest.mark.parametrize("env_id", IDS)
def test_out_of_range_actions_are_a_value_error_naming_the_range(env_id: str) -> None:
    env, _ = _ready(env_id)
    n = int(env.action_space.n)  # type: ignore[attr-defined]
    for action in (n, -1, np.int64(n + 5), 2**70):
        with pytest.raises(ValueError, match=rf"out of range \[0, {n}\)"):
            env.step(action)


@pytest.mark.parametrize("env_id", IDS)
def test_masked_actions_are_a_value_error_naming_the_mask(env_id: str) -> None:
    env, info = _ready(env_id)
    if getattr(env.unwrapped, "masked_actions_legal", False):
        pytest.skip("the mask only advises here (Snake: the rules define the reversal)")
    masked = np.flatnonzero(info["action_mask"] == 0)
    if masked.size == 0:
        pytest.skip("every action is legal in this env")
    with pytest.raises(ValueError, match="masked out"):
        env.step(int(masked[0]))


@pytest.mark.parametrize("env_id", IDS)
def test_step_before_reset_is_a_runtime_error(env_id: str) -> None:
    env = gym.make(env_id)
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        env.step(0)


@pytest.mark.parametrize("env_id", IDS)
def test_step_after_the_end_asks_for_reset(env_id: str) -> None:
    env, _ = _ready(env_id)
    done = False
    for _ in range(20_000):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            done = True
            break
    assert done
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("env_id", IDS)
def test_info_action_mask_matches_action_masks(env_id: str) -> None:
    env = gym.make(env_id)
    unwrapped: Any = env.unwrapped
    env.action_space.seed(0)
    _, info = env.reset(seed=0)
    for _ in range(60):
        mask = info["action_mask"]
        assert mask.shape == (env.action_space.n,)  # type: ignore[attr-defined]
        np.testing.assert_array_equal(mask.astype(bool), unwrapped.action_masks())
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        if terminated or truncated:
            _, info = env.reset()


@pytest.mark.parametrize("env_id", IDS)
def test_unknown_reset_options_name_the_understood_keys(env_id: str) -> None:
    env = gym.make(env_id)
    with pytest.raises(ValueError, match=r"unknown reset option.*'sed'.*understands only"):
        env.reset(options={"sed": 1})
    with pytest.raises(TypeError, match=r"options\['seed'\]"):
        env.reset(options={"seed": 1.5})


@pytest.mark.parametrize("env_id", IDS)
def test_a_named_seed_replays_the_same_episode(env_id: str) -> None:
    def run() -> list[Any]:
        env = gym.make(env_id)
        _, info = env.reset(options={"seed": "seed-07"})
        rewards = []
        for _ in range(30):
            action = int(np.flatnonzero(info["action_mask"])[-1])
            _, reward, terminated, truncated, info = env.step(action)
            rewards.append(float(reward))
            if terminated or truncated:
                break
        return rewards

    assert run() == run()


@pytest.mark.parametrize(("env_id", "kw"), VARIANTS, ids=[_variant_id(v) for v in VARIANTS])
def test_gymnasium_check_env_passes_on_every_board(env_id: str, kw: dict[str, Any]) -> None:
    env = gym.make(env_id, **kw)
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
def test_a_sample_drawn_before_a_reset_is_played_in_the_new_state(env_id: str) -> None:
    """Gymnasium's checker samples, resets with another seed, then steps that sample twice."""
    for seed in range(10):
        env = gym.make(env_id)
        env.reset(seed=1000 + seed)
        env.action_space.seed(seed)
        action = env.action_space.sample()
        results = []
        for _ in range(2):
            env.reset(seed=seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                obs, reward, *_ = env.step(action)
            results.append((gym.spaces.flatten(env.observation_space, obs), reward))
        np.testing.assert_array_equal(results[0][0], results[1][0])
        assert results[0][1] == results[1][1]


def test_a_sample_stepped_twice_in_one_episode_is_refused() -> None:
    env = gym.make("arcade_gym/TicTacToe-v0")
    env.reset(seed=0)
    action = env.action_space.sample()
    env.step(action)
    with pytest.raises(ValueError, match="masked out"):
        env.step(action)


def test_only_the_sampled_object_is_resolved_after_a_reset() -> None:
    env = gym.make("arcade_gym/TicTacToe-v0", agent_mark="O")
    _, info = env.reset(seed=0)
    opening = int(np.flatnonzero(info["action_mask"] == 0)[0])  # the opponent's first move
    env.reset(seed=1)
    env.action_space.seed(0)
    while True:  # a sample that is the opponent's opening square on seed 0's board
        stale = env.action_space.sample()
        if stale == opening:
            break
    env.reset(seed=0)
    with pytest.raises(ValueError, match="masked out"):
        env.step(opening)  # an equal int that is not the sampled object
    _, _, _, _, info = env.step(stale)
    assert info["action_mask"][opening] == 0
