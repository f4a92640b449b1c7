"""A response cache (`--cache DIR`): a repeat of the exact same request is answered from disk.

The key is a SHA-256 of the request as sent: the endpoint URL, the whole JSON body (model id,
messages, temperature, the token-limit key and value, reasoning settings, response format, extra
body) and the extra headers. So a reply is never reused under different settings, and a re-run
with the same settings makes no HTTP request and gets the same replies, hence the same logs.
Only successful completions are stored, with the latency and retries of the original call so a
replayed decision records exactly what the first one did. Within one run a repeated request is
answered from the cache as well, so the first run and its re-run agree; the first stored reply
for a key is kept (two identical requests in flight at once: the first to finish wins).

Files are `DIR/<2 hex>/<64 hex>.json`, written atomically. The API key is never part of the key
or of the file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CACHE_FORMAT = "arcade-gym-llm-cache/1"


@dataclass(frozen=True)
class CachedResponse:
    """A stored completion: the body and headers it came with, and how the call went."""

    body: dict[str, Any]
    headers: dict[str, str]
    latency_ms: float
    retries: int


def request_key(url: str, body: Mapping[str, Any], headers: Mapping[str, str]) -> str:
    """The hex SHA-256 of the canonical request (secrets excluded)."""
    canonical = json.dumps(
        {
            "url": url,
            "body": body,
            "headers": {k.lower(): v for k, v in headers.items() if k.lower() != "authorization"},
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    """Completions on disk, keyed by `request_key`; thread- and process-safe to share."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(f"cannot use {self.directory} as a cache directory: {exc}") from None
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> CachedResponse | None:
        """The stored response for `key`; None when absent or unreadable (then it is re-asked)."""
        try:
            data = json.loads(self._path(key).read_text("utf-8"))
        except (OSError, ValueError):
            self.misses += 1
            return None
        if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
            self.misses += 1
            return None
        self.hits += 1
        return CachedResponse(
            body=dict(data.get("body") or {}),
            headers={str(k): str(v) for k, v in (data.get("headers") or {}).items()},
            latency_ms=float(data.get("latencyMs") or 0.0),
            retries=int(data.get("retries") or 0),
        )

    def put(self, key: str, response: CachedResponse) -> None:
        """Store a response unless one is already stored for `key` (atomic write)."""
        path = self._path(key)
        if path.exists():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "format": CACHE_FORMAT,
            "body": response.body,
            "headers": response.headers,
            "latencyMs": response.latency_ms,
            "retries": response.retries,
        }
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(payload, handle, ensure_ascii=False)
            if not path.exists():
                os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
