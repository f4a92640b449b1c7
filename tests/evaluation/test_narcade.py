"""The NARCADE suite: runner, result files, failures, realtime, publication, comparison, replays."""

from __future__ import annotations

import argparse
import copy
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.core.clock import SimulatedClock
from evaluation import narcade_runner as runner
from evaluation.narcade_cli import add_parsers
from evaluation.narcade_publish import PublishError, compare, format_comparison, publish
from evaluation.narcade_replays import ReplayError, export_replays
from evaluation.narcade_results import read_json, read_trace
from policies.base import DecisionContext, PolicyIdentity

GAMES = ("minesweeper", "snake", "tetris")
SMALL = {"max_decisions": 120, "max_pieces": 40}
HERE = "tests.evaluation.test_narcade"


# --- fake models (loaded in the model's own process as py:<module>:<factory>) ------------------


class _Fake(PolicyIdentity):
    def __init__(self, slug: str) -> None:
        super().__init__(slug=slug, name=slug, description="test policy", kind="baseline")


class _Raising(_Fake):
    def act(self, question: Any, ctx: DecisionContext) -> Any:
        raise RuntimeError("model crashed")


class _Hanging(_Fake):
    def act(self, question: Any, ctx: DecisionContext) -> Any:
        time.sleep(30)


class _Slow(_Fake):
    """Thinks 250 ms, then answers like the heuristic."""

    def __init__(self, game: str, seed: int) -> None:
        super().__init__("slow")
        self.inner = runner.make_policy("heuristic", game, seed)

    def act(self, question: Any, ctx: DecisionContext) -> Any:
        time.sleep(0.25)
        return self.inner.act(question, ctx)


def raising(game: str, seed: int) -> Any:
    return _Raising("raising")


def hanging(game: str, seed: int) -> Any:
    return _Hanging("hanging")


def slow(game: str, seed: int) -> Any:
    return _Slow(game, seed)


# --- fixtures ----------------------------------------------------------------------------------


def _run(out: Path, models: str = "random,heuristic", **kw: Any) -> int:
    options: dict[str, Any] = {"mode": "lockstep", "quiet": True, **SMALL, **kw}
    games = options.pop("games", ",".join(GAMES))
    episodes = options.pop("episodes", 2)
    return runner.run_narcade(models, games, episodes, 100, out, **options)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lockstep run, each model in its own (spawned) process, with traces."""
    out = tmp_path_factory.mktemp("narcade") / "run"
    assert _run(out, trace=True, hardware_label="test-box") == 0
    return out


def _result(out: Path, model: str, game: str) -> dict[str, Any]:
    data: dict[str, Any] = read_json(out / f"{model}-{game}.json")
    return data


# --- the runner --------------------------------------------------------------------------------


def test_lockstep_run_writes_results_manifest_and_traces(run_dir: Path) -> None:
    manifest = read_json(run_dir / "manifest.json")
    assert manifest["status"] == "complete" and manifest["missing"] == []
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
            data = _result(run_dir, model, game)
            assert data["status"] == "complete" and data["hardware"] == "test-box"
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
            header, decisions, result = read_trace(run_dir / f"{model}-{game}-100.jsonl")
            assert header["game"] == game and len(decisions) == data["episodes"][0]["decisions"]
            assert result["score"] == data["episodes"][0]["score"]
            first = decisions[0]
            assert first["choice"] in first["actions"] and "latencyMs" in first
            assert first["state"]["game"] == game


def test_heuristic_beats_random_on_every_game(run_dir: Path) -> None:
    for game in GAMES:
        heuristic = _result(run_dir, "heuristic", game)["summary"]["meanScore"]
        random_mean = _result(run_dir, "random", game)["summary"]["meanScore"]
        assert heuristic > random_mean, game


def test_in_process_results_equal_the_isolated_ones(run_dir: Path, tmp_path: Path) -> None:
    assert _run(tmp_path / "same", isolate=False) == 0
    keys = ("seed", "score", "endReason", "decisions", "invalidActions")
    for model in ("random", "heuristic"):
        for game in GAMES:
            a = _result(run_dir, model, game)["episodes"]
            b = _result(tmp_path / "same", model, game)["episodes"]
            assert [{k: e[k] for k in keys} for e in a] == [{k: e[k] for k in keys} for e in b]


def test_a_non_empty_output_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("earlier run")
    messages: list[str] = []
    assert _run(tmp_path, log=messages.append) == 2
    assert len(messages) == 1 and "not empty" in messages[0] and "--output-dir" in messages[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt"]


def test_bad_requests_stop_with_one_message(tmp_path: Path) -> None:
    for kw, needle in (
        ({"models": "random,chess"}, "unknown model"),
        ({"games": "pong"}, "--games"),
        ({"mode": "fast"}, "--mode"),
        ({"max_decisions": 0}, "--max-decisions"),
    ):
        messages: list[str] = []
        assert _run(tmp_path / "x", log=messages.append, **kw) == 2
        assert len(messages) == 1 and needle in messages[0]
    assert not (tmp_path / "x").exists()


def test_llm_models_say_the_lane_is_not_available_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import policies.llm

    monkeypatch.delattr(policies.llm, "make_llm_narcade_policy", raising=False)
    messages: list[str] = []
    assert _run(tmp_path / "x", models="llm:some-model", log=messages.append) == 2
    assert "not available yet" in messages[0]


@pytest.mark.parametrize("factory", ["raising", "hanging"])
def test_a_failing_model_is_counted_and_fails_the_run_keeping_partial_results(
    tmp_path: Path, factory: str
) -> None:
    out = tmp_path / "run"
    spec = f"py:{HERE}:{factory}"
    code = _run(out, models=f"random,{spec}", games="snake,minesweeper", timeout_ms=200.0)
    assert code == 1
    manifest = read_json(out / "manifest.json")
    assert manifest["status"] == "failed"
    assert manifest["models"]["random"]["status"] == "complete"
    bad = manifest["models"][spec]
    assert bad["status"] == "failed" and "consecutive" in bad["error"]
    assert _result(out, "random", "snake")["status"] == "complete"
    failed = _result(out, f"py-{factory}", "minesweeper")
    assert failed["status"] == "failed"
    episode = failed["episodes"][0]
    assert episode["endReason"] == "policy failure"
    counted = episode["timeouts"] if factory == "hanging" else episode["policyErrors"]
    assert counted == runner.FAILURE_STREAK
    missing = {(m["model"], m["game"]) for m in manifest["missing"]}
    assert missing == {(spec, "minesweeper"), (spec, "snake")}


def test_ctrl_c_keeps_partial_results_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import evaluation.core.policy_call as policy_call

    real = policy_call.call_policy
    calls = {"n": 0}

    def interrupt_later(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 60:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(policy_call, "call_policy", interrupt_later)
    out = tmp_path / "run"
    assert _run(out, models="heuristic", games="snake", isolate=False, max_decisions=50) == 130
    data = _result(out, "heuristic", "snake")
    assert data["status"] == "interrupted"
    assert [e["endReason"] for e in data["episodes"]] == ["decision cap", "interrupted"]
    manifest = read_json(out / "manifest.json")
    assert manifest["status"] == "interrupted"
    assert manifest["missing"][0]["seedsMissing"] == [101]


def test_realtime_advances_snake_and_tetris_while_a_slow_policy_thinks(tmp_path: Path) -> None:
    out = tmp_path / "rt"
    spec = f"py:{HERE}:slow"
    kw = {"games": "snake,tetris", "episodes": 1, "max_decisions": 4, "isolate": False}
    assert _run(out, models=spec, mode="realtime", difficulty="hard", trace=True, **kw) == 0
    snake = _result(out, "py-slow", "snake")["episodes"][0]
    assert snake["moves"] > snake["decisions"]  # ticks passed while it thought
    _, decisions, _ = read_trace(out / "py-slow-tetris-100.jsonl")
    assert sum(d["effect"]["rowsFallen"] for d in decisions) >= 4
    assert all(d["elapsedMs"] >= 200 for d in decisions)
    locked = tmp_path / "ls"
    assert _run(locked, models=spec, mode="lockstep", difficulty="hard", **kw) == 0
    snake = _result(locked, "py-slow", "snake")["episodes"][0]
    assert snake["moves"] == snake["decisions"]


def test_realtime_tetris_discards_answers_whose_piece_locked() -> None:
    settings = runner.make_settings("tetris", 1, 100, "realtime", "easy", None, None, 30, False)
    policy = runner.make_policy("heuristic", "tetris", 100)
    outcome = runner.play_episode(policy, "tetris", 100, settings, clock=SimulatedClock(30_000))
    record = outcome.record
    assert record.discarded_answers > 0 and record.extra["pieces"] >= record.discarded_answers
    assert record.policy_errors == 0 and not outcome.failed


def test_max_seconds_caps_tetris_only() -> None:
    settings = runner.make_settings("snake,tetris", 1, 100, "lockstep", "easy", 0.4, None, 5, False)
    tetris = runner.play_episode(_Slow("tetris", 100), "tetris", 100, settings)
    assert tetris.record.end_reason == "time cap" and tetris.record.decisions == 2
    snake = runner.play_episode(_Slow("snake", 100), "snake", 100, settings)
    assert snake.record.end_reason == "decision cap" and snake.record.decisions == 5


# --- publication and comparison ----------------------------------------------------------------


def _results(out: Path) -> list[Path]:
    return sorted(out.glob("*-*.json"))


def _edited(src: Path, dest: Path, edit: Any) -> Path:
    data = read_json(src)
    edit(data)
    dest.write_text(json.dumps(data))
    return dest


def test_publish_builds_one_entry_per_model_and_game(run_dir: Path, tmp_path: Path) -> None:
    pub = publish(_results(run_dir), "Run 001", tmp_path / "pub.json")
    assert read_json(tmp_path / "pub.json") == pub
    assert set(pub["games"]) == set(GAMES)
    for game in GAMES:
        block = pub["games"][game]
        assert block["seeds"] == [100, 101] and len(block["entries"]) == 2
        assert block["entries"][0]["model"] == "heuristic"  # sorted by mean score
        assert block["entries"][0]["hardware"] == "test-box"


def test_publish_refuses_each_forbidden_mix(run_dir: Path, tmp_path: Path) -> None:
    src = run_dir / "heuristic-snake.json"
    others = [p for p in _results(run_dir) if p != src]

    def failed(d: dict[str, Any]) -> None:
        d["status"], d["error"] = "failed", "5 consecutive timeouts"

    def protocol(d: dict[str, Any]) -> None:
        d["versions"]["protocol"] = "other-protocol@9"

    def seeds(d: dict[str, Any]) -> None:
        d["episodes"][1]["seed"] = 555

    cases = [
        ([_edited(src, tmp_path / "f.json", failed), *others], "only completed runs"),
        ([src, src, *others], "duplicate entry"),
        ([_edited(src, tmp_path / "p.json", protocol), *others], "mixed observation protocols"),
        ([_edited(src, tmp_path / "s.json", seeds), *others], "mixed seeds"),
    ]
    for paths, needle in cases:
        with pytest.raises(PublishError, match=needle):
            publish(paths, "bad", tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


def test_compare_reports_paired_differences_and_changes(run_dir: Path, tmp_path: Path) -> None:
    old = publish(_results(run_dir), "old", tmp_path / "old.json")
    new_dir = tmp_path / "new"
    new_dir.mkdir()
    for path in _results(run_dir):

        def bump(d: dict[str, Any]) -> None:
            d["versions"]["protocol"] = "arcade-narcade-obs@2"  # a protocol change is allowed
            for k, episode in enumerate(d["episodes"]):
                episode["score"] += 10 * (k + 1)

        _edited(path, new_dir / path.name, bump)
    pub = publish(
        _results(new_dir), "new", tmp_path / "new.json", compare_with=tmp_path / "old.json"
    )
    comparison = pub["comparison"]
    assert comparison["against"] == "old"
    snake = comparison["games"]["snake"]
    assert snake["protocol"]["new"] == "arcade-narcade-obs@2"
    row = snake["models"]["heuristic"]
    old_scores = [e["score"] for e in old["games"]["snake"]["entries"][0]["episodes"]]
    assert [p["difference"] for p in row["pairs"]] == [10, 20]
    assert [p["old"] for p in row["pairs"]] == old_scores
    assert row["meanChange"] == pytest.approx(15.0)
    assert row["percentChange"] == pytest.approx(15.0 / (sum(old_scores) / 2) * 100)
    tetris_random = comparison["games"]["tetris"]["models"]["random"]
    assert tetris_random["oldMean"] == 0 and tetris_random["percentChange"] is None
    assert "heuristic" in format_comparison(comparison)


def test_compare_refuses_changed_revisions_hardware_rules_or_seeds(
    run_dir: Path, tmp_path: Path
) -> None:
    base = publish(_results(run_dir), "base", tmp_path / "base.json")

    def revision(p: dict[str, Any]) -> None:
        p["games"]["snake"]["entries"][0]["revision"] = "adapter-2"

    def hardware(p: dict[str, Any]) -> None:
        p["games"]["tetris"]["entries"][1]["hardware"] = "a100"

    def rules(p: dict[str, Any]) -> None:
        p["versions"]["rules"] = "0.5.0"

    def seeds(p: dict[str, Any]) -> None:
        p["games"]["minesweeper"]["seeds"] = [200, 201]

    for edit, needle in (
        (revision, "revision changed"),
        (hardware, "hardware changed"),
        (rules, "rules version changed"),
        (seeds, "seeds changed"),
    ):
        changed = copy.deepcopy(base)
        edit(changed)
        with pytest.raises(PublishError, match=needle):
            compare(changed, base)


# --- replays -----------------------------------------------------------------------------------


def test_traces_export_to_replays(run_dir: Path, tmp_path: Path) -> None:
    written = export_replays([run_dir], tmp_path / "replays")
    assert len(written) == 2 * 3 * 2
    index = read_json(tmp_path / "replays" / "index.json")["replays"]
    replay = read_json(tmp_path / "replays" / "heuristic-tetris-100.json")
    result = _result(run_dir, "heuristic", "tetris")["episodes"][0]
    assert replay["final"]["score"] == result["score"] and len(index) == 12
    assert replay["frames"][0]["action"] in replay["frames"][0]["actions"]
    with pytest.raises(ReplayError, match="never overwritten"):
        export_replays([run_dir], tmp_path / "replays")


def _edit_trace(path: Path, edit: Any) -> None:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    edit(lines)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _other_action(lines: list[dict[str, Any]], *, answer_too: bool = False) -> None:
    """Play another offered action at decision 4 (line 0 is the header)."""
    event = lines[5]
    event["choice"] = next(a for a in event["actions"] if a != event["choice"])
    if answer_too:
        event["answer"] = {"action": event["choice"]}


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (_other_action, "action mismatch at decision 4"),
        (lambda ls: ls[3]["state"].update(score=99), "state mismatch at decision 2"),
        (lambda ls: ls[3]["actions"].reverse(), "action-set mismatch"),
        (lambda ls: ls[0].update(instruction="Win."), "instruction mismatch"),
        (lambda ls: ls[-1].update(score=ls[-1]["score"] + 1), "final-score mismatch"),
    ],
)
def test_an_edited_trace_is_rejected(run_dir: Path, tmp_path: Path, edit: Any, needle: str) -> None:
    copy_dir = tmp_path / "run"
    shutil.copytree(run_dir, copy_dir)
    _edit_trace(copy_dir / "heuristic-minesweeper-101.jsonl", edit)
    with pytest.raises(ReplayError, match=needle):
        export_replays([copy_dir], tmp_path / "replays")
    assert not (tmp_path / "replays").exists()


def test_an_edited_action_with_its_answer_diverges_on_replay(run_dir: Path, tmp_path: Path) -> None:
    copy_dir = tmp_path / "run"
    shutil.copytree(run_dir, copy_dir)
    _edit_trace(
        copy_dir / "heuristic-minesweeper-100.jsonl", lambda ls: _other_action(ls, answer_too=True)
    )
    with pytest.raises(ReplayError, match=r"minesweeper-100\.jsonl: .*(mismatch|already ended)"):
        export_replays([copy_dir], tmp_path / "replays")


# --- the command line --------------------------------------------------------------------------


def test_cli_registers_the_three_commands_without_heavy_imports() -> None:
    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        ["narcade", "--models", "random", "--mode", "lockstep", "--max-pieces", "200", "--trace"]
    )
    assert (args.episodes, args.seed, args.max_decisions, args.difficulty) == (
        3,
        100,
        2000,
        "medium",
    )
    args = parser.parse_args(["publish", "a.json", "--label", "L", "--output", "p.json"])
    assert args.results == ["a.json"] and args.compare_with is None
    args = parser.parse_args(["export-replays", "d1", "d2", "--output", "r"])
    assert args.trace_dirs == ["d1", "d2"]
    code = "import sys, evaluation.narcade_cli; print(any(m in sys.modules for m in "
    code += "('numba', 'numpy', 'evaluation.narcade_runner')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
