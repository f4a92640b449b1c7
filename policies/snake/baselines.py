"""Snake baselines: a seeded random mover and a greedy path planner that guards its tail.

Both are stateless: the answer depends only on the question (and the random one's seed), so a
replay re-asks the same questions and gets the same answers.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable
from functools import lru_cache

from arcade_gym.snake.contract import SnakeAnswer, SnakeQuestion
from arcade_gym.snake.rules import DIRECTION_NAMES, opposite
from policies.base import DecisionContext, PolicyIdentity

Neighbours = tuple[tuple[tuple[int, int], ...], ...]
"""Per flat cell, its `(direction, cell)` neighbours on the board, in direction order."""


class RandomSnake(PolicyIdentity):
    """Uniform over the three directions that are not the reversal, seeded by (seed, decision)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(
            slug="random",
            name="Random",
            description="Uniform random direction other than the reversal, seeded per decision",
            kind="baseline",
            adapter_version="1",
        )
        self.seed = int(seed)

    def act(self, question: SnakeQuestion, ctx: DecisionContext | None = None) -> SnakeAnswer:
        """Draw from the non-reversal directions in canonical order (not the shuffled list, so
        the draw does not depend on the presentation order)."""
        reversal = opposite(DIRECTION_NAMES.index(question.heading))
        legal = [d for d in range(4) if d != reversal]
        key = f"snake-random:{self.seed}:{question.decision}".encode()
        draw = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
        return SnakeAnswer(action=DIRECTION_NAMES[legal[draw % len(legal)]])


@lru_cache(maxsize=16)
def _neighbours(rows: int, cols: int) -> Neighbours:
    """The board's adjacency, built once per size (every plan walks it many times)."""
    out = []
    for cell in range(rows * cols):
        row, col = divmod(cell, cols)
        near = []
        for d, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            r, c = row + dr, col + dc
            if 0 <= r < rows and 0 <= c < cols:
                near.append((d, r * cols + c))
        out.append(tuple(near))
    return tuple(out)


def _ordered(near: tuple[tuple[int, int], ...], first: int) -> Iterable[tuple[int, int]]:
    """Neighbours with direction `first` tried first: shortest paths then run straight."""
    for item in near:
        if item[0] == first:
            yield item
    for item in near:
        if item[0] != first:
            yield item


def _bfs_path(
    nb: Neighbours, start: int, goal: int, free_at: list[int], heading: int
) -> list[int] | None:
    """Shortest path start -> goal (cells after start). A cell can be entered at move t when
    `free_at[cell] <= t` (0 = empty; a body segment frees as the tail passes)."""
    parent = {start: -1}
    depth = {start: 0}
    queue = deque([start])
    direction = {start: heading}
    while queue:
        cell = queue.popleft()
        t = depth[cell] + 1
        for d, nxt in _ordered(nb[cell], direction[cell]):
            if nxt in parent or free_at[nxt] > t:
                continue
            parent[nxt] = cell
            depth[nxt] = t
            direction[nxt] = d
            if nxt == goal:
                path = [nxt]
                while parent[path[-1]] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(nxt)
    return None


def _static_free(snake: list[int], n: int) -> list[int]:
    """Obstacles that never move: every segment but the tail (which leaves on the next move)."""
    free_at = [0] * n
    for cell in snake[:-1]:
        free_at[cell] = n + 1
    return free_at


def _longest_path(
    nb: Neighbours, cols: int, start: int, path: list[int], blocked: list[bool]
) -> None:
    """Stretch `path` (cells after `start`) in place: replace each step by a three-step detour
    through two free side cells while one exists (the classic approximation)."""
    on_path = set(path) | {start}
    i = 0
    while i < len(path):
        a = start if i == 0 else path[i - 1]
        b = path[i]
        # a horizontal step detours above or below, a vertical one left or right
        sides = (-cols, cols) if abs(a - b) == 1 else (-1, 1)
        extended = False
        for s in sides:
            a2, b2 = a + s, b + s
            if (
                any(c == a2 for _, c in nb[a])
                and any(c == b2 for _, c in nb[b])
                and not blocked[a2]
                and not blocked[b2]
                and a2 not in on_path
                and b2 not in on_path
            ):
                path[i:i] = [a2, b2]
                on_path.update((a2, b2))
                extended = True
                break
        if not extended:
            i += 1


def _reachable(nb: Neighbours, start: int, blocked: list[bool]) -> int:
    """How many cells a flood fill from `start` reaches (the room a move leaves)."""
    seen = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        for _, nxt in nb[cell]:
            if nxt not in seen and not blocked[nxt]:
                seen.add(nxt)
                stack.append(nxt)
    return len(seen)


def _direction(nb: Neighbours, a: int, b: int) -> int:
    for d, c in nb[a]:
        if c == b:
            return d
    raise ValueError(f"cells {a} and {b} are not neighbours")


def plan(rows: int, cols: int, snake: list[int], food: int | None, heading: int) -> tuple[int, str]:
    """The heuristic's move as `(direction, why)` for a snake given head first as flat cells."""
    n = rows * cols
    nb = _neighbours(rows, cols)
    head, length = snake[0], len(snake)
    # 1. Shortest path to the food, with segments freeing up as the tail moves on.
    if food is not None:
        free_at = [0] * n
        for i, cell in enumerate(snake):
            free_at[cell] = length - i
        path = _bfs_path(nb, head, food, free_at, heading)
        if path is not None:
            # 2. Simulate eating along it: the tail must stay reachable afterwards.
            moved = len(path)
            virtual = path[::-1] + snake[: max(0, length + 1 - moved)]
            virtual = virtual[: length + 1]
            if len(virtual) == n or _bfs_path(
                nb, virtual[0], virtual[-1], _static_free(virtual, n), heading
            ):
                return _direction(nb, head, path[0]), "food"
    # 3. Follow the tail the long way round, to buy room until the food is safe to take.
    free_at = _static_free(snake, n)
    tail_path = _bfs_path(nb, head, snake[-1], free_at, heading)
    blocked = [f > 0 for f in free_at]
    if tail_path is not None:
        detour_blocked = blocked.copy()
        if food is not None:
            detour_blocked[food] = True  # do not grow by accident while stalling
        _longest_path(nb, cols, head, tail_path, detour_blocked)
        return _direction(nb, head, tail_path[0]), "tail"
    # 4. Any safe move: the most room, then the farthest from the food.
    best: tuple[int, int, int] | None = None
    for d, nxt in nb[head]:
        if blocked[nxt]:
            continue
        room = _reachable(nb, nxt, blocked)
        far = 0 if food is None else abs(nxt // cols - food // cols) + abs(nxt % cols - food % cols)
        if best is None or (room, far) > best[:2]:
            best = (room, far, d)
    if best is not None:
        return best[2], "room"
    return heading, "doomed"


class HeuristicSnake(PolicyIdentity):
    """Greedy planner: the shortest path to the food when, after eating along it, the tail is
    still reachable; else follow the tail the long way round; else the roomiest safe move."""

    def __init__(self) -> None:
        super().__init__(
            slug="heuristic",
            name="Heuristic",
            description=(
                "Shortest path to the food if the tail stays reachable after eating, "
                "else follow the tail, else the safe move with the most room"
            ),
            kind="heuristic",
            adapter_version="1",
        )

    def act(self, question: SnakeQuestion, ctx: DecisionContext | None = None) -> SnakeAnswer:
        """Plan on the question's board (see `plan`)."""
        cols = question.cols
        snake = [c.row * cols + c.col for c in question.snake]
        food = None if question.food is None else question.food.row * cols + question.food.col
        heading = DIRECTION_NAMES.index(question.heading)
        direction, _ = plan(question.rows, cols, snake, food, heading)
        return SnakeAnswer(action=DIRECTION_NAMES[direction])
