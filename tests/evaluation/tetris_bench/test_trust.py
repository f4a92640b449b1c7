"""Results people can trust: path safety, resume, forged logs, interruptions, CLI refusals, the
Blitz failure rule, end reasons and the result contract (issue 15's Tetris Bench items)."""

from __future__ import annotations

import json
import signal
import threading
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from evaluation import cli
from evaluation.benchmarks.tetris_bench import episode as episode_module
from evaluation.benchmarks.tetris_bench import runner as bench
from evaluation.benchmarks.tetris_bench.episode import brain_identity, play_tetris, rules_for
from evaluation.benchmarks.tetris_bench.records import GameResult, ResultFormatError
from evaluation.benchmarks.tetris_bench.runner import RunConfig, parse_seeds
from evaluation.core.episode import Call
from evaluation.core.errors import RunError
from evaluation.core.eventlog import dumps, read_log
from evaluation.core.policy_call import CallOutcome
from evaluation.core.verify import verify_log, verify_paths
from policies.base import DecisionContext, PolicyIdentity
from policies.tetris import make_brain


def _config(**changes: object) -> RunConfig:
    values: dict[str, object] = {
        "brains": ("random",),
        "seeds": ("seed-01", "seed-02"),
        "seed_set": "test",
        "modes": ("IQ",),
        "official": False,
        "piece_cap": 12,
    }
    values.update(changes)
    return RunConfig(**values)  # type: ignore[arg-type]


def _files_outside(root: Path, allowed: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and not p.is_relative_to(allowed)]


def _rewrite(path: Path, change: Any) -> None:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    change(records)
    path.write_text("".join(dumps(r) + "\n" for r in records))


# --------------------------------------------------------------------------- 1. names become paths


@pytest.mark.parametrize("seed", ["../../../../elsewhere/x", "/an/absolute/path/x"])
def test_hostile_seed_names_write_nothing_outside_the_output_dir(
    tmp_path: Path, seed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "a" / "b" / "c" / "out"
    args = ["tetris-bench", "--policy", "random", "--modes", "iq", "--seeds", seed]
    args += ["--allow-custom-seeds", "--output-dir", str(out), "--quiet"]
    assert cli.main(args) == 0
    assert _files_outside(tmp_path, out) == []
    assert not Path("/an").exists()
    (log,) = out.glob("logs/random/IQ/*.jsonl")
    assert read_log(log).header["seed"] == seed  # the name is kept, only the file name is safe
    assert verify_log(log).ok


def test_hostile_policy_names_write_nothing_outside_the_output_dir(tmp_path: Path) -> None:
    out = tmp_path / "x" / "y" / "out"
    specs = ("llm:../../../../vendor/model", "py:../../evil:make", "/abs/brain")
    config = _config(brains=specs, seeds=("seed-01",))
    outcome = bench.run_tetris_bench(config, out, _Named)
    assert len(outcome.results) == 3 and outcome.leaderboard is not None
    assert _files_outside(tmp_path, out) == []
    assert len(list(out.glob("logs/*/IQ/seed-01.jsonl"))) == 3
    assert len(list(out.glob("results/*/IQ/seed-01.json"))) == 3


def test_a_py_policy_spec_becomes_a_safe_directory_name(tmp_path: Path) -> None:
    out = tmp_path / "out"
    spec = "py:tests.evaluation.tetris_bench.test_trust:make_random"
    args = ["tetris-bench", "--policy", spec, "--modes", "iq", "--seeds", "1"]
    assert cli.main([*args, "--output-dir", str(out), "--quiet"]) == 0
    (brain_dir,) = (out / "logs").iterdir()
    assert ":" not in brain_dir.name and brain_dir.name.startswith("py_tests.evaluation")
    assert _files_outside(tmp_path, out) == []


class _Named(PolicyIdentity):
    """The random brain under any slug (slugs are names, never paths)."""

    def __init__(self, slug: str) -> None:
        super().__init__(slug=slug, name=slug, description="test", kind="baseline")

    def act(self, q: Any, ctx: DecisionContext) -> Any:
        return make_brain("random").act(q, ctx)


def make_random(game: str, seed: int) -> Any:
    """A `py:` factory for the test above."""
    return make_brain("random", seed=seed)


# --------------------------------------------------------------------------- 3. resume trust


def _finished_run(tmp_path: Path) -> tuple[Path, RunConfig]:
    config = _config()
    run = tmp_path / "run"
    bench.run_tetris_bench(config, run, make_brain, say=lambda line: None)
    return run, config


def _resume(run: Path, config: RunConfig, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    played: list[str] = []
    real = bench.play_tetris

    def counting(*args: Any, **kwargs: Any) -> Any:
        played.append(str(args[1]))
        return real(*args, **kwargs)

    monkeypatch.setattr(bench, "play_tetris", counting)
    said: list[str] = []
    outcome = bench.run_tetris_bench(config, run, make_brain, say=said.append)
    return outcome, played, said


@pytest.mark.parametrize(
    ("plant", "why"),
    [
        ("not json {", "unreadable result"),
        ("[]", "unreadable result"),
        ("score", "its result file says score"),
        ("brain", "its result file says brain"),
        ("seed", "its result file says seed"),
        ("junk-keys", "its result file says score"),
    ],
)
def test_an_untrusted_result_is_set_aside_with_one_line_and_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plant: str, why: str
) -> None:
    run, config = _finished_run(tmp_path)
    result = run / "results" / "random" / "IQ" / "seed-02.json"
    data = json.loads(result.read_text())
    if plant == "score":
        data["score"] += 1_000_000
    elif plant == "brain":
        data["brain"] = dict(make_brain("heuristic").identity())
    elif plant == "seed":
        data["seed"] = "seed-01"
    elif plant == "junk-keys":
        data = {"score": 1}
    text = json.dumps(data) if plant in ("score", "brain", "seed", "junk-keys") else plant
    result.write_text(text)
    outcome, played, said = _resume(run, config, monkeypatch)
    assert played == ["seed-02"]
    assert len(said) == 1 and why in said[0] and "random/IQ/seed-02" in said[0]
    assert result.with_name("seed-02.json.untrusted-1").read_text() == text
    assert len(outcome.results) == 2 and outcome.leaderboard is not None
    assert json.loads(result.read_text())["score"] == outcome.results[1].score


def test_a_planted_result_without_a_log_is_not_a_finished_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, config = _finished_run(tmp_path)
    log = run / "logs" / "random" / "IQ" / "seed-01.jsonl"
    log.unlink()
    _, played, said = _resume(run, config, monkeypatch)
    assert played == ["seed-01"]
    assert len(said) == 1 and "its log is missing" in said[0]
    assert verify_log(log).ok


def test_a_planted_log_that_does_not_verify_is_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, config = _finished_run(tmp_path)
    log = run / "logs" / "random" / "IQ" / "seed-01.jsonl"

    def forge(records: list[dict[str, Any]]) -> None:
        records[-1]["score"] += 10
        result = run / "results" / "random" / "IQ" / "seed-01.json"
        data = json.loads(result.read_text())
        data["score"] = records[-1]["score"]
        result.write_text(json.dumps(data))

    _rewrite(log, forge)
    _, played, said = _resume(run, config, monkeypatch)
    assert played == ["seed-01"]
    assert len(said) == 1 and "does not verify" in said[0]


def test_results_written_with_snake_case_keys_still_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, config = _finished_run(tmp_path)
    for path in run.glob("results/**/*.json"):
        data = GameResult.from_dict(json.loads(path.read_text()))
        old = asdict(data)
        old["risks"] = [list(pair) for pair in data.risks]
        path.write_text(json.dumps(old))
    outcome, played, said = _resume(run, config, monkeypatch)
    assert played == [] and said == [] and len(outcome.results) == 2


# --------------------------------------------------------------------------- 4. forged identity


def _search_log(tmp_path: Path) -> Path:
    path = tmp_path / "search.jsonl"
    play_tetris(make_brain("search"), "seed-03", "IQ", path, piece_cap=12)
    return path


def test_a_relabelled_search_log_fails_verify(tmp_path: Path) -> None:
    log = _search_log(tmp_path)
    report = verify_log(log)
    assert report.ok and "answers re-derived" in report.message

    def relabel(records: list[dict[str, Any]]) -> None:
        records[0]["policy"] = make_brain("heuristic").identity()

    _rewrite(log, relabel)
    report = verify_log(log)
    assert not report.ok and report.decision is not None
    assert "not the one the policy named in the header gives" in report.message


def test_a_relabelled_random_log_fails_and_other_brains_are_recorded_not_proven(
    tmp_path: Path,
) -> None:
    log = tmp_path / "random.jsonl"
    play_tetris(make_brain("random", seed=5), "seed-03", "IQ", log, piece_cap=12)
    assert read_log(log).header["policy"]["seed"] == 5
    assert "answers re-derived" in verify_log(log).message

    def reseed(records: list[dict[str, Any]]) -> None:
        records[0]["policy"]["seed"] = 6

    _rewrite(log, reseed)
    assert not verify_log(log).ok

    class Outsider(PolicyIdentity):
        def act(self, q: Any, ctx: DecisionContext) -> Any:
            return make_brain("heuristic").act(q, ctx)

    other = tmp_path / "outsider.jsonl"
    outsider = Outsider(slug="mine", name="Mine", description="test", kind="heuristic")
    play_tetris(outsider, "seed-03", "IQ", other, piece_cap=12)
    assert "identity recorded, not proven" in verify_log(other).message


@pytest.mark.parametrize("field", ["score", "brain", "mode", "seed", "endReason"])
def test_verify_of_a_run_checks_each_result_file_against_its_log(
    tmp_path: Path, field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run, _ = _finished_run(tmp_path)
    assert cli.main(["verify", str(run)]) == 0
    capsys.readouterr()
    result = run / "results" / "random" / "IQ" / "seed-01.json"
    data = json.loads(result.read_text())
    data[field] = {
        "score": 123456,
        "brain": make_brain("search").identity(),
        "mode": "Blitz",
        "seed": "seed-02",
        "endReason": "adapter failure",
    }[field]
    result.write_text(json.dumps(data))
    assert cli.main(["verify", str(run)]) == 1
    out = capsys.readouterr().out
    assert f"its result file says {field}" in out and "seed-01.jsonl" in out
    assert out.count("FAIL") == 1


def test_verify_of_a_run_checks_the_manifest_names_the_benchmark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run, _ = _finished_run(tmp_path)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["benchmark"] = "narcade"
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert cli.main(["verify", str(run / "logs")]) == 1
    assert "manifest.json is a run of 'narcade'" in capsys.readouterr().out


def test_the_leaderboard_takes_identity_from_results_that_agree_with_verified_logs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, config = _finished_run(tmp_path)
    for path in run.glob("results/**/*.json"):
        data = json.loads(path.read_text())
        data["brain"] = {**data["brain"], "name": "Famous Model", "kind": "llm"}
        path.write_text(json.dumps(data))
    outcome, played, said = _resume(run, config, monkeypatch)
    assert sorted(played) == ["seed-01", "seed-02"] and len(said) == 2
    assert outcome.leaderboard is not None
    assert outcome.leaderboard.rows[0].name == "Random"


# --------------------------------------------------------------------------- 5. interrupted


class _InterruptAt:
    """The random brain (same identity, so a resume may go on with the real one) that presses
    Ctrl-C (a real SIGINT) while thinking about tick `at`."""

    def __init__(self, at: int) -> None:
        self.inner = make_brain("random")
        self.at = at

    def identity(self) -> dict[str, Any]:
        return self.inner.identity()

    def act(self, q: Any, ctx: DecisionContext) -> Any:
        if q.tick == self.at:
            # Ctrl-C reaches the main thread, as a terminal's does (a process-wide kill may land
            # on this thread, and the main thread then sees it only after this answer)
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            ctx.cancelled.wait(2.0)
        return self.inner.act(q, ctx)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_an_interrupted_game_is_never_counted_and_is_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "run"
    config = _config()

    def brains(spec: str) -> Any:
        return _InterruptAt(3)

    outcome = bench.run_tetris_bench(config, run, brains, say=lambda line: None)
    assert outcome.interrupted and outcome.results == [] and outcome.leaderboard is None
    (aside,) = run.glob("logs/random/IQ/seed-01.jsonl.interrupted-1")
    report = verify_log(aside)
    assert report.status == "incomplete" and "interrupted at decision 3" in report.message
    assert verify_paths([run]) == []  # set aside: `verify RUN_DIR` no longer lists it
    outcome = bench.run_tetris_bench(config, run, make_brain, say=lambda line: None)
    assert len(outcome.results) == 2 and outcome.leaderboard is not None
    assert [r.slug for r in outcome.results] == ["random", "random"]
    assert all(r.end_reason != "interrupted" for r in outcome.results)


# --------------------------------------------------------------------------- 7. CLI errors


@pytest.mark.parametrize("where", ["proc", "under-a-file"])
def test_an_output_dir_that_cannot_be_created_is_one_line_and_exit_2(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if where == "proc":
        out = "/proc/x"
    else:
        (tmp_path / "file").write_text("x")
        out = str(tmp_path / "file" / "run")
    args = ["tetris-bench", "--policy", "random", "--seeds", "1", "--output-dir", out, "--quiet"]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--output-dir" in err and "Traceback" not in err


@pytest.mark.parametrize("seeds", ["seed-99", "-1", "seed-01,seed-99", "../x"])
def test_custom_seeds_are_refused_unless_allowed(
    tmp_path: Path, seeds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    args = ["tetris-bench", "--policy", "random", "--seeds", seeds, "--output-dir", str(out)]
    assert cli.main([*args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "not a public seed" in err and "--allow-custom-seeds" in err
    assert err.count("\n") == 1 and not out.exists()


def test_custom_seeds_are_played_when_allowed_but_never_officially() -> None:
    assert parse_seeds("seed-99,-1", official=False, allow_custom=True) == (
        "custom",
        ["seed-99", "-1"],
    )
    assert parse_seeds("seed-02,seed-05", official=False)[1] == ["seed-02", "seed-05"]
    with pytest.raises(RunError, match="--official plays the 30 public seeds only"):
        parse_seeds(None, official=True, allow_custom=True)
    with pytest.raises(RunError, match="drop --seeds"):
        parse_seeds("seed-99", official=True)


# --------------------------------------------------------------------------- 9. Blitz timeouts


class _TimingOut:
    """A caller whose every call times out at the piece's lock deadline."""

    def __init__(self, policy: object, clock: object = None) -> None:
        self.clock = clock

    def call(self, question: Any, limit_ms: float | None, realtime: bool) -> Call:
        limit = float(limit_ms or 0.0)
        return Call(CallOutcome(None, "timeout", "too slow", limit), elapsed_ms=limit)


def test_three_blitz_timeouts_in_a_row_end_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(episode_module, "LiveCaller", _TimingOut)
    log = tmp_path / "blitz.jsonl"
    result = play_tetris(make_brain("random"), "seed-01", "Blitz", log)
    assert (result.end_reason, result.decisions, result.timeouts) == ("adapter failure", 3, 3)
    assert result.blitz_locked == 3
    assert verify_log(log).ok


def test_blitz_timeouts_were_neutral_only_in_version_1_logs() -> None:
    assert "timeout" in rules_for("Blitz").unusable
    assert "timeout" in rules_for("IQ").unusable
    legacy = rules_for("Blitz", log_version=1)
    assert "timeout" not in legacy.unusable and "timeout" in legacy.neutral


# --------------------------------------------------------------------------- 10. end reasons


def test_a_tick_capped_log_written_before_cap_detail_still_verifies(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    play_tetris(make_brain("random"), "seed-04", "IQ", log, tick_cap=6)
    result = read_log(log).result
    assert result is not None and (result["endReason"], result["capDetail"]) == (
        "piece cap",
        "tick cap",
    )
    old = tmp_path / "old.jsonl"
    old.write_text(log.read_text())

    def as_before(records: list[dict[str, Any]]) -> None:
        records[-1]["endReason"] = "tick cap"
        del records[-1]["capDetail"]

    _rewrite(old, as_before)
    assert verify_log(old).ok

    def forged(records: list[dict[str, Any]]) -> None:
        records[-1]["capDetail"] = "piece cap"

    _rewrite(log, forged)
    report = verify_log(log)
    assert not report.ok and "capDetail" in report.message


# --------------------------------------------------------------------------- 13. contract details


class _Hosted(PolicyIdentity):
    def run_identity(self) -> dict[str, Any]:
        return {"slug": self.slug, "baseUrlHost": "openrouter.ai", "command": None}

    def act(self, q: Any, ctx: DecisionContext) -> Any:
        return make_brain("heuristic").act(q, ctx)


def test_the_brain_record_has_via_for_hosted_models_only() -> None:
    hosted = _Hosted(slug="m", name="M", description="d", kind="llm", provider="V", model="v/m")
    assert brain_identity(hosted)["via"] == "openrouter.ai"
    assert "via" not in brain_identity(make_brain("heuristic"))
    hosted.via = "my-router"  # type: ignore[attr-defined]
    assert brain_identity(hosted)["via"] == "my-router"


def test_result_files_use_camel_case_keys(tmp_path: Path) -> None:
    run, _ = _finished_run(tmp_path)
    for path in run.glob("results/**/*.json"):
        data = json.loads(path.read_text())
        assert "endReason" in data and "latenciesMs" in data and "capDetail" in data
        assert all("_" not in key for key in data)
    manifest = json.loads((run / "manifest.json").read_text())
    assert all("_" not in key for key in manifest["settings"])


def test_a_result_record_that_is_not_one_is_refused_with_a_clear_message() -> None:
    good = GameResult("tetris-bench@3", "seed-01", "IQ", {"slug": "x"}, "top-out", 1, 0, 1, 1, 1)
    assert GameResult.from_dict(good.to_dict()) == good
    with pytest.raises(ResultFormatError, match="unknown key 'bogus'"):
        GameResult.from_dict({**good.to_dict(), "bogus": 1})
    with pytest.raises(ResultFormatError, match="lacks score"):
        GameResult.from_dict({k: v for k, v in good.to_dict().items() if k != "score"})
    with pytest.raises(ResultFormatError, match="JSON object"):
        GameResult.from_dict([1, 2])  # type: ignore[arg-type]


def test_local_brains_are_not_counted_as_unpriced_calls(tmp_path: Path) -> None:
    local = play_tetris(make_brain("heuristic"), "seed-01", "IQ", tmp_path / "a.jsonl", piece_cap=5)
    assert (local.unpriced_calls, local.priced_calls, local.cost_usd) == (0, 0, None)
    hosted = _Hosted(slug="m", name="M", description="d", kind="llm")
    unpriced = play_tetris(hosted, "seed-01", "IQ", tmp_path / "b.jsonl", piece_cap=5)
    assert unpriced.unpriced_calls == unpriced.decisions > 0
