"""Browser fixtures for the site tests: headless Debian Chromium through selenium.

`browser` is a Chromium driver (one per test session, its console drained before each test)
that fails the test when a page logged a console error; `screenshot(driver, name)` saves a PNG
under `test-artifacts/screenshots/`. Tests are skipped, with the reason, only when Chromium,
chromedriver or selenium is not installed (`.ci/run` installs them).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import evaluation.benchmarks  # noqa: F401  (registers every benchmark: site hooks, replays)

REPOSITORY = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPOSITORY / "test-artifacts" / "screenshots"


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def _missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install selenium)"
    if _find("chromium", "chromium-browser") is None:
        return "Chromium is not installed (apt-get install chromium)"
    if _find("chromedriver") is None:
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


def console_errors(driver: Any) -> list[str]:
    """The console messages of level SEVERE since the last call (reading drains them)."""
    return [
        str(entry.get("message", entry))
        for entry in driver.get_log("browser")
        if entry.get("level") == "SEVERE"
    ]


def save_screenshot(driver: Any, name: str) -> Path:
    """Save the current page as `test-artifacts/screenshots/<name>.png` (a test artifact)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (re.sub(r"[^A-Za-z0-9._-]+", "_", name) + ".png")
    driver.save_screenshot(str(path))
    return path


def file_url(path: Path) -> str:
    """The `file://` URL of a file of a built site."""
    return path.resolve().as_uri()


@pytest.fixture(scope="session")
def _chromium() -> Iterator[Any]:
    reason = _missing()
    if reason is not None:
        pytest.skip(f"browser tests need headless Chromium: {reason}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _find("chromium", "chromium-browser") or "chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,900",
        "--allow-file-access-from-files",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(_find("chromedriver")), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """A headless Chromium driver; the test fails if any page it opened logged a console error."""
    _chromium.get("about:blank")
    console_errors(_chromium)
    yield _chromium
    errors = console_errors(_chromium)
    if errors:
        pytest.fail("console errors in the browser:\n" + "\n".join(errors))


@pytest.fixture
def screenshot() -> Callable[[Any, str], Path]:
    """`screenshot(driver, name)`: save a PNG of the current page under test-artifacts/."""
    return save_screenshot


@pytest.fixture(scope="session")
def tetris_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small finished Tetris Bench run (heuristic and random, two seeds, IQ and Blitz, 40
    pieces a game) with its leaderboard files, as `arcade-eval tetris` writes it."""
    from evaluation.benchmarks.tetris_bench.cli import make_tetris_brain
    from evaluation.benchmarks.tetris_bench.leaderboard import to_json, to_markdown
    from evaluation.benchmarks.tetris_bench.runner import RunConfig, run_tetris_bench

    config = RunConfig(
        brains=("heuristic", "random"),
        seeds=("seed-01", "seed-02"),
        seed_set="custom",
        modes=("IQ", "Blitz"),
        official=False,
        piece_cap=40,
    )
    output = tmp_path_factory.mktemp("tetris") / "run"
    outcome = run_tetris_bench(config, output, make_tetris_brain, say=lambda _: None)
    assert outcome.leaderboard is not None
    (output / "leaderboard.json").write_text(json.dumps(to_json(outcome.leaderboard), indent=1))
    (output / "leaderboard.md").write_text(to_markdown(outcome.leaderboard))
    return output


@pytest.fixture(scope="session")
def tetris_site(tetris_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from `tetris_run` alone."""
    from evaluation.site.cli import build_site

    output = tmp_path_factory.mktemp("site") / "dist"
    build_site(output, [tetris_run])
    return output


@pytest.fixture(scope="session")
def shipped_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site `arcade-eval site` builds from the shipped results (docs/results/ and the arena
    entries), built once a session: it takes minutes, every shipped log is verified."""
    from evaluation.site.cli import build_site

    output = tmp_path_factory.mktemp("shipped") / "dist"
    build_site(output)
    return output
