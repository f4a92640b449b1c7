"""Gymnasium's norms, for every registered env (and each of its boards) and every native vector
env, read from the registry so a new game is covered without a line here: time limits in the
specs, episode statistics, autoreset modes against Gymnasium's own `SyncVectorEnv`, reset masks,
C-contiguous observations, rgb frames, keyboard maps, keywords a vector env does not take, and
penalised episodes that end."""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from tests.core.conftest import env_ids, env_variants

IDS = env_ids()
VARIANTS = env_variants()
VECTOR_IDS = [i for i in IDS if gym.registry[i].vector_entry_point is not None]
MAX_STEPS = 12_000


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action per row (0 for a row without one: a game about to restart)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def _leaves(obs: Any) -> list[np.ndarray]:
    """The observation's arrays (a Discrete leaf is a plain int)."""
    leaves = list(obs.values()) if isinstance(obs, dict) else [obs]
    return [leaf for leaf in leaves if isinstance(leaf, np.ndarray)]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return bool(np.array_equal(a, b))


def _make_vec(env_id: str, n: int, **kw: Any) -> Any:
    return gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kw)


def _class(entry_point: Any) -> Any:
    if isinstance(entry_point, str):
        module, _, name = entry_point.partition(":")
        return getattr(__import__(module, fromlist=[name]), name)
    return entry_point


# --- single envs -------------------------------------------------------------------------------
@pytest.mark.parametrize(("env_id", "kw"), VARIANTS)
def test_the_spec_has_a_time_limit_no_sooner_than_the_envs_own_cap(
    env_id: str, kw: dict[str, Any]
) -> None:
    limit = gym.registry[env_id].max_episode_steps
    assert isinstance(limit, int) and limit >= 1
    env = gym.make(env_id, **kw)
    assert isinstance(env, gym.wrappers.TimeLimit) and env.spec is not None
    raw: Any = env.unwrapped
    raw.reset(seed=0)
    left = raw._decisions_left()
    assert left is None or left <= limit


@pytest.mark.parametrize(("env_id", "kw"), VARIANTS)
def test_the_step_that_ends_an_episode_carries_its_statistics(
    env_id: str, kw: dict[str, Any]
) -> None:
    env = gym.make(env_id, **kw)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    total, steps, done = 0.0, 0, False
    while not done and steps < MAX_STEPS:
        obs, reward, terminated, truncated, info = env.step(
            int(_legal(info["action_mask"][None], rng)[0])
        )
        total += float(reward)
        steps += 1
        done = terminated or truncated
        assert ("episode" in info) == done
        assert all(leaf.flags.c_contiguous for leaf in _leaves(obs))
    assert done, f"no episode end in {MAX_STEPS} random legal steps"
    stats = info["episode"]
    assert set(stats) == {"r", "l", "t"} and stats["l"] == steps
    assert stats["r"] == pytest.approx(total) and isinstance(stats["t"], float) and stats["t"] >= 0


@pytest.mark.parametrize(("env_id", "kw"), VARIANTS)
def test_a_policy_repeating_a_masked_action_is_ended_by_the_cap(
    env_id: str, kw: dict[str, Any]
) -> None:
    env: Any = gym.make(env_id, illegal_action="penalty", **kw).unwrapped
    _, info = env.reset(seed=0)
    masked = np.flatnonzero(info["action_mask"] == 0)
    if env.masked_actions_legal or masked.size == 0:
        pytest.skip("no action is ever refused here")
    for _ in range(MAX_STEPS):
        _, reward, terminated, truncated, info = env.step(int(masked[0]))
        assert reward == env.illegal_reward and info["illegal"]
        if terminated or truncated:
            break
    assert truncated and not terminated and info["end_reason"] == "illegal_actions"


@pytest.mark.parametrize(("env_id", "kw"), VARIANTS)
def test_rgb_frames_are_images(env_id: str, kw: dict[str, Any]) -> None:
    cls = _class(gym.registry[env_id].entry_point)
    assert "rgb_array" in cls.metadata["render_modes"]  # RecordVideo and HumanRendering need it
    env: Any = gym.make(env_id, render_mode="rgb_array", **kw)
    _, info = env.reset(seed=0)
    first = env.render()
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    second = env.render()
    for frame in (first, second):
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.shape[0] >= 32
    assert first.shape == second.shape


def test_record_video_films_chess(tmp_path: Any) -> None:
    pytest.importorskip("moviepy")
    env = gym.wrappers.RecordVideo(
        gym.make("arcade_gym/Chess-v0", render_mode="rgb_array"), str(tmp_path)
    )
    _, info = env.reset(seed=0)
    for _ in range(4):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.close()
    assert list(tmp_path.glob("*.mp4"))


def test_human_rendering_shows_chess() -> None:
    pytest.importorskip("pygame")
    env = gym.wrappers.HumanRendering(gym.make("arcade_gym/Chess-v0", render_mode="rgb_array"))
    env.reset(seed=0)
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_keyboard_maps_play_legal_actions_or_say_why_there_is_none(env_id: str) -> None:
    env: Any = gym.make(env_id).unwrapped
    n = env.action_space.n
    try:
        keys = env.get_keys_to_action()
    except NotImplementedError as exc:
        assert "arcade-eval play" in str(exc)
        assert not env_id.endswith(("Snake-v0", "TetrisPrimitive-v3"))
        return
    assert set(keys.values()) == set(range(n))  # every action has a key
    assert all(isinstance(k, tuple) and all(isinstance(c, int) for c in k) for k in keys)


# --- vector envs -------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", VECTOR_IDS)
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_autoreset_matches_gymnasiums_sync_vector_env(env_id: str, mode: AutoresetMode) -> None:
    n, steps = 3, 150 if env_id.endswith("Chess-v0") else 300
    native = _make_vec(env_id, n, autoreset_mode=mode)
    assert native.metadata["autoreset_mode"] == mode
    sync = SyncVectorEnv([lambda: gym.make(env_id) for _ in range(n)], autoreset_mode=mode)
    obs, info = native.reset(seed=7)
    expected, sync_info = sync.reset(seed=7)
    assert _same(obs, expected)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(steps):
        actions = _legal(info["action_mask"], rng)
        obs, reward, terminated, truncated, info = native.step(actions)
        expected, sync_reward, sync_term, sync_trunc, sync_info = sync.step(actions)
        assert _same(obs, expected)
        assert np.array_equal(reward, sync_reward) and np.array_equal(terminated, sync_term)
        assert np.array_equal(truncated, sync_trunc)
        assert np.array_equal(info["action_mask"], sync_info["action_mask"])
        assert all(leaf.flags.c_contiguous for leaf in _leaves(obs))
        done = terminated | truncated
        assert ("episode" in info) == bool(done.any())
        if not done.any():
            continue
        ended += int(done.sum())
        assert np.array_equal(info["_episode"], done)
        singles = sync_info["final_info"] if mode == AutoresetMode.SAME_STEP else sync_info
        for i in np.flatnonzero(done):
            assert info["episode"]["r"][i] == pytest.approx(singles["episode"]["r"][i])
            assert info["episode"]["l"][i] == singles["episode"]["l"][i]
            if mode == AutoresetMode.SAME_STEP:
                assert _same(info["final_obs"][i], sync_info["final_obs"][i])
                assert info["_final_obs"][i] and info["_final_info"][i]
    if not env_id.endswith(("Chess-v0", "TetrisPrimitive-v3")):
        assert ended > 0


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_disabled_autoreset_restarts_only_the_games_a_reset_mask_marks(env_id: str) -> None:
    n = 3
    native = _make_vec(env_id, n, autoreset_mode=AutoresetMode.DISABLED)
    sync = SyncVectorEnv(
        [lambda: gym.make(env_id) for _ in range(n)], autoreset_mode=AutoresetMode.DISABLED
    )
    _, info = native.reset(seed=3)
    sync.reset(seed=3)
    rng = np.random.default_rng(2)
    restarts = 0
    for _ in range(150 if env_id.endswith("Chess-v0") else 300):
        actions = _legal(info["action_mask"], rng)
        obs, _, terminated, truncated, info = native.step(actions)
        expected, *_ = sync.step(actions)
        assert _same(obs, expected)
        done = terminated | truncated
        if done.any():
            with pytest.raises(RuntimeError, match="reset_mask"):
                native.step(actions)
            obs, info = native.reset(options={"reset_mask": done})
            expected, _ = sync.reset(options={"reset_mask": done})
            assert _same(obs, expected)
            restarts += 1
    if not env_id.endswith(("Chess-v0", "TetrisPrimitive-v3")):
        assert restarts > 0


def test_a_bad_reset_mask_is_refused_as_gymnasium_refuses_it() -> None:
    venv = _make_vec("arcade_gym/TicTacToe-v0", 2)
    with pytest.raises(RuntimeError, match="first"):
        venv.reset(options={"reset_mask": np.array([True, False])})
    venv.reset(seed=0)
    with pytest.raises(TypeError, match="numpy array"):
        venv.reset(options={"reset_mask": [True, False]})
    with pytest.raises(ValueError, match="shape"):
        venv.reset(options={"reset_mask": np.array([True])})
    with pytest.raises(TypeError, match="dtype bool"):
        venv.reset(options={"reset_mask": np.array([1, 0])})
    with pytest.raises(ValueError, match="at least one"):
        venv.reset(options={"reset_mask": np.zeros(2, bool)})
    with pytest.raises(ValueError, match="autoreset_mode must be one of"):
        _make_vec("arcade_gym/TicTacToe-v0", 2, autoreset_mode="sometimes")


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_the_time_limit_truncates_vector_games_as_timelimit_truncates_single_ones(
    env_id: str,
) -> None:
    venv = _make_vec(env_id, 2, max_episode_steps=3)
    single = gym.make(env_id, max_episode_steps=3)
    _, info = venv.reset(seed=0)
    single.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(3):
        actions = _legal(info["action_mask"], rng)
        _, _, terminated, truncated, info = venv.step(actions)
        *_, single_term, single_trunc, _ = single.step(int(actions[0]))
        assert (terminated[0], truncated[0]) == (single_term, single_trunc)
        if terminated[0]:
            return
    assert truncated.all()


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_a_keyword_only_the_single_env_takes_is_refused_pointing_to_sync(env_id: str) -> None:
    spec = gym.registry[env_id]
    single = inspect.signature(_class(spec.entry_point).__init__).parameters
    vector_init = _class(spec.vector_entry_point).__init__
    vector = inspect.signature(getattr(vector_init, "__wrapped__", vector_init)).parameters
    for name in sorted(set(single) - set(vector)):
        default = single[name].default
        with pytest.raises(TypeError, match=f"takes no {name}.*sync"):
            _make_vec(env_id, 2, **{name: None if default is inspect.Parameter.empty else default})


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_vector_games_repeating_a_masked_action_are_ended_by_the_cap(env_id: str) -> None:
    venv = _make_vec(env_id, 2, illegal_action="penalty")
    _, info = venv.reset(seed=0)
    masks = info["action_mask"]
    if venv.unwrapped.masked_actions_legal or masks.all():
        pytest.skip("no action is ever refused here")
    actions = np.array([int(np.flatnonzero(m == 0)[0]) if (m == 0).any() else 0 for m in masks])
    ended = np.zeros(2, bool)
    for _ in range(MAX_STEPS):
        _, _, terminated, truncated, _ = venv.step(actions)
        assert not terminated.any()
        ended |= truncated
        if ended[masks.min(axis=1) == 0].all():
            break
    assert ended[masks.min(axis=1) == 0].all()
