"""The distribution installs every package folder, the seeds, and the console script."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import arcade_gym
from arcade_gym.seeds import load_json

ROOT = Path(__file__).resolve().parent.parent
TOP_LEVEL = ("arcade_gym", "policies", "evaluation")


def _package_folders() -> set[str]:
    found = set()
    for top in TOP_LEVEL:
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(ROOT).parts))
    return found


def test_every_package_folder_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    assert _package_folders() | {"arcade_gym.seeds"} == listed


def test_seeds_install_as_arcade_gym_seeds() -> None:
    seeds = load_json("tetris/public-seeds.json")
    assert seeds["ruleset"] == "tetris-bench@3"
    assert seeds["seeds"] == [f"seed-{i:02d}" for i in range(1, 31)]


def test_imports_flow_one_way() -> None:
    """arcade_gym never imports policies or evaluation; policies never imports evaluation."""
    forbidden = {"arcade_gym": ("policies", "evaluation"), "policies": ("evaluation",)}
    for top, banned in forbidden.items():
        for path in (ROOT / top).rglob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                for name in names:
                    assert name.split(".")[0] not in banned, f"{path} imports {name}"


def test_console_script_reports_the_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "evaluation.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert arcade_gym.__version__ in out.stdout
