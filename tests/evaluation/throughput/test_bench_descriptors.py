"""`arcade-eval bench` is read off the descriptors: a toy game added through `register_game` alone
(no bench module of its own) is among its choices, and every one of its envs is measured
generically (steps/s per wall and CPU second, its native vector env when it has one)."""

from __future__ import annotations

import math
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pytest

from arcade_gym.core.descriptor import GameDescriptor
from arcade_gym.games import register_game, unregister_game
from arcade_gym.registration import NAMESPACE, register_envs
from evaluation.cli import build_parser
from evaluation.throughput.registry import bench_names, run_bench

TOY_GAME = """
from arcade_gym.core.descriptor import EnvEntry, GameDescriptor

GAME = GameDescriptor(
    name="toybench",
    title="Toy bench",
    envs=(
        EnvEntry(
            "ToyCount-v0",
            "toy_bench.toybench.env:ToyCountEnv",
            "toybench",
            vector_entry_point="toy_bench.toybench.env:ToyCountVectorEnv",
        ),
        EnvEntry("ToyFree-v0", "toy_bench.toybench.env:ToyFreeEnv", "toybench-free"),
    ),
    warmup="toy_bench.toybench.env:warmup",
    policies="toy_bench_policies.toybench",
)
"""

TOY_ENV = '''
import gymnasium as gym
import numpy as np
from gymnasium.vector.utils import batch_space

STEPS = {"count": 0, "free": 0, "vector": 0}


def warmup() -> float:
    return 0.0


class ToyCountEnv(gym.Env):
    """Count to three: only action 1 is legal (the mask says so); a masked action is an error."""

    observation_space = gym.spaces.Box(0, 3, (1,), np.int64)
    action_space = gym.spaces.Discrete(4)

    def _info(self):
        mask = np.zeros(4, np.int8)
        mask[1] = 1
        return {"action_mask": mask}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.count = 0
        return np.array([0]), self._info()

    def step(self, action):
        if action != 1:
            raise ValueError(f"masked action {action}")
        STEPS["count"] += 1
        self.count += 1
        return np.array([self.count]), 1.0, self.count >= 3, False, self._info()


class ToyFreeEnv(gym.Env):
    """Any of two actions, no mask in `info`; the game ends on action 0."""

    observation_space = gym.spaces.Box(0, 1, (1,), np.int64)
    action_space = gym.spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return np.array([0]), {}

    def step(self, action):
        STEPS["free"] += 1
        return np.array([int(action)]), 0.0, action == 0, False, {}


class ToyCountVectorEnv(gym.vector.VectorEnv):
    """N counters stepped together."""

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}

    def __init__(self, num_envs=1, **kwargs):
        self.num_envs = num_envs
        self.single_observation_space = ToyCountEnv.observation_space
        self.single_action_space = gym.spaces.Discrete(2)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.counts = np.zeros((num_envs, 1), np.int64)

    def reset(self, *, seed=None, options=None):
        self.counts[:] = 0
        return self.counts.copy(), {}

    def step(self, actions):
        STEPS["vector"] += self.num_envs
        self.counts += 1
        done = self.counts[:, 0] >= 3
        self.counts[done] = 0
        zeros = np.zeros(self.num_envs)
        return self.counts.copy(), zeros, done, np.zeros(self.num_envs, bool), {}
'''


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameDescriptor]:
    for name, text in {
        "__init__.py": "",
        "toybench/__init__.py": TOY_GAME,
        "toybench/env.py": TOY_ENV,
    }.items():
        path = tmp_path / "toy_bench" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    game = register_game("toy_bench.toybench")
    register_envs()
    yield game
    unregister_game("toy_bench.toybench")
    for env_id in ("ToyCount-v0", "ToyFree-v0"):
        gym.registry.pop(f"{NAMESPACE}/{env_id}", None)
    for module in [m for m in sys.modules if m.startswith("toy_bench")]:
        del sys.modules[module]


def test_a_toy_game_is_a_bench_choice_of_the_command_line(toy_game: GameDescriptor) -> None:
    assert toy_game.bench is None
    assert "toybench" in bench_names()
    args = build_parser().parse_args(["bench", "toybench", "--seconds", "0.01"])
    assert args.game == "toybench"


def test_a_toy_game_with_no_bench_module_has_every_env_measured_generically(
    toy_game: GameDescriptor,
) -> None:
    from toy_bench.toybench.env import STEPS

    report = run_bench("toybench", 0.02)
    assert report["game"] == "toybench"
    assert set(report["results"]) == {
        "toy_count_v0_steps_per_s",
        "toy_count_v0_steps_per_cpu_s",
        "toy_count_v0_vector1024_steps_per_s",
        "toy_count_v0_vector1024_steps_per_cpu_s",
        "toy_free_v0_steps_per_s",
        "toy_free_v0_steps_per_cpu_s",
    }
    assert all(math.isfinite(v) and v > 0 for v in report["results"].values())
    assert set(report["seconds"]) == {"toy_count_v0_vector1024_compile_or_cache_load"}
    assert "peer" not in report and report["targets"] == {}
    # every env was really stepped (the masked one only with its legal action: no ValueError)
    assert STEPS["count"] > 0 and STEPS["free"] > 0 and STEPS["vector"] >= 1024
