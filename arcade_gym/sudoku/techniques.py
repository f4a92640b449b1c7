"""The human techniques of tiers 1..5, each a function `Board -> Step | None` that finds the
first instance (units in the order rows, columns, boxes; digits 1..9) that changes the board.

Definitions in `docs/rules/sudoku.md`. Every function assumes a puzzle with one solution (the
unique rectangle relies on it) and never changes the board itself.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from arcade_gym.sudoku.board import (
    BIT_COUNT,
    BOX_OF,
    CELL_UNIT,
    DIGITS_OF,
    PEER_SET,
    UNIT_CELLS,
    Board,
    Step,
    seen_by_all,
)
from arcade_gym.sudoku.rules import CELLS

Technique = Callable[[Board], Step | None]


# --- tier 1 -----------------------------------------------------------------------------------
def naked_single(b: Board) -> Step | None:
    """A cell with one candidate left."""
    cand = b.cand
    for c in range(CELLS):
        m = cand[c]
        if m and not m & (m - 1):
            return Step("naked single", placements=[(c, m.bit_length())], cells=[c])
    return None


def hidden_single(b: Board) -> Step | None:
    """A digit with one place left in a unit (boxes first, as people scan)."""
    cand = b.cand
    for u in (*range(18, 27), *range(18)):
        once = twice = 0
        cells = UNIT_CELLS[u]
        for c in cells:
            m = cand[c]
            twice |= once & m
            once |= m
        only = once & ~twice
        if only:
            bit = only & -only
            for c in cells:
                if cand[c] & bit:
                    return Step("hidden single", placements=[(c, bit.bit_length())], cells=[c])
    return None


# --- tier 2 -----------------------------------------------------------------------------------
def pointing(b: Board) -> Step | None:
    """A digit confined to one row or column inside a box leaves the rest of that line."""
    for box in range(18, 27):
        for d in range(1, 10):
            cells = b.cells_with(box, d)
            if len(cells) < 2:
                continue
            for k in (0, 1):  # row, then column
                line = CELL_UNIT[cells[0]][k]
                if all(CELL_UNIT[c][k] == line for c in cells):
                    elims = b.strike(set(UNIT_CELLS[line]) - set(UNIT_CELLS[box]), d)
                    if elims:
                        return Step("pointing", eliminations=elims, cells=cells)
    return None


def claiming(b: Board) -> Step | None:
    """A digit confined to one box inside a row or column leaves the rest of that box."""
    for line in range(18):
        for d in range(1, 10):
            cells = b.cells_with(line, d)
            if len(cells) < 2:
                continue
            box = CELL_UNIT[cells[0]][2]
            if all(CELL_UNIT[c][2] == box for c in cells):
                elims = b.strike(set(UNIT_CELLS[box]) - set(UNIT_CELLS[line]), d)
                if elims:
                    return Step("claiming", eliminations=elims, cells=cells)
    return None


# --- subsets (tiers 3 and 4) ------------------------------------------------------------------
def _naked(b: Board, size: int, name: str) -> Step | None:
    """`size` cells of a unit whose candidates together are `size` digits own those digits."""
    cand = b.cand
    for u in range(27):
        empty = [c for c in UNIT_CELLS[u] if cand[c]]
        if len(empty) <= size:
            continue
        small = [c for c in empty if BIT_COUNT[cand[c]] <= size]
        for group in combinations(small, size):
            union = 0
            for c in group:
                union |= cand[c]
            if BIT_COUNT[union] != size:
                continue
            elims = [(c, d) for c in empty if c not in group for d in DIGITS_OF[cand[c] & union]]
            if elims:
                return Step(name, eliminations=sorted(elims), cells=list(group))
    return None


def _hidden(b: Board, size: int, name: str) -> Step | None:
    """`size` digits of a unit confined to the same `size` cells: those cells hold only them."""
    cand = b.cand
    for u in range(27):
        empty = [c for c in UNIT_CELLS[u] if cand[c]]
        if len(empty) <= size:
            continue
        where = {d: [c for c in empty if cand[c] >> (d - 1) & 1] for d in range(1, 10)}
        digits = [d for d, cells in where.items() if 2 <= len(cells) <= size]
        for group in combinations(digits, size):
            cells = sorted({c for d in group for c in where[d]})
            if len(cells) != size:
                continue
            keep = 0
            for d in group:
                keep |= 1 << (d - 1)
            elims = [(c, d) for c in cells for d in DIGITS_OF[cand[c] & ~keep]]
            if elims:
                return Step(name, eliminations=elims, cells=cells)
    return None


def naked_pair(b: Board) -> Step | None:
    return _naked(b, 2, "naked pair")


def hidden_pair(b: Board) -> Step | None:
    return _hidden(b, 2, "hidden pair")


def naked_triple(b: Board) -> Step | None:
    return _naked(b, 3, "naked triple")


def hidden_triple(b: Board) -> Step | None:
    return _hidden(b, 3, "hidden triple")


def naked_quad(b: Board) -> Step | None:
    return _naked(b, 4, "naked quad")


def hidden_quad(b: Board) -> Step | None:
    return _hidden(b, 4, "hidden quad")


# --- fish (tiers 4 and 5) ---------------------------------------------------------------------
def _fish(b: Board, size: int, name: str) -> Step | None:
    """A digit whose places in `size` rows (columns) lie in `size` columns (rows) leaves the rest
    of those columns (rows)."""
    cand = b.cand
    for d in range(1, 10):
        bit = 1 << (d - 1)
        for rows_first in (True, False):
            lines = []
            for line in range(9):
                cells = [line * 9 + k if rows_first else k * 9 + line for k in range(9)]
                cross = 0
                for k, c in enumerate(cells):
                    if cand[c] & bit:
                        cross |= 1 << k
                if 2 <= BIT_COUNT[cross] <= size:
                    lines.append((line, cross))
            for group in combinations(lines, size):
                cover = 0
                for _, cross in group:
                    cover |= cross
                if BIT_COUNT[cover] != size:
                    continue
                base = {line for line, _ in group}
                # DIGITS_OF lists 1-based bit positions: k - 1 is the cross index
                targets = [
                    (line * 9 + (k - 1) if rows_first else (k - 1) * 9 + line)
                    for k in DIGITS_OF[cover]
                    for line in range(9)
                    if line not in base
                ]
                elims = b.strike(set(targets), d)
                if elims:
                    pattern = sorted(
                        (line * 9 + (k - 1) if rows_first else (k - 1) * 9 + line)
                        for line, cross in group
                        for k in DIGITS_OF[cross]
                    )
                    return Step(name, eliminations=elims, cells=pattern)
    return None


def x_wing(b: Board) -> Step | None:
    return _fish(b, 2, "x-wing")


def swordfish(b: Board) -> Step | None:
    return _fish(b, 3, "swordfish")


def jellyfish(b: Board) -> Step | None:
    return _fish(b, 4, "jellyfish")


# --- wings (tiers 4 and 5) --------------------------------------------------------------------
def _bivalue(b: Board) -> list[int]:
    return [c for c in range(CELLS) if BIT_COUNT[b.cand[c]] == 2]


def xy_wing(b: Board) -> Step | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: z leaves every cell seeing both pincers."""
    cand = b.cand
    bivalue = _bivalue(b)
    for pivot in bivalue:
        pm = cand[pivot]
        pincers = [c for c in bivalue if c in PEER_SET[pivot] and BIT_COUNT[cand[c] & pm] == 1]
        for a, c in combinations(pincers, 2):
            z = cand[a] & ~pm
            if z != cand[c] & ~pm or (cand[a] | cand[c]) & pm != pm:
                continue
            elims = b.strike(seen_by_all([a, c]), z.bit_length())
            if elims:
                return Step("xy-wing", eliminations=elims, cells=[pivot, a, c])
    return None


def xyz_wing(b: Board) -> Step | None:
    """Pivot {x,y,z} seeing pincers {x,z} and {y,z}: z leaves cells seeing all three."""
    cand = b.cand
    bivalue = _bivalue(b)
    for pivot in range(CELLS):
        pm = cand[pivot]
        if BIT_COUNT[pm] != 3:
            continue
        pincers = [c for c in bivalue if c in PEER_SET[pivot] and cand[c] & ~pm == 0]
        for a, c in combinations(pincers, 2):
            if cand[a] == cand[c] or cand[a] | cand[c] != pm:
                continue
            z = cand[a] & cand[c]
            elims = b.strike(seen_by_all([pivot, a, c]), z.bit_length())
            if elims:
                return Step("xyz-wing", eliminations=elims, cells=[pivot, a, c])
    return None


def _strong_links(b: Board, d: int) -> list[tuple[int, int, int]]:
    """`(unit, cell, cell)` for every unit where `d` has exactly two places."""
    links = []
    for u in range(27):
        cells = b.cells_with(u, d)
        if len(cells) == 2:
            links.append((u, cells[0], cells[1]))
    return links


def w_wing(b: Board) -> Step | None:
    """Two {x,y} cells that do not see each other, joined through a strong link on x (each end
    seeing one of them): y leaves every cell seeing both."""
    cand = b.cand
    bivalue = _bivalue(b)
    for a, c in combinations(bivalue, 2):
        if cand[a] != cand[c] or c in PEER_SET[a]:
            continue
        for x in DIGITS_OF[cand[a]]:
            y = (cand[a] & ~(1 << (x - 1))).bit_length()
            for _, e1, e2 in _strong_links(b, x):
                if {e1, e2} & {a, c}:
                    continue
                joined = (e1 in PEER_SET[a] and e2 in PEER_SET[c]) or (
                    e1 in PEER_SET[c] and e2 in PEER_SET[a]
                )
                if joined:
                    elims = b.strike(seen_by_all([a, c]), y)
                    if elims:
                        return Step("w-wing", eliminations=elims, cells=[a, c, e1, e2])
    return None


# --- single-digit patterns (tier 5) -----------------------------------------------------------
def skyscraper(b: Board) -> Step | None:
    """Two rows (columns) with a digit in exactly two places, sharing one column (row): the
    digit leaves every cell seeing both other ends."""
    for d in range(1, 10):
        for first, k in ((0, 1), (9, 0)):  # rows joined by a column, columns joined by a row
            units = range(first, first + 9)
            pairs = [cells for u in units if len(cells := b.cells_with(u, d)) == 2]
            for p, q in combinations(pairs, 2):
                for i in (0, 1):
                    for j in (0, 1):
                        if CELL_UNIT[p[i]][k] != CELL_UNIT[q[j]][k]:
                            continue
                        e1, e2 = p[1 - i], q[1 - j]
                        if CELL_UNIT[e1][k] == CELL_UNIT[e2][k]:
                            continue  # an x-wing
                        elims = b.strike(seen_by_all([e1, e2]), d)
                        if elims:
                            return Step("skyscraper", eliminations=elims, cells=[*p, *q])
    return None


def two_string_kite(b: Board) -> Step | None:
    """A digit with two places in a row and two in a column, one of each in the same box: the
    digit leaves every cell seeing both other ends."""
    for d in range(1, 10):
        rows = [cells for u in range(9) if len(cells := b.cells_with(u, d)) == 2]
        cols = [cells for u in range(9, 18) if len(cells := b.cells_with(u, d)) == 2]
        for r in rows:
            for c in cols:
                if set(r) & set(c):
                    continue
                for i in (0, 1):
                    for j in (0, 1):
                        if BOX_OF[r[i]] != BOX_OF[c[j]]:
                            continue
                        e1, e2 = r[1 - i], c[1 - j]
                        elims = b.strike(seen_by_all([e1, e2]), d)
                        if elims:
                            return Step("2-string kite", eliminations=elims, cells=[*r, *c])
    return None


def simple_colouring(b: Board) -> Step | None:
    """Colour a digit's strong-link chains in two colours: a colour that sees itself is false
    (wrap); a cell seeing both colours loses the digit (trap)."""
    for d in range(1, 10):
        adjacent: dict[int, set[int]] = {}
        for _, e1, e2 in _strong_links(b, d):
            adjacent.setdefault(e1, set()).add(e2)
            adjacent.setdefault(e2, set()).add(e1)
        colour: dict[int, int] = {}
        for start in sorted(adjacent):
            if start in colour:
                continue
            colour[start] = 0
            component = [start]
            stack = [start]
            while stack:
                cell = stack.pop()
                for nxt in sorted(adjacent[cell]):
                    if nxt not in colour:
                        colour[nxt] = 1 - colour[cell]
                        component.append(nxt)
                        stack.append(nxt)
            sides = [sorted(c for c in component if colour[c] == k) for k in (0, 1)]
            for side in sides:
                if any(q in PEER_SET[p] for p, q in combinations(side, 2)):
                    return Step(
                        "simple colouring", eliminations=b.strike(side, d), cells=sorted(component)
                    )
            seen0 = set().union(*(PEER_SET[c] for c in sides[0]))
            seen1 = set().union(*(PEER_SET[c] for c in sides[1]))
            elims = b.strike((seen0 & seen1) - set(component), d)
            if elims:
                return Step("simple colouring", eliminations=elims, cells=sorted(component))
    return None


def unique_rectangle_1(b: Board) -> Step | None:
    """Four cells in two rows, two columns and two boxes, three of them {x,y}: the fourth cannot
    be x or y (both would make two solutions)."""
    cand = b.cand
    for r1, r2 in combinations(range(9), 2):
        for c1, c2 in combinations(range(9), 2):
            if (r1 // 3 == r2 // 3) == (c1 // 3 == c2 // 3):
                continue  # four boxes or one box
            corners = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2]
            masks = [cand[c] for c in corners]
            if 0 in masks:
                continue
            pairs = [m for m in masks if BIT_COUNT[m] == 2]
            if len(pairs) != 3 or len(set(pairs)) != 1:
                continue
            xy = pairs[0]
            odd = next(c for c, m in zip(corners, masks, strict=True) if BIT_COUNT[m] != 2)
            if cand[odd] & xy != xy:
                continue
            return Step(
                "unique rectangle type 1",
                eliminations=[(odd, d) for d in DIGITS_OF[xy]],
                cells=corners,
            )
    return None
