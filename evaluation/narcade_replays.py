"""Replay files from NARCADE traces, checked by re-simulation.

`export_replays(trace_dirs, output)` reads every trace (`<model>-<game>-<seed>.jsonl`) in the given
run directories, replays it from its seed with the recorded choices and game times through the
runner's own lanes, and writes one replay file per trace plus an `index.json`. A trace is rejected
when the re-simulated question differs from the recorded state, when the recorded instruction is
not the protocol's, when the offered actions differ, when the recorded answer does not read as the
recorded choice, or when the final score differs from the trace's result line or from the
matching result file next to it. Any rejection stops the whole export (nothing is written), so a
published replay set is always the one the results came from.

Replay format (`REPLAY_FORMAT`): the trace header's identity (model, revision, game, seed, mode,
difficulty, rules, protocol, instruction), `frames` (decision, state, actions offered, the action
played, status, game time applied, score after) and `final` (score, end reason, decisions).
Playback timing is illustrative, not the original request timing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluation.narcade_results import (
    INSTRUCTIONS,
    PROTOCOL_VERSION,
    RULES_VERSION,
    read_json,
    read_trace,
    result_filename,
    safe_name,
    write_json_atomic,
)
from evaluation.narcade_runner import (
    FORCED_ENDS,
    LANES,
    Settings,
    make_lane,
    question_state,
)

REPLAY_FORMAT = "narcade-replay@1"


class ReplayError(ValueError):
    """Traces that do not replay, or an export that would overwrite or mix replays."""


class _RejectError(Exception):
    pass


def find_traces(trace_dirs: Sequence[str | Path]) -> list[Path]:
    """Every `*.jsonl` trace directly inside the given run directories, sorted per directory."""
    if not trace_dirs:
        raise ReplayError("give at least one run directory with traces (run with --trace)")
    paths: list[Path] = []
    for raw in trace_dirs:
        folder = Path(raw)
        if not folder.is_dir():
            raise ReplayError(f"{folder} is not a directory of traces")
        paths.extend(sorted(folder.glob("*.jsonl")))
    if not paths:
        raise ReplayError(
            "no traces (*.jsonl) in " + ", ".join(str(d) for d in trace_dirs) + "; run with --trace"
        )
    return paths


def _settings(header: dict[str, Any]) -> Settings:
    game = header.get("game")
    if game not in LANES:
        raise _RejectError(f"unknown game {game!r}")
    max_pieces = header.get("maxPieces")
    return Settings(
        games=(str(game),),
        mode="realtime" if header.get("mode") == "realtime" else "lockstep",
        difficulty=str(header.get("difficulty")),
        max_pieces=None if max_pieces is None else int(max_pieces),
        max_decisions=int(header.get("maxDecisions") or 1),
        max_seconds=header.get("maxSeconds"),
    )


def _first_difference(new: dict[str, Any], old: Any) -> str:
    if not isinstance(old, dict):
        return "the recorded state is not an object"
    keys = sorted(set(new) | set(old))
    differing = [k for k in keys if new.get(k) != old.get(k)]
    return ", ".join(differing[:5]) or "?"


def replay_trace(path: Path) -> dict[str, Any]:
    """The replay document of one trace; ReplayError (with the file name) when it mismatches."""
    try:
        return _replay(path)
    except _RejectError as reject:
        raise ReplayError(f"{path}: {reject}") from None
    except (ValueError, KeyError, TypeError, RuntimeError) as exc:
        raise ReplayError(f"{path}: unreadable trace ({type(exc).__name__}: {exc})") from None


def _replay(path: Path) -> dict[str, Any]:
    from evaluation.core.eventlog import from_jsonable

    header, decisions, result = read_trace(path)
    game = str(header.get("game"))
    seed = int(header["seed"])
    if header.get("rulesVersion") != RULES_VERSION:
        raise _RejectError(f"rules version {header.get('rulesVersion')} is not {RULES_VERSION}")
    if header.get("protocol") != PROTOCOL_VERSION:
        raise _RejectError(
            f"observation protocol {header.get('protocol')} is not {PROTOCOL_VERSION}"
        )
    if header.get("instruction") != INSTRUCTIONS.get(game):
        raise _RejectError("instruction mismatch: the recorded instruction is not the protocol's")
    lane = make_lane(game, seed, _settings(header))
    frames = []
    for index, event in enumerate(decisions):
        where = f"decision {index}"
        if event.get("decision") != index:
            raise _RejectError(f"{where}: decisions are out of order ({event.get('decision')})")
        if lane.over:
            raise _RejectError(
                f"{where}: the re-simulated game had already ended ({lane.end_reason})"
            )
        question = lane.question()
        state, actions = question_state(question)
        if state != event.get("state"):
            raise _RejectError(
                f"state mismatch at {where} ({_first_difference(state, event.get('state'))})"
            )
        if actions != event.get("actions"):
            raise _RejectError(f"action-set mismatch at {where}")
        choice = event.get("choice")
        if choice is not None and choice not in actions:
            raise _RejectError(f"action mismatch at {where}: {choice!r} was not offered")
        status = event.get("status")
        if status in ("valid", "invalid"):
            verdict = lane.validate(from_jsonable(event.get("answer")), question)
            played = verdict.action if verdict.usable else None
            if played != choice or verdict.status != status:
                raise _RejectError(
                    f"action mismatch at {where}: the recorded answer reads as {played!r} "
                    f"({verdict.status}) but the trace plays {choice!r} ({status})"
                )
        elif status in ("timeout", "error"):
            if choice is not None:
                raise _RejectError(f"action mismatch at {where}: a {status} cannot play {choice!r}")
        else:
            raise _RejectError(f"{where}: unknown status {status!r}")
        elapsed = float(event.get("elapsedMs") or 0.0)
        lane.apply(choice, elapsed)
        if lane.score != event.get("scoreAfter"):
            raise _RejectError(
                f"score mismatch after {where}: re-simulated {lane.score}, "
                f"recorded {event.get('scoreAfter')}"
            )
        frames.append(
            {
                "decision": index,
                "state": state,
                "actions": actions,
                "action": choice,
                "status": status,
                "elapsedMs": elapsed,
                "scoreAfter": lane.score,
            }
        )
    recorded_end = result.get("endReason")
    if not lane.over:
        if recorded_end not in FORCED_ENDS:
            raise _RejectError(
                f"the re-simulated game is still running but the trace ends with {recorded_end!r}"
            )
        lane.force_end(str(recorded_end))
    if lane.end_reason != recorded_end:
        raise _RejectError(
            f"end mismatch: re-simulated {lane.end_reason!r}, recorded {recorded_end!r}"
        )
    if lane.score != result.get("score"):
        raise _RejectError(
            f"final-score mismatch: re-simulated {lane.score}, trace says {result.get('score')}"
        )
    _check_result_file(path, header, lane.score)
    return {
        "format": REPLAY_FORMAT,
        "model": header.get("model"),
        "modelName": header.get("modelName"),
        "revision": header.get("revision"),
        "game": game,
        "seed": seed,
        "mode": header.get("mode"),
        "difficulty": header.get("difficulty"),
        "rulesVersion": header.get("rulesVersion"),
        "protocol": header.get("protocol"),
        "instruction": header.get("instruction"),
        "source": path.name,
        "frames": frames,
        "final": {"score": lane.score, "endReason": lane.end_reason, "decisions": len(frames)},
    }


def _check_result_file(path: Path, header: dict[str, Any], score: int) -> None:
    """The trace must match the episode its run's result file reports."""
    model, game, seed = str(header.get("model")), str(header.get("game")), int(header["seed"])
    result_path = path.parent / result_filename(model, game)
    if not result_path.is_file():
        raise _RejectError(f"no matching result file {result_path.name} next to the trace")
    data = read_json(result_path)
    episodes = [e for e in data.get("episodes", []) if int(e.get("seed", -1)) == seed]
    if not episodes:
        raise _RejectError(f"{result_path.name} has no episode for seed {seed}")
    if episodes[0].get("score") != score:
        raise _RejectError(
            f"final-score mismatch: re-simulated {score}, {result_path.name} says "
            f"{episodes[0].get('score')}"
        )


def export_replays(trace_dirs: Sequence[str | Path], output: str | Path) -> list[Path]:
    """Check every trace in `trace_dirs` and write their replays (and `index.json`) to `output`.
    Returns the replay paths; ReplayError lists every rejected trace and nothing is written."""
    paths = find_traces(trace_dirs)
    replays: dict[str, dict[str, Any]] = {}
    sources: dict[str, Path] = {}
    problems: list[str] = []
    for path in paths:
        try:
            replay = replay_trace(path)
        except ReplayError as error:
            problems.append(str(error))
            continue
        name = f"{safe_name(str(replay['model']))}-{replay['game']}-{replay['seed']}.json"
        if name in replays:
            problems.append(f"{path}: same model, game and seed as {sources[name]}")
            continue
        replays[name] = replay
        sources[name] = path
    if problems:
        raise ReplayError(
            f"{len(problems)} of {len(paths)} traces rejected:\n  " + "\n  ".join(problems)
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
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, replay in replays.items():
        write_json_atomic(out / name, replay)
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
