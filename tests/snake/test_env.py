"""Snake-v0: registration, spaces, observation planes, masks, rewards, ends, seeds, realtime,
rendering and bad input."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.core.clock import SimulatedClock
from arcade_gym.snake.contract import SnakeQuestion
from arcade_gym.snake.env import SnakeEnv
from arcade_gym.snake.game import SnakeGame
from arcade_gym.snake.rules import (
    DIFFICULTIES,
    DOWN,
    LEFT,
    PLANE_BODY,
    PLANE_FOOD,
    PLANE_HEAD,
    PLANE_ORDER,
    PLANE_TAIL,
    RIGHT,
    UP,
)


def _random_unmasked(info: dict[str, Any], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.mark.parametrize("difficulty", list(DIFFICULTIES))
def test_gym_make_and_check_env(difficulty: str) -> None:
    env = gym.make("arcade_gym/Snake-v0", difficulty=difficulty, render_mode="rgb_array")
    assert isinstance(env.unwrapped, SnakeEnv)
    check_env(env.unwrapped, skip_render_check=False)


def test_check_env_in_realtime_with_a_simulated_clock() -> None:
    env = gym.make(
        "arcade_gym/Snake-v0", mode="realtime", clock=SimulatedClock(300.0), render_mode="ansi"
    )
    check_env(env.unwrapped, skip_render_check=False)


# The board is (rows, cols, 5) float32 planes in [0, 1]: SB3's checker guesses "image" from the
# shape and warns; SB3 itself only treats uint8 boxes as images, so MultiInputPolicy flattens it.
@pytest.mark.filterwarnings("ignore:It seems that your observation:UserWarning")
@pytest.mark.filterwarnings("ignore:The minimal resolution for an image:UserWarning")
def test_stable_baselines3_env_checker_accepts_the_env() -> None:
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env_checker.check_env(SnakeEnv(), warn=True)


@pytest.mark.parametrize("difficulty", list(DIFFICULTIES))
def test_spaces_follow_the_difficulty(difficulty: str) -> None:
    spec = DIFFICULTIES[difficulty]
    env = SnakeEnv(difficulty=difficulty)
    board = env.observation_space["board"]
    length = env.observation_space["length"]
    assert isinstance(board, gym.spaces.Box) and isinstance(length, gym.spaces.Box)
    assert board.shape == (spec.rows, spec.cols, 5) and board.dtype == np.float32
    assert (board.low.min(), board.high.max()) == (0.0, 1.0)
    assert length.shape == (1,) and length.high[0] == spec.rows * spec.cols
    assert env.action_space.n == 4
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)


def test_observation_planes_describe_the_snake_and_the_food() -> None:
    env = SnakeEnv()
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(60):
        game = env.game
        cells = game.snake_cells()
        board = obs["board"]
        assert obs["length"][0] == len(cells) == info["length"]
        body = {tuple(rc) for rc in np.argwhere(board[:, :, PLANE_BODY] == 1)}
        assert body == set(cells)
        assert [tuple(rc) for rc in np.argwhere(board[:, :, PLANE_HEAD])] == [cells[0]]
        assert [tuple(rc) for rc in np.argwhere(board[:, :, PLANE_TAIL])] == [cells[-1]]
        assert [tuple(rc) for rc in np.argwhere(board[:, :, PLANE_FOOD])] == [game.food]
        order = [board[r, c, PLANE_ORDER] for r, c in cells]
        expected = [(len(cells) - i) / len(cells) for i in range(len(cells))]
        assert np.allclose(order, expected) and order[0] == 1.0
        assert board[:, :, PLANE_ORDER].sum() == pytest.approx(sum(expected))
        obs, _, terminated, truncated, info = env.step(_random_unmasked(info, rng))
        if terminated or truncated:
            obs, info = env.reset()


def test_the_mask_marks_only_the_reversal_and_sample_avoids_it() -> None:
    env = SnakeEnv()
    _, info = env.reset(seed=0)
    assert info["action_mask"].tolist() == [1, 1, 1, 0]  # heading right: left is masked
    assert env.action_masks().tolist() == [True, True, True, False]
    assert {int(env.action_space.sample()) for _ in range(200)} == {UP, RIGHT, DOWN}
    _, _, _, _, info = env.step(DOWN)
    assert info["action_mask"].tolist() == [0, 1, 1, 1]
    assert {int(env.action_space.sample()) for _ in range(200)} == {RIGHT, DOWN, LEFT}


def test_stepping_the_reversal_keeps_the_heading() -> None:
    env = SnakeEnv()
    env.reset(seed=0)
    head = env.game.snake_cells()[0]
    _, reward, terminated, truncated, info = env.step(LEFT)
    assert env.game.heading == RIGHT
    assert env.game.snake_cells()[0] == (head[0], head[1] + 1) or reward == 1.0
    assert not terminated and not truncated and info["action_mask"][LEFT] == 0


@pytest.mark.parametrize("action", [np.int64(2), np.int32(1), np.array(3), 0])
def test_integer_like_actions_are_accepted(action: Any) -> None:
    env = SnakeEnv()
    env.reset(seed=0)
    env.step(action)


@pytest.mark.parametrize(
    ("action", "error", "match"),
    [
        (4, ValueError, "out of range"),
        (-1, ValueError, "out of range"),
        (np.int64(7), ValueError, "out of range"),
        ("up", TypeError, "integer"),
        (None, TypeError, "integer"),
        (np.array([1, 2]), TypeError, "integer"),
    ],
)
def test_a_bad_action_raises_a_clear_error(action: Any, error: type, match: str) -> None:
    env = SnakeEnv()
    env.reset(seed=0)
    with pytest.raises(error, match=match):
        env.step(action)


def test_reward_is_one_per_food_and_matches_the_score() -> None:
    env = SnakeEnv()
    rng = np.random.default_rng(0)
    total = 0.0
    for episode in range(40):
        _, info = env.reset(seed=episode)
        score = 0
        while True:
            _, reward, terminated, truncated, info = env.step(_random_unmasked(info, rng))
            assert reward == info["score"] - score and reward in (0.0, 1.0)
            score = info["score"]
            assert info["length"] == 3 + score
            total += float(reward)
            if terminated or truncated:
                break
    assert total > 0


def test_reward_fn_replaces_the_reward() -> None:
    env = SnakeEnv(reward_fn=lambda game, eaten: -1.0 if game.over else 0.1 + eaten)
    env.reset(seed=0)
    _, reward, _, _, _ = env.step(UP)
    assert reward == pytest.approx(0.1 + env.game.score)


def test_a_wall_collision_terminates() -> None:
    env = SnakeEnv()
    env.reset(seed=0)
    for _ in range(10):
        _, _, terminated, truncated, info = env.step(UP)
        if terminated:
            break
    assert terminated and not truncated
    assert info["end_reason"] == "wall" and not info["won"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(UP)


def test_a_full_board_terminates_as_a_win() -> None:
    env = SnakeEnv()
    env.reset(seed=0)
    path = [(r, c if r % 2 == 0 else 7 - c) for r in range(8) for c in range(8)]
    env.game = SnakeGame.from_position(path[:63][::-1], path[63], LEFT)
    obs, reward, terminated, truncated, info = env.step(LEFT)
    assert terminated and not truncated and reward == 1.0
    assert info["won"] and info["end_reason"] == "won" and obs["length"][0] == 64
    assert obs["board"][:, :, PLANE_BODY].all() and not obs["board"][:, :, PLANE_FOOD].any()


def test_the_decision_cap_truncates() -> None:
    env = SnakeEnv(max_decisions=3)
    env.reset(seed=0)
    results = [env.step(DOWN if i == 0 else RIGHT) for i in range(3)]
    assert [r[3] for r in results] == [False, False, True]
    assert not any(r[2] for r in results)
    assert results[-1][4]["end_reason"] == "decision cap"
    assert SnakeEnv().max_decisions == 2000


def test_steps_without_food_truncate() -> None:
    assert SnakeEnv().max_steps_without_food == 128
    assert SnakeEnv(difficulty="hard").max_steps_without_food == 512
    env = SnakeEnv(max_steps_without_food=4)
    env.reset(seed=0)
    env.game = SnakeGame.from_position(
        [(1, 0), (1, 1), (0, 1), (0, 0)], (7, 7), LEFT, starve_limit=4
    )
    ends = [env.step(d)[3] for d in (UP, RIGHT, DOWN, LEFT)]
    assert ends == [False, False, False, True] and env.game.end_reason == "no food"


def test_reset_seed_is_reproducible_and_follows_gymnasium() -> None:
    a, b = SnakeEnv(), SnakeEnv()
    obs_a, _ = a.reset(seed=42)
    obs_b, _ = b.reset(seed=42)
    assert np.array_equal(obs_a["board"], obs_b["board"])
    assert a.game.state_hash() == b.game.state_hash()
    a.reset()
    b.reset()
    assert a.game.state_hash() == b.game.state_hash()
    foods = set()
    for seed in range(20):
        a.reset(seed=seed)
        foods.add(a.game.food)
    assert len(foods) > 5


def test_same_seed_and_actions_give_identical_trajectories() -> None:
    def run() -> list[str]:
        env = SnakeEnv()
        _, info = env.reset(seed=9)
        rng = np.random.default_rng(5)
        hashes = []
        for _ in range(200):
            _, _, terminated, truncated, info = env.step(_random_unmasked(info, rng))
            hashes.append(env.game.state_hash())
            if terminated or truncated:
                _, info = env.reset()
        return hashes

    assert run() == run()


@pytest.mark.parametrize("named", [100, "seed-01", np.int64(101)])
def test_a_named_narcade_seed_plays_that_game(named: Any) -> None:
    env = SnakeEnv(difficulty="medium")
    env.reset(options={"seed": named})
    assert env.game.state_hash() == SnakeGame(named, "medium").state_hash()
    env.reset(seed=3, options={"seed": named})
    assert env.game.state_hash() == SnakeGame(named, "medium").state_hash()


def test_bad_reset_options_are_one_clear_error() -> None:
    env = SnakeEnv()
    with pytest.raises(TypeError, match="NARCADE seed"):
        env.reset(options={"seed": 1.5})
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"sed": 100})


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"difficulty": "extreme"}, ValueError, "difficulty"),
        ({"render_mode": "human"}, ValueError, "render_mode"),
        ({"mode": "blitz"}, ValueError, "mode"),
        ({"clock": 250}, TypeError, "clock"),
        ({"max_decisions": -1}, ValueError, ">= 0"),
    ],
)
def test_bad_construction_is_one_clear_error(
    kwargs: dict[str, Any], error: type, match: str
) -> None:
    with pytest.raises(error, match=match):
        SnakeEnv(**kwargs)


def test_include_question_puts_the_narcade_question_in_info() -> None:
    env = SnakeEnv(include_question=True)
    _, info = env.reset(seed=0)
    question = info["question"]
    assert isinstance(question, SnakeQuestion) and question.decision == 0
    _, _, _, _, info = env.step(DOWN)
    assert info["question"].decision == 1
    assert info["question"].state_hash == env.game.state_hash()


def test_realtime_moves_the_snake_for_the_ticks_the_clock_measured() -> None:
    env = SnakeEnv(mode="realtime", clock=SimulatedClock([600.0, 100.0, 150.0]))
    env.reset(seed=0)
    start = env.game.snake_cells()[0]
    _, _, _, _, info = env.step(DOWN)  # 600 ms: two ticks right, then down
    assert info["ticks"] == 2
    assert env.game.snake_cells()[0] == (start[0] + 1, start[1] + 2)
    _, _, _, _, info = env.step(DOWN)  # 100 ms + the 100 carried: no tick
    assert info["ticks"] == 0
    _, _, _, _, info = env.step(RIGHT)  # 150 + 200 carried: one tick down, then right
    assert info["ticks"] == 1
    assert env.game.snake_cells()[0] == (start[0] + 3, start[1] + 3)
    assert env.game.decisions == 3 and env.game.moves == 6


def test_render_ansi_and_rgb_array() -> None:
    env = SnakeEnv(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    header, *rows, ruler = text.splitlines()
    board = "".join(row[3:] for row in rows)
    assert (board.count("@"), board.count("o"), board.count("*")) == (1, 2, 1)
    assert rows[4] == " 4 ..oo@..." and ruler.strip() == "01234567"
    assert "score 0" in header
    frame = SnakeEnv(render_mode="rgb_array")
    frame.reset(seed=0)
    image = frame.render()
    assert isinstance(image, np.ndarray)
    assert image.shape == (128, 128, 3) and image.dtype == np.uint8
    assert SnakeEnv().render() is None
