"""Every native vector env that takes `threads=` (found by its signature, so a new one joins
these tests) plays the same games on one thread or several: more games than its smallest slice
(`slice_games`) are stepped in slices on a thread pool (`arcade_gym/core/batch_threads.py`), and
what each game plays, observations included, does not depend on it nor on where a slice ends."""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from arcade_gym.core.batch_threads import available_cores
from tests.core.conftest import env_ids


def _vector_class(env_id: str) -> Any:
    entry = gym.registry[env_id].vector_entry_point
    if isinstance(entry, str):
        module, _, name = entry.partition(":")
        entry = getattr(__import__(module, fromlist=[name]), name)
    return entry


THREADED_IDS = [
    i
    for i in env_ids()
    if gym.registry[i].vector_entry_point is not None
    and "threads" in inspect.signature(_vector_class(i)).parameters
]
CASES: dict[str, list[dict[str, Any]]] = {
    "arcade_gym/TicTacToe-v0": [
        {},
        {"size": 5, "opponent": "greedy", "agent_mark": "alternate"},
        {"size": 10, "agent_mark": "O"},
    ],
    "arcade_gym/Snake-v0": [{}, {"difficulty": "hard", "copy": False}],
}


def _games(env_id: str) -> int:
    """Three slices of unequal size on two or three threads."""
    return 2 * int(_vector_class(env_id).slice_games) + 37


def _make(env_id: str, n: int, threads: Any, **kw: Any) -> Any:
    return gym.make_vec(
        env_id, num_envs=n, vectorization_mode="vector_entry_point", threads=threads, **kw
    )


def _leaves(obs: Any) -> list[np.ndarray]:
    """An observation batch as its arrays (copied: a vector env may reuse a buffer later)."""
    if isinstance(obs, dict):
        return [np.array(obs[key]) for key in sorted(obs)]
    return [np.array(obs)]


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal action per game (0 for a game that just ended: its next step resets it)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def _trajectory(env_id: str, threads: int, steps: int, **kw: Any) -> list[np.ndarray]:
    n = _games(env_id)
    envs = _make(env_id, n, threads, **kw)
    obs, info = envs.reset(seed=5)
    rng = np.random.default_rng(1)
    seen = [*_leaves(obs), info["action_mask"]]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = envs.step(_legal(info["action_mask"], rng))
        seen += [*_leaves(obs), reward, terminated, truncated, info["action_mask"]]
        seen += [np.array(info[key]) for key in sorted(info) if key == "score"]
    return seen


@pytest.mark.parametrize(
    ("env_id", "kw"), [(i, kw) for i in THREADED_IDS for kw in CASES.get(i, [{}])]
)
def test_threads_do_not_change_what_the_games_play(env_id: str, kw: dict[str, Any]) -> None:
    steps = 12 if kw.get("size", 3) > 3 else 25
    one = _trajectory(env_id, 1, steps, **kw)
    for threads in (2, 3):
        many = _trajectory(env_id, threads, steps, **kw)
        assert len(one) == len(many)
        for a, b in zip(one, many, strict=True):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("env_id", THREADED_IDS)
def test_a_threaded_batch_plays_what_single_envs_play(env_id: str) -> None:
    n = _games(env_id)
    cut = int(_vector_class(env_id).slice_games)
    watched = [0, cut - 1, cut, n - 1]  # both sides of a slice boundary
    envs = _make(env_id, n, 2)
    singles = {i: gym.make(env_id).unwrapped for i in watched}
    obs, info = envs.reset(seed=21)
    expected = {i: env.reset(seed=21 + i)[0] for i, env in singles.items()}
    ended = dict.fromkeys(watched, False)
    rng = np.random.default_rng(3)
    for step in range(25):
        for i, single in expected.items():
            mine = {k: obs[k][i] for k in obs} if isinstance(obs, dict) else {"": obs[i]}
            theirs = single if isinstance(single, dict) else {"": single}
            for key in theirs:
                np.testing.assert_array_equal(mine[key], theirs[key], f"{step}, {i}, {key}")
        actions = _legal(info["action_mask"], rng)
        obs, rewards, terms, truncs, info = envs.step(actions)
        for i, env in singles.items():
            if ended[i]:  # NEXT_STEP autoreset: this step started the next game
                expected[i] = env.reset()[0]
                ended[i] = False
                continue
            single, reward, term, trunc, _ = env.step(int(actions[i]))
            assert (rewards[i], terms[i], truncs[i]) == (reward, term, trunc), (step, i)
            expected[i] = single
            ended[i] = term or trunc


@pytest.mark.parametrize("env_id", THREADED_IDS)
@pytest.mark.parametrize("bad", [0, -1, 2.0, "2", True])
def test_bad_thread_counts_are_refused(env_id: str, bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="threads"):
        _make(env_id, 2, bad)


@pytest.mark.parametrize("env_id", THREADED_IDS)
def test_the_default_is_the_one_the_signature_names(env_id: str) -> None:
    default = inspect.signature(_vector_class(env_id)).parameters["threads"].default
    envs = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point")
    assert envs.unwrapped.threads == (available_cores() if default is None else default)
    assert _make(env_id, 2, None).unwrapped.threads == available_cores()


def test_the_threaded_envs_are_found() -> None:
    assert {"arcade_gym/Tetris-v3", "arcade_gym/TicTacToe-v0", "arcade_gym/Snake-v0"} <= set(
        THREADED_IDS
    )
