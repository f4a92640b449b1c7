"""Moved to `policies/llm/prompts/narcade.py`; this name stays importable (the same module)."""

import sys

from policies.llm.prompts import narcade

sys.modules[__name__] = narcade
