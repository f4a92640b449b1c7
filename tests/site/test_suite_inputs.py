"""Suite run directories are untrusted site inputs: a planted scorecard's markup is shown as text,
a value of the wrong type is n/a (never shown as a number), a part folder outside the suite is
not followed, and a broken scorecard is one line naming the file."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from evaluation.core.rundir import RunDirError
from evaluation.site.build import SiteError
from evaluation.site.cli import build_site
from evaluation.suite.site_inputs import clean_card, is_suite, split_inputs

PAYLOAD = '<script>alert("x")</script>'


def _suite(root: Path, card: Any, *, raw: str | None = None) -> Path:
    root.mkdir(parents=True)
    manifest = {"benchmark": "suite", "settings": {}, "policies": {}, "status": "complete"}
    (root / "manifest.json").write_text(json.dumps(manifest))
    (root / "scorecard.json").write_text(raw if raw is not None else json.dumps(card))
    return root


def _card(**cell: Any) -> dict[str, Any]:
    headline = {"label": PAYLOAD, "value": 12.5, "low95": 10.0, "high95": 15.0, "unit": ""}
    headline["normalised"] = 50.0
    return {
        "budget": "quick",
        "label": "quick sample, not official",
        "benchmarks": [{"name": "tetris-bench", "status": "complete", "directory": "../outside"}],
        "rows": [
            {
                "policy": PAYLOAD,
                "cells": {
                    "tetris-bench": {
                        "status": "ok",
                        "spec": PAYLOAD,
                        "headlines": [{**headline, **cell}],
                        "label": "quick sample, not official",
                    }
                },
            }
        ],
    }


def test_markup_is_text_and_a_wrong_type_is_na(tmp_path: Path) -> None:
    run = _suite(tmp_path / "suite", _card(value="9999", low95=True, normalised=float("nan")))
    suites, parts = split_inputs([run])
    assert len(suites) == 1 and parts == []  # "../outside" is no part folder of the suite
    build_site(tmp_path / "site", [run])
    pages = {p: p.read_text() for p in (tmp_path / "site").rglob("*.html")}
    assert len(pages) >= 3  # home, the suite's index, the policy's page
    for path, html in pages.items():
        assert "<script>alert" not in html, path
        scripts = re.findall(r"<script[^>]*>", html)
        assert all("application/json" in s or "src=" in s for s in scripts), path
    home = pages[tmp_path / "site" / "index.html"]
    assert "&lt;script&gt;alert" in home
    cell = re.search(r'<div class="suite-cell".*?</div>', home, re.S)
    assert cell is not None
    assert '<span class="value">n/a</span>' in cell.group(0)  # "9999" is not a number
    assert '<span class="interval">n/a</span>' in cell.group(0)  # low95 true: none
    assert "norm n/a" in cell.group(0)


def test_clean_card_keeps_only_checked_fields() -> None:
    card = clean_card({"rows": "no", "benchmarks": [1, {"name": ["x"]}, {"name": "b"}]})
    assert [b["name"] for b in card["benchmarks"]] == ["b"] and card["rows"] == []
    assert clean_card(None)["label"] == "unlabelled"
    long = clean_card(_card(label="L" * 10_000))["rows"][0]["cells"]["tetris-bench"]
    assert len(long["headlines"][0]["label"]) <= 80


def test_a_part_folder_linked_out_of_the_suite_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "manifest.json").write_text(json.dumps({"benchmark": "tetris-bench"}))
    card = _card()
    card["benchmarks"][0]["directory"] = "tetris-bench"
    run = _suite(tmp_path / "suite", card)
    (run / "tetris-bench").symlink_to(outside, target_is_directory=True)
    with pytest.raises(RunDirError, match="tetris-bench"):
        build_site(tmp_path / "site", [run])


def test_a_broken_scorecard_is_one_line(tmp_path: Path) -> None:
    run = _suite(tmp_path / "suite", None, raw="[" * 100_000)
    with pytest.raises(SiteError, match=r"scorecard\.json") as error:
        build_site(tmp_path / "site", [run])
    assert "\n" not in str(error.value)


def test_a_suite_without_its_scorecard_is_no_suite(tmp_path: Path) -> None:
    run = _suite(tmp_path / "suite", {})
    (run / "scorecard.json").unlink()
    assert not is_suite(run)
    with pytest.raises(SiteError, match="no benchmark builds pages"):
        build_site(tmp_path / "site", [run])


def test_several_suites_get_a_folder_each(tmp_path: Path) -> None:
    card = _card()
    card["rows"].append({"policy": "other", "cells": card["rows"][0]["cells"]})
    first = _suite(tmp_path / "a" / "suite", card)
    second = _suite(tmp_path / "b" / "suite", card)  # the same folder name: a second key
    build_site(tmp_path / "site", [first, second])
    site = tmp_path / "site" / "suite"
    folders = sorted(p.name for p in site.iterdir() if p.is_dir())
    assert len(folders) == 2 and folders[0] == "suite"
    for folder in folders:
        assert (site / folder / "scorecard.json").is_file()
        assert len(list((site / folder / "policies").glob("*.html"))) == 2
        assert len(list((site / folder / "compare").glob("*.html"))) == 1
    home = (tmp_path / "site" / "index.html").read_text()
    assert home.count('<table id="suite-matrix-') == 2


def test_long_policy_names_give_safe_page_names(tmp_path: Path) -> None:
    card = _card()
    cells = card["rows"][0]["cells"]
    card["rows"] = [{"policy": f"llm:{c * 200}", "cells": cells} for c in "ab"]
    build_site(tmp_path / "site", [_suite(tmp_path / "suite", card)])
    pages = sorted((tmp_path / "site" / "suite").rglob("*.html"))
    assert len(pages) == 1 + 2 + 1  # the index, two policies, one comparison
    assert all(len(p.name) <= 85 for p in pages)
