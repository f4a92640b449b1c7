"""arcade_gym/Chess-v0: Gymnasium's checker, the opponent, colours, rewards, starts."""

from __future__ import annotations

from typing import Any

import chess
import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import arcade_gym  # noqa: F401 (registers the envs)
from arcade_gym.chess.env import ChessEnv


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"variant": "chess960"}, {"agent_colour": "black", "opponent": "greedy"}],
)
def test_check_env_passes(kwargs: dict[str, Any]) -> None:
    check_env(gym.make("arcade_gym/Chess-v0", **kwargs).unwrapped, skip_render_check=True)


def test_black_agent_sees_the_opponents_first_move_and_a_mirrored_board() -> None:
    env = gym.make("arcade_gym/Chess-v0", agent_colour="black")
    obs, info = env.reset(seed=3)
    assert info["agent_colour"] == "black" and info["opponent_move"] is not None
    assert obs[:, :, 4].all()  # the colour plane says black
    assert info["action_mask"].sum() == 20


def test_sampled_actions_play_whole_games_with_terminal_rewards() -> None:
    env = gym.make("arcade_gym/Chess-v0", opponent="random")
    env.reset(seed=0)
    for _ in range(3):
        total, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, info = env.step(env.action_space.sample())
            total += float(reward)
            done = terminated or truncated
        assert total in (-1.0, 0.0, 1.0)
        assert info["result"] in ("1-0", "0-1", "1/2-1/2")
        assert not info["action_mask"].any()
        env.reset()


def test_losing_to_mate_pays_minus_one() -> None:
    def fools_mate(board: chess.Board) -> chess.Move:
        for san in ("e5", "Qh4#"):
            try:
                return board.parse_san(san)
            except ValueError:
                continue
        raise AssertionError("scripted opponent ran out of moves")

    env = ChessEnv(opponent=fools_mate)
    _, info = env.reset(seed=0)
    game = env.game
    for san in ("f3", "g4"):
        move = game.board.parse_san(san)
        _, reward, terminated, _, info = env.step(game.actions[game.moves.index(move)])
    assert terminated and reward == -1.0 and info["termination"] == "checkmate"


def test_same_seed_same_games() -> None:
    def episode(seed: int) -> list[str]:
        env = gym.make("arcade_gym/Chess-v0", opponent="greedy", variant="chess960")
        env.reset(seed=seed)
        env.action_space.seed(seed)
        moves = []
        for _ in range(20):
            _, _, terminated, truncated, info = env.step(env.action_space.sample())
            moves.append(info["fen"])
            if terminated or truncated:
                break
        return moves

    assert episode(5) == episode(5)
    assert episode(5) != episode(6)


def test_masked_action_raises_or_is_penalised() -> None:
    env = ChessEnv()
    _, info = env.reset(seed=0)
    masked = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="masked"):
        env.step(masked)
    env = ChessEnv(illegal_action="penalty")
    _, info = env.reset(seed=0)
    _, reward, terminated, _, info = env.step(masked)
    assert reward == -1.0 and info["illegal"] and not terminated


def test_callable_opponent_is_closed_with_the_env() -> None:
    class Scripted:
        closed = False

        def __call__(self, board: chess.Board) -> chess.Move:
            return next(iter(board.legal_moves))

        def close(self) -> None:
            self.closed = True

    opponent = Scripted()
    env = ChessEnv(opponent=opponent)
    env.reset(seed=0)
    env.close()
    assert opponent.closed


def test_an_opponent_playing_illegal_moves_is_an_error() -> None:
    env = ChessEnv(opponent=lambda board: chess.Move.from_uci("a1a8"), agent_colour="black")
    with pytest.raises(RuntimeError, match="not legal"):
        env.reset(seed=0)


@pytest.mark.parametrize(
    "kwargs",
    [{"opponent": "stockfish"}, {"agent_colour": "red"}, {"max_plies": 0}, {"opponent": 3}],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError)):
        ChessEnv(**kwargs)  # type: ignore[arg-type]


def test_reset_option_start_sets_the_position() -> None:
    env = ChessEnv()
    _, info = env.reset(options={"start": "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"})
    assert info["fen"].startswith("4k3/8/8/8/8/8/8/R3K3 w")
    with pytest.raises(ValueError):
        env.reset(options={"start": "garbage"})


def test_a_stockfish_rung_plays_as_a_callable_opponent_and_is_closed() -> None:
    from policies.engines.uci import UciEngine, parse_uci_spec
    from tests.engines.stockfish import stockfish_or_skip

    stockfish_or_skip()
    engine = UciEngine(parse_uci_spec("stockfish?Threads=1", nodes=200))
    env = ChessEnv(opponent=engine.play, agent_colour="black")
    _, info = env.reset(seed=0)
    assert info["opponent_move"] is not None and engine.pid is not None
    env.step(env.action_space.sample())
    env.close()
    assert engine.engine is None
