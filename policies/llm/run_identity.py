"""Run identity: everything about a model's settings that can change its results, as one
JSON-able dict for log headers and result files, and the differences between two of them.

A resume, a merge or a `--compare-with` must refuse to mix results obtained under different
settings: another temperature, token budget, server, reasoning setting or prompt. The dict holds
the model id and provider, the base URL's host (or the agent CLI's command), the sampling and
budget settings, the reasoning settings, whether a JSON schema constrains the reply, the
`extra_body` keys with a digest of their values (provider routing changes the model actually
served), the prompt and adapter versions, and `requestSeed: false` for a server that takes no
request seed (repeats then sample without one; absent: it takes one). The token limit is the
lane's: the budget its benchmark gets (`policies/llm/budgets.py`). An agent CLI (`command`) is
sent neither a temperature nor a budget (the tool's own settings apply), so both are recorded as
null. It never holds a key or a header value.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from policies.llm.registry import ModelSpec


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def run_identity(spec: ModelSpec, *, prompt_version: str, adapter_version: str) -> dict[str, Any]:
    """The model's full settings plus the prompt and adapter versions (camelCase keys)."""
    host = urlsplit(spec.base_url).netloc.rsplit("@", 1)[-1]
    sent = spec.command is None  # an agent CLI gets the prompt only
    return {
        "slug": spec.slug,
        "modelId": spec.model,
        "provider": spec.provider,
        "baseUrlHost": None if spec.command is not None else host,
        "command": spec.command,
        "temperature": spec.temperature if sent else None,
        "maxTokens": spec.max_tokens if sent and spec.token_param != "none" else None,
        "tokenParam": spec.token_param if sent else "none",
        "reasoning": spec.reasoning.to_request() if spec.reasoning is not None else None,
        "reasoningEffort": spec.reasoning_effort,
        "jsonSchema": spec.json_schema,
        "extraBodyKeys": sorted(spec.extra_body),
        "extraBodyDigest": _digest(spec.extra_body) if spec.extra_body else None,
        "promptVersion": prompt_version,
        "adapterVersion": adapter_version,
        **({} if spec.seed or not sent else {"requestSeed": False}),
    }


def identity_differences(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """One line per setting that differs, e.g. `temperature: 0.0 -> 1.5` (empty: the same run).
    A key missing on one side counts as a difference."""
    lines = []
    for key in sorted(set(recorded) | set(current)):
        before, after = recorded.get(key, "(absent)"), current.get(key, "(absent)")
        if before != after:
            shown = (json.dumps(v, default=str) for v in (before, after))
            lines.append(f"{key}: {' -> '.join(shown)}")
    return lines
