"""Every game's SB3 route, Sudoku and chess included: the chess adapter rebuilds `Chess-v0`'s own
observation and mask from a ladder question, and a real SB3 model, trained a few steps on the
env, saved, and loaded through the `--policy` grammar (`sb3:PATH`), answers one Sudoku question
and chess positions (both colours, Chess960) with answers their benchmarks accept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess
import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.chess.contract import check_answer, make_question
from arcade_gym.chess.env import ChessEnv
from arcade_gym.chess.game import ChessGame
from arcade_gym.chess.observe import chess_observation
from arcade_gym.games import descriptor, policy_games
from arcade_gym.sudoku.contract import SudokuQuestion
from arcade_gym.sudoku.rules import parse_puzzle
from arcade_gym.sudoku.sets import set_grids
from policies.sb3 import SB3Policy
from policies.sb3.games import adapter_for, sb3_games
from policies.specs import SpecError, make_policy
from tests.toy_game import ToySpec, toy_games


@pytest.mark.parametrize("game", policy_games())
def test_every_policy_game_has_an_sb3_adapter_on_one_of_its_own_envs(game: str) -> None:
    adapter = adapter_for(game)
    assert adapter is not None, game
    assert game in sb3_games()
    own = {f"arcade_gym/{entry.id}" for entry in descriptor(game).envs}
    assert adapter.env_id in own


@pytest.mark.parametrize(
    ("variant", "colour"), [("standard", "white"), ("standard", "black"), ("chess960", "black")]
)
@pytest.mark.parametrize("seed", [0, 7])
def test_the_chess_observation_from_a_question_equals_the_envs(
    variant: str, colour: str, seed: int
) -> None:
    env = gym.make("arcade_gym/Chess-v0", variant=variant, agent_colour=colour)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(30):
        question = _chess_env(env).game.question()
        assert question.colour == colour
        rebuilt, mask = chess_observation(question)
        assert rebuilt.dtype == obs.dtype
        np.testing.assert_array_equal(rebuilt, obs)
        np.testing.assert_array_equal(mask, info["action_mask"])
        obs, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        if terminated or truncated:
            break


def _chess_env(env: gym.Env[Any, Any]) -> ChessEnv:
    inner = env.unwrapped
    assert isinstance(inner, ChessEnv)
    return inner


def _trained(env_id: str, policy: str, path: Path, **env_kwargs: Any) -> Path:
    """A PPO model trained for a few steps on `env_id` (masked actions cost a penalty), saved."""
    from stable_baselines3 import PPO

    env = gym.make(env_id, illegal_action="penalty", **env_kwargs)
    model = PPO(policy, env, n_steps=16, batch_size=16, n_epochs=1, seed=0)
    model.learn(total_timesteps=16)
    model.save(path)
    return path


@pytest.fixture(scope="module", params=["planes", "flat"])
def chess_model(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Trained on `Chess-v0`'s (8, 8, 111) planes, or on its `observation="flat"` vector."""
    path = tmp_path_factory.mktemp("m") / f"chess-{request.param}.zip"
    if request.param == "flat":
        return _trained("arcade_gym/Chess-v0", "MlpPolicy", path, observation="flat")
    return _trained("arcade_gym/Chess-v0", "MlpPolicy", path)


@pytest.fixture(scope="module")
def sudoku_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("m") / "s.zip"
    return _trained("arcade_gym/Sudoku-v0", "MultiInputPolicy", path, set="v1", tier=1)


def _position(variant: str, start: int | None, plies: int) -> chess.Board:
    game = ChessGame(variant, start)
    for _ in range(plies):
        game.play(game.moves[len(game.moves) // 2])
    return game.board


@pytest.mark.parametrize(
    ("variant", "start", "plies"),
    [("standard", None, 0), ("standard", None, 5), ("chess960", 7, 3)],
)
def test_a_saved_chess_model_plays_a_position_through_the_policy_grammar(
    chess_model: Path, variant: str, start: int | None, plies: int
) -> None:
    policy = make_policy(f"sb3:{chess_model}", "chess")
    assert isinstance(policy, SB3Policy) and policy.kind == "rl"
    board = _position(variant, start, plies)
    question = make_question(board, variant)  # type: ignore[arg-type]
    answer = policy.act(question)
    verdict = check_answer(question, answer)
    assert verdict.legal, (answer, verdict.feedback)
    action, _ = policy.choose(question)
    observation, mask = policy.observation(question)
    assert mask[action] == 1
    assert observation.shape == policy.sb3_model.observation_space.shape  # the model's own form
    assert policy.act(question) == answer  # greedy: the same file and question, the same move


def test_the_chess_model_sees_what_its_env_showed_it(chess_model: Path) -> None:
    policy = make_policy(f"sb3:{chess_model}", "chess")
    assert isinstance(policy, SB3Policy)
    flat = len(policy.sb3_model.observation_space.shape) == 1
    env = gym.make(
        "arcade_gym/Chess-v0", agent_colour="black", observation="flat" if flat else "dict"
    )
    obs, info = env.reset(seed=3)
    for _ in range(4):
        observation, mask = policy.observation(_chess_env(env).game.question())
        np.testing.assert_array_equal(observation, obs)
        np.testing.assert_array_equal(mask, info["action_mask"])
        obs, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_a_saved_sudoku_model_fills_one_question_through_the_policy_grammar(
    sudoku_model: Path,
) -> None:
    record = set_grids("v1", 1)[0]
    question = SudokuQuestion.from_puzzle(record["puzzle"], record["id"])
    policy = make_policy(f"sb3:{sudoku_model}", "sudoku")
    assert isinstance(policy, SB3Policy)
    answer = policy.act(question)
    grid = np.array([[int(c) if c.isdigit() else 0 for c in row] for row in answer.grid])
    puzzle = parse_puzzle(record["puzzle"]).reshape(9, 9)
    given = puzzle > 0
    np.testing.assert_array_equal(grid[given], puzzle[given])  # the givens are kept
    assert (grid > puzzle).any()  # the model placed digits
    for lines in (grid, grid.T, grid.reshape(3, 3, 3, 3).transpose(0, 2, 1, 3).reshape(9, 9)):
        for line in lines:
            digits = line[line > 0]
            assert len(digits) == len(set(digits.tolist()))  # no placement breaks a constraint
    assert 0 <= answer.confidence <= 100


def test_a_game_without_an_adapter_is_one_line_naming_the_games(
    chess_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused = pytest.raises(SpecError, match="sb3: models do not play toynosb3; games: tetris")
    with toy_games(tmp_path, monkeypatch, ToySpec("toynosb3")), refused:
        make_policy(f"sb3:{chess_model}", "toynosb3")
