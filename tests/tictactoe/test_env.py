"""The PettingZoo AEC env `tictactoe_v0` and the single-agent Gymnasium `TicTacToe-v0`."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.multiagent import tictactoe_v0
from arcade_gym.tictactoe.env import TicTacToeEnv
from arcade_gym.tictactoe.rules import SIZES

# --- PettingZoo ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("make", [tictactoe_v0.env, tictactoe_v0.wrapped_env, tictactoe_v0.raw_env])
def test_aec_env_passes_the_pettingzoo_api_test(size: int, make: Callable[..., Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's style hints (Dict spaces, empty boards)
        api_test(make(size=size), num_cycles=300)


def _play(env: tictactoe_v0.raw_env, cells: list[int]) -> None:
    for cell in cells:
        env.step(cell)


def test_a_completed_line_scores_plus_one_and_minus_one() -> None:
    env = tictactoe_v0.env(size=3)
    env.reset()
    _play(env, [0, 3, 1, 4, 2])  # X takes the top row
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    _, reward, terminated, _, info = env.last()
    assert env.agent_selection == "player_1" and reward == -1.0 and terminated
    assert info["winner"] == "player_0"
    env.step(None)
    _, reward, _, _, _ = env.last()
    assert env.agent_selection == "player_0" and reward == 1.0
    env.step(None)
    assert env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_a_full_board_is_a_draw() -> None:
    env = tictactoe_v0.env(size=3)
    env.reset()
    _play(env, [4, 0, 1, 7, 3, 5, 2, 6, 8])
    assert all(env.terminations.values()) and env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.infos["player_0"]["winner"] is None


def test_an_occupied_square_loses_the_game_for_the_mover() -> None:
    env = tictactoe_v0.env(size=5)
    env.reset()
    _play(env, [12, 12])
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.infos["player_1"]["illegal_move"] is True
    assert all(env.terminations.values())


def test_out_of_range_actions_and_order_errors_raise() -> None:
    env = tictactoe_v0.env(size=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")
    env.reset()
    with pytest.raises(ValueError, match="out of range"):
        env.step(9)
    with pytest.raises(ValueError, match="None"):
        env.step(None)


def test_observations_are_from_the_viewers_side() -> None:
    env = tictactoe_v0.env(size=5)
    env.reset()
    _play(env, [0, 24])  # X at (0, 0), O at (4, 4); X to move
    x_view = env.observe("player_0")
    o_view = env.observe("player_1")
    assert x_view["observation"][0, 0, 0] == 1 and x_view["observation"][4, 4, 1] == 1
    assert o_view["observation"][4, 4, 0] == 1 and o_view["observation"][0, 0, 1] == 1
    assert x_view["action_mask"].sum() == 23 and x_view["action_mask"][0] == 0
    assert not o_view["action_mask"].any()  # not its turn
    x_view["observation"][:] = 0  # a copy: the env is unaffected
    assert env.observe("player_0")["observation"].sum() == 2


def test_render_modes() -> None:
    env = tictactoe_v0.env(size=3, render_mode="ansi")
    env.reset()
    env.step(4)
    assert " 1 . X ." in str(env.render())
    rgb = tictactoe_v0.env(size=10, render_mode="rgb_array")
    rgb.reset()
    assert np.asarray(rgb.render()).shape == (320, 320, 3)


# --- Gymnasium ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "opponent"),
    [(3, "random"), (3, "perfect"), (5, "greedy"), (10, "tactician")],
)
@pytest.mark.parametrize("mark", ["X", "O", "alternate"])
def test_gym_env_passes_check_env(size: int, opponent: str, mark: str) -> None:
    env = gym.make("arcade_gym/TicTacToe-v0", size=size, opponent=opponent, agent_mark=mark)
    check_env(env.unwrapped, skip_render_check=True)


def test_gym_env_rewards_and_the_opponents_first_move() -> None:
    env = TicTacToeEnv(size=3, opponent="perfect", agent_mark="O")
    obs, info = env.reset(seed=1)
    assert info["agent_mark"] == "O" and info["opponent_move"] >= 0
    assert obs[:, :, 1].sum() == 1 and obs[:, :, 0].sum() == 0
    total = 0.0
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        total += float(reward)
        assert not truncated
    assert total in (0.0, -1.0)  # random play never beats perfect play
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_gym_env_rejects_masked_and_bad_actions() -> None:
    env = TicTacToeEnv(size=3, agent_mark="X")
    env.reset(seed=0)
    _, _, _, _, info = env.step(4)
    occupied = [a for a in range(9) if not info["action_mask"][a]]
    assert 4 in occupied and len(occupied) == 2
    bad: list[Any] = [*occupied, 9, -1]
    for action in bad:
        with pytest.raises(ValueError):
            env.step(action)
    with pytest.raises(TypeError, match="integer"):
        env.step("a")
    assert env.action_masks().sum() == 7


def test_alternate_marks_flip_per_episode_and_restart_on_a_seed() -> None:
    env = TicTacToeEnv(size=3, agent_mark="alternate")
    marks = [env.reset(seed=0 if i == 0 else None)[1]["agent_mark"] for i in range(4)]
    assert marks == ["X", "O", "X", "O"]
    assert env.reset(seed=5)[1]["agent_mark"] == "X"


def test_gym_env_bad_arguments_name_the_fix() -> None:
    with pytest.raises(ValueError, match="size"):
        TicTacToeEnv(size=4)
    with pytest.raises(ValueError, match="3x3"):
        TicTacToeEnv(size=5, opponent="perfect")
    with pytest.raises(ValueError, match="opponent"):
        TicTacToeEnv(opponent="stockfish")
    with pytest.raises(ValueError, match="agent_mark"):
        TicTacToeEnv(agent_mark="Z")


def test_stable_baselines3_env_checker() -> None:
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        # SB3 takes any 3-D Box for an image and suggests uint8; the int8 planes are not one
        # (two channels), so MlpPolicy flattens them as they are.
        warnings.filterwarnings("ignore", message=".*image.*")
        sb3.check_env(TicTacToeEnv(size=5, opponent="greedy"), warn=True)
