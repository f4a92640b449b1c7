"""`arcade-eval play` is read off the registries: a toy game added through its two folders only (a
descriptor in a temporary package, no benchmark) is one of its choices and is played to the end
on its env by typed action indices (masked ones refused in one line), recorded with its seed and
actions so the game replays; the play package names no game; an aborted game is one line."""

from __future__ import annotations

import argparse
import curses
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from arcade_gym.core.descriptor import GameDescriptor
from arcade_gym.games import descriptors
from arcade_gym.registration import NAMESPACE
from evaluation.cli import main
from evaluation.core.verify import verify_log
from evaluation.play import ENV_LOG_ID, command, screen
from evaluation.play.catalogue import play_setups
from evaluation.play.env_episode import EnvEpisode
from evaluation.play.human import Human
from tests.evaluation.play.test_games import ScriptedScreen, options
from tests.toy_game import ToyEnvEntry, ToySpec
from tests.toy_game import toy_games as registered_toys

PLAY_PACKAGE = Path(command.__file__).resolve().parent


@pytest.fixture
def toy_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[GameDescriptor]]:
    """Two toy games (`tests/toy_game.py`): `toyplay` renders ansi, `toyplain` does not."""
    specs = (
        ToySpec("toyplay", (ToyEnvEntry("ToyPlay-v0"),), builtin="stop"),
        ToySpec("toyplain", (ToyEnvEntry("ToyPlain-v0", "ToyPlainEnv"),), builtin="stop"),
    )
    with registered_toys(tmp_path / "packages", monkeypatch, *specs) as games:
        yield games


BUILT_IN = ["tetris", "tetris-primitive", "snake", "minesweeper", "tictactoe", "sudoku", "chess"]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="arcade-eval")
    command.add_parser(top.add_subparsers(dest="command"))
    return top


def test_the_built_in_games_keep_their_names_and_each_flag_is_declared_once(capsys) -> None:
    setups = play_setups()
    assert list(setups) == BUILT_IN
    assert {setup.game for setup in setups.values()} == {game.name for game in descriptors()}
    args = parser().parse_args(["play", "tetris", "--max-pieces", "3", "--seed", "seed-02"])
    assert args.max_pieces == 3 and args.seed == "seed-02" and args.mode is None
    with pytest.raises(SystemExit):
        parser().parse_args(["play", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "tetris, tetris-primitive: end the game after N pieces" in help_text
    assert "sudoku: a tier 1-7" in help_text


def test_a_toy_game_from_its_two_folders_is_one_of_plays_choices(toy_games) -> None:
    setups = play_setups()
    assert list(setups) == [*BUILT_IN, "toyplay", "toyplain"]
    assert setups["toyplay"].option_names == {"seed"}
    args = parser().parse_args(["play", "toyplay", "--seed", "7"])
    assert args.game == "toyplay" and args.seed == "7"


def test_a_toy_game_played_by_typed_indices_to_the_end_replays(toy_games, tmp_path) -> None:
    setup = play_setups()["toyplay"].setup(options(seed="7"))
    log = tmp_path / "toy.jsonl"
    keys = ["x", "2", "enter", "2", "enter", "9", "enter", "1", "enter"]
    scripted = ScriptedScreen(keys)
    try:
        setup.play(Human(setup.keys, scripted), log)  # type: ignore[arg-type]
    finally:
        setup.close()
    shown = ["\n".join(view.lines) for view in scripted.views]
    assert "count 0 of 3" in shown[0] and "legal 0, 1, 2" in shown[0]  # the env's ansi text
    assert any("action 2 is masked here; legal: 0, 1" in text for text in shown)
    assert any("action 9 is out of range: 0 to 2" in text for text in shown)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    header, decisions, result = lines[0], lines[1:-1], lines[-1]
    assert header["benchmark"] == ENV_LOG_ID and header["seed"] == 7
    assert header["settings"]["envId"] == f"{NAMESPACE}/ToyPlay-v0"
    assert [d["action"] for d in decisions] == [2, 1]
    assert result["endReason"] == "terminated" and result["totalReward"] == 3.0
    report = verify_log(log)
    assert report.ok, report.message


def test_a_log_whose_action_or_seed_was_changed_does_not_replay(toy_games, tmp_path) -> None:
    setup = play_setups()["toyplay"].setup(options(seed="7"))
    log = tmp_path / "toy.jsonl"
    setup.play(Human(setup.keys, ScriptedScreen(["1", "enter"] * 3)), log)  # type: ignore[arg-type]
    setup.close()
    assert verify_log(log).ok
    text = log.read_text()
    changed = tmp_path / "changed.jsonl"
    changed.write_text(text.replace('"answer":1', '"answer":2', 1))
    report = verify_log(changed)
    assert report.status == "fail" and report.decision == 0
    start_bit = EnvEpisode(f"{NAMESPACE}/ToyPlay-v0", 7, None, 10).observation[1]
    other = next(
        seed
        for seed in range(8, 100)
        if EnvEpisode(f"{NAMESPACE}/ToyPlay-v0", seed, None, 10).observation[1] != start_bit
    )
    reseeded = tmp_path / "reseeded.jsonl"
    reseeded.write_text(text.replace('"seed":7', f'"seed":{other}', 1))
    assert verify_log(reseeded).status == "fail"
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text(text.replace(f"{NAMESPACE}/ToyPlay-v0", "CartPole-v1"))
    assert "no registered game's env" in verify_log(foreign).message


def test_a_game_without_ansi_shows_its_observation(toy_games) -> None:
    setup = play_setups()["toyplain"].setup(options())
    episode = EnvEpisode(f"{NAMESPACE}/ToyPlain-v0", 0, None, 10)
    try:
        lines = setup.keys.view(episode.question()).lines
    finally:
        episode.close()
        setup.close()
    assert lines[0] == "Toy toyplain  step 0"
    assert re.fullmatch(r"\[0 [01]\]", lines[1]), lines


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch):
    """`cmd_play` as in a terminal, its screen scripted: curses is not started."""

    def use(keys: list[str]) -> None:
        monkeypatch.setattr(command, "_in_terminal", lambda: True)
        monkeypatch.setattr(curses, "wrapper", lambda session, *args: session(None, *args))
        monkeypatch.setattr(screen, "Screen", lambda window: ScriptedScreen(keys))

    return use


def test_the_command_plays_a_toy_game_into_a_run_directory(toy_games, terminal, tmp_path, capsys):
    terminal(["1", "enter", "1", "enter", "1", "enter", "enter"])  # the last: "press any key"
    run = tmp_path / "run"
    args = parser().parse_args(["play", "toyplay", "--seed", "3", "--output-dir", str(run)])
    assert command.cmd_play(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK ") and "3 decisions replay" in out
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["benchmark"] == ENV_LOG_ID
    saved = json.loads((run / "results" / "human" / "3.json").read_text())
    assert saved["endReason"] == "terminated" and saved["seed"] == 3
    assert verify_log(run / "logs" / "human" / "3.jsonl").ok


def test_arcade_eval_verify_accepts_a_played_run_and_refuses_a_tampered_one(
    toy_games, terminal, tmp_path, capsys
):
    """One log schema: the run `arcade-eval play` writes for a game on its env is replayed by
    `arcade-eval verify` like a benchmark's run (its manifest and result file checked too)."""
    terminal(["1", "enter", "2", "enter", "enter"])
    run = tmp_path / "run"
    args = parser().parse_args(["play", "toyplay", "--seed", "5", "--output-dir", str(run)])
    assert command.cmd_play(args) == 0
    assert f"verify with: arcade-eval verify {run}" in capsys.readouterr().out
    assert main(["verify", str(run)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"OK    {run / 'logs' / 'human' / '5.jsonl'}: 2 decisions replay")
    log = run / "logs" / "human" / "5.jsonl"
    text = log.read_text()
    for tampered in (
        text.replace('"reward":2.0', '"reward":5.0', 1),  # a decision's effect
        text.replace('"totalReward":3.0', '"totalReward":4.0', 1),  # the result line
    ):
        assert tampered != text
        log.write_text(tampered)
        assert main(["verify", str(run)]) == 1
        assert capsys.readouterr().out.startswith(f"FAIL  {log}")
    log.write_text(text)
    result = run / "results" / "human" / "5.json"
    result.write_text(result.read_text().replace('"totalReward": 3.0', '"totalReward": 9.0'))
    assert main(["verify", str(run)]) == 1
    assert "its result file says totalReward 9.0" in capsys.readouterr().out


def test_a_flag_the_toy_game_does_not_take_is_one_line(toy_games, terminal, tmp_path, capsys):
    terminal([])
    args = parser().parse_args(["play", "toyplay", "--difficulty", "easy"])
    assert command.cmd_play(args) == 2
    assert capsys.readouterr().err == "arcade-eval play: --difficulty does not apply to toyplay\n"


def test_an_aborted_game_is_one_line_with_the_reason(
    toy_games, terminal, tmp_path, monkeypatch, capsys
):
    from evaluation.core.episode import GameAbortedError
    from evaluation.core.eventlog import GameLog
    from evaluation.play import env_episode

    def crash(policy, episode, settings, seed, log):  # as a rung engine that dies mid-game
        with GameLog(log) as writer:
            writer.write({"type": "header", "benchmark": ENV_LOG_ID, "seed": seed})
            writer.write({"type": "result", "endReason": "aborted", "reason": "engine died"})
        raise GameAbortedError("the engine died (exit 1)", 0)

    monkeypatch.setattr(env_episode, "play_env_game", crash)
    terminal([])
    run = tmp_path / "run"
    args = parser().parse_args(["play", "toyplay", "--output-dir", str(run)])
    assert command.cmd_play(args) == 1
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert "aborted: the engine died (exit 1)" in captured.err
    assert json.loads((run / "manifest.json").read_text())["status"] == "aborted"


def test_the_play_package_names_no_game() -> None:
    names = {name for game in descriptors() for name in (game.name, *game.games)}
    pattern = re.compile("|".join(sorted(map(re.escape, names))), re.IGNORECASE)
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(PLAY_PACKAGE.rglob("*"))
        if path.is_file() and path.suffix != ".pyc"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)
