"""`arcade_gym.multiagent` is the PettingZoo import path of every two-player game, read off the
descriptors' `aec` entries: each name is the game folder's own module, under every import form."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import arcade_gym.multiagent as multiagent
from arcade_gym.core.descriptor import GameDescriptor
from arcade_gym.games import descriptors
from tests.toy_game import ToySpec, toy_games

TWO_PLAYER = [game for game in descriptors() if game.aec is not None]


def test_the_public_names_are_the_descriptors_aec_names() -> None:
    assert {"tictactoe_v0", "chess_v0"} <= {g.aec.name for g in TWO_PLAYER if g.aec}
    assert multiagent.__all__ == sorted(g.aec.name for g in TWO_PLAYER if g.aec)
    assert set(multiagent.__all__) <= set(dir(multiagent))


@pytest.mark.parametrize("game", TWO_PLAYER, ids=lambda g: g.name)
def test_every_import_form_gives_the_game_folders_module(game: GameDescriptor) -> None:
    assert game.aec is not None
    assert game.aec.module == f"arcade_gym.{game.name}.aec"
    own = importlib.import_module(game.aec.module)
    assert getattr(multiagent, game.aec.name) is own
    assert importlib.import_module(f"arcade_gym.multiagent.{game.aec.name}") is own
    assert own.__spec__ is not None and own.__spec__.name == game.aec.module
    env = own.env()
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(mask.argmax()))
    assert env.agent_selection != agent


def test_a_fresh_process_imports_the_submodule_by_its_public_path() -> None:
    code = (
        "import arcade_gym.multiagent.tictactoe_v0 as t, arcade_gym.tictactoe.aec as a;"
        "from arcade_gym.multiagent import chess_v0;"
        "import arcade_gym.chess.aec as c;"
        "assert t is a and chess_v0 is c and t.raw_env.metadata['name'] == 'tictactoe_v0'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_an_unknown_name_is_an_import_error() -> None:
    with pytest.raises(ImportError):
        from arcade_gym.multiagent import go_v0  # noqa: F401
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("arcade_gym.multiagent.go_v0")


def test_a_toy_games_aec_entry_is_importable_by_its_public_name(tmp_path, monkeypatch) -> None:
    with toy_games(tmp_path, monkeypatch, ToySpec("toyduel", aec=True)):
        own = importlib.import_module("toy_toyduel.env")
        assert "toyduel_v0" in dir(multiagent)
        assert multiagent.toyduel_v0 is own
        assert importlib.import_module("arcade_gym.multiagent.toyduel_v0") is own
    assert "toyduel_v0" not in dir(multiagent)
