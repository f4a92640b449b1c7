"""chess_v0: the PettingZoo API, end rules, rewards, illegal moves, variants and starts."""

from __future__ import annotations

import chess
import numpy as np
import pytest
from pettingzoo.test import api_test

from arcade_gym.chess.game import ChessGame
from arcade_gym.multiagent import chess_v0


def _play(env: chess_v0.raw_env, *sans: str) -> None:
    for san in sans:
        move = env.board.parse_san(san)
        env.step(env.game.actions[env.game.moves.index(move)])


@pytest.mark.parametrize("variant", ["standard", "chess960"])
def test_pettingzoo_api_test_passes(variant: str) -> None:
    api_test(chess_v0.env(variant=variant), num_cycles=200)


def test_wrapped_env_passes_api_test() -> None:
    api_test(chess_v0.wrapped_env(variant="chess960", start=5), num_cycles=100)


def test_fools_mate_pays_the_winner() -> None:
    env = chess_v0.env()
    env.reset()
    _play(env, "f3", "e5", "g4", "Qh4#")
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env._cumulative_rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.infos["player_0"]["result"] == "0-1"
    assert env.infos["player_1"]["termination"] == "checkmate"


def test_an_illegal_action_loses_for_the_mover() -> None:
    env = chess_v0.env()
    env.reset()
    illegal = int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.infos["player_0"]["illegal_move"] is True
    assert env._cumulative_rewards == {"player_0": -1.0, "player_1": 1.0}
    assert all(env.terminations.values())


@pytest.mark.parametrize("action", [-1, 4672])
def test_out_of_range_actions_raise(action: int) -> None:
    env = chess_v0.env()
    env.reset()
    with pytest.raises(ValueError, match="out of range"):
        env.step(action)


def test_non_integer_actions_raise_type_error() -> None:
    env = chess_v0.env()
    env.reset()
    with pytest.raises(TypeError):
        env.step(1.5)  # type: ignore[arg-type]


def test_calls_before_reset_raise() -> None:
    env = chess_v0.env()
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_threefold_repetition_ends_the_game_on_the_third_occurrence() -> None:
    env = chess_v0.env()
    env.reset()
    _play(env, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    assert not any(env.terminations.values())
    _play(env, "Ng8")
    assert env.infos["player_0"]["termination"] == "threefold_repetition"
    assert env._cumulative_rewards == {"player_0": 0.0, "player_1": 0.0}


def test_fifty_moves_and_insufficient_material_end_the_game() -> None:
    game = ChessGame(start="8/8/8/4k3/8/8/4K3/4R3 w - - 99 80")
    game.play(chess.Move.from_uci("e1h1"))
    assert game.termination == "fifty_moves" and game.result == "1/2-1/2"
    game = ChessGame(start="8/8/8/4k3/8/8/4K3/4n3 w - - 0 1")
    game.play(chess.Move.from_uci("e2e1"))
    assert game.termination == "insufficient_material"


def test_stalemate_is_a_draw() -> None:
    game = ChessGame(start="7k/8/6QK/8/8/8/8/8 w - - 0 1")
    game.play(chess.Move.from_uci("g6f7"))
    assert game.termination == "stalemate" and game.winner is None


def test_chess960_starts_by_index_and_black_can_move_first() -> None:
    env = chess_v0.env(variant="chess960", start=0)
    env.reset()
    assert env.board.fen().startswith("bbqnnrkr/pppppppp")
    env.reset(options={"start": "bbqnnrkr/pppppppp/8/8/4P3/8/PPPP1PPP/BBQNNRKR b KQkq - 0 1"})
    assert env.agent_selection == "player_1"
    assert env.observe("player_1")["action_mask"].sum() == 20


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"variant": "crazyhouse"}, ValueError),
        ({"start": 960, "variant": "chess960"}, ValueError),
        ({"start": 3}, ValueError),
        ({"start": "not a fen"}, ValueError),
        ({"start": "8/8/8/8/8/8/8/8 w - - 0 1"}, ValueError),
        ({"max_plies": 0}, ValueError),
        ({"render_mode": "rgb_array"}, ValueError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        chess_v0.env(**kwargs)  # type: ignore[arg-type]


def test_max_plies_truncates_both_agents() -> None:
    env = chess_v0.env(max_plies=2)
    env.reset()
    _play(env, "e4", "e5")
    assert env.truncations == {"player_0": True, "player_1": True}
    assert env.infos["player_0"]["termination"] == "max_plies"


def test_ansi_render_shows_the_board() -> None:
    env = chess_v0.env(render_mode="ansi")
    env.reset()
    text = env.render()
    assert text is not None and "r n b q k b n r" in text and "white to move" in text
