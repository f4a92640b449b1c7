"""Every registry is read off the games' descriptors: each game has its facets, and a toy game
added through the documented steps alone (a descriptor and its two folders) is found everywhere."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import pytest

import arcade_gym  # noqa: F401  (registers the envs)
from arcade_gym.core.descriptor import GameDescriptor
from arcade_gym.core.warmup import registered_warmups
from arcade_gym.games import (
    descriptor,
    descriptors,
    policy_games,
    register_game,
    unregister_game,
)
from arcade_gym.registration import NAMESPACE
from policies.game_policies import load, policies_for
from policies.specs import SpecError, builtin_names, make_policy
from tests.toy_game import ToyEnvEntry, ToySpec, toy_games, write_toy

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
def test_every_policy_game_has_builtins_an_llm_prompt_and_an_sb3_adapter(name: str) -> None:
    from policies.llm.lanes import prompt_for
    from policies.sb3.games import adapter_for

    policies = policies_for(name)
    assert policies.builtins, name
    assert builtin_names(name) == list(policies.builtins)
    assert policies.prompt is not None and prompt_for(name) is not None, name
    assert policies.sb3 is not None, name
    adapter = adapter_for(name)
    assert adapter is not None and adapter.game == name
    assert adapter.env_id in {f"{NAMESPACE}/{e.id}" for e in descriptor(name).envs}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_game_has_a_frame_a_viewer_a_bench_and_a_play_setup(game: GameDescriptor) -> None:
    """The facets a game folder gives the evaluation side, each found through the descriptor:
    its frame (`<package>/frame.py:frame`) and viewer for the site, its `arcade-eval bench` entry
    and its own figures, and an `arcade-eval play` setup."""
    from evaluation.play.catalogue import play_setups
    from evaluation.site.viewers import viewers
    from evaluation.throughput.registry import bench_names

    assert game.viewer is not None, game.name
    package = game.viewer.partition(":")[0]
    assert callable(importlib.import_module(f"{package}.frame").frame), game.name
    assert viewers()[game.name].is_file()
    assert game.name in bench_names()
    assert game.bench is not None and callable(load(game.bench)), game.name
    assert game.name in {setup.game for setup in play_setups().values()}


def test_an_unknown_game_is_one_line_naming_the_games() -> None:
    with pytest.raises(SpecError, match="games: tetris"):
        make_policy("random", "go")


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GameDescriptor]:
    with toy_games(tmp_path, monkeypatch, ToySpec("toycount", (ToyEnvEntry("ToyCount-v0"),))) as (
        game,
    ):
        yield game


def test_a_toy_game_from_its_two_folders_is_in_gym_make_and_the_policy_grammar(
    toy_game: GameDescriptor,
) -> None:
    env = gym.make(f"{NAMESPACE}/ToyCount-v0")
    env.reset(seed=0)
    assert env.step(1)[1] == 1.0
    assert registered_warmups()["toycount"] == "toy_toycount.env:warmup"
    assert "toycount" in policy_games()
    assert builtin_names("toycount") == ["always"]
    assert type(make_policy("always", "toycount", None)).__name__ == "Always"
    with pytest.raises(ValueError, match="do not play 'toycount' yet"):
        from policies.llm.lanes import prompt_for

        prompt_for("toycount")


def test_two_games_naming_the_same_game_are_refused(tmp_path: Path, monkeypatch) -> None:
    write_toy(tmp_path, ToySpec("tetris"))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match="both name"):
        register_game("toy_tetris")
    unregister_game("toy_tetris")
    sys.modules.pop("toy_tetris", None)
