"""The five benchmarks as Inspect AI tasks (the optional `inspect` extra, `docs/inspect.md`).

`inspect eval arcade_gym/sudoku --model openai/gpt-4o-mini` plays each sample (a grid, a seed, a
position, a game) through the one episode loop (`evaluation/core/episode.py`) with this project's
own prompts and parsers (`policies/llm/`), asking Inspect's model: the eval's model is adapted
into the policy protocol of `policies/base.py` (`lane.py`, `client.py`, `bridge.py`), every sample
writes this project's event log (which `arcade-eval verify` replays), and the scorer is the
benchmark's own rule (`scoring.py`, `metrics.py`). Nothing else in the project imports this
package, so only its users need Inspect.
"""

from __future__ import annotations

try:
    import inspect_ai  # noqa: F401  (only to fail early, in one line, without the extra)
except ImportError:  # pragma: no cover - exercised only where the extra is absent
    raise ImportError(
        'the Inspect tasks need the inspect extra: pip install -e ".[inspect]" '
        "(or pip install inspect-ai)"
    ) from None
