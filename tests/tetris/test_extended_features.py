"""`placement_features="extended"` on `Tetris-v3`: two more columns (landingHeight, erodedCells)
that equal the heuristic brain's El-Tetris features, on the single env and the vector env; the
default stays the ten basic columns."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.env import TetrisEnv, placement_feature_high
from arcade_gym.tetris.rules import (
    EXTENDED_PLACEMENT_FEATURE_NAMES,
    N_ACTIONS,
    PLACEMENT_FEATURE_NAMES,
    SHAPES,
    I,
)
from arcade_gym.tetris.vector import TetrisVectorEnv
from policies.tetris.search_kernels import eltetris_features

SENSIBLE = np.array([0.76, 0, 0, 0, -0.51, -3.6, -0.18, 0, 0, 0, 0, 0])
"""Weights of a classic hand-tuned player on the extended columns (lines, height, holes, bumps)."""

FEW = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_default_is_basic_and_extended_adds_two_finite_columns() -> None:
    basic = TetrisEnv().observation_space["placements"]
    extended = TetrisEnv(placement_features="extended").observation_space["placements"]
    assert basic.shape == (N_ACTIONS, len(PLACEMENT_FEATURE_NAMES)) == (45, 10)
    assert extended.shape == (N_ACTIONS, len(EXTENDED_PLACEMENT_FEATURE_NAMES)) == (45, 12)
    assert EXTENDED_PLACEMENT_FEATURE_NAMES[10:] == ("landingHeight", "erodedCells")
    assert np.isfinite(extended.high).all() and (extended.low == 0).all()
    np.testing.assert_array_equal(extended.high[:, :10], basic.high)
    np.testing.assert_array_equal(placement_feature_high(500), basic.high[0])


@pytest.mark.filterwarnings("ignore:Your observation .* has an unconventional shape")
def test_checkers_pass_on_the_extended_env() -> None:
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    for observation in ("dict", "flat"):
        env = gym.make(
            "arcade_gym/Tetris-v3", placement_features="extended", observation=observation
        )
        check_env(env.unwrapped, skip_render_check=True)
        env_checker.check_env(env.unwrapped, warn=True)


@pytest.mark.parametrize("bad", ["full", "Extended", 12, None])
def test_a_bad_option_value_is_refused_naming_the_choices(bad: object) -> None:
    for make in (
        lambda: TetrisEnv(placement_features=bad),  # type: ignore[arg-type]
        lambda: TetrisVectorEnv(2, placement_features=bad),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValueError, match=r"placement_features.*'basic', 'extended'"):
            make()


def _eltetris_columns(env: TetrisEnv) -> tuple[np.ndarray, np.ndarray]:
    """(action of each candidate, the heuristic's landing height and eroded cells for it)."""
    game = env.game
    cinfo = game.candidate_rows()
    rows = np.empty(E.H, np.int64)
    E.row_masks(game.board, rows)
    feats = np.zeros((len(cinfo), 8), np.float64)
    eltetris_features(rows, int(game.st[E.S_ACTIVE]), cinfo, len(cinfo), feats)
    return cinfo[:, E.C_ACTION], feats[:, :2]


@FEW
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 120), mode=st.sampled_from(["iq", "blitz"]))
def test_the_two_columns_equal_the_heuristics_features(seed: int, steps: int, mode: str) -> None:
    from arcade_gym.core.clock import SimulatedClock

    extended = TetrisEnv(placement_features="extended", mode=mode, clock=SimulatedClock())
    basic = TetrisEnv(mode=mode, clock=SimulatedClock())
    obs, info = extended.reset(seed=seed)
    base_obs, _ = basic.reset(seed=seed)
    rng = np.random.default_rng(seed)
    eroded_seen = 0.0
    played = 0
    for _ in range(steps + 1):
        placements = obs["placements"]
        np.testing.assert_array_equal(placements[:, :10], base_obs["placements"])
        actions, expected = _eltetris_columns(extended)
        np.testing.assert_array_equal(placements[actions, 10:], expected.astype(np.float32))
        unlisted = np.setdiff1d(np.arange(N_ACTIONS), actions)
        assert not placements[unlisted].any()
        assert (placements <= extended.observation_space["placements"].high).all()
        eroded_seen += placements[:, 11].sum()
        # mostly a sensible placement, so rows fill and clear (eroded cells > 0)
        legal = np.flatnonzero(info["action_mask"])
        placing = legal[legal < 44]
        sensible = placing[np.argmax(placements[placing] @ SENSIBLE)]
        action = int(sensible if rng.random() < 0.9 else rng.choice(legal))
        obs, _, terminated, truncated, info = extended.step(action)
        base_obs, *_ = basic.step(action)
        played += 1
        if terminated or truncated:
            break
    assert eroded_seen > 0 or played < 60 or extended.game.lines == 0


def test_landing_height_and_eroded_cells_of_a_worked_example() -> None:
    """An I laid flat into a bottom row full but for four cells: it lands at height 1 and erodes
    its four cells (one line x four); stood upright in a one-wide gap of rows 16-19 it clears
    four lines with one cell each (4 x 4 = 16) at mean height (1 + 4) / 2."""
    rows = np.zeros(E.H, np.int64)
    rows[E.H - 1] = 0b0000001111  # columns 0-3 filled, 4-9 empty
    flat = SHAPES[I, 0]
    x = 4 - int(flat[:, 0].min())
    y = E.H - 1 - int(flat[:, 1].max())
    landing, lines, eroded = E.landing_features(rows, I, x, 0, y)
    assert (landing, lines, eroded) == (1.0, 0, 0)
    rows[E.H - 1] = 0b1111000011  # a four-wide gap at columns 2-5
    x = 2 - int(flat[:, 0].min())
    assert E.landing_features(rows, I, x, 0, y) == (1.0, 1, 4)
    rows[E.H - 4 :] = 0b1111111110  # column 0 open in the bottom four rows
    upright = SHAPES[I, 1]
    x = -int(upright[:, 0].min())
    y = E.H - 1 - int(upright[:, 1].max())
    assert E.landing_features(rows, I, x, 1, y) == (2.5, 4, 16)


def test_the_vector_env_has_the_extended_spaces() -> None:
    """Spaces and first observation; game-for-game equality with single envs is the extended
    case in `tests/core/test_vector.py`."""
    vec = gym.make_vec(
        "arcade_gym/Tetris-v3",
        num_envs=3,
        vectorization_mode="vector_entry_point",
        placement_features="extended",
    )
    assert (
        vec.single_observation_space == TetrisEnv(placement_features="extended").observation_space
    )
    obs, _ = vec.reset(seed=2)
    assert obs["placements"].shape == (3, 45, 12)
    expected, _ = TetrisEnv(placement_features="extended").reset(seed=4)
    np.testing.assert_array_equal(obs["placements"][2], expected["placements"])
