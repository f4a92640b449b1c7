"""Replay files from verified NARCADE event logs.

`export_replays(run_dirs, output)` takes every event log under `<run>/logs/` of the given run
directories and exports each with `evaluation.core.replay_export.export_replay`, the one exporter
the results site uses too: the log must pass `arcade-eval verify` (`evaluation/core/verify.py`:
re-simulated from its seed with the recorded answers and game times, every decision and the
result matching), and the frames are what the re-simulated engine shows (`site_frames.py`). The
final score is also checked against the run's result file. Any rejection stops the whole export
(nothing is written), so a published replay set is always the one the results came from.

Replay format (`REPLAY_FORMAT`): the header's identity (model, revision, game, seed, mode,
difficulty, rules, protocol, instruction), `frames` (the start, then one per decision: the
`site_frames.frame` snapshot with the decision number, the recorded answer, the action played and
its judgement) and `final` (score, end reason, decisions). Version 1 held each question's state
and offered actions instead of the engine's snapshot. Playback timing is illustrative, not the
original request timing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade.defaults import BENCHMARK_ID
from evaluation.benchmarks.narcade.results import read_json
from evaluation.core.replay_export import UnverifiedLogError, export_replay
from evaluation.core.rundir import safe_name, write_json_atomic
from evaluation.core.verify import log_files

REPLAY_FORMAT = "narcade-replay@2"


class ReplayError(ValueError):
    """Logs that do not replay, or an export that would overwrite or mix replays."""


class _RejectError(Exception):
    pass


def find_logs(run_dirs: Sequence[str | Path]) -> list[tuple[Path, Path]]:
    """`(run directory, log)` for every event log under each run's `logs/`, sorted per run."""
    if not run_dirs:
        raise ReplayError("give at least one NARCADE run directory")
    found: list[tuple[Path, Path]] = []
    for raw in run_dirs:
        run = Path(raw)
        if not (run / "logs").is_dir():
            raise ReplayError(f"{run} is not a NARCADE run directory (no logs/ inside)")
        found.extend((run, log) for log in log_files([run / "logs"]))
    if not found:
        raise ReplayError("no event logs (*.jsonl) under " + ", ".join(map(str, run_dirs)))
    return found


def _check_result_file(run: Path, log: Path, seed: int, score: int) -> None:
    """The log must be the episode its run's result file reports."""
    relative = log.relative_to(run / "logs")
    aggregate = (run / "results" / relative).parent.with_suffix(".json")
    if not aggregate.is_file():
        raise _RejectError(f"no matching result file {aggregate.relative_to(run)}")
    episodes = [e for e in read_json(aggregate).get("episodes", []) if e.get("seed") == seed]
    if not episodes:
        raise _RejectError(f"{aggregate.relative_to(run)} has no episode for seed {seed}")
    if episodes[0].get("score") != score:
        raise _RejectError(
            f"final-score mismatch: re-simulated {score}, {aggregate.relative_to(run)} says "
            f"{episodes[0].get('score')}"
        )


def replay_log(run: Path, log: Path) -> dict[str, Any]:
    """The replay document of one verified log; ReplayError (naming the log) otherwise."""
    try:
        exported = export_replay(log)
        header = exported.header
        if header.get("benchmark") != BENCHMARK_ID:
            raise _RejectError(f"not a NARCADE log ({header.get('benchmark')!r})")
        seed, score = int(header["seed"]), int(exported.result["score"])
        _check_result_file(run, log, seed, score)
    except UnverifiedLogError as refused:
        raise ReplayError(f"{log}: {refused}") from None
    except _RejectError as reject:
        raise ReplayError(f"{log}: {reject}") from None
    except Exception as exc:  # a log crafted to break the export is a rejected log, not a crash
        raise ReplayError(f"{log}: unreadable log ({type(exc).__name__}: {exc})") from None
    policy, settings = header.get("policy") or {}, header["settings"]
    frames = exported.to_json()["frames"]
    return {
        "format": REPLAY_FORMAT,
        "model": policy.get("spec"),
        "modelName": policy.get("name"),
        "revision": policy.get("revision"),
        "game": settings["game"],
        "seed": seed,
        "mode": settings["mode"],
        "difficulty": settings["difficulty"],
        "rulesVersion": header["versions"]["rules"],
        "protocol": header["versions"]["protocol"],
        "instruction": settings["instruction"],
        "source": log.relative_to(run).as_posix(),
        "frames": frames,
        "final": {
            "score": score,
            "endReason": exported.result["endReason"],
            "decisions": len(frames) - 1,
        },
    }


def export_replays(run_dirs: Sequence[str | Path], output: str | Path) -> list[Path]:
    """Check every log of `run_dirs` and write their replays (and `index.json`) to `output`.
    Returns the replay paths; ReplayError lists every rejected log and nothing is written."""
    logs = find_logs(run_dirs)
    replays: dict[str, dict[str, Any]] = {}
    sources: dict[str, Path] = {}
    problems: list[str] = []
    for run, log in logs:
        try:
            doc = replay_log(run, log)
        except ReplayError as error:
            problems.append(str(error))
            continue
        name = f"{safe_name(str(doc['model']))}-{doc['game']}-{doc['seed']}.json"
        if name in replays:
            problems.append(f"{log}: same model, game and seed as {sources[name]}")
            continue
        replays[name] = doc
        sources[name] = log
    if problems:
        raise ReplayError(
            f"{len(problems)} of {len(logs)} logs rejected:\n  " + "\n  ".join(problems)
        )
    out = Path(output)
    if out.exists() and not out.is_dir():
        raise ReplayError(f"{out} is a file; give a directory for the replays")
    clashes = [name for name in [*replays, "index.json"] if (out / name).exists()]
    if clashes:
        raise ReplayError(
            f"{out} already holds {', '.join(clashes[:5])}; replays are never overwritten: "
            "choose a new --output"
        )
    written = []
    for name, doc in replays.items():
        write_json_atomic(out / name, doc)
        written.append(out / name)
    index = [
        {
            "file": name,
            "model": r["model"],
            "game": r["game"],
            "seed": r["seed"],
            "score": r["final"]["score"],
            "endReason": r["final"]["endReason"],
            "source": str(sources[name]),
        }
        for name, r in replays.items()
    ]
    write_json_atomic(out / "index.json", {"format": REPLAY_FORMAT, "replays": index})
    return written
