"""`policies/llm` and `policies/sb3` name no game: a game's prompt and SB3 adapter live in its own
policies folder, found through its descriptor, so adding a game never edits these packages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arcade_gym.games import descriptors, policy_games

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("policies/llm", "policies/sb3")


def spellings(name: str) -> set[str]:
    """`name` lower-cased, its words joined by `-`, `_`, a space or nothing (`Tic-tac-toe` is
    also `tic tac toe`, `tic_tac_toe` and `tictactoe`)."""
    words = [w for w in re.split(r"[-_\s]+", name.lower()) if w]
    return {joiner.join(words) for joiner in ("-", "_", " ", "")}


def game_words() -> set[str]:
    """Every spelling of every game's folder name, title and policy-grammar game (and its older
    names)."""
    names = {n for game in descriptors() for n in (game.name, game.title, *game.games)}
    names.update(alias for game in descriptors() for e in game.envs for alias in e.game_aliases)
    names.update(policy_games())
    return {s for name in names for s in spellings(name)}


def mentions(text: str, words: set[str]) -> list[str]:
    lower = text.lower()
    return sorted(w for w in words if w in lower)


def test_the_game_words_come_from_the_descriptors() -> None:
    words = game_words()
    assert {"tetris", "tetris-primitive", "tetris-controls", "snake", "tictactoe"} <= words
    assert "tic-tac-toe" in words
    assert mentions("from policies.tetris.prompt import PROMPT", words) == ["tetris"]
    assert mentions("a Tic Tac Toe board", words) == ["tic tac toe"]


@pytest.mark.parametrize("package", PACKAGES)
def test_the_package_names_no_game(package: str) -> None:
    words = game_words()
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no Python files under {package}"
    found = {
        str(path.relative_to(ROOT)): hits
        for path in files
        if (hits := mentions(path.read_text(encoding="utf-8"), words))
    }
    assert not found, f"{package} names games: {found}"
