"""The one interface every game class implements: `Game[Q]`, in the env's action indices.

Each game keeps its own vocabulary (Tetris `play(x, rotation)`, Snake `step(direction)`,
tic-tac-toe `play(cell)`, chess `play(move)`...); these five members are the shared one, so a
search, a test or a tool can drive any game the way its env does:

- `legal_action_indices()`: the indices of the env's `Discrete` action space that are legal now,
  ascending; exactly where the env's `info["action_mask"]` is 1 while the game is on, and empty
  once it is `over`. (Snake: the reversal into the neck is masked out, like the env's mask, but
  the rules still play it, keeping the heading: `apply_action` accepts it, as `step` does.)
- `apply_action(action)`: play one such index as the env's `step` plays it (without an env's
  opponent reply, clock or `reward_fn`); returns the reward the env pays for that action alone: the
  score delta (Tetris, Snake, Minesweeper: safe cells revealed; Sudoku: +1 right digit, -1 wrong),
  or for two-player games +1 when the move wins for the side that made it, else 0. An index that
  is not legal raises ValueError (RuntimeError for some games once the game is over), never
  changing the state.
- `question()`: the benchmark question of the current state (the game's contract model `Q`).
- `state_hash()`: lowercase hex digits (a `str`; the width is the game's) over the whole state:
  two games with the same hash play on identically under the same actions.
- `over`: whether the game has ended (any reason: a loss, a win, a cap).

An env returns the game it plays, in its own action indices, from
`ArcadeEnv.as_game()` (`arcade_gym/core/env.py`).
"""

from __future__ import annotations

import hashlib
from typing import Protocol, TypeVar, runtime_checkable

Q_co = TypeVar("Q_co", covariant=True)


@runtime_checkable
class Game(Protocol[Q_co]):
    """A game state driven by env action indices (this module's docstring gives the contract)."""

    def legal_action_indices(self) -> list[int]:
        """The legal env action indices now, ascending; empty once the game is over."""
        ...

    def apply_action(self, action: int) -> int | float:
        """Play one legal env action index; the reward the env pays for it alone."""
        ...

    def question(self) -> Q_co:
        """The benchmark question of the current state."""
        ...

    def state_hash(self) -> str:
        """Lowercase hex digits over the whole state."""
        ...

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        ...


def state_digest(*parts: bytes) -> str:
    """16 lowercase hex digits (BLAKE2b, 8 bytes) over `parts`, each prefixed by its length so
    no two different part lists collide by concatenation: the `state_hash()` of games whose
    state is a few arrays or strings rather than a kernel's state vector."""
    digest = hashlib.blake2b(digest_size=8)
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


__all__ = ["Game", "state_digest"]
