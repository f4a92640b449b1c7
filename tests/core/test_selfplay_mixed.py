"""Random openings of the self-play vector env (`selfplay_vector.py:random_opening`), the
mixed-size canvas env (`selfplay_mixed.py`) and the square facts (`square_facts.py`), all in
`arcade_gym/tictactoe/`."""

from __future__ import annotations

import numpy as np
import pytest

from arcade_gym.tictactoe import engine as E
from arcade_gym.tictactoe.rules import O, X, line_length
from arcade_gym.tictactoe.selfplay_mixed import TicTacToeMixedSelfPlayVectorEnv
from arcade_gym.tictactoe.selfplay_vector import TicTacToeSelfPlayVectorEnv, random_opening


@pytest.mark.parametrize("size", [3, 5, 10])
def test_an_opening_completes_no_line_and_leaves_the_asked_side_to_move(size: int) -> None:
    k = line_length(size)
    counts = set()
    for seed in range(200):
        for parity in (0, 1):
            flat = np.zeros(size * size, np.int8)
            plies = random_opening(flat, size, k, np.int64(seed), 3 * size, parity)
            assert plies % 2 == parity and 0 <= plies < size * size
            assert (flat == X).sum() - (flat == O).sum() == plies % 2  # X first, alternating
            assert (flat != 0).sum() == plies
            assert not any(E.line_through(flat, size, k, c) for c in range(size * size))
            counts.add(plies)
    assert len(counts) > 3  # the number of plies varies with the seed


def test_the_same_seed_gives_the_same_opening() -> None:
    a, b = np.zeros(100, np.int8), np.zeros(100, np.int8)
    random_opening(a, 10, 5, np.int64(7), 20, 0)
    random_opening(b, 10, 5, np.int64(7), 20, 0)
    np.testing.assert_array_equal(a, b)


def test_games_start_from_openings_with_the_learner_to_move() -> None:
    env = TicTacToeSelfPlayVectorEnv(64, size=5, opponent="greedy", opening=8)
    obs, info = env.reset(seed=0)
    stones = obs.sum((1, 2))  # (N, 2): the learner's stones, the opponent's
    assert (stones.sum(1) > 0).any() and (stones.sum(1) <= 8).all()
    # X (learner in even games) has as many stones as O; O has one fewer than X
    x_games = info["learner_mark"] == X
    assert (stones[x_games, 0] == stones[x_games, 1]).all()
    assert (stones[~x_games, 0] + 1 == stones[~x_games, 1]).all()
    assert (info["action_mask"].sum(1) > 0).all()


def test_opening_must_be_a_count() -> None:
    for bad in (-1, 2.5, True, "3"):
        with pytest.raises(ValueError, match="opening must be a count"):
            TicTacToeSelfPlayVectorEnv(2, opening=bad)  # type: ignore[arg-type]


def _mixed(**kwargs: object) -> TicTacToeMixedSelfPlayVectorEnv:
    pool = {3: "random", 5: "greedy", 10: "random"}
    return TicTacToeMixedSelfPlayVectorEnv({3: 4, 5: 3, 10: 2}, pool, **kwargs)  # type: ignore[arg-type]


def test_the_canvas_holds_every_board_top_left_and_masks_the_rest() -> None:
    env = _mixed()
    obs, info = env.reset(seed=1)
    assert (
        obs["board"].shape == (9, 10, 10, 2)
        and obs["size"].tolist() == [3] * 4 + [5] * 3 + [10] * 2
    )
    mask = info["action_mask"].reshape(9, 10, 10)
    for i, n in enumerate(obs["size"]):
        assert not mask[i, n:, :].any() and not mask[i, :, n:].any()
        assert not obs["board"][i, n:, :].any() and not obs["board"][i, :, n:].any()
        on_board = mask[i, :n, :n] | obs["board"][i, :n, :n].any(-1)
        assert on_board.all()  # every square of the board is empty or a stone
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"] > 0)


def test_canvas_actions_are_played_on_their_own_board() -> None:
    env = _mixed()
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=2)
    finished = 0
    for _ in range(200):
        mask = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        before = obs["board"][..., 0].reshape(9, -1).copy()
        obs, reward, term, trunc, _ = env.step(actions)
        after = obs["board"][..., 0].reshape(9, -1)
        for i in np.flatnonzero(~(term | trunc)):
            assert after[i, actions[i]] == 1 and before[i, actions[i]] == 0
        assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}
        finished += int((term | trunc).sum())
        if (term | trunc).any():
            obs = env.reset_finished()
    assert finished > 9  # games end and restart on every size


def test_mixed_env_refuses_a_missing_pool_a_bad_size_and_wrong_actions() -> None:
    with pytest.raises(ValueError, match="opponents names no pool for the 5x5"):
        TicTacToeMixedSelfPlayVectorEnv({3: 1, 5: 1}, {3: "random"})
    with pytest.raises(ValueError, match="size"):
        TicTacToeMixedSelfPlayVectorEnv({4: 1}, {4: "random"})
    with pytest.raises(ValueError, match="at least one board size"):
        TicTacToeMixedSelfPlayVectorEnv({}, {})
    env = _mixed()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="needs 9 actions"):
        env.step(np.zeros(3, np.int64))


def _brute_facts(flat: np.ndarray, n: int, k: int) -> np.ndarray:
    """The four square facts by plain Python over the rules (`line_through` per square)."""
    facts = np.zeros((n * n, 4), np.float32)

    def completes(board: np.ndarray, cell: int, side: int) -> bool:
        trial = board.copy()
        trial[cell] = side
        return bool(E.line_through(trial, n, k, cell))

    for cell in np.flatnonzero(flat == 0):
        for side in (1, 2):
            if completes(flat, cell, side):
                facts[cell, side - 1] = 1.0
                continue
            after = flat.copy()
            after[cell] = side
            wins = sum(completes(after, d, side) for d in np.flatnonzero(after == 0))
            facts[cell, side + 1] = float(wins >= 2)
    return facts


def test_square_facts_match_the_rules_square_by_square() -> None:
    from arcade_gym.tictactoe.square_facts import facts_of

    boards, sizes, expected = [], [], []
    for seed in range(40):
        n = (3, 5, 10)[seed % 3]
        k = line_length(n)
        flat = np.zeros(n * n, np.int8)
        plies = random_opening(flat, n, k, np.int64(seed), 3 * n, seed % 2)
        mover = X if plies % 2 == 0 else O
        canvas = np.zeros((10, 10, 2), np.int8)
        grid = flat.reshape(n, n)
        canvas[:n, :n, 0] = grid == mover
        canvas[:n, :n, 1] = (grid != 0) & (grid != mover)
        boards.append(canvas)
        sizes.append(n)
        relative = np.where(flat == mover, 1, np.where(flat == 0, 0, 2)).astype(np.int8)
        full = np.zeros((100, 4), np.float32)
        cells = (np.arange(n)[:, None] * 10 + np.arange(n)[None, :]).reshape(-1)
        full[cells] = _brute_facts(relative, n, k)
        expected.append(full)
    got = facts_of(np.stack(boards), np.array(sizes))
    np.testing.assert_array_equal(got, np.stack(expected))
    assert got[..., 0].any() and got[..., 1].any() and got[..., 2].any()  # the facts do occur


def test_square_facts_on_a_hand_made_board() -> None:
    from arcade_gym.tictactoe.square_facts import facts_of

    # the mover's stones X, the other side's O:  X . X / O O . / . . .
    canvas = np.zeros((1, 3, 3, 2), np.int8)
    canvas[0, 0, 0, 0] = canvas[0, 0, 2, 0] = 1
    canvas[0, 1, 0, 1] = canvas[0, 1, 1, 1] = 1
    facts = facts_of(canvas, np.array([3])).reshape(3, 3, 4)
    assert np.argwhere(facts[..., 0]).tolist() == [[0, 1]]
    assert np.argwhere(facts[..., 1]).tolist() == [[1, 2]]
    # a threat added to the one a side has already leaves it two: X on (1, 2) or (2, 2), O on
    # (2, 1); (0, 1) completes X's line, so only O's second fact is asked there
    assert np.argwhere(facts[..., 2]).tolist() == [[1, 2], [2, 2]]
    assert np.argwhere(facts[..., 3]).tolist() == [[0, 1], [2, 1]]
    assert facts[0, 0].tolist() == [0, 0, 0, 0]  # a stone: no facts
