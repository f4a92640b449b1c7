"""Every benchmark's log header records the model's full settings (`runIdentity`: temperature,
token limit and parameter, endpoint, prompt version ...), written in one place
(`evaluation/core/policy_identity.py`), and the token limit it names is the one each request
carried. One small real run per benchmark against a model on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evaluation import cli
from tests.engines.stockfish import stockfish_or_skip
from tests.policies.recording_server import models_file, recording

RUNS = {
    "tetris-bench": (["--seeds", "1", "--modes", "iq"], 80),
    "narcade": (
        ["--games", "snake", "--episodes", "1", "--mode", "lockstep", "--max-decisions", "4"],
        80,
    ),
    "ttt-arena": (["--timeout-ms", "5000"], 80),
    "sudoku": (["--tiers", "1"], 400),
    "chess-ladder": (
        ["--games-per-rung", "1", "--variants", "standard", "--grade-nodes", "500"],
        300,
    ),
}
"""Each benchmark's small run, and the token limit its lane sends (the entry says nothing)."""


def identities(value: Any) -> Iterator[dict[str, Any]]:
    """Every `runIdentity` block inside a header, wherever the benchmark keeps its players."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "runIdentity" and isinstance(inner, dict):
                yield inner
            else:
                yield from identities(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from identities(inner)


@pytest.mark.parametrize("bench", sorted(RUNS))
def test_every_benchmarks_log_header_names_temperature_and_token_limit(
    bench: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if bench == "chess-ladder":
        stockfish_or_skip()
    more, max_tokens = RUNS[bench]
    with recording() as (server, seen):
        models = models_file(tmp_path, server.base_url)
        argv = [bench, "--policy", "llm:mock", *more, "--models-file", str(models)]
        argv += ["--output-dir", str(tmp_path / "run"), "--quiet"]
        assert cli.main(argv) == 0, capsys.readouterr().err
    assert seen.bodies and {body["max_tokens"] for body in seen.bodies} == {max_tokens}
    logs = sorted((tmp_path / "run").rglob("*.jsonl"))
    assert logs
    for log in logs:
        header = json.loads(log.read_text().splitlines()[0])
        assert header["type"] == "header" and header["benchmark"] == bench
        found = list(identities(header))
        assert found, f"{log.name}: no runIdentity in {header}"
        for identity in found:
            assert identity["temperature"] == 0.3 and identity["maxTokens"] == max_tokens
            assert identity["tokenParam"] == "max_tokens" and identity["modelId"] == "test/mock"
            assert identity["baseUrlHost"] == server.base_url.split("/")[2]
