"""The per-repeat request seed of a chat policy (`--repeats`, `policies/llm/chat_policy.py`): which
seed each attempt of each repeat sends, and when none is sent."""

from __future__ import annotations

from policies.llm.chat_policy import ChatPolicy, request_seed
from policies.llm.lanes import prompt_for
from policies.llm.registry import ModelSpec


def _policy(**more: object) -> ChatPolicy:
    values = {"slug": "m", "model": "test/m", "api_key_env": "", **more}
    values.setdefault("base_url", "http://127.0.0.1:9/v1")
    spec = ModelSpec.model_validate(values)
    return ChatPolicy(spec, prompt_for("sudoku"), client=object())


def test_the_seed_is_the_repeat_plus_a_thousand_per_retry() -> None:
    assert [request_seed(1), request_seed(2), request_seed(1, 2), request_seed(7, 3)] == [
        1,
        2,
        1001,
        2007,
    ]
    policy = _policy()
    assert policy.request_seed(1) is None  # a run of one repeat sends none
    policy.set_repeat(2)
    assert (policy.request_seed(1), policy.request_seed(2)) == (2, 1002)
    policy.set_repeat(None)
    assert policy.request_seed(1) is None


def test_no_seed_for_a_server_that_takes_none_or_an_agent_cli() -> None:
    refuses = _policy(seed=False)
    refuses.set_repeat(1)
    assert refuses.request_seed(1) is None
    assert refuses.run_identity()["requestSeed"] is False
    assert "requestSeed" not in _policy().run_identity()  # identities stay as they were
    tool = _policy(command="my-agent --json")
    tool.set_repeat(1)
    assert tool.request_seed(1) is None


def test_a_new_repeat_starts_at_attempt_one() -> None:
    policy = _policy()
    body = {"model": "test/m", "messages": [{"role": "user", "content": "same"}]}
    assert [policy._next_attempt(body), policy._next_attempt(body)] == [1, 2]
    policy.set_repeat(2)
    assert policy._next_attempt(body) == 1
    policy.set_repeat(None)  # a run of one repeat counts as it always did
    assert policy._next_attempt(body) == 2
