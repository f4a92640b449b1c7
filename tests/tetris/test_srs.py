"""SRS rotation: every piece's cells, both wall-kick tables row by row, O, a T-spin triple kick.

The expected positions come from the standard SRS tables written out below in their usual form
(y grows UPWARDS), not from `rules.KICKS`; our rows grow downwards, so an SRS kick (dx, dy) moves
the piece to (x + dx, y - dy) here. Each kick case builds a board that is full except for the
piece's cells and the cells of the test that should win, so every earlier test collides.
"""

from __future__ import annotations

import numpy as np
import pytest

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import PIECE_LETTERS, SHAPES

# --- the standard SRS pieces, drawn in their bounding box (row 0 at the top) -------------------
DRAWINGS = {
    "I": (
        "..../####/..../....",
        "..#./..#./..#./..#.",
        "..../..../####/....",
        ".#../.#../.#../.#..",
    ),
    "J": ("#../###/...", ".##/.#./.#.", ".../###/..#", ".#./.#./##."),
    "L": ("..#/###/...", ".#./.#./.##", ".../###/#..", "##./.#./.#."),
    "O": (".##./.##./..../....",) * 4,
    "S": (".##/##./...", ".#./.##/..#", ".../.##/##.", "#../##./.#."),
    "T": (".#./###/...", ".#./.##/.#.", ".../###/.#.", ".#./##./.#."),
    "Z": ("##./.##/...", "..#/.##/.#.", ".../##./.##", ".#./##./#.."),
}


def _cells_of(drawing: str) -> frozenset[tuple[int, int]]:
    return frozenset(
        (dx, dy)
        for dy, line in enumerate(drawing.split("/"))
        for dx, ch in enumerate(line)
        if ch == "#"
    )


CELLS = {p: [_cells_of(d) for d in drawings] for p, drawings in DRAWINGS.items()}

# --- the standard SRS wall-kick tables, (from, to) -> five tests, y UP as the tables are written --
JLSTZ_KICKS = {
    (0, 1): [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    (1, 0): [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    (1, 2): [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    (2, 1): [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    (2, 3): [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
    (3, 2): [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    (3, 0): [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    (0, 3): [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
}
I_KICKS = {
    (0, 1): [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    (1, 0): [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    (1, 2): [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
    (2, 1): [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    (2, 3): [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
    (3, 2): [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    (3, 0): [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    (0, 3): [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
}
NAMES = ("0", "R", "2", "L")  # rotation index -> SRS name
X0, Y0 = 4, 8  # where the piece sits before rotating: well inside the board for any kick

# For a T these four kick tests can never be taken: whenever their cells and the T's own cells are
# free, test 1 (no offset) fits inside them. J, L, S and Z exercise those table entries instead.
T_UNREACHABLE = {((0, 1), 3), ((0, 3), 3), ((2, 1), 2), ((2, 3), 2)}


def _direction(frm: int, to: int) -> int:
    """try_rotate's direction: 0 = clockwise (rotation + 1), 1 = counter-clockwise."""
    return 0 if to == (frm + 1) % 4 else 1


def _place(piece: str, x: int, y: int, rotation: int) -> set[tuple[int, int]]:
    return {(x + dx, y + dy) for dx, dy in CELLS[piece][rotation]}


def _fits(board: np.ndarray, cells: set[tuple[int, int]]) -> bool:
    return all(0 <= cx < 10 and cy < 20 and (cy < 0 or board[cy, cx] == 0) for cx, cy in cells)


def _full_except(*free: set[tuple[int, int]]) -> np.ndarray:
    board = np.ones((20, 10), np.uint8)
    for cells in free:
        for cx, cy in cells:
            board[cy, cx] = 0
    return board


def _board(rows: list[str]) -> np.ndarray:
    """The bottom rows of a board as '#'/'.' strings."""
    board = np.zeros((20, 10), np.uint8)
    for i, line in enumerate(rows):
        for c, ch in enumerate(line):
            board[20 - len(rows) + i, c] = 1 if ch == "#" else 0
    return board


def _rotate(board: np.ndarray, piece: str, x: int, y: int, frm: int, to: int) -> tuple:
    ok, nx, ny, nr, kick = E.try_rotate(
        board, PIECE_LETTERS.index(piece), x, y, frm, _direction(frm, to)
    )
    return bool(ok), int(nx), int(ny), int(nr), int(kick)


def _kick_cases(pieces: str, table: dict) -> list:
    cases = []
    for piece in pieces:
        for (frm, to), tests in table.items():
            for k in range(5):
                if piece == "T" and ((frm, to), k) in T_UNREACHABLE:
                    continue
                case_id = f"{piece}-{NAMES[frm]}->{NAMES[to]}-test{k + 1}"
                cases.append(pytest.param(piece, frm, to, k, tests, id=case_id))
    return cases


# --- cells --------------------------------------------------------------------------------------


@pytest.mark.parametrize("piece", list(PIECE_LETTERS))
def test_piece_cells_are_the_standard_srs_cells(piece: str) -> None:
    t = PIECE_LETTERS.index(piece)
    for rotation in range(4):
        engine_cells = {(int(dx), int(dy)) for dx, dy in SHAPES[t, rotation]}
        assert engine_cells == CELLS[piece][rotation], f"{piece} rotation {rotation}"


# --- the kick tables, row by row ----------------------------------------------------------------


def _check_kick(piece: str, frm: int, to: int, k: int, tests: list[tuple[int, int]]) -> None:
    dx, dy = tests[k]
    start = _place(piece, X0, Y0, frm)
    target = _place(piece, X0 + dx, Y0 - dy, to)
    board = _full_except(start, target)
    # The fixture really blocks every earlier test and frees the wanted one.
    for j in range(k):
        ex, ey = tests[j]
        assert not _fits(board, _place(piece, X0 + ex, Y0 - ey, to)), f"test {j + 1} not blocked"
    assert _fits(board, target)
    assert _rotate(board, piece, X0, Y0, frm, to) == (True, X0 + dx, Y0 - dy, to, k)


@pytest.mark.parametrize(("piece", "frm", "to", "k", "tests"), _kick_cases("JLSTZ", JLSTZ_KICKS))
def test_jlstz_rotation_takes_the_first_kick_test_that_fits(
    piece: str, frm: int, to: int, k: int, tests: list[tuple[int, int]]
) -> None:
    _check_kick(piece, frm, to, k, tests)


@pytest.mark.parametrize(("piece", "frm", "to", "k", "tests"), _kick_cases("I", I_KICKS))
def test_i_rotation_takes_the_first_kick_test_that_fits(
    piece: str, frm: int, to: int, k: int, tests: list[tuple[int, int]]
) -> None:
    _check_kick(piece, frm, to, k, tests)


def test_t_never_reaches_the_excluded_kick_tests() -> None:
    """The four T cases skipped above: test 1 always fits where they would."""
    for (frm, to), k in T_UNREACHABLE:
        dx, dy = JLSTZ_KICKS[(frm, to)][k]
        board = _full_except(_place("T", X0, Y0, frm), _place("T", X0 + dx, Y0 - dy, to))
        assert _rotate(board, "T", X0, Y0, frm, to) == (True, X0, Y0, to, 0)


@pytest.mark.parametrize("piece", list("IJLSTZ"))
def test_rotation_in_open_space_uses_test_one(piece: str) -> None:
    board = np.zeros((20, 10), np.uint8)
    for frm, to in JLSTZ_KICKS:
        assert _rotate(board, piece, X0, Y0, frm, to) == (True, X0, Y0, to, 0)


@pytest.mark.parametrize("piece", list("IJLSTZ"))
def test_rotation_fails_and_leaves_the_piece_unchanged_when_all_five_tests_collide(
    piece: str,
) -> None:
    for frm, to in JLSTZ_KICKS:
        board = _full_except(_place(piece, X0, Y0, frm))
        assert _rotate(board, piece, X0, Y0, frm, to) == (False, X0, Y0, frm, -1)


def test_failed_rotation_through_the_controls_keeps_the_piece_and_only_gravity_moves_it() -> None:
    # A vertical I deep in a one-wide shaft: no kick test can lay it flat.
    rows = ["####.#####"] * 15
    game = TetrisGame.from_position(rows, "I", "OOOOO")
    game.st[E.S_X], game.st[E.S_Y], game.st[E.S_ROT] = 2, 8, 1
    for control in (E.ROTATE_CW, E.ROTATE_CCW):
        _, x, y, rotation = game.active
        E.primitive_step(game.board, game.st, game.seq, control)
        assert game.active == (PIECE_LETTERS.index("I"), x, y + 1, rotation)
        assert game.st[E.S_LAST_ROT] == 0
        assert game.pieces == 0


# --- O ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("enclosed", [False, True], ids=["open", "enclosed"])
def test_o_never_kicks_and_rotating_it_never_moves_its_cells(enclosed: bool) -> None:
    o = PIECE_LETTERS.index("O")
    cells = _place("O", X0, Y0, 0)
    board = _full_except(cells) if enclosed else np.zeros((20, 10), np.uint8)
    for frm in range(4):
        for direction, to in ((0, (frm + 1) % 4), (1, (frm + 3) % 4)):
            ok, nx, ny, nr, kick = E.try_rotate(board, o, X0, Y0, frm, direction)
            assert (bool(ok), int(nx), int(ny), int(nr), int(kick)) == (True, X0, Y0, to, 0)
            moved = {(int(nx) + int(a), int(ny) + int(b)) for a, b in SHAPES[o, int(nr)]}
            assert moved == cells


def test_o_rotated_with_the_controls_only_falls() -> None:
    game = TetrisGame.from_position([], "O", "IIIII")
    rotation = 0
    for control in (E.ROTATE_CW, E.ROTATE_CW, E.ROTATE_CCW):
        t, x, y, r = game.active
        before = {(x + int(a), y + int(b)) for a, b in SHAPES[t, r]}
        E.primitive_step(game.board, game.st, game.seq, control)
        rotation = (rotation + (1 if control == E.ROTATE_CW else 3)) % 4
        t, x, y, r = game.active
        assert (x, r) == (3, rotation)
        after = {(x + int(a), y + int(b)) for a, b in SHAPES[t, r]}
        assert after == {(c, w + 1) for c, w in before}


# --- a T-spin triple kick -----------------------------------------------------------------------

# The classic TST slot: a three-deep well in column 5 with a one-cell notch at column 4 in the
# middle row, covered by a roof at (5, 15) held up by a wall in column 6. The T slides under the
# roof pointing up at (3, 15); rotating counter-clockwise (0 -> L) fails tests 1-4 (the floor of
# the slot at (4, 17), the roof, the roof, the slot floor again) and takes test 5, SRS (+1, -2),
# i.e. one right and two DOWN, into the slot: L at (4, 17), cells (5,17) (4,18) (5,18) (5,19).
TST_ROWS = [
    ".....##...",
    "......#...",
    "#####.####",
    "####..####",
    "#####.####",
]


def _mirror(rows: list[str]) -> list[str]:
    return [row[::-1] for row in rows]


TST_CASES = [
    pytest.param(TST_ROWS, 3, E.ROTATE_CCW, (4, 17, 3), id="0->L-into-the-left-notch"),
    pytest.param(_mirror(TST_ROWS), 4, E.ROTATE_CW, (3, 17, 1), id="0->R-mirrored"),
]


@pytest.mark.parametrize(("rows", "x", "control", "expected"), TST_CASES)
def test_t_spin_triple_kick_takes_test_five_into_the_slot(
    rows: list[str], x: int, control: int, expected: tuple[int, int, int]
) -> None:
    board = _board(rows)
    to = 3 if control == E.ROTATE_CCW else 1
    assert _rotate(board, "T", x, 15, 0, to) == (True, *expected, 4)
    ex, ey, er = expected
    assert _place("T", ex, ey, er) <= {(c, r) for r in (17, 18, 19) for c in range(10)}


@pytest.mark.parametrize(("rows", "x", "control", "expected"), TST_CASES)
def test_t_spin_triple_through_the_controls_locks_in_the_slot_and_scores_1600(
    rows: list[str], x: int, control: int, expected: tuple[int, int, int]
) -> None:
    game = TetrisGame.from_position(rows, "T", "IIIII")
    # Slid under the roof: set directly, since with no lock delay a resting piece that slides locks
    # on the next gravity step before it can turn.
    game.st[E.S_X], game.st[E.S_Y], game.st[E.S_ROT] = x, 15, 0
    delta = E.primitive_step(game.board, game.st, game.seq, control)
    # Rows 17-19 are full with the T in the slot; the roof and wall rows fall three rows.
    assert delta == 1600
    assert game.lines == 3 and game.pieces == 1
    assert game.back_to_back
    expected_board = _board(["..........", "..........", "..........", *rows[:2]])
    assert np.array_equal(game.board != 0, expected_board != 0)
