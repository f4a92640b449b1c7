"""Games in flight: `--concurrency N` plays a model's games (and models) at once with the same
logs and results as one at a time; a cost cap needs one game at a time."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from evaluation.benchmarks.narcade import runner
from evaluation.core.executor import LocalExecutor
from tests.evaluation.narcade.conftest import result, run

GAMES = ("minesweeper", "snake", "tetris")


def test_games_in_flight_write_what_one_at_a_time_writes(tmp_path: Path, monkeypatch: Any) -> None:
    in_flight = peak = 0
    lock = threading.Lock()
    play = runner.play_narcade

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        try:
            return play(*args, **kwargs)
        finally:
            with lock:
                in_flight -= 1

    monkeypatch.setattr(runner, "play_narcade", counting)
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    assert run(serial, models="heuristic", isolate=False) == 0
    assert run(parallel, models="heuristic", isolate=False, executor=LocalExecutor(3)) == 0
    assert peak >= 2  # episodes of one model were played at once
    logs = sorted(p.relative_to(serial) for p in serial.rglob("*.jsonl"))
    assert len(logs) == 6
    for log in logs:
        assert (serial / log).read_bytes() == (parallel / log).read_bytes()
    for game in GAMES:
        ours, theirs = result(serial, "heuristic", game), result(parallel, "heuristic", game)
        assert [e["score"] for e in ours["episodes"]] == [e["score"] for e in theirs["episodes"]]
        assert theirs["status"] == "complete"


def test_a_cost_cap_with_games_in_flight_is_refused(tmp_path: Path) -> None:
    messages: list[str] = []
    code = run(
        tmp_path / "r",
        models="heuristic",
        isolate=False,
        executor=LocalExecutor(2),
        max_cost_usd=1.0,
        log=messages.append,
    )
    assert code == 2 and len(messages) == 1 and "--max-cost-usd" in messages[0]
