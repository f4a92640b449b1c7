"""The warmup registry: every game registers one; one call warms them all once per process."""

from __future__ import annotations

import pytest

import arcade_gym  # noqa: F401  (registers the envs and warmups)
from arcade_gym.core import warmup as W


def test_every_game_registers_a_warmup() -> None:
    assert {"tetris", "snake", "minesweeper", "tictactoe"} <= set(W.registered_warmups())


def test_warm_all_runs_each_warmup_once_per_process() -> None:
    first = W.warm_all()
    assert set(first) == set(W.registered_warmups())
    assert all(seconds >= 0.0 for seconds in first.values())
    assert set(W.warm_all().values()) == {0.0}


def test_a_game_cannot_register_two_warmups_and_entry_points_are_checked() -> None:
    with pytest.raises(ValueError, match="already registers"):
        W.register_warmup("tetris", "somewhere.else:warm")
    with pytest.raises(ValueError, match="module:function"):
        W.register_warmup("new-game", "no_colon")
    with pytest.raises(KeyError, match="no warmup registered"):
        W.warm("not-a-game")
