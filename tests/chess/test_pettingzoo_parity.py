"""For the same positions, chess_v0's observations and masks equal PettingZoo chess_v6's, for
both agents, so agents written for chess_v6 play chess_v0 unchanged."""

from __future__ import annotations

import random
import types
from typing import Any

import numpy as np

from arcade_gym.multiagent import chess_v0


def _play_side_by_side(pz_chess: types.ModuleType, seed: int, games: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(games):
        theirs = pz_chess.raw_env()
        theirs.reset()
        ours = chess_v0.env()
        ours.reset()
        while not (theirs.terminations[theirs.agent_selection] or ours.game.over):
            assert ours.agent_selection == theirs.agent_selection
            for agent in ours.possible_agents:
                a, b = ours.observe(agent), theirs.observe(agent)
                assert a["observation"].dtype == b["observation"].dtype
                np.testing.assert_array_equal(a["observation"], b["observation"])
                np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
                compared += 1
            action = rng.choice(ours.game.actions)
            theirs.step(action)
            ours.step(action)
    return compared


def test_observations_and_masks_equal_chess_v6_along_random_games(
    pz_chess: types.ModuleType,
) -> None:
    assert _play_side_by_side(pz_chess, seed=7, games=6) > 500


def test_spaces_equal_chess_v6(pz_chess: types.ModuleType) -> None:
    theirs, ours = pz_chess.raw_env(), chess_v0.env()
    for agent in ours.possible_agents:
        assert ours.action_space(agent) == theirs.action_space(agent)
        a: Any = ours.observation_space(agent)
        b: Any = theirs.observation_space(agent)
        for key in ("observation", "action_mask"):
            assert a[key].shape == b[key].shape and a[key].dtype == b[key].dtype


def test_en_passant_and_repetition_planes_match(pz_chess: types.ModuleType) -> None:
    """A double pawn push (drawn on the back rank) and a repeated position (plane 19)."""
    theirs, ours = pz_chess.raw_env(), chess_v0.env()
    theirs.reset()
    ours.reset()
    sans = ["e4", "Nf6", "Nf3", "Ng8", "Ng1", "Nf6", "Nf3", "d5"]
    for san in sans:
        move = ours.board.parse_san(san)
        action = ours.game.actions[ours.game.moves.index(move)]
        theirs.step(action)
        ours.step(action)
        for agent in ours.possible_agents:
            np.testing.assert_array_equal(
                ours.observe(agent)["observation"], theirs.observe(agent)["observation"]
            )
    obs = ours.observe("player_0")["observation"]
    assert obs[0, 3, 7 + 6]  # black's d-pawn that just advanced two squares sits on d8
