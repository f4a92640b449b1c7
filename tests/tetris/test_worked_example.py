"""The seed's worked example (seed-01, tick 14): features, candidates and the played answer."""

from __future__ import annotations

import pytest

from arcade_gym.tetris import engine as E
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.render import grid_to_rows

ROWS = ["##....##..", "#######.#.", "#########.", "#.####.###", ".##.#####."]


@pytest.fixture
def game() -> TetrisGame:
    return TetrisGame.from_position(
        ROWS, "T", "ZOJIL", score=676, lines=2, pieces=14, tick=14, seed="seed-01"
    )


def test_board_features_match_the_seed(game: TetrisGame) -> None:
    f = [int(v) for v in game.features()]
    assert f[:10] == [5, 5, 4, 4, 4, 4, 5, 5, 4, 2]
    assert f[10:] == [5, 42, 6, 5, 2, 50, 22]


def test_t_piece_has_34_candidates(game: TetrisGame) -> None:
    assert game.active == (5, 3, -1, 0)
    assert game.n_candidates == 34
    assert len(set(game.legal_placements())) == 34


@pytest.mark.parametrize(
    ("placement", "heights", "max_height", "holes", "bumpiness", "wells", "rows"),
    [
        (
            (3, 0),
            [5, 5, 4, 5, 6, 5, 5, 5, 4, 2], 6, 6, 7, 3,
            ["....#.....", "##.#####..", "#######.#.", "#########.", "#.####.###", ".##.#####."],
        ),
        (
            (8, 3),
            [5, 5, 4, 4, 4, 4, 5, 5, 5, 6], 6, 7, 3, 0,
            [".........#", "##....####", "#######.##", "#########.", "#.####.###", ".##.#####."],
        ),
        (
            (2, 0),
            [5, 5, 5, 6, 5, 4, 5, 5, 4, 2], 6, 6, 7, 3,
            ["...#......", "#####.##..", "#######.#.", "#########.", "#.####.###", ".##.#####."],
        ),
    ],
)  # fmt: skip
def test_shown_candidates_match_the_seed(
    game: TetrisGame,
    placement: tuple[int, int],
    heights: list[int],
    max_height: int,
    holes: int,
    bumpiness: int,
    wells: int,
    rows: list[str],
) -> None:
    i = game.candidate_index(*placement)
    assert i is not None
    row = game.candidate_rows()[i]
    feat = [int(v) for v in game.candidate_features()[i]]
    assert feat[:10] == heights
    assert feat[E.F_MAX_HEIGHT] == max_height
    assert feat[E.F_HOLES] == holes
    assert feat[E.F_BUMPINESS] == bumpiness
    assert feat[E.F_WELLS] == wells
    assert row[E.C_DROP] == 30
    assert row[E.C_SCORE_DELTA] == 30
    assert row[E.C_LINES] == 0
    assert row[E.C_TOP_OUT] == 0
    assert grid_to_rows(game.afterstate(i))[14:] == rows


def test_playing_3_0_locks_the_seed_cells_and_scores_706(game: TetrisGame) -> None:
    before = game.board.copy()
    delta = game.play(3, 0)
    assert delta == 30
    assert game.score == 706
    assert game.pieces == 15
    assert game.tick == 15
    new = {
        (int(c), int(r))
        for r, c in zip(*((game.board != 0) & (before == 0)).nonzero(), strict=True)
    }
    assert new == {(4, 14), (3, 15), (4, 15), (5, 15)}
    assert game.active[0] == 6  # Z, the first preview piece


def test_question_carries_the_example_fields(game: TetrisGame) -> None:
    q = game.question()
    assert q.ruleset == "tetris-bench@3"
    assert q.tick == 14 and q.score == 676 and q.lines == 2 and q.pieces == 14
    assert q.level == 1 and q.combo == -1 and q.back_to_back is False
    assert q.next == ["Z", "O", "J", "I", "L"]
    assert q.hold is None and q.can_hold is True
    assert len(q.candidates) == 34
    assert [c.placement for c in q.candidates] == q.legal
    assert q.features.row_transitions == 50 and q.features.col_transitions == 22
    shown = {(c.placement.x, c.placement.rotation): c for c in q.candidates}
    assert shown[(3, 0)].drop_points == 30
    assert shown[(3, 0)].grid[14][4] == "T"
