"""`python -m arcade_gym.core.build_cache` (issue 23, item 1): every game's warmup in a process of
its own, with the first use of each of its envs, so numba's cache holds every kernel and later
first uses load instead of compiling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arcade_gym.core import build_cache
from arcade_gym.games import descriptors


def test_an_unknown_game_is_refused_before_anything_runs() -> None:
    with pytest.raises(KeyError, match="no warmup registered for \\['nosuch'\\]"):
        build_cache.game_jobs(["nosuch"])


def test_a_game_job_warms_the_game_then_uses_each_of_its_envs() -> None:
    assert build_cache.game_jobs(["tetris"]) == {
        "tetris": (
            "arcade_gym.core.build_cache:warm_game",
            "tetris",
            "env:arcade_gym/Tetris-v3",
            "env:arcade_gym/TetrisPrimitive-v3",
            "vector:arcade_gym/Tetris-v3",
            "vector:arcade_gym/TetrisPrimitive-v3",
        )
    }
    assert set(build_cache.game_jobs()) == {g.name for g in descriptors()}


def test_a_failed_warmup_reports_its_last_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        build_cache, "_CHILD", "import sys; sys.exit('warmup broke: ' + sys.argv[2])"
    )
    jobs = build_cache.game_jobs(["snake", "chess"])
    assert build_cache.run_in_processes(jobs, width=2) == {
        "snake": "warmup broke: snake",
        "chess": "warmup broke: chess",
    }
    assert build_cache.main(["snake"]) == 1


@pytest.mark.slow
def test_after_the_build_a_first_use_compiles_nothing(tmp_path: Path) -> None:
    env = {"NUMBA_CACHE_DIR": str(tmp_path)}
    built = subprocess.run(
        [sys.executable, "-m", "arcade_gym.core.build_cache", "tictactoe"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0 and built.stdout.startswith("tictactoe"), built.stderr
    from evaluation.throughput.coldstart import run_child

    targets = ["aec:tictactoe_v0", "env:arcade_gym/TicTacToe-v0", "vector:arcade_gym/TicTacToe-v0"]
    first = run_child(targets, str(tmp_path))
    assert [t["kernels"] for t in first["targets"]] == [[], [], []]
