"""Scoring: every row of the `docs/rules/tetris.md` table, back-to-back, combos, perfect clears,
drop points, level, and NARCADE classic scoring.

Positions are built with `TetrisGame.from_position` (bottom rows as '#'/'.' strings) so every case
is exact. A placement is played through the candidate list, and the candidate's columns (lines,
clear points, drop points, spin) must agree with what `.play` then scores. T-spins need the T to
rest after a rotation: the T is put where it has just fallen to rest (a state that gravity reaches
from spawn, checked) and the last decision is a primitive rotation, whose gravity step locks it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import PIECE_LETTERS, SPIN_FULL, SPIN_MINI, SPIN_NONE, T

I_COL9 = (7, 1)  # a vertical I dropped into column 9
SINGLE, DOUBLE, TRIPLE, TETRIS = 100, 300, 500, 800


def _game(rows: list[str], active: str, queue: str = "IIIII", **kw: Any) -> TetrisGame:
    return TetrisGame.from_position(rows, active, queue, **kw)


def _play(game: TetrisGame, x: int, rotation: int) -> np.ndarray:
    """Play a listed placement; check the candidate row against the score it makes. Returns it."""
    index = game.candidate_index(x, rotation)
    assert index is not None, f"({x}, {rotation}) is not listed"
    row = game.candidate_rows()[index].copy()
    score, lines = game.score, game.lines
    delta = game.play(x, rotation)
    assert delta == row[E.C_SCORE_DELTA] == game.score - score
    assert row[E.C_SCORE_DELTA] == row[E.C_DROP] + row[E.C_CLEAR]
    assert game.lines - lines == row[E.C_LINES]
    if game.scoring == "guideline":
        assert row[E.C_DROP] == 2 * (row[E.C_Y_LAND] - row[E.C_Y_START])
    return row


def _clear(row: np.ndarray) -> tuple[int, int]:
    """(lines, clear points) of a played candidate row."""
    return int(row[E.C_LINES]), int(row[E.C_CLEAR])


def _rest(game: TetrisGame, x: int, y: int, rotation: int, *, falls: bool = True) -> None:
    """Put the active piece at rest at (x, y, rotation), its last move a fall (not a rotation).

    With `falls`, check the piece gets there by falling straight down in that orientation, so the
    state is one that gravity reaches (it is rotated and shifted at the top first).
    """
    t = game.active[0]
    assert not E.collides(game.board, t, x, y, rotation)
    assert E.collides(game.board, t, x, y + 1, rotation), "the piece should rest there"
    if falls:
        assert not any(E.collides(game.board, t, x, above, rotation) for above in range(-1, y))
    game.st[E.S_X], game.st[E.S_Y], game.st[E.S_ROT] = x, y, rotation
    game.st[E.S_LAST_ROT], game.st[E.S_LAST_KICK] = 0, -1
    game.refresh()


# --- line clears x level ------------------------------------------------------------------------

LINE_CLEARS = [
    pytest.param(k, lines_before, base * (1 + lines_before // 10), id=f"{name}-level{level}")
    for k, (name, base) in enumerate(
        [("single", SINGLE), ("double", DOUBLE), ("triple", TRIPLE), ("tetris", TETRIS)], 1
    )
    for level, lines_before in ((1, 0), (2, 10))
]


@pytest.mark.parametrize(("k", "lines_before", "expected"), LINE_CLEARS)
def test_line_clear_points_are_multiplied_by_the_level(
    k: int, lines_before: int, expected: int
) -> None:
    # k rows full but for column 9, above a garbage row the vertical I rests on.
    game = _game(["#########."] * k + [".#########"], "I", lines=lines_before)
    row = _play(game, *I_COL9)
    assert _clear(row) == (k, expected)
    assert row[E.C_SPIN] == SPIN_NONE
    assert row[E.C_DROP] == 2 * 16  # from y=-1 to y=15
    assert game.lines == lines_before + k
    assert game.combo == 0
    assert game.back_to_back == (k == 4)


# --- T-spins ------------------------------------------------------------------------------------

# Each case: bottom rows; where the T rests before the last decision; the control; where the kick
# takes it (x, y, rotation) and which test (0-based); the spin kind; lines; points at level 1;
# whether the placement search from the resting state reaches the spin too (it never kicks a
# piece below its current height, so down-kicks are found by the controls only).
#
# Mini: T pointing left rests at (1, 17) in the notch by the floor; L -> 0 fails tests 1-2 and
# takes test 3, SRS (-1, -1) = one left, one down, ending pointing up at (0, 18): corners (0, 18)
# and the floor twice, only one of the two front corners -> mini.
MINI_ROWS = "#..#......"
# Full: T pointing right rests at (0, 17), beside a roof cell at (0, 17); R -> 2 with test 1 points
# it down into the slot: three corners, both front corners filled -> full.
ROOF = "#........."
SPIN_CASES = [
    ("mini-no-line", [MINI_ROWS, "...######."], (1, 17, 3), E.ROTATE_CW, (0, 18, 0), 2,
     SPIN_MINI, 0, 100, False, True),
    ("mini-single", [MINI_ROWS, "...#######"], (1, 17, 3), E.ROTATE_CW, (0, 18, 0), 2,
     SPIN_MINI, 1, 200, False, True),
    # T pointing down slid under a blocker at (1, 15) (set directly: no lock delay means it could
    # not slide and then turn); 2 -> R fails tests 1-3 and takes test 4, SRS (0, -2) = two down,
    # into a slot with one front corner open -> mini, clearing two rows.
    ("mini-double", [".#........", "..........", ROOF, "#..#######", "#.########"], (0, 15, 2),
     E.ROTATE_CCW, (0, 17, 1), 3, SPIN_MINI, 2, 400, False, False),
    ("full-no-line", [ROOF, "...######.", "#.######.#"], (0, 17, 1), E.ROTATE_CW, (0, 17, 2), 0,
     SPIN_FULL, 0, 400, True, True),
    ("full-single", [ROOF, "...#######", "#.######.#"], (0, 17, 1), E.ROTATE_CW, (0, 17, 2), 0,
     SPIN_FULL, 1, 800, True, True),
    ("full-double", [ROOF, "...#######", "#.########"], (0, 17, 1), E.ROTATE_CW, (0, 17, 2), 0,
     SPIN_FULL, 2, 1200, True, True),
    # The TST slot of test_srs: slid under the roof, 0 -> L takes test 5 (two down) -> full.
    ("full-triple", [".....##...", "......#...", "#####.####", "####..####", "#####.####"],
     (3, 15, 0), E.ROTATE_CCW, (4, 17, 3), 4, SPIN_FULL, 3, 1600, False, False),
]  # fmt: skip
SPIN_PARAMS = [
    pytest.param(*case[1:], lines_before, id=f"{case[0]}-level{1 + lines_before // 10}")
    for case in SPIN_CASES
    for lines_before in (0, 10)
]


@pytest.mark.parametrize(
    ("rows", "rest", "control", "end", "kick", "spin", "k", "points", "searched", "falls", "lb"),
    SPIN_PARAMS,
)
def test_t_spin_points_are_multiplied_by_the_level(
    rows: list[str],
    rest: tuple[int, int, int],
    control: int,
    end: tuple[int, int, int],
    kick: int,
    spin: int,
    k: int,
    points: int,
    searched: bool,
    falls: bool,
    lb: int,
) -> None:
    level = 1 + lb // 10
    game = _game(rows, "T", lines=lb)
    _rest(game, *rest, falls=falls)
    direction = 0 if control == E.ROTATE_CW else 1
    turned = E.try_rotate(game.board, T, *rest, direction)
    assert tuple(int(v) for v in turned) == (1, *end, kick)
    by_search = game.copy()
    # The rotation, then the gravity step that finds the T resting locks it with the spin credit.
    assert E.primitive_step(game.board, game.st, game.seq, control) == points * level
    assert game.lines == lb + k and game.pieces == 1
    assert game.combo == (0 if k else -1)
    assert game.back_to_back == (k > 0)
    index = by_search.candidate_index(end[0], end[2])
    if searched:
        assert index is not None
        row = by_search.candidate_rows()[index]
        assert (row[E.C_Y_LAND], row[E.C_DROP], row[E.C_SPIN]) == (end[1], 0, spin)
        assert _clear(_play(by_search, end[0], end[2])) == (k, points * level)
        assert np.array_equal(by_search.board, game.board)
        assert by_search.score == game.score
    elif index is not None:
        # What the search lists for that (x, rotation) is not the kicked-in spin.
        assert by_search.candidate_rows()[index][E.C_Y_LAND] != end[1]


def test_kick_test_five_makes_a_full_t_spin_with_a_front_corner_open() -> None:
    # The TST slot with a hole at (4, 19), under the notch: test 5 still puts the T pointing left
    # at (4, 17), with three corners filled but the front corner (4, 19) open. A mini by the
    # corners; the last kick test makes it a full T-spin (double: row 19 keeps its hole).
    rows = [".....##...", "......#...", "#####.####", "####..####", "####..####"]
    game = _game(rows, "T")
    _rest(game, 3, 15, 0, falls=False)
    turned = E.try_rotate(game.board, T, 3, 15, 0, 1)
    assert tuple(int(v) for v in turned) == (1, 4, 17, 3, 4)
    assert E.primitive_step(game.board, game.st, game.seq, E.ROTATE_CCW) == 1200
    assert game.lines == 2


L, R, CW, CCW, SOFT = E.LEFT, E.RIGHT, E.ROTATE_CW, E.ROTATE_CCW, E.SOFT_DROP


@pytest.mark.parametrize(
    ("case", "controls", "points"),
    [
        # Turn left, two steps left, soft-drop to y=16, a blocked RIGHT while gravity brings it to
        # rest at (1, 17), then turn into the notch.
        ("mini-single", [CCW, L, L, *[SOFT] * 7, R, CW], 200),
        # Turn right, three steps left, soft-drop to rest at (0, 17), then point it down.
        ("full-double", [CW, L, L, L, *[SOFT] * 7, CW], 1200),
    ],
)
def test_t_spin_driven_from_spawn_with_the_controls(
    case: str, controls: list[int], points: int
) -> None:
    rows = next(c[1] for c in SPIN_CASES if c[0] == case)
    game = _game(rows, "T")
    for control in controls[:-1]:
        E.primitive_step(game.board, game.st, game.seq, control)
        assert game.pieces == 0
    rest = next(c[2] for c in SPIN_CASES if c[0] == case)
    assert game.active == (T, *rest)
    assert E.primitive_step(game.board, game.st, game.seq, controls[-1]) == points
    assert game.pieces == 1


def test_t_that_fell_into_a_three_corner_spot_is_no_spin() -> None:
    # Pointing right at (0, 17), three corners are filled ((0, 17), (0, 19), (2, 19)) and only one
    # front corner: a mini if it had turned there. It turned at the top and fell: a plain single.
    game = _game([ROOF, "...#######", "#.########"], "T")
    by_controls = game.copy()
    row = _play(game, 0, 1)
    assert (row[E.C_Y_LAND], row[E.C_SPIN]) == (17, SPIN_NONE)
    assert _clear(row) == (1, SINGLE)
    # The same with the controls: fallen to rest there, a blocked LEFT, then gravity locks it.
    _rest(by_controls, 0, 17, 1)
    assert E.primitive_step(by_controls.board, by_controls.st, by_controls.seq, E.LEFT) == SINGLE
    assert by_controls.pieces == 1


# --- back-to-back -------------------------------------------------------------------------------

EIGHT_WELL_ROWS = ["#########."] * 8 + [".#########"]


def test_back_to_back_tetris_after_tetris_scores_one_and_a_half() -> None:
    game = _game(EIGHT_WELL_ROWS, "I", "IIIII")
    assert _clear(_play(game, *I_COL9)) == (4, TETRIS)
    assert game.back_to_back
    # x1.5 on the tetris, plus the second consecutive clear's combo (+50 x 1).
    assert _clear(_play(game, *I_COL9)) == (4, TETRIS * 3 // 2 + 50)
    assert game.back_to_back


def test_back_to_back_tetris_after_t_spin_double() -> None:
    rows = [ROOF, "...#######", "#.########", *["#########."] * 4]
    game = _game(rows, "T", "IIIII")
    _rest(game, 0, 13, 1)
    row = _play(game, 0, 2)
    assert row[E.C_SPIN] == SPIN_FULL
    assert _clear(row) == (2, 1200)
    assert game.back_to_back
    assert _clear(_play(game, *I_COL9)) == (4, TETRIS * 3 // 2 + 50)


@pytest.mark.parametrize(
    ("case", "k", "points"),
    [("full-single", 1, 800), ("full-double", 2, 1200)],
)
def test_back_to_back_line_clearing_t_spin_after_a_tetris(case: str, k: int, points: int) -> None:
    rows, rest = next((c[1], c[2]) for c in SPIN_CASES if c[0] == case)
    game = _game(rows, "T", back_to_back=True)
    _rest(game, *rest)
    row = _play(game, 0, 2)
    assert row[E.C_SPIN] == SPIN_FULL
    assert _clear(row) == (k, points * 3 // 2)
    assert game.back_to_back


def test_back_to_back_t_spin_triple_after_a_tetris() -> None:
    rows, rest, control = next((c[1], c[2], c[3]) for c in SPIN_CASES if c[0] == "full-triple")
    game = _game(rows, "T", back_to_back=True)
    _rest(game, *rest, falls=False)
    assert E.primitive_step(game.board, game.st, game.seq, control) == 1600 * 3 // 2


def test_single_after_tetris_breaks_back_to_back() -> None:
    rows = ["######....", *EIGHT_WELL_ROWS]
    game = _game(rows, "I", "IIIII")
    assert _clear(_play(game, *I_COL9)) == (4, TETRIS)
    assert _clear(_play(game, 6, 0)) == (1, SINGLE + 50)  # no x1.5 on a single; combo 1
    assert not game.back_to_back
    assert _clear(_play(game, *I_COL9)) == (4, TETRIS + 100)  # no x1.5; combo 2


def test_single_with_back_to_back_pending_is_not_multiplied_and_clears_it() -> None:
    game = _game(["######....", ".#########"], "I", back_to_back=True)
    assert _clear(_play(game, 6, 0)) == (1, SINGLE)
    assert not game.back_to_back


def test_non_clearing_placement_between_keeps_back_to_back() -> None:
    game = _game(EIGHT_WELL_ROWS, "I", "OIIII")
    assert _clear(_play(game, *I_COL9)) == (4, TETRIS)
    assert _clear(_play(game, -1, 0)) == (0, 0)  # an O on the left, no clear
    assert game.back_to_back and game.combo == -1
    assert _clear(_play(game, *I_COL9)) == (4, TETRIS * 3 // 2)  # the combo restarted: no bonus


def test_t_spin_without_lines_keeps_back_to_back() -> None:
    rows, rest = next((c[1], c[2]) for c in SPIN_CASES if c[0] == "full-no-line")
    game = _game(rows, "T", back_to_back=True)
    _rest(game, *rest)
    assert _clear(_play(game, 0, 2)) == (0, 400)
    assert game.back_to_back


# --- combos -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lines_before", [0, 10], ids=["level1", "level2"])
def test_combo_adds_fifty_times_n_for_the_nth_consecutive_clear_and_resets(
    lines_before: int,
) -> None:
    level = 1 + lines_before // 10
    # Five rows a flat I completes one at a time, above a garbage row.
    game = _game(["######...."] * 5 + [".#########"], "I", "IIIOI", lines=lines_before)
    for n in range(4):
        assert game.combo == n - 1
        assert _clear(_play(game, 6, 0)) == (1, (SINGLE + 50 * n) * level)
        assert game.combo == n
    assert _clear(_play(game, -1, 0)) == (0, 0)  # the O clears nothing: the combo resets
    assert game.combo == -1
    assert _clear(_play(game, 6, 0)) == (1, SINGLE * level)
    assert game.combo == 0


# --- perfect clears -----------------------------------------------------------------------------

PERFECT = [
    ("single", ["######...."], "I", (6, 0), 1, False, SINGLE + 800),
    ("double", ["########.."] * 2, "O", (7, 0), 2, False, DOUBLE + 1200),
    ("triple", ["########..", "#########.", "#########."], "L", (8, 3), 3, False, TRIPLE + 1800),
    ("tetris", ["#########."] * 4, "I", I_COL9, 4, False, TETRIS + 2000),
    ("back-to-back-tetris", ["#########."] * 4, "I", I_COL9, 4, True, TETRIS * 3 // 2 + 3200),
]


@pytest.mark.parametrize(
    ("rows", "piece", "placement", "k", "b2b", "points", "lines_before"),
    [
        pytest.param(*case[1:], lb, id=f"{case[0]}-level{1 + lb // 10}")
        for case in PERFECT
        for lb in (0, 10)
    ],
)
def test_perfect_clear_bonus(
    rows: list[str],
    piece: str,
    placement: tuple[int, int],
    k: int,
    b2b: bool,
    points: int,
    lines_before: int,
) -> None:
    game = _game(rows, piece, back_to_back=b2b, lines=lines_before)
    assert _clear(_play(game, *placement)) == (k, points * (1 + lines_before // 10))
    assert not game.board.any()


# --- drop points and level ----------------------------------------------------------------------


@pytest.mark.parametrize("lines_before", [0, 10, 25])
def test_drop_points_are_two_per_row_and_not_multiplied_by_the_level(lines_before: int) -> None:
    game = _game([], "T", lines=lines_before)
    row = _play(game, 3, 0)
    assert (row[E.C_Y_START], row[E.C_Y_LAND]) == (-1, 18)
    assert row[E.C_SCORE_DELTA] == row[E.C_DROP] == 2 * 19


def test_drop_points_count_from_the_height_the_piece_has_fallen_to() -> None:
    game = _game([], "T")
    assert game.fall(5 * game.gravity_ms()) == (5, False)
    game.refresh()
    row = _play(game, 0, 0)
    assert (row[E.C_Y_START], row[E.C_Y_LAND], row[E.C_DROP]) == (4, 18, 2 * 14)


@pytest.mark.parametrize(
    ("lines", "level"), [(0, 1), (9, 1), (10, 2), (19, 2), (20, 3), (35, 4), (99, 10)]
)
def test_level_is_one_plus_lines_over_ten(lines: int, level: int) -> None:
    assert _game([], "T", lines=lines).level == level


def test_clear_points_use_the_level_before_the_clear() -> None:
    game = _game(["#########."] * 4 + [".#########"], "I", "IIIII", lines=8)
    assert _clear(_play(game, *I_COL9)) == (4, TETRIS)  # level 1 when it cleared
    assert (game.lines, game.level) == (12, 2)


def test_a_new_game_starts_at_level_one_with_no_combo_or_back_to_back() -> None:
    game = TetrisGame("seed-01")
    assert (game.level, game.score, game.lines, game.combo, game.back_to_back) == (
        1,
        0,
        0,
        -1,
        False,
    )


# --- classic (NARCADE) scoring ------------------------------------------------------------------


def _classic(rows: list[str], active: str, queue: str, *, lines: int = 0) -> TetrisGame:
    """A classic-scoring game (difficulty medium) set to a position."""
    game = TetrisGame("classic", scoring="classic", difficulty="medium")
    game.board[:] = 0
    for i, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == "#":
                game.board[20 - len(rows) + i, c] = PIECE_LETTERS.index("I") + 1
    game.seq[: len(queue)] = [PIECE_LETTERS.index(p) for p in queue]
    st = game.st
    st[E.S_QPOS] = 0
    st[E.S_LINES] = lines
    st[E.S_LEVEL] = E.level_for(st[E.S_SCORING], st[E.S_START_LEVEL], lines)
    E.spawn(game.board, st, PIECE_LETTERS.index(active))
    game.refresh()
    return game


@pytest.mark.parametrize(("difficulty", "level"), [("easy", 0), ("medium", 4), ("hard", 9)])
def test_classic_start_level_follows_the_difficulty(difficulty: str, level: int) -> None:
    assert TetrisGame(7, scoring="classic", difficulty=difficulty).level == level


@pytest.mark.parametrize(
    ("k", "base"),
    [(1, 40), (2, 100), (3, 300), (4, 1200)],
    ids=["single", "double", "triple", "tetris"],
)
def test_classic_line_clears_score_base_times_level_plus_one(k: int, base: int) -> None:
    game = _classic(["#########."] * k + [".#########"], "I", "IIIII")
    assert game.level == 4
    row = _play(game, *I_COL9)
    assert row[E.C_DROP] == 0  # a line-clear score: nothing for dropping
    assert _clear(row) == (k, base * 5)


def test_classic_level_rises_every_ten_lines_from_the_start_level() -> None:
    game = _classic(["########.."] * 4 + [".#########"], "O", "OIIII", lines=8)
    assert _clear(_play(game, 7, 0)) == (2, 100 * 5)  # level 4 when it cleared
    assert (game.lines, game.level) == (10, 5)
    assert _clear(_play(game, 7, 0)) == (2, 100 * 6)


def test_classic_has_no_back_to_back_or_combo_bonus() -> None:
    game = _classic(EIGHT_WELL_ROWS, "I", "IIIII")
    assert _clear(_play(game, *I_COL9)) == (4, 1200 * 5)
    assert _clear(_play(game, *I_COL9)) == (4, 1200 * 5)
