"""Native vector envs: `make_vec(..., "vector_entry_point")` gives them, and given the same seeds
game i plays exactly what a single env plays (autoreset included); masks, sampling, bad input."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces

from tests.core.conftest import env_ids

VECTOR_IDS = [i for i in env_ids() if gym.registry[i].vector_entry_point is not None]
CASES: dict[str, list[dict[str, Any]]] = {
    "arcade_gym/Snake-v0": [{"difficulty": "easy"}, {"difficulty": "hard", "max_decisions": 40}],
    "arcade_gym/TicTacToe-v0": [
        {"size": 3},
        {"size": 5, "opponent": "greedy", "agent_mark": "alternate"},
        {"size": 10, "opponent": "greedy", "agent_mark": "O"},
        {"size": 3, "opponent_seed": 4},
        {"size": 3, "opponent": "greedy"},
        {"size": 5, "agent_mark": "O"},
        {"size": 10, "agent_mark": "alternate"},
    ],
    "arcade_gym/Minesweeper-v0": [{"difficulty": "easy"}, {"difficulty": "medium"}],
    "arcade_gym/TetrisPrimitive-v3": [{}, {"difficulty": "hard", "max_decisions": 300}],
    "arcade_gym/Tetris-v3": [
        {},
        {"piece_cap": 30},
        {"piece_cap": 30, "placement_features": "extended"},
    ],
}


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(i, kw) for i in VECTOR_IDS for kw in CASES.get(i, [{}])]


def _make_vec(env_id: str, n: int, **kw: Any) -> Any:
    return gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kw)


def _row(space: spaces.Space[Any], batch: Any, i: int) -> np.ndarray:
    if isinstance(batch, dict):
        return np.concatenate([np.asarray(batch[k][i], np.float64).ravel() for k in space.spaces])  # type: ignore[attr-defined]
    return np.asarray(batch[i], np.float64).ravel()


def _flat(space: spaces.Space[Any], obs: Any) -> np.ndarray:
    if isinstance(obs, dict):
        return np.concatenate([np.asarray(obs[k], np.float64).ravel() for k in space.spaces])  # type: ignore[attr-defined]
    return np.asarray(obs, np.float64).ravel()


@pytest.mark.parametrize(("env_id", "kw"), _cases())
def test_the_vector_env_plays_exactly_what_single_envs_play(
    env_id: str, kw: dict[str, Any]
) -> None:
    n, steps = 6, 400
    vec = _make_vec(env_id, n, **kw)
    singles = [gym.make(env_id, **kw).unwrapped for _ in range(n)]
    obs, infos = vec.reset(seed=11)
    done = [False] * n
    expected = [env.reset(seed=11 + i) for i, env in enumerate(singles)]
    rng = np.random.default_rng(0)
    for step in range(steps):
        for i, (single_obs, info) in enumerate(expected):
            space = singles[i].observation_space
            np.testing.assert_array_equal(
                _row(space, obs, i), _flat(space, single_obs), f"{step} {i}"
            )
            np.testing.assert_array_equal(infos["action_mask"][i], info["action_mask"])
        actions = vec.action_space.sample()
        if step % 3 == 0:  # also a uniform legal draw of our own
            legal = [np.flatnonzero(m) for m in infos["action_mask"]]
            actions = np.array([rng.choice(x) if x.size else 0 for x in legal])
        obs, rewards, terms, truncs, infos = vec.step(actions)
        expected = []
        for i, env in enumerate(singles):
            if done[i]:
                o, info = env.reset()
                r, t, u = 0.0, False, False
            else:
                o, r, t, u, info = env.step(int(actions[i]))
            done[i] = t or u
            expected.append((o, info))
            assert (float(rewards[i]), bool(terms[i]), bool(truncs[i])) == (float(r), t, u), (
                step,
                i,
            )


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_sampled_actions_are_always_legal_and_reset_steps_have_masks(env_id: str) -> None:
    vec = _make_vec(env_id, 16)
    _, infos = vec.reset(seed=0)
    resets = 0
    previous_done = np.zeros(16, bool)
    for _ in range(300):
        actions = vec.action_space.sample()
        live = infos["action_mask"]
        legal = live[np.arange(16), actions] == 1
        assert legal[live.any(axis=1)].all()
        _, _, terms, truncs, infos = vec.step(actions)
        assert infos["action_mask"][previous_done].any(axis=1).all()  # the reset step's masks
        np.testing.assert_array_equal(infos["action_mask"].astype(bool), vec.action_masks())
        resets += int(previous_done.sum())
        previous_done = terms | truncs
    assert resets > 0 or env_id.endswith("Tetris-v3")


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_bad_actions_and_call_order(env_id: str) -> None:
    vec = _make_vec(env_id, 4)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(4, np.int64))
    vec.reset(seed=0)
    n = vec.single_action_space.n
    with pytest.raises(TypeError, match="shape"):
        vec.step(np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="integers"):
        vec.step(np.full(4, 0.5))
    with pytest.raises(ValueError, match="out of range"):
        vec.step(np.full(4, n))
    with pytest.raises(ValueError, match="seeds, one per game"):
        vec.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="num_envs"):
        _make_vec(env_id, 0)


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_masked_actions_raise_or_pay_the_penalty(env_id: str) -> None:
    vec = _make_vec(env_id, 4)
    _, infos = vec.reset(seed=0)
    if getattr(vec, "masked_actions_legal", False) or infos["action_mask"].all():
        pytest.skip("no action is illegal here")
    masked = np.argmin(infos["action_mask"], axis=1)
    game = int(np.flatnonzero(infos["action_mask"][np.arange(4), masked] == 0)[0])
    actions = vec.action_space.sample()
    actions[game] = masked[game]
    with pytest.raises(ValueError, match=f"game {game} is masked out"):
        vec.step(actions)
    pen = _make_vec(env_id, 4, illegal_action="penalty", illegal_reward=-3)
    obs0, _ = pen.reset(seed=0)
    obs1, rewards, terms, truncs, infos = pen.step(actions)
    assert rewards[game] == -3 and infos["illegal"][game] and not terms[game] and not truncs[game]
    space = pen.single_observation_space
    np.testing.assert_array_equal(_row(space, obs1, game), _row(space, obs0, game))


@pytest.mark.parametrize("env_id", VECTOR_IDS)
def test_flat_vector_observations_match_the_flat_single_env(env_id: str) -> None:
    vec = _make_vec(env_id, 3, observation="flat")
    single = gym.make(env_id, observation="flat")
    obs, _ = vec.reset(seed=5)
    assert obs.shape == (3, *single.observation_space.shape)
    np.testing.assert_array_equal(obs[2], single.reset(seed=7)[0])
