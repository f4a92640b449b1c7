"""The LLM lane of a game with Inspect's model behind it: this project's prompt and parser for the
game (`policies/llm/lanes.py:prompt_for`) and its chat-policy base, calling the eval's model
through `InspectChatClient`. The lane sends the benchmark's completion budget
(`policies/llm/budgets.py`) unless the task or the eval sets `max_tokens`, and temperature 0 (the
registry's default) unless the task or the eval sets one. Every log header's `runIdentity` names
the Inspect model and says the calls went `via` Inspect.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from inspect_ai.model import GenerateConfig, Model

from evaluation.inspect_tasks.bridge import ModelBridge
from evaluation.inspect_tasks.client import InspectChatClient
from policies.llm.chat_policy import ChatPolicy
from policies.llm.lanes import lane_spec, prompt_for
from policies.llm.prompts.base import ChatPrompt
from policies.llm.registry import ModelSpec

DEFAULT_TEMPERATURE = 0.0
"""The registry's default temperature (`policies/llm/registry.py:ModelSpec`)."""


def eval_config() -> GenerateConfig:
    """The generate settings of the running eval (`inspect eval --temperature ...`); empty when
    Inspect does not expose them."""
    try:
        from inspect_ai.model._generate_config import active_generate_config
    except ImportError:  # pragma: no cover - older or newer Inspect without it
        return GenerateConfig()
    config = active_generate_config()
    return config if isinstance(config, GenerateConfig) else GenerateConfig()


class InspectChatPolicy(ChatPolicy):
    """A chat policy whose model is Inspect's: its run identity names the model and `via`."""

    via = "inspect"

    def __init__(
        self, spec: ModelSpec, prompt: ChatPrompt, model: Model, bridge: ModelBridge
    ) -> None:
        super().__init__(spec, prompt, InspectChatClient(model, bridge))
        self.inspect_model = model

    def run_identity(self) -> dict[str, Any]:
        """The lane's settings (`policies/llm/run_identity.py`), with Inspect's model name, its
        provider's host (None when Inspect names none) and the eval's reasoning effort."""
        out = super().run_identity()
        base_url = getattr(getattr(self.inspect_model, "api", None), "base_url", None)
        host = urlsplit(base_url).netloc.rsplit("@", 1)[-1] if isinstance(base_url, str) else ""
        effort = eval_config().reasoning_effort
        out.update(
            baseUrlHost=host or None,
            via=self.via,
            inspectModel=str(self.inspect_model),
            reasoningEffort=effort if effort is not None else out.get("reasoningEffort"),
        )
        return out


def lane_slug(model: str) -> str:
    """A registry slug for an Inspect model name (`openai/gpt-4o` stays as it is)."""
    slug = re.sub(r"[^A-Za-z0-9._:/-]+", "-", model).strip("-./:")
    return slug or "inspect-model"


def inspect_lane(
    game: str,
    model: Model,
    bridge: ModelBridge,
    *,
    temperature: float | None = None,
    max_tokens: int | None = None,
) -> InspectChatPolicy:
    """The lane of `game` (a policy game: `tetris`, `snake`, `sudoku`, `chess`, ...) answering
    with `model`. `temperature` and `max_tokens` None: the eval's, else the defaults above."""
    config = eval_config()
    if temperature is None:
        temperature = config.temperature
    if max_tokens is None:
        max_tokens = config.max_tokens
    name = str(model)
    api = str(getattr(getattr(model, "api", None), "__class__", type(None)).__name__)
    values: dict[str, Any] = {
        "slug": lane_slug(name),
        "name": name,
        "provider": f"Inspect ({api})",
        "model": name,
        "temperature": DEFAULT_TEMPERATURE if temperature is None else float(temperature),
        "json_schema": False,
        "api_key_env": "",
    }
    prompt = prompt_for(game)
    if max_tokens is not None:  # exactly this budget, whatever the benchmark's default
        values["limits"] = {prompt.benchmark: int(max_tokens)}
    spec = lane_spec(ModelSpec.model_validate(values), game, prompt)
    return InspectChatPolicy(spec, prompt, model, bridge)
