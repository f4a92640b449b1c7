"""Board pictures: the contract's grid form, the text rendering and RGB frames."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from arcade_gym.tetris.render import (
    BACKGROUND,
    GRID_LINE,
    PIECE_COLOURS,
    grid_to_cells,
    grid_to_rows,
    render_ansi,
    render_rgb,
)
from arcade_gym.tetris.rules import BOARD_HEIGHT, BOARD_WIDTH, PIECE_LETTERS, T

# Rows 15-19 of the seed's worked example (seed-01, tick 14), one letter per cell, "." empty.
SEED_ROWS = ["IJ....SS..", "IJJJZSS.L.", "IOOZZTLLL.", "L.SSOO.TZZ", ".SS.OOTTT."]
SEED_TEXT = ["##....##..", "#######.#.", "#########.", "#.####.###", ".##.#####."]


def _seed_board() -> np.ndarray:
    board = np.zeros((BOARD_HEIGHT, BOARD_WIDTH), dtype=np.uint8)
    for r, row in enumerate(SEED_ROWS, start=15):
        for c, letter in enumerate(row):
            if letter != ".":
                board[r, c] = PIECE_LETTERS.index(letter) + 1
    return board


boards = hnp.arrays(
    np.uint8, (BOARD_HEIGHT, BOARD_WIDTH), elements=st.integers(0, len(PIECE_LETTERS))
)


def test_grid_to_cells_gives_the_contract_grid() -> None:
    cells = grid_to_cells(_seed_board())
    assert len(cells) == BOARD_HEIGHT and all(len(row) == BOARD_WIDTH for row in cells)
    assert cells[:15] == [[None] * BOARD_WIDTH] * 15
    assert cells[15] == ["I", "J", None, None, None, None, "S", "S", None, None]
    assert ["".join(c or "." for c in row) for row in cells[15:]] == SEED_ROWS


def test_grid_to_rows_matches_the_seed_drawing() -> None:
    rows = grid_to_rows(_seed_board())
    assert rows[:15] == ["." * BOARD_WIDTH] * 15
    assert rows[15:] == SEED_TEXT


def test_ansi_has_twenty_numbered_rows_and_a_ruler() -> None:
    lines = render_ansi(_seed_board()).splitlines()
    assert len(lines) == BOARD_HEIGHT + 1
    assert [line[:3] for line in lines[:-1]] == [f"{r:2d} " for r in range(BOARD_HEIGHT)]
    assert lines[-1] == "   0123456789"


def test_ansi_rows_look_like_the_seed_prompt() -> None:
    lines = render_ansi(_seed_board()).splitlines()
    assert lines[14:20] == [
        "14 ..........",
        *(f"{r} {t}" for r, t in enumerate(SEED_TEXT, start=15)),
    ]


def test_ansi_header_comes_first() -> None:
    lines = render_ansi(_seed_board(), header="Active piece: T\nNext: Z O J I L").splitlines()
    assert lines[:2] == ["Active piece: T", "Next: Z O J I L"]
    assert len(lines) == BOARD_HEIGHT + 3 and lines[2].startswith(" 0 ")


def test_ansi_draws_the_active_piece_with_at_signs() -> None:
    board = _seed_board()
    # The seed's T after hard drop to y = 14: cells (4, 14), (3, 15), (4, 15), (5, 15).
    lines = render_ansi(board, (T, 3, 14, 0)).splitlines()
    assert lines[14] == "14 ....@....."
    assert lines[15] == "15 ##.@@@##.."
    assert sum(line.count("@") for line in lines) == 4
    assert sum(line.count("#") for line in lines) == np.count_nonzero(board)


def test_ansi_skips_active_cells_above_the_board() -> None:
    # T spawns at (3, -1): its top cell is above row 0 and is not drawn.
    lines = render_ansi(_seed_board(), ("T", 3, -1, 0)).splitlines()
    assert lines[0] == " 0 ...@@@...."
    assert sum(line.count("@") for line in lines) == 3


@given(board=boards)
def test_ansi_hash_count_equals_filled_cells(board: np.ndarray) -> None:
    text = render_ansi(board)
    assert text.count("#") == np.count_nonzero(board)
    assert text.count(".") == board.size - np.count_nonzero(board)
    assert grid_to_rows(board) == [line[3:] for line in text.splitlines()[:-1]]


def test_rgb_shape_and_dtype() -> None:
    image = render_rgb(_seed_board())
    assert image.shape == (BOARD_HEIGHT * 16, BOARD_WIDTH * 16, 3)
    assert image.dtype == np.uint8
    assert render_rgb(_seed_board(), cell_px=4).shape == (BOARD_HEIGHT * 4, BOARD_WIDTH * 4, 3)
    assert render_rgb(_seed_board(), cell_px=1).shape == (BOARD_HEIGHT, BOARD_WIDTH, 3)


def _centre(image: np.ndarray, row: int, col: int, cell_px: int = 16) -> np.ndarray:
    return image[row * cell_px + cell_px // 2, col * cell_px + cell_px // 2]


def test_rgb_empty_and_filled_cells_differ() -> None:
    image = render_rgb(_seed_board())
    empty, filled = _centre(image, 0, 0), _centre(image, 15, 0)
    assert not np.array_equal(empty, filled)
    assert np.array_equal(empty, BACKGROUND)
    assert np.array_equal(filled, PIECE_COLOURS[PIECE_LETTERS.index("I")])


def test_rgb_piece_types_have_distinct_colours() -> None:
    assert len({tuple(colour) for colour in PIECE_COLOURS}) == len(PIECE_LETTERS)
    image = render_rgb(_seed_board())
    assert not np.array_equal(_centre(image, 15, 0), _centre(image, 15, 1))  # I next to J


def test_rgb_active_piece_is_a_lighter_shade() -> None:
    board = _seed_board()
    image = render_rgb(board, (T, 3, 14, 0))
    active = _centre(image, 14, 4).astype(int)
    locked = PIECE_COLOURS[T].astype(int)
    assert (active >= locked).all() and active.sum() > locked.sum()
    assert np.array_equal(_centre(render_rgb(board), 14, 4), BACKGROUND)


def test_rgb_has_grid_lines() -> None:
    image = render_rgb(np.zeros((BOARD_HEIGHT, BOARD_WIDTH), dtype=np.uint8), cell_px=8)
    assert np.array_equal(image[8, 3], GRID_LINE) and np.array_equal(image[3, 8], GRID_LINE)
    assert np.array_equal(image[3, 3], BACKGROUND)


@pytest.mark.parametrize(
    "board",
    [np.zeros(BOARD_WIDTH, dtype=np.uint8), np.full((BOARD_HEIGHT, BOARD_WIDTH), 8, np.uint8)],
)
def test_bad_boards_are_rejected(board: np.ndarray) -> None:
    with pytest.raises(ValueError):
        render_ansi(board)
    with pytest.raises(ValueError):
        render_rgb(board)


def test_bad_cell_size_is_rejected() -> None:
    with pytest.raises(ValueError):
        render_rgb(_seed_board(), cell_px=0)
