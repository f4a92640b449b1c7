"""A verified log as a list of frames, for replay viewers: only what re-simulates is shown.

The log is checked by `verify_log` (`evaluation/core/verify.py`); a log that does not verify is
refused. During that replay the benchmark's `frame` function (`evaluation/core/registry.py`)
snapshots the game before the first decision and after each one, so a viewer draws states the
engine computed, never states a log claims. A model's decision also carries the reply text and
the reasoning its call record kept (`reply`, `reasoning`, each cut at `SHOWN_TEXT_CHARS`), so a
replay shows why a move was made; viewers put them in as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.core.eventlog import LogFormatError, read_log, to_jsonable
from evaluation.core.registry import for_header
from evaluation.core.verify import verify_log

SHOWN_TEXT_CHARS = 2000
"""The most characters of a reply, and of its reasoning, a frame carries (a log keeps up to a
megabyte of each; a replay page holds every decision's)."""


def said(call: Mapping[str, Any]) -> dict[str, str]:
    """The `reply` and `reasoning` of a decision's call block (its `usage`, the model call
    record of `policies/llm/telemetry.py`), each cut at `SHOWN_TEXT_CHARS` with a note of the cut;
    {} for a decision no model explained (a built-in, a recorded answer)."""
    usage = call.get("usage")
    if not isinstance(usage, Mapping):
        return {}
    out: dict[str, str] = {}
    for key, source in (("reply", "raw"), ("reasoning", "reasoning")):
        text = usage.get(source)
        if isinstance(text, str) and text.strip():
            cut = len(text) - SHOWN_TEXT_CHARS
            out[key] = text if cut <= 0 else f"{text[:SHOWN_TEXT_CHARS]} [... {cut:,} more]"
    return out


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


def export_replay(path: str | Path, *, rederive: bool = True) -> ExportedReplay:
    """The frames of the game `path` records; raises `UnverifiedLogError` when the log does not
    verify as a complete game or its benchmark draws no frames. The frames are taken during
    `verify_log`'s own replay (with its `rederive`), so the game is re-simulated once."""
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
            call = event.get("call", {})
            shown = {"decision": event["n"], "answer": call.get("answer"), **said(call)}
            frames.append({**shown, **frame(episode, event)})
        except Exception as exc:  # a viewer bug is ours: never reported as a bad log
            failures.append(exc)
            raise

    report = verify_log(path, watch, rederive=rederive)
    if failures:
        raise failures[0]
    if not report.ok or report.result is None:
        raise UnverifiedLogError(f"refused, the log does not verify: {report.line()}")
    return ExportedReplay(benchmark.name, header, report.result, frames)
