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


@pytest.fixture(autouse=True, scope="session")
def sb3_logs_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Stable-Baselines3's `learn` makes a `SB3-<time>` folder in the system temporary folder
    unless SB3_LOGDIR names one; the suite's training runs keep theirs in pytest's own."""
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SB3_LOGDIR", None)
        else:
            os.environ["SB3_LOGDIR"] = before
