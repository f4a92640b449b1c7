"""The five benchmarks as Inspect tasks (`evaluation/inspect_tasks/`), played with Inspect's mock
model, no network: every sample plays through the one episode loop, is scored by the benchmark's
rule, and writes an event log that `arcade-eval verify` accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

inspect_ai = pytest.importorskip("inspect_ai")

from arcade_gym.sudoku.sets import set_grids  # noqa: E402
from evaluation.core.eventlog import read_log  # noqa: E402
from evaluation.core.verify import verify_paths  # noqa: E402
from evaluation.inspect_tasks import registry  # noqa: E402
from evaluation.inspect_tasks.bridge import ENDED  # noqa: E402
from tests.evaluation.inspect_tasks.mock import mock_model  # noqa: E402


def _eval(name: str, model: Any, tmp_path: Path, **task_args: Any) -> Any:
    """Run the task registered as `arcade_gym/<name>` in process, one sample at a time."""
    logs = inspect_ai.eval(
        f"arcade_gym/{name}",
        model=model,
        task_args={**task_args, "log_dir": str(tmp_path / "games")},
        log_dir=str(tmp_path / "inspect"),
        display="none",
        max_samples=1,
    )
    assert len(logs) == 1
    return logs[0]


def _event_logs(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "games").rglob("*.jsonl"))


def _all_verify(tmp_path: Path, count: int) -> None:
    reports = verify_paths([tmp_path / "games"])
    assert len(reports) == count
    assert all(r.ok for r in reports), [r.line() for r in reports]


def _scores(log: Any) -> dict[str, Any]:
    return {s.id: next(iter(s.scores.values())) for s in log.samples}


def _metrics(log: Any) -> dict[str, float]:
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def test_every_task_is_registered_under_arcade_gym() -> None:
    assert set(registry.TASKS) == {"tetris_bench", "narcade", "arena", "sudoku", "chess"}
    from inspect_ai._util.registry import registry_lookup

    for name in registry.TASKS:
        assert registry_lookup("task", f"arcade_gym/{name}") is registry.TASKS[name]


def test_sudoku_scores_grids_by_the_benchmark_and_its_logs_verify(tmp_path: Path) -> None:
    first, second = set_grids("v1")[:2]
    model = mock_model(
        [
            json.dumps({"grid": first["solution"], "confidence": 95}),
            "I cannot read this grid",  # unreadable: the protocol's one retry follows
            json.dumps({"grid": second["puzzle"]}),  # the givens only: empty cells
        ]
    )
    log = _eval("sudoku", model, tmp_path, limit=2)
    assert log.status == "success"
    assert log.eval.task == "arcade_gym/sudoku"
    scores = _scores(log)
    assert scores[first["id"]].value == 1.0
    assert scores[first["id"]].metadata["result"]["outcome"] == "solved"
    assert scores[second["id"]].value == 0.0
    assert scores[second["id"]].metadata["result"]["outcome"] == "empty"
    assert scores[second["id"]].metadata["result"]["attempts"] == 2
    metrics = _metrics(log)
    assert metrics["accuracy"] == 0.5
    assert metrics["sudoku_tier_score"] == 50.0  # one tier, one of two grids solved
    assert metrics["sudoku_ci95_low"] < 50.0 < metrics["sudoku_ci95_high"]
    _all_verify(tmp_path, 2)
    header, events, result = read_log(scores[first["id"]].metadata["log"])
    identity = header["policy"]["runIdentity"]
    assert identity["via"] == "inspect" and identity["inspectModel"] == "mockllm/model"
    assert identity["maxTokens"] == 400  # Sudoku's reply budget (policies/llm/budgets.py)
    assert identity["temperature"] == 0.0
    assert events[0]["call"]["usage"]["promptTokens"] == 120
    assert result is not None and result["outcome"] == "solved"
    # Inspect saw every call: in the samples' transcripts and in the eval's token totals
    model_events = [e for sample in log.samples for e in sample.events if e.event == "model"]
    assert len(model_events) == 3
    assert log.stats.model_usage["mockllm/model"].input_tokens == 3 * 120


def test_tetris_plays_a_seed_to_its_end_and_its_log_verifies(tmp_path: Path) -> None:
    model = mock_model(["no placement here"] * 3)  # three unusable answers end the game
    log = _eval("tetris_bench", model, tmp_path, seeds=1, budget_s=60)
    assert log.status == "success"
    (score,) = _scores(log).values()
    result = score.metadata["result"]
    assert result["endReason"] == "adapter failure"
    assert result["invalid"] == 3 and score.value == 0.0
    assert _metrics(log)["mean"] == 0.0
    _all_verify(tmp_path, 1)


def test_a_model_failure_sets_the_game_aside_unscored(tmp_path: Path) -> None:
    model = mock_model([])  # the mock raises at the first request: a failure on our side
    log = _eval("sudoku", model, tmp_path, limit=1)
    (sample,) = log.samples
    assert sample.error is not None and "ran out" in sample.error.message
    assert not sample.scores
    (path,) = _event_logs(tmp_path)
    (report,) = verify_paths([path])
    assert report.status == "incomplete" and "aborted" in report.message


@pytest.mark.slow
def test_narcade_plays_an_episode(tmp_path: Path) -> None:
    model = mock_model(['{"action": "up"}'] * 20)
    log = _eval(
        "narcade", model, tmp_path, games="snake", episodes=1, mode="lockstep", max_decisions=5
    )
    assert log.status == "success"
    (score,) = _scores(log).values()
    assert score.metadata["result"]["game"] == "snake"
    assert score.metadata["result"]["decisions"] <= 5
    _all_verify(tmp_path, 1)


@pytest.mark.slow
def test_arena_plays_a_position(tmp_path: Path) -> None:
    model = mock_model(["<move>0 0</move>"])
    log = _eval("arena", model, tmp_path, items="positions", limit=1)
    assert log.status == "success"
    (score,) = _scores(log).values()
    assert score.value in (0.0, 1.0)
    assert score.metadata["result"]["item"] == "position"
    assert 0.0 <= _metrics(log)["arena_score"] <= 100.0
    _all_verify(tmp_path, 1)


@pytest.mark.slow
def test_chess_plays_a_game_against_a_rung(tmp_path: Path) -> None:
    from tests.engines.stockfish import stockfish_or_skip

    stockfish_or_skip()
    model = mock_model(["<move>none</move>"] * 12)  # illegal every time: the game is forfeit
    log = _eval("chess", model, tmp_path, rungs="random", games_per_rung=1, grade_nodes=1000)
    assert log.status == "success"
    (score,) = _scores(log).values()
    assert score.value == 0.0
    assert score.metadata["result"]["rung"] == "random"
    _all_verify(tmp_path, 1)


def test_bad_task_arguments_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match=r"tiers 1\.\.7"):
        registry.TASKS["sudoku"](tiers="9")
    with pytest.raises(ValueError, match="rungs must name rungs"):
        registry.TASKS["chess"](rungs="nobody")
    with pytest.raises(ValueError, match="items must be"):
        registry.TASKS["arena"](items="some")


def _first_candidate(messages: list[Any], *_: Any) -> Any:
    """A mock reply choosing the first placement the Tetris prompt lists."""
    import re

    from tests.evaluation.inspect_tasks.mock import reply

    found = re.search(r"^([A-Z]{2}): x=", str(messages[-1].text), re.MULTILINE)
    assert found is not None, "the Tetris prompt lists its candidates as `ID: x=...`"
    return reply(json.dumps({"candidate": found.group(1), "hold": False, "risk": 0.2}))


def test_tetris_plays_placements_the_prompt_offers(tmp_path: Path) -> None:
    import inspect as python_inspect

    from inspect_ai.model._providers.mockllm import MockLLM

    if "Callable" not in str(python_inspect.signature(MockLLM.__init__)):
        pytest.skip("this Inspect's mock model takes no reply function")
    from inspect_ai.model import get_model

    model = get_model("mockllm/model", custom_outputs=_first_candidate)
    log = _eval("tetris_bench", model, tmp_path, seeds=1, piece_cap=8)
    assert log.status == "success"
    (score,) = _scores(log).values()
    result = score.metadata["result"]
    assert result["endReason"] == "piece cap" and result["pieces"] == 8
    assert result["invalid"] == 0 and result["decisions"] == 8
    assert score.value == result["score"] > 0  # hard drops score points
    _all_verify(tmp_path, 1)


@pytest.mark.slow
def test_a_deadline_cancels_the_request_in_inspect(tmp_path: Path) -> None:
    """Tetris IQ's budget runs out: the call is a timeout (the benchmark's rule: three in a row
    end the game) and the request is cancelled inside Inspect, not left running."""
    from inspect_ai.model import get_model

    from tests.evaluation.inspect_tasks.slow_model import COUNTS

    COUNTS.update(started=0, cancelled=0)
    log = _eval("tetris_bench", get_model("arcade-slow/model"), tmp_path, seeds=1, budget_s=0.3)
    assert log.status == "success"
    (score,) = _scores(log).values()
    result = score.metadata["result"]
    assert result["endReason"] == "adapter failure" and result["timeouts"] == 3
    assert COUNTS == {"started": 3, "cancelled": 3}
    _all_verify(tmp_path, 1)


@pytest.mark.slow
def test_a_sample_that_ends_early_stops_its_game(tmp_path: Path) -> None:
    """Inspect ends the sample (its time limit) while the model thinks: the request is cancelled
    and the game stops, set aside (its log ends `stopped`), never scored."""
    import time

    from inspect_ai.model import get_model

    from tests.evaluation.inspect_tasks.slow_model import COUNTS

    COUNTS.update(started=0, cancelled=0)
    (log,) = inspect_ai.eval(
        "arcade_gym/sudoku",
        model=get_model("arcade-slow/model"),
        task_args={"limit": 1, "log_dir": str(tmp_path / "games")},
        log_dir=str(tmp_path / "inspect"),
        display="none",
        time_limit=2,
    )
    (sample,) = log.samples
    assert not sample.scores and sample.error is not None
    assert "set aside before it ended" in sample.error.message
    (path,) = _event_logs(tmp_path)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the game's thread writes its last line
        if read_log(path).result is not None:
            break
        time.sleep(0.1)
    assert read_log(path).result == {
        "type": "result",
        "endReason": "stopped",
        "reason": f"SampleEndedError: {ENDED}",
        "decisions": 0,
    }
    assert COUNTS["cancelled"] == 1
    (report,) = verify_paths([path])
    assert report.status == "incomplete"


@pytest.mark.slow
def test_the_evals_temperature_and_budget_reach_the_lane(tmp_path: Path) -> None:
    """`inspect eval --temperature 0.7 --max-tokens 1234` (here as `eval()` arguments) is what the
    lane sends and what the log header records; a task argument wins over the eval's."""
    model = mock_model(["nope"] * 4)
    for name, task_args in (("eval", {}), ("task", {"temperature": 0.2, "max_tokens": 99})):
        (log,) = inspect_ai.eval(
            "arcade_gym/sudoku",
            model=model,
            task_args={"limit": 1, "log_dir": str(tmp_path / name), **task_args},
            log_dir=str(tmp_path / "inspect"),
            display="none",
            temperature=0.7,
            max_tokens=1234,
        )
        assert log.status == "success"
        (path,) = sorted((tmp_path / name).rglob("*.jsonl"))
        identity = read_log(path).header["policy"]["runIdentity"]
        expected = (0.7, 1234) if name == "eval" else (0.2, 99)
        assert (identity["temperature"], identity["maxTokens"]) == expected


def test_a_relative_log_dir_is_the_callers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inspect runs a task from the folder of its module; a relative `log_dir` still means the
    directory `inspect eval` was started in."""
    monkeypatch.chdir(tmp_path)
    (log,) = inspect_ai.eval(
        "arcade_gym/sudoku",
        model=mock_model(["nope"] * 2),
        task_args={"limit": 1, "log_dir": "relative-logs"},
        log_dir=str(tmp_path / "inspect"),
        display="none",
    )
    assert log.status == "success"
    (path,) = sorted((tmp_path / "relative-logs").rglob("*.jsonl"))
    assert path.name == f"{set_grids('v1')[0]['id']}-epoch1.jsonl"
    package = Path(registry.__file__).parent
    assert not (package / "relative-logs").exists()
