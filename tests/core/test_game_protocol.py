"""Every env's game implements `Game` (`arcade_gym/core/game.py`) in the env's own action indices:
its legal actions are the env's mask, and playing them through the game gives the env's states.

Parametrised over the descriptors, so a new game is checked without naming it here. A two-player
env (its descriptor has an `aec` module) answers each move with its opponent's inside `step`; the
test replays that reply on its copy as the one legal action leading to the env's state.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
import pytest
from pydantic import BaseModel

from arcade_gym.core.descriptor import EnvEntry, GameDescriptor
from arcade_gym.core.env import ArcadeEnv
from arcade_gym.core.game import Game, state_digest
from arcade_gym.games import env_entries
from arcade_gym.registration import NAMESPACE

STEPS = 50

if TYPE_CHECKING:  # mypy checks each game class against the protocol's signatures
    from arcade_gym.chess.contract import ChessQuestion
    from arcade_gym.chess.game import ChessGame
    from arcade_gym.minesweeper.contract import MinesweeperQuestion
    from arcade_gym.minesweeper.game import MinesweeperGame
    from arcade_gym.snake.contract import SnakeQuestion
    from arcade_gym.snake.game import SnakeGame
    from arcade_gym.sudoku.contract import SudokuQuestion
    from arcade_gym.sudoku.game import SudokuGame
    from arcade_gym.tetris.contract import AgentInput
    from arcade_gym.tetris.game import TetrisGame
    from arcade_gym.tetris.primitive_contract import TetrisControlQuestion
    from arcade_gym.tetris.primitive_game import TetrisControlGame
    from arcade_gym.tictactoe.contract import TicTacToeQuestion
    from arcade_gym.tictactoe.game import TicTacToeGame

    _TYPED: tuple[
        Game[AgentInput],
        Game[TetrisControlQuestion],
        Game[SnakeQuestion],
        Game[MinesweeperQuestion],
        Game[TicTacToeQuestion],
        Game[SudokuQuestion],
        Game[ChessQuestion],
    ] = (
        TetrisGame("s"),
        TetrisControlGame("s"),
        SnakeGame("s"),
        MinesweeperGame("s"),
        TicTacToeGame(),
        SudokuGame(),
        ChessGame(),
    )


def _env_class(entry: EnvEntry) -> type[ArcadeEnv[Any]]:
    module, _, name = entry.entry_point.partition(":")
    cls: type[ArcadeEnv[Any]] = getattr(__import__(module, fromlist=[name]), name)
    return cls


def _cases(*, masked_actions_legal: bool | None = None) -> list[Any]:
    """Every env of every descriptor on each of its boards (`ArcadeEnv.variants`)."""
    cases = []
    for game, entry in env_entries():
        cls = _env_class(entry)
        if masked_actions_legal is not None and cls.masked_actions_legal != masked_actions_legal:
            continue
        for kwargs in cls.variants:
            label = ",".join(f"{k}={v}" for k, v in kwargs.items())
            cases.append(pytest.param(game, entry, dict(kwargs), id=f"{entry.id}[{label}]"))
    return cases


CASES = _cases()
PLAYABLE_MASK_CASES = _cases(masked_actions_legal=True)


def _make(entry: EnvEntry, kwargs: dict[str, Any]) -> ArcadeEnv[Any]:
    env = gym.make(f"{NAMESPACE}/{entry.id}", **kwargs).unwrapped
    assert isinstance(env, ArcadeEnv)
    return env


def _mask_indices(info: dict[str, Any]) -> list[int]:
    return np.flatnonzero(info["action_mask"]).tolist()


def _reply(before: Game[Any], after_hash: str) -> tuple[int, float]:
    """The one legal action of `before` whose result hashes to `after_hash`, and its reward."""
    found = []
    for action in before.legal_action_indices():
        branch = copy.deepcopy(before)
        reward = branch.apply_action(action)
        if branch.state_hash() == after_hash:
            found.append((action, float(reward)))
    assert len(found) == 1, f"{len(found)} legal replies lead to the env's state"
    return found[0]


@pytest.mark.parametrize(("game", "entry", "kwargs"), CASES)
def test_the_env_game_is_a_game_whose_legal_actions_are_the_mask(
    game: GameDescriptor, entry: EnvEntry, kwargs: dict[str, Any]
) -> None:
    env = _make(entry, kwargs)
    _, info = env.reset(seed=3)
    played = env.as_game()
    assert isinstance(played, Game)
    assert not played.over
    assert played.legal_action_indices() == _mask_indices(info)
    digest = played.state_hash()
    assert isinstance(digest, str) and digest == digest.lower() and int(digest, 16) >= 0
    question = played.question()
    assert isinstance(question, BaseModel)
    named = question.model_dump().get("state_hash")  # a question that names its state
    assert named in (None, digest)


@pytest.mark.parametrize(("game", "entry", "kwargs"), CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_playing_through_the_game_follows_the_env_step_by_step(
    game: GameDescriptor, entry: EnvEntry, kwargs: dict[str, Any], seed: int
) -> None:
    env = _make(entry, kwargs)
    _, info = env.reset(seed=seed)
    twin = copy.deepcopy(env.as_game())
    rng = np.random.default_rng(seed)
    two_player = game.aec is not None
    for _ in range(STEPS):
        legal = twin.legal_action_indices()
        assert legal == _mask_indices(info)
        action = int(rng.choice(legal))
        _, reward, terminated, truncated, info = env.step(action)
        own = float(twin.apply_action(action))
        env_hash = env.as_game().state_hash()
        if two_player and not twin.over and twin.state_hash() != env_hash:
            reply, theirs = _reply(twin, env_hash)
            twin.apply_action(reply)
            own -= theirs
        assert twin.state_hash() == env_hash
        assert twin.over == (terminated or truncated) == env.as_game().over
        assert own == float(reward)
        if twin.over:
            assert twin.legal_action_indices() == []
            break


@pytest.mark.parametrize(("game", "entry", "kwargs"), CASES)
def test_an_action_the_game_does_not_list_is_refused_and_changes_nothing(
    game: GameDescriptor, entry: EnvEntry, kwargs: dict[str, Any]
) -> None:
    env = _make(entry, kwargs)
    env.reset(seed=5)
    played = copy.deepcopy(env.as_game())
    before = played.state_hash()
    legal = set(played.legal_action_indices())
    n = int(env.action_space.n)
    unlisted = [a for a in range(n) if a not in legal]
    if type(env).masked_actions_legal:
        unlisted = []  # Snake: its masked reversal is played by the rules (the next test)
    for action in [-1, n, *unlisted[:3]]:
        with pytest.raises(ValueError):
            played.apply_action(action)
        assert played.state_hash() == before


@pytest.mark.parametrize(("game", "entry", "kwargs"), PLAYABLE_MASK_CASES)
def test_a_masked_action_the_rules_still_play_is_played_as_the_env_plays_it(
    game: GameDescriptor, entry: EnvEntry, kwargs: dict[str, Any]
) -> None:
    """Snake masks the reversal into the neck but plays it (keeping the heading): the game's
    `apply_action` plays it the same way though `legal_action_indices` leaves it out."""
    env = _make(entry, kwargs)
    _, info = env.reset(seed=7)
    masked = np.flatnonzero(info["action_mask"] == 0).tolist()
    assert masked
    twin = copy.deepcopy(env.as_game())
    _, reward, terminated, truncated, _ = env.step(masked[0])
    assert float(twin.apply_action(masked[0])) == float(reward)
    assert twin.state_hash() == env.as_game().state_hash()
    assert twin.over == (terminated or truncated)


def test_the_state_digest_separates_its_parts() -> None:
    assert state_digest(b"ab", b"c") != state_digest(b"a", b"bc")
    assert len(state_digest(b"")) == 16 and state_digest(b"x") == state_digest(b"x")
