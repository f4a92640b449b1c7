"""Chat-completion bodies and a scripted httpx.MockTransport handler for the client tests."""

from __future__ import annotations

import json
from typing import Any

import httpx


def completion(
    text: str = '{"candidate":"AB","hold":false,"risk":0.1}',
    *,
    prompt_tokens: int = 120,
    completion_tokens: int = 9,
    cost: Any = None,
    **usage: Any,
) -> dict[str, Any]:
    """A chat.completion body with one assistant message; `cost` (when given) and `usage` go into
    the usage block."""
    block: dict[str, Any] = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
        **usage,
    }
    if cost is not None:
        block["cost"] = cost
    return {
        "id": "gen-1",
        "object": "chat.completion",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": block,
    }


Step = httpx.Response | Exception


class Script:
    """A MockTransport handler answering from a list of responses (the last one repeats)."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.steps[min(len(self.requests) - 1, len(self.steps) - 1)]
        if isinstance(step, Exception):
            raise step
        return step

    def body(self, i: int = 0) -> dict[str, Any]:
        """The JSON body of the i-th request."""
        body: dict[str, Any] = json.loads(self.requests[i].content)
        return body
