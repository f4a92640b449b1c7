"""`reset_finished()` starts ended games at once: the observation a NEXT_STEP autoreset would
give on the following step."""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import arcade_gym  # noqa: F401  (registers the envs)


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action per game (0 for a game that ended: its next step is its reset)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def test_reset_finished_gives_what_the_autoreset_step_gives() -> None:
    kwargs = {"num_envs": 16, "vectorization_mode": "vector_entry_point"}
    a = gym.make_vec("arcade_gym/TicTacToe-v0", **kwargs)
    b = gym.make_vec("arcade_gym/TicTacToe-v0", **kwargs)
    _, info = a.reset(seed=3)
    b.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(20):
        actions = _legal(info["action_mask"], rng)
        _, _, term, trunc, info = a.step(actions)
        b.step(actions)
        done = term | trunc
        if done.any():
            break
    assert done.any()
    started = a.reset_finished()  # type: ignore[attr-defined]
    after_b, *_ = b.step(_legal(b.action_masks(), rng))  # type: ignore[attr-defined]
    assert np.array_equal(np.asarray(started)[done], np.asarray(after_b)[done])
    assert a.action_masks()[done].any(axis=1).all()  # type: ignore[attr-defined]


def test_reset_finished_starts_the_new_games_time_limit_and_statistics() -> None:
    venv = gym.make_vec(
        "arcade_gym/TicTacToe-v0", num_envs=8, vectorization_mode="vector_entry_point"
    )
    _, info = venv.reset(seed=1)
    rng = np.random.default_rng(0)
    limit = venv.unwrapped.max_episode_steps  # type: ignore[attr-defined]
    lengths = []
    for _ in range(3 * (limit or 9) + 10):
        _, _, term, trunc, info = venv.step(_legal(venv.action_masks(), rng))  # type: ignore[attr-defined]
        if (term | trunc).any():
            lengths.extend(info["episode"]["l"][term | trunc].tolist())
            venv.reset_finished()  # type: ignore[attr-defined]
    assert lengths and max(lengths) <= 5 and min(lengths) >= 3  # 3x3 games: 3 to 5 moves of X
