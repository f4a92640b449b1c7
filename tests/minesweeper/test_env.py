"""Minesweeper-v0: registration, spaces, masks, seeds, rewards, ends, rendering, bad input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.minesweeper.contract import MinesweeperQuestion
from arcade_gym.minesweeper.env import MinesweeperEnv
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.minesweeper.render import board_view
from arcade_gym.minesweeper.rules import HIDDEN


def _cell_action(env: MinesweeperEnv, r: int, c: int, flag: bool = False) -> int:
    return (env.rows * env.cols if flag else 0) + r * env.cols + c


def _check_env(env: gym.Env) -> None:
    """Gymnasium's checker on an unseeded action space: its step-determinism check samples on one
    board and steps that sample on another, which the env plays as documented in
    `arcade_gym/core/spaces.py`."""
    check_env(env, skip_render_check=False)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_gym_make_and_check_env(difficulty: str) -> None:
    env = gym.make("arcade_gym/Minesweeper-v0", difficulty=difficulty, render_mode="rgb_array")
    _check_env(env.unwrapped)
    spec = {"easy": (9, 9), "medium": (16, 16), "hard": (16, 30)}[difficulty]
    assert env.observation_space.shape == spec
    assert env.action_space.n == 2 * spec[0] * spec[1]


def test_check_env_ansi() -> None:
    env = gym.make("arcade_gym/Minesweeper-v0", render_mode="ansi")
    _check_env(env.unwrapped)


@pytest.mark.filterwarnings("ignore:Your observation.*unconventional shape")
def test_stable_baselines3_env_checker_accepts_the_env() -> None:
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env_checker.check_env(MinesweeperEnv(), warn=True)


def test_reset_seed_follows_gymnasium_and_options_name_a_board() -> None:
    env = MinesweeperEnv(difficulty="medium")
    a, _ = env.reset(seed=5)
    b, _ = env.reset(seed=5)
    assert np.array_equal(a, b)
    obs, info = env.reset(options={"seed": 100})
    game = MinesweeperGame(100, "medium")
    assert np.array_equal(obs, game.board)
    assert np.array_equal(env.game.field, game.field)
    assert info["score"] == game.revealed and info["decisions"] == 0
    named, _ = env.reset(options={"seed": "seed-01"})
    assert np.array_equal(named, MinesweeperGame("seed-01", "medium").board)
    with pytest.raises(TypeError, match="options\\['seed'\\]"):
        env.reset(options={"seed": 1.5})


def test_observation_is_a_copy_of_the_visible_board() -> None:
    env = MinesweeperEnv()
    obs, _ = env.reset(seed=0)
    assert obs.dtype == np.int8 and obs.shape == (9, 9)
    assert obs.min() >= -2 and obs.max() <= 8
    hidden = np.argwhere(obs == HIDDEN)[0]
    env.step(_cell_action(env, *hidden, flag=True))
    assert obs[tuple(hidden)] == HIDDEN  # the earlier observation did not change


def test_masks_follow_the_board() -> None:
    env = MinesweeperEnv()
    obs, info = env.reset(seed=1)
    mask = info["action_mask"]
    n = 81
    assert np.array_equal(mask[:n].astype(bool), (obs == HIDDEN).ravel())
    assert np.array_equal(mask[n:].astype(bool), (obs < 0).ravel())
    assert np.array_equal(env.action_masks(), mask.astype(bool))
    r, c = np.argwhere(obs == HIDDEN)[0]
    obs, _, _, _, info = env.step(_cell_action(env, r, c, flag=True))
    assert obs[r, c] == -1
    assert not info["action_mask"][_cell_action(env, r, c)]
    assert info["action_mask"][_cell_action(env, r, c, flag=True)]
    assert info["flags"] == 1


def test_masked_or_bad_actions_raise_a_clear_error() -> None:
    env = MinesweeperEnv()
    obs, _ = env.reset(seed=2)
    r, c = np.argwhere(obs >= 0)[0]
    with pytest.raises(ValueError, match="masked"):
        env.step(_cell_action(env, r, c))
    with pytest.raises(ValueError, match="out of range"):
        env.step(162)
    with pytest.raises(TypeError, match="integer"):
        env.step("reveal 1 1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="difficulty"):
        MinesweeperEnv(difficulty="expert")
    with pytest.raises(ValueError, match="render_mode"):
        MinesweeperEnv(render_mode="human")


def test_reward_is_newly_revealed_cells_and_a_win_terminates() -> None:
    env = MinesweeperEnv()
    obs, info = env.reset(options={"seed": 3})
    opening = info["score"]
    total = 0.0
    terminated = False
    for r, c in np.argwhere(~env.game.mines):
        if env.game.board[r, c] != HIDDEN:
            continue
        before = int((env.game.board >= 0).sum())
        obs, reward, terminated, truncated, info = env.step(_cell_action(env, r, c))
        assert reward == int((obs >= 0).sum()) - before
        total += float(reward)
        if terminated:
            break
    assert terminated and not truncated and info["won"]
    assert info["score"] == 71 == opening + total
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_a_mine_terminates_without_a_win() -> None:
    env = MinesweeperEnv(render_mode="ansi")
    env.reset(seed=4)
    r, c = np.argwhere(env.game.mines)[0]
    _, reward, terminated, truncated, info = env.step(_cell_action(env, r, c))
    assert terminated and not truncated
    assert reward == 0 and info["won"] is False
    frame = env.render()
    assert isinstance(frame, str) and "X" in frame and "mine" in frame


def test_decision_cap_truncates() -> None:
    env = MinesweeperEnv(max_decisions=4)
    obs, _ = env.reset(seed=5)
    r, c = np.argwhere(obs == HIDDEN)[0]
    for _ in range(4):
        _, _, terminated, truncated, info = env.step(_cell_action(env, r, c, flag=True))
    assert truncated and not terminated and not info["won"]
    assert info["decisions"] == 4


def test_sample_draws_legal_actions_and_episodes_end() -> None:
    env = MinesweeperEnv(difficulty="hard")
    env.action_space.seed(0)
    _, info = env.reset(seed=6)
    ends = 0
    for _ in range(500):
        a = env.action_space.sample()
        assert info["action_mask"][a]
        _, _, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            ends += 1
            _, info = env.reset()
    assert ends > 0


def test_include_question_puts_the_contract_in_info() -> None:
    env = MinesweeperEnv(include_question=True)
    obs, info = env.reset(options={"seed": 100})
    q = info["question"]
    assert isinstance(q, MinesweeperQuestion)
    assert board_view(q.board).tolist() == obs.tolist()
    legal = {env.game.action_text(int(a)) for a in np.flatnonzero(info["action_mask"])}
    assert set(q.actions) == legal


def test_render_modes() -> None:
    env = MinesweeperEnv(render_mode="rgb_array", difficulty="medium")
    env.reset(seed=7)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape == (256, 256, 3)
    assert MinesweeperEnv().render() is None
    text_env = MinesweeperEnv(render_mode="ansi")
    text_env.reset(seed=7)
    text = text_env.render()
    assert isinstance(text, str) and "revealed" in text and len(text.splitlines()) == 11


def test_vector_env_autoresets() -> None:
    envs = gym.make_vec("arcade_gym/Minesweeper-v0", num_envs=3, vectorization_mode="sync")
    obs, info = envs.reset(seed=0)
    assert obs.shape == (3, 9, 9) and info["action_mask"].shape == (3, 162)
    rng = np.random.default_rng(0)
    for _ in range(40):
        masks = info["action_mask"]
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
        obs, _, _, _, info = envs.step(np.array(actions))
    envs.close()
