"""Factories of the NARCADE and tic-tac-toe LLM lanes from the model registry.

A runner spec `llm:<slug>` names a registered model; the runner strips the prefix and calls these
(`models_file` None: the built-in registry; `base_url` points the model at another server, e.g. a
local vLLM). RegistryError names the known slugs when `slug` is not one of them.
"""

from __future__ import annotations

from pathlib import Path

from policies.llm.narcade_brain import LLMNarcadePolicy
from policies.llm.registry import ModelSpec, get_spec, load_registry
from policies.llm.ttt_brain import LLMTicTacToeEngine


def _spec(slug: str, models_file: str | Path | None, base_url: str | None) -> ModelSpec:
    return get_spec(slug, load_registry(models_file)).with_base_url(base_url)


def make_llm_narcade_policy(
    slug: str,
    game: str,
    *,
    models_file: str | Path | None = None,
    base_url: str | None = None,
) -> LLMNarcadePolicy:
    """The NARCADE policy of registered model `slug` for `game` (snake, minesweeper, tetris);
    ValueError for another game."""
    return LLMNarcadePolicy(_spec(slug, models_file, base_url), game)


def make_llm_ttt_engine(
    slug: str, *, models_file: str | Path | None = None, base_url: str | None = None
) -> LLMTicTacToeEngine:
    """The tic-tac-toe arena engine of registered model `slug`."""
    return LLMTicTacToeEngine(_spec(slug, models_file, base_url))
