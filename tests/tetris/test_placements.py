"""Placements, features, determinism, the seven-bag, hashes, gravity and Blitz timing.

The property tests play random games (random seeds, random candidate indices, holds and stretches
of gravity) and check every question on the way against definitions written here from
`docs/rules/tetris.md`: a candidate rests where it is listed, outcomes are distinct, the list is
exactly what an independent breadth-first search over shifts and rotations finds, and the
features match.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import BlitzOutcome, TetrisGame
from arcade_gym.tetris.rules import PIECE_LETTERS, SHAPES, gravity_interval_ms

Cells = frozenset[tuple[int, int]]

# --- definitions written from docs/rules/tetris.md ----------------------------------------------


def _cells(t: int, x: int, y: int, r: int) -> Cells:
    return frozenset((x + int(dx), y + int(dy)) for dx, dy in SHAPES[t, r])


def _hits(board: np.ndarray, cells: Cells) -> bool:
    return any(not 0 <= cx < 10 or cy >= 20 or (cy >= 0 and board[cy, cx] != 0) for cx, cy in cells)


def _reachable(board: np.ndarray, t: int, x0: int, y0: int, r0: int) -> set[tuple[int, int, int]]:
    """Every (x, y, rotation) reachable by shifts and SRS rotations at or above row y0."""
    seen = {(x0, y0, r0)}
    queue = deque(seen)
    while queue:
        x, y, r = queue.popleft()
        moves = [(x + dx, y, r) for dx in (-1, 1) if not _hits(board, _cells(t, x + dx, y, r))]
        for direction in (0, 1):
            ok, nx, ny, nr, _ = E.try_rotate(board, t, x, y, r, direction)
            if ok:
                moves.append((int(nx), int(ny), int(nr)))
        for state in moves:
            if state[1] <= y0 and state not in seen:
                seen.add(state)
                queue.append(state)
    return seen


def _expected_candidates(game: TetrisGame) -> set[tuple[int, int, int, int]]:
    """(x, rotation, y_start, y_land) of every distinct outcome, as `docs/rules/tetris.md` says.

    Per (x, rotation) the piece is hard-dropped from the lowest height it reaches; outcomes with
    the same cells are listed once: the one with more drop points (the only score difference
    between two placements of one non-T piece with the same cells), on a tie the lower rotation.
    """
    t, x0, y0, r0 = game.active
    lowest: dict[tuple[int, int], int] = {}
    for x, y, r in _reachable(game.board, t, x0, y0, r0):
        lowest[(x, r)] = max(y, lowest.get((x, r), y))
    best: dict[Cells, tuple[int, int, int, int]] = {}
    for (x, r), y in lowest.items():
        land = y
        while not _hits(game.board, _cells(t, x, land + 1, r)):
            land += 1
        key = _cells(t, x, land, r)
        rank = (-(land - y), r, x, y)
        if key not in best or rank < best[key]:
            best[key] = rank
    return {(x, r, y, y - drop) for drop, r, x, y in best.values()}


def _features(board: np.ndarray) -> list[int]:
    """10 heights, maxHeight, aggregateHeight, holes, bumpiness, wells, row and col transitions."""
    filled = board != 0
    heights = [20 - int(np.argmax(col)) if col.any() else 0 for col in filled.T]
    holes = sum(int(np.sum(~col[np.argmax(col) :])) for col in filled.T if col.any())
    walled = [10**9, *heights, 10**9]
    wells = sum(max(0, min(walled[c], walled[c + 2]) - heights[c]) for c in range(10))

    def changes(line: list[bool]) -> int:
        return sum(a != b for a, b in pairwise(line))

    return [
        *heights,
        max(heights),
        sum(heights),
        holes,
        sum(abs(a - b) for a, b in pairwise(heights)),
        wells,
        sum(changes([True, *row, True]) for row in filled.tolist()),
        sum(changes([*col, True]) for col in filled.T.tolist()),
    ]


def _candidate_table(game: TetrisGame) -> set[tuple[int, int, int, int]]:
    rows = game.candidate_rows()
    return {(int(a[E.C_X]), int(a[E.C_ROT]), int(a[E.C_Y_START]), int(a[E.C_Y_LAND])) for a in rows}


# --- random games -------------------------------------------------------------------------------

SEEDS = st.one_of(st.integers(0, 2**63), st.text("abcdefghij-0123456789", min_size=1, max_size=12))
ACTIONS = st.lists(
    st.tuples(st.sampled_from(["play", "play", "play", "hold", "fall"]), st.integers(0, 10**6)),
    min_size=1,
    max_size=40,
)


def _act(game: TetrisGame, kind: str, pick: int) -> None:
    """One step of a random game: play candidate `pick % n`, hold, or let gravity act."""
    if kind == "hold" and game.can_hold:
        game.hold()
    elif kind == "fall":
        game.fall(pick % 9000)
        game.refresh()
    else:
        x, r = game.legal_placements()[pick % game.n_candidates]
        game.play(x, r)


def _questions(seed: str | int, actions: list[tuple[str, int]]) -> Iterator[TetrisGame]:
    """Yield the game at every question of a random game."""
    game = TetrisGame(seed)
    for kind, pick in actions:
        if game.over:
            return
        yield game
        _act(game, kind, pick)


@settings(max_examples=40, deadline=None)
@given(SEEDS, ACTIONS)
def test_every_candidate_rests_where_listed_and_outcomes_are_distinct(seed, actions) -> None:
    for game in _questions(seed, actions):
        t, _, y0, _ = game.active
        outcomes = set()
        assert game.n_candidates > 0
        for row in game.candidate_rows():
            x, r, y_start, y_land = (int(row[c]) for c in (E.C_X, E.C_ROT, E.C_Y_START, E.C_Y_LAND))
            assert y_start <= y0  # reached at or above the current height
            assert not _hits(game.board, _cells(t, x, y_land, r))
            assert _hits(game.board, _cells(t, x, y_land + 1, r))
            assert row[E.C_DROP] == 2 * (y_land - y_start)
            outcomes.add(_cells(t, x, y_land, r))
        assert len(outcomes) == game.n_candidates


@settings(max_examples=40, deadline=None)
@given(SEEDS, ACTIONS)
def test_candidates_are_exactly_the_reachable_distinct_outcomes(seed, actions) -> None:
    for game in _questions(seed, actions):
        assert _candidate_table(game) == _expected_candidates(game)


@settings(max_examples=30, deadline=None)
@given(SEEDS, ACTIONS)
def test_candidate_features_are_the_features_of_the_afterstate(seed, actions) -> None:
    for game in _questions(seed, actions):
        assert game.features().tolist() == _features(game.board)
        for i, row in enumerate(game.candidate_rows()):
            after = game.afterstate(i)
            expected = np.zeros(E.FEATURES_LEN, np.int64)
            E.board_features(after, expected)
            assert game.candidate_features()[i].tolist() == expected.tolist()
            assert expected.tolist() == _features(after)
            placed = game.board.copy()
            E.lock_cells(placed, game.active[0], row[E.C_X], row[E.C_Y_LAND], row[E.C_ROT])
            assert row[E.C_LINES] == int(np.all(placed != 0, axis=1).sum())


@settings(max_examples=30, deadline=None)
@given(SEEDS, ACTIONS)
def test_same_seed_and_actions_give_the_same_hash_sequence(seed, actions) -> None:
    runs = []
    for _ in range(2):
        game = TetrisGame(seed)
        hashes = [game.state_hash()]
        for kind, pick in actions:
            if game.over:
                break
            _act(game, kind, pick)
            hashes.append(game.state_hash())
        runs.append(hashes)
    assert runs[0] == runs[1]


@settings(max_examples=30, deadline=None)
@given(SEEDS, ACTIONS)
def test_hash_is_eight_lowercase_hex_digits_and_changes_every_tick(seed, actions) -> None:
    game = TetrisGame(seed)
    seen = [game.state_hash()]
    for kind, pick in actions:
        if game.over:
            break
        tick = game.tick
        _act(game, "play" if kind == "fall" else kind, pick)
        assert game.tick == tick + 1
        seen.append(game.state_hash())
        assert re.fullmatch(r"[0-9a-f]{8}", seen[-1])
        assert seen[-1] != seen[-2]


def test_hash_changes_when_only_the_tick_changes() -> None:
    game = TetrisGame("seed-01")
    hashes = [game.state_hash()]
    for _ in range(20):
        game.skip()
        hashes.append(game.state_hash())
    assert len(set(hashes)) == len(hashes)


@settings(max_examples=50, deadline=None)
@given(SEEDS)
def test_every_seven_bag_block_is_a_permutation_of_the_seven_pieces(seed) -> None:
    game = TetrisGame(seed)
    seq = game.seq.tolist()
    assert [game.active[0], *game.next_pieces] == seq[:6]
    for start in range(0, len(seq) - 6, 7):
        assert sorted(seq[start : start + 7]) == list(range(7)), f"bag at {start}"


def test_pieces_come_in_sequence_order() -> None:
    game = TetrisGame(12345)
    for k in range(30):
        assert game.active[0] == game.seq[k]
        assert game.next_pieces == game.seq[k + 1 : k + 6].tolist()
        # A low, flat stacker so the game lasts.
        feats = game.candidate_features()[:, [E.F_MAX_HEIGHT, E.F_HOLES, E.F_BUMPINESS]].tolist()
        best = min(range(game.n_candidates), key=feats.__getitem__)
        game.play(*game.legal_placements()[best])
    assert not game.over


# --- placements on an empty board ---------------------------------------------------------------

# (rotation -> x range) of the listed placements; duplicates keep rotation 0 (flat: more drop
# points) and rotation 1 (vertical: a tie, the lower rotation).
EMPTY_BOARD = {
    "T": {0: range(0, 8), 1: range(-1, 8), 2: range(0, 8), 3: range(0, 9)},
    "J": {0: range(0, 8), 1: range(-1, 8), 2: range(0, 8), 3: range(0, 9)},
    "L": {0: range(0, 8), 1: range(-1, 8), 2: range(0, 8), 3: range(0, 9)},
    "O": {0: range(-1, 8)},
    "I": {0: range(0, 7), 1: range(-2, 8)},
    "S": {0: range(0, 8), 1: range(-1, 8)},
    "Z": {0: range(0, 8), 1: range(-1, 8)},
}


@pytest.mark.parametrize(
    ("piece", "count"), [("T", 34), ("O", 9), ("I", 17), ("S", 17), ("Z", 17), ("J", 34), ("L", 34)]
)
def test_placement_count_on_an_empty_board(piece: str, count: int) -> None:
    game = TetrisGame.from_position([], piece, "IIIII")
    assert game.n_candidates == count
    expected = {(x, r) for r, xs in EMPTY_BOARD[piece].items() for x in xs}
    assert len(expected) == count
    assert set(game.legal_placements()) == expected


def test_flat_i_is_listed_as_rotation_zero_with_more_drop_points_than_rotation_two() -> None:
    game = TetrisGame.from_position([], "I", "IIIII")
    row = game.candidate_rows()[game.candidate_index(0, 0)]
    # Rotation 0 from y=-1 lands at y=18 (19 rows); rotation 2 would land at y=17 (18 rows).
    assert (row[E.C_Y_START], row[E.C_Y_LAND], row[E.C_DROP]) == (-1, 18, 38)


def test_duplicate_outcome_keeps_the_higher_score_even_from_the_higher_rotation() -> None:
    # One cell at (7, 1). A vertical I into column 9: rotation 1 (x=7) gets there at y=-1 by
    # turning at x=6 and shifting; rotation 3 (x=8) only by kicking up: from R at (7, -1), R -> 2
    # fails tests 1-3 and takes test 4, SRS (-1, +2) = up two, to (6, -3); 2 -> L turns in place
    # and it shifts right twice. Both land in column 9, rows 16-19: rotation 3 drops 19 rows
    # (38 points), rotation 1 drops 17 (34). The higher score wins over the lower rotation.
    game = TetrisGame.from_position([], "I", "IIIII")
    game.board[1, 7] = 1
    game.refresh()
    assert game.candidate_index(7, 1) is None
    row = game.candidate_rows()[game.candidate_index(8, 3)]
    assert (row[E.C_Y_START], row[E.C_Y_LAND], row[E.C_DROP]) == (-3, 16, 38)


# --- gravity ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "ms"),
    [(1, 1000), (2, 800), (3, 640), (4, 512), (5, 410), (6, 328), (10, 134), (15, 44), (19, 18),
     (20, 16), (30, 16)],
)  # fmt: skip
def test_gravity_interval_is_max_16_round_1000_times_0_8_to_the_level_minus_one(
    level: int, ms: int
) -> None:
    assert gravity_interval_ms(level) == ms


@pytest.mark.parametrize(
    ("scoring", "difficulty", "lines", "ms"),
    [
        ("guideline", "easy", 0, 1000),
        ("guideline", "easy", 20, 640),
        ("classic", "medium", 0, 410),  # classic level 4 -> L = 5
        ("classic", "hard", 0, 134),  # classic level 9 -> L = 10
    ],
)
def test_game_gravity_uses_its_level(scoring: str, difficulty: str, lines: int, ms: int) -> None:
    game = TetrisGame("g", scoring=scoring, difficulty=difficulty)
    game.st[E.S_LINES] = lines
    game.st[E.S_LEVEL] = E.level_for(game.st[E.S_SCORING], game.st[E.S_START_LEVEL], lines)
    assert game.gravity_ms() == ms


# --- Blitz --------------------------------------------------------------------------------------


def _t_at_spawn(rows: list[str] | None = None, **kw: int) -> TetrisGame:
    return TetrisGame.from_position(rows or [], "T", "IIIII", **kw)


@pytest.mark.parametrize(("lines", "interval"), [(0, 1000), (10, 800), (20, 640)])
def test_fall_moves_one_row_per_interval_and_carries_the_remainder(
    lines: int, interval: int
) -> None:
    game = _t_at_spawn(lines=lines)
    assert game.fall(2 * interval + interval // 2) == (2, False)
    assert game.active[2] == 1
    assert game.fall(interval // 2 - 1) == (0, False)
    assert game.active[2] == 1
    assert game.fall(1) == (1, False)
    assert game.active[2] == 2
    assert game.fall(0) == (0, False)


def test_resting_piece_locks_on_the_next_gravity_step() -> None:
    game = _t_at_spawn()
    assert game.fall(19 * 1000) == (19, False)  # from y=-1 down to rest at y=18
    assert game.active == (PIECE_LETTERS.index("T"), 3, 18, 0) and game.pieces == 0
    assert game.fall(999)[1] is False
    assert game.fall(1)[1] is True
    assert game.pieces == 1
    assert {(int(c), int(r)) for r, c in zip(*np.nonzero(game.board), strict=True)} == {
        (4, 18),
        (3, 19),
        (4, 19),
        (5, 19),
    }


def test_blitz_answer_in_time_plays_from_the_asked_height() -> None:
    game = _t_at_spawn()
    result = game.blitz_answer((0, 0), False, 999)
    assert (result.outcome, result.rows_fallen, result.score_delta) == (BlitzOutcome.IN_TIME, 0, 38)
    assert game.pieces == 1 and game.tick == 1


def test_blitz_answer_still_reachable_after_falling_is_late() -> None:
    game = _t_at_spawn()
    result = game.blitz_answer((0, 0), False, 3500)
    # Gravity took it to y=2; it is played from there: 16 rows to y=18.
    assert (result.outcome, result.rows_fallen, result.score_delta) == (BlitzOutcome.LATE, 3, 32)
    assert game.board[19, 0] and game.board[19, 2] and game.board[18, 1]
    assert game.pieces == 1 and game.tick == 1


def test_blitz_piece_resting_when_gravity_steps_is_locked_by_gravity() -> None:
    game = _t_at_spawn()
    game.fall(19 * 1000)
    game.refresh()  # the question asked at the resting height
    result = game.blitz_answer((0, 0), False, 1000)
    assert result.outcome == BlitzOutcome.LOCKED_BY_GRAVITY
    assert result.score_delta == 0  # locked where it rests: no drop points
    assert game.pieces == 1 and game.tick == 1
    assert game.board[18, 4] and game.board[19, 3:6].all()  # at x=3, not the chosen x=0


def test_blitz_placement_cut_off_by_a_wall_once_lower_is_unreachable() -> None:
    # A wall in column 6 from row 5 down. At y=-1 the T crosses above it to x=7; at y=4 it cannot.
    game = _t_at_spawn(["......#..."] * 15)
    assert game.candidate_index(7, 0) is not None
    result = game.blitz_answer((7, 0), False, 5000)
    assert (result.outcome, result.rows_fallen, result.score_delta) == (
        BlitzOutcome.UNREACHABLE,
        5,
        0,
    )
    assert game.pieces == 0 and game.tick == 1
    assert game.active == (PIECE_LETTERS.index("T"), 3, 4, 0)
    # The next question asks again from the new height.
    assert game.candidate_index(7, 0) is None
    assert (game.candidate_rows()[:, E.C_Y_START] <= 4).all()
    again = game.blitz_answer((0, 0), False, 0)
    assert (again.outcome, again.score_delta) == (BlitzOutcome.IN_TIME, 2 * 14)


def test_blitz_placement_that_would_land_elsewhere_once_lower_is_unreachable() -> None:
    # A shelf at row 8, columns 7-9. From y=-1, (7, 0) lands on the shelf (y=6); after gravity takes
    # the T below the shelf, (7, 0) slides under it and would land on the floor instead.
    game = _t_at_spawn([".......###"] + [".........."] * 11)
    assert game.candidate_rows()[game.candidate_index(7, 0), E.C_Y_LAND] == 6
    result = game.blitz_answer((7, 0), False, 10_000)
    assert (result.outcome, result.rows_fallen) == (BlitzOutcome.UNREACHABLE, 10)
    assert game.pieces == 0
    assert game.candidate_rows()[game.candidate_index(7, 0), E.C_Y_LAND] == 18
