"""The JSONL event log every benchmark writes: a header, one line per decision, a result line.

The log is the recording a game is verified from (`evaluation/core/verify.py` replays it through
the same episode loop), so it stores every answer exactly as the policy gave it. Answers are
anything a policy returned, so they are made JSON-safe reversibly (`to_jsonable` /
`from_jsonable`): whatever JSON cannot say (NaN, infinities, tuples, bytes, non-string keys, huge
ints, arbitrary objects) becomes a small tagged object `{"$type": ..., "value": ...}` that decodes
to a value the validator judges the same way.

A log holds no wall-clock measurement (no time of day, no latency: those go to results), so the
same seed and the same answers give the same bytes. Lines are written and flushed one at a time:
a crash leaves every finished line readable, and `read_log` tolerates a cut-off last line and
says so.

Format (`logVersion` 2), one JSON object per line:

- `{"type": "header", "logVersion": 2, "benchmark", "versions": {...}, "seed", "policy": {slug,
  name, kind, ...}, "settings": {...}, "packageVersion"}`: `benchmark` picks the replayer;
  `versions` hold the rule and protocol versions the game was played under; a game played as
  one of several repeats (`--repeats`) adds `"repeat": {"index", "of"}`;
- `{"type": "decision", "n", "call": {status, answer, error, elapsedMs, usage?}, ...}` per
  decision, the rest of the fields the benchmark's own;
- `{"type": "result", "endReason", ...}` once, last. `endReason` "interrupted", "aborted" or
  "stopped" marks a game that did not finish (never counted, replayed on resume).

Tetris Bench logs of `logVersion` 1 (`tick` lines, no `benchmark`) are still read: the Tetris
Bench replayer upgrades them.

A log may be shipped compressed (`<name>.jsonl.xz`, xz as `xz -9` writes it): the same lines, read
by the same reader (`read_log`, `read_header`), which decompresses at most `MAX_LOG_BYTES` (a
small file that would inflate to gigabytes is refused, not inflated). Runs write plain `.jsonl`.
"""

from __future__ import annotations

import base64
import json
import lzma
import math
import numbers
import os
import re
import reprlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import numpy as np
from pydantic import BaseModel

import arcade_gym
from arcade_gym.core.wire import WireModel
from evaluation.core import repeats
from evaluation.core.untrusted_json import loads as bounded_loads

LOG_VERSION = 2
READABLE_VERSIONS = (1, 2)
TAG = "$type"
"""Key marking a tagged (non-JSON) value; plain dicts that use it are themselves tagged."""

MAX_DEPTH = 64
"""Nesting kept as data; anything deeper is recorded as a repr (the validator rejects such
answers anyway: it only looks three levels down)."""

_MAX_INT_DIGITS = 1000  # JSON readers (Python's included) refuse very long integers
MAX_LOG_BYTES = 512 * 1024 * 1024
"""The largest log `read_log` loads (a planted multi-gigabyte file is refused, not read)."""
LOG_SUFFIX = ".jsonl"
COMPRESSED_SUFFIX = ".jsonl.xz"
"""A log compressed for shipping (see the module docstring)."""
LOG_SUFFIXES = (LOG_SUFFIX, COMPRESSED_SUFFIX)
MAX_HEADER_BYTES = 1024 * 1024
"""The longest first line `read_header` reads."""
_repr = reprlib.Repr()
_repr.maxstring = 200
_repr.maxother = 200
_repr.maxlong = 200


class LogFormatError(ValueError):
    """A file that is not a readable event log (beyond a cut-off last line)."""


# --------------------------------------------------------------------------------------------
# JSON-safe values
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unserialisable:
    """Stands in, on replay, for an answer value that had no JSON form (an arbitrary object)."""

    type_name: str
    text: str


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _safe_repr(value: object) -> str:
    """A bounded repr without memory addresses (they would make identical games' logs differ)."""
    try:
        text = _repr.repr(value)
    except Exception:
        return f"<{type(value).__name__}>"
    return _ADDRESS.sub("", text)


def _tag(kind: str, value: Any, **extra: Any) -> dict[str, Any]:
    return {TAG: kind, "value": value, **extra}


def _opaque(value: object, why: str | None = None) -> dict[str, Any]:
    extra = {"class": type(value).__name__}
    if why is not None:
        extra["why"] = why
    return _tag("repr", _safe_repr(value), **extra)


def to_jsonable(value: Any) -> Any:
    """`value` as plain JSON data, reversibly (see the module docstring). Never raises."""
    try:
        return _encode(value, 0, set())
    except Exception:
        return _opaque(value, "could not be encoded")


_PLAIN_INT = 1 << 62
"""Plain ints below this in size are returned as they are (far below `_MAX_INT_DIGITS`)."""


def _encode(value: Any, depth: int, path: set[int]) -> Any:
    kind = type(value)  # exact built-in types first: a log holds mostly these
    if value is None or kind is bool or kind is str:
        return value
    if kind is int and -_PLAIN_INT < value < _PLAIN_INT:
        return value
    if kind is float:
        return _encode_float(value)
    if isinstance(value, str):  # str subclasses (numpy's included) as plain text
        return str.__str__(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        number = int(value)
        if len(f"{number:x}") > _MAX_INT_DIGITS:
            return _tag("int", f"{number:x}")
        return number
    if isinstance(value, numbers.Real):
        return _encode_float(float(value))
    if isinstance(value, bytes | bytearray | memoryview):
        return _tag("bytes", base64.b64encode(bytes(value)).decode("ascii"))
    if depth >= MAX_DEPTH:
        return _opaque(value, "nested too deeply")
    if kind is not list and kind is not dict:
        if isinstance(value, BaseModel) and _is_agent_answer(value):
            try:
                dumped = value.model_dump(by_alias=True, exclude_none=True)
            except Exception:
                return _opaque(value, "model could not be dumped")
            return _encode(dumped, depth, path)
        if not isinstance(value, list | tuple | Mapping):
            return _opaque(value)
    if id(value) in path:
        return _opaque(value, "refers to itself")
    path.add(id(value))
    try:
        if kind is list or isinstance(value, list):
            return [_encode(item, depth + 1, path) for item in value]
        if isinstance(value, tuple):
            return _tag("tuple", [_encode(item, depth + 1, path) for item in value])
        items = list(value.items())
        if all(type(key) is str for key, _ in items) and TAG not in value:
            return {key: _encode(item, depth + 1, path) for key, item in items}
        pairs = [[_encode(k, depth + 1, path), _encode(v, depth + 1, path)] for k, v in items]
        return _tag("dict", pairs)
    finally:
        path.discard(id(value))


def _encode_float(number: float) -> Any:
    if math.isfinite(number):
        return number
    if math.isnan(number):
        return _tag("float", "NaN")
    return _tag("float", "Infinity" if number > 0 else "-Infinity")


def _is_agent_answer(value: BaseModel) -> bool:
    """A contract model (`arcade_gym/core/wire.py`) is recorded as its wire dump, which is what
    the validators read; any other model is opaque."""
    return isinstance(value, WireModel)


def from_jsonable(value: Any) -> Any:
    """Inverse of `to_jsonable`: tagged values come back as what the validator saw."""
    if isinstance(value, list):
        return [from_jsonable(item) for item in value]
    if not isinstance(value, dict):
        return value
    kind = value.get(TAG)
    if kind is None:
        return {key: from_jsonable(item) for key, item in value.items()}
    raw: Any = value.get("value")
    if kind == "float":
        return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}.get(raw, "nan"))
    if kind == "int":
        return int(raw, 16)
    if kind == "bytes":
        return base64.b64decode(raw)
    if kind == "tuple":
        return tuple(from_jsonable(item) for item in raw)
    if kind == "dict":
        return {_hashable(from_jsonable(k)): from_jsonable(v) for k, v in raw}
    if kind == "repr":
        return Unserialisable(str(value.get("class", "")), str(raw))
    raise LogFormatError(f"unknown tagged value {kind!r}")


def _hashable(key: Any) -> Any:
    try:
        hash(key)
    except TypeError:
        return Unserialisable(type(key).__name__, _safe_repr(key))
    return key


def dumps(event: Mapping[str, Any]) -> str:
    """One log line (no newline): compact, ASCII-only (lone surrogates survive), no NaN."""
    return json.dumps(event, separators=(",", ":"), allow_nan=False)


# --------------------------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------------------------


def utc_now_iso() -> str:
    """ISO 8601 UTC with milliseconds and a `Z`, as the header's `startedAt`."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def header_event(
    *,
    benchmark: str,
    versions: Mapping[str, Any],
    seed: str | int,
    policy: Mapping[str, Any],
    settings: Mapping[str, Any],
) -> dict[str, Any]:
    """The first line of a log: which benchmark, under which versions, what was played by whom
    (no time of day: the same game gives the same bytes; times go to results and manifests).
    A game played as one repeat of several (`--repeats`, `evaluation/core/repeats.py`) also says
    which: `"repeat": {"index", "of"}` after the seed."""
    repeat = repeats.current()
    return {
        "type": "header",
        "logVersion": LOG_VERSION,
        "benchmark": benchmark,
        "versions": dict(versions),
        "seed": seed,
        **({"repeat": repeat.to_json()} if repeat is not None else {}),
        "policy": to_jsonable(dict(policy)),
        "settings": to_jsonable(dict(settings)),
        "packageVersion": arcade_gym.__version__,
    }


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


class GameLog:
    """Writer of one game's log. Refuses an existing path: recordings are never overwritten."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags, 0o666)  # a link in its place is refused, not followed
        except FileExistsError:
            raise FileExistsError(
                f"{self.path} already exists; event logs are never overwritten: "
                "choose a new path or move the old log away"
            ) from None
        self._file: IO[str] | None = os.fdopen(fd, "w", encoding="utf-8")
        self.lines = 0

    def decision(self, event: Mapping[str, Any]) -> None:
        """A decision line (the episode loop's sink)."""
        self.write(event)

    def result(self, event: Mapping[str, Any]) -> None:
        """The result line (the episode loop's sink)."""
        self.write(event)

    def write(self, event: Mapping[str, Any]) -> None:
        """Append one event as a line and flush it, so readers and crashes see whole lines."""
        if self._file is None:
            raise ValueError(f"{self.path}: the log is closed")
        try:
            self._file.write(dumps(event) + "\n")
            self._file.flush()
        except OSError as exc:  # a full disk: say which file (a file object's error does not)
            raise OSError(exc.errno, exc.strerror, str(self.path)) from exc
        self.lines += 1

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    @property
    def closed(self) -> bool:
        return self._file is None

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


@dataclass
class LogContents:
    """A read log. Unpacks as `header, events, result`; `truncated` says a cut-off last line was
    dropped (a crash mid-write), `note` says what was dropped."""

    header: dict[str, Any]
    events: list[dict[str, Any]]
    result: dict[str, Any] | None
    truncated: bool = False
    note: str | None = None
    path: str | None = field(default=None, repr=False)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.header, self.events, self.result))


def is_log_name(name: str) -> bool:
    """Whether a file name is an event log's: `*.jsonl`, or `*.jsonl.xz` compressed."""
    return name.endswith(LOG_SUFFIXES)


def log_stem(path: str | Path) -> str:
    """A log's name without `.jsonl` / `.jsonl.xz` (`seed-01.jsonl.xz` -> `seed-01`): the name of
    its game's result file and its repeat (`r2`)."""
    name = Path(path).name
    for suffix in (COMPRESSED_SUFFIX, LOG_SUFFIX):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return Path(name).stem


def _read_bytes(path: Path) -> bytes:
    """A log's bytes, decompressed for `*.jsonl.xz`; more than `MAX_LOG_BYTES` either way (on
    disk or once inflated) raises `LogFormatError` before more is read or inflated."""
    limit = MAX_LOG_BYTES // (1024 * 1024)
    with open(path, "rb") as handle:
        data = handle.read(MAX_LOG_BYTES + 1)
    if len(data) > MAX_LOG_BYTES:
        raise LogFormatError(f"{path}: larger than {limit} MB")
    if not path.name.endswith(COMPRESSED_SUFFIX):
        return data
    inflater = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    try:
        text = inflater.decompress(data, max_length=MAX_LOG_BYTES + 1)
    except lzma.LZMAError as exc:
        raise LogFormatError(f"{path}: not an xz-compressed log ({exc})") from None
    if len(text) > MAX_LOG_BYTES:
        raise LogFormatError(f"{path}: decompresses to more than {limit} MB")
    if not inflater.eof:
        raise LogFormatError(f"{path}: the xz stream is cut off")
    if inflater.unused_data:
        raise LogFormatError(f"{path}: data after the xz stream")
    return text


def read_header(path: str | Path) -> dict[str, Any] | None:
    """The first line of a log as a JSON object, reading (and inflating) only that line; None for
    a file that does not start with one (`verify` says why)."""
    path = Path(path)
    try:
        if path.name.endswith(COMPRESSED_SUFFIX):
            with lzma.open(path, "rb") as inflated:
                line = inflated.readline(MAX_HEADER_BYTES + 1)
        else:
            with open(path, "rb") as plain:
                line = plain.readline(MAX_HEADER_BYTES + 1)
        header = bounded_loads(line.decode("utf-8", errors="surrogateescape"))
    except (OSError, ValueError, EOFError, lzma.LZMAError):
        return None
    return header if isinstance(header, dict) else None


def read_log(path: str | Path) -> LogContents:
    """Parse a log (plain or `*.jsonl.xz`); a cut-off last line is dropped (and reported),
    anything else malformed (a line nested too deeply, a file over `MAX_LOG_BYTES` on disk or
    inflated, a broken xz stream) raises `LogFormatError`."""
    path = Path(path)
    data = _read_bytes(path)
    text = data.decode("utf-8", errors="surrogateescape")
    del data
    lines = text.split("\n")
    # A complete file ends with "\n", so the last piece is empty; anything else is a cut-off line.
    tail = lines.pop()
    records: list[dict[str, Any]] = []
    truncated, note = False, None
    for number, line in enumerate(lines, start=1):
        try:
            record = bounded_loads(line)
        except ValueError as exc:
            raise LogFormatError(f"{path}:{number}: not a JSON line ({exc})") from None
        if not isinstance(record, dict):
            raise LogFormatError(f"{path}:{number}: expected a JSON object")
        records.append(record)
    if tail:
        try:
            record = bounded_loads(tail)
        except ValueError:
            record = None
        if isinstance(record, dict):  # complete, only its newline is missing
            records.append(record)
        else:
            truncated = True
            note = f"line {len(lines) + 1} is cut off ({len(tail)} characters) and was ignored"
    return _split(path, records, truncated, note)


def _split(
    path: Path, records: list[dict[str, Any]], truncated: bool, note: str | None
) -> LogContents:
    if not records or records[0].get("type") != "header":
        raise LogFormatError(f"{path}: the first line is not a header")
    header = records[0]
    if header.get("logVersion") not in READABLE_VERSIONS:
        raise LogFormatError(
            f"{path}: logVersion {header.get('logVersion')!r} is not supported (this version "
            f"reads {', '.join(map(str, READABLE_VERSIONS))})"
        )
    events: list[dict[str, Any]] = []
    result: dict[str, Any] | None = None
    for number, record in enumerate(records[1:], start=2):
        kind = record.get("type")
        if result is not None:
            raise LogFormatError(f"{path}:{number}: a {kind!r} line after the result")
        if kind in ("decision", "tick"):
            events.append(record)
        elif kind == "result":
            result = record
        else:
            raise LogFormatError(f"{path}:{number}: unknown line type {kind!r}")
    return LogContents(header, events, result, truncated, note, str(path))
