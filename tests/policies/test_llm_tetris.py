"""The Tetris Bench LLM adapter: prompt, ids, reply parsing, and whole games against a real local
OpenAI-compatible server (a thread on 127.0.0.1; nothing here touches the network)."""

from __future__ import annotations

import json
import math
import re
import runpy
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_gym.tetris.contract import AgentInput, validate
from arcade_gym.tetris.game import TetrisGame
from evaluation.benchmarks.tetris_bench.episode import play_tetris
from evaluation.benchmarks.tetris_bench.leaderboard import cost_per_100
from evaluation.benchmarks.tetris_bench.runner import RunConfig, run_tetris_bench
from evaluation.core.episode import RunStoppedError
from evaluation.core.eventlog import read_log
from evaluation.core.grid import spec_pool
from evaluation.core.policy_call import call_policy
from evaluation.core.verify import verify_log, verify_paths
from policies.base import DecisionContext
from policies.llm import (
    ChatClient,
    ChatPolicy,
    FatalModelError,
    ModelSpec,
    PreflightError,
    is_fatal,
    make_llm_policy,
    preflight,
    prompt_for,
)
from policies.specs import SpecOptions
from policies.tetris import make_brain
from policies.tetris.prompt import (
    SYSTEM_PROMPT,
    ReplyParseError,
    build_messages,
    candidate_ids,
    parse_reply,
    render_question,
    response_format,
)
from tests.policies.chat_server import ChatHandler, ChatServer, serving

# --------------------------------------------------------------------------------------------
# Questions
# --------------------------------------------------------------------------------------------


def questions(seed: str, n: int) -> list[AgentInput]:
    """The first `n` questions of a game played by the heuristic (real, varied positions)."""
    game = TetrisGame(seed)
    brain = make_brain("heuristic")
    out: list[AgentInput] = []
    while len(out) < n and not game.over:
        q = game.question()
        out.append(q)
        verdict = validate(brain.act(q), q)
        assert verdict.placement is not None
        if verdict.hold:
            game.hold()
        else:
            game.play(verdict.placement.x, verdict.placement.rotation)
    return out


@pytest.fixture(scope="module")
def sample() -> list[AgentInput]:
    return questions("seed-01", 30)


# --------------------------------------------------------------------------------------------
# The prompt
# --------------------------------------------------------------------------------------------


def test_the_prompt_is_byte_identical_for_the_same_question(sample: list[AgentInput]) -> None:
    for q in sample:
        copy = AgentInput.model_validate_json(q.to_json())
        ids = candidate_ids(q.state_hash, len(q.candidates))
        assert build_messages(q, ids) == build_messages(
            copy, candidate_ids(copy.state_hash, len(copy.candidates))
        )
        assert render_question(q, ids).encode() == render_question(copy, list(ids)).encode()


def test_the_prompt_shows_the_seeds_layout(sample: list[AgentInput]) -> None:
    q = sample[14]
    ids = candidate_ids(q.state_hash, len(q.candidates))
    text = render_question(q, ids)
    lines = text.splitlines()
    assert lines[0].startswith(f"Active piece: {q.active.type}   Next: {' '.join(q.next)}   ")
    assert "Hold slot: " in lines[0] and f"score {q.score}, lines {q.lines}" in lines[0]
    board = [line for line in lines if re.fullmatch(r"[ \d]\d [#.]{10}", line)]
    first_filled = min(r for r, row in enumerate(q.grid) if any(row))
    assert int(board[0].split()[0]) == first_filled - 1  # one empty row above the stack
    assert int(board[-1].split()[0]) == 19 and set(board[0][3:]) == {"."}
    assert f"rows above {first_filled - 1} are empty" in text
    assert "   0123456789" in lines
    assert f"Column heights now: [{','.join(map(str, q.features.heights))}]" in text
    listed = [line for line in lines if re.match(r"^[A-Z]{2}: x=", line)]
    assert len(listed) == len(q.candidates)
    for line, c, cid in zip(listed, q.candidates, ids, strict=True):
        assert line.startswith(f"{cid}: x={c.placement.x} rot={c.placement.rotation} | ")
        assert f"holes={c.features.holes} " in line and line.endswith(
            "topOut=yes" if c.top_out else "topOut=no"
        )
    assert lines[-1] == 'Reply with JSON only: {"candidate":"<ID>","hold":false,"risk":0.1}'
    assert "JSON" in SYSTEM_PROMPT and "random" in SYSTEM_PROMPT


def test_an_empty_board_shows_only_the_bottom_row() -> None:
    q = TetrisGame("seed-05").question()
    text = render_question(q, candidate_ids(q.state_hash, len(q.candidates)))
    assert "Current board (row 19 shown; rows above 19 are empty):\n19 ..........\n" in text


def test_the_schema_allows_exactly_the_listed_ids(sample: list[AgentInput]) -> None:
    q = sample[3]
    ids = candidate_ids(q.state_hash, len(q.candidates))
    fmt = response_format(ids)
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["properties"]["candidate"]["enum"] == sorted(ids)
    assert schema["required"] == ["candidate", "hold", "risk"]
    assert schema["properties"]["risk"] == {"type": "number", "minimum": 0, "maximum": 1}


# --------------------------------------------------------------------------------------------
# Candidate ids
# --------------------------------------------------------------------------------------------


@given(st.text(min_size=1, max_size=16), st.integers(0, 80))
@settings(max_examples=200, deadline=None)
def test_ids_are_distinct_pairs_of_capital_letters(state_hash: str, n: int) -> None:
    ids = candidate_ids(state_hash, n)
    assert len(ids) == n == len(set(ids))
    assert all(re.fullmatch(r"[A-Z]{2}", i) for i in ids)
    assert candidate_ids(state_hash, n) == ids


def test_different_positions_get_different_ids(sample: list[AgentInput]) -> None:
    seen = [tuple(candidate_ids(q.state_hash, 20)) for q in sample]
    assert len(set(seen)) == len(seen)
    assert candidate_ids("7e417cf6", 34) != candidate_ids("7e417cf7", 34)


def _spearman(a: list[float], b: list[float]) -> float:
    def ranks(xs: list[float]) -> list[float]:
        order = sorted(range(len(xs)), key=xs.__getitem__)
        out = [0.0] * len(xs)
        for rank, i in enumerate(order):
            out[i] = float(rank)
        return out

    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    var = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return cov / var


def test_ids_never_reveal_the_candidates_order() -> None:
    """Over many positions, an id's alphabetical rank says nothing about where its candidate is
    listed, nor about which placement it names: no correlation beyond sampling noise."""
    n, positions = 30, 400
    pooled_id_rank: list[float] = []
    pooled_position: list[float] = []
    first_letter_at_top = 0
    for k in range(positions):
        ids = candidate_ids(f"{k * 2654435761 % 2**32:08x}", n)
        alphabetical = sorted(ids)
        pooled_id_rank += [float(alphabetical.index(i)) for i in ids]
        pooled_position += [float(p) for p in range(n)]
        first_letter_at_top += ids[0] == alphabetical[0]
    rho = _spearman(pooled_id_rank, pooled_position)
    assert abs(rho) < 4.0 / math.sqrt(n * positions)  # four standard errors of zero
    # the first listed candidate gets the alphabetically first id about 1 time in n
    assert first_letter_at_top < 4 * positions / n


def test_ids_do_not_depend_on_the_candidates(sample: list[AgentInput]) -> None:
    q = sample[10]
    reordered = q.model_copy(update={"candidates": list(reversed(q.candidates))})
    assert candidate_ids(q.state_hash, len(q.candidates)) == candidate_ids(
        reordered.state_hash, len(reordered.candidates)
    )


# --------------------------------------------------------------------------------------------
# Reading replies
# --------------------------------------------------------------------------------------------

IDS = ["RM", "EG", "HV"]


@pytest.mark.parametrize(
    ("text", "candidate", "hold", "risk"),
    [
        ('{"candidate":"RM","hold":false,"risk":0.1}', "RM", False, 0.1),
        ('  {"candidate": "eg", "hold": true, "risk": 0}\n', "EG", True, 0.0),
        (
            'Looking at the board, HV is best.\n```json\n{"candidate": "HV", "hold": false, '
            '"risk": 0.25}\n```\nGood luck!',
            "HV",
            False,
            0.25,
        ),
        ("{'candidate': 'RM', 'hold': False, 'risk': 0.3,}", "RM", False, 0.3),
        (
            'My answer: {"candidate": "EG", "hold": "no", "risk": "0.05"} because it is flat.',
            "EG",
            False,
            0.05,
        ),
        ("{candidate: HV, hold: true}", "HV", True, None),
        (
            'I first thought {"candidate": "RM"} but the final answer is '
            '{"candidate": "EG", "hold": false, "risk": 0.2}',
            "EG",
            False,
            0.2,
        ),
        ('{"candidate": "RM", "hold": 0.9, "risk": 7}', "RM", True, None),
        ('{"candidate": "HV: x=2 rot=0", "hold": false, "risk": 0.1}', "HV", False, 0.1),
        ("EG", "EG", False, None),
        ("Hmm {it's close}. Final: {'candidate': 'HV', 'hold': False}", "HV", False, None),
        ('{"id": "HV"}', "HV", False, None),
    ],
)
def test_tolerant_parsing_reads_what_the_model_meant(
    text: str, candidate: str, hold: bool, risk: float | None
) -> None:
    reply = parse_reply(text, IDS)
    assert (reply.candidate, reply.hold, reply.risk) == (candidate, hold, risk)


@pytest.mark.parametrize(
    ("text", "refusal", "error"),
    [
        ("", None, "empty reply"),
        ("   \n", None, "empty reply"),
        (None, None, "empty reply"),
        ("", "I can't help with that.", "refused"),
        ("I'm sorry, but I can't help with that.", None, "no JSON object"),
        ('{"candidate": "ZZ", "hold": false}', None, "unknown candidate id 'ZZ'"),
        ('{"candidate": 3}', None, "must be a string"),
        ('{"hold": false, "risk": 0.1}', None, "no candidate field"),
        ('{"candidate": "RM", "hold": fal', None, "no JSON object"),
        ("No.", None, "no JSON object"),
        ("rm", None, "no JSON object"),
    ],
)
def test_unreadable_replies_are_parse_errors(
    text: str | None, refusal: str | None, error: str
) -> None:
    with pytest.raises(ReplyParseError, match=error):
        parse_reply(text, IDS, refusal=refusal)


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_the_parser_never_crashes_and_only_returns_listed_ids(text: str) -> None:
    try:
        reply = parse_reply(text, IDS)
    except ReplyParseError:
        return
    assert reply.candidate in IDS
    assert reply.risk is None or 0.0 <= reply.risk <= 1.0


# --------------------------------------------------------------------------------------------
# A real OpenAI-compatible server on 127.0.0.1
# --------------------------------------------------------------------------------------------

_CANDIDATE_LINE = re.compile(
    r"^([A-Z]{2}): x=(-?\d+) rot=(\d+) \| lines=(\d+) clear=\+(\d+) drop=\+(\d+) "
    r"maxH=(\d+) holes=(\d+) bump=(\d+) wells=(\d+) topOut=(yes|no)$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Line:
    id: str
    x: int
    rotation: int
    lines: int
    max_h: int
    holes: int
    bump: int
    top_out: bool


def candidate_lines(prompt: str) -> list[Line]:
    return [
        Line(m[1], int(m[2]), int(m[3]), int(m[4]), int(m[7]), int(m[8]), int(m[9]), m[11] == "yes")
        for m in _CANDIDATE_LINE.finditer(prompt)
    ]


def greedy_id(prompt: str) -> str:
    """What the scripted "model" plays by default: the flattest, hole-free-est line."""
    best = min(candidate_lines(prompt), key=lambda c: (c.top_out, c.holes, c.max_h, c.bump, c.id))
    return best.id


Action = tuple[Any, ...]
"""A scripted reply: ("json",), ("prose",), ("text", content), ("refusal", text),
("textf", prompt -> content), ("status", code, message), ("slow", seconds), ("oracle",)."""


@dataclass
class ServerState:
    script: deque[Action] = field(default_factory=deque)
    default: Action = ("json",)
    report_cost: bool = True
    always_status: int | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    reported_costs: list[float] = field(default_factory=list)
    usage: list[tuple[int, int]] = field(default_factory=list)
    schema_problems: list[str] = field(default_factory=list)
    oracle: dict[str, tuple[int, int, bool, float | None]] = field(default_factory=dict)
    disconnects: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    disconnected: threading.Event = field(default_factory=threading.Event)


class Handler(ChatHandler):
    server: LocalServer

    def do_POST(self) -> None:  # noqa: N802  (the http.server hook name)
        state = self.server.state
        body = self.read_json()
        if self.path != "/v1/chat/completions":
            self.send_json(404, {"error": {"message": f"no route {self.path}"}})
            return
        prompt = body["messages"][-1]["content"]
        is_preflight = not candidate_lines(prompt)
        with state.lock:
            state.requests.append(body)
            state.headers.append(dict(self.headers))
            action = state.default if is_preflight or not state.script else state.script.popleft()
        if state.always_status is not None:
            self.send_json(state.always_status, {"error": {"message": "scripted failure"}})
            return
        if is_preflight:
            self._reply(body, '{"candidate":"AB","hold":false,"risk":0}', record=False)
            return
        self._check_schema(body, prompt)
        kind = action[0]
        if kind == "status":
            self.send_json(action[1], {"error": {"message": action[2]}})
        elif kind == "slow":
            if self.client_left_within(action[1]):
                with state.lock:
                    state.disconnects += 1
                state.disconnected.set()
                self.close_connection = True
                return
            self._reply(body, json.dumps({"candidate": greedy_id(prompt)}))
        elif kind == "refusal":
            self._reply(body, None, refusal=action[1])
        elif kind == "text":
            self._reply(body, action[1])
        elif kind == "textf":
            self._reply(body, action[1](prompt))
        elif kind == "prose":
            move = {"candidate": greedy_id(prompt), "hold": False, "risk": 0.05}
            self._reply(body, f"The flattest option.\n```json\n{json.dumps(move)}\n```\nDone.")
        elif kind == "oracle":
            x, rotation, hold, risk = state.oracle[prompt]
            (pick,) = [c.id for c in candidate_lines(prompt) if (c.x, c.rotation) == (x, rotation)]
            self._reply(body, json.dumps({"candidate": pick, "hold": hold, "risk": risk}))
        else:
            move = {"candidate": greedy_id(prompt), "hold": False, "risk": 0.1}
            self._reply(body, json.dumps(move))

    def _check_schema(self, body: dict[str, Any], prompt: str) -> None:
        fmt = body.get("response_format")
        if fmt is None:
            return
        enum = fmt["json_schema"]["schema"]["properties"]["candidate"]["enum"]
        listed = sorted(c.id for c in candidate_lines(prompt))
        if enum != listed:
            self.server.state.schema_problems.append(f"{enum} != {listed}")

    def _reply(
        self,
        body: dict[str, Any],
        content: str | None,
        *,
        refusal: str | None = None,
        record: bool = True,
    ) -> None:
        state = self.server.state
        usage = self.send_completion(
            body,
            content,
            refusal=refusal,
            report_cost=state.report_cost,
            request_id=len(state.requests),
        )
        if record:
            with state.lock:
                state.usage.append((usage["prompt_tokens"], usage["completion_tokens"]))
                if "cost" in usage:
                    state.reported_costs.append(usage["cost"])


class LocalServer(ChatServer):
    state: ServerState

    def __init__(self) -> None:
        super().__init__(Handler, ServerState())


@pytest.fixture
def server() -> Iterator[LocalServer]:
    with serving(LocalServer()) as srv:
        yield srv  # type: ignore[misc]


KEY_ENV = "ARCADE_GYM_TEST_LLM_KEY"


def spec_for(server: LocalServer, **changes: Any) -> ModelSpec:
    values: dict[str, Any] = {
        "slug": "scripted",
        "name": "Scripted model",
        "provider": "Test",
        "model": "test/scripted",
        "json_schema": True,
        "base_url": server.base_url,
        "api_key_env": KEY_ENV,
        "extra_headers": {"X-Title": "arcade-gym tests"},
    }
    values.update(changes)
    return ModelSpec.model_validate(values)


def brain_for(spec: ModelSpec, **client_options: Any) -> ChatPolicy:
    options: dict[str, Any] = {"max_retries": 2, "backoff_base_s": 0.005, "backoff_cap_s": 0.02}
    options.update(client_options)
    return ChatPolicy(spec, prompt_for("tetris"), spec.client(**options))


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-local-test")


def ticks(log: Path) -> list[dict[str, Any]]:
    return [event for event in read_log(log).events if event.get("type") == "decision"]


# --------------------------------------------------------------------------------------------
# Whole games through the harness and the real client
# --------------------------------------------------------------------------------------------


def test_a_schema_model_game_records_every_kind_of_reply(
    server: LocalServer, tmp_path: Path
) -> None:
    server.state.script.extend(
        [
            ("json",),  # tick 0
            ("status", 429, "rate limited"),  # tick 1: retried ...
            ("json",),  # ... then answered
            ("text", '{"candidate": "??", "hold": fal'),  # tick 2: malformed
            ("json",),  # tick 3
            ("slow", 5.0),  # tick 4: past the deadline
            ("json",),  # tick 5
            ("text", "I'd rather not play."),  # tick 6: a refusal is the model's answer
            ("json",),  # tick 7
            ("text", '{"candidate": "ZZ"}'),  # tick 8: an id that is not listed
        ]
    )
    brain = brain_for(spec_for(server))
    preflight(brain.spec, brain.client)
    log = tmp_path / "schema.jsonl"
    result = play_tetris(brain, "seed-01", "IQ", log, budget_ms=2000.0, piece_cap=15)

    assert result.end_reason == "piece cap" and result.pieces == 15
    assert verify_log(log).ok
    events = ticks(log)
    status = [e["verdict"]["status"] for e in events]
    assert status[:9] == [
        "valid",
        "valid",
        "invalid",
        "valid",
        "timeout",
        "valid",
        "invalid",
        "valid",
        "invalid",
    ]
    assert (result.invalid, result.timeouts, result.errors) == (3, 1, 0)

    assert events[1]["call"]["answer"]["meta"]["retries"] == 1
    malformed = events[2]["call"]["answer"]
    assert (
        malformed["choice"] == [] and malformed["meta"]["raw"] == '{"candidate": "??", "hold": fal'
    )
    assert "parseError" in malformed["meta"] and malformed["costUsd"] > 0
    assert "unknown candidate id 'ZZ'" in events[8]["call"]["answer"]["meta"]["parseError"]
    assert events[6]["call"]["answer"]["meta"]["raw"] == "I'd rather not play."
    assert server.state.disconnected.wait(3.0) and server.state.disconnects == 1

    # the schema sent always matched the ids in the prompt; the key and headers were sent
    assert not server.state.schema_problems
    assert all(h["Authorization"] == "Bearer sk-local-test" for h in server.state.headers)
    assert all(h["X-Title"] == "arcade-gym tests" for h in server.state.headers)
    game_requests = [
        r for r in server.state.requests if candidate_lines(r["messages"][-1]["content"])
    ]
    assert all(r["messages"][0]["content"] == SYSTEM_PROMPT for r in game_requests)
    assert all(r["temperature"] == 0.0 and r["max_tokens"] == 80 for r in game_requests)

    # reported usage and cost land in the answers, and the game's cost is their sum
    answered = [e["call"]["answer"] for e in events if e["call"]["answer"] is not None]
    tokens = [(a["meta"]["promptTokens"], a["meta"]["completionTokens"]) for a in answered]
    assert tokens == server.state.usage
    assert [a["costUsd"] for a in answered] == server.state.reported_costs
    assert result.cost_usd == pytest.approx(math.fsum(server.state.reported_costs), rel=1e-12)


def test_a_model_without_schema_support_is_read_tolerantly(
    server: LocalServer, tmp_path: Path
) -> None:
    server.state.report_cost = False
    server.state.default = ("prose",)
    server.state.script.extend(
        [
            ("prose",),
            (
                "textf",
                lambda p: (
                    f"I'll go with {{'candidate': '{greedy_id(p)}', 'hold': False}} as it is flat"
                ),
            ),
            ("refusal", "I can't help with that."),
            ("json",),
            ("text", ""),
            ("json",),
        ]
    )
    spec = spec_for(server, json_schema=False, pricing={"in": 1.0, "out": 2.0})
    brain = brain_for(spec)
    log = tmp_path / "prose.jsonl"
    result = play_tetris(brain, "seed-02", "IQ", log, budget_ms=2000.0, piece_cap=15)
    events = ticks(log)
    assert verify_log(log).ok and result.pieces == 15
    assert all("response_format" not in r for r in server.state.requests)
    status = [e["verdict"]["status"] for e in events]
    assert status[:6] == ["valid", "valid", "invalid", "valid", "invalid", "valid"]
    assert "refused" in events[2]["call"]["answer"]["meta"]["parseError"]
    assert events[2]["call"]["answer"]["meta"]["raw"] == "I can't help with that."
    assert events[4]["call"]["answer"]["meta"]["parseError"] == "empty reply"
    assert events[0]["call"]["answer"]["meta"]["parseNotes"] == [
        "JSON object extracted from surrounding text"
    ]
    # no cost reported: priced from the tokens and the registry's price list
    expected = math.fsum((p * 1.0 + c * 2.0) / 1e6 for p, c in server.state.usage)
    assert result.cost_usd == pytest.approx(expected, rel=1e-12)
    assert result.priced_calls == result.decisions


def test_a_blitz_game_plays_and_verifies(server: LocalServer, tmp_path: Path) -> None:
    brain = brain_for(spec_for(server))
    log = tmp_path / "blitz.jsonl"
    result = play_tetris(brain, "seed-03", "Blitz", log, piece_cap=15)
    assert verify_log(log).ok and result.pieces == 15 and result.errors == 0


def test_a_blitz_lock_cancels_the_request_and_closes_the_connection(server: LocalServer) -> None:
    server.state.script.extend([("json",), ("slow", 10.0)])
    brain = brain_for(spec_for(server))
    game = TetrisGame("seed-01")
    warm = call_policy(brain, game.question("Blitz"), DecisionContext(), 5000.0)
    assert warm.status == "ok"  # the connection pool of the harness's loop is ready
    ctx = DecisionContext(budget_ms=None)  # Blitz: no budget, the harness cuts the call off
    t0 = time.monotonic()
    outcome = call_policy(brain, game.question("Blitz"), ctx, 300.0)
    assert outcome.status == "timeout" and time.monotonic() - t0 < 2.0
    assert server.state.disconnected.wait(3.0) and server.state.disconnects == 1


def test_a_refused_key_stops_at_preflight_and_is_fatal_in_a_game(
    server: LocalServer, tmp_path: Path
) -> None:
    server.state.always_status = 401
    brain = brain_for(spec_for(server))
    with pytest.raises(PreflightError, match=f"401.*{KEY_ENV}"):
        preflight(brain.spec, brain.client)
    log = tmp_path / "refused.jsonl"
    with pytest.raises(RunStoppedError, match="401"):
        play_tetris(brain, "seed-01", "IQ", log, budget_ms=2000.0, piece_cap=15)
    assert isinstance(brain.fatal_error, FatalModelError) and is_fatal(brain.fatal_error)
    assert read_log(log).result == {
        "type": "result",
        "endReason": "stopped",
        "reason": read_log(log).result["reason"],  # type: ignore[index]
        "decisions": 0,
    }
    assert len(server.state.requests) == 2  # the pre-flight and the first move; then no traffic
    report = verify_log(log)
    assert report.status == "incomplete" and "stopped at decision 0" in report.message


def test_an_outage_on_our_side_aborts_the_game_and_a_resume_plays_it(
    server: LocalServer, tmp_path: Path
) -> None:
    """A provider answering 429 for longer than the decision budget is not the model's fault: the
    game is aborted, set aside and never ranked; the run says so; a resume plays it again."""
    server.state.default = ("status", 429, "rate limited")
    spec = spec_for(server)
    config = RunConfig(
        brains=("llm:scripted",),
        seeds=("seed-01",),
        seed_set="custom",
        modes=("IQ",),
        official=False,
        budget_ms=1500.0,
        piece_cap=6,
    )
    run = tmp_path / "run"
    outage = run_tetris_bench(config, run, lambda _: brain_for(spec))
    assert outage.aborted and outage.leaderboard is None and not outage.results
    assert list(run.glob("logs/**/*.aborted-1"))
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "aborted" and len(manifest["missing"]) == 1

    server.state.default = ("json",)  # the provider recovers
    resumed = run_tetris_bench(config, run, lambda _: brain_for(spec))
    assert not resumed.aborted and resumed.leaderboard is not None
    assert [r.end_reason for r in resumed.results] == ["piece cap"]
    reports = verify_paths([run / "logs"])
    assert reports and all(r.ok for r in reports)


def test_preflight_names_what_is_wrong(
    server: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV)
    hosted = ModelSpec(
        slug="h", model="vendor/m", base_url="https://llm.invalid/v1", api_key_env=KEY_ENV
    )
    with pytest.raises(PreflightError, match=f"environment variable {KEY_ENV} is not set"):
        preflight(hosted)  # refused before any connection is attempted

    server.state.always_status = 404
    local = spec_for(server)  # a loopback server: no key needed
    with pytest.raises(PreflightError, match="unknown model 'test/scripted'"):
        preflight(local, local.client(max_retries=0))

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    closed = ModelSpec(slug="c", model="m", base_url=f"http://127.0.0.1:{port}/v1", api_key_env="")
    with pytest.raises(PreflightError, match=r"cannot reach.*Is the server running"):
        preflight(closed, closed.client(max_retries=0))

    server.state.always_status = None
    preflight(local, local.client())


def test_make_llm_policy_reads_the_registry_and_overrides_the_base_url(tmp_path: Path) -> None:
    brain = make_llm_policy("ollama-llama3", "tetris", base_url="http://127.0.0.1:8000/v1")
    assert brain.client.base_url == "http://127.0.0.1:8000/v1" and brain.kind == "llm"
    assert brain.identity()["provider"] == "Ollama" and brain.identity()["model"] == "llama3"
    models = tmp_path / "models.toml"
    models.write_text('[[models]]\nslug = "mine"\nmodel = "org/mine"\n')
    assert make_llm_policy("mine", "tetris", models_file=models).spec.model == "org/mine"


# --------------------------------------------------------------------------------------------
# Acceptance: a "model" answering the heuristic's choice reproduces the heuristic's games
# --------------------------------------------------------------------------------------------


class HeuristicTeacher:
    """The LLM brain, plus a side table telling the server, for each prompt it is about to
    receive, what the heuristic would play (the server then finds that placement's id in the
    prompt's candidate lines and answers with it)."""

    def __init__(self, brain: ChatPolicy, table: dict[str, Any]) -> None:
        self.brain = brain
        self.table = table
        self.heuristic = make_brain("heuristic")
        self.slug, self.name, self.kind = brain.slug, brain.name, brain.kind
        self.description, self.adapter_version = brain.description, brain.adapter_version

    def identity(self) -> dict[str, Any]:
        return self.brain.identity()

    async def act_async(self, q: AgentInput, ctx: DecisionContext) -> Any:
        verdict = validate(self.heuristic.act(q), q)
        assert verdict.placement is not None
        prompt = self.brain.messages(q)[-1]["content"]
        self.table[prompt] = (
            verdict.placement.x,
            verdict.placement.rotation,
            verdict.hold,
            verdict.risk,
        )
        return await self.brain.act_async(q, ctx)


SEEDS = ("seed-01", "seed-02", "seed-03")


def test_a_model_answering_the_heuristics_choice_reproduces_its_scores(
    server: LocalServer, tmp_path: Path
) -> None:
    server.state.default = ("oracle",)
    spec = spec_for(server, slug="teacher")
    brain = brain_for(spec)
    preflight(spec, brain.client)
    teacher = HeuristicTeacher(brain, server.state.oracle)

    def factory(slug: str) -> Any:
        return {"heuristic": make_brain("heuristic"), "llm:teacher": teacher}[slug]

    config = RunConfig(
        brains=("heuristic", "llm:teacher"),
        seeds=SEEDS,
        seed_set="test",
        modes=("IQ",),
        official=False,
        piece_cap=60,
    )
    outcome = run_tetris_bench(config, tmp_path / "run", factory)
    assert not outcome.missing and outcome.leaderboard is not None
    by_brain: dict[str, dict[str, Any]] = {"heuristic": {}, "teacher": {}}
    for result in outcome.results:
        by_brain[result.slug][result.seed] = result
    for seed in SEEDS:
        ours, theirs = by_brain["teacher"][seed], by_brain["heuristic"][seed]
        assert (ours.score, ours.lines, ours.pieces, ours.end_reason) == (
            theirs.score,
            theirs.lines,
            theirs.pieces,
            theirs.end_reason,
        )
        assert ours.invalid == ours.errors == ours.timeouts == 0
        played = [(e["played"], e["hold"]) for e in ticks(Path(str(ours.log_path)))]
        assert played == [(e["played"], e["hold"]) for e in ticks(Path(str(theirs.log_path)))]
    assert all(report.ok for report in verify_paths([tmp_path / "run" / "logs"]))

    llm_results = list(by_brain["teacher"].values())
    total = math.fsum(r.cost_usd or 0.0 for r in llm_results)
    assert total == pytest.approx(math.fsum(server.state.reported_costs), rel=1e-12)
    decisions = sum(r.decisions for r in llm_results)
    assert decisions == len(server.state.reported_costs)
    (row,) = [r for r in outcome.leaderboard.rows if r.slug == "teacher"]
    assert row.cost_per_100 == pytest.approx(
        100 * math.fsum(server.state.reported_costs) / decisions
    )
    assert row.cost_per_100 == cost_per_100(llm_results)
    assert row.provider == "Test"


def test_is_fatal_reads_exceptions_and_logged_errors() -> None:
    fatal = FatalModelError("401", reason="auth")
    assert is_fatal(fatal) and is_fatal("FatalModelError: https://x answered 401")
    assert (
        not is_fatal(ValueError("x")) and not is_fatal("ModelCallError: 500") and not is_fatal(None)
    )


def test_the_client_is_reusable_across_event_loops(server: LocalServer) -> None:
    """The pre-flight runs on its own loop, the games on the harness's: one client serves both."""
    spec = spec_for(server)
    client: ChatClient = spec.client()
    preflight(spec, client)
    preflight(spec, client)
    brain = ChatPolicy(spec, prompt_for("tetris"), client)
    q = TetrisGame("seed-04").question()
    outcome = call_policy(brain, q, DecisionContext.with_budget(5000.0), 5000.0)
    assert outcome.status == "ok" and validate(outcome.answer, q).usable


# --------------------------------------------------------------------------------------------
# The example script
# --------------------------------------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "evaluate_llm.py"


def _run_example(args: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), *args])
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    return int(done.value.code or 0)


def test_the_example_helps_and_lists_without_a_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    assert _run_example(["--help"], monkeypatch) == 0
    assert "OPENROUTER_API_KEY" in capsys.readouterr().out
    assert _run_example(["--list"], monkeypatch) == 0
    assert "ollama-llama3" in capsys.readouterr().out
    assert _run_example(["gpt-4o-mini"], monkeypatch) == 2
    assert "OPENROUTER_API_KEY is not set" in capsys.readouterr().err


def test_the_example_evaluates_a_local_server(
    server: LocalServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    models = tmp_path / "models.toml"
    models.write_text('[[models]]\nslug = "local"\nmodel = "test/local"\njson_schema = true\n')
    out = tmp_path / "run"
    args = ["local", "--models-file", str(models), "--base-url", server.base_url]
    args += ["--seeds", "1", "--piece-cap", "10", "--output-dir", str(out)]
    assert _run_example(args, monkeypatch) == 0
    assert "IQ    seed-01: score" in capsys.readouterr().out
    assert all(report.ok for report in verify_paths([out / "logs"]))


def test_a_cached_rerun_makes_no_requests_and_writes_byte_identical_logs(
    server: LocalServer, tmp_path: Path
) -> None:
    """`--cache DIR`: the same run again costs nothing and reproduces the logs byte for byte."""
    models = tmp_path / "models.toml"
    models.write_text(
        '[[models]]\nslug = "scripted"\nprovider = "Test"\nmodel = "test/scripted"\n'
        f'json_schema = true\napi_key_env = "{KEY_ENV}"\nbase_url = "{server.base_url}"\n'
    )
    server.state.default = ("json",)
    config = RunConfig(
        brains=("llm:scripted",),
        seeds=("seed-01",),
        seed_set="custom",
        modes=("IQ",),
        official=False,
        piece_cap=8,
    )
    options = SpecOptions(models_file=str(models), cache_dir=str(tmp_path / "cache"))
    first = run_tetris_bench(config, tmp_path / "a", spec_pool("tetris", options))
    asked = len(server.state.requests)
    assert first.leaderboard is not None and asked > 0
    second = run_tetris_bench(
        config, tmp_path / "b", spec_pool("tetris", options), say=lambda _: None
    )
    assert second.leaderboard is not None
    assert len(server.state.requests) == asked  # pre-flight and every move came from the cache
    (log_a,) = (tmp_path / "a" / "logs").rglob("*.jsonl")
    (log_b,) = (tmp_path / "b" / "logs").rglob("*.jsonl")
    assert log_a.read_bytes() == log_b.read_bytes()
    usages = [
        event["call"]["usage"]
        for event in map(json.loads, log_b.read_text().splitlines())
        if isinstance(event.get("call"), dict) and event["call"].get("usage")
    ]
    assert usages and all(u["cache"] == "used" and len(u["requestHash"]) == 64 for u in usages)
