"""Each technique on a textbook position: a board whose candidates hold exactly the pattern, and
the eliminations (or placement) the pattern allows."""

from __future__ import annotations

import numpy as np

from arcade_gym.sudoku import chains, techniques
from arcade_gym.sudoku.board import UNIT_CELLS, Board
from arcade_gym.sudoku.rules import parse_puzzle

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def rc(r: int, c: int) -> int:
    """Cell index of row r, column c (from 1, as in the textbooks)."""
    return (r - 1) * 9 + (c - 1)


def empty() -> Board:
    return Board(np.zeros(81, np.int8))


def only(b: Board, digit: int, unit: int, cells: list[int]) -> None:
    """Strike `digit` from the unit except at `cells`."""
    for c in UNIT_CELLS[unit]:
        if c not in cells:
            b.cand[c] &= ~(1 << (digit - 1))


def cands(b: Board, cell: int, digits: str) -> None:
    b.cand[cell] = sum(1 << (int(d) - 1) for d in digits)


def row(r: int) -> int:
    return r - 1


def col(c: int) -> int:
    return 8 + c


def box(k: int) -> int:
    return 17 + k


def elims(step: object) -> set[tuple[int, int]]:
    assert step is not None
    return set(step.eliminations)  # type: ignore[attr-defined]


def test_naked_single_places_the_last_candidate() -> None:
    b = Board(parse_puzzle("0" + SOLUTION[1:]))
    step = techniques.naked_single(b)
    assert step is not None and step.placements == [(0, 5)]


def test_hidden_single_places_the_only_place_in_a_box() -> None:
    b = empty()
    only(b, 5, box(1), [rc(2, 2)])
    step = techniques.hidden_single(b)
    assert step is not None and step.placements == [(rc(2, 2), 5)]
    assert techniques.naked_single(b) is None


def test_pointing_clears_the_rest_of_the_line() -> None:
    b = empty()
    only(b, 3, box(1), [rc(1, 1), rc(1, 2), rc(1, 3)])
    assert elims(techniques.pointing(b)) == {(rc(1, c), 3) for c in range(4, 10)}


def test_claiming_clears_the_rest_of_the_box() -> None:
    b = empty()
    only(b, 3, row(1), [rc(1, 1), rc(1, 2)])
    expected = {(rc(r, c), 3) for r in (2, 3) for c in (1, 2, 3)}
    assert elims(techniques.claiming(b)) == expected


def test_naked_pair() -> None:
    b = empty()
    cands(b, rc(1, 1), "12")
    cands(b, rc(1, 5), "12")
    others = [c for c in range(2, 10) if c != 5]
    expected = {(rc(1, c), d) for c in others for d in (1, 2)}
    assert elims(techniques.naked_pair(b)) == expected


def test_hidden_pair() -> None:
    b = empty()
    for d in (1, 2):
        only(b, d, row(1), [rc(1, 1), rc(1, 5)])
    expected = {(c, d) for c in (rc(1, 1), rc(1, 5)) for d in range(3, 10)}
    assert elims(techniques.hidden_pair(b)) == expected


def test_naked_triple_with_no_cell_holding_all_three() -> None:
    b = empty()
    for c, digits in ((1, "12"), (5, "23"), (9, "13")):
        cands(b, rc(1, c), digits)
    others = [2, 3, 4, 6, 7, 8]
    expected = {(rc(1, c), d) for c in others for d in (1, 2, 3)}
    assert elims(techniques.naked_triple(b)) == expected


def test_hidden_triple() -> None:
    b = empty()
    for d in (1, 2, 3):
        only(b, d, row(1), [rc(1, 1), rc(1, 5), rc(1, 9)])
    expected = {(c, d) for c in (rc(1, 1), rc(1, 5), rc(1, 9)) for d in range(4, 10)}
    assert elims(techniques.hidden_triple(b)) == expected


def test_naked_quad() -> None:
    b = empty()
    for c, digits in ((1, "12"), (3, "23"), (5, "34"), (7, "14")):
        cands(b, rc(1, c), digits)
    others = [2, 4, 6, 8, 9]
    expected = {(rc(1, c), d) for c in others for d in (1, 2, 3, 4)}
    assert elims(techniques.naked_quad(b)) == expected


def test_hidden_quad() -> None:
    b = empty()
    quad = [rc(1, c) for c in (1, 3, 5, 7)]
    for d in (1, 2, 3, 4):
        only(b, d, row(1), quad)
    expected = {(c, d) for c in quad for d in range(5, 10)}
    assert elims(techniques.hidden_quad(b)) == expected


def test_x_wing() -> None:
    b = empty()
    for r in (1, 5):
        only(b, 1, row(r), [rc(r, 3), rc(r, 7)])
    expected = {(rc(r, c), 1) for r in (2, 3, 4, 6, 7, 8, 9) for c in (3, 7)}
    assert elims(techniques.x_wing(b)) == expected


def test_swordfish() -> None:
    b = empty()
    for r, cs in ((1, (2, 5)), (4, (5, 8)), (7, (2, 8))):
        only(b, 1, row(r), [rc(r, c) for c in cs])
    expected = {(rc(r, c), 1) for r in (2, 3, 5, 6, 8, 9) for c in (2, 5, 8)}
    assert elims(techniques.swordfish(b)) == expected


def test_jellyfish() -> None:
    b = empty()
    for r, cs in ((1, (1, 4)), (3, (4, 6)), (5, (6, 9)), (7, (1, 9))):
        only(b, 1, row(r), [rc(r, c) for c in cs])
    expected = {(rc(r, c), 1) for r in (2, 4, 6, 8, 9) for c in (1, 4, 6, 9)}
    assert elims(techniques.jellyfish(b)) == expected


def test_xy_wing() -> None:
    b = empty()
    cands(b, rc(1, 1), "12")  # pivot
    cands(b, rc(1, 6), "13")
    cands(b, rc(5, 1), "23")
    step = techniques.xy_wing(b)
    assert elims(step) == {(rc(5, 6), 3)}
    assert step is not None and step.cells == [rc(1, 1), rc(1, 6), rc(5, 1)]


def test_xyz_wing() -> None:
    b = empty()
    cands(b, rc(1, 1), "123")  # pivot
    cands(b, rc(2, 2), "13")
    cands(b, rc(1, 6), "23")
    assert elims(techniques.xyz_wing(b)) == {(rc(1, 2), 3), (rc(1, 3), 3)}


def test_w_wing() -> None:
    b = empty()
    cands(b, rc(1, 1), "12")
    cands(b, rc(5, 5), "12")
    only(b, 1, row(9), [rc(9, 1), rc(9, 5)])
    assert elims(techniques.w_wing(b)) == {(rc(1, 5), 2), (rc(5, 1), 2)}


def test_skyscraper() -> None:
    b = empty()
    only(b, 1, row(1), [rc(1, 1), rc(1, 5)])  # base column 1, ends r1c5 and r5c6
    only(b, 1, row(5), [rc(5, 1), rc(5, 6)])
    expected = {(rc(2, 6), 1), (rc(3, 6), 1), (rc(4, 5), 1), (rc(6, 5), 1)}
    assert elims(techniques.skyscraper(b)) == expected


def test_two_string_kite() -> None:
    b = empty()
    only(b, 1, row(1), [rc(1, 2), rc(1, 7)])
    only(b, 1, col(1), [rc(3, 1), rc(8, 1)])
    assert elims(techniques.two_string_kite(b)) == {(rc(8, 7), 1)}


def test_simple_colouring_trap() -> None:
    b = empty()
    only(b, 1, box(1), [rc(1, 1), rc(3, 3)])
    only(b, 1, col(3), [rc(3, 3), rc(7, 3)])
    only(b, 1, row(7), [rc(7, 3), rc(7, 8)])
    assert elims(techniques.simple_colouring(b)) == {(rc(1, 8), 1)}


def test_simple_colouring_wrap_removes_the_colour_that_sees_itself() -> None:
    b = empty()
    # r1c1 = r1c5 (row 1), r1c5 = r5c5 (column 5), r5c5 = r5c2 (row 5), r5c2 = r2c2 (column 2):
    # r1c1 and r5c5 share a colour with r2c2, and r1c1 sees r2c2 (box 1)
    only(b, 1, row(1), [rc(1, 1), rc(1, 5)])
    only(b, 1, col(5), [rc(1, 5), rc(5, 5)])
    only(b, 1, row(5), [rc(5, 5), rc(5, 2)])
    only(b, 1, col(2), [rc(5, 2), rc(2, 2)])
    assert elims(techniques.simple_colouring(b)) == {(rc(1, 1), 1), (rc(2, 2), 1), (rc(5, 5), 1)}


def test_unique_rectangle_type_1() -> None:
    b = empty()
    for cell in (rc(1, 1), rc(1, 4), rc(2, 1)):
        cands(b, cell, "12")
    cands(b, rc(2, 4), "125")
    assert elims(techniques.unique_rectangle_1(b)) == {(rc(2, 4), 1), (rc(2, 4), 2)}


def test_unique_rectangle_needs_exactly_two_boxes() -> None:
    b = empty()
    for cell in (rc(1, 1), rc(1, 2), rc(2, 1)):  # one box: not a deadly pattern
        cands(b, cell, "12")
    cands(b, rc(2, 2), "125")
    assert techniques.unique_rectangle_1(b) is None


def test_xy_chain() -> None:
    """(r1c1=1)=(r1c1=2)-(r1c5=2)=(r1c5=3)-(r5c5=3)=(r5c5=4)-(r5c2=4)=(r5c2=1): one end is 1, so
    1 leaves the cells seeing both r1c1 and r5c2."""
    b = empty()
    for cell, digits in ((rc(1, 1), "12"), (rc(1, 5), "23"), (rc(5, 5), "34"), (rc(5, 2), "41")):
        cands(b, cell, digits)
    step = chains.xy_chain(b)
    expected = {(rc(r, c), 1) for r, c in ((1, 2), (2, 2), (3, 2), (4, 1), (5, 1), (6, 1))}
    assert elims(step) == expected
    assert step is not None and len(step.cells) == 8


def test_x_chain_of_six_nodes() -> None:
    """Digit 1: r1c1=r1c5 (row 1) - r4c5=r4c8 (row 4) - r7c8=r7c2 (row 7): one end is 1, so 1
    leaves the cells seeing both r1c1 and r7c2."""
    b = empty()
    only(b, 1, row(1), [rc(1, 1), rc(1, 5)])
    only(b, 1, row(4), [rc(4, 5), rc(4, 8)])
    only(b, 1, row(7), [rc(7, 8), rc(7, 2)])
    step = chains.x_chain(b)
    assert elims(step) == {(rc(2, 2), 1), (rc(3, 2), 1), (rc(8, 1), 1), (rc(9, 1), 1)}
    assert step is not None
    assert step.cells == [rc(1, 1), rc(1, 5), rc(4, 5), rc(4, 8), rc(7, 8), rc(7, 2)]


def test_aic_mixes_cell_and_unit_links() -> None:
    """(r1c1=1)=(r1c1=2)-(r1c5=2)=(r9c5=2)-(r9c2=2)=(r9c2=1): a bivalue cell, a column's only
    two 2s, a bivalue cell. Neither an x-chain (two digits) nor an xy-chain (a unit link)."""
    b = empty()
    cands(b, rc(1, 1), "12")
    only(b, 2, col(5), [rc(1, 5), rc(9, 5)])
    cands(b, rc(9, 2), "12")
    step = chains.aic(b)
    expected = {(rc(r, c), 1) for r, c in ((1, 2), (2, 2), (3, 2), (7, 1), (8, 1), (9, 1))}
    assert elims(step) == expected
    assert step is not None and len(step.cells) == 6
    assert chains.x_chain(b) is None and chains.xy_chain(b) is None
