"""NARCADE result files: one per model and game, holding only episodes whose log verifies.

A run directory (`evaluation/core/rundir.py`) holds, per episode, an event log
`logs/<model>/<game>/<seed>.jsonl` and its record `results/<model>/<game>/<seed>.json`; this
module adds the file people read and publish, `results/<model>/<game>.json` (`RESULT_FORMAT`):
the model's identity and revision, versions, hardware label, settings, the planned seeds, one
entry per finished episode (seed, score, end reason, decisions, invalid actions, timeouts, policy
errors, discarded answers, latency p50/p95, solve time of cleared Minesweeper boards, cost, the
log) and their summary. It is rebuilt (atomically) from the verified episode records after every
episode, so a crash keeps what finished; `status` says `running`, `complete`, `failed` (the
policy failed), `aborted` (episodes cut by failures on our side: resume replays them) or
`interrupted` (Ctrl-C or a cost cap: resume goes on). Only `complete` files are published.
"""

from __future__ import annotations

import math
import os
import platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.protocol import PROTOCOL_VERSION, RESULT_FORMAT, RULES_VERSION
from evaluation.core.eventlog import utc_now_iso
from evaluation.core.repeat_report import repeat_block
from evaluation.core.rundir import safe_name, write_json_atomic
from evaluation.core.untrusted_json import read_json as read_untrusted_json

STATUSES = ("running", "complete", "failed", "aborted", "interrupted")


def read_json(path: str | Path) -> Any:
    """A JSON file's content, read within bounds (a file too large or nested too deeply is a
    ValueError: NARCADE's manifests, results and publications may be planted)."""
    return read_untrusted_json(path)


def package_version() -> str:
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
    """The `q`-th percentile (linear interpolation) of the finite values, or None without any."""
    ordered = sorted(v for v in values if math.isfinite(v))
    if not ordered:
        return None
    pos = (len(ordered) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return round(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo), 3)


@dataclass
class EpisodeRecord:
    """One finished episode of one model on one game: the log's result plus what the log does
    not re-derive (latencies, wall time)."""

    seed: int
    score: int = 0
    end_reason: str | None = None
    decisions: int = 0
    invalid_actions: int = 0
    timeouts: int = 0
    policy_errors: int = 0
    discarded_answers: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    solve_time_ms: float | None = None
    wall_seconds: float = 0.0
    cost_usd: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def add_usage(self, usage: Mapping[str, Any] | None) -> None:
        """Count one decision's reported tokens and cost (a chat policy's telemetry)."""
        if not usage:
            return
        for key, attribute in (
            ("promptTokens", "prompt_tokens"),
            ("completionTokens", "completion_tokens"),
        ):
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(self, attribute, (getattr(self, attribute) or 0) + value)
        cost = usage.get("costUsd")
        if isinstance(cost, int | float) and not isinstance(cost, bool) and math.isfinite(cost):
            self.cost_usd = (self.cost_usd or 0.0) + float(cost)

    def set_result(self, result: Mapping[str, Any]) -> None:
        """Take score, end, decisions and the game's own fields from the log's result line."""
        fields = {k: v for k, v in result.items() if k != "type"}
        self.end_reason = fields.pop("endReason", None)
        self.score = int(fields.pop("score", 0))
        self.decisions = int(fields.pop("decisions", 0))
        self.extra = fields

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
            "costUsd": self.cost_usd,
            "promptTokens": self.prompt_tokens,
            "completionTokens": self.completion_tokens,
            **self.extra,
        }


def agrees(saved: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    """A saved episode record agrees with its log's result line."""
    return all(saved.get(key) == logged.get(key) for key in ("score", "endReason", "decisions"))


def _play(episode: Mapping[str, Any]) -> tuple[str, Any]:
    """Which play of which seed an episode is (its repeat, `--repeats`; absent: the only one)."""
    return str(episode["seed"]), episode.get("repeat", 1)


def summarise(episodes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Totals and the mean score of a result file's episodes; with several repeats of each seed
    (`--repeats`) the mean is over repeats too, and `repeats` holds its interval over seeds and
    repeats (`evaluation/core/repeat_report.py`)."""
    scores = [float(e["score"]) for e in episodes]
    return {
        **_repeats(episodes),
        "episodes": len(episodes),
        "meanScore": round(sum(scores) / len(scores), 4) if scores else None,
        "invalidActions": sum(int(e["invalidActions"]) for e in episodes),
        "timeouts": sum(int(e["timeouts"]) for e in episodes),
        "policyErrors": sum(int(e["policyErrors"]) for e in episodes),
        "promptTokens": _total(episodes, "promptTokens"),
        "completionTokens": _total(episodes, "completionTokens"),
        "costUsd": _total(episodes, "costUsd"),
    }


def _repeats(episodes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The `repeats` block of episodes played several times per seed (empty: once each)."""
    rounds = sorted({int(e.get("repeat", 1)) for e in episodes})
    if len(rounds) < 2:
        return {}
    by_seed: dict[str, list[float]] = {}
    for e in episodes:  # in seed order, then repeat order
        by_seed.setdefault(str(e["seed"]), []).append(float(e["score"]))
    per_repeat = [
        sum(float(e["score"]) for e in mine) / len(mine)
        for r in rounds
        if (mine := [e for e in episodes if int(e.get("repeat", 1)) == r])
    ]
    return {"repeats": repeat_block(list(by_seed.values()), per_repeat, unit="seed")}


def _total(episodes: Sequence[Mapping[str, Any]], key: str) -> Any:
    """The sum of a reported figure over episodes (None when no episode reported it)."""
    values = [e.get(key) for e in episodes if isinstance(e.get(key), int | float)]
    return sum(values) if values else None


def run_cost(out: Path) -> float:
    """What the finished episodes of the run in `out` cost (USD, as their records say)."""
    total = 0.0
    for path in (out / "results").glob("*/*.json"):
        try:
            episodes = read_json(path).get("episodes", [])
        except (OSError, ValueError, AttributeError):
            continue
        for episode in episodes:
            cost = episode.get("costUsd") if isinstance(episode, Mapping) else None
            if isinstance(cost, int | float) and math.isfinite(cost) and cost > 0:
                total += float(cost)
    return total


def result_path(out: Path, model: str, game: str) -> Path:
    """`results/<model>/<game>.json` (the model spec as one safe path component)."""
    return out / "results" / safe_name(model) / f"{safe_name(game)}.json"


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
            "startedAt": utc_now_iso(),
            "updatedAt": None,
        }

    def set_model(self, identity: Mapping[str, Any]) -> None:
        """Record the policy's identity (name, kind, revision) once it is built."""
        self.data["model"] = {**dict(identity), "spec": self.data["model"]["spec"]}

    def add(self, episode: Mapping[str, Any]) -> None:
        """Add a finished episode (kept in seed order, then repeat order) and write."""
        episodes = [e for e in self.data["episodes"] if _play(e) != _play(episode)]
        episodes.append(dict(episode))
        self.data["episodes"] = sorted(episodes, key=lambda e: (int(e["seed"]), e.get("repeat", 1)))
        self.write()

    def finish(self, status: str, error: str | None = None) -> None:
        """Set the final status (and why it failed) and write."""
        if status not in STATUSES:
            raise ValueError(f"unknown result status {status!r}; one of {', '.join(STATUSES)}")
        self.data["status"] = status
        self.data["error"] = error
        self.write()

    def write(self) -> None:
        self.data["summary"] = summarise(self.data["episodes"])
        self.data["updatedAt"] = utc_now_iso()
        write_json_atomic(self.path, self.data)


def collect_model(out: Path, model: str, games: Sequence[str]) -> dict[str, Any]:
    """What a model's result files say: revisions per game, files, statuses, first error."""
    entry: dict[str, Any] = {"revisions": {}, "files": {}, "error": None, "name": None}
    statuses = []
    for game in games:
        path = result_path(out, model, game)
        if not path.is_file():
            continue
        try:
            data = read_json(path)
        except ValueError:
            statuses.append("failed")
            continue
        entry["files"][game] = path.relative_to(out).as_posix()
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
