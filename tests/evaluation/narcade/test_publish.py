"""NARCADE publication and paired comparison from result files (both result formats)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.narcade.publish import PublishError, compare, format_comparison, publish
from evaluation.benchmarks.narcade.results import read_json
from tests.evaluation.narcade.conftest import GAMES


def _results(out: Path) -> list[Path]:
    return sorted((out / "results").glob("*/*.json"))


def _edited(src: Path, dest: Path, edit: Any) -> Path:
    data = read_json(src)
    edit(data)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(data))
    return dest


def test_publish_builds_one_entry_per_model_and_game(run_dir: Path, tmp_path: Path) -> None:
    pub = publish(_results(run_dir), "Run 001", tmp_path / "pub.json")
    assert read_json(tmp_path / "pub.json") == pub
    assert set(pub["games"]) == set(GAMES)
    for game in GAMES:
        block = pub["games"][game]
        assert block["seeds"] == [100, 101] and len(block["entries"]) == 2
        assert block["entries"][0]["model"] == "heuristic"  # sorted by mean score
        assert block["entries"][0]["hardware"] == "test-box"
        assert block["entries"][0]["source"] == f"heuristic/{game}.json"


def test_publish_reads_result_files_of_the_first_format(run_dir: Path, tmp_path: Path) -> None:
    def first_format(d: dict[str, Any]) -> None:
        d["format"] = "narcade-result@1"
        for episode in d["episodes"]:
            del episode["log"]

    old = [
        _edited(path, tmp_path / "v1" / f"{path.parent.name}-{path.name}", first_format)
        for path in _results(run_dir)
    ]
    from_v1 = publish(old, "v1", tmp_path / "v1.json")["games"]
    from_v2 = publish(_results(run_dir), "v2", tmp_path / "v2.json")["games"]
    for game in GAMES:
        means = [(e["model"], e["meanScore"], e["episodes"]) for e in from_v1[game]["entries"]]
        assert means == [
            (e["model"], e["meanScore"], e["episodes"]) for e in from_v2[game]["entries"]
        ]


def test_publish_refuses_each_forbidden_mix(run_dir: Path, tmp_path: Path) -> None:
    src = run_dir / "results" / "heuristic" / "snake.json"
    others = [p for p in _results(run_dir) if p != src]

    def failed(d: dict[str, Any]) -> None:
        d["status"], d["error"] = "failed", "5 consecutive timeouts"

    def protocol(d: dict[str, Any]) -> None:
        d["versions"]["protocol"] = "other-protocol@9"

    def seeds(d: dict[str, Any]) -> None:
        d["episodes"][1]["seed"] = 555

    def unknown(d: dict[str, Any]) -> None:
        d["format"] = "narcade-result@9"

    cases = [
        ([_edited(src, tmp_path / "f" / "snake.json", failed), *others], "only completed runs"),
        ([src, src, *others], "duplicate entry"),
        ([_edited(src, tmp_path / "p" / "snake.json", protocol), *others], "mixed observation"),
        ([_edited(src, tmp_path / "s" / "snake.json", seeds), *others], "mixed seeds"),
        ([_edited(src, tmp_path / "u" / "snake.json", unknown), *others], "not a NARCADE result"),
    ]
    for paths, needle in cases:
        with pytest.raises(PublishError, match=needle):
            publish(paths, "bad", tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


def test_compare_reports_paired_differences_and_changes(run_dir: Path, tmp_path: Path) -> None:
    old = publish(_results(run_dir), "old", tmp_path / "old.json")
    new_dir = tmp_path / "new"

    def bump(d: dict[str, Any]) -> None:
        d["versions"]["protocol"] = "arcade-narcade-obs@2"  # a protocol change is allowed
        for k, episode in enumerate(d["episodes"]):
            episode["score"] += 10 * (k + 1)

    for path in _results(run_dir):
        _edited(path, new_dir / path.parent.name / path.name, bump)
    pub = publish(
        sorted(new_dir.glob("*/*.json")),
        "new",
        tmp_path / "new.json",
        compare_with=tmp_path / "old.json",
    )
    comparison = pub["comparison"]
    assert comparison["against"] == "old"
    snake = comparison["games"]["snake"]
    assert snake["protocol"]["new"] == "arcade-narcade-obs@2"
    row = snake["models"]["heuristic"]
    old_scores = [e["score"] for e in old["games"]["snake"]["entries"][0]["episodes"]]
    assert [p["difference"] for p in row["pairs"]] == [10, 20]
    assert [p["old"] for p in row["pairs"]] == old_scores
    assert row["meanChange"] == pytest.approx(15.0)
    assert row["percentChange"] == pytest.approx(15.0 / (sum(old_scores) / 2) * 100)
    tetris_random = comparison["games"]["tetris"]["models"]["random"]
    assert tetris_random["oldMean"] == 0 and tetris_random["percentChange"] is None
    assert "heuristic" in format_comparison(comparison)


def test_compare_refuses_changed_revisions_hardware_rules_or_seeds(
    run_dir: Path, tmp_path: Path
) -> None:
    base = publish(_results(run_dir), "base", tmp_path / "base.json")

    def revision(p: dict[str, Any]) -> None:
        p["games"]["snake"]["entries"][0]["revision"] = "adapter-2"

    def hardware(p: dict[str, Any]) -> None:
        p["games"]["tetris"]["entries"][1]["hardware"] = "a100"

    def rules(p: dict[str, Any]) -> None:
        p["versions"]["rules"] = "0.5.0"

    def seeds(p: dict[str, Any]) -> None:
        p["games"]["minesweeper"]["seeds"] = [200, 201]

    for edit, needle in (
        (revision, "revision changed"),
        (hardware, "hardware changed"),
        (rules, "rules version changed"),
        (seeds, "seeds changed"),
    ):
        changed = copy.deepcopy(base)
        edit(changed)
        with pytest.raises(PublishError, match=needle):
            compare(changed, base)


def test_compare_refuses_an_llm_whose_model_behind_the_slug_changed(
    run_dir: Path, tmp_path: Path
) -> None:
    def as_llm(model_id: str) -> Any:
        def edit(d: dict[str, Any]) -> None:
            d["model"]["runIdentity"] = {
                "slug": "mine",
                "modelId": model_id,
                "baseUrlHost": "openrouter.ai",
                "temperature": 0.0,
            }

        return edit

    src = run_dir / "results" / "heuristic" / "snake.json"
    old = publish(
        [_edited(src, tmp_path / "a" / "snake.json", as_llm("org/m-1"))], "a", tmp_path / "a.json"
    )
    assert old["games"]["snake"]["entries"][0]["runIdentity"]["modelId"] == "org/m-1"
    same = publish(
        [_edited(src, tmp_path / "b" / "snake.json", as_llm("org/m-1"))], "b", tmp_path / "b.json"
    )
    assert compare(same, old)["games"]["snake"]["models"]["heuristic"]["meanChange"] == 0
    other = publish(
        [_edited(src, tmp_path / "c" / "snake.json", as_llm("org/m-2"))], "c", tmp_path / "c.json"
    )
    with pytest.raises(
        PublishError, match=r"model behind it changed \(modelId: 'org/m-1' -> 'org/m-2'\)"
    ):
        compare(other, old)
