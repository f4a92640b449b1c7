"""Repeated sampling (`--repeats K`, `evaluation/core/repeats.py`) through `arcade-eval` against
a model on 127.0.0.1 (`tests/evaluation/model_server.py`) whose reply depends on the request's
`seed`: K games per game, the repeat in every header, distinct seeds, the mean over repeats with
an interval that widens when repeats disagree, resume, verify, and the refusals."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arcade_gym.sudoku.generator import solve_all
from arcade_gym.sudoku.rules import grid_text, parse_puzzle
from evaluation import cli
from evaluation.core.eventlog import read_log
from evaluation.core.verify import verify_paths
from tests.evaluation.model_server import Endpoint, endpoint, reply_for

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def model() -> Iterator[Endpoint]:
    with endpoint() as live:
        yield live


def solves_on_odd_seeds(prompt: str, body: dict[str, Any]) -> str | None:
    """Repeat 1 (seed 1) solves every Sudoku grid; any other seed, or none, copies it back."""
    if body.get("seed") != 1 or not prompt.startswith("Puzzle (. = empty cell):"):
        return None
    rows = prompt.splitlines()[1:10]
    (solution,), _ = solve_all(parse_puzzle("".join(rows)), 1)
    text = grid_text(solution)
    return json.dumps({"grid": [text[i : i + 9] for i in range(0, 81, 9)], "confidence": 90})


def _sudoku(model: Endpoint, tmp_path: Path, out: Path, *more: str) -> int:
    models = model.models_file(tmp_path, temperature=0.7)
    argv = ["sudoku", "--policy", "llm:mock", "--tiers", "1", "--models-file", str(models)]
    return cli.main([*argv, "--quiet", "--output-dir", str(out), *more])


def _grid_requests(model: Endpoint) -> list[dict[str, Any]]:
    """The request bodies that asked for a Sudoku grid (not the pre-flight)."""
    return [
        body
        for body in model.state.bodies
        if str(body["messages"][-1]["content"]).startswith("Puzzle (. = empty cell):")
    ]


def _logs(out: Path) -> list[Path]:
    return sorted((out / "logs").rglob("*.jsonl"))


def test_sudoku_plays_each_grid_twice_with_distinct_seeds_and_reports_the_spread(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model.state.answer = solves_on_odd_seeds
    once, twice = tmp_path / "once", tmp_path / "twice"
    assert _sudoku(model, tmp_path, once) == 0
    first = _grid_requests(model)
    assert len(first) == 6 and all("seed" not in body for body in first)  # as before
    assert _sudoku(model, tmp_path, twice, "--repeats", "2") == 0
    second = _grid_requests(model)[6:]
    assert len(second) == 12
    seeds = [body["seed"] for body in second]
    assert seeds.count(1) == seeds.count(2) == 6
    assert all(body["temperature"] == 0.7 for body in model.state.bodies)  # the registry's

    logs = _logs(twice)
    assert len(logs) == 2 * len(_logs(once)) == 12
    for log in logs:
        header = read_log(log).header
        assert header["repeat"] == {"index": int(log.stem[1:]), "of": 2}
    assert "repeat" not in read_log(_logs(once)[0]).header
    assert all(report.ok for report in verify_paths([twice])), "every log verifies"
    assert cli.main(["verify", str(twice)]) == 0
    manifest = json.loads((twice / "manifest.json").read_text())
    assert manifest["settings"]["repeats"] == 2 and manifest["games"] == 12
    assert "repeats" not in json.loads((once / "manifest.json").read_text())["settings"]

    (alone,) = json.loads((once / "report.json").read_text())["policies"]
    (row,) = json.loads((twice / "report.json").read_text())["policies"]
    block = row["repeats"]
    assert block["perRepeat"] == [100.0, 0.0] and block["repeats"] == 2
    assert row["score"] == block["mean"] == 50.0
    assert row["ci95"] == block["ci95"]
    assert block["withinSd"] > 0 and block["betweenSd"] == 0.0
    width = row["ci95"][1] - row["ci95"][0]
    assert width > alone["ci95"][1] - alone["ci95"][0] > 0
    text = (twice / "report.md").read_text()
    assert "mock: mean over 2 repeats 50.00" in text and "per repeat 100.00, 0.00" in text


def test_a_killed_repeated_run_resumes_without_playing_anything_twice(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    model.kill_after(7)  # dies during the fourth grid's repeats
    assert _sudoku(model, tmp_path, out, "--repeats", "2", "--max-consecutive-aborts", "1") != 0
    kept = {log.relative_to(out): log.read_bytes() for log in _logs(out)}
    assert 0 < len(kept) < 12
    model.revive()
    grids = len(_grid_requests(model))
    assert _sudoku(model, tmp_path, out, "--repeats", "2") == 0
    assert len(_grid_requests(model)) - grids == 12 - len(kept)  # none played twice
    for path, data in kept.items():
        assert (out / path).read_bytes() == data
    assert len(_logs(out)) == 12
    assert all(report.ok for report in verify_paths([out]))


def test_a_resume_with_another_repeat_count_is_refused_in_one_line(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert _sudoku(model, tmp_path, out, "--repeats", "2") == 0
    capsys.readouterr()
    assert _sudoku(model, tmp_path, out, "--repeats", "3") == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "holds a run of --repeats 2, not 3" in line
    assert _sudoku(model, tmp_path, out) == 2
    assert "holds a run of --repeats 2, not 1" in capsys.readouterr().err


def test_a_server_that_refuses_the_seed_stops_the_run_naming_the_setting(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model.state.refuse_seed = True
    out = tmp_path / "run"
    assert _sudoku(model, tmp_path, out, "--repeats", "2") == 1
    err = capsys.readouterr().err
    assert "refuses the request seed --repeats sends" in err
    assert "set seed = false in the registry entry of mock" in err
    assert not list((out / "results").rglob("*.json"))  # nothing counted, resumable
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and "seed = false" in manifest["stopReason"]


def test_seed_false_samples_the_repeats_without_one(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model.state.refuse_seed = True
    models = model.models_file(tmp_path, temperature=0.7, seed=False)
    out = tmp_path / "run"
    argv = ["sudoku", "--policy", "llm:mock", "--tiers", "1", "--models-file", str(models)]
    assert cli.main([*argv, "--quiet", "--output-dir", str(out), "--repeats", "2"]) == 0
    assert len(_grid_requests(model)) == 12
    assert all("seed" not in body for body in model.state.bodies)
    header = read_log(_logs(out)[0]).header
    assert header["policy"]["runIdentity"]["requestSeed"] is False
    assert header["repeat"] == {"index": 1, "of": 2}


def test_repeats_out_of_range_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for bad in ("0", "101", "two"):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(["sudoku", "--policy", "solver", "--repeats", bad])
        assert exit_info.value.code == 2
        assert "--repeats" in capsys.readouterr().err


def test_reply_for_is_the_default_answer() -> None:
    assert reply_for("nothing") == "I cannot tell what you want."


_TETRIS_ID = re.compile(r"^([A-Z]{2}): x=", re.MULTILINE)


def middle_candidate_on_seed_2(prompt: str, body: dict[str, Any]) -> str | None:
    """Repeat 2 (seed 2) places the middle candidate; anything else the first (the default)."""
    ids = _TETRIS_ID.findall(prompt)
    if not ids or body.get("seed") != 2:
        return None
    return json.dumps({"candidate": ids[len(ids) // 2], "hold": False, "risk": 0.5})


def _tetris(model: Endpoint, tmp_path: Path, out: Path, *more: str) -> int:
    models = model.models_file(tmp_path, temperature=1.0)
    argv = ["tetris-bench", "--policy", "llm:mock", "--modes", "iq", "--models-file", str(models)]
    return cli.main([*argv, "--quiet", "--output-dir", str(out), *more])


def test_tetris_bench_plays_each_seed_twice_and_ranks_by_the_mean_over_repeats(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model.state.answer = middle_candidate_on_seed_2
    out = tmp_path / "run"
    assert _tetris(model, tmp_path, out, "--seeds", "2", "--repeats", "2") == 0
    logs = _logs(out)
    assert [log.relative_to(out / "logs").as_posix().split("/", 1)[1] for log in logs] == [
        f"IQ/{seed}/r{r}.jsonl" for seed in ("seed-01", "seed-02") for r in (1, 2)
    ]
    scores: dict[int, list[int]] = {1: [], 2: []}
    for log in logs:
        contents = read_log(log)
        index = int(log.stem[1:])
        assert contents.header["repeat"] == {"index": index, "of": 2}
        assert contents.result is not None
        scores[index].append(contents.result["score"])
    assert scores[1] != scores[2], "the two repeats played differently"
    asked = [body.get("seed") for body in model.state.bodies if "candidate" in str(body)]
    assert {1, 2} <= set(asked)
    assert cli.main(["verify", str(out)]) == 0

    (row,) = json.loads((out / "leaderboard.json").read_text())["rows"]
    block = row["repeats"]
    per_repeat = [sum(scores[r]) / 2 for r in (1, 2)]
    assert block["perRepeat"] == per_repeat
    assert row["score"] == pytest.approx(block["mean"]) == pytest.approx(sum(per_repeat) / 2)
    assert block["ci95"][0] < block["mean"] < block["ci95"][1]
    assert block["withinSd"] > 0
    pairs = zip(scores[1], scores[2], strict=True)
    seeds = {s: (a + b) / 2 for s, (a, b) in zip(("seed-01", "seed-02"), pairs, strict=True)}
    assert row["seedScores"] == pytest.approx(seeds)
    table = (out / "leaderboard.md").read_text()
    assert "(2 repeats)" in table and "mock: mean over 2 repeats" in table


def test_official_tetris_bench_refuses_repeats_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tetris-bench", "--policy", "random", "--official", "--repeats", "2"]
    assert cli.main([*argv, "--output-dir", str(tmp_path / "run")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "--official plays each public seed once" in line and "drop --repeats" in line
    assert not (tmp_path / "run").exists()


def first_or_last_square_by_seed(prompt: str, body: dict[str, Any]) -> str | None:
    """Repeat 2 (seed 2) plays the last empty square; anything else the first (the default)."""
    lines = prompt.splitlines()
    if body.get("seed") != 2 or not lines or not lines[0].strip().isdigit():
        return None
    size = int(lines[0])
    empty = [
        (r, c) for r, row in enumerate(lines[2 : 2 + size]) for c, ch in enumerate(row) if ch == "."
    ]
    return f"<move>{empty[-1][0]} {empty[-1][1]}</move>" if empty else None


def test_the_arena_plays_every_item_twice_and_reports_the_mean_over_repeats(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model.state.answer = first_or_last_square_by_seed
    models = model.models_file(tmp_path, temperature=0.7)
    out, once = tmp_path / "run", tmp_path / "once"
    argv = ["ttt-arena", "--policy", "llm:mock", "--models-file", str(models), "--quiet"]
    assert cli.main([*argv, "--output-dir", str(once)]) == 0
    assert cli.main([*argv, "--output-dir", str(out), "--repeats", "2"]) == 0
    assert len(_logs(out)) == 2 * len(_logs(once)) == 2 * 212
    headers = [read_log(log).header["repeat"] for log in _logs(out)]
    assert [h["index"] for h in headers].count(2) == 212 and {h["of"] for h in headers} == {2}
    assert all(report.ok for report in verify_paths([out]))

    (alone,) = json.loads((once / "report.json").read_text())["reports"]
    (report,) = json.loads((out / "report.json").read_text())["reports"]
    block = report["repeats"]
    assert block["perRepeat"][0] == alone["score"]  # repeat 1 answers as a one-repeat run
    assert block["perRepeat"][0] != block["perRepeat"][1]
    assert block["mean"] == pytest.approx(sum(block["perRepeat"]) / 2, abs=0.1)
    assert report["score"] == pytest.approx(block["mean"], abs=0.05)
    assert block["ci95"][0] < block["mean"] < block["ci95"][1]
    assert "mean over 2 repeats" in (out / "report.txt").read_text()


def test_the_suite_passes_repeats_on_and_says_so_in_the_scorecard(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model.state.answer = solves_on_odd_seeds
    models = model.models_file(tmp_path, temperature=0.7)
    run = tmp_path / "suite"
    argv = ["suite", "--policy", "llm:mock", "--models-file", str(models), "--quiet"]
    argv += ["--benchmarks", "sudoku", "--output-dir", str(run)]
    assert cli.main([*argv, "--repeats", "2"]) == 0
    card = json.loads((run / "scorecard.json").read_text())
    (bench,) = card["benchmarks"]
    assert bench["repeats"] == 2
    part = json.loads((run / "sudoku" / "manifest.json").read_text())
    assert part["settings"]["repeats"] == 2
    (headline,) = card["rows"][0]["cells"]["sudoku"]["headlines"]
    report = json.loads((run / "sudoku" / "report.json").read_text())
    mine = next(r for r in report["policies"] if r["policy"] == "mock")
    assert headline["value"] == pytest.approx(mine["repeats"]["mean"]) == 50.0
    assert [headline["low95"], headline["high95"]] == mine["repeats"]["ci95"]
    assert "Each game played 2 times" in (run / "scorecard.md").read_text()
    assert cli.main(["verify", str(run)]) == 0
    capsys.readouterr()
    assert cli.main(argv) == 2  # the same suite resumed without --repeats 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "holds a run of --repeats 2, not 1" in line


def test_a_repeated_run_killed_with_sigkill_resumes_without_playing_anything_twice(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def slowly(prompt: str, body: dict[str, Any]) -> str | None:
        time.sleep(0.15)  # room to kill the run between two grids
        return solves_on_odd_seeds(prompt, body)

    model.state.answer = slowly
    models = model.models_file(tmp_path, temperature=0.7)
    out = tmp_path / "run"
    argv = ["sudoku", "--policy", "llm:mock", "--tiers", "1,2", "--models-file", str(models)]
    argv += ["--quiet", "--output-dir", str(out), "--repeats", "2"]
    child = subprocess.Popen(
        [sys.executable, "-m", "evaluation.cli", *argv],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 300
        while child.poll() is None and len(list((out / "results").rglob("*.json"))) < 7:
            assert time.monotonic() < deadline, "the run never got going"
            time.sleep(0.02)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    kept = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in (out / "results").rglob("*.json")}
    assert 7 <= len(kept) < 24

    asked = len(_grid_requests(model))
    assert cli.main(argv) == 0
    for path, stamp in kept.items():  # every repeat finished before the kill was kept as it was
        assert (path.stat().st_ino, path.stat().st_mtime_ns) == stamp, path
    assert len(_grid_requests(model)) - asked == 24 - len(kept)  # nothing finished played again
    assert len(_logs(out)) == 24 and len(list((out / "results").rglob("*.json"))) == 24
    assert cli.main(["verify", str(out)]) == 0
    (row,) = json.loads((out / "report.json").read_text())["policies"]
    assert row["repeats"]["perRepeat"] == [100.0, 0.0]


def test_a_retry_in_a_repeat_is_another_sample_with_its_own_seed(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Sudoku asks again after a reply with no grid: the retry of repeat 1 is seed 1001."""

    def unreadable_first(prompt: str, body: dict[str, Any]) -> str | None:
        if not prompt.startswith("Puzzle (. = empty cell):"):
            return None
        if body.get("seed") == 1:
            return "no grid here"
        return solves_on_odd_seeds(prompt, {**body, "seed": 1 if body.get("seed") == 1001 else 2})

    model.state.answer = unreadable_first
    out = tmp_path / "run"
    assert _sudoku(model, tmp_path, out, "--repeats", "2") == 0
    seeds = [body["seed"] for body in _grid_requests(model)]
    assert sorted(seeds) == sorted([1, 1001, 2] * 6)
    (row,) = json.loads((out / "report.json").read_text())["policies"]
    assert row["repeats"]["perRepeat"] == [100.0, 0.0]  # repeat 1 solved every grid on its retry


def test_verify_refuses_a_repeat_log_moved_to_another_repeats_place(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert _sudoku(model, tmp_path, out, "--repeats", "2") == 0
    first, second = _logs(out)[:2]
    assert (first.name, second.name) == ("r1.jsonl", "r2.jsonl")
    second.write_bytes(first.read_bytes())  # both repeats of the grid now hold repeat 1
    result = out / "results" / second.relative_to(out / "logs").with_suffix(".json")
    result.write_bytes(result.with_name("r1.json").read_bytes())
    bad = [report for report in verify_paths([out]) if not report.ok]
    assert [Path(report.path).name for report in bad] == ["r2.jsonl"]
    assert "names repeat 1 but is r2.jsonl" in bad[0].message
    manifest = out / "manifest.json"
    data = json.loads(manifest.read_text())
    data["settings"]["repeats"] = 3
    manifest.write_text(json.dumps(data))
    assert not any(report.ok for report in verify_paths([out]))


def test_the_site_refuses_a_repeated_run_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "runs" / "sudoku"
    argv = ["sudoku", "--policy", "singles", "--tiers", "1", "--quiet", "--repeats", "2"]
    assert cli.main([*argv, "--output-dir", str(run)]) == 0
    assert len(_logs(run)) == 12
    capsys.readouterr()
    for given in (run, run.parent):  # the run, or a folder of runs holding it
        assert cli.main(["site", str(given), "--output", str(tmp_path / "site")]) == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert "was played with --repeats 2" in line and "Traceback" not in line
    assert not (tmp_path / "site").exists()


_ACTIONS = re.compile(r"^Actions: (\[.*\])$", re.MULTILINE)


def last_action_on_seed_2(prompt: str, body: dict[str, Any]) -> str | None:
    """Repeat 2 (seed 2) takes the last action offered; anything else the first (the default)."""
    offered = _ACTIONS.search(prompt)
    if not offered or body.get("seed") != 2:
        return None
    return json.dumps({"action": json.loads(offered.group(1))[-1]})


def test_narcade_plays_each_episode_twice_and_resumes_with_nothing_to_play(
    model: Endpoint, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model.state.answer = last_action_on_seed_2
    models = model.models_file(tmp_path, temperature=0.7)
    out = tmp_path / "run"
    argv = ["narcade", "--policy", "llm:mock", "--games", "snake", "--mode", "lockstep"]
    argv += ["--episodes", "2", "--max-decisions", "60", "--models-file", str(models)]
    argv += ["--in-process", "--quiet", "--output-dir", str(out), "--repeats", "2"]
    assert cli.main(argv) == 0
    logs = _logs(out)
    assert [log.relative_to(out / "logs").as_posix().split("/", 1)[1] for log in logs] == [
        f"snake/{seed}/r{r}.jsonl" for seed in (100, 101) for r in (1, 2)
    ]
    for log in logs:
        assert read_log(log).header["repeat"] == {"index": int(log.stem[1:]), "of": 2}
    seeds = {body.get("seed") for body in model.state.bodies if "Actions:" in str(body)}
    assert seeds == {1, 2}
    assert cli.main(["verify", str(out)]) == 0
    (result,) = (out / "results").glob("*/snake.json")
    data = json.loads(result.read_text())
    assert [(e["seed"], e["repeat"]) for e in data["episodes"]] == [
        (100, 1),
        (100, 2),
        (101, 1),
        (101, 2),
    ]
    block = data["summary"]["repeats"]
    assert block["repeats"] == 2 and block["units"] == 2
    assert data["summary"]["meanScore"] == pytest.approx(block["mean"])
    assert "mean over 2 repeats" in capsys.readouterr().out
    asked = model.state.completions
    assert cli.main([*argv, "--resume"]) == 0
    assert model.state.completions == asked  # the resume has nothing left to play
    assert len(_logs(out)) == 4


def test_the_chess_ladder_refuses_repeats_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["chess-ladder", "--policy", "random", "--repeats", "2"]
    assert cli.main([*argv, "--output-dir", str(tmp_path / "run")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "--repeats is not offered" in line
    assert not (tmp_path / "run").exists()
