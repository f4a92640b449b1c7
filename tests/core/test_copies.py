"""A pickled or deep-copied env is a faithful, independent twin: copied mid-episode, it then gives
the original's observations, masks, rewards and ends for the same actions (tree search, Ray and
`AsyncVectorEnv` workers ship envs by pickle). Every registered env, its vector env and both
PettingZoo envs."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from functools import partial
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from arcade_gym.multiagent import chess_v0, tictactoe_v0
from tests.core.conftest import env_variants

STEPS_BEFORE = 4
STEPS_AFTER = 60

COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "deepcopy": copy.deepcopy,
}


def _same(a: Any, b: Any) -> bool:
    """Deep equality of observations: dicts by key, arrays by dtype, shape and value."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, tuple | list):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if legal.size else 0


def _play_single(env: gym.Env[Any, Any], info: dict[str, Any], actions: list[int]) -> list[Any]:
    """Step `env` with `actions` (stopping at the end); what each step showed."""
    seen = []
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        seen.append((obs, info["action_mask"], mask, float(reward), terminated, truncated))
        if terminated or truncated:
            break
    return seen


def _actions_from(env_id: str, kwargs: dict[str, Any], seed: int) -> list[int]:
    """Legal actions for the rest of the episode, chosen on a twin rebuilt by replaying the
    opening (so the choice does not rest on the copying under test)."""
    scratch, info = _midgame(env_id, kwargs)
    rng = np.random.default_rng(seed)
    actions = []
    mask = info["action_mask"]
    for _ in range(STEPS_AFTER):
        actions.append(_pick(mask, rng))
        _, _, terminated, truncated, info = scratch.step(actions[-1])
        mask = info["action_mask"]
        if terminated or truncated:
            break
    return actions


def _midgame(env_id: str, kwargs: dict[str, Any]) -> tuple[gym.Env[Any, Any], dict[str, Any]]:
    env = gym.make(env_id, **kwargs)
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=7)
    for _ in range(STEPS_BEFORE):
        _, _, terminated, truncated, info = env.step(_pick(info["action_mask"], rng))
        if terminated or truncated:
            _, info = env.reset()
    return env, info


def _assert_same_runs(ours: list[Any], theirs: list[Any]) -> None:
    assert len(ours) == len(theirs)
    for step, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        for what, x, y in zip(
            ("obs", "info mask", "action_masks", "reward", "term", "trunc"), a, b, strict=True
        ):
            assert _same(x, y), f"step {step}: {what} differs between the original and the copy"


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize(("env_id", "kwargs"), env_variants())
def test_a_copied_env_plays_on_like_the_original(
    env_id: str, kwargs: dict[str, Any], how: str
) -> None:
    env, info = _midgame(env_id, kwargs)
    twin = COPIES[how](env)
    actions = _actions_from(env_id, kwargs, seed=2)
    twin_run = _play_single(twin, info, actions)  # the copy first: it must not move the original
    original_run = _play_single(env, info, actions)
    _assert_same_runs(original_run, twin_run)


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize(("env_id", "kwargs"), env_variants())
def test_a_copy_of_a_copy_stays_live(env_id: str, kwargs: dict[str, Any], how: str) -> None:
    env, info = _midgame(env_id, kwargs)
    twin = COPIES[how](COPIES[how](env))
    actions = _actions_from(env_id, kwargs, seed=5)
    _assert_same_runs(_play_single(twin, info, actions), _play_single(env, info, actions))


# --- vector envs ------------------------------------------------------------------------------
def _vector_variants() -> list[tuple[str, dict[str, Any]]]:
    return [(i, kw) for i, kw in env_variants() if gym.registry[i].vector_entry_point is not None]


def _vector_midgame(env_id: str, kwargs: dict[str, Any]) -> tuple[Any, np.ndarray]:
    envs = gym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point", **kwargs)
    rng = np.random.default_rng(3)
    _, infos = envs.reset(seed=11)
    for _ in range(STEPS_BEFORE):
        _, _, _, _, infos = envs.step(np.array([_pick(m, rng) for m in infos["action_mask"]]))
    return envs, infos["action_mask"]


def _play_vector(envs: Any, actions: list[np.ndarray]) -> list[Any]:
    seen = []
    for acts in actions:
        obs, rewards, terminations, truncations, infos = envs.step(acts)
        seen.append(
            (obs, infos["action_mask"], envs.action_masks(), rewards, terminations, truncations)
        )
    return seen


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize(("env_id", "kwargs"), _vector_variants())
def test_a_copied_vector_env_plays_on_like_the_original(
    env_id: str, kwargs: dict[str, Any], how: str
) -> None:
    envs, _ = _vector_midgame(env_id, kwargs)
    twin = COPIES[how](envs)
    scratch, masks = _vector_midgame(env_id, kwargs)
    rng = np.random.default_rng(8)
    actions = []
    for _ in range(STEPS_AFTER // 2):
        actions.append(np.array([_pick(m, rng) for m in masks]))
        masks = scratch.step(actions[-1])[4]["action_mask"]
    twin_run = _play_vector(twin, actions)
    _assert_same_runs(_play_vector(envs, actions), twin_run)


# --- PettingZoo -------------------------------------------------------------------------------
AEC_ENVS: dict[str, Callable[[], Any]] = {
    **{f"tictactoe_v0-{s}": partial(tictactoe_v0.env, size=s) for s in (3, 5, 10)},
    "chess_v0-standard": lambda: chess_v0.env(),
    "chess_v0-chess960": lambda: chess_v0.env(variant="chess960", start=518),
}


def _aec_midgame(name: str) -> Any:
    env = AEC_ENVS[name]()
    env.reset(seed=0)
    rng = np.random.default_rng(4)
    for _ in range(STEPS_BEFORE):
        env.step(_pick(env.observe(env.agent_selection)["action_mask"], rng))
    return env


def _play_aec(env: Any, actions: list[int]) -> list[Any]:
    seen = []
    for a in actions:
        env.step(a)
        seen.append(
            (
                {agent: env.observe(agent) for agent in env.possible_agents},
                env.agent_selection,
                dict(env.rewards),
                dict(env.terminations),
                dict(env.truncations),
            )
        )
        if any(env.terminations.values()) or any(env.truncations.values()):
            break
    return seen


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("name", list(AEC_ENVS))
def test_a_copied_pettingzoo_env_plays_on_like_the_original(name: str, how: str) -> None:
    env = _aec_midgame(name)
    twin = COPIES[how](env)
    scratch = _aec_midgame(name)
    rng = np.random.default_rng(9)
    actions = []
    for _ in range(STEPS_AFTER):
        actions.append(_pick(scratch.observe(scratch.agent_selection)["action_mask"], rng))
        scratch.step(actions[-1])
        if any(scratch.terminations.values()):
            break
    twin_run = _play_aec(twin, actions)
    original_run = _play_aec(env, actions)
    assert len(twin_run) == len(original_run) == len(actions)
    for step, (a, b) in enumerate(zip(original_run, twin_run, strict=True)):
        assert all(_same(x, y) for x, y in zip(a, b, strict=True)), f"step {step} differs"
