"""The examples in examples/ run as they are (kept true to the code)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_random_tetris_example_plays_an_episode(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "random_tetris.py"), run_name="__main__")
    assert "episode over" in capsys.readouterr().out


def test_maskable_ppo_example_trains(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sb3_contrib")
    monkeypatch.setattr(sys, "argv", ["train_maskable_ppo.py", "--steps", "512"])
    runpy.run_path(str(EXAMPLES / "train_maskable_ppo.py"), run_name="__main__")
    assert "after 512 steps" in capsys.readouterr().out
