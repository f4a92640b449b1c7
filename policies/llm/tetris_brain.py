"""Moved: the prompt module to `policies/llm/prompts/tetris.py`, the lane to
`policies/llm/lanes.py`, the pre-flight to `policies/llm/preflight.py`; these names stay
importable from here."""

from policies.llm.errors import is_fatal
from policies.llm.lanes import LLMTetrisBrain
from policies.llm.preflight import PREFLIGHT_TIMEOUT_S, PreflightError, apreflight, preflight
from policies.llm.prompts.tetris import ADAPTER_VERSION

__all__ = [
    "ADAPTER_VERSION",
    "PREFLIGHT_TIMEOUT_S",
    "LLMTetrisBrain",
    "PreflightError",
    "apreflight",
    "is_fatal",
    "preflight",
]
