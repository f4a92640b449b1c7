"""Moved: the prompt module to `policies/llm/prompts/narcade.py`, the lane to
`policies/llm/lanes.py`, the call record to `policies/llm/telemetry.py`; these names stay
importable from here."""

from policies.llm.chat_policy import ChatPolicy as ChatLane
from policies.llm.chat_policy import raw_text
from policies.llm.lanes import LLMNarcadePolicy
from policies.llm.prompts.narcade import (
    ADAPTER_VERSION,
    INVALID_ACTION_PREFIX,
    TETRIS_CONTRACT,
    answer_model,
)
from policies.llm.telemetry import LLMCall

__all__ = [
    "ADAPTER_VERSION",
    "INVALID_ACTION_PREFIX",
    "TETRIS_CONTRACT",
    "ChatLane",
    "LLMCall",
    "LLMNarcadePolicy",
    "answer_model",
    "raw_text",
]
