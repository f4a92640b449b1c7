"""Tetris-v3 and TetrisPrimitive-v3: registration, spaces, masks, seeds, rewards, bad input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.core.clock import SimulatedClock
from arcade_gym.tetris import engine as E
from arcade_gym.tetris.contract import AgentInput
from arcade_gym.tetris.env import (
    TetrisEnv,
    TetrisPrimitiveEnv,
    action_to_placement,
    placement_to_action,
)
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.rules import HOLD_ACTION, N_ACTIONS


def _random_legal(info: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.mark.parametrize("env_id", ["arcade_gym/Tetris-v3", "arcade_gym/TetrisPrimitive-v3"])
def test_gym_make_and_check_env(env_id: str) -> None:
    env = gym.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)


def test_module_prefixed_id_imports_and_registers() -> None:
    env = gym.make("arcade_gym:arcade_gym/Tetris-v3")
    assert isinstance(env.unwrapped, TetrisEnv)


def test_check_env_in_blitz_with_a_simulated_clock() -> None:
    check_env(TetrisEnv(mode="blitz", clock=SimulatedClock(120.0)))


def test_stable_baselines3_env_checker_accepts_both_envs() -> None:
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env_checker.check_env(TetrisEnv(), warn=True)
    env_checker.check_env(TetrisPrimitiveEnv(), warn=True)


def test_action_layout_round_trips() -> None:
    seen = set()
    for a in range(N_ACTIONS - 1):
        placement = action_to_placement(a)
        assert placement is not None
        assert placement_to_action(*placement) == a
        seen.add(placement)
    assert len(seen) == 44
    assert action_to_placement(HOLD_ACTION) is None


def test_mask_and_feature_matrix_align_with_the_candidates() -> None:
    env = TetrisEnv()
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        game = env.game
        legal = {placement_to_action(x, r) for x, r in game.legal_placements()}
        mask = info["action_mask"]
        assert set(np.flatnonzero(mask[:HOLD_ACTION])) == legal
        assert bool(mask[HOLD_ACTION]) == game.can_hold
        assert np.array_equal(env.action_masks(), mask.astype(bool))
        for i, (x, r) in enumerate(game.legal_placements()):
            row = obs["placements"][placement_to_action(x, r)]
            cand = game.candidate_rows()[i]
            assert row[0] == cand[E.C_LINES] and row[1] == cand[E.C_SCORE_DELTA]
            assert list(row[3:]) == list(game.candidate_features()[i][E.F_MAX_HEIGHT :])
        masked_rows = obs["placements"][mask == 0]
        assert not masked_rows.any()
        obs, _, terminated, truncated, info = env.step(_random_legal(info, rng))
        if terminated or truncated:
            obs, info = env.reset()


def test_reward_is_the_score_delta_and_reward_fn_overrides_it() -> None:
    env = TetrisEnv()
    _, info = env.reset(seed=1)
    score = info["score"]
    _, reward, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert reward == info["score"] - score
    custom = TetrisEnv(reward_fn=lambda game, delta: -1.0 if game.over else 0.5 + delta)
    _, info = custom.reset(seed=1)
    _, reward, _, _, _ = custom.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert reward == 0.5 + custom.game.score


def test_named_seed_plays_the_benchmark_sequence() -> None:
    env = TetrisEnv()
    obs, _ = env.reset(options={"seed": "seed-07"})
    game = TetrisGame("seed-07")
    assert obs["active"] == game.active[0]
    assert list(obs["next"]) == game.next_pieces
    assert env.game.state_hash() == game.state_hash()


def test_integer_seed_is_reproducible_and_follows_gymnasium() -> None:
    a, b = TetrisEnv(), TetrisEnv()
    a.reset(seed=42)
    b.reset(seed=42)
    assert a.game.state_hash() == b.game.state_hash()
    a.reset()
    b.reset()
    assert a.game.state_hash() == b.game.state_hash()
    other = TetrisEnv()
    other.reset(seed=43)
    assert other.game.seq.tolist() != a.game.seq.tolist()


def test_same_seed_and_actions_give_identical_trajectories() -> None:
    def run() -> list[str]:
        env = TetrisEnv()
        _, info = env.reset(seed=9)
        rng = np.random.default_rng(5)
        hashes = []
        for _ in range(40):
            _, _, terminated, truncated, info = env.step(_random_legal(info, rng))
            if terminated or truncated:
                break
            hashes.append(env.game.state_hash())
        return hashes

    assert run() == run()


def test_masked_action_raises_a_clear_value_error() -> None:
    env = TetrisEnv()
    _, info = env.reset(seed=0)
    masked = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="masked"):
        env.step(masked)
    with pytest.raises(ValueError, match="out of range"):
        env.step(N_ACTIONS)
    with pytest.raises(TypeError, match="integer"):
        env.step("left")  # type: ignore[arg-type]


def test_step_after_the_end_asks_for_reset() -> None:
    env = TetrisEnv(piece_cap=1)
    _, info = env.reset(seed=0)
    placement = next(a for a in np.flatnonzero(info["action_mask"]) if a != HOLD_ACTION)
    _, _, terminated, truncated, info = env.step(int(placement))
    assert truncated and not terminated and info["end_reason"] == "piece cap"
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_top_out_terminates() -> None:
    env = TetrisEnv()
    _, info = env.reset(seed=2)
    terminated = truncated = False
    while not (terminated or truncated):
        # Always the same column: the stack reaches the top quickly.
        legal = np.flatnonzero(info["action_mask"][:HOLD_ACTION])
        _, _, terminated, truncated, info = env.step(int(legal[len(legal) // 2]))
    assert terminated and info["end_reason"] == "top-out"


def test_bad_seed_and_options_stop_with_one_clear_error() -> None:
    env = TetrisEnv()
    with pytest.raises(TypeError, match="seed name"):
        env.reset(options={"seed": 7})
    with pytest.raises(ValueError, match="mode"):
        TetrisEnv(mode="turbo")
    with pytest.raises(ValueError, match="difficulty"):
        TetrisPrimitiveEnv(difficulty="insane")
    with pytest.raises(ValueError, match="scoring"):
        TetrisPrimitiveEnv(scoring="nes")
    with pytest.raises(TypeError, match="seed"):
        TetrisGame(1.5)  # type: ignore[arg-type]


def test_include_question_puts_the_agent_input_in_info() -> None:
    env = gym.make("arcade_gym/Tetris-v3", include_question=True)
    _, info = env.reset(seed=4)
    q = info["question"]
    assert isinstance(q, AgentInput)
    game = env.unwrapped.game  # type: ignore[attr-defined]
    assert q.state_hash == game.state_hash()
    legal = {placement_to_action(p.x, p.rotation) for p in q.legal}
    assert legal == set(np.flatnonzero(info["action_mask"][:HOLD_ACTION]))
    action = placement_to_action(q.legal[0].x, q.legal[0].rotation)
    _, _, _, _, info = env.step(action)
    assert info["question"].tick == 1
    assert "question" not in TetrisEnv().reset(seed=4)[1]


def test_hold_action_swaps_and_is_masked_until_a_lock() -> None:
    env = TetrisEnv()
    obs, info = env.reset(seed=5)
    first, preview = obs["active"], list(obs["next"])
    obs, reward, _, _, info = env.step(HOLD_ACTION)
    assert reward == 0
    assert obs["hold"] == first and obs["active"] == preview[0]
    assert info["action_mask"][HOLD_ACTION] == 0
    with pytest.raises(ValueError, match="masked"):
        env.step(HOLD_ACTION)


def test_blitz_with_zero_latency_is_always_in_time() -> None:
    env = TetrisEnv(mode="blitz", clock=SimulatedClock(0.0))
    _, info = env.reset(seed=6)
    rng = np.random.default_rng(1)
    for _ in range(10):
        a = _random_legal(info, rng)
        _, _, terminated, _, info = env.step(a)
        assert info["blitz"] in ("in-time", "held")
        if terminated:
            break


def test_blitz_slow_answers_lock_by_gravity() -> None:
    env = TetrisEnv(mode="blitz", clock=SimulatedClock(60_000.0))
    _, info = env.reset(seed=6)
    pieces = info["pieces"]
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["blitz"] == "locked-by-gravity"
    assert info["pieces"] == pieces + 1


def test_primitive_hard_drop_locks_and_counts_a_decision() -> None:
    env = TetrisPrimitiveEnv()
    obs, _ = env.reset(seed=0)
    assert list(obs["piece"][1:]) == [3, -1, 0]  # spawn: row -1 is above the board
    assert (obs["board"] == 2).sum() in (2, 3)
    game = env.game
    _, _, _, _, info = env.step(5)
    assert game.pieces == 1 and game.tick == 1
    assert info["score"] == 0  # classic scoring has no drop points


def test_primitive_gravity_moves_one_row_per_decision() -> None:
    env = TetrisPrimitiveEnv()
    obs, _ = env.reset(seed=0)
    y = obs["piece"][2]
    obs, *_ = env.step(0)
    assert obs["piece"][2] == y + 1
    obs, *_ = env.step(4)  # soft drop + gravity
    assert obs["piece"][2] == y + 3


def test_primitive_decision_cap_truncates() -> None:
    env = TetrisPrimitiveEnv(max_decisions=3)
    env.reset(seed=0)
    results = [env.step(0) for _ in range(3)]
    assert results[-1][3] is True and results[-1][4]["end_reason"] == "tick cap"


def test_primitive_bad_action_is_a_clear_error() -> None:
    env = TetrisPrimitiveEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="soft_drop"):
        env.step(6)


@pytest.mark.parametrize("env_cls", [TetrisEnv, TetrisPrimitiveEnv])
def test_render_modes(env_cls: type) -> None:
    env = env_cls(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "score" in text and "@" in text
    env = env_cls(render_mode="rgb_array")
    env.reset(seed=0)
    picture = env.render()
    assert isinstance(picture, np.ndarray) and picture.ndim == 3 and picture.dtype == np.uint8
