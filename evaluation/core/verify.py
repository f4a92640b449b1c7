"""`arcade-eval verify`: a recording of any benchmark is trusted only if it re-simulates to itself.

The header names the benchmark (`evaluation/core/registry.py`), which rebuilds the game at its
start; the recorded calls are fed back through the one episode loop (`evaluation/core/episode.py`)
and every decision it derives (verdicts, effects, state hashes, scores) must equal the recorded
one, then the result line. The first decision that diverges is reported. When the header names a
deterministic built-in policy, every recorded answer must also be the answer that policy gives to
the rebuilt question (numbers up to float rounding across CPUs: `same_answer.py`), so a
relabelled log fails (a recorded timeout is accepted as it stands: time cannot be re-simulated);
for other policies identity is recorded, not proven. Latency is
recorded, never re-derived.

A log inside a run directory (`evaluation/core/rundir.py`: `RUN/logs/...`, with `RUN/manifest.json`)
must also agree with the run's other files: the manifest names the same benchmark, and the game's
result file (`RUN/results/...`, if written) repeats the log's facts: every result-line field it
holds, the seed, the policy's identity block and the header settings it holds (e.g. the mode).

Everything read is untrusted: a run's files are read only through links that stay inside the run
(`rundir.inside_root`), JSON within bounds (`untrusted_json.py`), and each benchmark checks the
header fields that size the replayed game against its own limits (`header_limits.py`) before
building it, so verify runs in memory proportional to the log.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from evaluation.core import repeats
from evaluation.core.episode import (
    INCOMPLETE_ENDS,
    Call,
    Comparer,
    MismatchError,
    RecordedCaller,
    RecordingEndsError,
    play_episode,
)
from evaluation.core.eventlog import (
    LOG_SUFFIXES,
    LogFormatError,
    is_log_name,
    log_stem,
    read_log,
    to_jsonable,
)
from evaluation.core.policy_call import call_policy
from evaluation.core.registry import for_header
from evaluation.core.rundir import MANIFEST, RunDirError, inside_root
from evaluation.core.same_answer import same_answer
from evaluation.core.untrusted_json import read_json
from policies.base import DecisionContext


@dataclass(frozen=True)
class VerifyReport:
    """The verdict on one log. `status` is `ok`, `incomplete` (a game cut short that replays as
    far as it goes) or `fail`; `decision` is where a failure is (None: not in a decision)."""

    path: str
    status: str
    decision: int | None
    message: str
    benchmark: str | None = None
    result: Mapping[str, Any] | None = None
    header: Mapping[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def line(self) -> str:
        """One line for the CLI."""
        if self.status == "ok":
            return f"OK    {self.path}: {self.message}"
        if self.status == "incomplete":
            return f"PART  {self.path}: {self.message}"
        where = "" if self.decision is None else f" at decision {self.decision}"
        return f"FAIL  {self.path}{where}: {self.message}"


class _Rederiving(RecordedCaller):
    """Recorded calls, each checked against what the named deterministic policy answers."""

    def __init__(self, events: list[dict[str, Any]], policy: Any) -> None:
        super().__init__(events)
        self.policy = policy

    def call(self, question: Any, limit_ms: float | None, realtime: bool) -> Call:
        recorded = super().call(question, limit_ms, realtime)
        n = self.index - 1
        if recorded.outcome.status == "timeout":
            return recorded  # time is recorded, never re-derived (a busy machine is slow)
        own = call_policy(self.policy, question, DecisionContext.with_budget(None), None)
        if recorded.outcome.status != own.status:
            raise MismatchError(
                n,
                f"the policy named in the header gives {own.status}, the log records "
                f"{recorded.outcome.status}",
            )
        recorded_answer = self.events[n]["call"]["answer"]
        if own.status == "ok" and not same_answer(to_jsonable(own.answer), recorded_answer):
            raise MismatchError(
                n, "the recorded answer is not the one the policy named in the header gives"
            )
        return recorded


Watch = Callable[[Any, Mapping[str, Any] | None], None]
"""Called with the replayed episode before the first decision (event None) and after each one."""


def _replay(path: Path, watch: Watch | None = None, *, rederive: bool = True) -> VerifyReport:
    contents = read_log(path)
    benchmark = for_header(contents.header)
    if benchmark is None:
        name = contents.header.get("benchmark") or contents.header.get("ruleset")
        return VerifyReport(str(path), "fail", None, f"no registered benchmark replays {name!r}")
    try:
        replay = benchmark.replay(contents)
    except (KeyError, TypeError, ValueError) as exc:
        return VerifyReport(
            str(path), "fail", None, f"header cannot start a game: {exc}", benchmark.name
        )
    events, recorded = replay.events, replay.result
    derive = benchmark.rederive if rederive else None
    policy = derive(contents.header) if derive is not None else None
    caller = RecordedCaller(events) if policy is None else _Rederiving(events, policy)
    incomplete = recorded is not None and recorded.get("endReason") in INCOMPLETE_ENDS
    comparer = Comparer(events, None if incomplete else recorded)
    try:
        on_decision = None
        if watch is not None:
            episode = replay.episode
            watch(episode, None)

            def on_decision(call: Call, judged: Any, event: dict[str, Any]) -> None:
                watch(episode, event)

        played = play_episode(replay.episode, caller, comparer, on_decision=on_decision)
    except RecordingEndsError as ends:
        if recorded is None:
            why = f" ({contents.note})" if contents.truncated else ""
            return VerifyReport(
                str(path),
                "fail",
                None,
                f"no result line: the recording stops after {ends.decisions} decisions{why}",
                benchmark.name,
            )
        if incomplete:
            return VerifyReport(
                str(path),
                "incomplete",
                None,
                f"{recorded.get('endReason')} at decision {ends.decisions} "
                f"({recorded.get('reason') or 'not finished'}); the decisions before replay",
                benchmark.name,
                recorded,
                contents.header,
            )
        raise MismatchError(
            ends.decisions, "the result is recorded while the replayed game goes on"
        ) from None
    if comparer.seen != len(events):
        raise MismatchError(comparer.seen, "the replayed game ended before the recorded decisions")
    if recorded is None:
        why = f" ({contents.note})" if contents.truncated else ""
        message = f"no result line after {played.decisions} decisions{why}"
        return VerifyReport(str(path), "fail", None, message, benchmark.name)
    if incomplete:
        raise MismatchError(
            None, f"the game is recorded as {recorded.get('endReason')} but it ended"
        )
    identity = "answers re-derived" if policy is not None else "identity recorded, not proven"
    result = played.result
    summary = ", ".join(f"{k} {result[k]}" for k in ("endReason", "score") if k in result)
    return VerifyReport(
        str(path),
        "ok",
        None,
        f"{played.decisions} decisions replay; {summary} ({identity})",
        benchmark.name,
        result,
        contents.header,
    )


def verify_log(
    path: str | Path, watch: Watch | None = None, *, rederive: bool = True
) -> VerifyReport:
    """Re-simulate one log of any benchmark and compare it decision by decision. Never raises for
    a bad log. `watch(episode, event)`, when given, sees the replayed game before the first
    decision and after each one (the site's replay frames come from this one replay).
    `rederive=False` leaves out asking a deterministic policy named in the header for its
    answers again (the game, every answer's judgement and the result are still checked): the
    site draws a game from the rules, and re-running a search brain on every decision of 180
    shipped games took most of its build; `arcade-eval verify` always re-derives."""
    path = Path(path)
    try:
        where = _in_run(path)
        if where is not None:
            inside_root(where[0], path)
        report = _replay(path, watch, rederive=rederive)
        problem = _run_files_disagree(path, report) if report.ok else None
        if problem is not None:
            return replace(report, status="fail", message=problem)
        return report
    except MismatchError as bad:
        return VerifyReport(str(path), "fail", bad.decision, bad.message)
    except (LogFormatError, RunDirError) as exc:
        return VerifyReport(str(path), "fail", None, str(exc))
    except (OSError, UnicodeError) as exc:
        return VerifyReport(str(path), "fail", None, f"cannot read: {exc}")
    except Exception as exc:  # a log crafted to break the replay is a failed log, not a crash
        return VerifyReport(str(path), "fail", None, f"replay failed: {type(exc).__name__}: {exc}")


def _in_run(path: Path) -> tuple[Path, Path] | None:
    """(run directory, the log's path below `logs/`) when the log is part of a run directory."""
    for parent in path.parents:
        if parent.name == "logs" and (parent.parent / MANIFEST).is_file():
            return parent.parent, path.relative_to(parent)
    return None


def _read_object(path: Path) -> Mapping[str, Any] | None:
    try:
        data = read_json(path)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, Mapping) else None


def _run_files_disagree(path: Path, report: VerifyReport) -> str | None:
    """Why the manifest or the result file of a verified log's game contradicts the log (None:
    they agree, or the log is not part of a run directory)."""
    where = _in_run(path)
    if where is None or report.header is None:
        return None
    root, below = where
    header = report.header
    manifest = _read_object(root / MANIFEST)
    if manifest is None:
        return f"the run's {MANIFEST} is unreadable"
    logged_as = header.get("benchmark")
    if logged_as is not None and manifest.get("benchmark") != logged_as:
        return f"{MANIFEST} is a run of {manifest.get('benchmark')!r}, the log of {logged_as!r}"
    repeat = _repeat_disagrees(header, manifest, below)
    if repeat is not None:
        return repeat
    result_file = root / "results" / below.parent / f"{log_stem(below)}.json"
    if not result_file.exists() and not result_file.is_symlink():
        return None
    inside_root(root, result_file)
    saved = _read_object(result_file)
    if saved is None:
        return f"its result file {result_file} is not a JSON object"
    settings = header.get("settings") if isinstance(header.get("settings"), Mapping) else {}
    expected: dict[str, Any] = {k: v for k, v in (report.result or {}).items() if k != "type"}
    expected["seed"] = header.get("seed")
    expected.update(settings or {})
    policy = header.get("policy") or header.get("brain")
    for key in ("policy", "brain"):
        if isinstance(saved.get(key), Mapping) and isinstance(policy, Mapping):
            expected[key] = policy
    for key, value in expected.items():
        if key in saved and saved[key] != value:
            return f"its result file says {key} {saved[key]!r}, the log {value!r}"
    return None


def _repeat_disagrees(
    header: Mapping[str, Any], manifest: Mapping[str, Any], below: Path
) -> str | None:
    """Why the header's `repeat` (`--repeats`, `evaluation/core/repeats.py`) contradicts the run:
    its count must be the manifest's `repeats` (1 when absent: no header field then) and its
    index the log's own file name (`r2.jsonl`)."""
    settings = manifest.get("settings") if isinstance(manifest.get("settings"), Mapping) else {}
    runs = (settings or {}).get("repeats", 1)
    repeat = header.get("repeat")
    if repeat is None:
        return None if runs == 1 else f"{MANIFEST} plays {runs} repeats, the log names none"
    if not isinstance(repeat, Mapping) or repeat.get("of") != runs:
        return f"the log names repeat {repeat!r}, {MANIFEST} plays {runs} repeat(s)"
    index = repeat.get("index")
    if (
        not isinstance(index, int)
        or isinstance(index, bool)
        or log_stem(below) != repeats.part(index)
    ):
        return f"the log names repeat {index!r} but is {below.name}"
    return None


def log_files(paths: Iterable[str | Path]) -> list[Path]:
    """The logs named by `paths`: files as given, directories as every `*.jsonl` (and
    `*.jsonl.xz`, `eventlog.is_log_name`) below them (set
    aside logs end otherwise and are skipped; linked folders are not entered). A missing path
    raises FileNotFoundError; a log in a directory that links outside it, `RunDirError`."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out.extend(_logs_below(path))
        elif path.exists():
            out.append(path)
        else:
            raise FileNotFoundError(f"{path} does not exist")
    return out


def _logs_below(folder: Path) -> list[Path]:
    """Every log file (`*.jsonl`, `*.jsonl.xz`) below `folder`, sorted, refusing (`RunDirError`)
    a link that leaves it; links that stay inside are not entered (what they name is found where
    it is)."""
    found: list[Path] = []
    for parent, dirs, files in os.walk(folder):
        here = Path(parent)
        for name in [*dirs, *files]:
            if (here / name).is_symlink():
                inside_root(folder, here / name)
        found.extend(here / name for name in files if is_log_name(name) and (here / name).is_file())
    return sorted(found)


def verify_paths(paths: Iterable[str | Path]) -> list[VerifyReport]:
    """`verify_log` over files and directories (every log inside, sorted)."""
    return [verify_log(path) for path in log_files(paths)]


def results_without_logs(paths: Iterable[str | Path]) -> list[Path]:
    """Result files of the run directories among `paths` whose game has no log at all (a planted
    or orphaned result: nothing proves it). A result file beside a folder of the same name (a
    summary of the games inside, e.g. NARCADE's per-game file) is not a game's result."""
    out: list[Path] = []
    for raw in paths:
        root = Path(raw)
        results = root / "results"
        if not (root / "manifest.json").is_file() or not results.is_dir():
            continue
        inside_root(root, results)
        for result in sorted(results.rglob("*.json")):
            if result.with_suffix("").is_dir():
                continue
            log = (root / "logs" / result.relative_to(results)).with_suffix("")
            if not any(log.with_name(log.name + end).exists() for end in LOG_SUFFIXES):
                out.append(result)
    return out
