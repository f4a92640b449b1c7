"""`arcade_gym/Sudoku-v0`: spaces, options, rewards, termination, errors, rendering."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.sudoku.grader import grade
from arcade_gym.sudoku.sets import set_grids
from tests.sudoku.famous import NEWSPAPER

ENV_ID = "arcade_gym/Sudoku-v0"
NEWSPAPER_SOLUTION = (
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
)


def make(**kw: Any) -> Any:
    return gym.make(ENV_ID, **kw)


@pytest.mark.parametrize("kw", [{}, {"set": "v1"}, {"set": "v1", "tier": 7}])
def test_check_env_is_clean(kw: dict[str, object]) -> None:
    check_env(make(**kw).unwrapped, skip_render_check=True)


def test_playing_the_solution_earns_one_per_blank_and_solves() -> None:
    env = make()
    obs, info = env.reset(options={"puzzle": NEWSPAPER})
    assert obs["board"].shape == (9, 9) and obs["candidates"].shape == (9, 9, 9)
    assert info["grid_id"] == "custom" and info["tier"] is None
    total, terminated = 0.0, False
    for cell, (p, s) in enumerate(zip(NEWSPAPER, NEWSPAPER_SOLUTION, strict=True)):
        if p == "0":
            assert not terminated
            action = cell * 9 + int(s) - 1
            assert info["action_mask"][action] == 1
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            assert not truncated
    assert terminated and info["solved"] and info["wrong"] == 0
    assert total == NEWSPAPER.count("0")
    assert "".join(map(str, obs["board"].reshape(-1))) == NEWSPAPER_SOLUTION
    assert not info["action_mask"].any()


def test_a_wrong_digit_costs_one_and_can_end_in_a_dead_end() -> None:
    env = make()
    _, info = env.reset(options={"puzzle": NEWSPAPER})
    mask = info["action_mask"]
    wrong = next(a for a in np.flatnonzero(mask) if NEWSPAPER_SOLUTION[a // 9] != str(a % 9 + 1))
    _, reward, _, _, info = env.step(int(wrong))
    assert reward == -1.0 and info["wrong"] == 1
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert not info["solved"] and not info["action_mask"].any()
    assert info["filled"] < 81 or info["wrong"] > 0


def test_mask_allows_exactly_the_placements_that_break_no_constraint() -> None:
    env = make()
    obs, info = env.reset(options={"puzzle": NEWSPAPER})
    board = obs["board"]
    for action in range(729):
        r, c, d = action // 81, action // 9 % 9, action % 9 + 1
        box = board[r - r % 3 : r - r % 3 + 3, c - c % 3 : c - c % 3 + 3]
        legal = board[r, c] == 0 and d not in board[r] and d not in board[:, c] and d not in box
        assert bool(info["action_mask"][action]) == legal
    assert (obs["candidates"].reshape(-1) == info["action_mask"]).all()
    assert (env.unwrapped.action_masks() == info["action_mask"].astype(bool)).all()


def test_bad_actions_are_refused() -> None:
    env = make()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    env.reset(options={"puzzle": NEWSPAPER})
    given_action = 2 * 9 + 3 - 1  # r1c3 holds the given 3
    with pytest.raises(ValueError, match="masked"):
        env.step(given_action)
    with pytest.raises(ValueError):
        env.step(729)
    with pytest.raises(TypeError):
        env.step(1.5)


def test_set_grids_by_tier_and_by_id() -> None:
    env = make(set="v1", tier=4)
    _, info = env.reset(seed=3)
    assert info["tier"] == 4 and info["grid_id"].startswith("v1-t4-")
    _, info = env.reset(options={"set": "v1", "grid": "v1-t6-2"})
    assert info["grid_id"] == "v1-t6-2" and info["tier"] == 6
    obs, _ = env.reset(options={"grid": "v1-t1-1"})
    record = set_grids("v1", 1)[0]
    assert "".join(map(str, obs["board"].reshape(-1))) == record["puzzle"]
    with pytest.raises(ValueError, match="no grid"):
        env.reset(options={"grid": "v1-t9-1"})


def test_named_seeds_pick_the_same_grid() -> None:
    a, b = make(), make()
    oa, _ = a.reset(options={"seed": "seed-01"})
    ob, _ = b.reset(options={"seed": "seed-01"})
    oc, _ = b.reset(options={"seed": "seed-02"})
    assert (oa["board"] == ob["board"]).all() and not (oa["board"] == oc["board"]).all()


def test_generated_grid_of_a_wanted_tier() -> None:
    env = make(tier=3)
    obs, info = env.reset(seed=5)
    assert info["tier"] == 3
    assert grade(obs["board"].reshape(-1)).tier == 3


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"puzzle": "12"}, "81 cells"),
        ({"puzzle": "0" * 81}, "more than one solution"),
        ({"puzzle": "12345678" + "0" * 9 + "9" + "0" * 63}, "no solution"),
        ({"tier": 8}, "tier must be"),
        ({"set": "v9"}, "set must be"),
        ({"difficulty": "hard"}, "unknown reset option"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        make().reset(options=options)


def test_bad_constructor_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="tier"):
        make(tier=0)
    with pytest.raises(ValueError, match="set"):
        make(set="v2")


def test_rendering() -> None:
    env = make(render_mode="ansi")
    env.reset(options={"puzzle": NEWSPAPER})
    text = env.render()
    assert isinstance(text, str) and ". . 3 | . 2 . | 6 . ." in text
    env = make(render_mode="rgb_array")
    env.reset(options={"puzzle": NEWSPAPER})
    env.step(0 * 9 + 4 - 1)
    image = env.render()
    assert isinstance(image, np.ndarray) and image.shape == (220, 220, 3)
    assert image.dtype == np.uint8
