"""The JSON a site page inlines: plain data (`plain_json`), text safe inside a `<script>` element
(`inline_json`), and a game's compact replay (`replay_json`), made in the builder's process or
ahead of it by a pool worker (`evaluation/site/replay_pool.py`) with the same function, so a page
does not depend on which process made it."""

from __future__ import annotations

import json
import math
import numbers
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from evaluation.core.eventlog import TAG
from evaluation.core.replay_compact import LEFT_OUT, compact_replay
from evaluation.core.replay_export import ExportedReplay, UnverifiedLogError, export_replay
from evaluation.site.html import Markup


def plain_json(value: Any) -> Any:
    """`value` as plain JSON data for a page: numpy scalars as numbers, tuples as lists, NaN and
    infinities as null (JavaScript's JSON.parse rejects them), paths as text."""
    kind = type(value)  # exact built-in types first: a replay's frames are mostly these, and
    if kind is dict:  # the ABC checks below are slow (the same results, only sooner)
        return {str(key): plain_json(item) for key, item in value.items()}
    if kind is list:
        return [plain_json(item) for item in value]
    if value is None or kind is str or kind is bool or kind is int:
        return value
    if kind is float:
        return value if math.isfinite(value) else None
    if isinstance(value, bool | str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, Mapping):
        return {str(key): plain_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [plain_json(item) for item in items]
    if hasattr(value, "tolist"):  # numpy arrays
        return plain_json(value.tolist())
    if isinstance(value, PurePosixPath | Path):
        return value.as_posix()
    raise TypeError(f"cannot put a {type(value).__name__} in page data")


_SCRIPT_SAFE = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


def inline_json(value: Any) -> Markup:
    """JSON text safe inside a `<script>` element: every `<`, `>` and `&` is written as a
    `\\u` escape (the same string to `JSON.parse`), so no string in the data can end the
    element (`</script>`) or open a comment (`<!--`), whatever HTML context it lands in."""
    text = json.dumps(plain_json(value), ensure_ascii=False, separators=(",", ":"))
    return Markup(text.translate(_SCRIPT_SAFE))


def replay_json(log_path: str | Path) -> tuple[int, str]:
    """The game `log_path` records as a replay page carries it: its number of decisions and the
    compact replay (`evaluation/core/replay_compact.py`) as `inline_json` text. Raises
    `UnverifiedLogError` for a log that does not verify. `SiteBuild.replay` calls it, in-process
    or ahead of time on a pool of processes (`evaluation/site/replay_pool.py`)."""
    exported = export_replay(log_path, rederive=False)
    shown = ExportedReplay(
        exported.benchmark,
        exported.header,
        exported.result,
        [_without_left_out(frame) for frame in exported.frames],
    )
    replay = compact_replay(plain_json(shown.to_json()))
    return len(exported.frames) - 1, str(inline_json(replay))


def _without_left_out(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame less what `compact_replay` leaves out anyway (`LEFT_OUT`, a recorded answer: in
    a game with large answers, most of its frames' data), taken out before it is encoded twice;
    a frame that `to_jsonable` would not write as a plain object (not all keys text) is kept
    whole."""
    if TAG in frame or not all(type(key) is str for key in frame):
        return frame
    return {key: value for key, value in frame.items() if key not in LEFT_OUT}


def replay_outcome(log_path: str) -> tuple[str, int, str]:
    """`replay_json` in a pool's worker: ("ok", decisions, text) or ("refused", 0, the reason)."""
    try:
        return ("ok", *replay_json(log_path))
    except UnverifiedLogError as error:
        return ("refused", 0, str(error))


def file_state(path: str) -> tuple[int, int] | None:
    """A log's size and modification time: a prepared replay is used only for the same file."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


@dataclass(frozen=True)
class Prepared:
    """A replay exported ahead (`SiteBuild.prepare_replays`): the log's `file_state` then, and
    `replay_outcome`'s answer."""

    state: tuple[int, int] | None
    outcome: tuple[str, int, str]
