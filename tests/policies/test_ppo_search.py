"""The play-time search over a `board` network (`policies/ppo/search.py`) and its `ppo:` spec
options: the rules decide what ends a game, an untrained network the rest, so every assertion
here holds whatever the weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from arcade_gym.tictactoe.engine import winner
from arcade_gym.tictactoe.oracle import Position, minimax_move_scores
from arcade_gym.tictactoe.rules import geometry
from policies.ppo.model_file import PPOModel, save_model
from policies.ppo.network import build
from policies.ppo.search import (
    TIE,
    SearchSettings,
    _lazy_depth_two,
    _likeliest,
    _negamax,
    _Rules,
    best_move,
    search_scores,
)
from policies.specs import SpecError, make_policy

ARCH = {"kind": "board", "channels": 4, "layers": 1}


def _net(seed: int = 0) -> torch.nn.Module:
    torch.manual_seed(seed)
    return build(ARCH).eval()


def _stones(rows: list[str], mover: str) -> tuple[np.ndarray, np.ndarray]:
    """(the (n, n, 2) planes, mover's stones first; the legal mask) of a board drawn as rows."""
    board = np.array([list(r) for r in rows])
    other = "O" if mover == "X" else "X"
    stones = np.stack([board == mover, board == other], -1).astype(np.float32)
    return stones, (board == ".").reshape(-1)


def _best(rows: list[str], mover: str, depth: int, width: int = 0, seed: int = 0) -> int:
    stones, legal = _stones(rows, mover)
    move, _ = best_move(_net(seed), stones, legal, SearchSettings(depth, width))
    return move


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_depth_one_completes_a_line_on_every_board(seed: int) -> None:
    assert _best(["XX.", "OO.", "..."], "X", 1, seed=seed) == 2
    five = ["XXX..", "OOO..", ".....", ".....", "....."]
    assert _best(five, "X", 1, seed=seed) == 3
    ten = ["." * 10 for _ in range(10)]
    ten[4] = "..XXXX...."
    ten[6] = "OOOO......"
    assert _best(ten, "X", 1, seed=seed) in (41, 46)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_depth_two_blocks_the_only_threat(seed: int) -> None:
    assert _best(["OO.", "X..", "..X"], "X", 2, seed=seed) == 2
    five = ["XOOO.", ".....", "..X..", ".....", "....X"]  # O's one winning square: (0, 4)
    assert _best(five, "X", 2, seed=seed) == 4


def _quiet_positions(size: int, count: int, seed: int) -> list[tuple[np.ndarray, int]]:
    """Random-play positions (flat boards, side to move) where neither side can complete a line."""
    rng = np.random.default_rng(seed)
    found: list[tuple[np.ndarray, int]] = []
    while len(found) < count:
        board, side = np.zeros(size * size, np.int8), 1
        for _ in range(rng.integers(4, size * size // 2)):
            wins = Position(board, side).threats()
            quiet = [c for c in np.flatnonzero(board == 0) if c not in wins]
            if not quiet:
                break
            board[rng.choice(quiet)] = side
            side = 3 - side
        position = Position(board, side)
        if not position.threats(1) and not position.threats(2):
            found.append((board, side))
    return found


def _planes(board: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    n = round(board.size**0.5)
    stones = np.stack([board == side, board == 3 - side], -1).reshape(n, n, 2)
    return stones.astype(np.float32), board == 0


def test_depth_two_takes_a_fork_whenever_there_is_one() -> None:
    # a fork square (the oracle's: a double threat, a forced win in 3) is proven by depth 2
    # (every reply leaves the mover a winning move at the leaf), whatever the weights
    net, checked = _net(), 0
    for board, side in _quiet_positions(5, 60, seed=11):
        forks = Position(board, side).fork_squares()
        if forks:
            stones, legal = _planes(board, side)
            move, _ = best_move(net, stones, legal, SearchSettings(2))
            assert move in forks, (board.reshape(5, 5), side, forks, move)
            checked += 1
    assert checked >= 3


def test_full_depth_on_a_late_3x3_board_agrees_with_minimax() -> None:
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 30:
        board = np.zeros(9, np.int64)
        cells = rng.permutation(9)[:5]
        board[cells] = [1, 2, 1, 2, 1]
        scores = minimax_move_scores(board, 2)
        rows = ["".join(".XO"[v] for v in board[r * 3 : r * 3 + 3]) for r in range(3)]
        if winner(board.astype(np.int8), geometry(3).windows):
            continue  # X already won: no position to search
        stones, _ = _stones(rows, "O")
        values, _ = search_scores(_net(), stones, SearchSettings(depth=4))
        for cell, exact in scores.items():  # 4 empty squares: every leaf is a finished game
            assert np.sign(values[cell]) == np.sign(exact), (rows, cell)
        checked += 1


@pytest.mark.parametrize("size", [5, 10])
def test_the_lazy_depth_two_search_chooses_as_the_full_one_does(size: int) -> None:
    net = _net(4)
    positions = _quiet_positions(size, 3, seed=size)
    rng = np.random.default_rng(size)
    for board, side in positions:
        stones, legal = _planes(board, side)
        if rng.random() < 0.5:  # and positions with a threat to answer
            board = board.copy()
            free = np.flatnonzero(board == 0)
            board[free[:2]] = 3 - side
        stones, legal = _planes(board, side)
        full, _ = _negamax(net, stones, 2, 0)
        lazy, _ = _lazy_depth_two(net, stones, most=size * size)
        assert np.nanmax(lazy[legal]) == pytest.approx(np.nanmax(full[legal]))
        searched = ~np.isnan(lazy)
        assert np.allclose(lazy[searched], full[searched])  # exact where searched
        best = np.flatnonzero(full >= np.nanmax(full) - TIE)
        assert searched[best].all()  # every best move was searched in full
        capped, _ = _lazy_depth_two(net, stones, most=3)  # at most 3 moves searched, exactly
        assert 1 <= (~np.isnan(capped)).sum() <= 3
        assert np.allclose(capped[~np.isnan(capped)], full[~np.isnan(capped)])


def test_a_budget_of_50000_leaves_plays_3x3_exactly_after_the_first_move() -> None:
    # 8 empty squares: 8! = 40,320 leaves fit, so the search reads every game to its end
    settings = SearchSettings(depth=9, nodes=50_000)
    rng = np.random.default_rng(9)
    for _ in range(6):
        board = np.zeros(9, np.int64)
        plies = int(rng.integers(1, 4))
        cells = rng.permutation(9)[:plies]
        board[cells] = [1 + i % 2 for i in range(plies)]
        side = 1 + plies % 2
        if winner(board.astype(np.int8), geometry(3).windows):
            continue
        assert settings.depth_for(9 - plies) == 9 - plies
        stones, _ = _planes(board, side)
        values, _ = search_scores(_net(), stones, settings)
        for cell, exact in minimax_move_scores(board, side).items():
            assert np.sign(values[cell]) == np.sign(exact), (board.reshape(3, 3), cell)


def test_depth_zero_is_the_network_s_greedy_move() -> None:
    stones, legal = _stones(["X..", ".O.", "..."], "X")
    net = _net(3)
    with torch.no_grad():
        logits, _ = net(torch.as_tensor(stones[None]))
    expected = int(np.argmax(np.where(legal, logits[0].numpy(), -np.inf)))
    assert best_move(net, stones, legal, SearchSettings(0))[0] == expected


def test_a_narrow_search_still_expands_every_move_that_ends_the_game() -> None:
    rules = _Rules(3)
    own = np.array([[1, 1, 0, 0, 0, 0, 0, 0, 0]], bool)
    parent, cell = np.zeros(7, np.int64), np.arange(2, 9)
    logits = np.zeros((1, 9), np.float32)
    logits[0, 8] = 5.0  # the likeliest move is not the winning one
    kept_parent, kept_cell = _likeliest(parent, cell, logits, own, rules, width=1)
    assert sorted(kept_cell.tolist()) == [2, 8] and (kept_parent == 0).all()


def test_a_narrow_deep_search_answers_legally_and_wins_at_once() -> None:
    ten = ["." * 10 for _ in range(10)]
    ten[4] = "..XXXX...."
    ten[6] = "OOOO......"
    assert _best(ten, "X", 3, width=3) in (41, 46)


def test_search_settings_refuse_what_they_cannot_do() -> None:
    with pytest.raises(ValueError, match="depth must be 0 to 9"):
        SearchSettings(depth=10)
    with pytest.raises(ValueError, match="width"):
        SearchSettings(depth=2, width=-1)
    with pytest.raises(ValueError, match="nodes"):
        SearchSettings(depth=2, nodes=-1)
    assert SearchSettings(2, 8).query() == "?depth=2&width=8" and SearchSettings().query() == ""
    assert SearchSettings(3, 0, 500).query() == "?depth=3&nodes=500"


def test_a_leaf_budget_searches_deeper_on_emptier_trees() -> None:
    budget = SearchSettings(depth=4, nodes=20_000)
    assert budget.depth_for(9) == 4  # 9 * 8 * 7 * 6 = 3,024 leaves
    assert budget.depth_for(20) == 3  # 20 * 19 * 18 = 6,840; one ply more is 116,280
    assert budget.depth_for(90) == 2  # 90 * 89 = 8,010
    assert SearchSettings(depth=4, nodes=10).depth_for(90) == 1  # never less than one ply
    assert SearchSettings(depth=4, width=3, nodes=20_000).depth_for(90) == 4  # 90 * 3 * 3 * 3
    assert SearchSettings(depth=3).depth_for(90) == 3  # no budget: the depth asked
    assert SearchSettings(depth=4, nodes=10**9).depth_for(2) == 2  # no deeper than the board


def test_a_budgeted_search_reads_a_late_3x3_board_to_the_end() -> None:
    # X to move, 3 empty squares: a budget of 6 leaves allows all 3 plies, so every leaf is a
    # finished game and the values are exact (a win, a draw and a loss)
    board = np.array([[1, 2, 1], [1, 2, 0], [0, 0, 2]])
    exact = minimax_move_scores(board, 1)
    assert sorted(np.sign(list(exact.values())).tolist()) == [-1, 0, 1]
    stones, _ = _planes(board.reshape(-1), 1)
    values, _ = search_scores(_net(), stones, SearchSettings(depth=4, nodes=6))
    for cell, score in exact.items():
        assert np.sign(values[cell]) == np.sign(score)


def _saved(tmp_path: Path, arch: dict[str, object]) -> Path:
    path = tmp_path / "m.pt"
    shapes = {"": [3, 3, 2]}
    model = PPOModel("arcade_gym/TicTacToe-v0", {"size": 3}, dict(arch), build(dict(arch)), shapes)
    save_model(path, model)
    return path


def test_the_spec_options_choose_the_search_and_name_it(tmp_path: Path) -> None:
    from arcade_gym.tictactoe.contract import TicTacToeQuestion

    path = _saved(tmp_path, ARCH)
    policy = make_policy(f"ppo:{path}?depth=2", "tictactoe")
    assert policy.search == SearchSettings(2) and "depth 2" in policy.description
    assert policy.model.endswith(policy.digest) and "?depth=2@" in policy.model
    plain = make_policy(f"ppo:{path}", "tictactoe")
    assert plain.slug != policy.slug and plain.search.depth == 0
    question = TicTacToeQuestion(size=3, k=3, to_move="O", rows=("XX.", "O..", "..."))
    answer = policy.act(question)
    assert (answer.row, answer.col) == (0, 2)  # the block, whatever the weights


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("depth=x", "depth must be a whole number"),
        ("speed=2", "unknown option 'speed'"),
        ("depth=2&nodes=-5", "nodes must be 0"),
        ("depth=10", "depth must be 0 to 9"),
        ("depth", "write options as"),
    ],
)
def test_bad_spec_options_are_one_clear_error(tmp_path: Path, query: str, message: str) -> None:
    path = _saved(tmp_path, ARCH)
    with pytest.raises(SpecError, match=message):
        make_policy(f"ppo:{path}?{query}", "tictactoe")


def test_a_search_needs_a_board_model(tmp_path: Path) -> None:
    path = _saved(tmp_path, {"kind": "mlp", "hidden": [4], "size": 18, "n_actions": 9})
    with pytest.raises(SpecError, match="needs a tic-tac-toe board model"):
        make_policy(f"ppo:{path}?depth=1", "tictactoe")
