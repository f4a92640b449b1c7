"""A native arcade-gym vector env as a Stable-Baselines3 `VecEnv`: SB3 trains on N games per
numba call.

    import gymnasium as gym
    from stable_baselines3 import PPO
    from arcade_gym.sb3 import NativeVecEnv

    vector = gym.make_vec("arcade_gym/Snake-v0", num_envs=64,
                          vectorization_mode="vector_entry_point", observation="flat")
    model = PPO("MlpPolicy", NativeVecEnv(vector), seed=0).learn(100_000)

This module imports SB3 (`import arcade_gym` does not import it). SB3 expects a finished game
to restart at once, its last observation in `info["terminal_observation"]`: the adapter asks
the vector env for that in whichever `autoreset_mode` it runs (`arcade_gym/core/vector.py`), so
each SB3 transition is a real one. What else SB3 asks of a `VecEnv`:

- `seed(s)` (what `PPO(seed=s)` calls) seeds game i with `s + i` at the next `reset()`, as
  `DummyVecEnv` seeds its envs, so two runs with one seed learn identically;
- `action_masks()` gives the (N, A) masks MaskablePPO reads; `info["episode"]` of a finished
  game is passed on, so SB3 logs episode returns without a `VecMonitor`;
- `get_attr` / `set_attr` read and write the vector env's attributes (its games share them;
  setting one for some games only is a ValueError); `env_method(name)` calls the vector env's
  method once and hands each game its row of the result ("action_masks" and "render" give
  each game's own); `env_is_wrapped(cls)` says whether a wrapper of that class is around the
  vector env given;
- `render()`: with `render_mode="rgb_array"` the first `render_games` games are drawn by
  single envs made from the same spec and seeds and stepped with the same actions (a native
  game plays exactly what its single env plays: `tests/core/test_vector.py`), tiled by SB3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn

RENDER_MODES = (None, "rgb_array")

_NOT_PASSED = frozenset({"action_mask", "episode", "final_obs", "final_info"})
"""Info keys the adapter hands on in its own form (or not at all) instead of row by row."""


class NativeVecEnv(VecEnv):
    """SB3's `VecEnv` over one native vector env (e.g. `gym.make_vec(ID, num_envs=N,
    vectorization_mode="vector_entry_point")`); `seed=s` is `seed(s)` before the first reset.
    The module docstring says what each SB3 method does here."""

    def __init__(
        self,
        vector_env: Any,
        seed: int | None = None,
        *,
        render_mode: str | None = None,
        render_games: int = 1,
    ) -> None:
        if render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {list(RENDER_MODES)}, got {render_mode!r}"
            )
        self.vector_env = vector_env
        self.venv = vector_env.unwrapped
        self.render_mode = render_mode
        self.render_games = max(1, min(int(render_games), self.venv.num_envs))
        super().__init__(
            self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space
        )
        self.render_mode = render_mode  # VecEnv's init read it through get_attr: keep ours
        self.metadata = {"render_modes": ["rgb_array"] if render_mode else []}
        self._shadows: list[Any] = self._make_shadows() if render_mode else []
        self._actions = np.zeros(self.num_envs, np.int64)
        if seed is not None:
            self.seed(seed)

    # --- SB3's VecEnv API -----------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        seeds: list[int | None] = list(self._seeds)
        if self._shadows and any(seeds[i] is None for i in range(len(self._shadows))):
            fresh = self.seed(None)  # the drawn games must be seeded to be drawn
            seeds = [fresh[i] if s is None else s for i, s in enumerate(seeds)]
        options = _one_options(self._options)
        observations, infos = self.venv.reset(
            seed=None if all(s is None for s in seeds) else seeds, options=options
        )
        for i, shadow in enumerate(self._shadows):
            shadow.reset(seed=seeds[i])
        self.reset_infos = [_game_info(infos, i) for i in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        venv = self.venv
        observations, rewards, terminated, truncated, info = venv.step(self._actions)
        done = terminated | truncated
        for i, shadow in enumerate(self._shadows):
            *_, t, tr, _ = shadow.step(int(self._actions[i]))
            if t or tr:
                shadow.reset()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if not done.any():
            return observations, rewards.astype(np.float32), done, infos
        mode = venv.autoreset_mode
        finals = info.get("final_info", info) if mode == AutoresetMode.SAME_STEP else info
        stats = info.get("episode")
        for i in map(int, np.flatnonzero(done)):
            game = infos[i]
            if mode == AutoresetMode.SAME_STEP:
                game["terminal_observation"] = info["final_obs"][i]
            else:
                game["terminal_observation"] = _row(observations, i)
            game["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            game.update(_game_info(finals, i))
            if stats is not None:
                game["episode"] = {key: value[i].item() for key, value in stats.items()}
        if mode == AutoresetMode.NEXT_STEP:
            observations = venv.reset_finished()
        elif mode == AutoresetMode.DISABLED:
            observations, _ = venv.reset(options={"reset_mask": done})
        return observations, rewards.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """(N, A) booleans of the legal actions."""
        masks: np.ndarray = self.venv.action_masks()
        return masks

    def close(self) -> None:
        for shadow in self._shadows:
            shadow.close()
        self.vector_env.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        own = attr_name == "render_mode"
        value = self.render_mode if own else getattr(self.venv, attr_name)
        return [value] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        if len(self._indices(indices)) != self.num_envs:
            raise ValueError(
                f"the games of a native vector env share their attributes: set {attr_name!r} "
                "for all of them (indices=None)"
            )
        setattr(self.venv, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        chosen = self._indices(indices)
        if method_name == "action_masks":
            return list(self.action_masks()[list(chosen)])
        if method_name == "render":
            images = self.get_images()
            return [images[i] for i in chosen]
        method = getattr(self.venv, method_name, None)
        if not callable(method):
            raise AttributeError(f"{type(self.venv).__name__} has no method {method_name!r}")
        result = method(*method_args, **kwargs)
        if isinstance(result, np.ndarray | list | tuple) and len(result) == self.num_envs:
            return [result[i] for i in chosen]
        return [result] * len(chosen)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        wrapped = False
        layer = self.vector_env
        while layer is not None and layer is not self.venv:
            wrapped = wrapped or isinstance(layer, wrapper_class)
            layer = getattr(layer, "env", None)
        return [wrapped] * len(self._indices(indices))

    def get_images(self) -> Sequence[np.ndarray | None]:
        """The drawn games' pictures (None for the others), for SB3's `render()`."""
        if not self._shadows:
            raise ValueError(
                "build the adapter with render_mode='rgb_array' (NativeVecEnv(venv, "
                "render_mode='rgb_array')) to render its games"
            )
        images: list[np.ndarray | None] = [None] * self.num_envs
        for i, shadow in enumerate(self._shadows):
            images[i] = shadow.render()
        return images

    def render(self, mode: str | None = None) -> np.ndarray | None:
        images = [image for image in self.get_images() if image is not None]
        if mode not in (None, "rgb_array"):
            raise ValueError(f"NativeVecEnv renders rgb_array only, got mode={mode!r}")
        if len(images) == 1:
            return images[0]
        from stable_baselines3.common.vec_env.base_vec_env import tile_images

        tiled: np.ndarray = tile_images(images)
        return tiled

    # --- helpers ------------------------------------------------------------------------------
    def _indices(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)

    def _make_shadows(self) -> list[Any]:
        spec = getattr(self.venv, "spec", None)
        if spec is None:
            raise ValueError(
                "rendering needs the vector env's spec: make it with gym.make_vec(ID, ...) so "
                "the adapter can build single envs playing the same games"
            )
        kwargs = {
            k: v
            for k, v in spec.kwargs.items()
            if k not in ("num_envs", "vectorization_mode", "autoreset_mode")
        }
        return [
            gym.make(spec.id, render_mode="rgb_array", **kwargs).unwrapped
            for _ in range(self.render_games)
        ]


def _row(observations: Any, i: int) -> Any:
    if isinstance(observations, dict):
        return {key: value[i] for key, value in observations.items()}
    return observations[i]


def _game_info(info: dict[str, Any], i: int) -> dict[str, Any]:
    """Game i's entries of a batched info dict (the ones marked for it, masks dropped)."""
    out: dict[str, Any] = {}
    for key, value in info.items():
        if key.startswith("_") or key in _NOT_PASSED:
            continue
        marked = info.get(f"_{key}")
        if marked is not None and not marked[i]:
            continue
        if isinstance(value, dict):
            out[key] = _game_info(value, i)
        else:
            out[key] = value[i]
    return out


def _one_options(options: list[dict[str, Any]]) -> dict[str, Any] | None:
    """SB3's per-env reset options as the one dict a native vector env takes."""
    if all(not o for o in options):
        return None
    if any(o != options[0] for o in options):
        raise ValueError(
            "a native vector env takes one reset options dict for all its games: "
            "set_options(dict) rather than a list of different ones"
        )
    return dict(options[0])


__all__ = ["NativeVecEnv"]
