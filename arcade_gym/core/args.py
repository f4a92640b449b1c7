"""Checks of constructor arguments: each error names the argument, what it must be and what came.

Every env checks its keyword arguments with these before building anything, so a wrong value
(`size=3.0`, `tick_cap="x"`, `piece_cap=2**70`) stops with one message about that argument
instead of an error from deep inside Gymnasium or numpy.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, TypeVar

import numpy as np

INT64_MAX = 2**63 - 1
"""The largest cap the engines' int64 state vectors hold."""

T = TypeVar("T")


def check_int(name: str, value: object, *, low: int = 0, high: int = INT64_MAX) -> int:
    """`value` as an int in [low, high]; bools, floats and strings are refused (TypeError)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an int in [{low}, {high}], got {value!r}")
    number = int(value)
    if not low <= number <= high:
        raise ValueError(f"{name} must be an int in [{low}, {high}], got {number}")
    return number


def check_choice(name: str, value: T, allowed: Collection[Any]) -> T:
    """`value` when it is one of `allowed` (compared by type too: `3.0` is not `3`)."""
    if not any(type(value) is type(a) and value == a for a in allowed):
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
    return value


def check_flag(name: str, value: object) -> bool:
    """A real bool (not 0/1, not a string)."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_render_mode(value: object, modes: Collection[str]) -> str | None:
    """None or one of the env's `metadata["render_modes"]`."""
    if value is None:
        return None
    return check_choice("render_mode", value, modes)  # type: ignore[return-value]


def check_optional_callable(name: str, value: object) -> Any:
    """None or something callable (a `reward_fn`)."""
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be callable or None, got {value!r}")
    return value


def check_reward(name: str, value: object) -> float:
    """A finite number (an `illegal_reward`)."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)
