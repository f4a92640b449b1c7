"""The package's build backend: setuptools' own, plus numba's cache of every kernel built beside
the sources it copies, so an install from the wheel loads each kernel instead of compiling it on
first use (`policies/build_cache.py` says what is built; the README's "Speed" gives the figures).

Building the cache imports the package, so the runtime dependencies are build requirements too
(read from `pyproject.toml`, never listed twice). `ARCADE_BUILD_KERNEL_CACHE=0` skips the cache
(a wheel meant for another CPU or numba version: numba would recompile there anyway); an editable
install builds none (its kernels compile into the source tree on first use, as always). A build
whose cache fails still installs, and says so.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every PEP 517 hook setuptools offers)
from setuptools.command.build_py import build_py

SKIP_VARIABLE = "ARCADE_BUILD_KERNEL_CACHE"
"""Set to 0 to build the package without numba's kernel cache."""


def _runtime_requirements() -> list[str]:
    """The project's dependencies, as `pyproject.toml` lists them (the hooks run in its folder)."""
    project = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [str(requirement) for requirement in project["dependencies"]]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements and the runtime dependencies the cache build imports."""
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *_runtime_requirements()]


class BuildPyWithKernelCache(build_py):
    """setuptools' `build_py`, then `python -m policies.build_cache` on the copied sources."""

    def run(self) -> None:
        super().run()
        if self.editable_mode or os.environ.get(SKIP_VARIABLE) == "0":
            return
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(PYTHONPATH=os.path.abspath(self.build_lib), PYTHONDONTWRITEBYTECODE="1")
        print("building numba's kernel cache (python -m policies.build_cache)", flush=True)
        built = subprocess.run(
            [sys.executable, "-m", "policies.build_cache"],
            cwd=self.build_lib,
            env=env,
            check=False,
        )
        if built.returncode != 0:
            print(
                f"warning: numba's kernel cache was not fully built (exit {built.returncode}); "
                "the kernels it lacks compile on first use",
                file=sys.stderr,
                flush=True,
            )
