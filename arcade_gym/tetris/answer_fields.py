"""Reading the untrusted values inside a Tetris answer (`contract.py`) without ever raising.

Scalars are read as JSON would mean them (3.0 is an integer, a bool is never a number), reasons
quote junk briefly and safely, and the optional fields (`noul`, `score`, `costUsd`, `meta`) are
kept when well formed, otherwise dropped with a note: nothing here invalidates an answer.
"""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

HOLD_THRESHOLD = 0.5
"""A numeric `noul.hold` requests a hold when strictly above this."""

_KNOWN_KEYS = frozenset({"stateHash", "choice", "noul", "score", "costUsd", "meta"})
_SNAKE_NAMES = {"state_hash": "stateHash", "cost_usd": "costUsd"}
_MAX_LISTED_KEYS = 5

_repr = reprlib.Repr()
_repr.maxstring = 40
_repr.maxother = 40
_repr.maxlong = 40


def brief(value: object) -> str:
    """A short, safe repr for reasons and notes (junk may be huge, deep or unprintable)."""
    try:
        return _repr.repr(value)
    except Exception:  # e.g. ints too long to print, or a hostile __repr__
        return f"<{type(value).__name__}>"


def is_bool(value: object) -> bool:
    """Bools are ints to Python but never numbers on this wire (numpy's too)."""
    return isinstance(value, bool | np.bool_)


def as_int(value: object) -> int | None:
    """An integer, or None. JSON cannot tell 3 from 3.0, so integral floats count; bools do not."""
    if is_bool(value):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        try:
            as_float = float(value)
        except (OverflowError, ValueError, TypeError):
            return None
        if math.isfinite(as_float) and as_float.is_integer():
            return int(as_float)
    return None


def as_finite_float(value: object) -> float | None:
    """A finite float, or None (bools, non-numbers, NaN, infinities and overflowing ints)."""
    if is_bool(value) or not isinstance(value, numbers.Real):
        return None
    try:
        as_float = float(value)
    except (OverflowError, ValueError, TypeError):
        return None
    return as_float if math.isfinite(as_float) else None


@dataclass
class Extras:
    """The optional fields that survived rule 5, and the notes about those that did not."""

    hold_requested: bool = False
    risk: float | None = None
    cost_usd: float | None = None
    meta: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)


def _read_noul(value: object, extras: Extras) -> None:
    """`noul` = {"hold": bool or finite number}; a number requests a hold above 0.5."""
    hold = value.get("hold") if isinstance(value, Mapping) else None
    if is_bool(hold):
        extras.hold_requested = bool(hold)
        return
    number = as_finite_float(hold)
    if number is None:
        extras.notes.append(
            f"noul dropped: expected {{'hold': bool or number}}, got {brief(value)}"
        )
        return
    extras.hold_requested = number > HOLD_THRESHOLD


def _read_score(value: object, extras: Extras) -> None:
    """`score` = {"risk": finite number in [0, 1]}."""
    risk = as_finite_float(value.get("risk")) if isinstance(value, Mapping) else None
    if risk is None or not 0.0 <= risk <= 1.0:
        extras.notes.append(
            f"score dropped: expected {{'risk': number in [0, 1]}}, got {brief(value)}"
        )
        return
    extras.risk = risk


def _read_cost(value: object, extras: Extras) -> None:
    """`costUsd` = finite number >= 0."""
    cost = as_finite_float(value)
    if cost is None or cost < 0:
        extras.notes.append(f"costUsd dropped: expected a number >= 0, got {brief(value)}")
        return
    extras.cost_usd = cost


def _read_meta(value: object, extras: Extras) -> None:
    """`meta` = any JSON object (string keys); kept as given for the log."""
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        extras.notes.append(f"meta dropped: expected an object, got {type(value).__name__}")
        return
    extras.meta = dict(value)


_OPTIONAL_READERS = {
    "noul": _read_noul,
    "score": _read_score,
    "costUsd": _read_cost,
    "meta": _read_meta,
}


def read_extras(obj: Mapping[Any, Any]) -> Extras:
    """Rule 5: optional fields are kept when well formed, otherwise dropped with a note; unknown
    keys are ignored with a note. Nothing here invalidates an answer."""
    extras = Extras()
    for key, reader in _OPTIONAL_READERS.items():
        if key in obj and obj[key] is not None:  # null reads as absent, as in JavaScript
            reader(obj[key], extras)
    unknown = [key for key in obj if key not in _KNOWN_KEYS]
    if unknown:
        listed = ", ".join(brief(key) for key in unknown[:_MAX_LISTED_KEYS])
        more = len(unknown) - _MAX_LISTED_KEYS
        suffix = f" (+{more} more)" if more > 0 else ""
        snake = [_SNAKE_NAMES[key] for key in unknown[:_MAX_LISTED_KEYS] if key in _SNAKE_NAMES]
        hint = f"; the wire names are camelCase ({', '.join(snake)})" if snake else ""
        extras.notes.append(f"ignored unknown keys: {listed}{suffix}{hint}")
    return extras
