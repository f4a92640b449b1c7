"""A replay in the compact form a site page carries: frames as changes, then deflated.

A replay's frames (`docs/frames.md`) repeat almost everything from one decision to the next: a
board changes in a few cells, a score by one figure. `delta_frames` keeps the first
frame whole and each later one as its changes against the one before; `compact_replay` leaves
out what no viewer draws (`LEFT_OUT`), deflates the changes (zlib, raw DEFLATE) and writes them as
base64 text. `evaluation/site/assets/replay.js` (with `assets/inflate.js`) undoes both before any
viewer sees a frame, so viewers get the frames exactly as exported; `expand_replay` does the same
here (tests, readers of a page). Nothing here knows a game: the encoding works on any JSON data.

Measured on the shipped results (`docs/results/`): a game of 590 decisions is 1.22 MB of frames,
199 KB as changes without `answer`, 23 KB deflated (31 KB as base64).

A change is one of:

- a JSON value: the new value as it stands (numbers, strings, null, booleans), or
- `[value]`: a list or object replaced whole (`[[1, 2]]` is the list `[1, 2]`), or
- `{"k": {key: change}, "r": [key, ...]}`: an object patched (`k` the keys that changed or were
  added, `r` those removed), or
- `{"n": length, "i": {index: change}}`: a list patched (`n` its new length when it changed; `i`
  the items that changed or were added, keyed by their index as text).

A frame's change is always an object patch (`{}` when nothing changed). Of a patch and the whole
value, the shorter in JSON is kept.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import math
import zlib
from collections.abc import Mapping
from typing import Any

ENCODING = "deflate-delta@1"
"""The `frameEncoding` of a compact replay: `frames` is base64 text of the raw-DEFLATE bytes of
the UTF-8 JSON list `delta_frames` makes."""
LEFT_OUT = ("answer",)
"""Frame keys a page leaves out: the exporter's recorded `answer` (which may hold a probability
for every move offered: 65% of the largest page before) is drawn by no viewer; the log keeps it."""
MAX_FRAMES_BYTES = 256 * 1024 * 1024
"""The most bytes `expand_replay` unpacks (a page this site wrote holds a few MB at most)."""


def _size(value: Any) -> int:
    return len(_text(value))


def _whole(value: Any) -> Any:
    return [value] if isinstance(value, list | dict) else value


def change(old: Any, new: Any) -> Any:
    """The change that turns `old` into `new` (`old != new`), whichever form is shorter."""
    whole = _whole(new)
    patch: dict[str, Any] | None = None
    if isinstance(old, dict) and isinstance(new, dict):
        patch = object_patch(old, new)
    elif isinstance(old, list) and isinstance(new, list):
        items = {
            str(index): change(old[index], item) if index < len(old) else _whole(item)
            for index, item in enumerate(new)
            if index >= len(old) or not _same(old[index], item)
        }
        patch = {"i": items} if len(new) == len(old) else {"n": len(new), "i": items}
    if patch is not None and _size(patch) < _size(whole):
        return patch
    return whole


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON text (`True` and `1`, equal in Python, are not)."""
    return a == b and _same_text(a, b)


def _same_text(a: Any, b: Any) -> bool:
    """For `a == b`: whether their JSON texts are equal too, found without writing plain JSON
    data out (the texts are compared for anything else). Equal values of one exact type write
    the same text but for `0.0` and `-0.0`, and objects whose keys come in another order."""
    kind = type(a)
    if kind is type(b):
        if a is None or kind is str or kind is int or kind is bool:
            return True
        if kind is float:
            return math.copysign(1.0, a) == math.copysign(1.0, b)
        if kind is list:
            return all(_same_text(x, y) for x, y in zip(a, b, strict=True))
        if kind is dict and all(type(key) is str for key in a) and list(a) == list(b):
            return all(_same_text(a[key], b[key]) for key in a)
    return _text(a) == _text(b)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""One encoder for every `_text` (`json.dumps` with options builds one a call)."""


def _text(value: Any) -> str:
    return _ENCODER.encode(value)


def object_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The patch `{"k": ..., "r": [...]}` from object `old` to `new` (parts left out when empty)."""
    keys = {
        key: change(old[key], value) if key in old else _whole(value)
        for key, value in new.items()
        if key not in old or not _same(old[key], value)
    }
    removed = [key for key in old if key not in new]
    patch: dict[str, Any] = {}
    if keys:
        patch["k"] = keys
    if removed:
        patch["r"] = removed
    return patch


def apply(old: Any, edit: Any) -> Any:
    """`old` with `edit` (a `change`) applied; `old` itself is not modified."""
    if isinstance(edit, list):
        if len(edit) != 1:
            raise ValueError("a whole-value change is a list of one item")
        return edit[0]
    if not isinstance(edit, dict):
        return edit
    if isinstance(old, list):
        length = edit.get("n", len(old))
        items = list(old[:length]) + [None] * max(0, length - len(old))
        for index, item in edit.get("i", {}).items():
            position = int(index)
            items[position] = apply(items[position], item)
        return items
    if not isinstance(old, dict):
        raise ValueError("an object or list patch applied to a plain value")
    out = {key: value for key, value in old.items() if key not in edit.get("r", ())}
    for key, item in edit.get("k", {}).items():
        out[key] = apply(out.get(key), item)
    return out


def delta_frames(frames: list[dict[str, Any]]) -> list[Any]:
    """`frames` (plain JSON) as `[first frame, change 1, change 2, ...]`."""
    if not frames:
        return []
    return [frames[0]] + [object_patch(a, b) for a, b in itertools.pairwise(frames)]


def expand_frames(encoded: list[Any]) -> list[dict[str, Any]]:
    """The frames `delta_frames` encoded, rebuilt."""
    frames: list[dict[str, Any]] = []
    for item in encoded:
        frames.append(item if not frames else apply(frames[-1], item))
    return frames


class CompactReplayError(ValueError):
    """Data that is not a compact replay (bad base64, DEFLATE or JSON, or too large)."""


def compact_replay(replay: Mapping[str, Any]) -> dict[str, Any]:
    """`replay` (`ExportedReplay.to_json()`: plain JSON) with its frames compacted: the same
    `benchmark`, `header` and `result`, `frameEncoding` = `ENCODING`, `frames` the base64 text."""
    frames = [{k: v for k, v in frame.items() if k not in LEFT_OUT} for frame in replay["frames"]]
    text = json.dumps(delta_frames(frames), ensure_ascii=False, separators=(",", ":"))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    out = {key: value for key, value in replay.items() if key != "frames"}
    out["frameEncoding"] = ENCODING
    out["frames"] = base64.b64encode(packed).decode("ascii")
    return out


def expand_replay(page: Mapping[str, Any]) -> dict[str, Any]:
    """The replay `compact_replay` made, its frames rebuilt (less `LEFT_OUT`); a replay with no
    `frameEncoding` is returned as it is. Raises `CompactReplayError` on anything else."""
    encoding = page.get("frameEncoding")
    if encoding is None:
        return dict(page)
    if encoding != ENCODING or not isinstance(page.get("frames"), str):
        raise CompactReplayError(f"unknown frame encoding {encoding!r}")
    try:
        unpacker = zlib.decompressobj(-15)
        raw = unpacker.decompress(base64.b64decode(page["frames"], validate=True), MAX_FRAMES_BYTES)
        if unpacker.unconsumed_tail:
            raise CompactReplayError(f"frames unpack to more than {MAX_FRAMES_BYTES} bytes")
        changes = json.loads(raw.decode("utf-8"))
        frames = expand_frames(changes)
    except (binascii.Error, zlib.error, UnicodeError, ValueError, TypeError, KeyError) as error:
        raise CompactReplayError(f"frames cannot be read: {error}") from None
    out = {key: value for key, value in page.items() if key != "frameEncoding"}
    out["frames"] = frames
    return out
