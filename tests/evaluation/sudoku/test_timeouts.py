"""Who owns a timeout in the Sudoku benchmark (seed 002: the model "can think as long as its
settings allow", and "a request that fails on our side is never counted against the model"): a
grid whose answer does not come within `--timeout-s` is aborted, never scored, and played on
resume; `--timeout-s` is the documented flag, `--timeout-ms` its older spelling."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.sudoku.sets import set_grids
from evaluation.benchmarks.sudoku import BENCHMARK
from evaluation.benchmarks.sudoku.cli import add_parsers
from evaluation.benchmarks.sudoku.episode import PROTOCOL_VERSION, play_sudoku_grid
from evaluation.benchmarks.sudoku.runner import run_sudoku
from evaluation.core.episode import GameAbortedError
from evaluation.core.grid import PolicyPool
from evaluation.core.registry import register
from evaluation.core.verify import log_files, verify_log
from policies.base import DecisionContext
from policies.sudoku import SolverPolicy
from tests.policies.chat_server import ChatHandler, ChatServer, serving

register(BENCHMARK)
SLOW_GRID = "v1-t1-2"


class Hangs(SolverPolicy):
    """The solver, except that while `hang` is set it does not answer grid `SLOW_GRID` until
    the harness gives up on it (its cancel event)."""

    def __init__(self, hang: threading.Event) -> None:
        super().__init__()
        self.slug = self.name = "hangs"
        self.hang = hang

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        if self.hang.is_set() and question.grid_id == SLOW_GRID:
            ctx.cancelled.wait(5.0)
        return super().act(question, ctx)


def test_a_timeout_aborts_the_grid_instead_of_leaving_it_unsolved(tmp_path: Path) -> None:
    hang = threading.Event()
    hang.set()
    record = next(g for g in set_grids("v1") if g["id"] == SLOW_GRID)
    log = tmp_path / "g.jsonl"
    with pytest.raises(GameAbortedError, match="timeout: no answer within 200 ms"):
        play_sudoku_grid(Hangs(hang), record, log, set_version="v1", timeout_ms=200.0)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events[0]["versions"]["protocol"] == PROTOCOL_VERSION
    assert [e["type"] for e in events] == ["header", "result"]  # no decision: nothing scored
    assert events[-1]["endReason"] == "aborted"


def test_a_grid_whose_policy_times_out_is_aborted_not_scored_and_played_on_resume(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    hang = threading.Event()
    hang.set()
    warm = next(g for g in set_grids("v1") if g["tier"] == 2)  # the solver compiled first
    play_sudoku_grid(SolverPolicy(), warm, tmp_path / "warm.jsonl", set_version="v1")

    def run() -> Any:
        return run_sudoku(
            ["hangs"],
            PolicyPool(lambda spec: Hangs(hang)),
            out,
            tiers=(1,),
            timeout_ms=2_000.0,
            say=lambda _: None,
        )

    first = run()
    (aborted,) = first.aborted
    assert SLOW_GRID in aborted and "timeout: no answer within 2000 ms" in aborted
    assert not first.reports  # a policy with a grid missing has no score
    assert not (out / "results" / "hangs" / f"{SLOW_GRID}.json").exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["finished"] == 5 and manifest["missing"] == [["hangs", SLOW_GRID]]
    hang.clear()
    again = run()
    assert not again.aborted and not again.missing
    (report,) = again.reports
    assert report["tiers"] == {"1": {"solved": 6, "grids": 6}} and report["score"] == 100
    assert all(verify_log(p).ok for p in log_files([out / "logs"]))


class SlowModel(ChatHandler):
    """A chat endpoint that thinks `delay` seconds, then answers the solution."""

    def do_POST(self) -> None:  # noqa: N802 (the http.server hook name)
        body = self.read_json()
        state: dict[str, Any] = self.server.state  # type: ignore[attr-defined]
        state["requests"] += 1
        time.sleep(state["delay"])
        rows = [state["solution"][r * 9 : r * 9 + 9] for r in range(9)]
        with contextlib.suppress(OSError):  # the client may have given up and closed
            self.send_completion(body, json.dumps({"grid": rows, "confidence": 90}))


def test_a_model_slower_than_the_safety_net_aborts_the_grid_and_a_resume_solves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against a chat server on 127.0.0.1: an `llm:` lane whose model is slower than the
    timeout aborts the grid (never an unsolved grid); the same grid played again once the
    model answers in time is solved and its log verifies."""
    from policies.llm.chat_policy import ChatPolicy
    from policies.llm.registry import ModelSpec
    from policies.sudoku.prompt import PROMPT

    monkeypatch.setenv("ARCADE_GYM_TEST_SLOW_KEY", "sk-local-test")
    record = next(g for g in set_grids("v1") if g["id"] == SLOW_GRID)
    state: dict[str, Any] = {"requests": 0, "delay": 2.0, "solution": record["solution"]}
    with serving(ChatServer(SlowModel, state)) as server:
        spec = ModelSpec.model_validate(
            {
                "slug": "slow",
                "model": "test/slow",
                "base_url": server.base_url,
                "api_key_env": "ARCADE_GYM_TEST_SLOW_KEY",
                "max_tokens": 4000,
            }
        )
        policy = ChatPolicy(spec, PROMPT, spec.client(max_retries=0))
        log = tmp_path / "g.jsonl"
        with pytest.raises(GameAbortedError, match="timeout"):
            play_sudoku_grid(policy, record, log, set_version="v1", timeout_ms=400.0)
        events = [json.loads(line) for line in log.read_text().splitlines()]
        assert [e["type"] for e in events] == ["header", "result"]
        assert events[-1]["endReason"] == "aborted"
        state["delay"] = 0.0
        again = tmp_path / "again.jsonl"
        saved = play_sudoku_grid(policy, record, again, set_version="v1", timeout_ms=30_000.0)
    assert saved["outcome"] == "solved" and saved["attempts"] == 1
    assert verify_log(again).ok


@pytest.mark.parametrize(
    ("flags", "timeout_ms"),
    [([], 900_000.0), (["--timeout-s", "2.5"], 2_500.0), (["--timeout-ms", "700"], 700.0)],
)
def test_the_timeout_flag_is_in_seconds_and_the_older_one_in_milliseconds(
    flags: list[str], timeout_ms: float, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import argparse

    import evaluation.benchmarks.sudoku.runner as runner

    seen: dict[str, Any] = {}

    def fake_run(*args: Any, **kwargs: Any) -> Any:
        seen.update(kwargs)
        raise runner.RunError("stop here")

    monkeypatch.setattr(runner, "run_sudoku", fake_run)
    parser = argparse.ArgumentParser()
    sudoku = add_parsers(parser.add_subparsers())
    args = parser.parse_args(["sudoku", "--policy=solver", f"--output-dir={tmp_path}", *flags])
    assert args.handler(args) == 2
    assert seen["timeout_ms"] == timeout_ms
    help_text = " ".join(sudoku.format_help().split())
    assert "a safety net, not a clock" in help_text and "900 s (15 minutes)" in help_text
