"""JSON from files this run did not write (manifests, result files, log lines, site inputs), read
within bounds: a document too large or nested too deeply is a `ValueError` with one clear
sentence, never a `RecursionError` or an exhausted memory.

The depth limit leaves room for what our own writers produce: an event log's answer is kept as
data to `evaluation/core/eventlog.py:MAX_DEPTH` (64) levels, and a tagged mapping spends three
JSON levels on each of its own, so 256 never refuses a log we wrote. Python code that walks the
parsed value recursively (comparisons, `from_jsonable`) stays far below the interpreter's
recursion limit at that depth.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAX_DEPTH = 256
"""The deepest nesting of arrays and objects accepted."""
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
"""The largest JSON document (manifest, result, report) read whole."""


class UntrustedJSONError(ValueError):
    """JSON refused for its size or depth (a `ValueError`, as a malformed document is)."""


def _depth(value: Any, limit: int) -> int:
    """The nesting depth of a parsed value, walked without recursion; stops past `limit`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads(text)`, refusing nesting deeper than `max_depth` with `UntrustedJSONError`
    (also where the parser itself would run out of stack)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise UntrustedJSONError(f"nested deeper than {max_depth} levels") from None
    if isinstance(value, dict | list):
        brackets = (
            text.count("[") + text.count("{")
            if isinstance(text, str)
            else text.count(b"[") + text.count(b"{")
        )
        if brackets > max_depth and _depth(value, max_depth) > max_depth:
            raise UntrustedJSONError(f"nested deeper than {max_depth} levels")
    return value


def read_json(
    path: str | Path, *, max_bytes: int = MAX_DOCUMENT_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """The JSON document in `path`, read only up to `max_bytes` (a larger file is refused, never
    loaded) and parsed by `loads`. OSError for an unreadable file, ValueError for a bad one."""
    with open(path, "rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UntrustedJSONError(f"larger than {max_bytes // (1024 * 1024)} MB")
    return loads(data.decode("utf-8"), max_depth=max_depth)
