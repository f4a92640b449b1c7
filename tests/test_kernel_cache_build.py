"""The build backend (`arcade_gym/_build/kernel_cache_backend.py`): a wheel carries numba's cache
of every kernel a user meets first, so an install from it loads instead of compiling."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The backend module, imported as pip imports it (its folder on the path, the project's
    folder the working directory)."""
    monkeypatch.syspath_prepend(str(ROOT / "arcade_gym" / "_build"))
    monkeypatch.chdir(ROOT)
    return importlib.import_module("kernel_cache_backend")


def test_pyproject_names_the_backend_and_its_build_py() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["build-system"]["build-backend"] == "kernel_cache_backend"
    assert config["build-system"]["backend-path"] == ["arcade_gym/_build"]
    cmdclass = config["tool"]["setuptools"]["cmdclass"]
    assert cmdclass == {"build_py": "kernel_cache_backend.BuildPyWithKernelCache"}


def test_a_wheel_build_requires_the_runtime_dependencies(backend) -> None:  # type: ignore[no-untyped-def]
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    required = backend.get_requires_for_build_wheel()
    assert set(dependencies) <= set(required)
    assert not set(dependencies) & set(backend.get_requires_for_build_editable())


@pytest.mark.slow
def test_the_wheel_carries_every_kernel_a_first_use_needs(tmp_path: Path) -> None:
    """Build the wheel (cache included), install it into a folder of its own and check that a
    first use of every env and the Tetris brains compile nothing there."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path / "wheel"),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith(".pyc")]
    for module in ("arcade_gym/tetris/__pycache__/engine.", "policies/tetris/__pycache__/search"):
        assert any(n.startswith(module) and n.endswith(".nbi") for n in names), module
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    probe = (
        "import sys, arcade_gym\n"
        "from arcade_gym.core.coldstart import use\n"
        "from arcade_gym.registration import first_use_targets\n"
        "from numba.core import event\n"
        "compiled = []\n"
        "class L(event.Listener):\n"
        "    def on_start(self, e): compiled.append(e.data['dispatcher'].py_func.__qualname__)\n"
        "    def on_end(self, e): pass\n"
        "event.register('numba:compile', L())\n"
        "for target in first_use_targets(): use(target)\n"
        "from policies.tetris import warmup; warmup()\n"
        "print(compiled)\n"
    )
    used = subprocess.run(
        [sys.executable, "-c", probe],
        env={**env, "PYTHONPATH": str(target)},
        cwd=target,
        capture_output=True,
        text=True,
        check=False,
    )
    assert used.returncode == 0, used.stderr[-2000:]
    assert used.stdout.strip() == "[]"
