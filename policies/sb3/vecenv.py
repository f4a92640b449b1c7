"""A native arcade-gym vector env as an SB3 `VecEnv`, so SB3 trains on N games per numba call.

The native vector envs (`arcade_gym/core/vector.py`) follow Gymnasium 1.x's `NEXT_STEP`
autoreset: a finished game shows its last observation and resets on the next step. SB3 expects
the reset at once, with the last observation in `info["terminal_observation"]`; this adapter
resets the finished games right after the step (a kernel step in which every running game is left
as it is) so each SB3 transition is a real one. MaskablePPO reads `action_masks()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn


class NativeVecEnv(VecEnv):
    """SB3's `VecEnv` over one `ArcadeVectorEnv` (e.g. `gym.make_vec(ID, num_envs=N,
    vectorization_mode="vector_entry_point")`); `seed` seeds game i with `seed + i`."""

    def __init__(self, vector_env: Any, seed: int | None = None) -> None:
        self.venv = vector_env.unwrapped
        super().__init__(
            self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )
        self._seed = seed
        self._actions = np.zeros(self.num_envs, np.int64)

    def reset(self) -> VecEnvObs:
        observations, _ = self.venv.reset(seed=self._seed)
        self._seed = None  # later resets continue each game's own generator
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        venv = self.venv
        observations, rewards, terminated, truncated, info = venv.step(self._actions)
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in map(int, np.flatnonzero(done)):
            infos[i]["terminal_observation"] = _row(observations, i)
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            for key, value in info.items():
                if not key.startswith("_") and key != "action_mask":
                    infos[i][key] = value[i]
        if done.any():
            observations = venv.reset_finished()
        return observations, rewards.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """(N, A) booleans of the legal actions."""
        masks: np.ndarray = self.venv.action_masks()
        return masks

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self.venv, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":
            return list(self.action_masks()[self._indices(indices)])
        raise AttributeError(f"the games of a native vector env have no method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)


def _row(observations: Any, i: int) -> Any:
    if isinstance(observations, dict):
        return {key: value[i] for key, value in observations.items()}
    return observations[i]
