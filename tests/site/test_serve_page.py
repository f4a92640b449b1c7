"""The live page of `arcade-eval serve` in headless Chromium: a person picks values, clicks
Start and watches the run's lines arrive over EventSource (as text, never markup); a bad value
is refused beside the form; no other console error (the page's Content-Security-Policy included)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evaluation.site.build import ASSETS
from tests.evaluation.serve.test_server import Served, make_site, serve
from tests.site.conftest import console_errors


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    root = make_site(tmp_path / "site")
    shutil.copy(ASSETS / "site.css", root / "assets" / "site.css")  # the site's own style
    running = serve(root)
    yield running
    running.stop()


def _wait_text(browser: Any, selector: str, wanted: str, seconds: float = 60) -> str:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    element = browser.find_element(By.CSS_SELECTOR, selector)
    WebDriverWait(browser, seconds).until(lambda _: wanted in element.text)
    return str(element.text)


def test_start_from_the_page_and_watch_the_progress(
    browser: Any, served: Served, screenshot: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(f"http://127.0.0.1:{served.port}/live/")
    form = browser.find_element(By.CSS_SELECTOR, 'form[data-run="script"]')
    count = form.find_element(By.CSS_SELECTOR, '[data-field="count"]')
    count.clear()
    count.send_keys("5000")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    error = _wait_text(browser, 'form[data-run="script"] .form-error', "count must be")
    assert error == "count must be an integer from 0 to 1000"
    assert served.server.runner.jobs() == []
    refused = console_errors(browser)  # Chromium logs the refused request (drained here)
    assert len(refused) == 1 and "/api/runs" in refused[0] and "400" in refused[0]

    Select(form.find_element(By.CSS_SELECTOR, '[data-field="mode"]')).select_by_value("lines")
    count.clear()
    count.send_keys("12")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    state = _wait_text(browser, "#progress-state", "done")
    assert state == "done (exit 0)"
    log = browser.find_element(By.ID, "progress-log")
    assert log.text.splitlines() == [f"line {i} <b>&amp;</b>" for i in range(12)]
    assert log.find_elements(By.TAG_NAME, "b") == []
    assert browser.find_element(By.ID, "progress-count").text == "5 / 5 steps"
    assert "arcade-eval lines 12" in browser.find_element(By.ID, "progress-command").text
    _wait_text(browser, "#runs", "done")
    assert len(served.server.runner.jobs()) == 1
    screenshot(browser, "serve-live-page")
