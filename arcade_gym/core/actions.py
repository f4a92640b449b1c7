"""The one action check of every env: what counts as an action index, and the errors for the rest.

An action is a Python int, a numpy integer or a 0-d integer array. Floats, strings, bools, None
and arrays of any other shape are a `TypeError` naming the action (silently truncating 1.7 to 1
hides bugs in a learner); an index outside `[0, n)` is a `ValueError` naming the range.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arcade_gym.core.action_answer import brief


def action_index(action: Any, n: int, layout: str = "") -> int:
    """`action` as an int in `[0, n)`, or a TypeError / ValueError that says what is wrong.

    `layout` (e.g. "0 up, 1 right, 2 down, 3 left") is appended to the errors to name the actions.
    """
    value = action
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(
            f"action must be an integer in [0, {n}){_paren(layout)}, got {brief(action)} "
            f"({type(action).__name__})"
        )
    number = int(value)
    if not 0 <= number < n:
        raise ValueError(f"action {number} is out of range [0, {n}){_paren(layout)}")
    return number


def _paren(layout: str) -> str:
    return f" ({layout})" if layout else ""
