"""`AfterstatePolicy` moved from `policies/sb3/` to `policies/tetris/afterstate.py`: a model saved
under the old module name still plays through `sb3:`, and a new one names the new module."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import gymnasium as gym
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO

import arcade_gym  # noqa: F401  (registers the envs)
from policies.tetris.afterstate import AfterstatePolicy

ROOT = Path(__file__).resolve().parents[2]
OLD = "policies.sb3.afterstate"


def pickled_policy_class(path: Path) -> bytes:
    with zipfile.ZipFile(path) as archive:
        data = json.loads(archive.read("data"))
    return base64.b64decode(data["policy_class"][":serialized:"])


@contextmanager
def saved_under_the_old_name() -> Iterator[None]:
    """The class pickles as `policies.sb3.afterstate.AfterstatePolicy`, as before the move."""
    import policies.tetris.sb3  # noqa: F401  (installs the old name)

    AfterstatePolicy.__module__ = OLD
    try:
        yield
    finally:
        AfterstatePolicy.__module__ = "policies.tetris.afterstate"


def play_in_a_fresh_interpreter(path: Path) -> subprocess.CompletedProcess[str]:
    script = (
        "import sys\n"
        "from arcade_gym.tetris.game import TetrisGame\n"
        "from policies.sb3 import make_sb3_policy\n"
        f"policy = make_sb3_policy({str(path)!r}, 'tetris')\n"
        "print(policy.algorithm, type(policy.sb3_model.policy).__module__)\n"
        "print(policy.act(TetrisGame('seed-01').question()).state_hash)\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_a_model_saved_before_the_move_still_plays(tmp_path: Path) -> None:
    path = tmp_path / "old.zip"
    with saved_under_the_old_name():
        MaskablePPO(AfterstatePolicy, gym.make("arcade_gym/Tetris-v3"), n_steps=64, seed=0).save(
            path
        )
    assert OLD.encode() in pickled_policy_class(path)
    played = play_in_a_fresh_interpreter(path)
    assert played.returncode == 0, played.stderr[-2000:]
    algorithm, module = played.stdout.splitlines()[0].split()
    assert (algorithm, module) == ("MaskablePPO", "policies.tetris.afterstate")


def test_a_new_model_names_the_new_module(tmp_path: Path) -> None:
    path = tmp_path / "new.zip"
    MaskablePPO(AfterstatePolicy, gym.make("arcade_gym/Tetris-v3"), n_steps=64, seed=0).save(path)
    pickled = pickled_policy_class(path)
    assert b"policies.tetris.afterstate" in pickled and OLD.encode() not in pickled
