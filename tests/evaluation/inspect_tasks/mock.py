"""Inspect's mock model for the task tests: fixed replies, each with token counts (without them
newer Inspect counts tokens with tiktoken, which downloads its encoding: no network in tests)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from inspect_ai.model import ModelOutput, ModelUsage, get_model


def reply(text: str) -> ModelOutput:
    """One mock reply with token counts."""
    output = ModelOutput.from_content(model="mockllm/model", content=text)
    output.usage = ModelUsage(input_tokens=120, output_tokens=12, total_tokens=132)
    return output


def mock_model(texts: Iterable[str]) -> Any:
    """`mockllm/model` answering `texts` in order (it fails when they run out)."""
    return get_model("mockllm/model", custom_outputs=[reply(t) for t in texts])
