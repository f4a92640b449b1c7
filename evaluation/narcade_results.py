"""NARCADE output formats: the empty output directory, result files, the manifest, traces.

A run writes into an empty directory (a run never overwrites or mixes with another):

- `<model>-<game>.json` per model and game (`RESULT_FORMAT`): the model's identity and revision,
  versions, hardware label, settings, the planned seeds and one entry per finished episode (seed,
  score, end reason, decisions, invalid actions, timeouts, policy errors, discarded answers,
  latency p50/p95, solve time of cleared Minesweeper boards). It is rewritten (atomically) after
  every episode, so a crash or Ctrl-C keeps what finished; `status` says `running`, `complete`,
  `failed` or `interrupted`.
- `manifest.json` (`MANIFEST_FORMAT`): versions (rules, observation protocol, package), models with
  their revisions per game, hardware label, settings, per-model status and the results missing.
- with `--trace`, `<model>-<game>-<seed>.jsonl` (`TRACE_FORMAT`): a header, one `decision` line per
  question (state, actions offered, raw answer, the choice, latency, the game time applied) and a
  `result` line; each line is flushed as it is written.

`<model>` is the model spec made file-safe (`safe_name`): `llm:gpt-4o` -> `llm-gpt-4o`.
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

RULES_VERSION = "0.4.0"
"""NARCADE rules version (Snake, Minesweeper, Tetris with primitive controls)."""
PROTOCOL_VERSION = "arcade-narcade-obs@1"
"""Observation protocol: the question models of the three games and `INSTRUCTIONS`. Bump it when
what a policy sees changes; publications may compare across it, never across rules versions."""
RESULT_FORMAT = "narcade-result@1"
MANIFEST_FORMAT = "narcade-manifest@1"
TRACE_FORMAT = "narcade-trace@1"
MANIFEST_NAME = "manifest.json"

GAMES = ("minesweeper", "snake", "tetris")
"""The NARCADE games, in run order."""

INSTRUCTIONS: Mapping[str, str] = {
    "minesweeper": (
        "Minesweeper: reveal every safe cell without revealing a mine. The board rows use # for "
        "hidden, F for flagged and 0-8 for revealed counts of neighbouring mines. Reply with "
        'exactly one action from "actions" as {"action": "reveal r c"}.'
    ),
    "snake": (
        "Snake: eat food to grow and score; hitting a wall or your own body ends the game. "
        "Directions are absolute; reversing into the neck keeps the heading. Reply with exactly "
        'one action from "actions" as {"action": "up"}.'
    ),
    "tetris": (
        "Tetris with primitive controls: move and rotate the falling piece, clear full rows to "
        "score, and avoid stacking above the top. Each answer is one control. Reply with exactly "
        'one action from "actions" as {"action": "left"}.'
    ),
}
"""The task statement of each game under `PROTOCOL_VERSION` (recorded in traces; replays check
it)."""

STATUSES = ("running", "complete", "failed", "interrupted")


class OutputDirError(ValueError):
    """The output directory cannot take a run (not empty, or not a directory)."""


def prepare_output_dir(path: str | Path) -> Path:
    """Create `path` or accept it when empty; refuse anything else with one clear message."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise OutputDirError(f"output path {out} is a file; give a new or empty directory")
    if out.is_dir() and any(out.iterdir()):
        raise OutputDirError(
            f"output directory {out} is not empty; every NARCADE run needs an empty directory: "
            "choose a new --output-dir (runs are never mixed or overwritten)"
        )
    out.mkdir(parents=True, exist_ok=True)
    return out


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(model: str) -> str:
    """A file-safe name for a model spec: `llm:org/m` -> `llm-org_m`, `py:mod:attr` -> `py-attr`."""
    if model.startswith("py:"):
        model = "py:" + model.rsplit(":", 1)[-1]
    head, sep, tail = model.partition(":")
    name = f"{head}-{tail}" if sep else model
    return _UNSAFE.sub("_", name).strip("_") or "model"


def result_filename(model: str, game: str) -> str:
    """`<model>-<game>.json`."""
    return f"{safe_name(model)}-{game}.json"


def trace_filename(model: str, game: str, seed: int) -> str:
    """`<model>-<game>-<seed>.jsonl`."""
    return f"{safe_name(model)}-{game}-{seed}.jsonl"


def utc_now() -> str:
    """ISO 8601 UTC with milliseconds and a `Z`."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def package_version() -> str:
    """The installed arcade-gym version."""
    import arcade_gym

    return str(arcade_gym.__version__)


def versions() -> dict[str, str]:
    """Rules, observation protocol and package versions, as results and manifests record them."""
    return {"rules": RULES_VERSION, "protocol": PROTOCOL_VERSION, "package": package_version()}


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def hardware_info() -> dict[str, Any]:
    """Where the run happens: platform, CPU, Python (realtime scores depend on it)."""
    return {
        "platform": f"{platform.system()} {platform.release()}",
        "machine": platform.machine(),
        "cpu": _cpu_model(),
        "cpuCount": os.cpu_count(),
        "python": platform.python_version(),
    }


def hardware_label(info: Mapping[str, Any] | None = None) -> str:
    """The default hardware label: `<system> <machine>, <cpu>, <n> CPUs`."""
    info = info or hardware_info()
    system = str(info.get("platform", "")).split(" ", 1)[0]
    return f"{system} {info.get('machine')}, {info.get('cpu')}, {info.get('cpuCount')} CPUs"


def percentile(values: Sequence[float], q: float) -> float | None:
    """The `q`-th percentile (linear interpolation), or None without values."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    value = ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)
    return round(value, 3)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file and a rename, so readers never see half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def read_json(path: str | Path) -> Any:
    """A JSON file's content."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------------------------
# Episodes and result files
# --------------------------------------------------------------------------------------------


@dataclass
class EpisodeRecord:
    """One finished (or interrupted) episode of one model on one game."""

    seed: int
    score: int
    end_reason: str | None
    decisions: int
    invalid_actions: int
    timeouts: int
    policy_errors: int
    discarded_answers: int
    latencies_ms: list[float] = field(default_factory=list)
    solve_time_ms: float | None = None
    wall_seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The episode's entry in the result file."""
        return {
            "seed": self.seed,
            "score": self.score,
            "endReason": self.end_reason,
            "decisions": self.decisions,
            "invalidActions": self.invalid_actions,
            "timeouts": self.timeouts,
            "policyErrors": self.policy_errors,
            "discardedAnswers": self.discarded_answers,
            "latencyMs": {
                "p50": percentile(self.latencies_ms, 50),
                "p95": percentile(self.latencies_ms, 95),
            },
            "solveTimeMs": None if self.solve_time_ms is None else round(self.solve_time_ms, 3),
            "wallSeconds": round(self.wall_seconds, 3),
            **self.extra,
        }


def summarise(episodes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Totals and the mean score of a result file's episodes."""
    scores = [float(e["score"]) for e in episodes]
    return {
        "episodes": len(episodes),
        "meanScore": round(sum(scores) / len(scores), 4) if scores else None,
        "invalidActions": sum(int(e["invalidActions"]) for e in episodes),
        "timeouts": sum(int(e["timeouts"]) for e in episodes),
        "policyErrors": sum(int(e["policyErrors"]) for e in episodes),
    }


class ResultFile:
    """The result JSON of one model on one game, rewritten after every episode."""

    def __init__(
        self,
        path: Path,
        *,
        model: str,
        game: str,
        game_mode: str,
        seeds: Sequence[int],
        settings: Mapping[str, Any],
        hardware: str,
    ) -> None:
        self.path = path
        self.data: dict[str, Any] = {
            "format": RESULT_FORMAT,
            "status": "running",
            "error": None,
            "model": {"spec": model},
            "game": game,
            "gameMode": game_mode,
            "versions": versions(),
            "hardware": hardware,
            "settings": dict(settings),
            "seeds": list(seeds),
            "episodes": [],
            "summary": summarise([]),
            "startedAt": utc_now(),
            "updatedAt": None,
        }

    def set_model(self, identity: Mapping[str, Any]) -> None:
        """Record the policy's identity (name, kind, revision) once it is built."""
        self.data["model"] = {"spec": self.data["model"]["spec"], **identity}

    def add(self, episode: EpisodeRecord) -> None:
        self.data["episodes"].append(episode.to_dict())
        self.write()

    def finish(self, status: str, error: str | None = None) -> None:
        """Set the final status (and why it failed) and write."""
        self.data["status"] = status
        self.data["error"] = error
        self.write()

    def write(self) -> None:
        self.data["summary"] = summarise(self.data["episodes"])
        self.data["updatedAt"] = utc_now()
        write_json_atomic(self.path, self.data)


# --------------------------------------------------------------------------------------------
# Traces
# --------------------------------------------------------------------------------------------


class TraceWriter:
    """Per-decision JSONL of one episode: each line is written and flushed on its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = open(path, "x", encoding="utf-8")  # noqa: SIM115

    def write(self, event: Mapping[str, Any]) -> None:
        if self._file is None:
            raise ValueError(f"{self.path}: the trace is closed")
        self._file.write(json.dumps(event, separators=(",", ":"), allow_nan=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_trace(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """`(header, decisions, result)` of a trace; ValueError when it is unreadable or incomplete."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    events = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            events.append(json.loads(line))
        except ValueError:
            raise ValueError(f"{path}: line {number} is not JSON") from None
    if not events or events[0].get("type") != "header":
        raise ValueError(f"{path}: not a NARCADE trace (no header line)")
    if events[0].get("format") != TRACE_FORMAT:
        raise ValueError(f"{path}: trace format {events[0].get('format')!r} is not {TRACE_FORMAT}")
    if events[-1].get("type") != "result":
        raise ValueError(f"{path}: the trace has no result line (the episode did not finish)")
    decisions = [e for e in events[1:-1] if e.get("type") == "decision"]
    return events[0], decisions, events[-1]


# --------------------------------------------------------------------------------------------
# The manifest
# --------------------------------------------------------------------------------------------


def new_manifest(
    *,
    models: Sequence[str],
    settings: Mapping[str, Any],
    hardware: str,
    hardware_details: Mapping[str, Any],
) -> dict[str, Any]:
    """The manifest at the start of a run: every model pending."""
    return {
        "format": MANIFEST_FORMAT,
        "status": "running",
        "startedAt": utc_now(),
        "finishedAt": None,
        "versions": versions(),
        "hardware": hardware,
        "hardwareDetails": dict(hardware_details),
        "settings": dict(settings),
        "models": {
            m: {"status": "pending", "exitCode": None, "error": None, "revisions": {}, "files": {}}
            for m in models
        },
        "missing": [],
    }


def collect_model(out: Path, model: str, games: Iterable[str]) -> dict[str, Any]:
    """What a model's result files say: revisions per game, files, status, first error."""
    entry: dict[str, Any] = {"revisions": {}, "files": {}, "error": None, "name": None}
    statuses = []
    for game in games:
        path = out / result_filename(model, game)
        if not path.is_file():
            continue
        try:
            data = read_json(path)
        except ValueError:
            statuses.append("failed")
            continue
        entry["files"][game] = path.name
        identity = data.get("model", {})
        if identity.get("revision") is not None:
            entry["revisions"][game] = identity["revision"]
        entry["name"] = entry["name"] or identity.get("name")
        entry["kind"] = identity.get("kind")
        statuses.append(data.get("status"))
        if data.get("error") and entry["error"] is None:
            entry["error"] = data["error"]
    entry["resultStatuses"] = statuses
    return entry


def missing_results(out: Path, models: Sequence[str], settings: Mapping[str, Any]) -> list[Any]:
    """Model/game pairs without a complete result file, with the seeds they lack."""
    missing = []
    seeds = list(settings.get("seeds", []))
    for model in models:
        for game in settings.get("games", GAMES):
            path = out / result_filename(model, game)
            done: list[int] = []
            status = "absent"
            if path.is_file():
                try:
                    data = read_json(path)
                    status = str(data.get("status"))
                    done = [
                        int(e["seed"])
                        for e in data.get("episodes", [])
                        if e.get("endReason") != "interrupted"
                    ]
                except (ValueError, KeyError, TypeError):
                    status = "unreadable"
            if status != "complete":
                lacking = [s for s in seeds if s not in done]
                missing.append(
                    {"model": model, "game": game, "status": status, "seedsMissing": lacking}
                )
    return missing
