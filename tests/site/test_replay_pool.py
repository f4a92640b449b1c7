"""Replays exported ahead on a pool of processes (`SiteBuild.prepare_replays`) make the same pages
as replays exported in-process, whatever the number of workers; a log that does not verify is
still refused at its `replay` call, with the same error."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaluation.core import registry
from evaluation.core.replay_export import UnverifiedLogError
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.cli import RESULTS, build_site
from evaluation.site.html import Markup
from tests.site.tamper import flip_one_answer

SHIPPED = [  # short games of every benchmark that ships logs (and the arena entries' games)
    RESULTS / "narcade/reference-lockstep/logs/random/snake/100.jsonl",
    RESULTS / "narcade/reference-lockstep/logs/heuristic/minesweeper/100.jsonl",
    RESULTS / "sudoku/builtins/logs/singles/v1-t1-1.jsonl",
    RESULTS / "chess-ladder/material-2ply/logs/material-2ply/chess960/stockfish-1350/game-0.jsonl",
    RESULTS / "tetris-bench/logs/random/IQ/seed-01.jsonl.xz",
]
VIEWERS = {"narcade": None, "sudoku": "sudoku", "chess-ladder": "chess", "tetris-bench": "tetris"}


def _viewer(log: Path) -> str:
    part = log.relative_to(RESULTS).parts
    return VIEWERS[part[0]] or part[-2]  # a NARCADE log's folder names its game


def _logs(tetris_run: Path) -> list[Path]:
    return sorted((tetris_run / "logs").rglob("*.jsonl")) + [p for p in SHIPPED if p.is_file()]


def _pages(out: Path, logs: list[Path], workers: int, *, prepare: bool) -> dict[str, bytes]:
    build = SiteBuild(out, workers=workers, version="test")
    build.section("demo", "Demo", Markup("<p>demo</p>"))
    if prepare:
        build.prepare_replays(logs)
    for index, log in enumerate(logs):
        viewer = _viewer(log) if log.is_relative_to(RESULTS) else "tetris"
        build.replay(f"demo/r{index}.html", log.name, log, viewer, data={"n": index})
    build.close()
    return build.files()


def test_prepared_replays_make_the_same_pages_as_in_process_ones(
    tetris_run: Path, tmp_path: Path
) -> None:
    logs = _logs(tetris_run)
    assert len(logs) >= 10
    alone = _pages(tmp_path / "a", logs, 1, prepare=True)  # one worker: nothing ahead
    pooled = _pages(tmp_path / "b", logs, 2, prepare=True)
    unprepared = _pages(tmp_path / "c", logs, 2, prepare=False)
    assert alone.keys() == pooled.keys() == unprepared.keys()
    assert [path for path in alone if alone[path] != pooled[path]] == []
    assert [path for path in alone if alone[path] != unprepared[path]] == []


def test_the_command_builds_the_same_site_with_one_or_two_workers(
    tetris_run: Path, tmp_path: Path
) -> None:
    def files(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()
        }

    build_site(tmp_path / "one", [tetris_run], workers=1)
    build_site(tmp_path / "two", [tetris_run], workers=2)
    assert files(tmp_path / "one") == files(tmp_path / "two")


def _refusal(build: SiteBuild, log: Path) -> SiteError:
    with pytest.raises(SiteError) as caught:
        build.replay("demo/bad.html", "Bad", log, "tetris")
    return caught.value


def test_a_log_that_does_not_verify_is_refused_at_its_replay_call(
    tetris_run: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    shutil.copytree(tetris_run, run)
    bad = run / "logs" / "heuristic" / "IQ" / "seed-01.jsonl"
    good = run / "logs" / "heuristic" / "IQ" / "seed-02.jsonl"
    flip_one_answer(bad)
    unreadable = run / "logs" / "junk.jsonl"
    unreadable.write_text("not an event log\n")
    errors = {}
    for workers in (1, 2):
        build = SiteBuild(tmp_path / f"out{workers}", workers=workers)
        build.section("demo", "Demo", Markup("<p>demo</p>"))
        build.prepare_replays([bad, good, unreadable])
        assert build.page_count == 0  # preparing adds no page and raises nothing
        errors[workers] = [_refusal(build, bad), _refusal(build, unreadable)]
        build.replay("demo/good.html", "Good", good, "tetris")
        assert build.page_count == 1
        build.close()
    for one, two in zip(errors[1], errors[2], strict=True):
        assert str(one) == str(two) and "cannot replay" in str(two)
        assert isinstance(two.__cause__, UnverifiedLogError)
        assert str(one.__cause__) == str(two.__cause__)
    assert "does not verify" in str(errors[2][0])


def test_a_log_changed_after_it_was_prepared_is_replayed_as_it_is_now(
    tetris_run: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    shutil.copytree(tetris_run, run)
    logs = sorted((run / "logs").rglob("*.jsonl"))
    build = SiteBuild(tmp_path / "out", workers=2)
    build.section("demo", "Demo", Markup("<p>demo</p>"))
    build.prepare_replays(logs)
    changed = run / "logs" / "heuristic" / "IQ" / "seed-01.jsonl"
    flip_one_answer(changed)
    assert "does not verify" in str(_refusal(build, changed))
    build.close()


def test_a_registry_that_does_not_pickle_leaves_every_replay_in_process(
    tetris_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = sorted((tetris_run / "logs").rglob("*.jsonl"))
    expected = _pages(tmp_path / "a", logs, 1, prepare=False)
    monkeypatch.setattr(registry, "registrations", lambda: (lambda: None,))
    build = SiteBuild(tmp_path / "b", workers=2)
    build.prepare_replays(logs)
    assert build._prepared == {}  # nothing prepared: each `replay` exports in-process
    build.close()
    assert _pages(tmp_path / "c", logs, 2, prepare=True) == expected


def test_narcade_lists_a_log_refused_in_a_worker_as_refused(tmp_path: Path) -> None:
    from evaluation.benchmarks.narcade.site import add_pages

    source = RESULTS / "narcade" / "reference-lockstep"
    if not source.is_dir():
        pytest.skip("no shipped NARCADE run in this checkout")
    run = tmp_path / "run"
    shutil.copytree(source, run)
    log = run / "logs" / "heuristic" / "snake" / "101.jsonl"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    lines[4]["verdict"]["action"] = "nowhere"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    pages = {}
    for workers in (1, 2):
        build = SiteBuild(tmp_path / f"dist{workers}", inputs=[str(run)], workers=workers)
        assert add_pages([run], build) == [run]
        build.close()
        pages[workers] = build.files()
        index = pages[workers]["narcade/index.html"].decode("utf-8")
        assert "Refused logs" in index and "logs/heuristic/snake/101.jsonl" in index
    assert pages[1] == pages[2]


def test_jobs_option_takes_a_worker_count_and_refuses_zero(
    tetris_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evaluation import cli

    assert (
        cli.main(["site", "--quiet", "--jobs", "1", "-o", str(tmp_path / "a"), str(tetris_run)])
        == 0
    )
    with pytest.raises(SystemExit) as stopped:
        cli.main(["site", "--jobs", "0", "-o", str(tmp_path / "b"), str(tetris_run)])
    assert stopped.value.code == 2
    assert "--jobs" in capsys.readouterr().err and not (tmp_path / "b").exists()
