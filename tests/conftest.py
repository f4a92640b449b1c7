"""Settings every test shares: `@pytest.mark.slow` tests (whole runs, set regeneration, ladder
runs) are skipped unless ARCADE_SLOW=1 or `-m slow` asks for them, so the default suite stays a
few minutes."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long test; run with ARCADE_SLOW=1 or -m slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("ARCADE_SLOW") == "1" or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: set ARCADE_SLOW=1 (or -m slow) to run")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt during the test, however pytest was started: a shell
    without job control starts background commands with SIGINT ignored, and Python then keeps
    it ignored."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
