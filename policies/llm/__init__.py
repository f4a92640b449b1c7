"""LLM brains over any OpenAI-compatible chat endpoint (OpenRouter, vLLM, llama.cpp, Ollama).

`make_llm_brain("gpt-4o-mini")` builds the Tetris Bench brain of a registered model;
`list_models()` lists the registry (the built-in `models.toml`, or `--models-file`). Before a
batch, call `preflight(brain.spec, brain.client)`; after each game, a set `brain.fatal_error`
means the batch must stop.
"""

from __future__ import annotations

from pathlib import Path

from policies.llm.client import ChatClient, ChatReply, FatalModelError, LLMError, ModelCallError
from policies.llm.lanes import make_llm_narcade_policy, make_llm_ttt_engine
from policies.llm.registry import (
    ModelSpec,
    RegistryError,
    get_spec,
    load_registry,
)
from policies.llm.tetris_brain import (
    LLMTetrisBrain,
    PreflightError,
    apreflight,
    is_fatal,
    preflight,
)


def make_llm_brain(
    slug: str, *, models_file: str | Path | None = None, base_url: str | None = None
) -> LLMTetrisBrain:
    """The Tetris brain of registered model `slug` (`models_file` None: the built-in registry);
    `base_url` points it at another server, e.g. a local vLLM. RegistryError names the known
    slugs when `slug` is not one of them."""
    spec = get_spec(slug, load_registry(models_file)).with_base_url(base_url)
    return LLMTetrisBrain(spec)


def list_models(models_file: str | Path | None = None) -> list[ModelSpec]:
    """The registered models, sorted by slug."""
    registry = load_registry(models_file)
    return [registry[slug] for slug in sorted(registry)]


__all__ = [
    "ChatClient",
    "ChatReply",
    "FatalModelError",
    "LLMError",
    "LLMTetrisBrain",
    "ModelCallError",
    "ModelSpec",
    "PreflightError",
    "RegistryError",
    "apreflight",
    "is_fatal",
    "list_models",
    "load_registry",
    "make_llm_brain",
    "make_llm_narcade_policy",
    "make_llm_ttt_engine",
    "preflight",
]
