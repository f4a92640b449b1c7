"""The NARCADE and tic-tac-toe LLM lanes: prompts, reply parsing, and decisions against a real
local OpenAI-compatible server (a thread on 127.0.0.1; nothing here touches the network)."""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from arcade_gym.minesweeper import contract as mine_contract
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.snake import contract as snake_contract
from arcade_gym.snake.game import SnakeGame
from arcade_gym.tictactoe.contract import (
    EngineReply,
    TicTacToeAnswer,
    TicTacToeQuestion,
    check_answer,
)
from evaluation.core.policy_call import call_policy
from policies.base import DecisionContext
from policies.llm import (
    FatalModelError,
    ModelSpec,
    PreflightError,
    RegistryError,
    is_fatal,
    make_llm_policy,
    preflight,
)
from policies.llm.chat_policy import ChatPolicy
from policies.llm.lanes import prompt_for
from policies.llm.prompts.offered_actions import (
    INVALID_ACTION_PREFIX,
    OfferedActionsPrompt,
    ReplyParseError,
    build_messages,
    parse_action,
    render_question,
    response_format,
    state_of,
)
from policies.minesweeper import HeuristicMinesweeper
from policies.minesweeper.prompt import SYSTEM_PROMPT as MINESWEEPER_PROMPT
from policies.snake import make_policy as make_snake_policy
from policies.snake.prompt import SYSTEM_PROMPT as SNAKE_PROMPT
from policies.tetris.controls_prompt import SYSTEM_PROMPT as TETRIS_CONTROLS_PROMPT
from policies.tictactoe.prompt import SYSTEM_PROMPT as TTT_SYSTEM_PROMPT
from policies.tictactoe.prompt import build_messages as ttt_messages
from policies.tictactoe.prompt import parse_move_reply
from tests.policies.chat_server import ChatHandler, ChatServer, serving

tetris_contract = pytest.importorskip("arcade_gym.tetris.primitive_contract")
tetris_game = pytest.importorskip("arcade_gym.tetris.primitive_game")

SYSTEM_PROMPTS = {
    "snake": SNAKE_PROMPT,
    "minesweeper": MINESWEEPER_PROMPT,
    "tetris": TETRIS_CONTROLS_PROMPT,
}
"""A NARCADE game's fixed system prompt, from its policies folder."""

LANES = {"snake": "snake", "minesweeper": "minesweeper", "tetris": "tetris-controls"}
"""A NARCADE game -> the policy game whose LLM lane plays it (`prompt_for`)."""

# --------------------------------------------------------------------------------------------
# Questions
# --------------------------------------------------------------------------------------------


def snake_questions(seed: str, n: int) -> list[snake_contract.SnakeQuestion]:
    """The first `n` questions of a game played by the heuristic snake."""
    game, policy = SnakeGame(seed), make_snake_policy("heuristic")
    out: list[snake_contract.SnakeQuestion] = []
    while len(out) < n and not game.over:
        q = game.question()
        out.append(q)
        game.step(policy.act(q, DecisionContext()).action)
    return out


def mine_question(seed: str) -> mine_contract.MinesweeperQuestion:
    return MinesweeperGame(seed).question()


def tetris_question(seed: str, controls: int = 0) -> Any:
    game = tetris_game.TetrisControlGame(seed)
    for k in range(controls):
        game.step(("left", "rotate_cw", "soft_drop")[k % 3])
    return game.question()


def all_questions() -> list[tuple[str, Any]]:
    return [
        *(("snake", q) for q in snake_questions("seed-01", 6)),
        ("minesweeper", mine_question("seed-01")),
        ("minesweeper", mine_question("seed-02")),
        ("tetris", tetris_question("seed-01")),
        ("tetris", tetris_question("seed-02", 5)),
    ]


QUESTIONS = all_questions()
TYPES: dict[str, type[BaseModel]] = {
    "snake": snake_contract.SnakeQuestion,
    "minesweeper": mine_contract.MinesweeperQuestion,
    "tetris": tetris_contract.TetrisControlQuestion,
}

# --------------------------------------------------------------------------------------------
# The prompts
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "question"), QUESTIONS)
def test_the_prompt_is_byte_identical_for_the_same_question(game: str, question: Any) -> None:
    copy = TYPES[game].model_validate_json(question.to_json())
    prompt = prompt_for(LANES[game])
    first, second = prompt.messages(question), prompt.messages(copy)
    assert [m["content"].encode() for m in first] == [m["content"].encode() for m in second]
    assert first[0] == {"role": "system", "content": SYSTEM_PROMPTS[game]}
    assert prompt.messages(question.to_dict()) == first
    assert build_messages(question, SYSTEM_PROMPTS[game]) == first


@pytest.mark.parametrize(("game", "question"), QUESTIONS)
def test_the_user_message_is_the_state_then_the_actions_in_order(game: str, question: Any) -> None:
    lines = render_question(question).splitlines()
    assert len(lines) == 3 and lines[0].startswith("State: {") and " " not in lines[0][7:20]
    state = json.loads(lines[0].removeprefix("State: "))
    assert json.loads(lines[1].removeprefix("Actions: ")) == question.actions
    assert lines[2] == 'Reply with JSON only: {"action":"<one of the actions>"}'
    wire = question.to_dict()
    hidden = {"actions", "game", "rulesVersion", "stateHash"} | (
        {"grid"} if game == "minesweeper" else set()
    )
    assert state == {k: v for k, v in wire.items() if k not in hidden}
    assert list(state) == [k for k in wire if k not in hidden]  # the contract's order
    assert state == state_of(question)


def test_each_game_has_its_own_fixed_system_prompt() -> None:
    assert len(set(SYSTEM_PROMPTS.values())) == 3
    for game, prompt in SYSTEM_PROMPTS.items():
        assert prompt.endswith('{"action": "<one of the offered actions>"}')
        assert "order" in prompt and "means nothing" in prompt, game
    assert "heading" in SYSTEM_PROMPTS["snake"] and "tickMs" in SYSTEM_PROMPTS["snake"]
    assert (
        '"reveal r c"' in SYSTEM_PROMPTS["minesweeper"] and "flag" in SYSTEM_PROMPTS["minesweeper"]
    )
    for control in tetris_contract.CONTROLS:
        assert control in SYSTEM_PROMPTS["tetris"]


@pytest.mark.parametrize(("game", "question"), QUESTIONS)
def test_the_schema_enum_is_exactly_the_offered_actions(game: str, question: Any) -> None:
    fmt = response_format(question.actions)
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["properties"]["action"]["enum"] == question.actions
    assert schema["required"] == ["action"] and schema["additionalProperties"] is False


def test_the_ttt_prompt_is_the_seeds_position_text() -> None:
    q = TicTacToeQuestion(
        size=5, k=4, to_move="O", rows=("X....", ".X...", "..O..", ".....", ".....")
    )
    messages = ttt_messages(q)
    assert messages[0] == {"role": "system", "content": TTT_SYSTEM_PROMPT}
    assert messages[1]["content"] == (
        "5\nO\nX....\n.X...\n..O..\n.....\n.....\n"
        "\n4 in a row wins. Reply with <move>row col</move>."
    )
    copy = TicTacToeQuestion.model_validate(q.model_dump())
    assert ttt_messages(copy) == messages
    for sizes in ("3x3 needs 3 in a row", "5x5 needs 4 in a row", "10x10 needs 5 in a row"):
        assert sizes in TTT_SYSTEM_PROMPT
    assert "<move>0 1</move>" in TTT_SYSTEM_PROMPT


# --------------------------------------------------------------------------------------------
# Reading NARCADE replies
# --------------------------------------------------------------------------------------------

SNAKE = ["left", "up", "down", "right"]
MINES = ["reveal 3 4", "flag 3 4", "reveal 10 2", "flag 0 0"]
CONTROLS = ["soft_drop", "left", "rotate_cw", "hard_drop", "right", "rotate_ccw"]


@pytest.mark.parametrize(
    ("text", "actions", "expected"),
    [
        ('{"action":"up"}', SNAKE, "up"),
        ('  {"action": "Down"}\n', SNAKE, "down"),
        ('Going for the food.\n```json\n{"action": "left"}\n```\nDone.', SNAKE, "left"),
        ("{'action': 'right',}", SNAKE, "right"),
        ('I first thought {"action": "up"} but {"action": "down"}', SNAKE, "down"),
        ('{"direction": "LEFT"}', SNAKE, "left"),
        ("up", SNAKE, "up"),
        ("**Right.**", SNAKE, "right"),
        ('"down"', SNAKE, "down"),
        ("The food is above the head.\nAction: up", SNAKE, "up"),
        ('{"action": "reveal(10, 2)"}', MINES, "reveal 10 2"),
        ("Reveal 3, 4", MINES, "reveal 3 4"),
        ('{"move": "flag 0 0"}', MINES, "flag 0 0"),
        ('{"action": "rotate-cw"}', CONTROLS, "rotate_cw"),
        ("Hard drop", CONTROLS, "hard_drop"),
        ('{"control": "SOFT_DROP"}', CONTROLS, "soft_drop"),
    ],
)
def test_tolerant_parsing_reads_what_the_model_meant(
    text: str, actions: list[str], expected: str
) -> None:
    assert parse_action(text, actions).action == expected


@pytest.mark.parametrize(
    ("text", "refusal", "actions", "error"),
    [
        ("", None, SNAKE, "empty reply"),
        (None, None, SNAKE, "empty reply"),
        ("", "I can't help with that.", SNAKE, "refused"),
        ('{"action": "sideways"}', None, SNAKE, "unknown action 'sideways'"),
        ('{"action": 3}', None, SNAKE, "must be a string"),
        ('{"reason": "food"}', None, SNAKE, "no action field"),
        ("I would go up, then left.", None, SNAKE, "no JSON object and no bare action"),
        ('{"action": "up"', None, SNAKE, "no JSON object"),
        ('{"action": "reveal 9 9"}', None, MINES, "unknown action"),
        ('{"action": "reveal 3 4 because it is safe"}', None, MINES, "unknown action"),
        ('{"action": "rotate"}', None, CONTROLS, "unknown action"),
    ],
)
def test_unreadable_replies_are_parse_errors(
    text: str | None, refusal: str | None, actions: list[str], error: str
) -> None:
    with pytest.raises(ReplyParseError, match=error):
        parse_action(text, actions, refusal=refusal)


@given(st.text(max_size=200), st.sampled_from([SNAKE, MINES, CONTROLS]))
@settings(max_examples=300, deadline=None)
def test_the_parser_never_crashes_and_only_returns_offered_actions(
    text: str, actions: list[str]
) -> None:
    try:
        reply = parse_action(text, actions)
    except ReplyParseError:
        return
    assert reply.action in actions


# --------------------------------------------------------------------------------------------
# Reading tic-tac-toe replies
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("<move>1 2</move>", (1, 2)),
        ("<MOVE> 0 0 </MOVE>", (0, 0)),
        ("Center is taken, so <move>0 0</move>. Wait, block: <move>2 1</move>", (2, 1)),
        ("<move>(1, 2)</move>", (1, 2)),
        ("<move>row 3, col 4</move>", (3, 4)),
        ("<move>1 1</move> ... <move>row col</move>", (1, 1)),
        ("1 2", (1, 2)),
        ("I block the column.\nAnswer: 2 0", (2, 0)),
        ("<move>4 4", (4, 4)),
        ("<move>-1 7</move>", (-1, 7)),
    ],
)
def test_ttt_parsing_takes_the_last_readable_tag(text: str, move: tuple[int, int]) -> None:
    reply = parse_move_reply(text)
    assert (reply.row, reply.col) == move


@pytest.mark.parametrize(
    ("text", "refusal", "error"),
    [
        ("", None, "empty reply"),
        ("", "No.", "refused"),
        ("The centre square.", None, r"no <move>row col</move>"),
        ("<move>centre</move>", None, "no row and column in the <move> tag"),
        ("1 2 3", None, r"no <move>"),
        ("I play 1 2 because it blocks", None, r"no <move>"),
    ],
)
def test_ttt_unreadable_replies_are_parse_errors(
    text: str, refusal: str | None, error: str
) -> None:
    with pytest.raises(ReplyParseError, match=error):
        parse_move_reply(text, refusal=refusal)


@given(st.text(max_size=120))
@settings(max_examples=300, deadline=None)
def test_the_ttt_parser_never_crashes(text: str) -> None:
    try:
        reply = parse_move_reply(text)
    except ReplyParseError:
        return
    assert isinstance(reply.row, int) and isinstance(reply.col, int)


# --------------------------------------------------------------------------------------------
# A real OpenAI-compatible server on 127.0.0.1
# --------------------------------------------------------------------------------------------

Format = Callable[[str], str]
"""How the scripted model words its chosen action (or move text) as a reply."""


def as_json(action: str) -> str:
    return json.dumps({"action": action})


def as_prose(action: str) -> str:
    return f"Thinking it over.\n```json\n{json.dumps({'action': action})}\n```\nGood luck!"


def as_bare(action: str) -> str:
    return action.upper()


Step = tuple[Any, ...]
"""A scripted reply: ("format", Format), ("text", content), ("refusal", text),
("status", code), ("slow", seconds)."""


@dataclass
class ServerState:
    oracle: dict[str, str] = field(default_factory=dict)  # user prompt -> the action to play
    script: deque[Step] = field(default_factory=deque)
    default: Step = ("format", as_json)
    always_status: int | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    usage: list[tuple[int, int]] = field(default_factory=list)
    costs: list[float] = field(default_factory=list)
    schema_problems: list[str] = field(default_factory=list)
    disconnects: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    disconnected: threading.Event = field(default_factory=threading.Event)


def offered(prompt: str) -> list[str] | None:
    match = re.search(r"^Actions: (\[.*\])$", prompt, re.MULTILINE)
    return None if match is None else json.loads(match.group(1))


class Handler(ChatHandler):
    server: LocalServer

    def do_POST(self) -> None:  # noqa: N802  (the http.server hook name)
        state = self.server.state
        body = self.read_json()
        prompt = body["messages"][-1]["content"]
        is_preflight = "Connection test" in prompt
        with state.lock:
            state.requests.append(body)
            step = state.default if is_preflight or not state.script else state.script.popleft()
        if state.always_status is not None:
            self.send_json(state.always_status, {"error": {"message": "scripted failure"}})
            return
        if is_preflight:
            self._reply(body, '{"candidate":"AB","hold":false,"risk":0}', record=False)
            return
        self._check_schema(body, prompt)
        kind = step[0]
        if kind == "status":
            self.send_json(step[1], {"error": {"message": "scripted status"}})
        elif kind == "slow":
            if self.client_left_within(step[1]):
                with state.lock:
                    state.disconnects += 1
                state.disconnected.set()
                self.close_connection = True
                return
            self._reply(body, as_json(state.oracle[prompt]))
        elif kind == "refusal":
            self._reply(body, None, refusal=step[1])
        elif kind == "text":
            self._reply(body, step[1])
        else:
            self._reply(body, step[1](state.oracle[prompt]))

    def _check_schema(self, body: dict[str, Any], prompt: str) -> None:
        fmt = body.get("response_format")
        if fmt is None:
            return
        enum = fmt["json_schema"]["schema"]["properties"]["action"]["enum"]
        if enum != offered(prompt):
            self.server.state.schema_problems.append(f"{enum} != {offered(prompt)}")

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
            report_cost=True,
            request_id=len(state.requests),
        )
        if record:
            with state.lock:
                state.usage.append((usage["prompt_tokens"], usage["completion_tokens"]))
                if "cost" in usage:
                    state.costs.append(usage["cost"])


class LocalServer(ChatServer):
    state: ServerState

    def __init__(self) -> None:
        super().__init__(Handler, ServerState())


@pytest.fixture
def server() -> Iterator[LocalServer]:
    with serving(LocalServer()) as srv:
        yield srv  # type: ignore[misc]


KEY_ENV = "ARCADE_GYM_TEST_LANES_KEY"


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-local-test")


def spec_for(server: LocalServer, **changes: Any) -> ModelSpec:
    values: dict[str, Any] = {
        "slug": "scripted",
        "name": "Scripted model",
        "provider": "Test",
        "model": "test/scripted",
        "json_schema": True,
        "base_url": server.base_url,
        "api_key_env": KEY_ENV,
    }
    values.update(changes)
    return ModelSpec.model_validate(values)


def fast_client_options() -> dict[str, Any]:
    return {"max_retries": 2, "backoff_base_s": 0.005, "backoff_cap_s": 0.02}


def narcade_policy(spec: ModelSpec, game: str) -> ChatPolicy:
    return ChatPolicy(spec, prompt_for(LANES[game]), spec.client(**fast_client_options()))


def ask(policy: Any, question: Any, timeout_ms: float = 5000.0) -> Any:
    outcome = call_policy(policy, question, DecisionContext.with_budget(timeout_ms), timeout_ms)
    assert outcome.status == "ok", outcome.error
    return outcome.answer


# --------------------------------------------------------------------------------------------
# NARCADE decisions through the real client
# --------------------------------------------------------------------------------------------


def test_a_schema_model_plays_snake_validly(server: LocalServer) -> None:
    policy = narcade_policy(spec_for(server), "snake")
    preflight(policy.spec, policy.client)
    heuristic = make_snake_policy("heuristic")
    server.state.script.extend([("format", as_json), ("format", as_prose), ("format", as_bare)])
    game = SnakeGame("seed-07")
    played = 0
    while played < 12 and not game.over:
        q = game.question()
        server.state.oracle[policy.messages(q)[-1]["content"]] = heuristic.act(q).action
        answer = ask(policy, q)
        assert isinstance(answer, snake_contract.SnakeAnswer)
        verdict = snake_contract.validate(answer, q)
        assert verdict.usable and verdict.action == heuristic.act(q).action
        call = policy.last_call
        assert call is not None and call.action == answer.action and call.parse_error is None
        assert (call.state_hash, call.decision) == (q.state_hash, q.decision)
        game.step(verdict.action)
        played += 1
    assert played == 12 and game.score >= 1
    assert not server.state.schema_problems
    game_requests = [r for r in server.state.requests if "Connection test" not in str(r)]
    assert len(game_requests) == 12
    assert all(r["messages"][0]["content"] == SYSTEM_PROMPTS["snake"] for r in game_requests)
    assert all(
        r["response_format"]["json_schema"]["name"] == "narcade_action" for r in game_requests
    )
    usage = policy.usage
    assert (usage["calls"], usage["replies"], usage["unreadable"], usage["failed"]) == (
        12,
        12,
        0,
        0,
    )
    assert usage["promptTokens"] == sum(p for p, _ in server.state.usage)
    assert usage["completionTokens"] == sum(c for _, c in server.state.usage)
    assert usage["costUsd"] == pytest.approx(math.fsum(server.state.costs), rel=1e-12)
    assert usage["pricedCalls"] == 12
    assert policy.last_call is not None
    assert policy.last_call.to_dict()["costUsd"] == server.state.costs[-1]


def test_a_model_without_schema_support_plays_minesweeper_validly(server: LocalServer) -> None:
    policy = narcade_policy(spec_for(server, json_schema=False), "minesweeper")
    solver = HeuristicMinesweeper()
    server.state.default = ("format", as_prose)
    server.state.script.extend([("format", lambda a: a.replace(" ", "(", 1) + ")")] * 2)
    game = MinesweeperGame("seed-03")
    decisions = 0
    while decisions < 6 and not game.over:
        q = game.question()
        wanted = mine_contract.validate(solver.act(q), q).action
        assert wanted is not None
        server.state.oracle[policy.messages(q)[-1]["content"]] = wanted
        answer = ask(policy, q)
        assert isinstance(answer, mine_contract.MinesweeperAnswer)
        verdict = mine_contract.validate(answer, q)
        assert verdict.usable and verdict.action == wanted
        game.play(verdict.action)
        decisions += 1
    assert decisions >= 3
    assert all("response_format" not in r for r in server.state.requests)
    assert "grid" not in server.state.requests[0]["messages"][-1]["content"]
    assert policy.usage["replies"] == decisions


def test_a_model_plays_tetris_controls_validly(server: LocalServer) -> None:
    policy = narcade_policy(spec_for(server), "tetris")
    game = tetris_game.TetrisControlGame("seed-04")
    for k in range(8):
        q = game.question()
        server.state.oracle[policy.messages(q)[-1]["content"]] = q.actions[k % len(q.actions)]
        answer = ask(policy, q)
        assert isinstance(answer, tetris_contract.TetrisControlAnswer)
        verdict = tetris_contract.validate(answer, q)
        assert verdict.usable and verdict.action == q.actions[k % len(q.actions)]
        game.step(verdict.action)
    assert not server.state.schema_problems


def test_unreadable_replies_become_invalid_answers_with_the_raw_text_kept(
    server: LocalServer,
) -> None:
    policy = narcade_policy(spec_for(server, json_schema=False), "snake")
    replies = [
        ("text", '{"action": "sideways"}'),
        ("text", '{"action": "up", "why": '),
        ("text", "I'd rather not move."),
        ("text", ""),
        ("refusal", "I can't help with that."),
        ("format", as_json),
    ]
    server.state.script.extend(replies)
    q = snake_questions("seed-02", 1)[0]
    server.state.oracle[policy.messages(q)[-1]["content"]] = "down"
    statuses = []
    for step in replies:
        answer = ask(policy, q)
        verdict = snake_contract.validate(answer, q)
        statuses.append(verdict.status)
        call = policy.last_call
        assert call is not None
        if verdict.usable:
            continue
        raw = step[1]
        assert call.raw == raw and call.action is None and call.parse_error
        assert answer.action == INVALID_ACTION_PREFIX + raw
        assert "unknown action" in (verdict.reason or "")
        assert call.cost_usd is not None and call.prompt_tokens  # the tick still cost money
    assert statuses == ["invalid"] * 5 + ["valid"]
    assert policy.usage["unreadable"] == 5 and policy.usage["replies"] == 6
    assert policy.last_call is not None and policy.last_call.action == "down"


@pytest.mark.parametrize("game", ["minesweeper", "tetris"])
def test_invalid_answers_fail_every_games_validator(server: LocalServer, game: str) -> None:
    policy = narcade_policy(spec_for(server), game)
    q = mine_question("seed-05") if game == "minesweeper" else tetris_question("seed-05")
    action = q.actions[0]
    server.state.script.extend([("text", action), ("text", f"not {action}")])
    validate = mine_contract.validate if game == "minesweeper" else tetris_contract.validate
    assert validate(ask(policy, q), q).usable  # a bare action is read
    verdict = validate(ask(policy, q), q)
    assert not verdict.usable and policy.last_call is not None
    assert policy.last_call.raw == f"not {action}"


def test_failures_timeouts_and_the_deadline(server: LocalServer) -> None:
    policy = narcade_policy(spec_for(server), "snake")
    q = snake_questions("seed-03", 1)[0]
    server.state.oracle[policy.messages(q)[-1]["content"]] = "up"
    server.state.script.extend(
        [("status", 429), ("format", as_json), ("status", 500), ("status", 500), ("status", 500)]
    )
    assert ask(policy, q).action == "up"
    assert policy.last_call is not None and policy.last_call.retries == 1
    outcome = call_policy(policy, q, DecisionContext.with_budget(5000.0), 5000.0)
    assert outcome.status == "service" and "retries exhausted" in str(outcome.error)
    assert policy.last_call is not None and "500" in str(policy.last_call.error)

    server.state.script.append(("slow", 10.0))
    t0 = time.monotonic()
    outcome = call_policy(policy, q, DecisionContext.with_budget(300.0), 300.0)
    assert outcome.status == "timeout" and time.monotonic() - t0 < 2.0
    assert policy.last_call is None  # nothing is known about the abandoned call
    assert server.state.disconnected.wait(3.0) and server.state.disconnects == 1
    usage = policy.usage
    assert (usage["calls"], usage["replies"], usage["failed"], usage["cancelled"]) == (3, 1, 1, 1)
    assert policy.fatal_error is None


def test_a_refused_key_is_fatal_and_stops_traffic(server: LocalServer) -> None:
    server.state.always_status = 401
    policy = narcade_policy(spec_for(server), "minesweeper")
    with pytest.raises(PreflightError, match=f"401.*{KEY_ENV}"):
        preflight(policy.spec, policy.client)
    q = mine_question("seed-01")
    for _ in range(3):
        outcome = call_policy(policy, q, DecisionContext.with_budget(2000.0), 2000.0)
        assert outcome.status == "stop" and is_fatal(outcome.error)
    assert isinstance(policy.fatal_error, FatalModelError) and policy.fatal_error.reason == "auth"
    assert len(server.state.requests) == 2  # the pre-flight and the first decision only


# --------------------------------------------------------------------------------------------
# The tic-tac-toe engine
# --------------------------------------------------------------------------------------------

POSITIONS = [
    TicTacToeQuestion(size=3, k=3, to_move="X", rows=("...", "...", "...")),
    TicTacToeQuestion(size=3, k=3, to_move="O", rows=("X..", ".X.", "...")),
    TicTacToeQuestion(size=5, k=4, to_move="X", rows=("XO...", ".X...", "..O..", ".....", ".....")),
    TicTacToeQuestion(size=10, k=5, to_move="O", rows=("X.........", *("." * 10,) * 9)),
]


def first_empty(q: TicTacToeQuestion) -> tuple[int, int]:
    return next((r, c) for r, row in enumerate(q.rows) for c, v in enumerate(row) if v == ".")


def test_the_ttt_engine_answers_positions_legally(server: LocalServer) -> None:
    spec = spec_for(server, json_schema=True)
    engine = ChatPolicy(spec, prompt_for("tictactoe"), spec.client(**fast_client_options()))
    preflight(engine.spec, engine.client)
    wordings: list[Format] = [
        lambda m: f"<move>{m}</move>",
        lambda m: f"Let me see. <move>0 0</move> is taken... so <move>{m}</move>",
        lambda m: m,
        lambda m: f"<move>({m.replace(' ', ', ')})</move>",
    ]
    for q, wording in zip(POSITIONS, wordings, strict=True):
        r, c = first_empty(q)
        server.state.oracle[engine.messages(q)[-1]["content"]] = f"{r} {c}"
        server.state.script.append(("format", wording))
        answer = ask(engine, q)
        assert answer == TicTacToeAnswer(row=r, col=c)
        check = check_answer(q, answer)
        assert check.legal and check.move == (r, c)
        assert engine.last_call is not None and engine.last_call.action == f"{r} {c}"
    game_requests = [r for r in server.state.requests if "Connection test" not in str(r)]
    assert all("response_format" not in r for r in game_requests)  # tags, not JSON
    assert engine.usage["replies"] == len(POSITIONS) and engine.kind == "llm"


def test_ttt_garbage_and_occupied_squares_are_illegal_moves_with_reasons(
    server: LocalServer,
) -> None:
    spec = spec_for(server)
    engine = ChatPolicy(spec, prompt_for("tictactoe"), spec.client(**fast_client_options()))
    q = POSITIONS[1]
    server.state.script.extend(
        [
            ("text", "I'd take the corner, obviously."),
            ("text", "<move>1 1</move>"),
            ("text", "<move>3 0</move>"),
            ("refusal", "I won't play."),
        ]
    )
    garbage = ask(engine, q)
    assert isinstance(garbage, EngineReply) and garbage.output == "I'd take the corner, obviously."
    check = check_answer(q, garbage)
    assert not check.legal
    assert check.reason == "engine error: unreadable reply: no <move>row col</move> in the reply"
    assert engine.last_call is not None and engine.last_call.raw == garbage.output

    assert check_answer(q, ask(engine, q)).reason == "occupied square 1 1"
    assert check_answer(q, ask(engine, q)).reason == "off-board square 3 0"
    refused = check_answer(q, ask(engine, q))
    assert refused.reason is not None and "refused" in refused.reason
    assert engine.usage["unreadable"] == 2


def test_a_refused_key_is_fatal_for_the_ttt_engine(server: LocalServer) -> None:
    server.state.always_status = 403
    spec = spec_for(server)
    engine = ChatPolicy(spec, prompt_for("tictactoe"), spec.client(**fast_client_options()))
    for _ in range(2):
        outcome = call_policy(engine, POSITIONS[0], DecisionContext.with_budget(2000.0), 2000.0)
        assert outcome.status == "stop" and is_fatal(outcome.error)
    assert isinstance(engine.fatal_error, FatalModelError)
    assert len(server.state.requests) == 1


# --------------------------------------------------------------------------------------------
# Factories
# --------------------------------------------------------------------------------------------


def test_the_factories_read_the_registry_and_override_the_base_url(tmp_path: Path) -> None:
    models = tmp_path / "models.toml"
    models.write_text('[[models]]\nslug = "mine"\nmodel = "org/mine"\njson_schema = true\n')
    local = "http://127.0.0.1:8000/v1"
    for game, lane in LANES.items():
        policy = make_llm_policy("mine", lane, models_file=models, base_url=local)
        assert isinstance(policy.prompt, OfferedActionsPrompt)
        assert policy.prompt.game == game and policy.spec.model == "org/mine"
        assert policy.client.base_url == local and policy.kind == "llm"
        assert policy.identity()["adapterVersion"] == "llm-narcade/1"
    engine = make_llm_policy("mine", "tictactoe", models_file=models)
    assert engine.spec.slug == "mine" and engine.identity()["adapterVersion"] == "llm-ttt/1"
    assert make_llm_policy("ollama-llama3", "tictactoe").identity()["provider"] == "Ollama"
    with pytest.raises(ValueError, match="LLMs do not play 'no-such-game'"):
        make_llm_policy("mine", "no-such-game", models_file=models)
    with pytest.raises(RegistryError, match="unknown model 'nope'"):
        make_llm_policy("nope", "snake", models_file=models)


def test_schema_drops_the_enum_when_the_offer_is_too_large_for_providers() -> None:
    from policies.llm.prompts.offered_actions import MAX_SCHEMA_ENUM, reply_schema

    small = reply_schema(["up", "down"])
    assert small["properties"]["action"]["enum"] == ["up", "down"]
    large = reply_schema([f"reveal {i} 0" for i in range(MAX_SCHEMA_ENUM + 1)])
    assert large["properties"]["action"] == {"type": "string"}
