"""The policy block of every log header and result: who played, and for a model with settings
(an LLM lane) under which settings. Every benchmark writes its headers through `policy_identity`,
so this is the one place a header learns a model's full settings (`runIdentity`: model id,
endpoint host or command, temperature, token limit and parameter, reasoning, prompt and adapter
versions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def policy_identity(policy: object) -> dict[str, Any]:
    """`identity()` when the policy has one, else its attributes (slug, name, description, kind,
    adapterVersion, and provider / model when set); plus `runIdentity`, the full settings of a
    policy that has them (`run_identity()`)."""
    brain = _identity(policy)
    settings = _settings(policy)
    if settings is not None:
        brain["runIdentity"] = settings
    return brain


def _settings(policy: object) -> dict[str, Any] | None:
    """The policy's `run_identity()` (None: it has none, or it failed)."""
    settings = getattr(policy, "run_identity", None)
    if callable(settings):
        try:
            out = settings()
        except Exception:
            out = None
        if isinstance(out, Mapping):
            return dict(out)
    return None


def _identity(policy: object) -> dict[str, Any]:
    identity = getattr(policy, "identity", None)
    if callable(identity):
        try:
            out = identity()
        except Exception:
            out = None
        if isinstance(out, Mapping):
            return dict(out)
    fallback = type(policy).__name__
    brain: dict[str, Any] = {
        "slug": str(getattr(policy, "slug", fallback.lower())),
        "name": str(getattr(policy, "name", fallback)),
        "description": str(getattr(policy, "description", "")),
        "kind": str(getattr(policy, "kind", "baseline")),
        "adapterVersion": str(getattr(policy, "adapter_version", "1")),
    }
    for key in ("provider", "model"):
        value = getattr(policy, key, None)
        if value is not None:
            brain[key] = str(value)
    return brain


def run_settings(policy: object) -> dict[str, Any]:
    """What a resumed run must find unchanged about a policy: an LLM policy's full settings
    (`run_identity()`: model, endpoint host, temperature, token limits, reasoning, prompt and
    adapter versions), else its identity block."""
    settings = _settings(policy)
    return settings if settings is not None else _identity(policy)
