"""Sudoku test settings: `@pytest.mark.slow` tests (full set regeneration) run only with
ARCADE_SLOW=1, so the default suite stays short."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long test, run with ARCADE_SLOW=1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("ARCADE_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: set ARCADE_SLOW=1 to run")
    for item in items:
        if "slow" in item.keywords and "sudoku" in str(item.fspath):
            item.add_marker(skip)
