"""SB3 models on `Tetris-v3` with `placement_features="extended"`: the observation rebuilt from a
question equals the env's, `AfterstatePolicy` sizes itself from the observation space, and
`sb3:` plays such a model with the 12-column observation it was trained on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("sb3_contrib")

import arcade_gym  # noqa: F401
from arcade_gym.tetris.contract import validate
from arcade_gym.tetris.observe import placement_mask, placements_observation
from policies.sb3 import make_sb3_policy
from policies.tetris.afterstate import AfterstatePolicy

FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ENV_ID = "arcade_gym/Tetris-v3"


@FEW
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 80), blitz=st.booleans())
def test_extended_observation_from_question_equals_the_env(
    seed: int, steps: int, blitz: bool
) -> None:
    from arcade_gym.core.clock import SimulatedClock

    mode = {"mode": "blitz", "clock": SimulatedClock(700.0)} if blitz else {}  # gravity acts
    env = gym.make(ENV_ID, include_question=True, placement_features="extended", **mode)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps + 1):
        question = info["question"]
        rebuilt = placements_observation(question, "extended")
        assert set(rebuilt) == set(obs)
        for key, value in obs.items():
            np.testing.assert_array_equal(rebuilt[key], value, key)
        assert rebuilt["placements"].dtype == np.float32
        np.testing.assert_array_equal(placement_mask(question), info["action_mask"])
        legal = np.flatnonzero(info["action_mask"])
        placing = legal[legal < 44]
        # fewest holes then lowest stack, so games last and clear lines
        pick = placing[np.lexsort((obs["placements"][placing, 4], obs["placements"][placing, 5]))]
        action = int(pick[0] if rng.random() < 0.8 else rng.choice(legal))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break


def test_a_bad_feature_option_is_refused_when_rebuilding() -> None:
    env = gym.make(ENV_ID, include_question=True)
    _, info = env.reset(seed=0)
    with pytest.raises(ValueError, match="'basic', 'extended'"):
        placements_observation(info["question"], "full")


@pytest.fixture(scope="module")
def extended_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    out = tmp_path_factory.mktemp("models")
    env = gym.make(ENV_ID, placement_features="extended")
    linear = MaskablePPO(AfterstatePolicy, env, policy_kwargs={"hidden": 0}, n_steps=64, seed=0)
    weights = np.zeros(12)
    weights[10] = -1.0  # lowest landing first
    weights[11] = 1.0
    linear.policy.set_linear_weights(weights)
    flat = PPO("MlpPolicy", gym.make(ENV_ID, placement_features="extended", observation="flat"))
    made = {
        "linear": linear,
        "net": MaskablePPO(AfterstatePolicy, env, n_steps=64, seed=0),
        "flat": flat,
    }
    paths = {}
    for name, model in made.items():
        paths[name] = out / f"{name}.zip"
        model.save(paths[name])
    return paths


def test_afterstate_policy_is_sized_from_the_observation_space(
    extended_models: dict[str, Path],
) -> None:
    from sb3_contrib import MaskablePPO

    for name in ("linear", "net"):
        model = MaskablePPO.load(extended_models[name], device="cpu")
        extractor = model.policy.features_extractor
        assert extractor.n_features == 12 and extractor.scale.shape == (12,)
    basic = MaskablePPO(AfterstatePolicy, gym.make(ENV_ID), policy_kwargs={"hidden": 0})
    assert basic.policy.features_extractor.n_features == 10
    with pytest.raises(ValueError, match="scores 10 features, got 12"):
        basic.policy.set_linear_weights(np.zeros(12))


def _questions(n: int) -> list[tuple[Any, dict[str, Any], np.ndarray]]:
    env = gym.make(ENV_ID, include_question=True, placement_features="extended")
    obs, info = env.reset(options={"seed": "seed-04"})
    out = []
    rng = np.random.default_rng(4)
    for _ in range(n):
        out.append((info["question"], obs, info["action_mask"]))
        action = int(rng.choice(np.flatnonzero(info["action_mask"][:44])))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return out


@pytest.mark.parametrize("name", ["linear", "net"])
def test_sb3_plays_an_extended_model_as_predict_does(
    name: str, extended_models: dict[str, Path]
) -> None:
    policy = make_sb3_policy(str(extended_models[name]), "tetris")
    for question, obs, mask in _questions(20):
        observation, _ = policy.observation(question)
        assert observation["placements"].shape == (45, 12)
        expected, _ = policy.sb3_model.predict(
            obs, deterministic=True, action_masks=mask.astype(bool)
        )
        action, _ = policy.choose(question)
        assert action == int(expected)
        assert validate(policy.act(question), question).usable


def test_linear_weights_score_the_raw_extended_columns(extended_models: dict[str, Path]) -> None:
    """The saved linear model ranks placements by weights . features (here: erodedCells minus
    landingHeight), the score the cross-entropy baseline plays."""
    policy = make_sb3_policy(str(extended_models["linear"]), "tetris")
    for question, obs, mask in _questions(10):
        rows = obs["placements"]
        listed = np.flatnonzero(mask[:44])
        raw = rows[listed, 11] - rows[listed, 10]
        _, scores = policy.choose(question)
        shifted = scores[listed] - scores[listed].max()  # logits are normalised: up to a constant
        np.testing.assert_allclose(shifted, raw - raw.max(), atol=1e-4)


def test_a_flat_extended_model_gets_the_flat_extended_observation(
    extended_models: dict[str, Path],
) -> None:
    env = gym.make(ENV_ID, placement_features="extended", observation="flat")
    flat_obs, _ = env.reset(seed=9)
    questioning = gym.make(ENV_ID, include_question=True)
    _, info = questioning.reset(seed=9)
    policy = make_sb3_policy(str(extended_models["flat"]), "tetris")
    observation, _ = policy.observation(info["question"])
    np.testing.assert_array_equal(observation, flat_obs)
    assert validate(policy.act(info["question"]), info["question"]).usable
