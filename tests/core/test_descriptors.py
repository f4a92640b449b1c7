"""Every registry is read off the games' descriptors: each game has its facets, and a toy game
added through the documented steps alone (a descriptor and its two folders) is found everywhere."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import gymnasium as gym
import pytest

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.core.descriptor import GameDescriptor
from arcade_gym.core.warmup import registered_warmups
from arcade_gym.games import descriptors, policy_games, register_game, unregister_game
from arcade_gym.registration import NAMESPACE, register_envs
from policies.game_policies import policies_for
from policies.specs import SpecError, builtin_names, make_policy

GAMES = descriptors()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_env_of_a_game_is_registered_with_its_vector_env(game: GameDescriptor) -> None:
    for entry in game.envs:
        spec = gym.spec(f"{NAMESPACE}/{entry.id}")
        assert spec.entry_point == entry.entry_point
        assert spec.vector_entry_point == entry.vector_entry_point


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_game_registers_its_warmup(game: GameDescriptor) -> None:
    assert registered_warmups()[game.name] == game.warmup


@pytest.mark.parametrize("name", policy_games())
def test_every_policy_game_has_builtins_and_an_llm_prompt(name: str) -> None:
    policies = policies_for(name)
    assert policies.builtins, name
    assert policies.prompt is not None, name
    assert builtin_names(name) == list(policies.builtins)


def test_an_unknown_game_is_one_line_naming_the_games() -> None:
    with pytest.raises(SpecError, match="games: tetris"):
        make_policy("random", "go")


TOY_GAME = """
from arcade_gym.core.descriptor import EnvEntry, GameDescriptor

GAME = GameDescriptor(
    name="toycount",
    title="Toy count",
    envs=(EnvEntry("ToyCount-v0", "toy_arcade.toycount.env:ToyCountEnv", "toycount"),),
    warmup="toy_arcade.toycount.env:warmup",
    policies="toy_policies.toycount",
)
"""

TOY_ENV = '''
import gymnasium as gym
import numpy as np


def warmup() -> float:
    return 0.0


class ToyCountEnv(gym.Env):
    """Count to three: action 1 adds one, action 0 ends the game."""

    observation_space = gym.spaces.Box(0, 3, (1,), np.int64)
    action_space = gym.spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.count = 0
        return np.array([0]), {}

    def step(self, action):
        self.count += int(action)
        done = action == 0 or self.count >= 3
        return np.array([self.count]), float(action), done, False, {}
'''

TOY_POLICIES = """
from policies.game_policies import GamePolicies


class Always:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed


POLICIES = (GamePolicies("toycount", {"always": Always}, prompt=None),)
"""


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GameDescriptor:
    for package, files in {
        "toy_arcade": {
            "__init__.py": "",
            "toycount/__init__.py": TOY_GAME,
            "toycount/env.py": TOY_ENV,
        },
        "toy_policies": {"__init__.py": "", "toycount/__init__.py": TOY_POLICIES},
    }.items():
        for name, text in files.items():
            path = tmp_path / package / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    game = register_game("toy_arcade.toycount")
    register_envs()
    yield game
    unregister_game("toy_arcade.toycount")
    gym.registry.pop(f"{NAMESPACE}/ToyCount-v0", None)
    for module in [m for m in sys.modules if m.startswith(("toy_arcade", "toy_policies"))]:
        del sys.modules[module]


def test_a_toy_game_from_its_two_folders_is_in_gym_make_and_the_policy_grammar(
    toy_game: GameDescriptor,
) -> None:
    env = gym.make(f"{NAMESPACE}/ToyCount-v0")
    env.reset(seed=0)
    assert env.step(1)[1] == 1.0
    assert registered_warmups()["toycount"] == "toy_arcade.toycount.env:warmup"
    assert "toycount" in policy_games()
    assert builtin_names("toycount") == ["always"]
    assert type(make_policy("always", "toycount", None)).__name__ == "Always"
    with pytest.raises(ValueError, match="do not play 'toycount' yet"):
        from policies.llm.lanes import prompt_for

        prompt_for("toycount")


def test_two_games_naming_the_same_game_are_refused(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "toy_clash" / "__init__.py"
    path.parent.mkdir()
    path.write_text(TOY_GAME.replace('name="toycount"', 'name="tetris"'))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match="both name"):
        register_game("toy_clash")
    unregister_game("toy_clash")
