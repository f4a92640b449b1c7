"""`arcade-eval arena bench` and `arena table` on a small entries folder: results saved per entry
(with match logs that verify), the tier list ranked, `--no-save`, `--file`, other seeds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaluation import cli
from evaluation.benchmarks.ttt_arena.defaults import DEFAULT_SEED
from evaluation.benchmarks.ttt_arena.entries import engine_sha256, load_entry, official_result
from evaluation.core.verify import verify_paths
from tests.evaluation.ttt_arena.test_entries import METADATA, make_entry

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "seeds" / "arena" / "entries"


def tiny_entries(root: Path) -> Path:
    """`floor` (the first-empty engine), `broken` (the shipped broken engine), `idle` (never
    benched here)."""
    make_entry(root, "floor", {**METADATA, "name": "Floor"})
    broken = make_entry(root, "broken", {**METADATA, "name": "Broken"})
    shutil.copy(SHIPPED / "broken" / "engine.bf", broken / "engine.bf")
    make_entry(root, "idle", {**METADATA, "name": "Idle"})
    return root


@pytest.fixture(scope="module")
def benched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tiny_entries(tmp_path_factory.mktemp("entries") / "entries")
    for entry_id in ("floor", "broken"):
        assert cli.main(["ttt-arena", "bench", "--entries", str(root), "--entry", entry_id]) == 0
    return root


def results_of(root: Path, entry_id: str) -> list[Path]:
    return sorted((root / entry_id / "results").glob("*.json"))


def test_bench_saves_a_result_with_every_table_number_and_verifiable_logs_of_every_game(
    benched: Path,
) -> None:
    (saved,) = results_of(benched, "floor")
    assert saved.name.startswith(f"floor-seed{DEFAULT_SEED}-")
    document = json.loads(saved.read_text())
    assert document["entry"] == "floor"
    assert document["engineSha256"] == engine_sha256(benched / "floor" / "engine.bf")
    assert document["seed"] == DEFAULT_SEED and document["suite"] == "v1"
    assert document["grade"] == "F" and document["score"] == 23.4
    assert document["forcedWin5"] == {"passed": 4, "total": 30}
    assert document["forkDefense"] == {"passed": 6, "total": 30}
    assert document["matches"] == {"win": 4, "draw": 0, "loss": 20, "games": 24, "points": 4.0}
    assert document["illegalMoves"] == 0
    assert document["maxInstructions"] >= document["avgInstructions"] > 0
    parts = document["parts"]
    assert sum(p["points"] for p in parts.values()) == pytest.approx(23.4, abs=0.05)
    assert document["report"]["engine"]["slug"] == "entry-floor"
    logs = saved.with_suffix("") / "matches"
    assert len(list(logs.glob("*.jsonl"))) == 24
    assert len(list((saved.with_suffix("") / "positions").glob("*.jsonl"))) == 188
    reports = verify_paths([saved.with_suffix("")])
    assert len(reports) == 188 + 24 and all(r.ok for r in reports)


def test_a_broken_engine_is_graded_with_its_illegal_moves(benched: Path) -> None:
    (saved,) = results_of(benched, "broken")
    document = json.loads(saved.read_text())
    assert document["grade"] == "F" and document["score"] == 0.0
    assert document["illegalMoves"] == 188 + 24
    assert document["matches"]["loss"] == 24
    assert "unparseable output" in document["report"]["illegalMoves"][0]["reason"]


def test_table_ranks_by_score_and_lists_entries_without_a_result_last(
    benched: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert cli.main(["ttt-arena", "table", "--entries", str(benched), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["entry"] for r in rows] == ["floor", "broken", "idle"]
    assert [r["rank"] for r in rows] == [1, 2, None]
    assert rows[0]["score"] == 23.4 and rows[0]["matches"] == {"win": 4, "draw": 0, "loss": 20}
    assert rows[2]["benched"] is False
    assert cli.main(["ttt-arena", "table", "--entries", str(benched)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].split()[:3] == ["Entry", "Grade", "Score"]
    assert text[2].split()[:3] == ["Floor", "F", "23.4"]
    assert "4/30" in text[2] and "4/0/20" in text[2]
    assert text[4].split() == ["Idle", "not", "benched"]


def test_no_save_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tiny_entries(tmp_path / "entries")
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    assert (
        cli.main(["ttt-arena", "bench", "--entries", str(root), "--entry", "broken", "--no-save"])
        == 0
    )
    assert "grade F" in capsys.readouterr().out
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before


def test_a_loose_file_is_benched_and_never_saved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = tmp_path / "mine.bf"
    shutil.copy(SHIPPED / "broken" / "engine.bf", engine)
    assert cli.main(["ttt-arena", "bench", "--file", str(engine)]) == 0
    out = capsys.readouterr().out
    assert "seed 20261009: mine" in out and "grade F" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.bf"]
    assert cli.main(["ttt-arena", "bench", "--file", str(tmp_path / "none.bf")]) == 2
    assert "no Brainfuck file" in capsys.readouterr().err


def test_another_seed_is_saved_but_is_not_the_official_result(tmp_path: Path) -> None:
    root = tiny_entries(tmp_path / "entries")
    args = ["ttt-arena", "bench", "--entries", str(root), "--entry", "broken", "--seed", "7"]
    assert cli.main(args) == 0
    (saved,) = results_of(root, "broken")
    assert saved.name.startswith("broken-seed7-")
    entry = load_entry(root / "broken")
    assert official_result(entry) is None
    assert official_result(entry, seed=7) is not None


def test_bad_entries_stop_bench_and_table_with_the_entry_and_field_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "entries"
    make_entry(root, "ok")
    make_entry(root, "gappy", {k: v for k, v in METADATA.items() if k != "provider"})
    assert cli.main(["ttt-arena", "bench", "--entries", str(root)]) == 2
    assert "entry 'gappy': entry.json: field 'provider' is missing" in capsys.readouterr().err
    assert not (root / "ok" / "results").exists()
    assert cli.main(["ttt-arena", "table", "--entries", str(root)]) == 2
    assert "field 'provider' is missing" in capsys.readouterr().err
    assert cli.main(["ttt-arena", "bench", "--entries", str(root), "--entry", "nope"]) == 2
    assert "no entry 'nope'" in capsys.readouterr().err
    assert cli.main(["ttt-arena", "table", "--entries", str(tmp_path / "absent")]) == 2
    assert "no entries directory" in capsys.readouterr().err


def test_the_arena_run_command_still_works_beside_the_entry_commands(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert cli.main(["ttt-arena", "--policy", "random", "--output-dir", str(out)]) == 0
    assert (out / "report.json").is_file()


def test_an_engine_file_named_like_a_built_in_still_verifies(tmp_path: Path) -> None:
    """`perfect.bf` plays as slug `perfect`, kind `engine`: verify does not take it for the
    Perfect sparring player (whose answers it would re-derive and find different)."""
    from evaluation.benchmarks.ttt_arena.episode import play_arena_game
    from evaluation.benchmarks.ttt_arena.runner import _items
    from evaluation.core.verify import verify_log
    from policies.engines.arena import BrainfuckEngine

    engine = tmp_path / "perfect.bf"
    shutil.copy(REPO / "examples" / "first_empty.bf", engine)
    log = tmp_path / "game.jsonl"
    item = _items(DEFAULT_SEED)[("positions", "fork-5-01")]
    play_arena_game(BrainfuckEngine(engine), item, log, suite_seed=DEFAULT_SEED)
    header = json.loads(log.read_text().splitlines()[0])
    assert header["policy"]["slug"] == "perfect" and header["policy"]["kind"] == "engine"
    report = verify_log(log)
    assert report.ok, report.line()
