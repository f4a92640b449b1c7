"""A verified log as a list of frames, for replay viewers: only what re-simulates is shown.

The log is checked by `verify_log` (`evaluation/core/verify.py`); a log that does not verify is
refused. During that replay the benchmark's `frame` function (`evaluation/core/registry.py`)
snapshots the game before the first decision and after each one, so a viewer draws states the
engine computed, never states a log claims.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.core.eventlog import LogFormatError, read_log, to_jsonable
from evaluation.core.registry import for_header
from evaluation.core.verify import verify_log


class UnverifiedLogError(ValueError):
    """A log that `verify` does not accept (or whose benchmark has no viewer) is not exported."""


@dataclass(frozen=True)
class ExportedReplay:
    """The frames of one verified game: `frames[0]` is the start, `frames[k]` follows decision
    k - 1 and carries its `decision` number and recorded `answer`."""

    benchmark: str
    header: Mapping[str, Any]
    result: Mapping[str, Any]
    frames: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The replay as one JSON object (camelCase keys) for a viewer page."""
        return {
            "benchmark": self.benchmark,
            "header": to_jsonable(dict(self.header)),
            "result": to_jsonable(dict(self.result)),
            "frames": to_jsonable(self.frames),
        }


def export_replay(path: str | Path) -> ExportedReplay:
    """The frames of the game `path` records; raises `UnverifiedLogError` when the log does not
    verify as a complete game or its benchmark draws no frames. The frames are taken during
    `verify_log`'s own replay, so the game is re-simulated once."""
    path = Path(path)
    try:
        header = read_log(path).header
    except (LogFormatError, OSError, UnicodeError) as exc:
        raise UnverifiedLogError(f"refused, the log cannot be read: {path}: {exc}") from None
    benchmark = for_header(header)
    if benchmark is None or benchmark.frame is None:
        name = benchmark.name if benchmark is not None else header.get("benchmark")
        raise UnverifiedLogError(f"{path}: benchmark {name!r} has no replay viewer")
    frame = benchmark.frame
    frames: list[dict[str, Any]] = []
    failures: list[BaseException] = []

    def watch(episode: Any, event: Mapping[str, Any] | None) -> None:
        try:
            if event is None:
                frames.append(frame(episode, None))
                return
            answer = event.get("call", {}).get("answer")
            frames.append({"decision": event["n"], "answer": answer, **frame(episode, event)})
        except Exception as exc:  # a viewer bug is ours: never reported as a bad log
            failures.append(exc)
            raise

    report = verify_log(path, watch)
    if failures:
        raise failures[0]
    if not report.ok or report.result is None:
        raise UnverifiedLogError(f"refused, the log does not verify: {report.line()}")
    return ExportedReplay(benchmark.name, header, report.result, frames)
