"""LLM policies over any OpenAI-compatible chat endpoint (OpenRouter, LiteLLM, vLLM, llama.cpp,
Ollama) or an agent command-line tool.

- `make_llm_policy(slug, game)` builds the lane of a registered model for a game (the prompt the
  game's policies name, `policies/<game>/prompt.py`, + the chat-policy base
  `policies/llm/chat_policy.py`); `prompt_for(game)` is that prompt;
  `make_cli_policy(command, game)` the same through an agent CLI (`cli:`; its tokens and cost
  read from its structured output, `policies/llm/cli_output.py`); each lane sends its
  benchmark's token limit (`policies/llm/budgets.py`);
- `list_models()` lists the registry (the built-in `models.toml`, or `--models-file`);
- before a batch, `policy.preflight()` makes one call in the benchmark's format;
- during a run, `ServiceFailure` (abort the game), `FatalModelError` and `CostCapReached` (stop
  the run, resumable) are the exceptions a loop must tell apart (`policies/llm/errors.py`);
  `policy.pop_telemetry()` gives each decision's call record, `policy.run_identity()` the
  settings a log header records (`identity_differences` compares two on resume);
- `CostMeter(cap)` is the run's `--max-cost-usd`, `ResponseCache(dir)` its `--cache`.
"""

from __future__ import annotations

from pathlib import Path

from policies.llm.cache import ResponseCache
from policies.llm.chat_policy import ChatPolicy
from policies.llm.client import ChatClient, ChatReply
from policies.llm.cost_meter import CostMeter
from policies.llm.errors import (
    CallCancelledError,
    CostCapReached,
    FatalModelError,
    LLMError,
    ModelCallError,
    ServiceFailure,
    is_fatal,
    is_service_failure,
)
from policies.llm.lanes import cli_spec, make_cli_policy, make_llm_policy, prompt_for
from policies.llm.preflight import PreflightError, apreflight, preflight
from policies.llm.registry import ModelSpec, RegistryError, get_spec, load_registry
from policies.llm.run_identity import identity_differences, run_identity


def list_models(models_file: str | Path | None = None) -> list[ModelSpec]:
    """The registered models, sorted by slug."""
    registry = load_registry(models_file)
    return [registry[slug] for slug in sorted(registry)]


__all__ = [
    "CallCancelledError",
    "ChatClient",
    "ChatPolicy",
    "ChatReply",
    "CostCapReached",
    "CostMeter",
    "FatalModelError",
    "LLMError",
    "ModelCallError",
    "ModelSpec",
    "PreflightError",
    "RegistryError",
    "ResponseCache",
    "ServiceFailure",
    "apreflight",
    "cli_spec",
    "get_spec",
    "identity_differences",
    "is_fatal",
    "is_service_failure",
    "list_models",
    "load_registry",
    "make_cli_policy",
    "make_llm_policy",
    "preflight",
    "prompt_for",
    "run_identity",
]
