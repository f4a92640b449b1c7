"""Limits on the numbers a log header (or a run's options) may set before they size any work.

A header is untrusted: `verify` and the site build replay every log they are given, and a field
such as a piece cap decides how much the rebuilt game allocates. Each benchmark's replayer checks
the fields that size work (caps, budgets, counts) against its own limits with these functions
before building the game, so a replay runs in memory proportional to the log; a NaN, infinite,
negative or out-of-range value is refused naming the field. The run commands use the same limits,
so everything a run can record verifies.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

MAX_TIME_MS = 86_400_000.0
"""The longest time limit (a per-decision budget or timeout) any benchmark accepts: one day."""


class HeaderLimitError(ValueError):
    """A header field (or run option) outside its benchmark's limits (one line naming it)."""


def limited_int(value: object, name: str, low: int, high: int) -> int:
    """`value` as a whole number from `low` to `high`; `HeaderLimitError` naming `name` for
    anything else (a float such as `3e9` included: our writers record whole numbers as such)."""
    if type(value) is not int or not low <= value <= high:
        raise HeaderLimitError(
            f"{name} {value!r} is outside this benchmark's limits (a whole number from "
            f"{low:,} to {high:,})"
        )
    return value


def limited_float(value: object, name: str, high: float) -> float:
    """`value` as a finite number > 0 and <= `high`; `HeaderLimitError` naming `name` for NaN,
    infinities, zero, negatives, larger values and non-numbers."""
    number: float | None = None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an integer beyond any float
            number = None
    if number is None or not (math.isfinite(number) and 0 < number <= high):
        raise HeaderLimitError(
            f"{name} {value!r} is outside this benchmark's limits (a finite number > 0 and at "
            f"most {high:,.0f})"
        )
    return number


def setting(settings: Mapping[str, Any], key: str, *, prefix: str = "settings") -> Any:
    """`settings[key]`, or `HeaderLimitError` naming the missing field."""
    if not isinstance(settings, Mapping) or key not in settings:
        raise HeaderLimitError(f"the header has no {prefix}.{key}")
    return settings[key]
