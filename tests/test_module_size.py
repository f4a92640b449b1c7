"""No module of the three packages is longer than 500 lines, numba kernel files excepted.

A long module mixes concerns (issue 21, item 5): split it by idea instead. A kernel file is one
where most top-level functions are `@njit`: numba compiles each kernel as a whole and kernels call
each other, so they stay together. Kernel files are found from the source (`ast`), never listed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("arcade_gym", "policies", "evaluation")
MAX_LINES = 500


def _is_njit(decorator: ast.expr) -> bool:
    """`@njit`, `@numba.njit`, `@njit(...)` or `@numba.njit(...)`."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Name):
        return target.id == "njit"
    return isinstance(target, ast.Attribute) and target.attr == "njit"


def is_kernel_file(source: str) -> bool:
    """Whether most (more than half) of the module's top-level functions are `@njit`."""
    functions = [
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    kernels = [f for f in functions if any(_is_njit(d) for d in f.decorator_list)]
    return 2 * len(kernels) > len(functions)


def _modules() -> list[Path]:
    return sorted(p for top in PACKAGES for p in (ROOT / top).rglob("*.py"))


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_outside_kernel_files_is_longer_than_500_lines() -> None:
    long = []
    for path in _modules():
        name = path.relative_to(ROOT).as_posix()
        lines = _lines(path)
        if lines <= MAX_LINES:
            continue
        if not is_kernel_file(path.read_text(encoding="utf-8")):
            long.append(f"{name} ({lines} lines)")
    assert not long, f"modules longer than {MAX_LINES} lines, split them by concern: " + ", ".join(
        long
    )


def test_the_scan_sees_the_three_packages_and_their_kernel_files() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _modules()}
    assert {"arcade_gym/tetris/engine.py", "evaluation/core/grid.py"} <= names
    engine = (ROOT / "arcade_gym/tetris/engine.py").read_text(encoding="utf-8")
    assert is_kernel_file(engine)
    assert not is_kernel_file((ROOT / "evaluation/core/grid.py").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("source", "kernel"),
    [
        ("@njit\ndef a(): pass\n@numba.njit(cache=True)\ndef b(): pass\ndef c(): pass\n", True),
        ("@njit(cache=True)\ndef a(): pass\ndef b(): pass\n", False),
        ("import numba\n@numba.jit\ndef a(): pass\n", False),
        ("class K:\n    @njit\n    def a(self): pass\n", False),
        ("X = 1\n", False),
    ],
)
def test_a_kernel_file_is_one_whose_top_level_functions_are_mostly_njit(
    source: str, kernel: bool
) -> None:
    assert is_kernel_file(source) is kernel
