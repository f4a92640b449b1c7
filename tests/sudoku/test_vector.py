"""The native vector env plays exactly what the single envs play, autoreset included."""

from __future__ import annotations

import numpy as np
import pytest

from arcade_gym.sudoku.env import SudokuEnv
from arcade_gym.sudoku.vector import SudokuVectorEnv


@pytest.mark.parametrize("kw", [{}, {"set": "v1"}, {"set": "v1", "tier": 5}])
def test_game_i_replays_the_single_env_seeded_seed_plus_i(kw: dict[str, object]) -> None:
    n = 3
    vec = SudokuVectorEnv(n, **kw)  # type: ignore[arg-type]
    obs, info = vec.reset(seed=7)
    singles = [SudokuEnv(**kw) for _ in range(n)]  # type: ignore[arg-type]
    for i, env in enumerate(singles):
        o, _ = env.reset(seed=7 + i)
        assert (o["board"] == obs["board"][i]).all()
    rng = np.random.default_rng(0)
    ended = [False] * n
    resets = 0
    for _ in range(200):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terms, truncs, info = vec.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:
                o, single_info = env.reset()
                ended[i] = False
                resets += 1
                assert rewards[i] == 0 and not terms[i]
            else:
                o, r, t, _, single_info = env.step(int(actions[i]))
                assert r == rewards[i] and t == terms[i]
                ended[i] = t
            assert (o["board"] == obs["board"][i]).all()
            assert (o["candidates"] == obs["candidates"][i]).all()
            assert (single_info["action_mask"] == info["action_mask"][i]).all()
            assert single_info["wrong"] == info["wrong"][i]
        assert not truncs.any()
    assert resets > 0


def test_masked_actions_and_bad_settings_are_refused() -> None:
    vec = SudokuVectorEnv(2)
    with pytest.raises(RuntimeError):
        vec.step(np.zeros(2, np.int64))
    _, info = vec.reset(seed=0)
    masked = np.array([int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]])
    with pytest.raises(ValueError, match="masked"):
        vec.step(masked)
    with pytest.raises(ValueError, match="grader"):
        SudokuVectorEnv(2, tier=3)
    with pytest.raises(ValueError, match="render"):
        SudokuVectorEnv(2, render_mode="ansi")
    with pytest.raises(ValueError, match="reset option"):
        vec.reset(options={"puzzle": "0" * 81})
