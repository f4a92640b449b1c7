"""Minesweeper rules: generation, counts, flood fill, flags, ends, score, questions, contract."""

from __future__ import annotations

import json
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.minesweeper import engine as E
from arcade_gym.minesweeper.contract import (
    MinesweeperAnswer,
    MinesweeperQuestion,
    parse_action,
    validate,
)
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.minesweeper.render import board_rows, board_view, render_ansi, render_rgb
from arcade_gym.minesweeper.rules import (
    DIFFICULTIES,
    HIDDEN,
    MINE,
    RULES_VERSION,
    action_from_index,
    action_index,
)

SEEDS = st.one_of(st.integers(0, 2**64 - 1), st.text(max_size=12))
LEVELS = st.sampled_from(list(DIFFICULTIES))
REDRAW_SEED = 28106
"""An easy seed whose first mine layout the opening alone solved (found by a scan)."""


# --- a pure-Python reading of the rules (the oracle) ------------------------------------------
def _neighbours(r: int, c: int, rows: int, cols: int) -> list[tuple[int, int]]:
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


def _oracle_counts(mines: np.ndarray) -> np.ndarray:
    rows, cols = mines.shape
    out = np.zeros((rows, cols), np.int64)
    for r in range(rows):
        for c in range(cols):
            out[r, c] = sum(bool(mines[p]) for p in _neighbours(r, c, rows, cols))
    return out


def _oracle_reveal(mines: np.ndarray, view: np.ndarray, r: int, c: int) -> int:
    """Breadth-first flood fill: reveal (r, c); open the hidden neighbours of every zero."""
    if mines[r, c]:
        return -1
    counts = _oracle_counts(mines)
    view[r, c] = counts[r, c]
    gained = 1
    queue = deque([(r, c)])
    while queue:
        cell = queue.popleft()
        if counts[cell] != 0:
            continue
        for p in _neighbours(*cell, *mines.shape):
            if view[p] == HIDDEN:
                view[p] = counts[p]
                gained += 1
                queue.append(p)
    return gained


# --- generation -------------------------------------------------------------------------------
def test_difficulties_are_the_rules_table() -> None:
    assert RULES_VERSION == "0.4.0"
    sizes = {name: (d.rows, d.cols, d.mines) for name, d in DIFFICULTIES.items()}
    assert sizes == {"easy": (9, 9, 10), "medium": (16, 16, 40), "hard": (16, 30, 99)}


@settings(max_examples=60, deadline=None)
@given(SEEDS, LEVELS)
def test_board_has_its_mines_a_clear_opening_and_true_counts(seed: int | str, level: str) -> None:
    game = MinesweeperGame(seed, level)
    spec = DIFFICULTIES[level]
    mines = game.mines
    assert mines.shape == (spec.rows, spec.cols)
    assert int(mines.sum()) == spec.mines
    r0, c0 = game.opening
    assert not mines[max(0, r0 - 1) : r0 + 2, max(0, c0 - 1) : c0 + 2].any()
    field = game.field_grid
    assert np.array_equal(field[~mines], _oracle_counts(mines)[~mines])
    assert (field[mines] == MINE).all()


@settings(max_examples=60, deadline=None)
@given(SEEDS, LEVELS)
def test_the_opening_is_the_oracle_flood_fill(seed: int | str, level: str) -> None:
    game = MinesweeperGame(seed, level)
    view = np.full(game.board.shape, HIDDEN, np.int64)
    gained = _oracle_reveal(game.mines, view, *game.opening)
    assert np.array_equal(game.board, view)
    assert game.revealed == gained == int((game.board >= 0).sum())
    assert game.field_grid[game.opening] == 0  # its 3x3 is mine-free
    assert game.decisions == 0 and not game.over


@settings(max_examples=40, deadline=None)
@given(SEEDS, LEVELS, st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_play_matches_the_oracle_move_by_move(
    seed: int | str, level: str, picks: list[int]
) -> None:
    """Random legal reveals and flag toggles: the engine's board, reward and end agree with a
    breadth-first pure-Python reading of the rules."""
    game = MinesweeperGame(seed, level)
    view = game.board.astype(np.int64)
    mines = game.mines
    for pick in picks:
        if game.over:
            break
        legal = game.legal_indices()
        kind, r, c = action_from_index(int(legal[pick % legal.size]), game.rows, game.cols)
        if kind == "flag":
            game.flag(r, c)
            view[r, c] = HIDDEN if view[r, c] == -1 else -1
            assert np.array_equal(game.board, view)
            continue
        expected = _oracle_reveal(mines, view, r, c)
        gained = game.reveal(r, c)
        if expected < 0:
            assert gained == 0 and game.lost and game.exploded == (r, c)
            break
        assert gained == expected
        assert np.array_equal(game.board, view)
        assert game.revealed == int((view >= 0).sum())


def test_same_seed_same_board_and_strings_name_boards() -> None:
    a, b = MinesweeperGame(100, "medium"), MinesweeperGame(100, "medium")
    assert np.array_equal(a.field, b.field) and a.opening == b.opening
    assert not np.array_equal(a.field, MinesweeperGame(101, "medium").field)
    named = MinesweeperGame("seed-01", "hard")
    assert np.array_equal(named.field, MinesweeperGame("seed-01", "hard").field)
    a.reset(7)
    assert np.array_equal(a.field, MinesweeperGame(7, "medium").field)


def test_a_layout_the_opening_would_solve_is_redrawn() -> None:
    game = MinesweeperGame(REDRAW_SEED, "easy")
    assert game.st[E.S_REDRAWS] >= 1
    assert not game.over and game.revealed < game.safe_cells
    assert int(game.mines.sum()) == 10


def test_bad_construction_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="difficulty"):
        MinesweeperGame(0, "expert")
    with pytest.raises(TypeError, match="seed"):
        MinesweeperGame(1.5, "easy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_decisions"):
        MinesweeperGame(0, "easy", max_decisions=0)


# --- play -------------------------------------------------------------------------------------
LAYOUT = [
    "*....",
    ".....",
    ".....",
    "...*.",
]


def test_flags_toggle_block_reveals_and_survive_the_flood_fill() -> None:
    game = MinesweeperGame.from_layout(LAYOUT, (1, 0))
    assert game.board[1, 0] == 1 and game.revealed == 1
    game.flag(0, 0)
    assert game.board[0, 0] == -1 and game.flags == 1
    with pytest.raises(ValueError, match="flagged"):
        game.reveal(0, 0)
    game.flag(2, 2)  # a wrong flag on a safe cell
    game.flag(0, 0)  # unflag
    assert game.board[0, 0] == HIDDEN and game.flags == 1
    gained = game.reveal(0, 4)  # a zero: the fill opens around the wrongly flagged cell
    assert game.board[2, 2] == -1  # the fill leaves flags alone
    assert gained == game.revealed - 1
    with pytest.raises(ValueError, match="revealed"):
        game.flag(0, 4)
    assert game.decisions == 4  # refused actions are not decisions


def test_a_mine_ends_the_game() -> None:
    game = MinesweeperGame.from_layout(LAYOUT, (1, 0))
    assert game.reveal(3, 3) == 0
    assert game.lost and game.over and not game.won
    assert game.end_reason == "mine" and game.exploded == (3, 3)
    assert not game.mask.any()
    with pytest.raises(RuntimeError, match="over"):
        game.reveal(0, 4)


def test_revealing_every_safe_cell_wins_and_score_counts_them() -> None:
    game = MinesweeperGame(3, "easy")
    opening = game.revealed
    rewards = 0
    for r, c in np.argwhere(~game.mines):
        if game.board[r, c] == HIDDEN:
            rewards += game.reveal(int(r), int(c))
    assert game.won and game.end_reason == "solved"
    assert game.score == game.revealed == game.safe_cells == 71
    assert rewards + opening == game.score


def test_the_decision_cap_ends_a_game_that_is_not_a_win() -> None:
    game = MinesweeperGame(5, "easy", max_decisions=3)
    hidden = np.argwhere(game.board == HIDDEN)[0]
    for _ in range(3):
        game.flag(int(hidden[0]), int(hidden[1]))
    assert game.capped and game.over and not game.won
    assert game.end_reason == "decision cap"


def test_state_hash_is_8_hex_and_changes_every_decision() -> None:
    game = MinesweeperGame(9, "medium")
    seen = {game.state_hash()}
    r, c = (int(v) for v in np.argwhere(game.board == HIDDEN)[0])
    for _ in range(4):
        game.flag(r, c)
        seen.add(game.state_hash())
    assert len(seen) == 5
    assert all(len(h) == 8 and int(h, 16) >= 0 for h in seen)


# --- questions --------------------------------------------------------------------------------
def test_question_describes_the_board_and_lists_every_legal_action() -> None:
    game = MinesweeperGame(100, "easy")
    q = game.question()
    assert q.game == "minesweeper" and q.rules_version == RULES_VERSION
    assert (q.rows, q.cols, q.mines, q.flags, q.decision) == (9, 9, 10, 0, 0)
    assert q.revealed == game.revealed
    assert board_view(q.board).tolist() == game.board.tolist()
    assert q.board == board_rows(game.board)
    assert all(len(row) == 9 for row in q.board)
    assert sorted(q.actions) == sorted(game.legal_actions())
    assert len(set(q.actions)) == len(q.actions)
    wire = json.loads(q.to_json())
    assert wire["rulesVersion"] == "0.4.0" and wire["stateHash"] == q.state_hash
    assert MinesweeperQuestion.model_validate(wire) == q


def test_question_order_is_deterministic_per_seed_and_decision() -> None:
    a, b = MinesweeperGame(42, "hard"), MinesweeperGame(42, "hard")
    assert a.question().actions == b.question().actions
    first = a.question().actions
    assert first != sorted(first) and first != a.legal_actions()  # shuffled
    r, c = (int(v) for v in np.argwhere(a.board == HIDDEN)[0])
    for game in (a, b):
        game.flag(r, c)
        game.flag(r, c)  # same board as before, next decision
    assert a.question().actions == b.question().actions
    assert sorted(a.question().actions) == sorted(first)
    assert a.question().actions != first  # a new decision, a new order
    other = MinesweeperGame(43, "hard")
    other.reset(42)  # the seed keys the order, not the object
    assert other.question().actions == first


def test_question_after_the_end_is_refused() -> None:
    game = MinesweeperGame.from_layout(LAYOUT, (1, 0))
    game.reveal(0, 0)
    with pytest.raises(RuntimeError):
        game.question()


# --- the contract -----------------------------------------------------------------------------
@pytest.fixture
def question() -> MinesweeperQuestion:
    game = MinesweeperGame.from_layout(LAYOUT, (1, 0))
    game.flag(0, 0)
    return game.question()


@pytest.mark.parametrize(
    "answer",
    [
        MinesweeperAnswer(action="reveal 2 1"),
        {"action": "reveal 2 1"},
        '{"action": "reveal 2 1"}',
        b'{"action": "reveal 2 1"}',
        "reveal 2 1",
        "  Reveal   2  1 ",
        "reveal(2, 1)",
        '"reveal 2 1"',
    ],
)
def test_validate_accepts_every_answer_form(answer: object, question: MinesweeperQuestion) -> None:
    verdict = validate(answer, question)
    assert verdict.usable, verdict.reason
    assert verdict.action == "reveal 2 1"
    assert verdict.index == action_index("reveal", 2, 1, 4, 5)


def test_validate_toggles_a_flag_and_notes_unknown_keys(question: MinesweeperQuestion) -> None:
    verdict = validate({"action": "flag 0 0", "why": "unflag"}, question)
    assert verdict.usable and verdict.index == 20
    assert any("why" in note for note in verdict.notes)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("reveal 0 0", "flagged"),
        ("reveal 1 0", "already revealed"),
        ("flag 1 0", "already revealed"),
        ("reveal 9 9", "off the 4x5 board"),
        ("dig 1 1", "could not read"),
        ({"move": "reveal 2 1"}, "missing"),
        ({"action": 3}, "must be a string"),
        ("{not json", "not valid JSON"),
        (12, "must be an action string"),
        (None, "must be an action string"),
    ],
)
def test_validate_rejects_with_a_reason(
    answer: object, reason: str, question: MinesweeperQuestion
) -> None:
    verdict = validate(answer, question)
    assert verdict.status == "invalid" and not verdict.usable
    assert verdict.reason is not None and reason in verdict.reason
    assert verdict.index is None


JSON_JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        JSON_JUNK,
        st.binary(max_size=40),
        st.text(max_size=60),
        JSON_JUNK.map(lambda v: {"action": v}),
        JSON_JUNK.map(lambda v: json.dumps({"action": v})),
        st.from_regex(r"(reveal|flag|REVEAL) ?-?\d{0,9}[ ,]*\d{0,9}\)?", fullmatch=True),
    )
)
def test_validate_never_raises_on_junk(answer: object) -> None:
    game = MinesweeperGame(11, "easy")
    verdict = validate(answer, game.question())
    assert verdict.status in ("valid", "invalid")
    assert verdict.usable == (verdict.index is not None)


def test_parse_action_is_forgiving_but_bounded() -> None:
    assert parse_action("FLAG 3 4") == ("flag", 3, 4)
    assert parse_action("reveal 3,4") == ("reveal", 3, 4)
    assert parse_action("reveal 3") is None
    assert parse_action("reveal -1 2") is None
    assert parse_action("reveal " + "9" * 500 + " 1") is None


# --- pictures ---------------------------------------------------------------------------------
def test_render_shows_the_board_and_after_a_loss_the_mines() -> None:
    game = MinesweeperGame.from_layout(LAYOUT, (1, 0))
    text = render_ansi(game.board)
    assert text.splitlines()[2] == " 1 1####"
    game.reveal(3, 3)
    text = render_ansi(game.board, game.field_grid, game.exploded)
    assert "*" in text.splitlines()[1] and "X" in text.splitlines()[4]
    image = render_rgb(game.board, game.field_grid, game.exploded, cell_px=12)
    assert image.shape == (48, 60, 3) and image.dtype == np.uint8
    assert render_rgb(game.board, cell_px=1).shape == (4, 5, 3)
    with pytest.raises(ValueError, match=r"-2\.\.8"):
        render_ansi(np.full((2, 2), 9))
