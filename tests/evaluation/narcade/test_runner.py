"""The NARCADE runner: result files, the manifest, isolation, refusal, failures, Ctrl-C,
realtime and the caps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import evaluation.core.episode as core_episode
from arcade_gym.core.clock import SimulatedClock
from evaluation.benchmarks.narcade.episode import EpisodeConfig, play_narcade
from evaluation.benchmarks.narcade.pool import make_policy
from evaluation.benchmarks.narcade.results import read_json
from evaluation.benchmarks.narcade.settings import FAILURE_STREAK, make_settings
from evaluation.core.eventlog import read_log
from evaluation.core.verify import verify_log
from tests.evaluation.narcade.conftest import GAMES, SMALL, result, run
from tests.evaluation.narcade.fakes import HERE, Slow


def test_lockstep_run_writes_results_manifest_and_logs(run_dir: Path) -> None:
    manifest = read_json(run_dir / "manifest.json")
    assert manifest["benchmark"] == "narcade" and manifest["format"] == "narcade-manifest@2"
    assert manifest["status"] == "complete" and manifest["missing"] == []
    assert manifest["games"] == manifest["finished"] == 2 * 3 * 2
    assert manifest["versions"]["rules"] == "0.4.0"
    assert manifest["versions"]["protocol"] and manifest["versions"]["package"]
    assert manifest["hardware"] == "test-box" and manifest["hardwareDetails"]["cpuCount"]
    assert manifest["settings"]["gameModes"] == {
        "minesweeper": "turn-based",
        "snake": "lockstep",
        "tetris": "lockstep",
    }
    for model in ("random", "heuristic"):
        entry = manifest["models"][model]
        assert entry["status"] == "complete" and entry["exitCode"] == 0
        assert set(entry["revisions"]) == set(GAMES)
        for game in GAMES:
            data = result(run_dir, model, game)
            assert data["format"] == "narcade-result@2"
            assert data["status"] == "complete" and data["hardware"] == "test-box"
            assert entry["files"][game] == f"results/{model}/{game}.json"
            assert [e["seed"] for e in data["episodes"]] == [100, 101]
            for episode in data["episodes"]:
                assert episode["policyErrors"] == episode["timeouts"] == 0
                assert episode["invalidActions"] == 0
                assert 0 < episode["decisions"] <= SMALL["max_decisions"]
                assert episode["latencyMs"]["p50"] is not None
                assert episode["latencyMs"]["p95"] >= episode["latencyMs"]["p50"]
                if game == "minesweeper":
                    assert (episode["solveTimeMs"] is not None) == (
                        episode["endReason"] == "solved"
                    )
            first = data["episodes"][0]
            header, decisions, line = read_log(run_dir / first["log"])
            assert header["benchmark"] == "narcade" and header["settings"]["game"] == game
            assert header["policy"]["spec"] == model and header["seed"] == 100
            assert len(decisions) == first["decisions"] and line is not None
            assert line["score"] == first["score"] and line["endReason"] == first["endReason"]
            event = decisions[0]
            assert event["verdict"]["action"] in event["actions"]  # --trace: the whole question
            assert event["state"]["game"] == game and "latencyMs" not in event["call"]


def test_heuristic_beats_random_on_every_game(run_dir: Path) -> None:
    for game in GAMES:
        heuristic = result(run_dir, "heuristic", game)["summary"]["meanScore"]
        random_mean = result(run_dir, "random", game)["summary"]["meanScore"]
        assert heuristic > random_mean, game


def test_in_process_results_equal_the_isolated_ones(run_dir: Path, tmp_path: Path) -> None:
    assert run(tmp_path / "same", isolate=False) == 0
    keys = ("seed", "score", "endReason", "decisions", "invalidActions")
    for model in ("random", "heuristic"):
        for game in GAMES:
            a = result(run_dir, model, game)["episodes"]
            b = result(tmp_path / "same", model, game)["episodes"]
            assert [{k: e[k] for k in keys} for e in a] == [{k: e[k] for k in keys} for e in b]


@pytest.mark.slow
def test_the_readme_acceptance_run_gives_the_published_means(tmp_path: Path) -> None:
    out = tmp_path / "acceptance"
    code = run(out, episodes=3, max_pieces=200, max_decisions=500, isolate=False)
    assert code == 0
    means = {
        (model, game): result(out, model, game)["summary"]["meanScore"]
        for model in ("random", "heuristic")
        for game in GAMES
    }
    assert means == {
        ("random", "minesweeper"): 93.0,
        ("random", "snake"): 0.3333,
        ("random", "tetris"): 0.0,
        ("heuristic", "minesweeper"): 215.6667,
        ("heuristic", "snake"): 48.3333,
        ("heuristic", "tetris"): 14293.3333,
    }


def test_a_non_empty_output_directory_is_refused_without_resume(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("earlier run")
    messages: list[str] = []
    assert run(tmp_path, log=messages.append) == 2
    assert len(messages) == 1 and "not empty" in messages[0] and "--output-dir" in messages[0]
    assert "--resume" in messages[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt"]


def test_resume_refuses_a_directory_of_another_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert run(out, models="random", games="snake", episodes=1, isolate=False) == 0
    messages: list[str] = []
    assert run(out, models="random", games="snake", resume=True, log=messages.append) == 2
    assert "episodes 1 -> 2" in messages[0]


@pytest.mark.parametrize(
    ("kw", "needle"),
    [
        ({"models": "random,chess"}, "unknown minesweeper policy 'chess'"),
        ({"models": "llm:"}, "nothing after llm:"),
        ({"games": "pong"}, "--games"),
        ({"mode": "fast"}, "--mode"),
        ({"max_decisions": 0}, "--max-decisions"),
    ],
)
def test_bad_requests_stop_with_one_message(
    tmp_path: Path, kw: dict[str, Any], needle: str
) -> None:
    messages: list[str] = []
    assert run(tmp_path / "x", log=messages.append, **kw) == 2
    assert len(messages) == 1 and needle in messages[0]
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("factory", ["raising", "hanging"])
def test_a_failing_model_is_counted_and_fails_the_run_keeping_partial_results(
    tmp_path: Path, factory: str
) -> None:
    out = tmp_path / "run"
    spec = f"py:{HERE}:{factory}"
    code = run(out, models=f"random,{spec}", games="snake,minesweeper", timeout_ms=200.0)
    assert code == 1
    manifest = read_json(out / "manifest.json")
    assert manifest["status"] == "failed"
    assert manifest["models"]["random"]["status"] == "complete"
    bad = manifest["models"][spec]
    assert bad["status"] == "failed" and "consecutive" in bad["error"]
    assert result(out, "random", "snake")["status"] == "complete"
    folder = Path(bad["files"]["minesweeper"]).parent.name
    failed = result(out, folder, "minesweeper")
    assert failed["status"] == "failed"
    (episode,) = failed["episodes"]
    assert episode["endReason"] == "policy failure"
    counted = episode["timeouts"] if factory == "hanging" else episode["policyErrors"]
    assert counted == FAILURE_STREAK
    assert verify_log(out / episode["log"]).ok  # a policy failure is a finished, scored game
    missing = {tuple(m) for m in manifest["missing"]}
    assert missing == {(spec, "minesweeper", "101"), (spec, "snake", "100"), (spec, "snake", "101")}


def test_ctrl_c_keeps_finished_episodes_and_resume_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = core_episode.call_policy
    calls = {"n": 0}

    def interrupt_later(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 60:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(core_episode, "call_policy", interrupt_later)
    out = tmp_path / "run"
    kw: dict[str, Any] = {"models": "heuristic", "games": "snake", "isolate": False}
    assert run(out, max_decisions=50, **kw) == 130
    data = result(out, "heuristic", "snake")
    assert data["status"] == "interrupted"
    assert [(e["seed"], e["endReason"]) for e in data["episodes"]] == [(100, "decision cap")]
    manifest = read_json(out / "manifest.json")
    assert manifest["status"] == "interrupted" and manifest["missing"] == [
        ["heuristic", "snake", "101"]
    ]
    (aside,) = (out / "logs" / "heuristic" / "snake").glob("101.jsonl.interrupted-*")
    report = verify_log(aside)
    assert report.status == "incomplete" and "interrupted at decision 9" in report.message
    monkeypatch.setattr(core_episode, "call_policy", real)
    assert run(out, max_decisions=50, resume=True, **kw) == 0
    data = result(out, "heuristic", "snake")
    assert data["status"] == "complete" and [e["seed"] for e in data["episodes"]] == [100, 101]
    assert read_json(out / "manifest.json")["missing"] == []


def test_realtime_advances_snake_and_tetris_while_a_slow_policy_thinks(tmp_path: Path) -> None:
    out = tmp_path / "rt"
    spec = f"py:{HERE}:slow"
    kw = {"games": "snake,tetris", "episodes": 1, "max_decisions": 4, "isolate": False}
    assert run(out, models=spec, mode="realtime", difficulty="hard", **kw) == 0
    folder = read_json(out / "manifest.json")["models"][spec]["files"]["snake"].split("/")[1]
    snake = result(out, folder, "snake")["episodes"][0]
    assert snake["moves"] > snake["decisions"]  # ticks passed while it thought
    tetris = result(out, folder, "tetris")["episodes"][0]
    _, decisions, _ = read_log(out / tetris["log"])
    assert sum(d["effect"]["rowsFallen"] for d in decisions) >= 4
    assert all(d["call"]["elapsedMs"] >= 200 for d in decisions)
    for episode in (snake, tetris):  # realtime replays with the recorded game times
        assert verify_log(out / episode["log"]).ok
    locked = tmp_path / "ls"
    assert run(locked, models=spec, mode="lockstep", difficulty="hard", **kw) == 0
    snake = result(locked, folder, "snake")["episodes"][0]
    assert snake["moves"] == snake["decisions"]


def test_realtime_tetris_discards_answers_whose_piece_locked(tmp_path: Path) -> None:
    settings = make_settings("tetris", 1, 100, "realtime", "easy", None, None, 30, False)
    policy = make_policy("heuristic", "tetris", 100, settings)
    config = EpisodeConfig.of(settings, "tetris")
    log = tmp_path / "t.jsonl"
    record = play_narcade(policy, "heuristic", config, 100, log, clock=SimulatedClock(30_000))
    assert record.discarded_answers > 0 and record.extra["pieces"] >= record.discarded_answers
    assert record.policy_errors == 0 and record.end_reason != "policy failure"
    assert verify_log(log).ok


def test_max_seconds_caps_tetris_only_and_a_time_cap_replays(tmp_path: Path) -> None:
    settings = make_settings("snake,tetris", 1, 100, "lockstep", "easy", 0.4, None, 5, False)
    tetris = play_narcade(
        Slow("tetris", 100), "slow", EpisodeConfig.of(settings, "tetris"), 100, tmp_path / "t"
    )
    assert tetris.end_reason == "time cap" and tetris.decisions == 2
    assert verify_log(tmp_path / "t").ok
    lines = [json.loads(line) for line in (tmp_path / "t").read_text().splitlines()]
    lines[0]["settings"]["maxSeconds"] = None  # a time cap the game never had
    (tmp_path / "forged").write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert "no --max-seconds" in verify_log(tmp_path / "forged").message
    snake = play_narcade(
        Slow("snake", 100), "slow", EpisodeConfig.of(settings, "snake"), 100, tmp_path / "s"
    )
    assert snake.end_reason == "decision cap" and snake.decisions == 5


def test_an_outage_on_our_side_aborts_the_episode_uncounted_and_resume_replays_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.evaluation.narcade import fakes

    monkeypatch.setitem(fakes.OUTAGE, "on", True)
    out = tmp_path / "run"
    spec = f"py:{HERE}:outage"
    kw: dict[str, Any] = {"models": spec, "games": "snake", "episodes": 3, "isolate": False}
    assert run(out, max_decisions=20, **kw) == 1
    manifest = read_json(out / "manifest.json")
    folder = manifest["models"][spec]["files"]["snake"].split("/")[1]
    data = result(out, folder, "snake")
    assert data["status"] == "aborted" and "failures on our side" in data["error"]
    assert [e["seed"] for e in data["episodes"]] == [100, 102]  # never counted
    assert manifest["missing"] == [[spec, "snake", "101"]]
    (aside,) = (out / "logs" / folder / "snake").glob("101.jsonl.aborted-*")
    assert "aborted" in verify_log(aside).message
    monkeypatch.setitem(fakes.OUTAGE, "on", False)
    assert run(out, max_decisions=20, resume=True, **kw) == 0
    data = result(out, folder, "snake")
    assert data["status"] == "complete" and [e["seed"] for e in data["episodes"]] == [100, 101, 102]


def test_a_failed_model_stays_failed_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    spec = f"py:{HERE}:raising"
    kw: dict[str, Any] = {"models": spec, "games": "snake", "isolate": False}
    assert run(out, **kw) == 1
    assert run(out, resume=True, **kw) == 1
    manifest = read_json(out / "manifest.json")
    assert manifest["models"][spec]["status"] == "failed"
    assert manifest["missing"] == [[spec, "snake", "101"]]


def test_the_closing_table_marks_an_incomplete_mean(tmp_path: Path) -> None:
    from evaluation.benchmarks.narcade.report import mean_score_table

    out = tmp_path / "run"
    assert run(out, models=f"heuristic,py:{HERE}:raising", games="snake", isolate=False) == 1
    table = mean_score_table(out).splitlines()
    heuristic = next(line for line in table if line.startswith("heuristic"))
    failed = next(line for line in table if line.startswith("py:"))
    assert not heuristic.endswith("*") and failed.endswith("0.00*")
    assert table[-1].startswith("* incomplete")


def test_resume_refuses_to_mix_episodes_of_a_changed_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.evaluation.narcade import fakes

    real = core_episode.call_policy
    calls = {"n": 0}

    def interrupt_in_second_episode(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 13:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(core_episode, "call_policy", interrupt_in_second_episode)
    out = tmp_path / "run"
    spec = f"py:{HERE}:steady"
    kw: dict[str, Any] = {"models": spec, "games": "snake", "max_decisions": 10, "isolate": False}
    assert run(out, **kw) == 130
    monkeypatch.setattr(core_episode, "call_policy", real)

    def upgraded(game: str, seed: int) -> Any:
        policy = fakes.Slow(game, seed, 0.0, "steady")
        policy.adapter_version = "2"
        return policy

    monkeypatch.setattr(fakes, "steady", upgraded)
    assert run(out, resume=True, **kw) == 1
    folder = read_json(out / "manifest.json")["models"][spec]["files"]["snake"].split("/")[1]
    data = result(out, folder, "snake")
    assert data["status"] == "failed" and "the policy changed" in data["error"]
    assert "adapterVersion: '1' -> '2'" in data["error"]
    assert [e["seed"] for e in data["episodes"]] == [100]


@pytest.mark.parametrize("where", ["under-a-file", "/proc/narcade-run"])
def test_an_output_directory_that_cannot_be_made_is_one_message(tmp_path: Path, where: str) -> None:
    (tmp_path / "file").write_text("x")
    out = tmp_path / "file" / "run" if where == "under-a-file" else Path(where)
    messages: list[str] = []
    assert run(out, models="random", games="snake", log=messages.append) == 2
    assert len(messages) == 1 and "--output-dir" in messages[0]


def test_a_model_that_cannot_answer_fails_alone_in_its_own_process(tmp_path: Path) -> None:
    out = tmp_path / "run"
    spec = f"py:{HERE}:refused"
    assert run(out, models=f"random,{spec}", games="snake", max_decisions=20) == 1
    manifest = read_json(out / "manifest.json")
    assert manifest["status"] == "failed"
    assert manifest["models"]["random"]["status"] == "complete"  # the run went on
    bad = manifest["models"][spec]
    assert bad["status"] == "failed" and bad["exitCode"] == 1
    assert "the model cannot answer: 401 Unauthorized" in bad["error"]
    folder = bad["files"]["snake"].split("/")[1]
    assert result(out, folder, "snake")["episodes"] == []  # its game was set aside, not counted
    assert list((out / "logs" / folder / "snake").glob("100.jsonl.aborted-*"))
    assert manifest["missing"] == [[spec, "snake", "100"], [spec, "snake", "101"]]


def test_a_model_that_cannot_be_built_is_one_message(tmp_path: Path) -> None:
    messages: list[str] = []
    spec = f"py:{HERE}:unbuildable"
    assert run(tmp_path / "x", models=spec, games="snake", log=messages.append) == 2
    assert len(messages) == 1 and "the weights file is missing" in messages[0]
    assert not (tmp_path / "x").exists()
