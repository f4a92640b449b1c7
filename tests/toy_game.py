"""One toy game for every test that adds a game through the documented steps only: a descriptor
and its two folders (`docs/adding-a-game.md`), written to a temporary folder, registered with
`register_game` and forgotten afterwards.

`toy_games(...)` is the builder (a context manager), each test file's fixture calls it. A toy's
envs come from one module (`ENV_SOURCE`): `ToyEnv` counts to three (0 stops, 1 adds one, 2 adds
two and is masked from two up; the seed picks a parity bit, so a replay from another seed
diverges; a masked action is a ValueError), `ToyPlainEnv` is the same without an ansi render, and
`ToyFreeEnv` takes either of two actions with no mask (0 ends). `ToyVectorEnv` steps N counters
together. `STEPS` counts the steps each kind took, for tests that check an env was really played.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import gymnasium as gym
import pytest

from arcade_gym.core.descriptor import GameDescriptor
from arcade_gym.games import register_game, unregister_game
from arcade_gym.registration import NAMESPACE, register_envs

PREFIX = "toy_"
"""Every toy package's name starts with it (`toy_<name>` and `toy_<name>_policies`)."""

ENV_SOURCE = '''
import gymnasium as gym
import numpy as np
from gymnasium.vector.utils import batch_space

STEPS = {"toy": 0, "free": 0, "vector": 0}


def warmup() -> float:
    return 0.0


class ToyEnv(gym.Env):
    """Count to three: action 0 stops, 1 adds one, 2 adds two (masked from two up)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}
    observation_space = gym.spaces.Box(0, 9, (2,), np.int64)
    action_space = gym.spaces.Discrete(3)

    def __init__(self, render_mode=None):
        self.render_mode = render_mode

    def _mask(self):
        return np.array([1, 1, int(self.count < 2)], dtype=np.int8)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.count = 0
        self.bit = int(self.np_random.integers(0, 2))
        return np.array([0, self.bit]), {"action_mask": self._mask()}

    def step(self, action):
        if not self._mask()[int(action)]:
            raise ValueError(f"masked action {action}")
        STEPS["toy"] += 1
        self.count += int(action)
        done = action == 0 or self.count >= 3
        obs = np.array([self.count, self.bit])
        return obs, float(action), done, False, {"action_mask": self._mask()}

    def render(self):
        return f"count {self.count} of 3"


class ToyPlainEnv(ToyEnv):
    """`ToyEnv` without an ansi render: a viewer shows its observation."""

    metadata = {"render_modes": [], "render_fps": 4}


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


class ToyVectorEnv(gym.vector.VectorEnv):
    """N counters stepped together."""

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}

    def __init__(self, num_envs=1, **kwargs):
        self.num_envs = num_envs
        self.single_observation_space = ToyEnv.observation_space
        self.single_action_space = gym.spaces.Discrete(2)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.counts = np.zeros((num_envs, 2), np.int64)

    def reset(self, *, seed=None, options=None):
        self.counts[:] = 0
        return self.counts.copy(), {}

    def step(self, actions):
        STEPS["vector"] += self.num_envs
        self.counts[:, 0] += 1
        done = self.counts[:, 0] >= 3
        self.counts[done] = 0
        zeros = np.zeros(self.num_envs)
        return self.counts.copy(), zeros, done, np.zeros(self.num_envs, bool), {}


def env(**kwargs):
    """The module a toy's `aec` entry names (only its import path is under test)."""
    return ToyEnv(**kwargs)
'''

POLICIES_SOURCE = '''
from policies.game_policies import GamePolicies


class Always:
    """A built-in that only remembers its seed."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed


POLICIES = tuple(GamePolicies(game, {BUILTIN: Always}, prompt=None) for game in GAMES)
'''

VIEWER_SOURCE = "window.ArcadeViewers = window.ArcadeViewers || {{}};\n" + (
    "window.ArcadeViewers.{name} = {{ draw: function () {{}} }};\n"
)


@dataclass(frozen=True)
class ToyEnvEntry:
    """One env of a toy: its id (`ToyCount-v0`), class in `ENV_SOURCE`, policy game (default
    the toy's name) and whether it names `ToyVectorEnv` as its native vector env."""

    id: str
    cls: str = "ToyEnv"
    game: str | None = None
    vector: bool = False


@dataclass(frozen=True)
class ToySpec:
    """A toy game to write: its name, envs, built-in policy name, and optional facets."""

    name: str
    envs: tuple[ToyEnvEntry, ...] = ()
    builtin: str = "always"
    viewer: bool = False
    aec: bool = False
    title: str = ""

    @property
    def package(self) -> str:
        return f"{PREFIX}{self.name}"


def _descriptor_source(spec: ToySpec) -> str:
    pkg = spec.package
    envs = spec.envs or (ToyEnvEntry(f"{spec.name.capitalize()}-v0"),)
    entries = ", ".join(
        f"EnvEntry({e.id!r}, '{pkg}.env:{e.cls}', {(e.game or spec.name)!r}"
        + (f", vector_entry_point='{pkg}.env:ToyVectorEnv'" if e.vector else "")
        + ")"
        for e in envs
    )
    facets = ""
    if spec.viewer:
        facets += f"    viewer='{pkg}:viewer.js',\n"
    if spec.aec:
        facets += f"    aec=AecEntry('{spec.name}_v0', '{pkg}.env'),\n"
    return (
        "from arcade_gym.core.descriptor import AecEntry, EnvEntry, GameDescriptor\n\n"
        "GAME = GameDescriptor(\n"
        f"    name={spec.name!r},\n"
        f"    title={(spec.title or 'Toy ' + spec.name)!r},\n"
        f"    envs=({entries},),\n"
        f"    warmup='{pkg}.env:warmup',\n"
        f"    policies='{pkg}_policies',\n"
        f"{facets})\n"
    )


def write_toy(root: Path, spec: ToySpec) -> None:
    """Write `spec`'s two folders under `root`: `toy_<name>/` and `toy_<name>_policies/`."""
    envs = spec.envs or (ToyEnvEntry(f"{spec.name.capitalize()}-v0"),)
    games = list(dict.fromkeys(e.game or spec.name for e in envs))
    files = {
        f"{spec.package}/__init__.py": _descriptor_source(spec),
        f"{spec.package}/env.py": textwrap.dedent(ENV_SOURCE),
        f"{spec.package}_policies/__init__.py": f"GAMES = {games!r}\nBUILTIN = {spec.builtin!r}\n"
        + POLICIES_SOURCE,
    }
    if spec.viewer:
        files[f"{spec.package}/viewer.js"] = VIEWER_SOURCE.format(name=spec.name)
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@contextmanager
def toy_games(
    root: Path, monkeypatch: pytest.MonkeyPatch, *specs: ToySpec
) -> Iterator[list[GameDescriptor]]:
    """Write, register (games and env ids) and afterwards forget the toy games `specs`."""
    for spec in specs:
        write_toy(root, spec)
    monkeypatch.syspath_prepend(str(root))
    games: list[GameDescriptor] = []
    try:
        games.extend(register_game(spec.package) for spec in specs)
        register_envs()
        yield games
    finally:
        for spec in specs:
            unregister_game(spec.package)
        for game in games:
            for entry in game.envs:
                gym.registry.pop(f"{NAMESPACE}/{entry.id}", None)
        for module in [m for m in sys.modules if m.startswith(PREFIX)]:
            del sys.modules[module]
        multiagent = sys.modules.get("arcade_gym.multiagent")
        for game in games:
            if game.aec is not None and multiagent is not None:
                multiagent.__dict__.pop(game.aec.name, None)
                sys.modules.pop(f"arcade_gym.multiagent.{game.aec.name}", None)
