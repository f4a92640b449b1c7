"""A model provider for the tests that answers only after `DELAY_S` (an Inspect `ModelAPI`
registered as `arcade-slow/...`), counting the requests it got and those cancelled while waiting."""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, modelapi

from tests.evaluation.inspect_tasks.mock import reply

DELAY_S = 30.0
COUNTS = {"started": 0, "cancelled": 0}


@modelapi(name="arcade-slow")
class SlowModel(ModelAPI):
    """Sleeps, then answers with an unreadable reply."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008  (Inspect's own signature)
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)

    async def generate(self, input: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        COUNTS["started"] += 1
        try:
            await asyncio.sleep(DELAY_S)
        except asyncio.CancelledError:
            COUNTS["cancelled"] += 1
            raise
        return reply("too late")
