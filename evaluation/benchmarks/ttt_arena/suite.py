"""The tic-tac-toe arena's suite `v1`: 188 positions and 24 matches, generated from a seed.

Positions come from self-play that never completes a line (`docs/rules/tictactoe.md`), so every
position has legal turn order and no winner. Self-play, per board size, with
`numpy.random.default_rng([seed, size])`: the mover picks uniformly among the empty squares that do
not complete one of its lines, with probability 0.85 only among those next to a stone (when there
are any); a game stops when no such square is left. Games are read ply by ply; each position is
classified (below) and kept when its category still needs positions of that size, it is new to the
suite, and the game has not given that category a position yet (so positions spread over many
games).

Categories, in order of precedence (P to move, Q the opponent, definitions in
`arcade_gym.tictactoe.oracle`); every expected set must leave at least one legal move failing:

| category | position (in order of precedence) | pass |
|---|---|---|
| win_in_1 | P has a threat | complete a line |
| block | P has none, Q exactly one | take Q's threat square |
| fork | no threats; P has a fork square | a fork square (forced win in 3) |
| forced_win_5 | no threats, no P fork; P wins by force in 5 | a move forcing a win in 5 plies |
| fork_defense | none of the above; Q has a fork square | a move leaving Q no forced win in 3 |
| perfect_play | 3x3, none of the above; a move changes the value | a minimax-value-keeping move |
| legality | dense: at most size^2 / 4 empty squares | any empty square |

Counts (positions): win_in_1 8/8/8, block 8/8/8, fork 10/10/10, forced_win_5 10/10/10,
fork_defense 10/10/10, perfect_play 20 (3x3), legality 10/10/10 for sizes 3/5/10: 188 in all.
Matches (24), full games from the empty board: on 3x3 the engine plays each colour against Random,
Greedy, Tactician and Perfect (8); on 5x5 and 10x10 each colour against Random, Greedy, Tactician
and "Tactician, varied opening" (8 + 8): a Tactician whose own first move is a seeded random square
of the central block (`sparring.opening_move`), because the plain Tactician rarely meets a tie on
5x5 and would replay the same game. Opponent seeds are drawn from the suite seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.contract import TicTacToeQuestion
from arcade_gym.tictactoe.game import board_to_rows
from arcade_gym.tictactoe.oracle import Position, minimax_move_scores
from arcade_gym.tictactoe.rules import RULESET_ID, SIZES, X, geometry, line_length, other
from evaluation.benchmarks.ttt_arena.defaults import DEFAULT_SEED

SUITE_VERSION = "v1"


CATEGORIES = (
    "win_in_1",
    "block",
    "fork",
    "forced_win_5",
    "fork_defense",
    "perfect_play",
    "legality",
)
"""Position categories in order of precedence (legality aside)."""

CATEGORY_TITLES = {
    "win_in_1": "Win in 1",
    "block": "Block",
    "fork": "Fork",
    "forced_win_5": "Forced win in 5",
    "fork_defense": "Fork defense",
    "perfect_play": "Perfect play",
    "legality": "Legality",
    "match_play": "Match play",
}

COUNTS: dict[str, dict[int, int]] = {
    "win_in_1": {3: 8, 5: 8, 10: 8},
    "block": {3: 8, 5: 8, 10: 8},
    "fork": {3: 10, 5: 10, 10: 10},
    "forced_win_5": {3: 10, 5: 10, 10: 10},
    "fork_defense": {3: 10, 5: 10, 10: 10},
    "perfect_play": {3: 20},
    "legality": {3: 10, 5: 10, 10: 10},
}
"""Positions per category and board size (188 in all)."""

TOTAL_POSITIONS = 188
TOTAL_MATCHES = 24
NEAR_PROBABILITY = 0.85
MAX_GAMES = 5000
"""Self-play games per size before giving up (a seed that cannot fill the suite is a bug)."""

_OPPONENTS_3 = (("random", False), ("greedy", False), ("tactician", False), ("perfect", False))
_OPPONENTS_LARGE = (("random", False), ("greedy", False), ("tactician", False), ("tactician", True))


@dataclass(frozen=True)
class SuitePosition:
    """One question with its exact expected answers (`expected`: (row, col) pairs, sorted)."""

    id: str
    category: str
    size: int
    to_move: str
    rows: tuple[str, ...]
    expected: tuple[tuple[int, int], ...]

    @property
    def question(self) -> TicTacToeQuestion:
        """The position as the engine contract asks it."""
        return TicTacToeQuestion(
            size=self.size, k=line_length(self.size), to_move=self.to_move, rows=self.rows
        )

    def passes(self, move: tuple[int, int] | None) -> bool:
        """Whether `move` is one of the expected answers."""
        return move is not None and move in self.expected

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "id": self.id,
            "category": self.category,
            "size": self.size,
            "toMove": self.to_move,
            "rows": list(self.rows),
            "expected": [list(m) for m in self.expected],
        }


@dataclass(frozen=True)
class MatchSpec:
    """One full game of match play: board size, sparring partner, the engine's mark; with
    `opening`, the partner's first move is `sparring.opening_move` instead of its rule."""

    id: str
    size: int
    opponent: str
    engine_mark: str
    opponent_seed: int
    opening: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {
            "id": self.id,
            "size": self.size,
            "opponent": self.opponent,
            "engineMark": self.engine_mark,
            "opponentSeed": self.opponent_seed,
            "opening": self.opening,
        }


@dataclass(frozen=True)
class Suite:
    """A generated suite: its version and seed, the positions and the match schedule."""

    version: str
    seed: int
    positions: tuple[SuitePosition, ...]
    matches: tuple[MatchSpec, ...]
    games_played: dict[int, int] = field(default_factory=dict)

    def counts(self) -> dict[str, dict[int, int]]:
        """Positions per category and size, as generated."""
        out: dict[str, dict[int, int]] = {c: {} for c in CATEGORIES}
        for p in self.positions:
            out[p.category][p.size] = out[p.category].get(p.size, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (what a published suite file holds)."""
        return {
            "suite": self.version,
            "ruleset": RULESET_ID,
            "seed": self.seed,
            "positions": [p.to_dict() for p in self.positions],
            "matches": [m.to_dict() for m in self.matches],
        }


# --- classification ---------------------------------------------------------------------------


def classify(
    board: np.ndarray, side: int, wanted: frozenset[str] = frozenset(CATEGORIES)
) -> tuple[str, list[int]] | None:
    """The category of a position (P = `side` to move) and its expected cells, or None.

    Precedence as in the module doc; the search stops as soon as no category in `wanted` can
    still apply, so full pools cost nothing. Legality is not decided here.
    """
    pos = Position(board, side)
    n2 = pos.board.shape[0]
    empties = int((pos.board == 0).sum())

    def discriminating(cells: list[int]) -> bool:
        return 0 < len(cells) < empties

    order = CATEGORIES[:-1]

    def still(category: str) -> bool:
        return any(c in wanted for c in order[order.index(category) :])

    wins = pos.win_in_1()
    if wins:
        return ("win_in_1", wins) if "win_in_1" in wanted and discriminating(wins) else None
    threats = pos.opponent_wins()
    if threats:
        if len(threats) == 1 and "block" in wanted and discriminating(threats):
            return "block", threats
        return None
    if not still("fork"):
        return None
    forks = pos.fork_squares()
    if forks:
        return ("fork", forks) if "fork" in wanted and discriminating(forks) else None
    if not still("forced_win_5"):
        return None
    win5 = pos.forced_win5_squares()
    if win5:
        if "forced_win_5" in wanted and discriminating(win5):
            return "forced_win_5", win5
        return None
    if pos.fork_squares(other(side)):
        if "fork_defense" not in wanted:
            return None
        defence = pos.fork_defense_squares()
        return ("fork_defense", defence) if discriminating(defence) else None
    if n2 == 9 and "perfect_play" in wanted:
        scores = minimax_move_scores(pos.board, side)
        best = max(np.sign(s) for s in scores.values())
        keep = [c for c, s in scores.items() if np.sign(s) == best]
        if discriminating(keep):
            return "perfect_play", keep
    return None


# --- self-play --------------------------------------------------------------------------------


def selfplay_positions(size: int, rng: np.random.Generator) -> list[tuple[np.ndarray, int]]:
    """One self-play game that never completes a line: every position before each move."""
    geo = geometry(size)
    n2 = size * size
    board = np.zeros(n2, np.int8)
    cnt = E.window_counts(board, geo.windows)
    out = np.empty(n2, np.int64)
    seen = np.zeros(n2, np.int8)
    side = X
    positions: list[tuple[np.ndarray, int]] = []
    while True:
        m = E.winning_squares(board, cnt, geo.windows, side, n2, out, seen)
        allowed = board == 0
        allowed[out[:m]] = False
        if not allowed.any():
            return positions
        positions.append((board.copy(), side))
        grid = (board != 0).reshape(size, size)
        near = np.zeros((size + 2, size + 2), bool)
        for dr in range(3):
            for dc in range(3):
                near[dr : dr + size, dc : dc + size] |= grid
        near_allowed = allowed & near[1:-1, 1:-1].reshape(-1)
        pool = near_allowed if near_allowed.any() and rng.random() < NEAR_PROBABILITY else allowed
        cells = np.flatnonzero(pool)
        cell = int(cells[int(rng.integers(cells.size))])
        E.place(board, cnt, geo.cell_windows, cell, side)
        side = other(side)


def _dense(board: np.ndarray, size: int) -> bool:
    return int((board == 0).sum()) <= size * size // 4


def _positions_for_size(seed: int, size: int) -> tuple[list[SuitePosition], int]:
    need = {c: COUNTS[c].get(size, 0) for c in CATEGORIES}
    found: dict[str, list[tuple[np.ndarray, int, list[int]]]] = {c: [] for c in CATEGORIES}
    seen: set[bytes] = set()
    rng = np.random.default_rng([seed, size])
    games = 0
    while any(len(found[c]) < need[c] for c in CATEGORIES):
        if games >= MAX_GAMES:
            missing = {c: need[c] - len(found[c]) for c in CATEGORIES if len(found[c]) < need[c]}
            raise RuntimeError(f"self-play could not fill the {size}x{size} suite: {missing}")
        games += 1
        used: set[str] = set()
        for board, side in selfplay_positions(size, rng):
            key = board.tobytes() + bytes([side])
            if key in seen:
                continue
            if (
                "legality" not in used
                and len(found["legality"]) < need["legality"]
                and _dense(board, size)
            ):
                found["legality"].append(
                    (board, side, [int(c) for c in np.flatnonzero(board == 0)])
                )
                used.add("legality")
                seen.add(key)
                continue
            wanted = frozenset(
                c for c in CATEGORIES[:-1] if c not in used and len(found[c]) < need[c]
            )
            if not wanted:
                continue
            verdict = classify(board, side, wanted)
            if verdict is None:
                continue
            category, cells = verdict
            found[category].append((board, side, cells))
            used.add(category)
            seen.add(key)
    positions = []
    for category in CATEGORIES:
        for i, (board, side, cells) in enumerate(found[category]):
            positions.append(
                SuitePosition(
                    id=f"{category}-{size}-{i + 1:02d}",
                    category=category,
                    size=size,
                    to_move="X" if side == X else "O",
                    rows=board_to_rows(board.reshape(size, size)),
                    expected=tuple(sorted(divmod(c, size) for c in cells)),
                )
            )
    return positions, games


def match_schedule(seed: int = DEFAULT_SEED) -> tuple[MatchSpec, ...]:
    """The 24 matches: per size, each opponent with the engine as X then as O."""
    rng = np.random.default_rng([seed, 24])
    matches: list[MatchSpec] = []
    for size in SIZES:
        opponents = _OPPONENTS_3 if size == 3 else _OPPONENTS_LARGE
        for opponent, opening in opponents:
            for mark in ("X", "O"):
                index = len(matches) + 1
                matches.append(
                    MatchSpec(
                        id=f"match-{size}-{index:02d}",
                        size=size,
                        opponent=opponent,
                        engine_mark=mark,
                        opponent_seed=int(rng.integers(0, 2**62)),
                        opening=opening,
                    )
                )
    return tuple(matches)


@lru_cache(maxsize=4)
def build_suite(seed: int = DEFAULT_SEED) -> Suite:
    """The suite of a seed (cached per process): positions by size then category, matches."""
    positions: list[SuitePosition] = []
    games: dict[int, int] = {}
    for size in SIZES:
        found, games[size] = _positions_for_size(seed, size)
        positions.extend(found)
    return Suite(SUITE_VERSION, seed, tuple(positions), match_schedule(seed), games)
