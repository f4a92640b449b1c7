"""Repeated sampling (`--repeats K`): every game of a grid played K times, so a table can say how
far a sampling model's score moves from one sample to the next, not only from seed to seed.

A run with K > 1 gives its grid a repeat axis (`evaluation/core/grid.py:play_grid` expands the
benchmark's game keys): each key gains a last part `r1` .. `rK`, so the files of a game become
`logs/<...>/<last>/r2.jsonl` and `results/<...>/<last>/r2.json`; the run's settings record
`repeats` (a resume with another K is refused in one line naming both, `rundir.RunDir`); each
log header says which repeat it holds (`"repeat": {"index": 2, "of": 3}`, written by
`eventlog.header_event` while `play_grid` plays that repeat); and a policy that samples is told
its repeat (`set_repeat(index)`: an LLM lane then sends a per-repeat `seed` with each request,
`policies/llm/chat_policy.py`). K = 1 is the run as it always was: no axis, no header field, no
request seed, the same files and bytes.

Reports put the mean over repeats in their tables, with an interval from
`evaluation/core/stats.py:repeated_bootstrap` (seeds and repeats both resampled).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from evaluation.core.errors import RunError

MAX_REPEATS = 100
"""The most repeats a run takes (a per-repeat request seed stays below 1000, `request_seed`)."""
PREFIX = "r"
"""A repeat's key part: `r1` .. `rK`."""

K = TypeVar("K", bound=tuple[str, ...])


@dataclass(frozen=True)
class Repeat:
    """Which repeat a game is: `index` (1-based) of `of`."""

    index: int
    of: int

    def to_json(self) -> dict[str, int]:
        """The log header's `repeat` field."""
        return {"index": self.index, "of": self.of}


def check_repeats(value: object, *, flag: str = "--repeats") -> int:
    """`value` as a repeat count (1 .. MAX_REPEATS); RunError naming the flag otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_REPEATS:
        raise RunError(f"{flag} must be a whole number from 1 to {MAX_REPEATS}, got {value!r}")
    return value


def part(index: int) -> str:
    """The key part of repeat `index`."""
    return f"{PREFIX}{index}"


def expand(keys: Sequence[K], repeats: int) -> list[tuple[str, ...]]:
    """The grid's keys with the repeat axis: unchanged for one repeat, else every key followed
    by `r1` .. `rK` (a key's repeats side by side, so a game's samples finish together)."""
    if repeats == 1:
        return [tuple(key) for key in keys]
    return [(*key, part(i)) for key in keys for i in range(1, repeats + 1)]


def split(key: tuple[str, ...], repeats: int) -> tuple[tuple[str, ...], Repeat | None]:
    """(the benchmark's own key, which repeat) of a grid key (None: a run of one repeat)."""
    if repeats == 1:
        return key, None
    last = key[-1]
    if not last.startswith(PREFIX) or not last[len(PREFIX) :].isdigit():
        raise ValueError(f"{key} has no repeat part")
    return key[:-1], Repeat(int(last[len(PREFIX) :]), repeats)


def samples(
    finished: Mapping[tuple[str, ...], Mapping[str, Any]], key: tuple[str, ...], repeats: int
) -> list[Mapping[str, Any]]:
    """The saved results of every repeat of game `key` (the benchmark's key), in repeat order;
    a repeat not finished is left out."""
    return [finished[k] for k in expand([key], repeats) if k in finished]


_CURRENT: ContextVar[Repeat | None] = ContextVar("arcade_repeat", default=None)


def current() -> Repeat | None:
    """The repeat being played in this thread (None: none, or a run of one repeat)."""
    return _CURRENT.get()


@contextlib.contextmanager
def playing(repeat: Repeat | None) -> Iterator[None]:
    """Mark `repeat` as the one this thread plays (log headers read it) for the block."""
    token = _CURRENT.set(repeat)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def tell_policy(policy: Any, repeat: Repeat | None) -> None:
    """Tell a policy that samples (it has `set_repeat(index | None)`) which repeat it plays."""
    set_repeat = getattr(policy, "set_repeat", None)
    if callable(set_repeat):
        set_repeat(None if repeat is None else repeat.index)
