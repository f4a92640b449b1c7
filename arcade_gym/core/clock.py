"""Clocks for realtime play: how long a policy took to answer a question.

Real runs use the wall clock; tests and RL use a simulated clock whose latency is fixed or
scripted, so a realtime game is reproducible.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Measures the time between a question leaving and its answer arriving."""

    def start(self) -> None:
        """A question was just asked."""

    def elapsed_ms(self) -> float:
        """Milliseconds since the last `start` (the answer just arrived)."""


class WallClock:
    """Real time, from `time.perf_counter`."""

    def __init__(self) -> None:
        self._t0 = time.perf_counter()

    def start(self) -> None:
        self._t0 = time.perf_counter()

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self._t0) * 1000.0


class SimulatedClock:
    """A policy that always takes the same time, or a scripted sequence of times.

    `latency_ms` is a number (every answer takes that long), an iterable of numbers (one per
    question; the last one repeats when it runs out) or a callable `f(question_index) -> ms`.
    """

    def __init__(self, latency_ms: float | Iterable[float] | Callable[[int], float] = 0.0) -> None:
        self._fixed: float | None = None
        self._script: Iterator[float] | None = None
        self._fn: Callable[[int], float] | None = None
        if isinstance(latency_ms, int | float):
            self._check(float(latency_ms))
            self._fixed = float(latency_ms)
        elif callable(latency_ms):
            self._fn = latency_ms
        else:
            values = [float(v) for v in latency_ms]
            if not values:
                raise ValueError(
                    "SimulatedClock: the latency script is empty; give at least one value"
                )
            for value in values:
                self._check(value)
            self._script = itertools.chain(values, itertools.repeat(values[-1]))
        self._asked = 0
        self._current = 0.0

    @staticmethod
    def _check(value: float) -> None:
        if not value >= 0.0:
            raise ValueError(f"SimulatedClock: latency must be a number >= 0 ms, got {value!r}")

    def start(self) -> None:
        if self._fixed is not None:
            self._current = self._fixed
        elif self._script is not None:
            self._current = next(self._script)
        else:
            assert self._fn is not None
            value = float(self._fn(self._asked))
            self._check(value)
            self._current = value
        self._asked += 1

    def elapsed_ms(self) -> float:
        return self._current


def check_clock(clock: object) -> Clock:
    """The env's clock: `clock` when it is one, a fresh wall clock for None."""
    if clock is None:
        return WallClock()
    if not isinstance(clock, Clock):
        raise TypeError(
            f"clock must provide start() and elapsed_ms(), e.g. SimulatedClock(50), got {clock!r}"
        )
    return clock
