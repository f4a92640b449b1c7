"""The batched chess env plays exactly what N single `ChessEnv`s play from the same seeds:
observations, rewards, ends, masks and every info, over several episodes (autoreset included),
for each opponent, colour rule, variant, ply cap and start."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import arcade_gym  # noqa: F401 (registers the envs)
from arcade_gym.chess.env import ChessEnv
from arcade_gym.chess.vector import ChessVectorEnv

INFO_KEYS = ("agent_colour", "opponent_move", "fen", "result", "termination")
EN_PASSANT = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
NEAR_FIFTY = "8/8/4k3/8/8/3K4/8/7R w - - 95 80"
CHESS960_FEN = "1rk3r1/8/8/8/8/8/8/1RK3R1 w GBgb - 0 1"

CASES: list[tuple[dict[str, Any], int]] = [
    ({}, 2),
    ({"variant": "chess960", "agent_colour": "alternate"}, 2),
    ({"agent_colour": "black", "opponent": "greedy", "max_plies": 50}, 3),
    ({"opponent": "material-2ply", "agent_colour": "alternate", "max_plies": 9}, 2),
    ({"start": EN_PASSANT, "max_plies": 30}, 3),
    ({"start": NEAR_FIFTY, "agent_colour": "alternate"}, 3),
    ({"variant": "chess960", "start": CHESS960_FEN, "opponent": "greedy", "max_plies": 80}, 3),
]


def _assert_same(step: int, obs: Any, infos: dict[str, Any], expected: list[Any]) -> None:
    for i, (single_obs, info) in enumerate(expected):
        np.testing.assert_array_equal(obs[i], single_obs, f"step {step}, game {i}")
        np.testing.assert_array_equal(infos["action_mask"][i], info["action_mask"])
        for key in INFO_KEYS:
            assert infos[key][i] == info[key], (step, i, key)


def _play_side_by_side(
    vec: ChessVectorEnv, singles: list[ChessEnv], episodes: int, max_steps: int = 2000
) -> set[str]:
    """Random legal actions on both until every game finished `episodes` episodes; the
    terminations seen."""
    n = len(singles)
    obs, infos = vec.reset(seed=21)
    expected = [env.reset(seed=21 + i) for i, env in enumerate(singles)]
    _assert_same(-1, obs, infos, expected)
    rng = np.random.default_rng(5)
    done, finished = [False] * n, [0] * n
    seen: set[str] = set()
    for step in range(max_steps):
        if min(finished) >= episodes:
            return seen
        legal = [np.flatnonzero(m) for m in infos["action_mask"]]
        actions = np.array([rng.choice(x) if x.size else 0 for x in legal])
        obs, rewards, terms, truncs, infos = vec.step(actions)
        expected = []
        for i, env in enumerate(singles):
            if done[i]:
                single_obs, info = env.reset()
                outcome = (0.0, False, False)
                done[i] = False
            else:
                single_obs, reward, term, trunc, info = env.step(int(actions[i]))
                outcome = (float(reward), term, trunc)
                done[i] = term or trunc
                finished[i] += done[i]
                if term:
                    seen.add(info["termination"])
            expected.append((single_obs, info))
            assert (float(rewards[i]), bool(terms[i]), bool(truncs[i])) == outcome, (step, i)
        _assert_same(step, obs, infos, expected)
    raise AssertionError(f"games finished {finished} episodes in {max_steps} steps")


@pytest.mark.parametrize(("kwargs", "n"), CASES)
def test_the_batch_plays_what_single_envs_play(kwargs: dict[str, Any], n: int) -> None:
    vec = gym.make_vec(
        "arcade_gym/Chess-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs
    )
    assert isinstance(vec, ChessVectorEnv)
    singles = [ChessEnv(**kwargs) for _ in range(n)]
    seen = _play_side_by_side(vec, singles, episodes=2)
    if kwargs.get("start") == NEAR_FIFTY:
        assert "fifty_moves" in seen


def test_a_seed_list_reseeds_only_the_named_games() -> None:
    kwargs: dict[str, Any] = {"agent_colour": "alternate", "max_plies": 6}
    vec = ChessVectorEnv(3, **kwargs)
    singles = [ChessEnv(**kwargs) for _ in range(3)]
    vec.reset(seed=4)
    for i, env in enumerate(singles):
        env.reset(seed=4 + i)
    obs, infos = vec.reset(seed=[9, None, 2])  # game 1 plays on from its own generator
    expected = [singles[0].reset(seed=9), singles[1].reset(), singles[2].reset(seed=2)]
    _assert_same(0, obs, infos, expected)
    assert list(infos["agent_colour"]) == ["white", "black", "white"]


def test_infos_are_object_arrays_with_gymnasium_presence_masks() -> None:
    vec = ChessVectorEnv(2, agent_colour="black")
    _, infos = vec.reset(seed=0)
    for key in INFO_KEYS:
        assert infos[key].dtype == object and infos[f"_{key}"].all()
    assert infos["result"].tolist() == ["*", "*"] and infos["termination"].tolist() == [None, None]
    assert all(isinstance(move, str) and len(move) == 4 for move in infos["opponent_move"])


def test_what_the_kernel_cannot_play_is_refused_with_the_fix() -> None:
    with pytest.raises(ValueError, match='vectorization_mode="sync"'):
        ChessVectorEnv(2, opponent=lambda board: next(iter(board.legal_moves)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="opponent"):
        ChessVectorEnv(2, opponent="stockfish")
    with pytest.raises(ValueError, match="below"):
        ChessVectorEnv(2, start="4k3/8/8/8/8/8/8/4K2R w K - 0 1000000")
    with pytest.raises(ValueError, match="render"):
        ChessVectorEnv(2, render_mode="ansi")
    with pytest.raises(ValueError, match="chess960"):
        ChessVectorEnv(2, start=12)


def test_plies_count_both_sides_moves_per_game() -> None:
    vec = ChessVectorEnv(3, agent_colour="alternate", max_plies=8)
    singles = [ChessEnv(agent_colour="alternate", max_plies=8) for _ in range(3)]
    _, infos = vec.reset(seed=2)
    for i, env in enumerate(singles):
        env.reset(seed=2 + i)
    assert vec.plies().tolist() == [env.game.ply for env in singles]
    for _ in range(3):
        actions = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
        _, _, _, _, infos = vec.step(actions)
        for i, env in enumerate(singles):
            env.step(int(actions[i]))
        assert vec.plies().tolist() == [env.game.ply for env in singles]
