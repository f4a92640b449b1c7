"""Self-play (`arcade_gym/selfplay/`): the AEC games as one-player envs against an opponent pool,
the learner's side alternating, both sides' terminal rewards, masks; the vector form plays what
the single env plays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from arcade_gym.multiagent import chess_v0, tictactoe_v0
from arcade_gym.selfplay import OpponentPool, SelfPlayEnv, Snapshot, TicTacToeSelfPlayVectorEnv


def first_empty(obs: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def batched_first_empty(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.argmax(mask, axis=1)


def _play(env: SelfPlayEnv, cells: list[int]) -> tuple[float, bool, dict[str, Any]]:
    reward, terminated, info = 0.0, False, dict[str, Any]()
    for cell in cells:
        _, reward, terminated, _, info = env.step(cell)  # type: ignore[assignment]
        if terminated:
            break
    return reward, terminated, info


def test_the_learner_sees_its_loss_when_the_opponent_wins_on_its_own_move() -> None:
    # The learner (X) plays 3, 4, 8; the opponent (O) takes the first empty square each time:
    # 0, 1, 2, completing the top row on its third move.
    env = SelfPlayEnv(tictactoe_v0.env(size=3), opponent=first_empty, learner="first")
    _, info = env.reset(seed=0)
    assert info["learner"] == "player_0" and info["opponent_move"] == -1
    reward, terminated, info = _play(env, [3, 4, 8])
    assert (reward, terminated) == (-1.0, True)
    assert info["winner"] == "player_1" and info["opponent_move"] == 2
    assert not info["action_mask"].any() and not env.action_masks().any()


def test_the_learner_wins_on_its_move_and_gets_plus_one() -> None:
    env = SelfPlayEnv(tictactoe_v0.env(size=3), opponent=first_empty, learner="first")
    env.reset(seed=0)
    # X: 4, then O takes 0; X: 5, O takes 1; X: 3 completes the middle row.
    assert _play(env, [4, 5, 3])[:2] == (1.0, True)


def test_the_learners_side_alternates_and_the_opponent_opens_when_it_plays_first() -> None:
    env = SelfPlayEnv(tictactoe_v0.env(size=3), opponent=first_empty)
    sides = []
    for episode in range(4):
        obs, info = env.reset(seed=5) if episode == 0 else env.reset()
        sides.append(info["learner"])
        stones = int(obs.sum())
        assert stones == (0 if info["learner"] == "player_0" else 1)
        if info["learner"] == "player_1":  # the opponent's stone is in plane 1 of our view
            assert obs[0, 0, 1] == 1 and info["opponent_move"] == 0
        while True:
            *_, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
            if terminated or truncated:
                break
    assert sides == ["player_0", "player_1", "player_0", "player_1"]
    env.reset(seed=5)  # a seeded reset starts the alternation again
    assert env.learner == "player_0"


def test_a_pool_draws_each_member_about_as_often_as_its_weight() -> None:
    env = SelfPlayEnv(tictactoe_v0.env(size=3), opponent={"random": 3.0, first_empty: 1.0})
    counts: dict[str, int] = {}
    env.reset(seed=1)
    for _ in range(400):
        _, info = env.reset()
        counts[info["opponent"]] = counts.get(info["opponent"], 0) + 1
    assert set(counts) == {"random", "first_empty"}
    assert 240 <= counts["random"] <= 360, counts


def test_a_pool_refuses_bad_members_and_weights() -> None:
    with pytest.raises(ValueError, match="must not all be 0"):
        OpponentPool({"random": 0.0})
    with pytest.raises(ValueError, match="finite"):
        OpponentPool([("random", -1.0)])
    with pytest.raises(TypeError, match="built-in's name or a callable"):
        OpponentPool({3: 1.0})
    with pytest.raises(TypeError, match="opponent must be"):
        OpponentPool(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tactician"):
        SelfPlayEnv(tictactoe_v0.env(size=3), opponent="grandmaster")
    with pytest.raises(ValueError, match="3x3 only"):
        SelfPlayEnv(tictactoe_v0.env(size=5), opponent="perfect")


def test_the_snapshot_plays_the_latest_copy_the_trainer_gave_it() -> None:
    snapshot = Snapshot()
    env = SelfPlayEnv(tictactoe_v0.env(size=3), opponent=snapshot, learner="first")
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match=r"snapshot.update"):
        env.step(4)
    snapshot.update(first_empty)
    env.reset(seed=0)
    assert env.step(4)[4]["opponent_move"] == 0
    snapshot.update(lambda obs, mask: int(np.flatnonzero(mask)[-1]))
    assert env.step(3)[4]["opponent_move"] == 8 and snapshot.version == 2


def test_an_opponent_answering_a_masked_move_is_an_error_naming_it() -> None:
    env = SelfPlayEnv(tictactoe_v0.env(size=3), opponent=lambda obs, mask: 4, learner="first")
    env.reset(seed=0)
    with pytest.raises(RuntimeError, match="chose action 4"):
        env.step(4)


def test_penalty_mode_ends_a_learner_repeating_a_masked_move() -> None:
    env = SelfPlayEnv(
        tictactoe_v0.env(size=3), first_empty, learner="first", illegal_action="penalty"
    )
    env.reset(seed=0)
    env.step(4)
    for step in range(1, 10):
        _, reward, terminated, truncated, info = env.step(4)
        assert reward == -1.0 and info["illegal"] and not terminated
        assert truncated == (step == 9)
    assert info["end_reason"] == "illegal_actions"


def test_the_observation_is_the_one_tictactoe_v0_shows() -> None:
    import gymnasium as gym

    single = gym.make("arcade_gym/TicTacToe-v0", opponent=first_empty, agent_mark="O")
    selfplay = SelfPlayEnv(tictactoe_v0.env(size=3), first_empty, learner="second")
    a, _ = single.reset(seed=0)
    b, _ = selfplay.reset(seed=0)
    assert single.observation_space == selfplay.observation_space
    for cell in (4, 8):
        assert np.array_equal(a, b)
        a = single.step(cell)[0]
        b = selfplay.step(cell)[0]
    assert np.array_equal(a, b)


@pytest.mark.parametrize(
    "make",
    [
        lambda: SelfPlayEnv(tictactoe_v0.env(size=5), {"greedy": 1, "tactician": 1}),
        lambda: SelfPlayEnv(chess_v0.env(max_plies=20), "greedy", observation="flat"),
    ],
)
def test_gymnasiums_env_checker_passes(make: Any) -> None:
    check_env(make(), skip_render_check=True)


def test_chess_self_play_against_a_ladder_rung_ends_with_the_result() -> None:
    env = SelfPlayEnv(chess_v0.env(max_plies=12), opponent="material-2ply")
    rng = np.random.default_rng(0)
    for episode in range(2):
        obs, info = env.reset(seed=3) if episode == 0 else env.reset()
        assert obs.shape == (8, 8, 111) and info["learner"] == ("player_0", "player_1")[episode]
        while True:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        assert info["termination"] in ("max_plies", "checkmate", "stalemate")
        assert reward in (-1.0, 0.0, 1.0)


VECTOR_POOLS = [
    (
        3,
        {"random": 1, "greedy": 1, batched_first_empty: 1},
        {"random": 1, "greedy": 1, first_empty: 1},
    ),
    (5, "tactician", "tactician"),
    (3, "perfect", "perfect"),
]


@pytest.mark.parametrize(("size", "batched", "single"), VECTOR_POOLS)
def test_the_vector_form_plays_exactly_what_single_envs_play(
    size: int, batched: Any, single: Any
) -> None:
    n = 5
    venv = TicTacToeSelfPlayVectorEnv(n, size=size, opponent=batched)
    singles = [SelfPlayEnv(tictactoe_v0.env(size=size), opponent=single) for _ in range(n)]
    obs, info = venv.reset(seed=10)
    for i, env in enumerate(singles):
        assert np.array_equal(obs[i], env.reset(seed=10 + i)[0])
    rng = np.random.default_rng(0)
    done = np.zeros(n, bool)
    episodes = 0
    for _ in range(120):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, reward, terminated, _, info = venv.step(actions)
        for i, env in enumerate(singles):
            if done[i]:  # NEXT_STEP autoreset: this step started game i's next episode
                expected, single_info = env.reset()
                assert reward[i] == 0 and env.opponent_index == info["opponent"][i]
                done[i] = False
            else:
                expected, r, t, _, single_info = env.step(int(actions[i]))
                assert (reward[i], terminated[i]) == (r, t)
                done[i] = t
                episodes += t
            assert np.array_equal(obs[i], expected)
            assert np.array_equal(info["action_mask"][i], single_info["action_mask"])
    assert episodes > 50


def test_the_vector_form_calls_a_batched_opponent_once_a_step_with_its_games() -> None:
    calls: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def opponent(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        calls.append((obs.shape, mask.shape))
        return batched_first_empty(obs, mask)

    venv = TicTacToeSelfPlayVectorEnv(8, size=3, opponent=opponent, learner="first")
    venv.reset(seed=0)
    assert calls == []  # the learner plays X in every game: nobody waits on the opponent
    venv.step(np.full(8, 4))
    assert calls == [((8, 3, 3, 2), (8, 9))]


def test_the_vector_form_refuses_a_wrong_batched_answer() -> None:
    venv = TicTacToeSelfPlayVectorEnv(4, opponent=lambda obs, mask: np.zeros(4, np.int64))
    venv.reset(seed=0)
    venv.step(np.full(4, 1))  # the learner (X everywhere) on 1, the opponent answers 0
    with pytest.raises(RuntimeError, match="mask forbids"):
        venv.step(np.full(4, 2))


def test_tictactoe_v0_takes_a_callable_opponent_that_sees_its_own_side() -> None:
    import gymnasium as gym

    seen: list[np.ndarray] = []

    def opponent(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append(obs.copy())
        return first_empty(obs, mask)

    env: Any = gym.make("arcade_gym/TicTacToe-v0", opponent=opponent).unwrapped
    env.reset(seed=0)
    obs, *_, info = env.step(4)  # X on the centre; the opponent (O) answers the first empty: 0
    assert info["opponent_move"] == 0 and obs[0, 0, 1] == 1
    assert seen[0][1, 1, 1] == 1 and seen[0][:, :, 0].sum() == 0  # our X is its opponent's
    with pytest.raises(TypeError, match="callable"):
        gym.make("arcade_gym/TicTacToe-v0", opponent=3)
    bad: Any = gym.make("arcade_gym/TicTacToe-v0", opponent=lambda obs, mask: 4).unwrapped
    bad.reset(seed=0)
    with pytest.raises(RuntimeError, match="occupied"):
        bad.step(4)
