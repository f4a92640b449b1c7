"""A small game-tree search over a trained `board` network: the AlphaZero recipe without MCTS.

A `ppo:PATH?depth=D` tic-tac-toe policy scores each legal move by a depth-D negamax: the tree
is expanded with the game's own rules (`arcade_gym.tictactoe.rules.geometry`: a move that
completes a line ends the game, a full board is a draw), and a position at depth D that has not
ended is worth what the network's value head says of it, from the mover's side, clamped to
+-`LEAF_CLAMP` so a proven result always outweighs a guess. Leaves are read one ply further for
wins only: a leaf whose mover can complete a line at once is a win for that mover (the terminal
test of the next ply, not an evaluation). Values shrink by `DISCOUNT` a ply, so a nearer win is
preferred and a loss put off. With `width`, a node below the root expands only its `width` most
likely moves by the network's own policy, beside every move that ends the game; the root
always expands every legal move. Ties go to the network's policy logit.

No tactic is written here: the only knowledge of the game is its rules (which moves are legal,
which end it). Everything else is the network, trained by self-play (`examples/ppo.py`). Nodes
of a level are evaluated in one batched forward pass; a `nodes` budget picks the depth per
position, and a 2-ply search of a large board is bounded first and searched in full only for its
most promising moves (`_lazy_depth_two`: 1.3 to 1.9 s a 10x10 move on one busy core). Measured
grades: `docs/rl.md` ("Self-play tic-tac-toe with a search at play time").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import torch

from arcade_gym.tictactoe.rules import geometry
from policies.ppo.network import ActorCritic

LEAF_CLAMP = 0.9
"""Largest magnitude of a network value at a leaf (a proven win is worth 1)."""
DISCOUNT = 0.99
"""A value's shrink per ply as it is backed up: win sooner, lose later."""
MAX_DEPTH = 9
"""Deepest search: every ply of a 3x3 game (a budget keeps larger boards shallow)."""
BATCH = 4096
"""Positions per forward pass (bounds the memory of a level's evaluation)."""


@dataclass(frozen=True)
class SearchSettings:
    """`depth` plies of negamax (0: the network's policy alone); `width`: below the root, the
    most likely moves a node expands (0: every move); `nodes`: a budget of leaves, the search
    then going only as deep (at least one ply, at most `depth`) as a tree of that many leaves
    allows on the position (`depth_for`): deeper on a small or crowded board."""

    depth: int = 0
    width: int = 0
    nodes: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.depth <= MAX_DEPTH:
            raise ValueError(f"search depth must be 0 to {MAX_DEPTH}, got {self.depth}")
        if self.width < 0:
            raise ValueError(f"search width must be 0 (every move) or more, got {self.width}")
        if self.nodes < 0:
            raise ValueError(f"search nodes must be 0 (no budget) or more, got {self.nodes}")

    def depth_for(self, empty: int) -> int:
        """The plies searched on a board with `empty` empty squares: `depth`, or under a
        `nodes` budget the deepest (>= 1) whose leaves, counted as if no game ended early,
        fit in it."""
        if not self.nodes:
            return self.depth
        depth, leaves = 1, empty
        while depth < self.depth:
            moves = empty - depth
            leaves *= min(moves, self.width) if self.width else moves
            if moves <= 0 or leaves > self.nodes:
                break
            depth += 1
        return depth

    def query(self) -> str:
        """The spec suffix that asks for these settings (`?depth=2&width=8`; none for depth 0)."""
        if not self.depth:
            return ""
        extra = "".join(f"&{k}={v}" for k, v in (("width", self.width), ("nodes", self.nodes)) if v)
        return f"?depth={self.depth}{extra}"


def evaluate(network: ActorCritic, stones: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(logits (B, n*n), values (B,)) of (B, n, n, 2) boards (plane 0 the mover's stones), in
    batches of `BATCH`."""
    logits, values = [], []
    with torch.no_grad():
        for start in range(0, len(stones), BATCH):
            part = torch.as_tensor(stones[start : start + BATCH], dtype=torch.float32)
            lo, va = network(part)
            logits.append(lo.numpy())
            values.append(va.numpy())
    if not logits:
        n2 = stones.shape[1] * stones.shape[2]
        return np.zeros((0, n2), np.float32), np.zeros(0, np.float32)
    return np.concatenate(logits), np.concatenate(values)


class _Rules:
    """The rules of one board size on flat boards (B, n*n) of 0/1 stone planes."""

    def __init__(self, n: int) -> None:
        geo = geometry(n)
        self.n, self.k = n, geo.k
        self.windows = geo.windows
        self.cell_windows = geo.cell_windows
        incidence = np.zeros((n * n, len(geo.windows)), np.float32)
        for w, cells in enumerate(geo.windows):
            incidence[cells, w] = 1.0
        self.incidence = incidence

    def completes_line(self, own: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """Whether each board's stones `own` (B, n*n) hold a full window through `cells` (B,)."""
        through = self.cell_windows[cells]  # (B, D), -1 padded
        full = own[np.arange(len(own))[:, None, None], self.windows[through]].all(-1)
        return (full & (through >= 0)).any(-1)

    def can_win_at_once(self, own: np.ndarray, empty: np.ndarray) -> np.ndarray:
        """Whether the side owning `own` (B, n*n) has a window missing only one empty square."""
        mine = own.astype(np.float32) @ self.incidence
        free = empty.astype(np.float32) @ self.incidence
        return ((mine == self.k - 1) & (free == 1)).any(-1)


@cache
def _rules(n: int) -> _Rules:
    """The rules of size `n`, made once (a lazy search asks for them several times a move)."""
    return _Rules(n)


LAZY_EMPTY = 30
"""A depth-2 search of a board with more empty squares than this is computed lazily
(`_lazy_depth_two`): the best moves' exact values from a fraction of the evaluations."""
LAZY_WIDTH = 12
"""Opponent replies (the likeliest, beside every reply that ends the game) in the bound pass."""
LAZY_MOVES = 24
"""Most moves searched in full after the bound pass (a bounded cost: a 10x10 move stays within
the arena's 20 s on a busy machine)."""
LAZY_CHUNK = 8


def search_scores(
    network: ActorCritic, stones: np.ndarray, settings: SearchSettings
) -> tuple[np.ndarray, np.ndarray]:
    """(each root move's negamax value, NaN where illegal or not searched; the network's root
    logits) for one (n, n, 2) board whose plane 0 holds the mover's stones. The game must not
    be over."""
    empty = int((stones.sum(-1) == 0).sum())
    depth = settings.depth_for(empty)
    if depth == 2 and not settings.width and empty > LAZY_EMPTY:
        return _lazy_depth_two(network, stones)
    return _negamax(network, stones, depth, settings.width)


def _lazy_depth_two(
    network: ActorCritic, stones: np.ndarray, most: int = LAZY_MOVES
) -> tuple[np.ndarray, np.ndarray]:
    """Depth-2 values of the moves that can be best, from fewer evaluations.

    A pass that answers each move with only the opponent's `LAZY_WIDTH` likeliest replies (and
    every reply that ends the game) gives each move an upper bound: the opponent's best reply
    can only be missing. Moves are then searched in full, best bound first, until no bound left
    is above the best exact value found, or `most` moves were searched. Only the moves searched
    in full get a value (the others NaN); with `most` at least the number of moves, the best
    of them is the full search's best."""
    bound, logits = _negamax(network, stones, 2, LAZY_WIDTH)
    moves = np.flatnonzero(~np.isnan(bound))
    order = moves[np.argsort(-bound[moves], kind="stable")][:most]
    scores, best = np.full_like(bound, np.nan), -np.inf
    for start in range(0, len(order), LAZY_CHUNK):
        chunk = order[start : start + LAZY_CHUNK]
        chunk = chunk[bound[chunk] >= best - TIE]
        if not len(chunk):
            break
        exact, _ = _negamax(network, stones, 2, 0, chunk)
        scores[chunk] = exact[chunk]
        best = max(best, float(exact[chunk].max()))
    return scores, logits


TIE = 1e-6
"""Values this close are equal: the network's policy logit decides between them."""


def _negamax(
    network: ActorCritic,
    stones: np.ndarray,
    depth: int,
    width: int,
    root_moves: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """`search_scores` at a fixed depth and width; only `root_moves` (cells) searched if given
    (the others NaN)."""
    n = stones.shape[0]
    rules = _rules(n)
    own = stones[..., 0].reshape(1, -1).astype(bool)
    opp = stones[..., 1].reshape(1, -1).astype(bool)
    root_logits, _ = evaluate(network, stones[None].astype(np.float32))
    # levels[i] = (parents, cells, terminal values from the child's mover's side or NaN)
    levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    logits = root_logits
    alive = np.ones(1, bool)
    for ply in range(depth):
        empty = ~(own | opp) & alive[:, None]  # an ended game has no move
        if ply == 0 and root_moves is not None:
            empty &= np.isin(np.arange(n * n), root_moves)[None]
        parent, cell = np.nonzero(empty)
        if width and ply > 0:
            parent, cell = _likeliest(parent, cell, logits, own, rules, width)
        child_opp = own[parent].copy()  # the mover's stones, the opponent's in the child's frame
        child_opp[np.arange(len(cell)), cell] = True
        child_own = opp[parent]
        won = rules.completes_line(child_opp, cell)
        full = (child_own | child_opp).all(-1)
        terminal = np.where(won, -1.0, np.where(full, 0.0, np.nan))
        levels.append((parent, cell, terminal))
        alive = np.isnan(terminal)
        own, opp = child_own, child_opp
        last = ply == depth - 1
        if last or (width and alive.any()):
            board = np.stack([own, opp], -1).reshape(len(own), n, n, 2).astype(np.float32)
            todo = np.flatnonzero(alive)
            lo, va = evaluate(network, board[todo])
            logits = np.zeros((len(own), n * n), np.float32)
            logits[todo] = lo
            if last:
                value = np.clip(va, -LEAF_CLAMP, LEAF_CLAMP)
                wins = rules.can_win_at_once(own[todo], ~(own[todo] | opp[todo]))
                leaf = np.where(wins, DISCOUNT, value)
                terminal = terminal.copy()
                terminal[todo] = leaf
                levels[-1] = (parent, cell, terminal)
    # back up: a node's value is the best of -DISCOUNT * child value over its children
    values = levels[-1][2]
    for depth in range(len(levels) - 1, -1, -1):
        parent, _, _ = levels[depth]
        count = 1 if depth == 0 else len(levels[depth - 1][0])
        best = np.full(count, -np.inf)
        np.maximum.at(best, parent, -DISCOUNT * values)
        if depth == 0:
            scores = np.full(n * n, np.nan)
            scores[levels[0][1]] = -DISCOUNT * values
            return scores, root_logits[0]
        above = levels[depth - 1][2].copy()
        open_ = np.isnan(above)
        above[open_] = best[open_]
        values = above
    raise ValueError("search depth must be at least 1")


def _likeliest(
    parent: np.ndarray,
    cell: np.ndarray,
    logits: np.ndarray,
    own: np.ndarray,
    rules: _Rules,
    width: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The (parent, cell) moves kept below the root: each parent's `width` highest-logit moves
    and every move that completes the mover's line (it ends the game: a terminal, not a guess)."""
    placed = own[parent].copy()
    placed[np.arange(len(cell)), cell] = True
    ends = rules.completes_line(placed, cell)
    score = logits[parent, cell]
    order = np.lexsort((-score, parent))  # by parent, best first
    rank = np.empty(len(order), np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(parent[order])) + 1]
    counts = np.diff(np.r_[starts, len(order)])
    rank[order] = np.arange(len(order)) - np.repeat(starts, counts)
    keep = (rank < width) | ends
    return parent[keep], cell[keep]


def best_move(
    network: ActorCritic, stones: np.ndarray, legal: np.ndarray, settings: SearchSettings
) -> tuple[int, np.ndarray]:
    """(the chosen square, the scores it was chosen by: masked where illegal). Depth 0 is the
    network's policy; otherwise the best negamax value, ties to the higher logit."""
    if settings.depth == 0 or not legal.any():
        logits, _ = evaluate(network, stones[None].astype(np.float32))
        scores = np.where(legal, logits[0], -np.inf)
        return int(np.argmax(scores)), scores
    values, logits = search_scores(network, stones, settings)
    values = np.where(legal, np.nan_to_num(values, nan=-np.inf), -np.inf)
    top = values >= values.max() - TIE
    return int(np.argmax(np.where(top, logits, -np.inf))), values
