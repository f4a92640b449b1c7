"""Moved to `policies/llm/prompts/tetris.py`; this name stays importable (the same module)."""

import sys

from policies.llm.prompts import tetris

sys.modules[__name__] = tetris
