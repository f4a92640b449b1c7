"""Whether a re-derived answer is the recorded one, up to the last bits of a float.

A built-in policy's answer can hold floats computed by numpy's vectorised maths (probabilities
of the moves offered go through `exp`), whose last bit differs between CPUs (numpy picks an
AVX-512 or an AVX2 kernel at run time). A log written on one machine must still verify on another,
so `verify` compares numbers with a relative tolerance of `REL_TOL` and everything else exactly.
"""

from __future__ import annotations

import math
from typing import Any

REL_TOL = 1e-9
"""Far above a few units in the last place (about 1e-16) and far below any difference a policy
could use to pass another policy's answer as its own."""


def same_answer(derived: Any, recorded: Any) -> bool:
    """True when `derived` equals `recorded` (both plain JSON data), numbers within `REL_TOL`;
    bools and integers are compared exactly, and so are a list's length and a dict's keys."""
    if isinstance(derived, bool) or isinstance(recorded, bool):
        return derived is recorded
    if isinstance(derived, float) or isinstance(recorded, float):
        if not isinstance(derived, int | float) or not isinstance(recorded, int | float):
            return False
        if math.isnan(derived) or math.isnan(recorded):
            return math.isnan(derived) and math.isnan(recorded)
        return math.isclose(derived, recorded, rel_tol=REL_TOL, abs_tol=0.0)
    if isinstance(derived, dict) and isinstance(recorded, dict):
        return derived.keys() == recorded.keys() and all(
            same_answer(derived[key], recorded[key]) for key in derived
        )
    if isinstance(derived, list) and isinstance(recorded, list):
        return len(derived) == len(recorded) and all(
            same_answer(a, b) for a, b in zip(derived, recorded, strict=True)
        )
    return type(derived) is type(recorded) and derived == recorded
