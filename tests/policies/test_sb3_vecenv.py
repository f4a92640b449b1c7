"""`arcade_gym.sb3.NativeVecEnv`: SB3's vec-env checks on every native vector env, `PPO(seed=0)`
reproducible, the VecEnv methods (attributes, methods, wrappers, rendering), every autoreset
mode, and the README's snippet."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3 import PPO
from stable_baselines3.common.env_checker import _check_obs, _check_unsupported_spaces
from stable_baselines3.common.logger import KVWriter, Logger
from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor
from stable_baselines3.common.vec_env.util import check_for_nested_spaces

from arcade_gym.sb3 import NativeVecEnv
from policies.sb3.vecenv import NativeVecEnv as OldPath
from tests.core.conftest import env_ids

VECTOR_IDS = [i for i in env_ids() if gym.registry[i].vector_entry_point is not None]
README = Path(__file__).resolve().parents[2] / "README.md"


def _native(env_id: str, n: int = 4, seed: int | None = 0, **kw: Any) -> NativeVecEnv:
    vector = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kw)
    return NativeVecEnv(vector, seed=seed)


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_the_old_import_path_is_the_same_class() -> None:
    assert OldPath is NativeVecEnv


def test_import_arcade_gym_does_not_import_sb3() -> None:
    code = (
        "import sys, arcade_gym, gymnasium as gym; gym.make('arcade_gym/Snake-v0'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'stable_baselines3' "
        "or m == 'arcade_gym.sb3'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("env_id", VECTOR_IDS)
@pytest.mark.parametrize("mode", [m.value for m in AutoresetMode])
def test_sb3s_vec_env_checks_pass(env_id: str, mode: str) -> None:
    venv = _native(env_id, autoreset_mode=mode)
    single = venv.observation_space
    check_for_nested_spaces(single)
    assert isinstance(venv.action_space, spaces.Discrete)
    checked = VecCheckNan(venv, raise_exception=True, warn_once=False)  # the adapter's stats
    obs = checked.reset()
    for i in range(venv.num_envs):
        _check_obs(_row(obs, i), single, "reset")
    rng = np.random.default_rng(0)
    finished = 0
    returns, lengths = np.zeros(venv.num_envs), np.zeros(venv.num_envs, np.int64)
    for _ in range(60):
        masks = get_action_masks(checked)
        assert masks.shape == (venv.num_envs, venv.action_space.n) and masks.dtype == bool
        assert masks.any(axis=1).all()  # a running game always has a legal action
        obs, rewards, dones, infos = checked.step(_legal(masks, rng))
        assert rewards.shape == (venv.num_envs,) and rewards.dtype == np.float32
        assert dones.shape == (venv.num_envs,) and dones.dtype == bool
        assert isinstance(infos, list) and len(infos) == venv.num_envs
        returns += rewards
        lengths += 1
        for i in range(venv.num_envs):
            _check_obs(_row(obs, i), single, "step")
            if dones[i]:
                finished += 1
                _check_obs(infos[i]["terminal_observation"], single, "step (terminal)")
                assert isinstance(infos[i]["TimeLimit.truncated"], bool)
                stats = infos[i]["episode"]
                assert set(stats) == {"r", "l", "t"} and stats["l"] == lengths[i]
                assert stats["r"] == pytest.approx(returns[i], abs=1e-4)
                returns[i], lengths[i] = 0.0, 0
    assert is_masking_supported(checked)
    monitored = VecMonitor(venv)  # SB3's own statistics on top replace the adapter's
    monitored.reset()
    monitored.step(_legal(venv.action_masks(), rng))
    if env_id.endswith(("TicTacToe-v0", "Minesweeper-v0", "Snake-v0")):
        assert finished > 0


def test_the_unsupported_spaces_check_passes() -> None:
    venv = _native("arcade_gym/Tetris-v3")
    single_env = gym.make("arcade_gym/Tetris-v3")
    assert not _check_unsupported_spaces(single_env, venv.observation_space, venv.action_space)


class _Collect(KVWriter):
    """Keeps every logged row (SB3's loggers write them to files)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def write(self, key_values: dict[str, Any], key_excluded: Any, step: int = 0) -> None:
        self.rows.append({k: v for k, v in key_values.items() if not k.startswith("time/")})


def _curve(seed: int) -> list[dict[str, Any]]:
    vector = gym.make_vec(
        "arcade_gym/Snake-v0", num_envs=4, vectorization_mode="vector_entry_point",
        observation="flat",
    )  # fmt: skip
    model = PPO(
        "MlpPolicy", NativeVecEnv(vector), n_steps=32, batch_size=64, n_epochs=2, seed=seed,
        policy_kwargs={"net_arch": [16]}, device="cpu",
    )  # fmt: skip
    collect = _Collect()
    model.set_logger(Logger(folder=None, output_formats=[collect]))
    model.learn(total_timesteps=384)
    return collect.rows


def test_ppo_seed_0_learns_identically_twice() -> None:
    first, second = _curve(0), _curve(0)
    assert len(first) == 3 and first == second
    assert "train/loss" in first[-1] and "rollout/ep_rew_mean" in first[-1]
    assert _curve(1) != first  # the seed matters: the comparison can fail


def test_attributes_methods_and_wrappers() -> None:
    vector = gym.make_vec(
        "arcade_gym/TicTacToe-v0", num_envs=3, vectorization_mode="vector_entry_point"
    )
    venv = NativeVecEnv(gym.wrappers.vector.RecordEpisodeStatistics(vector), seed=1)
    venv.reset()
    assert venv.get_attr("size") == [3, 3, 3] and venv.get_attr("size", indices=1) == [3]
    assert venv.has_attr("opponent") and not venv.has_attr("no_such_thing")
    venv.set_attr("illegal_reward", -2.0)
    assert venv.get_attr("illegal_reward") == [-2.0] * 3
    with pytest.raises(ValueError, match="share their attributes"):
        venv.set_attr("illegal_reward", -3.0, indices=[0])
    masks = venv.env_method("action_masks", indices=[0, 2])
    assert len(masks) == 2 and np.array_equal(masks[1], venv.action_masks()[2])
    assert [m.shape for m in venv.env_method("action_masks")] == [(9,)] * 3
    with pytest.raises(AttributeError, match="no method"):
        venv.env_method("fly")
    assert venv.env_is_wrapped(gym.wrappers.vector.RecordEpisodeStatistics) == [True] * 3
    assert venv.env_is_wrapped(VecMonitor) == [False] * 3
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        venv.render()


def test_seed_is_honoured_at_the_next_reset() -> None:
    a = _native("arcade_gym/Minesweeper-v0", seed=None)
    b = _native("arcade_gym/Minesweeper-v0", seed=None)
    assert a.seed(5) == [5, 6, 7, 8]
    b.seed(5)
    assert np.array_equal(_array(a.reset()), _array(b.reset()))
    # the seeds are used once: later resets go on with each game's own generator
    assert np.array_equal(_array(a.reset()), _array(b.reset()))
    single: Any = gym.make("arcade_gym/Minesweeper-v0").unwrapped
    a.seed(5)
    assert np.array_equal(_array(a.reset())[2], single.reset(seed=7)[0])


def test_rendering_draws_the_games_the_vector_env_plays() -> None:
    vector = gym.make_vec(
        "arcade_gym/Snake-v0", num_envs=3, vectorization_mode="vector_entry_point"
    )
    venv = NativeVecEnv(vector, seed=2, render_mode="rgb_array", render_games=2)
    single: Any = gym.make("arcade_gym/Snake-v0", render_mode="rgb_array").unwrapped
    venv.reset()
    single.reset(seed=3)  # game 1 of the batch
    rng = np.random.default_rng(0)
    resets = 0
    for _ in range(80):
        actions = _legal(venv.action_masks(), rng)
        venv.step(actions)
        *_, terminated, truncated, _ = single.step(int(actions[1]))
        if terminated or truncated:
            resets += 1
            single.reset()
        images = venv.env_method("render")
        assert images[2] is None and np.array_equal(images[1], single.render())
    assert resets > 0
    tiled = venv.render()
    assert tiled is not None and tiled.ndim == 3 and tiled.shape[2] == 3


@pytest.mark.slow  # MaskablePPO for 1,024 steps: about 25 s on a loaded 2-core machine
def test_readme_snippet_runs() -> None:
    text = README.read_text()
    section = text.split("## Training with Stable-Baselines3", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert code, "the README section has a python snippet"
    exec(compile(code[0], "README.md", "exec"), {})


def _array(obs: Any) -> np.ndarray:
    assert isinstance(obs, np.ndarray)
    return obs


def _row(obs: Any, i: int) -> Any:
    return {k: v[i] for k, v in obs.items()} if isinstance(obs, dict) else obs[i]
