"""A response cache (`--cache DIR`): a repeat of the exact same request is answered from disk.

The key is a SHA-256 of the request as sent: the endpoint URL, the whole JSON body (model id,
messages, temperature, the token-limit key and value, reasoning settings, response format, extra
body) and the extra headers, and of its attempt: the n-th time in a row a policy sends this same
request (a benchmark's retry of an unreadable reply asks the same question again) is attempt n,
so a retry is a new request and never the cached reply it retries. So a reply is never reused
under different settings or for a retry, and a re-run with the same settings makes no HTTP
request and gets the same replies, hence the same logs.
Only successful completions are stored, with the latency and retries of the original call so a
replayed decision records exactly what the first one did. Within one run a repeated request is
answered from the cache as well, so the first run and its re-run agree; the first stored reply
for a key is kept (two identical requests in flight at once: the first to finish wins).

Files are `DIR/<2 hex>/<64 hex>.json`, written by atomic replace (a temporary file in the same
directory, then a rename, never through an existing link). The API key is never part of the key
or of the file. Every file in `DIR` is untrusted: an entry is served only when it is a regular
file (opened with `O_NOFOLLOW`, its directory too; a FIFO or a symlink is never opened through)
of at most `MAX_ENTRY_BYTES`, is valid JSON of this `CACHE_FORMAT`, and records as
`requestHash` the very key it is asked for. Anything else (a planted or copied file, an entry of
an older format, a truncated one) is ignored: the request is sent again and the fresh reply
replaces the bad entry.

In the log: every reply a cache-enabled client returns carries its request hash
(`ChatReply.cache_key`), and its call record says `"cache": "used"` with that
`"requestHash"`, on the run that stored the reply and on every re-run that reads it alike, so
the two logs stay byte-identical; whether this particular call was served from disk
(`ChatReply.from_cache`) is kept out of the log for that reason and counted in the policy's
`usage["cacheHits"]`. A reader of a log can thus tell which decisions may have come from a cache
and find the entry each one is (`DIR/<hash[:2]>/<hash>.json`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import math
import os
import re
import secrets
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CACHE_FORMAT = "arcade-gym-llm-cache/3"
"""Version 3 keys each request by its attempt too; version 2 recorded the request hash and
version 1 did not. Entries of older versions are re-requested."""

MAX_ENTRY_BYTES = 16 * 1024 * 1024
"""The largest entry read (and written); a bigger file is ignored, never read whole."""

_KEY = re.compile(r"[0-9a-f]{64}")
_NOT_OURS = (errno.ELOOP, errno.ENOTDIR, errno.EISDIR)
"""Errors of a path taken by something planted: a symlink, a file where a directory belongs."""


@dataclass(frozen=True)
class CachedResponse:
    """A stored completion: the body and headers it came with, and how the call went."""

    body: dict[str, Any]
    headers: dict[str, str]
    latency_ms: float
    retries: int


def request_key(
    url: str, body: Mapping[str, Any], headers: Mapping[str, str], attempt: int = 1
) -> str:
    """The hex SHA-256 of the canonical request and its attempt (secrets excluded)."""
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 1:
        raise ValueError(f"an attempt is a whole number >= 1, got {attempt!r}")
    canonical = json.dumps(
        {
            "url": url,
            "body": body,
            "headers": {k.lower(): v for k, v in headers.items() if k.lower() != "authorization"},
            "attempt": attempt,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def parse_entry(data: bytes, key: str) -> CachedResponse | None:
    """The response a cache file holds for `key`; None unless it is a well-formed entry of
    `CACHE_FORMAT` whose `requestHash` is `key`."""
    try:
        entry = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT:
        return None
    if entry.get("requestHash") != key:
        return None
    body, headers = entry.get("body"), entry.get("headers")
    latency, retries = entry.get("latencyMs"), entry.get("retries")
    if not isinstance(body, dict) or not isinstance(headers, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items()):
        return None
    if isinstance(latency, bool) or not isinstance(latency, int | float):
        return None
    if not (math.isfinite(latency) and latency >= 0):
        return None
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        return None
    return CachedResponse(body=body, headers=headers, latency_ms=float(latency), retries=retries)


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

    def path(self, key: str) -> Path:
        """Where the entry of `key` lives."""
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> CachedResponse | None:
        """The stored response for `key`; None when absent or not a valid entry for `key`
        (then it is asked again)."""
        data = self._read(key)
        found = None if data is None else parse_entry(data, key)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: str, response: CachedResponse) -> None:
        """Store a response unless a valid one is already stored for `key` (atomic replace; a
        bad entry in the way is replaced; a path taken by a planted link is left alone)."""
        _check_key(key)
        payload = json.dumps(
            {
                "format": CACHE_FORMAT,
                "requestHash": key,
                "body": response.body,
                "headers": response.headers,
                "latencyMs": response.latency_ms,
                "retries": response.retries,
            },
            ensure_ascii=False,
        ).encode("utf-8")
        if len(payload) > MAX_ENTRY_BYTES:
            return  # it could never be read back
        try:
            sub = self._subdir(key, create=True)
        except OSError as exc:
            if exc.errno in _NOT_OURS:
                return
            raise
        try:
            _store(sub, f"{key}.json", key, payload)
        finally:
            os.close(sub)

    # --- the file system, without following links ------------------------------------------------
    def _subdir(self, key: str, *, create: bool) -> int:
        """A descriptor of `DIR/<key[:2]>`, opened without following a link."""
        root = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(key[:2], 0o755, dir_fd=root)
            return os.open(key[:2], os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=root)
        finally:
            os.close(root)

    def _read(self, key: str) -> bytes | None:
        if not _KEY.fullmatch(key):
            return None
        try:
            sub = self._subdir(key, create=False)
        except OSError:
            return None
        try:
            return _read_regular(sub, f"{key}.json")
        finally:
            os.close(sub)


def _check_key(key: str) -> None:
    if not _KEY.fullmatch(key):
        raise ValueError(f"a cache key is 64 lowercase hex digits, got {key[:80]!r}")


def _read_regular(dir_fd: int, name: str) -> bytes | None:
    """The bytes of the regular file `name` in `dir_fd` (None: missing, a link, a FIFO or other
    special file, unreadable, or larger than `MAX_ENTRY_BYTES`)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        chunks, size = [], 0
        while size <= MAX_ENTRY_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_ENTRY_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return None if size > MAX_ENTRY_BYTES else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _store(dir_fd: int, name: str, key: str, payload: bytes) -> None:
    """Write `payload` as `name` in `dir_fd`: kept when a valid entry for `key` is there first."""
    existing = _read_regular(dir_fd, name)
    if existing is not None and parse_entry(existing, key) is not None:
        return
    tmp = f".tmp-{secrets.token_hex(8)}.json"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=dir_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        try:  # no entry yet: a hard link never replaces one another writer just made
            os.link(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
        except FileExistsError:
            existing = _read_regular(dir_fd, name)
            if existing is None or parse_entry(existing, key) is None:
                os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno in _NOT_OURS:
                return
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)  # no hard links here
    except OSError as exc:
        if exc.errno not in _NOT_OURS:
            raise
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=dir_fd)
