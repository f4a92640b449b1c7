"""Saved arena results are evidence, not claims (`evaluation/benchmarks/ttt_arena/evidence.py`): the
tier list ranks a result only when its logs replay, re-compute it and are its engine's play; a
planted, malformed or stale result is listed as unverified with the reason, in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaluation import cli
from evaluation.benchmarks.ttt_arena.entries import load_entries, load_entry
from evaluation.benchmarks.ttt_arena.evidence import verified_results
from evaluation.benchmarks.ttt_arena.tier_list import tier_rows

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "seeds" / "arena" / "entries"
OFFICIAL = {"tactician": (82.9, "B"), "first-empty": (23.4, "F"), "broken": (0.0, "F")}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of the shipped first-empty entry (its result and all 212 logs)."""
    entries = tmp_path / "entries"
    shutil.copytree(SHIPPED / "first-empty", entries / "first-empty")
    return entries


def result_of(root: Path, entry_id: str = "first-empty") -> Path:
    (path,) = sorted((root / entry_id / "results").glob("*.json"))
    return path


PLANTED = "first-empty-seed20261009-29991231T000000Z"


def plant(root: Path, change: dict[str, Any], name: str = PLANTED) -> Path:
    """A copy of the real result (and its logs) under a newer name, with `change` applied."""
    real = result_of(root)
    data = json.loads(real.read_text())
    data.update(change, logs=name, benchedAt="2999-12-31T00:00:00Z")
    planted = real.with_name(f"{name}.json")
    planted.write_text(json.dumps(data))
    shutil.copytree(real.with_suffix(""), planted.with_suffix(""))
    return planted


def table(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(["ttt-arena", "table", "--entries", str(root), *extra])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_shipped_entries_verify_from_their_logs() -> None:
    for entry in load_entries(SHIPPED):
        checked = verified_results(entry)
        assert checked.unverified == [], entry.id
        official = checked.official
        assert official is not None, entry.id
        assert (official["score"], official["grade"]) == OFFICIAL[entry.id]
        logs = result_of(SHIPPED, entry.id).with_suffix("")
        assert len(list((logs / "positions").glob("*.jsonl"))) == 188
        assert len(list((logs / "matches").glob("*.jsonl"))) == 24


def test_a_planted_score_of_99_9_is_unverified_and_never_ranked(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    planted = plant(root, {"score": 99.9, "grade": "S+"})
    checked = verified_results(load_entry(root / "first-empty"))
    assert checked.official is not None and checked.official["score"] == 23.4
    (bad,) = checked.unverified
    assert bad.file == planted.name
    assert "score 99.9 is recorded, its logs give 23.4" in bad.reason
    status, out, err = table(root, capsys)
    assert status == 0 and err == ""
    assert "99.9" not in out.split("Unverified")[0]
    assert f"first-empty/results/{planted.name}: score 99.9 is recorded" in out
    (row,) = json.loads(table(root, capsys, "--json")[1])
    assert row["rank"] == 1 and row["score"] == 23.4
    assert row["unverified"][0]["result"] == planted.name


def test_an_entry_whose_only_result_is_planted_is_listed_unranked(root: Path) -> None:
    real = result_of(root)
    plant(root, {"score": 99.9})
    real.unlink()
    shutil.rmtree(real.with_suffix(""))
    (row,) = tier_rows(load_entries(root))
    assert row["benched"] is False and row["rank"] is None and "score" not in row
    assert "its logs give 23.4" in row["unverified"][0]["reason"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"score": "high"}, "field 'score' must be a number, got 'high'"),
        ({"score": float("inf")}, "field 'score' must be a finite number"),
        ({"seed": "20261009"}, "field 'seed' must be a JSON integer"),
        ({"matches": [1, 2]}, "field 'matches' must be a JSON object"),
        ({"report": None}, "field 'report' must be a JSON object"),
        ({"resultVersion": 99}, "resultVersion must be 1"),
        ({"benchedAt": "yesterday"}, "field 'benchedAt' must be a UTC time"),
    ],
)
def test_a_malformed_result_gives_one_line_never_a_traceback(
    root: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], reason: str
) -> None:
    planted = result_of(root).with_name("odd.json")
    data = {**json.loads(result_of(root).read_text()), **change}
    planted.write_text(json.dumps(data))
    status, out, err = table(root, capsys)
    assert status == 0 and err == "" and "Traceback" not in out
    (line,) = [line for line in out.splitlines() if "odd.json" in line]
    assert reason in line


def test_deeply_nested_or_non_json_results_give_one_line(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = root / "first-empty" / "results"
    (results / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (results / "text.json").write_text("{score: 99.9")
    (results / "list.json").write_text("[99.9]")
    status, out, err = table(root, capsys)
    assert status == 0 and err == ""
    lines = {line.split(": ", 1)[0].strip(): line for line in out.splitlines() if ".json:" in line}
    assert "nested deeper" in lines["first-empty/results/deep.json"]
    assert "not a readable JSON document" in lines["first-empty/results/text.json"]
    assert "not a JSON object" in lines["first-empty/results/list.json"]
    assert "23.4" in out  # the real result is still ranked


def test_a_changed_engine_makes_its_results_stale(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = root / "first-empty" / "engine.bf"
    engine.write_bytes(engine.read_bytes() + b"\n")  # a comment: the same play, another program
    (row,) = tier_rows(load_entries(root))
    assert row["benched"] is False and row["stale"] is True
    assert row["unverified"][0]["stale"] is True
    assert "stale: first-empty/engine.bf has changed" in row["unverified"][0]["reason"]
    assert "arena bench --entry first-empty" in row["unverified"][0]["reason"]
    status, out, _ = table(root, capsys)
    assert status == 0 and "stale: engine.bf changed, re-bench" in out.splitlines()[2]
    status, out, _ = table(root, capsys, "--json")
    assert status == 0 and json.loads(out)[0]["stale"] is True
    # the site's tier list (page and JSON) marks it too
    from evaluation.site.cli import build_site

    build_site(root.parent / "dist", [root])
    listed = json.loads((root.parent / "dist" / "arena" / "tier-list.json").read_text())
    assert listed["rows"][0]["stale"] is True
    html = (root.parent / "dist" / "arena" / "index.html").read_text()
    assert "stale: engine.bf changed, re-bench" in html


def test_a_result_benched_on_this_engine_is_not_stale(root: Path) -> None:
    (row,) = tier_rows(load_entries(root))
    assert row["benched"] is True and row["stale"] is False
    planted = plant(root, {"score": 99.9})
    (row,) = tier_rows(load_entries(root))
    assert row["stale"] is False  # a planted result is unverified, not stale
    assert any(u["result"] == planted.name and not u["stale"] for u in row["unverified"])


def test_a_missing_position_log_leaves_the_result_unverified(root: Path) -> None:
    logs = result_of(root).with_suffix("")
    (logs / "positions" / "fork-5-03.jsonl").unlink()
    (bad,) = verified_results(load_entry(root / "first-empty")).unverified
    assert bad.reason == "the log positions/fork-5-03.jsonl is missing"


def test_an_extra_log_leaves_the_result_unverified(root: Path) -> None:
    logs = result_of(root).with_suffix("")
    shutil.copy(logs / "matches" / "match-3-01.jsonl", logs / "matches" / "match-3-99.jsonl")
    (bad,) = verified_results(load_entry(root / "first-empty")).unverified
    assert "matches/match-3-99 is not a log of the suite" in bad.reason


def test_an_answer_the_engine_does_not_give_is_caught_even_when_it_means_the_same_move(
    root: Path,
) -> None:
    """The recorded text `0 0` becomes ` 0 0`: the same move, the same verdicts and numbers,
    so only re-running engine.bf shows the log is not its play."""
    log = result_of(root).with_suffix("") / "positions" / "legality-3-01.jsonl"
    header, decision, last = log.read_text().splitlines()
    event = json.loads(decision)
    output = event["call"]["answer"]["output"]
    event["call"]["answer"]["output"] = " " + output
    log.write_text("\n".join([header, json.dumps(event, separators=(",", ":")), last]) + "\n")
    from evaluation.core.verify import verify_log

    assert verify_log(log).ok  # the log alone replays
    (bad,) = verified_results(load_entry(root / "first-empty")).unverified
    assert "legality-3-01.jsonl, decision 0: the recorded answer is not the one engine.bf" in (
        bad.reason
    )


def test_logs_played_by_another_engine_are_not_this_entrys(root: Path) -> None:
    """The broken entry's own logs, relabelled as first-empty's result, are refused."""
    shutil.copytree(SHIPPED / "broken", root / "broken")
    mine = result_of(root).with_suffix("")
    theirs = result_of(root, "broken").with_suffix("")
    shutil.rmtree(mine / "positions")
    shutil.copytree(theirs / "positions", mine / "positions")
    (bad,) = verified_results(load_entry(root / "first-empty")).unverified
    assert "was not played by this entry's engine" in bad.reason


# --- links leaving the entries folder -----------------------------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.bf").write_text("SECRET +++.")
    return folder


@pytest.mark.parametrize("what", ["engine.bf", "entry.json", "results", "source", "folder"])
def test_a_link_leaving_the_entries_folder_is_refused_naming_it(
    root: Path, outside: Path, capsys: pytest.CaptureFixture[str], what: str
) -> None:
    entry = root / "first-empty"
    if what == "folder":
        target = outside / "first-empty"
        shutil.move(entry, target)
        link = root / "linked"
        link.symlink_to(target, target_is_directory=True)
    else:
        link = entry / what
        target = outside / what
        if what == "source":
            (target / "notes").mkdir(parents=True)
        else:
            shutil.move(link, target)
        link.symlink_to(target, target_is_directory=target.is_dir())
    status, out, err = table(root, capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"{link} is a symbolic link to {target}" in err
    bench = ["ttt-arena", "bench", "--entries", str(root), "--no-save"]
    assert cli.main(bench) == 2
    assert f"{link} is a symbolic link" in capsys.readouterr().err


def test_a_linked_engine_is_never_embedded_in_the_site(root: Path, outside: Path) -> None:
    from evaluation.site.build import SiteError
    from evaluation.site.cli import build_site

    engine = root / "first-empty" / "engine.bf"
    engine.unlink()
    engine.symlink_to(outside / "secret.bf")
    with pytest.raises(SiteError, match="is a symbolic link") as refused:
        build_site(root.parent / "dist", [root])
    assert "SECRET" not in str(refused.value)
    assert not any(
        "SECRET" in p.read_text(errors="replace") for p in (root.parent / "dist").rglob("*.*")
    )


def test_a_link_inside_the_entries_folder_is_followed(root: Path) -> None:
    shutil.copytree(root / "first-empty", root / "twin")
    (root / "twin" / "engine.bf").unlink()
    (root / "twin" / "engine.bf").symlink_to(root / "first-empty" / "engine.bf")
    assert [e.id for e in load_entries(root)] == ["first-empty", "twin"]


def test_a_linked_log_is_not_read(root: Path, outside: Path) -> None:
    log = result_of(root).with_suffix("") / "matches" / "match-3-01.jsonl"
    shutil.move(log, outside / "match.jsonl")
    log.symlink_to(outside / "match.jsonl")
    (bad,) = verified_results(load_entry(root / "first-empty")).unverified
    assert "match-3-01.jsonl is a symbolic link to" in bad.reason
