"""The ladder's climbs (one per policy and variant) played one after another, on threads, or as
Ray tasks write the same games: identical logs, the same results but for measured latency, the
same manifest, and a resume that keeps every game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from evaluation.core.executor import Executor, LocalExecutor, RayExecutor
from tests.engines.stockfish import stockfish_or_skip


def ladder(out: Path, executor: Executor) -> Any:
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from policies.specs import make_policy

    # random meets only the weak rungs (it scores 0 against greedy and material-2ply), whose
    # moves are seeded: the games are the same wherever they are played.
    return run_ladder(
        ["random"],
        lambda spec: make_policy(spec, "chess"),
        out,
        variants=["standard", "chess960"],
        games_per_rung=1,
        grade_nodes=2_000,
        executor=executor,
        say=lambda _: None,
    )


def without_latency(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    data.pop("startedAt", None)  # wall clock too: when the game started (the PGN's Date)
    for call in data.get("calls", []):
        call.pop("latencyMs", None)
    return data


def same_run(a: Path, b: Path) -> None:
    logs = sorted(p.relative_to(a) for p in (a / "logs").rglob("*.jsonl"))
    assert logs == sorted(p.relative_to(b) for p in (b / "logs").rglob("*.jsonl"))
    assert {p.parts[2] for p in logs} == {"standard", "chess960"}
    for log in logs:
        assert (a / log).read_bytes() == (b / log).read_bytes()
    results = sorted(p.relative_to(a) for p in (a / "results").rglob("*.json"))
    assert len(results) == len(logs)
    for result in results:
        assert without_latency(a / result) == without_latency(b / result)
    manifests = [json.loads((d / "manifest.json").read_text()) for d in (a, b)]
    for manifest in manifests:
        assert manifest["status"] == "complete" and not manifest["missing"]
    assert manifests[0]["games"] == manifests[1]["games"]
    # the report's median answer time is a wall-clock figure (it differs with the load)
    reports = [re.sub(r"\d+ ms", "N ms", (d / "report.md").read_text()) for d in (a, b)]
    assert reports[0] == reports[1]


@pytest.mark.slow
def test_threads_and_ray_play_the_games_a_serial_run_plays(tmp_path: Path) -> None:
    stockfish_or_skip()
    ray = pytest.importorskip("ray")
    serial = ladder(tmp_path / "serial", LocalExecutor())
    assert not serial.aborted and serial.rows[0].games >= 4
    ladder(tmp_path / "threads", LocalExecutor(concurrency=2))
    same_run(tmp_path / "serial", tmp_path / "threads")
    try:
        ladder(tmp_path / "ray", RayExecutor(num_cpus=2))
    finally:
        ray.shutdown()
    same_run(tmp_path / "serial", tmp_path / "ray")
    # resuming a finished run on threads keeps every game
    logs = {p: p.read_bytes() for p in (tmp_path / "ray" / "logs").rglob("*.jsonl")}
    again = ladder(tmp_path / "ray", LocalExecutor(concurrency=2))
    assert again.rows[0].games == serial.rows[0].games
    assert {p: p.read_bytes() for p in (tmp_path / "ray" / "logs").rglob("*.jsonl")} == logs


def test_the_cost_cap_needs_the_local_executor(tmp_path: Path) -> None:
    from evaluation.benchmarks.chess_ladder.runner import run_ladder
    from evaluation.core.errors import RunError
    from policies.chess import BUILTINS

    class Remote:
        name = "ray"

        def run(self, *args: Any) -> None:
            raise AssertionError("no game may start")

    with pytest.raises(RunError, match="--max-cost-usd needs --executor local"):
        run_ladder(
            ["random"], lambda spec: BUILTINS[spec](), tmp_path / "run", executor=Remote(),
            meter=object(),
        )  # fmt: skip


@pytest.mark.slow
def test_an_aborted_game_stops_only_its_climb_and_is_played_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stockfish_or_skip()
    import evaluation.benchmarks.chess_ladder.climb as climb
    from evaluation.core.episode import GameAbortedError

    real_play = climb.play_game

    def judge_down(policy: Any, spec: str, game: Any, *args: Any) -> Any:
        if game.variant == "standard" and game.rung == "greedy":
            raise GameAbortedError("the judge stopped answering", 0)
        return real_play(policy, spec, game, *args)

    monkeypatch.setattr(climb, "play_game", judge_down)
    first = ladder(tmp_path / "run", LocalExecutor(concurrency=2))
    assert first.aborted == ["random/standard/greedy/game-0: the judge stopped answering"]
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"] == "aborted" and not first.rows
    assert manifest["games"] == manifest["finished"] and not manifest["missing"]
    results = tmp_path / "run" / "results" / "random"
    assert not (results / "standard" / "greedy").exists()
    assert len(list((results / "chess960").rglob("*.json"))) >= 2  # the other climb went on
    monkeypatch.setattr(climb, "play_game", real_play)
    again = ladder(tmp_path / "run", LocalExecutor())
    assert not again.aborted and again.rows[0].games >= 4
