"""Each benchmark sends its own completion budget (`policies/llm/budgets.py`): a registry entry's
`limits` for the lane's game or benchmark, else the larger of its `max_tokens` and the
benchmark's reply budget, plus room to reason for a reasoning model. The Sudoku request a server
receives carries Sudoku's budget, not the entry's one number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaluation import cli
from policies.llm import RegistryError, make_llm_policy, prompt_for
from policies.llm.budgets import REASONING_ALLOWANCE, Limit, lane_budget, reasoning_allowance
from policies.llm.registry import ModelSpec, load_registry, parse_registry
from tests.policies.recording_server import models_file, recording

REPLY_TOKENS = {
    "tetris": 80,
    "tetris-primitive": 80,
    "snake": 80,
    "minesweeper": 80,
    "tictactoe": 80,
    "sudoku": 400,
    "chess": 300,
}
"""The reply budget of each lane's prompt: the benchmark's default."""


def budget(**spec: Any) -> tuple[int, str]:
    settings: dict[str, Any] = {
        "max_tokens": 80,
        "token_param": "max_tokens",
        "limits": {},
        "keys": ("snake", "narcade"),
        "reply_tokens": 80,
        "reasoning": None,
        "reasoning_effort": None,
    }
    settings.update(spec)
    return lane_budget(**settings)


def test_a_limit_for_the_game_wins_over_one_for_its_benchmark() -> None:
    limits = {"narcade": Limit(max_tokens=120), "snake": Limit(max_tokens=60)}
    assert budget(limits=limits) == (60, "max_tokens")
    assert budget(limits=limits, keys=("minesweeper", "narcade")) == (120, "max_tokens")
    table = {"narcade": Limit(max_tokens=900, token_param="max_completion_tokens")}
    assert budget(limits=table) == (900, "max_completion_tokens")
    assert budget(limits={"narcade": Limit(max_tokens=10)}, max_tokens=500) == (10, "max_tokens")


def test_without_a_limit_the_larger_of_the_entry_and_the_benchmark_budget() -> None:
    assert budget(max_tokens=80, reply_tokens=400) == (400, "max_tokens")
    assert budget(max_tokens=2000, reply_tokens=400) == (2000, "max_tokens")


def test_a_reasoning_model_gets_room_to_reason_above_the_answer() -> None:
    low = {"effort": "low", "exclude": True}
    assert budget(reasoning=low, reply_tokens=400) == (
        400 + REASONING_ALLOWANCE["low"],
        "max_tokens",
    )
    assert budget(reasoning={"max_tokens": 1000}, reply_tokens=400)[0] == 1400
    assert budget(reasoning_effort="high", reply_tokens=80)[0] == 80 + REASONING_ALLOWANCE["high"]
    assert budget(reasoning={"effort": "low"}, max_tokens=50_000)[0] == 50_000
    assert reasoning_allowance({"enabled": False, "effort": "high"}, None) is None
    assert reasoning_allowance({"exclude": True}, None) is None
    assert reasoning_allowance(None, "none") is None
    assert reasoning_allowance({"enabled": True}, None) == REASONING_ALLOWANCE["medium"]


def test_the_registry_reads_limits_as_numbers_or_tables() -> None:
    text = """
[[models]]
slug = "m"
model = "vendor/m"

[models.limits]
sudoku = 650
chess-ladder = { max_tokens = 900, token_param = "max_completion_tokens" }
"""
    spec = parse_registry(text, fmt="toml", source="t")["m"]
    assert spec.limits["sudoku"] == Limit(max_tokens=650)
    assert spec.limits["chess-ladder"].token_param == "max_completion_tokens"
    assert spec.with_base_url("http://127.0.0.1:9/v1").limits == spec.limits


@pytest.mark.parametrize(
    ("limits", "problem"),
    [
        ('{ "Sudoku!" = 400 }', "limits key"),
        ("{ sudoku = 0 }", "greater than or equal to 1"),
        ('{ sudoku = "many" }', "limits"),
        ("{ sudoku = { max_tokens = 10, temperature = 1 } }", "Extra inputs"),
    ],
)
def test_a_bad_limit_is_refused_naming_it(limits: str, problem: str) -> None:
    text = f'[[models]]\nslug = "m"\nmodel = "vendor/m"\nlimits = {limits}\n'
    with pytest.raises(RegistryError, match=problem):
        parse_registry(text, fmt="toml", source="t")


@pytest.mark.parametrize("game", sorted(REPLY_TOKENS))
def test_every_lane_sends_its_benchmarks_budget(game: str) -> None:
    policy = make_llm_policy("gpt-4o-mini", game)  # the built-in entry says max_tokens = 80
    assert prompt_for(game).reply_tokens == REPLY_TOKENS[game]
    assert policy.spec.max_tokens == REPLY_TOKENS[game]
    assert policy.run_identity()["maxTokens"] == REPLY_TOKENS[game]
    body = policy.client.build_body([], **policy.spec.request_options())
    assert body["max_tokens"] == REPLY_TOKENS[game]


def test_a_benchmark_limit_reaches_each_of_its_games_only(tmp_path: Path) -> None:
    path = tmp_path / "models.toml"
    path.write_text(
        '[[models]]\nslug = "m"\nmodel = "vendor/m"\napi_key_env = ""\n'
        "limits = { narcade = 120, snake = 60, tetris-bench = 90 }\n"
    )
    budgets = {g: make_llm_policy("m", g, models_file=path).spec.max_tokens for g in REPLY_TOKENS}
    assert budgets == {
        "tetris": 90,
        "tetris-primitive": 120,  # NARCADE's Tetris, not Tetris Bench's
        "snake": 60,
        "minesweeper": 120,
        "tictactoe": 80,
        "sudoku": 400,
        "chess": 300,
    }


def test_the_built_in_reasoning_models_budget_covers_reasoning_and_the_grid() -> None:
    registry = load_registry()
    for slug in ("o4-mini-low", "openai-o4-mini"):
        spec: ModelSpec = registry[slug]
        sudoku = make_llm_policy(slug, "sudoku").spec
        assert sudoku.max_tokens == max(spec.max_tokens, 400 + REASONING_ALLOWANCE["low"])
        assert sudoku.token_param == spec.token_param


def test_the_sudoku_request_carries_its_own_max_tokens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with recording() as (server, seen):
        for more, want in (("", 400), ("limits = { sudoku = 650 }\n", 650)):
            seen.bodies.clear()
            models = models_file(tmp_path, server.base_url, more=more)
            run = tmp_path / f"run-{want}"
            argv = ["sudoku", "--policy", "llm:mock", "--tiers", "1", "--quiet"]
            argv += ["--models-file", str(models), "--output-dir", str(run)]
            assert cli.main(argv) == 0, capsys.readouterr().err
            assert len(seen.bodies) == 1 + 6  # the pre-flight, then each grid
            assert {body["max_tokens"] for body in seen.bodies} == {want}
            assert {body["temperature"] for body in seen.bodies} == {0.3}
