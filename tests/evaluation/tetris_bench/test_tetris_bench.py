"""The Tetris Bench runner: plays, writes, resumes, refuses, survives interruption."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation import cli
from evaluation.benchmarks.tetris_bench import runner as bench
from evaluation.benchmarks.tetris_bench.runner import RunConfig, parse_modes, parse_seeds
from evaluation.core.errors import PolicyUnusableError, RunError
from evaluation.core.verify import verify_paths
from policies.tetris import make_brain


def _config(**changes: object) -> RunConfig:
    values: dict[str, object] = {
        "brains": ("random",),
        "seeds": ("seed-01", "seed-02"),
        "seed_set": "test",
        "modes": ("IQ", "Blitz"),
        "official": False,
        "piece_cap": 15,
    }
    values.update(changes)
    return RunConfig(**values)  # type: ignore[arg-type]


def test_quick_run_writes_logs_results_manifest_and_leaderboard(tmp_path: Path) -> None:
    outcome = bench.run_tetris_bench(_config(), tmp_path / "run", make_brain)
    assert not outcome.interrupted and not outcome.missing
    assert len(outcome.results) == 4
    assert outcome.leaderboard is not None
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["missing"] == []
    reports = verify_paths([tmp_path / "run" / "logs"])
    assert len(reports) == 4 and all(r.ok for r in reports)


def test_rerun_resumes_without_replaying_finished_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench.run_tetris_bench(_config(), tmp_path / "run", make_brain)

    def must_not_play(*args: object, **kwargs: object) -> None:
        raise AssertionError("a finished game was played again")

    monkeypatch.setattr(bench, "play_tetris", must_not_play)
    outcome = bench.run_tetris_bench(_config(), tmp_path / "run", make_brain)
    assert len(outcome.results) == 4


def test_interrupted_run_keeps_partial_results_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = bench.play_tetris
    calls = {"n": 0}

    def flaky(*args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] == 3:
            log = Path(str(args[3]))
            log.write_text('{"type": "header"}\n')  # a game cut short mid-way
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bench, "play_tetris", flaky)
    run = tmp_path / "run"
    outcome = bench.run_tetris_bench(_config(), run, make_brain)
    assert outcome.interrupted and len(outcome.results) == 2 and len(outcome.missing) == 2
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and len(manifest["missing"]) == 2
    monkeypatch.setattr(bench, "play_tetris", real)
    outcome = bench.run_tetris_bench(_config(), run, make_brain)
    assert not outcome.interrupted and len(outcome.results) == 4
    kept = list(run.glob("logs/random/Blitz/*.interrupted-1"))
    assert len(kept) == 1  # the cut-short log was set aside, not overwritten


def test_directory_of_another_run_or_of_anything_else_is_refused(tmp_path: Path) -> None:
    bench.run_tetris_bench(_config(), tmp_path / "run", make_brain)
    with pytest.raises(RunError, match="another run"):
        bench.run_tetris_bench(_config(seeds=("seed-03",)), tmp_path / "run", make_brain)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="not empty"):
        bench.run_tetris_bench(_config(), other, make_brain)


def test_seed_and_mode_parsing() -> None:
    assert parse_seeds(None, official=True)[1] == [f"seed-{i:02d}" for i in range(1, 31)]
    assert parse_seeds(None, official=False)[1] == ["seed-01", "seed-02", "seed-03"]
    assert parse_seeds("5", official=False)[1][-1] == "seed-05"
    assert parse_seeds("seed-07,seed-09", official=False)[1] == ["seed-07", "seed-09"]
    with pytest.raises(RunError, match="drop --seeds"):
        parse_seeds("3", official=True)
    with pytest.raises(RunError, match="between 1 and 30"):
        parse_seeds("31", official=False)
    assert parse_modes("blitz,IQ") == ["Blitz", "IQ"]
    with pytest.raises(RunError, match="unknown mode"):
        parse_modes("turbo")


def test_cli_user_errors_exit_2_with_one_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        cli.main(["tetris-bench", "--brains", "oracle", "--output-dir", str(tmp_path / "a")]) == 2
    )
    assert "unknown tetris policy 'oracle'" in capsys.readouterr().err
    assert (
        cli.main(["tetris-bench", "--merge", "index.json", "--output-dir", str(tmp_path / "b")])
        == 2
    )
    assert "--official" in capsys.readouterr().err
    assert cli.main(["probe", "--brain", "nobody"]) == 2


def test_cli_quick_run_prints_the_leaderboard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    code = cli.main(
        ["tetris-bench", "--brains", "random", "--seeds", "2", "--output-dir", str(out), "--quiet"]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Random" in printed and "per seed" in printed
    assert (out / "leaderboard.md").read_text().startswith("|")
    assert json.loads((out / "leaderboard.json").read_text())["rows"][0]["slug"] == "random"


def _comparable(result: object) -> dict[str, object]:
    data = dict(vars(result))
    for key in ("latencies_ms", "log_path"):
        data.pop(key, None)
    return data


def test_concurrent_run_gives_the_same_results_as_a_serial_one(tmp_path: Path) -> None:
    # IQ only: Blitz lets gravity act for the wall-clock time an answer took, so on a loaded
    # machine one late answer can change a Blitz game in either run (seen once in CI).
    config = _config(
        brains=("random", "heuristic"), seeds=("seed-01", "seed-02", "seed-03"), modes=("IQ",)
    )
    serial = bench.run_tetris_bench(config, tmp_path / "serial", make_brain)
    parallel = bench.run_tetris_bench(config, tmp_path / "parallel", make_brain, concurrency=3)
    assert [_comparable(r) for r in serial.results] == [_comparable(r) for r in parallel.results]
    assert all(r.ok for r in verify_paths([tmp_path / "parallel" / "logs"]))


class _BrokenKeyBrain:
    """A brain whose provider refuses its key: every answer fails, and it says so."""

    slug = name = "broken"
    description = "always fails"
    kind = "llm"
    adapter_version = "1"

    def __init__(self) -> None:
        self.fatal_error: Exception | None = None

    def act(self, question: object, ctx: object) -> object:
        self.fatal_error = PermissionError("401 Unauthorized")
        raise self.fatal_error


def test_a_brain_that_cannot_answer_stops_the_batch(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with pytest.raises(PolicyUnusableError, match="401"):
        bench.run_tetris_bench(_config(brains=("broken",)), run, lambda slug: _BrokenKeyBrain())
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "stopped" and len(manifest["missing"]) == 4
    assert not list(run.glob("results/**/*.json"))
    assert list(run.glob("logs/broken/IQ/seed-01.jsonl.aborted-1"))
