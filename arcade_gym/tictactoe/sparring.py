"""The sparring partners' move rules, as pure functions of (board, side to move, seed).

They live here, not in `policies/`, so the single-agent env can play against them (`arcade_gym`
never imports `policies`); `policies.tictactoe` wraps each one as a Policy. Every choice is
deterministic: a tie is broken by a hash of (seed, board), so the same position and seed always
give the same move and a game replays exactly.

- **random**: a uniform empty square.
- **greedy**: complete a line if it can, else block the opponent's threat, else random.
- **tactician**: the first rule that applies: win; block; fork (create an unanswerable double
  threat); block forks (a move after which the opponent has no forced win in 3); otherwise the
  square with the best positional score (`oracle.heuristic_scores`). Within a rule, the best
  positional score wins, then the seeded tie-break.
- **perfect** (3x3 only): a move keeping the minimax value, the fastest win or slowest loss
  among them.

`opening_move` (a seeded square of the central block) gives the arena's "varied opening" matches
their first sparring move.

Boards are (n, n) or flat int8 arrays (0 empty, 1 X, 2 O); moves are cells `row * n + col`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.oracle import Position, minimax_move_scores
from arcade_gym.tictactoe.rules import other

SparringMove = Callable[[np.ndarray, int, int], int]
"""`move(board, side, seed) -> cell`."""


def _flat(board: np.ndarray) -> np.ndarray:
    flat = np.ascontiguousarray(board, dtype=np.int8).reshape(-1)
    if not (flat == 0).any():
        raise ValueError("the board is full: there is no move to choose")
    return flat


def _hash(flat: np.ndarray, seed: int) -> np.uint64:
    # numba hands a uint64 back as a Python int; re-wrap it so the next kernel types it uint64.
    return np.uint64(E.board_hash(flat, np.uint64(seed % 2**64)))


def pick(cells: Sequence[int], flat: np.ndarray, seed: int) -> int:
    """One of `cells` (in the order given) chosen by the hash of (seed, board)."""
    array = np.asarray(cells, dtype=np.int64)
    return int(E.seeded_pick(array, array.shape[0], _hash(flat, seed)))


def best_scoring(cells: Sequence[int], scores: np.ndarray, flat: np.ndarray, seed: int) -> int:
    """The highest-scoring of `cells`; ties broken by the seeded hash."""
    top = max(int(scores[c]) for c in cells)
    return pick([c for c in cells if int(scores[c]) == top], flat, seed)


def random_move(board: np.ndarray, side: int, seed: int = 0) -> int:
    """A uniform empty square (the same one `pick` would draw from all empty squares)."""
    flat = np.ascontiguousarray(board, dtype=np.int8).reshape(-1)
    cell = int(E.seeded_empty(flat, np.uint64(seed % 2**64)))
    if cell < 0:
        raise ValueError("the board is full: there is no move to choose")
    return cell


def greedy_move(board: np.ndarray, side: int, seed: int = 0) -> int:
    """Win if possible, else block (one of the opponent's threats), else a random square."""
    flat = _flat(board)
    pos = Position(flat, side)
    wins = pos.win_in_1()
    if wins:
        return pick(wins, flat, seed)
    blocks = pos.opponent_wins()
    if blocks:
        return pick(blocks, flat, seed)
    return random_move(flat, side, seed)


def tactician_move(board: np.ndarray, side: int, seed: int = 0) -> int:
    """Win, block, fork, block forks, then the best positional square (see the module doc)."""
    flat = _flat(board)
    pos = Position(flat, side)
    scores = pos.heuristic_scores()
    for rule in (pos.win_in_1, pos.opponent_wins, pos.fork_squares):
        cells = rule()
        if cells:
            return best_scoring(cells, scores, flat, seed)
    if pos.fork_squares(other(side)):
        defences = pos.fork_defense_squares()
        if defences:
            return best_scoring(defences, scores, flat, seed)
    return best_scoring(pos.empties(), scores, flat, seed)


def perfect_move(board: np.ndarray, side: int, seed: int = 0) -> int:
    """3x3 minimax: the move with the best negamax score (fastest win, slowest loss)."""
    flat = _flat(board)
    if flat.shape[0] != 9:
        raise ValueError("the perfect player is exact on 3x3 only")
    scores = minimax_move_scores(flat, side)
    top = max(scores.values())
    return pick([c for c, s in scores.items() if s == top], flat, seed)


def opening_move(board: np.ndarray, side: int, seed: int = 0) -> int:
    """A seeded random empty square of the central block (3x3 around the centre of an odd
    board, 4x4 on an even one): the arena's varied first move for a sparring partner."""
    flat = _flat(board)
    n = round(flat.shape[0] ** 0.5)
    width = 3 if n % 2 else 4
    lo = (n - width) // 2
    hi = lo + width
    block = [r * n + c for r in range(lo, hi) for c in range(lo, hi) if flat[r * n + c] == 0]
    return pick(block, flat, seed) if block else random_move(flat, side, seed)


SPARRING: dict[str, SparringMove] = {
    "random": random_move,
    "greedy": greedy_move,
    "tactician": tactician_move,
    "perfect": perfect_move,
}
"""Sparring partner name -> move rule."""


def sparring_move(name: str, board: np.ndarray, side: int, seed: int = 0) -> int:
    """The move of sparring partner `name` (random, greedy, tactician, perfect)."""
    try:
        move = SPARRING[name]
    except KeyError:
        raise ValueError(
            f"unknown sparring partner {name!r}; choose one of {list(SPARRING)}"
        ) from None
    return move(board, side, seed)
