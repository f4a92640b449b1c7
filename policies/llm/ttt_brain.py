"""Moved: the prompt and parser to `policies/llm/prompts/tictactoe.py`, the lane to
`policies/llm/lanes.py`; these names stay importable from here."""

from policies.llm.lanes import LLMTicTacToeEngine
from policies.llm.prompts.tictactoe import (
    ADAPTER_VERSION,
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    MoveReply,
    build_messages,
    parse_move_reply,
    render_question,
    reply_instruction,
)

__all__ = [
    "ADAPTER_VERSION",
    "PROMPT_VERSION",
    "SYSTEM_PROMPT",
    "LLMTicTacToeEngine",
    "MoveReply",
    "build_messages",
    "parse_move_reply",
    "render_question",
    "reply_instruction",
]
