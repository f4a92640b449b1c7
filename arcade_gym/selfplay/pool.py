"""Who plays the other side in self-play: an opponent pool, drawn once per episode.

A pool is built from any of: a built-in's name (`"random"`, resolved by the game), a callable
`(obs, mask) -> action` (the vector form calls it on a batch: `(N, *obs)`, `(N, A)` -> `(N,)`),
a `Snapshot` of the learner the trainer refreshes, or a mix of those with weights, as a mapping
`{opponent: weight}` or a sequence of `(opponent, weight)` pairs. It knows no game: the envs
resolve the names (`arcade_gym/selfplay/env.py`, `arcade_gym/tictactoe/selfplay_vector.py`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from arcade_gym.core.seeding import splitmix64_py

OpponentFn = Callable[[Any, np.ndarray], Any]
"""`(observation, mask) -> action`, both from the opponent's side (batched in the vector form)."""


class Snapshot:
    """A frozen copy of the learner, refreshed by the trainer: `snapshot.update(fn)` swaps in
    the callable `(obs, mask) -> action` every later opponent move uses (episodes under way
    included). `version` counts the updates, so a log can say which copy played."""

    def __init__(self, fn: OpponentFn | None = None, name: str = "snapshot") -> None:
        self.fn = fn
        self.name = name
        self.version = 0 if fn is None else 1

    def update(self, fn: OpponentFn) -> None:
        """Play `fn` from now on (e.g. a copy of the learner's current weights)."""
        if not callable(fn):
            raise TypeError(f"Snapshot.update needs a callable (obs, mask) -> action, got {fn!r}")
        self.fn = fn
        self.version += 1

    def __call__(self, obs: Any, mask: np.ndarray) -> Any:
        if self.fn is None:
            raise RuntimeError(
                f"snapshot {self.name!r} has no policy yet: call snapshot.update(fn) before "
                "the first episode it plays"
            )
        return self.fn(obs, mask)

    def __repr__(self) -> str:
        return f"Snapshot({self.name!r}, version={self.version})"


OpponentSpec = Union[  # a runtime alias: `|` does not take the forward reference
    str,
    OpponentFn,
    Mapping[Any, float],
    Sequence[tuple[Any, float]],
    "OpponentPool",
]
"""What `opponent=` takes (this module's docstring)."""


@dataclass(frozen=True)
class Member:
    """One opponent of a pool: a built-in's name or a callable, its probability and its name
    in `info["opponent"]`."""

    opponent: str | OpponentFn
    probability: float
    name: str

    @property
    def builtin(self) -> str | None:
        """The built-in's name, or None for a callable."""
        return self.opponent if isinstance(self.opponent, str) else None


class OpponentPool:
    """Opponents with probabilities; `for_seed(seed)` picks the one that plays an episode."""

    def __init__(self, opponents: OpponentSpec) -> None:
        if isinstance(opponents, OpponentPool):
            self.members: tuple[Member, ...] = opponents.members
        else:
            self.members = _members(_weighted(opponents))
        self.cumulative = np.cumsum([m.probability for m in self.members])
        self.cumulative[-1] = 1.0  # a draw in [0, 1) never falls past the last member

    def for_seed(self, seed: int) -> int:
        """The member playing the episode with 64-bit seed `seed`: `index(seed_uniform(seed))`,
        so an episode's seed alone fixes its opponent (the vector form draws the same)."""
        return 0 if len(self.members) == 1 else self.index(seed_uniform(seed))

    def index(self, u: float) -> int:
        """The member a uniform draw `u` in [0, 1) lands on."""
        return int(np.searchsorted(self.cumulative, u, side="right"))

    @property
    def builtins(self) -> list[str]:
        """The built-ins' names the pool uses (each resolved by the env once)."""
        return list(dict.fromkeys(m.builtin for m in self.members if m.builtin is not None))

    def __repr__(self) -> str:
        parts = ", ".join(f"{m.name}: {m.probability:g}" for m in self.members)
        return f"OpponentPool({{{parts}}})"


def seed_uniform(seed: int) -> float:
    """A uniform draw in [0, 1) from a 64-bit seed: splitmix64's first output, top 53 bits."""
    return (splitmix64_py(seed % 2**64)[1] >> 11) * 2.0**-53


def _weighted(spec: object) -> list[tuple[Any, float]]:
    if isinstance(spec, str) or callable(spec):
        return [(spec, 1.0)]
    if isinstance(spec, Mapping):
        return list(spec.items())
    if isinstance(spec, Sequence) and spec and all(_is_pair(p) for p in spec):
        return [(p[0], p[1]) for p in spec]
    raise TypeError(
        "opponent must be a built-in's name, a callable (obs, mask) -> action, a Snapshot, or a "
        f"mix {{opponent: weight}} / [(opponent, weight), ...]; got {spec!r:.80}"
    )


def _is_pair(item: object) -> bool:
    return isinstance(item, tuple) and len(item) == 2


def _members(pairs: list[tuple[Any, float]]) -> tuple[Member, ...]:
    if not pairs:
        raise ValueError("an opponent pool needs at least one opponent")
    weights = []
    for opponent, weight in pairs:
        if not (isinstance(opponent, str) or callable(opponent)):
            raise TypeError(
                f"a pool's opponent must be a built-in's name or a callable, got {opponent!r:.60}"
            )
        if isinstance(weight, bool) or not isinstance(weight, int | float | np.number):
            raise TypeError(f"the weight of {opponent!r:.40} must be a number, got {weight!r}")
        if not math.isfinite(weight) or weight < 0:
            raise ValueError(
                f"the weight of {opponent!r:.40} must be finite and >= 0, got {weight}"
            )
        weights.append(float(weight))
    total = sum(weights)
    if total <= 0:
        raise ValueError("an opponent pool's weights must not all be 0")
    names: list[str] = []
    for opponent, _ in pairs:
        name = _name(opponent)
        names.append(name if name not in names else f"{name}#{len(names)}")
    return tuple(
        Member(opponent, w / total, name)
        for (opponent, _), w, name in zip(pairs, weights, names, strict=True)
    )


def _name(opponent: str | OpponentFn) -> str:
    if isinstance(opponent, str):
        return opponent
    if isinstance(opponent, Snapshot):
        return opponent.name
    return str(getattr(opponent, "__name__", type(opponent).__name__))
