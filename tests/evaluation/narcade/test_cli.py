"""`arcade-eval narcade`, `publish`, `export-replays`: options, aliases, cheap import."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from evaluation.benchmarks.narcade.cli import add_parsers
from evaluation.cli import main
from evaluation.core.cli_options import policies_from


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_parsers(parser.add_subparsers(dest="command"))
    return parser


def test_cli_registers_the_three_commands_without_heavy_imports() -> None:
    parser = _parser()
    args = parser.parse_args(
        ["narcade", "--policy", "random", "--mode", "lockstep", "--max-pieces", "200", "--trace"]
    )
    assert (args.episodes, args.seed, args.max_decisions, args.difficulty) == (
        3,
        100,
        2000,
        "medium",
    )
    assert policies_from(args) == ["random"] and not args.resume
    args = parser.parse_args(["publish", "a.json", "--label", "L", "--output", "p.json"])
    assert args.results == ["a.json"] and args.compare_with is None
    args = parser.parse_args(["export-replays", "d1", "d2", "--output", "r"])
    assert args.run_dirs == ["d1", "d2"]
    code = "import sys, evaluation.benchmarks.narcade.cli; print(any(m in sys.modules for m in "
    code += "('numba', 'arcade_gym.snake.engine', 'evaluation.benchmarks.narcade.runner')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_policy_is_repeatable_and_models_is_its_alias() -> None:
    parser = _parser()
    assert policies_from(parser.parse_args(["narcade"])) == ["random", "heuristic"]
    args = parser.parse_args(["narcade", "--policy", "heuristic", "--policy", "random,heuristic"])
    assert policies_from(args) == ["heuristic", "random"]
    args = parser.parse_args(["narcade", "--models", "random,heuristic"])
    assert policies_from(args) == ["random", "heuristic"]


def test_the_command_runs_verifies_resumes_the_same_run_and_refuses_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    argv = ["narcade", "--models", "heuristic", "--games", "snake", "--episodes", "1"]
    argv += ["--mode", "lockstep", "--max-decisions", "30", "--in-process", "--quiet"]
    assert main([*argv, "--output-dir", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "heuristic" in printed and f"arcade-eval verify {out}/logs" in printed
    assert main(["verify", str(out / "logs")]) == 0
    capsys.readouterr()
    # the same command into the same directory resumes it, as in every benchmark
    assert main([*argv, "--output-dir", str(out)]) == 0
    assert main([*argv, "--output-dir", str(out), "--resume"]) == 0
    assert "holds another run" not in capsys.readouterr().err
    other = [*argv, "--seed", "7", "--output-dir", str(out)]
    assert main(other) == 2
    assert "holds another run" in capsys.readouterr().err
    assert main([*other, "--resume"]) == 2
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    assert main([*argv, "--output-dir", str(busy)]) == 2
    assert "holds no narcade run" in capsys.readouterr().err


def test_the_command_builds_one_run_request_from_its_flags() -> None:
    from evaluation.benchmarks.narcade.cli import run_request
    from evaluation.benchmarks.narcade.settings import NarcadeRunSettings

    argv = ["narcade", "--policy", "heuristic", "--games", "snake", "--episodes", "4"]
    argv += ["--mode", "lockstep", "--max-cost-usd", "2", "--in-process", "--resume", "--quiet"]
    args = _parser().parse_args(argv)
    request = run_request(args)
    assert request == NarcadeRunSettings(
        models=("heuristic",),
        games="snake",
        episodes=4,
        mode="lockstep",
        max_cost_usd=2.0,
        resume=True,
        isolate=False,
        quiet=True,
    )
    models, settings = request.resolve("box")
    assert models == ["heuristic"] and settings.games == ("snake",) and settings.hardware == "box"
    assert settings.seeds == [100, 101, 102, 103]
