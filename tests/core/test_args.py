"""Constructor arguments: each one checked, and named in its own error (issue 15, item 8)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.core.actions import action_index
from arcade_gym.core.args import check_choice, check_int
from arcade_gym.tetris.env import TetrisPrimitiveEnv


@pytest.mark.parametrize(
    ("env_id", "kwargs", "error", "name"),
    [
        ("TicTacToe-v0", {"size": 3.0}, ValueError, "size"),
        ("TicTacToe-v0", {"size": "3"}, ValueError, "size"),
        ("TicTacToe-v0", {"opponent_seed": 1.5}, TypeError, "opponent_seed"),
        ("Tetris-v3", {"tick_cap": "x"}, TypeError, "tick_cap"),
        ("Tetris-v3", {"piece_cap": 2**70}, ValueError, "piece_cap"),
        ("Tetris-v3", {"piece_cap": 0}, ValueError, "piece_cap"),
        ("Tetris-v3", {"include_question": "yes"}, TypeError, "include_question"),
        ("Tetris-v3", {"reward_fn": 3}, TypeError, "reward_fn"),
        ("Tetris-v3", {"mode": "fast"}, ValueError, "mode"),
        ("Tetris-v3", {"clock": 250}, TypeError, "clock"),
        ("TetrisPrimitive-v3", {"max_pieces": -3}, ValueError, "max_pieces"),
        ("TetrisPrimitive-v3", {"max_decisions": 2.5}, TypeError, "max_decisions"),
        ("TetrisPrimitive-v3", {"difficulty": "expert"}, ValueError, "difficulty"),
        ("Snake-v0", {"max_decisions": True}, TypeError, "max_decisions"),
        ("Snake-v0", {"max_steps_without_food": -1}, ValueError, "max_steps_without_food"),
        ("Minesweeper-v0", {"max_decisions": "10"}, TypeError, "max_decisions"),
        ("Minesweeper-v0", {"render_mode": "video"}, ValueError, "render_mode"),
    ],
)
def test_a_bad_constructor_argument_is_named_in_its_error(
    env_id: str, kwargs: dict[str, Any], error: type, name: str
) -> None:
    with pytest.raises(error, match=name):
        gym.make(f"arcade_gym/{env_id}", **kwargs)


def test_a_one_element_array_is_not_an_action() -> None:
    env = TetrisPrimitiveEnv()
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"action must be an integer in \[0, 6\)"):
        env.step(np.array([0]))  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=999), st.integers(min_value=1, max_value=1000))
def test_action_index_keeps_every_in_range_integer(value: int, n: int) -> None:
    if value < n:
        for form in (value, np.int64(value), np.uint16(value), np.array(value)):
            assert action_index(form, n) == value
    else:
        with pytest.raises(ValueError, match="out of range"):
            action_index(value, n)


@given(st.floats(allow_nan=True) | st.text() | st.booleans() | st.none())
def test_action_index_refuses_every_non_integer(value: object) -> None:
    with pytest.raises(TypeError, match="action must be an integer"):
        action_index(value, 10)


@given(st.integers())
def test_check_int_is_exact_about_its_range(value: int) -> None:
    if 1 <= value <= 100:
        assert check_int("cap", value, low=1, high=100) == value
    else:
        with pytest.raises(ValueError, match="cap"):
            check_int("cap", value, low=1, high=100)


def test_check_choice_compares_types_too() -> None:
    assert check_choice("size", 5, (3, 5, 10)) == 5
    assert check_choice("size", np.int64(5), (3, 5, 10, np.int64(5))) == 5
    with pytest.raises(ValueError, match=r"size must be one of \[3, 5, 10\], got 5.0"):
        check_choice("size", 5.0, (3, 5, 10))
