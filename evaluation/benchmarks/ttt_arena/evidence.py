"""Saved arena results as evidence: a result is shown only once its logs prove it.

`arcade-eval ttt-arena bench` saves a result (`entry_bench.result_document`) and the event log of
every game it played. Anyone can put a file in an entry's `results/`, so `verified_results`
accepts a saved result only when

1. it is a well-formed result document of this version (types checked, one line otherwise);
2. its `engineSha256` is the SHA-256 of the entry's `engine.bf` as it is now (else it is stale);
3. its log folder (the folder of the same name) holds exactly one log per suite position and
   match of its seed, none of them a link out of the entries directory or oversized;
4. every log replays (`evaluation/core/verify.py:verify_log`) under the official settings
   (benchmark, seed, time limit, the engine's identity `entry-<id>`);
5. the whole document re-computed from the replayed games (`report.build_report`, then
   `result_document`) equals the saved one, field by field (the metadata aside: `entry.json` may
   be edited after a bench), so the score and the grade are the logs' own;
6. `engine.bf` itself gives every recorded answer (the program is deterministic and bounded by
   its instruction limit), so the logs are this engine's games and nobody else's.

Anything else is unverified, with the reason, and never ranked. The checks run cheapest first;
only the newest `MAX_CHECKED` results on the seed are checked (older ones are superseded). A
verdict depends only on the bytes of the files it read, so it is kept per process under their
digest (`_CACHE`): the site and `arena table` never replay the same result twice.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.benchmarks.ttt_arena.answers import WireAnswers
from evaluation.benchmarks.ttt_arena.defaults import BENCHMARK_ID, DEFAULT_SEED, DEFAULT_TIMEOUT_MS
from evaluation.benchmarks.ttt_arena.entries import (
    RESULT_VERSION,
    Entry,
    EntryError,
    read_result,
    result_files,
)
from evaluation.benchmarks.ttt_arena.entry_bench import (
    ENGINE_PREFIX,
    MATCH_LOGS,
    POSITION_LOGS,
    result_document,
)
from evaluation.benchmarks.ttt_arena.report import build_report
from evaluation.benchmarks.ttt_arena.suite import SUITE_VERSION, build_suite
from evaluation.core.eventlog import to_jsonable
from evaluation.core.policy_call import call_policy
from evaluation.core.policy_identity import policy_identity
from evaluation.core.verify import verify_log
from policies.base import DecisionContext

MAX_CHECKED = 5
"""Results on a seed checked per entry, newest first, until one verifies."""
MAX_LOG_BYTES = 1024 * 1024
"""The largest game log read (a 10x10 match log is about 30 kB)."""
BENCHED_AT = "%Y-%m-%dT%H:%M:%SZ"


class NotEvidenceError(Exception):
    """Why a saved result is not shown (one line)."""


class StaleError(NotEvidenceError):
    """The result was benched on another `engine.bf` (its SHA-256 differs from the file now)."""


@dataclass(frozen=True)
class Unverified:
    """A saved result that is not shown: its file name and why; `stale` when it was benched on
    another `engine.bf` than the entry's file now (the tier list marks the entry stale)."""

    file: str
    reason: str
    stale: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.file, "reason": self.reason, "stale": self.stale}


@dataclass(frozen=True)
class Evidence:
    """The checked results of one entry on one seed: `verified` documents (oldest first, each
    with its `file`), the `unverified` ones with their reasons."""

    verified: list[dict[str, Any]] = field(default_factory=list)
    unverified: list[Unverified] = field(default_factory=list)

    @property
    def official(self) -> dict[str, Any] | None:
        """The latest verified result: the one the tier list ranks."""
        return self.verified[-1] if self.verified else None


_CACHE: dict[tuple[str, str, str], Evidence] = {}


def verified_results(entry: Entry, seed: int = DEFAULT_SEED) -> Evidence:
    """The saved results of `entry` on `seed`, each verified from its logs or set apart as
    unverified with the reason (see the module docstring). Never raises for what the files hold."""
    candidates: list[tuple[str, str, Path, Any]] = []
    unverified: list[Unverified] = []
    try:
        files = result_files(entry)
    except EntryError as error:
        return Evidence([], [Unverified(entry.results.name, str(error))])
    for path in files:
        try:
            data = read_result(entry, path)
            problem = _shape_problem(data)
        except EntryError as error:
            unverified.append(Unverified(path.name, str(error)))
            continue
        if problem is not None:
            unverified.append(Unverified(path.name, problem))
        elif data["seed"] == seed:
            candidates.append((data["benchedAt"], path.name, path, data))
    candidates.sort(key=lambda row: (row[0], row[1]), reverse=True)
    verified: list[dict[str, Any]] = []
    for checked, (_, name, path, data) in enumerate(candidates):
        if verified:
            break  # older results on the seed are superseded by the verified one
        if checked >= MAX_CHECKED:
            unverified.append(Unverified(name, f"not checked: older than {MAX_CHECKED} newer ones"))
            continue
        try:
            verified.append({**_verified(entry, path, data), "file": name})
        except NotEvidenceError as why:
            unverified.append(Unverified(name, str(why), isinstance(why, StaleError)))
    unverified.sort(key=lambda u: u.file)
    return Evidence(verified, unverified)


# --- the checks ---------------------------------------------------------------------------------

_TYPES: dict[str, tuple[type, ...]] = {
    "entry": (str,),
    "engineSha256": (str,),
    "seed": (int,),
    "suite": (str,),
    "benchedAt": (str,),
    "grade": (str,),
    "score": (int, float),
    "logs": (str,),
    "matches": (dict,),
    "forcedWin5": (dict,),
    "forkDefense": (dict,),
    "report": (dict,),
}


def _shape_problem(data: Any) -> str | None:
    """Why `data` is not a result document of this version (None: it is one)."""
    if not isinstance(data, dict):
        return "not a JSON object"
    if data.get("resultVersion") != RESULT_VERSION:
        return f"resultVersion must be {RESULT_VERSION}, got {_short(data.get('resultVersion'))}"
    for key, types in _TYPES.items():
        value = data.get(key)
        if key not in data:
            return f"field {key!r} is missing"
        if isinstance(value, bool) or not isinstance(value, types):
            kind = "a number" if key == "score" else f"a JSON {_json_kind(types[0])}"
            return f"field {key!r} must be {kind}, got {_short(value)}"
    if not math.isfinite(data["score"]):
        return f"field 'score' must be a finite number, got {_short(data['score'])}"
    try:
        dt.datetime.strptime(data["benchedAt"], BENCHED_AT)
    except ValueError:
        return f"field 'benchedAt' must be a UTC time, got {_short(data['benchedAt'])}"
    return None


def _json_kind(kind: type) -> str:
    return {str: "string", int: "integer", dict: "object"}.get(kind, kind.__name__)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _verified(entry: Entry, path: Path, data: Mapping[str, Any]) -> dict[str, Any]:
    """The saved document when its logs prove it; `NotEvidenceError` with the reason otherwise."""
    if data["entry"] != entry.id:
        raise NotEvidenceError(f"it is the result of entry {_short(data['entry'])}")
    if data["logs"] != path.stem:
        raise NotEvidenceError(f"its logs must be the folder {path.stem!r} beside it")
    try:
        engine = entry.engine_bytes()
    except EntryError as error:
        raise NotEvidenceError(str(error)) from None
    if hashlib.sha256(engine).hexdigest() != data["engineSha256"]:
        raise StaleError(
            f"stale: {entry.id}/engine.bf has changed since this result was benched (its "
            f"SHA-256 differs); re-bench it with `arcade-eval ttt-arena bench --entry {entry.id}`"
        )
    logs = _log_files(entry, path.with_suffix(""), data["seed"])
    digest = hashlib.sha256(engine)
    for log in logs.values():
        digest.update(log.name.encode() + b"\0" + log.read_bytes() + b"\0")
    digest.update(repr(sorted(data.items())).encode())
    key = (str(entry.folder.resolve()), path.name, digest.hexdigest())
    if key not in _CACHE:
        try:
            _CACHE[key] = Evidence([_proven(entry, data, logs)])
        except NotEvidenceError as why:
            _CACHE[key] = Evidence([], [Unverified(path.name, str(why))])
    cached = _CACHE[key]
    if not cached.verified:
        raise NotEvidenceError(cached.unverified[0].reason)
    return dict(cached.verified[0])


def _log_files(entry: Entry, folder: Path, seed: int) -> dict[tuple[str, str], Path]:
    """(kind, item id) -> the log of every game of the suite of `seed`; exactly those files."""
    if not folder.is_dir():
        raise NotEvidenceError(f"its log folder {folder.name}/ is missing: re-bench the entry")
    suite = build_suite(seed)
    wanted = {(POSITION_LOGS, p.id) for p in suite.positions}
    wanted |= {(MATCH_LOGS, m.id) for m in suite.matches}
    out: dict[tuple[str, str], Path] = {}
    for kind, item_id in sorted(wanted):
        log = folder / kind / f"{item_id}.jsonl"
        try:
            real = entry.inside(log)
        except EntryError as error:
            raise NotEvidenceError(str(error)) from None
        if not real.is_file():
            raise NotEvidenceError(f"the log {kind}/{item_id}.jsonl is missing")
        if os.stat(real).st_size > MAX_LOG_BYTES:
            raise NotEvidenceError(f"the log {kind}/{item_id}.jsonl is larger than 1 MB")
        out[(kind, item_id)] = real
    for kind in (POSITION_LOGS, MATCH_LOGS):
        found = {p.stem for p in (folder / kind).iterdir()}
        extra = sorted(found - {item_id for k, item_id in wanted if k == kind})
        if extra:
            raise NotEvidenceError(f"{kind}/{extra[0]} is not a log of the suite of seed {seed}")
    return out


@dataclass
class _Game:
    """One replayed game: the questions asked and the recorded decision events."""

    questions: list[Any] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    def watch(self, episode: Any, event: Mapping[str, Any] | None) -> None:
        if event is not None:
            self.events.append(dict(event))
        if not episode.over:
            self.questions.append(episode.question())


def _proven(entry: Entry, data: Mapping[str, Any], logs: Mapping[tuple[str, str], Path]) -> dict:
    """The saved document, once every log replays, re-computes it and is the engine's play."""
    from policies.engines.arena import BrainfuckEngine

    seed = data["seed"]
    player = BrainfuckEngine(entry.engine, name=ENGINE_PREFIX + entry.id)
    identity = policy_identity(player)
    games: dict[tuple[str, str], tuple[_Game, dict[str, Any]]] = {}
    for (kind, item_id), log in logs.items():
        game = _Game()
        report = verify_log(log, game.watch)
        where = f"the log {kind}/{item_id}.jsonl"
        if not report.ok or report.header is None or report.result is None:
            raise NotEvidenceError(f"{where} does not verify: {report.message}")
        _check_header(report.header, where, seed, kind, item_id, identity)
        if len(game.questions) != len(game.events):
            raise NotEvidenceError(f"{where}: its decisions do not match its questions")
        result = {k: v for k, v in report.result.items() if k != "type"}
        calls = [_call_record(event) for event in game.events]
        games[(kind, item_id)] = (game, {"id": item_id, **result, "calls": calls})
    suite = build_suite(seed)
    rebuilt = build_report(
        identity,
        seed,
        SUITE_VERSION,
        [games[(POSITION_LOGS, p.id)][1] for p in suite.positions],
        [games[(MATCH_LOGS, m.id)][1] for m in suite.matches],
    )
    when = dt.datetime.strptime(data["benchedAt"], BENCHED_AT).replace(tzinfo=dt.UTC)
    document = json.loads(
        json.dumps(
            result_document(rebuilt, engine=entry.engine, entry=entry, when=when, logs=data["logs"])
        )
    )
    _compare(data, document)
    answers: Any = WireAnswers(player)
    for (kind, item_id), (game, _) in games.items():
        for n, (question, event) in enumerate(zip(game.questions, game.events, strict=True)):
            own = call_policy(answers, question, DecisionContext.with_budget(None), None)
            call = event.get("call") or {}
            if own.status != call.get("status") or (
                own.status == "ok" and to_jsonable(own.answer) != call.get("answer")
            ):
                raise NotEvidenceError(
                    f"the log {kind}/{item_id}.jsonl, decision {n}: the recorded answer is not "
                    "the one engine.bf gives"
                )
    return dict(data)


def _check_header(
    header: Mapping[str, Any],
    where: str,
    seed: int,
    kind: str,
    item_id: str,
    identity: Mapping[str, Any],
) -> None:
    settings = header.get("settings") if isinstance(header.get("settings"), Mapping) else {}
    assert isinstance(settings, Mapping)
    item = settings.get("item") if isinstance(settings.get("item"), Mapping) else {}
    assert isinstance(item, Mapping)
    expected_game = "position" if kind == POSITION_LOGS else "match"
    if header.get("benchmark") != BENCHMARK_ID or settings.get("game") != expected_game:
        raise NotEvidenceError(f"{where} is not the log of an arena {expected_game}")
    if header.get("seed") != seed or item.get("id") != item_id:
        raise NotEvidenceError(f"{where} is the log of another game (seed or item differ)")
    if settings.get("timeoutMs") != DEFAULT_TIMEOUT_MS:
        raise NotEvidenceError(
            f"{where} was played with timeoutMs {_short(settings.get('timeoutMs'))}, not the "
            f"official {DEFAULT_TIMEOUT_MS:g}"
        )
    if header.get("policy") != to_jsonable(dict(identity)):
        raise NotEvidenceError(f"{where} was not played by this entry's engine")


def _call_record(event: Mapping[str, Any]) -> dict[str, Any]:
    """A decision as the runner's saved call (`episode._record`), without the wall time a log
    never holds."""
    record: dict[str, Any] = {"latencyMs": None, "instructions": event.get("instructions")}
    usage = (event.get("call") or {}).get("usage")
    if usage:
        record["usage"] = usage
    return record


def _compare(saved: Mapping[str, Any], rebuilt: Mapping[str, Any]) -> None:
    """`NotEvidenceError` naming the first field where the saved document is not the re-computed one
    (the metadata aside)."""
    keys = [k for k in dict.fromkeys([*rebuilt, *saved]) if k not in ("metadata", "file")]
    for key in ("score", "grade", *keys):
        if saved.get(key) != rebuilt.get(key):
            if key in ("score", "grade"):
                raise NotEvidenceError(
                    f"{key} {_short(saved.get(key))} is recorded, its logs give "
                    f"{_short(rebuilt.get(key))}"
                )
            raise NotEvidenceError(f"field {key!r} is not what its logs give")
