"""SB3 models as policies (`sb3:` in the grammar): observations rebuilt from questions equal the
envs' own on recorded games, the algorithm is read from the file, actions map to valid answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("sb3_contrib")

import arcade_gym  # noqa: F401
from arcade_gym.minesweeper.observe import minesweeper_observation
from arcade_gym.snake.observe import snake_observation
from arcade_gym.tetris.contract import validate
from arcade_gym.tetris.observe import (
    controls_observation,
    placement_mask,
    placements_observation,
)
from arcade_gym.tetris.primitive_game import TetrisControlGame
from arcade_gym.tictactoe.observe import tictactoe_observation
from policies.sb3 import SB3Policy, make_sb3_policy
from policies.sb3.loading import parse_body, read_algorithm
from policies.specs import SpecError, make_policy
from policies.tetris.afterstate import AfterstatePolicy

FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _assert_same(env_obs: Any, rebuilt: Any) -> None:
    if isinstance(env_obs, dict):
        assert set(env_obs) == set(rebuilt)
        for key in env_obs:
            _assert_same(env_obs[key], rebuilt[key])
        return
    expected = np.asarray(env_obs)
    got = np.asarray(rebuilt)
    assert got.dtype == expected.dtype or got.shape == ()
    np.testing.assert_array_equal(got, expected)


# --- observations rebuilt from questions ----------------------------------------------------
@FEW
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 60))
def test_tetris_observation_from_question_equals_the_env(seed: int, steps: int) -> None:
    env = gym.make("arcade_gym/Tetris-v3", include_question=True)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps + 1):
        question = info["question"]
        _assert_same(obs, placements_observation(question))
        np.testing.assert_array_equal(placement_mask(question), info["action_mask"])
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break


@FEW
@given(seed=st.integers(0, 2**31), controls=st.lists(st.integers(0, 5), max_size=80))
def test_tetris_controls_observation_from_question_equals_the_env(
    seed: int, controls: list[int]
) -> None:
    env = gym.make("arcade_gym/TetrisPrimitive-v3")
    obs, _ = env.reset(options={"seed": seed})
    game = TetrisControlGame(seed, max_pieces=500, max_decisions=10_000)
    for control in controls:
        _assert_same(obs, controls_observation(game.question()))
        obs, _, terminated, truncated, _ = env.step(control)
        game.step(control)
        if terminated or truncated:
            break


@FEW
@given(
    seed=st.integers(0, 2**31),
    difficulty=st.sampled_from(["easy", "medium", "hard"]),
    moves=st.lists(st.integers(0, 3), max_size=60),
)
def test_snake_observation_from_question_equals_the_env(
    seed: int, difficulty: str, moves: list[int]
) -> None:
    env = gym.make("arcade_gym/Snake-v0", difficulty=difficulty, include_question=True)
    obs, info = env.reset(seed=seed)
    for move in moves:
        rebuilt, mask = snake_observation(info["question"])
        _assert_same(obs, rebuilt)
        np.testing.assert_array_equal(mask, info["action_mask"])
        obs, _, terminated, truncated, info = env.step(move)
        if terminated or truncated:
            break


@FEW
@given(seed=st.integers(0, 2**31), difficulty=st.sampled_from(["easy", "medium", "hard"]))
def test_minesweeper_observation_from_question_equals_the_env(seed: int, difficulty: str) -> None:
    env = gym.make("arcade_gym/Minesweeper-v0", difficulty=difficulty, include_question=True)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(30):
        rebuilt, mask = minesweeper_observation(info["question"])
        _assert_same(obs, rebuilt)
        np.testing.assert_array_equal(mask, info["action_mask"])
        obs, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        if terminated or truncated:
            break


@FEW
@given(seed=st.integers(0, 2**31), size=st.sampled_from([3, 5, 10]), mark=st.sampled_from("XO"))
def test_tictactoe_observation_from_question_equals_the_env(
    seed: int, size: int, mark: str
) -> None:
    env = gym.make("arcade_gym/TicTacToe-v0", size=size, agent_mark=mark, opponent="greedy")
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    terminated = False
    while not terminated:
        rebuilt, mask = tictactoe_observation(env.unwrapped.game.question())
        _assert_same(obs, rebuilt)
        np.testing.assert_array_equal(mask, info["action_mask"])
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


# --- models ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Untrained but complete models of each algorithm (saving needs no training)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import A2C, DQN, PPO

    out = tmp_path_factory.mktemp("models")
    tetris = gym.make("arcade_gym/Tetris-v3")
    snake_flat = gym.make("arcade_gym/Snake-v0", observation="flat")
    ttt = gym.make("arcade_gym/TicTacToe-v0", illegal_action="penalty")
    mines = gym.make("arcade_gym/Minesweeper-v0")
    controls = gym.make("arcade_gym/TetrisPrimitive-v3")
    made = {
        "maskable": MaskablePPO(AfterstatePolicy, tetris, n_steps=64, seed=0),
        "ppo-flat-snake": PPO("MlpPolicy", snake_flat, n_steps=64, seed=0),
        "dqn-ttt": DQN("MlpPolicy", ttt, learning_starts=0, seed=0),
        "a2c-mines": A2C("MlpPolicy", mines, n_steps=8, seed=0),
        "ppo-controls": PPO("MultiInputPolicy", controls, n_steps=64, seed=0),
    }
    paths = {}
    for name, model in made.items():
        model.save(out / f"{name}.zip")
        paths[name] = out / f"{name}.zip"
    return paths


def test_algorithm_is_read_from_the_file(models: dict[str, Path]) -> None:
    assert read_algorithm(models["maskable"]) == "MaskablePPO"
    assert read_algorithm(models["ppo-flat-snake"]) == "PPO"
    assert read_algorithm(models["dqn-ttt"]) == "DQN"
    assert read_algorithm(models["a2c-mines"]) == "A2C"


def test_spec_body_names_an_optional_algorithm() -> None:
    assert parse_body("PPO:models/x.zip") == ("PPO", Path("models/x.zip"))
    assert parse_body("maskableppo:x.zip") == ("MaskablePPO", Path("x.zip"))
    assert parse_body("models/x.zip") == (None, Path("models/x.zip"))


def test_bad_specs_fail_with_one_clear_line(tmp_path: Path, models: dict[str, Path]) -> None:
    with pytest.raises(SpecError, match="no such model file"):
        make_policy(f"sb3:{tmp_path / 'missing.zip'}", "tetris")
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    with pytest.raises(SpecError, match="not a Stable-Baselines3 model zip"):
        make_policy(f"sb3:{junk}", "tetris")


def test_identity_names_the_file_and_its_hash(tmp_path: Path, models: dict[str, Path]) -> None:
    policy = make_policy(f"sb3:{models['maskable']}", "tetris")
    assert isinstance(policy, SB3Policy)
    assert policy.slug.startswith("sb3-maskable-") and len(policy.slug) == len("sb3-maskable-") + 8
    assert policy.kind == "rl"
    assert make_policy(f"sb3:MaskablePPO:{models['maskable']}", "tetris").slug == policy.slug
    copy = tmp_path / "maskable.zip"
    copy.write_bytes(models["maskable"].read_bytes() + b"\0")  # zip readers ignore trailing bytes
    assert make_policy(f"sb3:{copy}", "tetris").slug != policy.slug


def _tetris_questions(n: int) -> list[tuple[Any, dict[str, Any], np.ndarray]]:
    env = gym.make("arcade_gym/Tetris-v3", include_question=True)
    obs, info = env.reset(options={"seed": "seed-03"})
    out = []
    rng = np.random.default_rng(3)
    for _ in range(n):
        out.append((info["question"], obs, info["action_mask"]))
        obs, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"][:44])))
        )
        if terminated or truncated:
            break
    return out


def test_maskable_model_answers_what_predict_chooses(models: dict[str, Path]) -> None:
    policy = make_sb3_policy(str(models["maskable"]), "tetris")
    for question, obs, mask in _tetris_questions(25):
        expected, _ = policy.sb3_model.predict(
            obs, deterministic=True, action_masks=mask.astype(bool)
        )
        action, _ = policy.choose(question)
        assert action == int(expected)
        verdict = validate(policy.act(question), question)
        assert verdict.usable


def test_hold_is_answered_with_a_listed_placement(models: dict[str, Path]) -> None:
    policy = make_sb3_policy(str(models["maskable"]), "tetris")
    extractor = policy.sb3_model.policy.features_extractor
    extractor.hold_logit.data.fill_(1.0e6)
    question = _tetris_questions(1)[0][0]
    verdict = validate(policy.act(question), question)
    assert verdict.usable and verdict.hold


def test_flat_model_gets_the_flat_observation(models: dict[str, Path]) -> None:
    env = gym.make("arcade_gym/Snake-v0", observation="flat")
    flat_obs, _ = env.reset(seed=5)
    questioning = gym.make("arcade_gym/Snake-v0", include_question=True)
    _, info = questioning.reset(seed=5)
    policy = make_policy(f"sb3:{models['ppo-flat-snake']}", "snake")
    observation, _ = policy.observation(info["question"])
    np.testing.assert_array_equal(observation, flat_obs)
    assert policy.act(info["question"]).action in ("up", "right", "down", "left")


def test_dqn_plays_only_legal_tictactoe_moves(models: dict[str, Path]) -> None:
    from arcade_gym.tictactoe.game import TicTacToeGame

    policy = make_policy(f"sb3:{models['dqn-ttt']}", "tictactoe")
    game = TicTacToeGame(3)
    while not game.over:
        answer = policy.act(game.question())
        cell = answer.row * 3 + answer.col
        assert game.flat[cell] == 0
        game.play(cell)


def test_a2c_minesweeper_answers_a_listed_action(models: dict[str, Path]) -> None:
    env = gym.make("arcade_gym/Minesweeper-v0", include_question=True)
    _, info = env.reset(seed=1)
    policy = make_policy(f"sb3:{models['a2c-mines']}", "minesweeper")
    assert policy.act(info["question"]).action in info["question"].actions


def test_controls_model_answers_a_control(models: dict[str, Path]) -> None:
    policy = make_policy(f"sb3:{models['ppo-controls']}", "tetris-controls")
    question = TetrisControlGame("seed-01").question()
    assert policy.act(question).action in question.actions


def test_a_model_of_another_board_size_is_refused(models: dict[str, Path]) -> None:
    from arcade_gym.tictactoe.game import TicTacToeGame

    policy = make_policy(f"sb3:{models['dqn-ttt']}", "tictactoe")
    with pytest.raises(ValueError, match="shape"):
        policy.act(TicTacToeGame(5).question())


# --- the native vector env as an SB3 VecEnv ---------------------------------------------------
def test_native_vec_env_resets_finished_games_at_once_like_single_envs() -> None:
    from policies.sb3.vecenv import NativeVecEnv

    n, seed = 3, 11
    vector = gym.make_vec(
        "arcade_gym/Snake-v0", num_envs=n, vectorization_mode="vector_entry_point"
    )
    venv = NativeVecEnv(vector, seed=seed)
    singles = [gym.make("arcade_gym/Snake-v0") for _ in range(n)]
    expected = [env.reset(seed=seed + i)[0] for i, env in enumerate(singles)]
    observations = venv.reset()
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(150):
        for i in range(n):
            _assert_same(expected[i], {k: v[i] for k, v in observations.items()})
        actions = rng.integers(0, 4, n)
        venv.step_async(actions)
        observations, rewards, dones, infos = venv.step_wait()
        for i, env in enumerate(singles):
            obs, reward, terminated, truncated, _ = env.step(int(actions[i]))
            assert rewards[i] == reward and dones[i] == (terminated or truncated)
            if dones[i]:
                finished += 1
                _assert_same(obs, infos[i]["terminal_observation"])
                obs, _ = env.reset()
            expected[i] = obs
    assert finished > 0
    assert venv.action_masks().shape == (n, 4)


def test_a_flat_model_refuses_other_boards_by_shape_every_time(tmp_path: Path) -> None:
    from stable_baselines3 import PPO

    from arcade_gym.tictactoe.game import TicTacToeGame

    env = gym.make("arcade_gym/TicTacToe-v0", observation="flat", illegal_action="penalty")
    PPO("MlpPolicy", env, n_steps=64, seed=0).save(tmp_path / "flat-ttt.zip")
    policy = make_policy(f"sb3:{tmp_path / 'flat-ttt.zip'}", "tictactoe")
    assert policy.act(TicTacToeGame(3).question()).row in range(3)
    for size in (10, 5, 10):
        with pytest.raises(ValueError, match="expects observations of shape"):
            policy.act(TicTacToeGame(size).question())
