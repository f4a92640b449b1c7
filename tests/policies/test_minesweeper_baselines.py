"""Minesweeper baselines: the solver's probabilities are exact, the policies answer legally and
deterministically, and the heuristic solves most boards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.minesweeper.contract import validate
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.minesweeper.render import board_view
from policies.base import Policy
from policies.minesweeper import (
    HeuristicMinesweeper,
    RandomMinesweeper,
    choose_cell,
    mine_probabilities,
)
from policies.minesweeper.baselines import APPROXIMATE, EXACT, INCONSISTENT


def _brute_force(grid: np.ndarray, mines: int) -> np.ndarray:
    """P(mine) per cell by listing every placement of `mines` mines on the unknown cells."""
    rows, cols = grid.shape
    unknown = [(r, c) for r in range(rows) for c in range(cols) if grid[r, c] < 0]
    checks = [
        (
            int(grid[r, c]),
            [k for k, (ur, uc) in enumerate(unknown) if max(abs(ur - r), abs(uc - c)) == 1],
        )
        for r in range(rows)
        for c in range(cols)
        if grid[r, c] >= 0
    ]
    hits = np.zeros(len(unknown))
    total = 0
    for chosen in itertools.combinations(range(len(unknown)), mines):
        picked = set(chosen)
        if all(sum(k in picked for k in around) == v for v, around in checks):
            hits[list(chosen)] += 1
            total += 1
    assert total > 0
    out = np.zeros(grid.shape)
    for k, cell in enumerate(unknown):
        out[cell] = hits[k] / total
    return out


@st.composite
def tiny_positions(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """A real layout on a board of at most 4x5 with at most 5 mines, some of its safe cells
    revealed, maybe a flag (small enough to list every placement)."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    n = rows * cols
    mines = draw(st.integers(1, min(5, max(1, n // 3))))
    cells = draw(st.permutations(range(n)))
    layout = np.zeros(n, bool)
    layout[list(cells[:mines])] = True
    layout = layout.reshape(rows, cols)
    safe = [divmod(i, cols) for i in cells[mines:]]
    shown = draw(st.integers(0, len(safe)))
    grid = np.full((rows, cols), -2, np.int8)
    for r, c in safe[:shown]:
        grid[r, c] = layout[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2].sum()
    hidden = np.argwhere(grid == -2)
    if draw(st.booleans()):
        grid[tuple(hidden[0])] = -1  # flags carry no information for the solver
    return grid, mines


@settings(max_examples=150, deadline=None)
@given(tiny_positions())
def test_probabilities_equal_brute_force_enumeration(position: tuple[np.ndarray, int]) -> None:
    grid, mines = position
    probs, status = mine_probabilities(grid, mines)
    assert status == EXACT
    unknown = grid < 0
    np.testing.assert_allclose(probs[unknown], _brute_force(grid, mines)[unknown], atol=1e-9)
    assert (probs[~unknown] == -1).all()


def test_global_mine_count_weights_the_interior() -> None:
    # The 1 has two candidate cells; the two cells on the right touch no number. The mine total
    # decides the interior: none left for it with 1 mine, all of it with 3.
    grid = np.array([[-2, 1, -2, -2, -2]], np.int8)
    probs, _ = mine_probabilities(grid, 1)
    np.testing.assert_allclose(probs, [[0.5, -1, 0.5, 0, 0]])
    probs, _ = mine_probabilities(grid, 2)
    np.testing.assert_allclose(probs, [[0.5, -1, 0.5, 0.5, 0.5]])
    probs, _ = mine_probabilities(grid, 3)
    np.testing.assert_allclose(probs, [[0.5, -1, 0.5, 1, 1]])


def test_a_component_too_large_to_enumerate_is_approximated() -> None:
    game = MinesweeperGame(8, "hard")
    probs, status = mine_probabilities(game.board, 99, node_budget=1)
    assert status == APPROXIMATE
    unknown = game.board < 0
    assert ((probs[unknown] >= 0) & (probs[unknown] <= 1)).all()


@pytest.mark.parametrize(
    ("grid", "mines"),
    [
        ([[3, -2], [-2, 0]], 1),  # a 3 with two unknown neighbours
        ([[-2, 1, -2, -2]], 0),  # only the enumeration sees that no mine is left for the 1
    ],
)
def test_an_impossible_board_is_reported_not_crashed(grid: list[list[int]], mines: int) -> None:
    probs, status = mine_probabilities(grid, mines)
    board = np.array(grid)
    assert status == INCONSISTENT
    assert ((probs[board < 0] >= 0) & (probs[board < 0] <= 1)).all()
    assert (probs[board >= 0] == -1).all()


def test_choose_cell_takes_a_certain_safe_cell() -> None:
    # 1-2-1 under three hidden cells: no single number decides, the enumeration finds the middle
    # cell safe (both ends are mines).
    grid = np.array([[-2, -2, -2], [1, 2, 1], [0, 0, 0]], np.int8)
    row, col, p = choose_cell(grid, 2)
    assert (row, col, p) == (0, 1, 0.0)
    probs, status = mine_probabilities(grid, 2)
    assert status == EXACT
    np.testing.assert_allclose(probs[0], [1, 0, 1])


def _play(policy: Policy, seed: int | str, difficulty: str) -> MinesweeperGame:
    game = MinesweeperGame(seed, difficulty)
    while not game.over:
        question = game.question()
        verdict = validate(policy.act(question, None), question)  # type: ignore[arg-type]
        assert verdict.usable, verdict.reason
        assert verdict.index is not None
        game.step(verdict.index)
    return game


def test_policies_carry_an_identity() -> None:
    for policy, kind in ((RandomMinesweeper(1), "baseline"), (HeuristicMinesweeper(), "heuristic")):
        assert isinstance(policy, Policy)
        assert policy.kind == kind and policy.slug and policy.name


def test_random_reveals_legally_and_deterministically() -> None:
    policy = RandomMinesweeper(seed=3)
    question = MinesweeperGame(100, "medium").question()
    first = policy.act(question)
    assert first == policy.act(question) and first.action.startswith("reveal")
    picks = {RandomMinesweeper(seed=s).act(question).action for s in range(20)}
    assert len(picks) > 1
    a, b = _play(RandomMinesweeper(5), 7, "easy"), _play(RandomMinesweeper(5), 7, "easy")
    assert np.array_equal(a.board, b.board) and a.decisions == b.decisions


def test_heuristic_unflags_a_cell_it_wants_to_reveal() -> None:
    game = MinesweeperGame(12, "easy")
    row, col, _ = choose_cell(game.board, game.n_mines)
    game.flag(row, col)
    assert HeuristicMinesweeper().act(game.question()).action == f"flag {row} {col}"


def test_heuristic_never_reveals_a_cell_it_knows_is_a_mine() -> None:
    game = MinesweeperGame(21, "medium")
    policy = HeuristicMinesweeper()
    while not game.over:
        question = game.question()
        probs, _ = mine_probabilities(board_view(question.board), question.mines)
        action = policy.act(question).action
        _, r, c = action.split()
        assert probs[int(r), int(c)] <= probs[probs >= 0].min() + 1e-9
        game.play(action)


@pytest.mark.parametrize(
    ("difficulty", "boards", "at_least"), [("easy", 30, 24), ("medium", 12, 7)]
)
def test_heuristic_solves_most_boards(difficulty: str, boards: int, at_least: int) -> None:
    policy = HeuristicMinesweeper()
    won = sum(_play(policy, f"ci-{i}", difficulty).won for i in range(boards))
    assert won >= at_least
