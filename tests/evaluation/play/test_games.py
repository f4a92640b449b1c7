"""Whole games through `arcade-eval play`'s setups with a scripted keyboard (no terminal): the
person is a policy, the benchmark's own play function records the game, and `verify` replays it.
Also the `Human` policy's own keys (`?`, `q`) and the command's refusals."""

from __future__ import annotations

import argparse
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.narcade.play_snake import SnakeKeys
from evaluation.core.verify import verify_log
from evaluation.play import human as human_module
from evaluation.play.catalogue import play_setups
from evaluation.play.command import cmd_play
from evaluation.play.human import Human
from evaluation.play.screen import View
from evaluation.play.setups import HUMAN_LIMIT_MS, PlayError, Setup
from policies.base import DecisionContext


class ScriptedScreen:
    """Keys from a script; what was shown is kept. Running out of keys is the policy's error
    (every benchmark ends a game after a few of those), never a hang."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = iter(keys)
        self.views: list[View] = []

    def show(self, view: View) -> None:
        self.views.append(view)

    def width(self) -> int:
        return 80

    def key(self, cancelled: threading.Event | None = None) -> str | None:
        try:
            return next(self.keys)
        except StopIteration:
            raise RuntimeError("the script ran out of keys") from None


def options(**given: Any) -> argparse.Namespace:
    names: tuple[str, ...] = (
        "seed",
        "difficulty",
        "mode",
        "max_pieces",
        "size",
        "opponent",
        "mark",
    )
    names += ("rung", "colour", "variant", "output_dir")
    return argparse.Namespace(**{name: given.get(name) for name in names})


def setup_of(game: str, args: argparse.Namespace) -> Setup:
    """The setup `arcade-eval play GAME` would ready from these flags."""
    return play_setups()[game].setup(args)


def play(game: str, keys: Iterable[str], tmp_path: Path, **given: Any) -> Any:
    setup = setup_of(game, options(**given))
    log = tmp_path / f"{game}.jsonl"
    screen = ScriptedScreen(keys)
    try:
        setup.play(Human(setup.keys, screen), log)  # type: ignore[arg-type]
    finally:
        setup.close()
    return verify_log(log)


def test_a_tetris_game_played_by_keys_verifies(tmp_path):
    keys = ["right", "enter", "c", "z", "enter", "enter"]
    report = play("tetris", keys, tmp_path, max_pieces=3)
    assert report.ok, report.message
    assert report.result["endReason"] == "piece cap" and report.result["pieces"] == 3
    header = report.header
    assert header["policy"]["slug"] == "human" and header["policy"]["kind"] == "human"
    assert header["settings"]["budgetMs"] == HUMAN_LIMIT_MS


def test_a_snake_game_run_into_the_wall_verifies(tmp_path):
    report = play("snake", ["right"] * 20, tmp_path, difficulty="easy")
    assert report.ok, report.message
    assert report.result["endReason"] != "policy failure"
    assert report.header["settings"]["mode"] == "lockstep"


def test_a_primitive_tetris_game_verifies(tmp_path):
    report = play("tetris-primitive", ["left", "up", "enter"], tmp_path, max_pieces=1)
    assert report.ok, report.message
    assert report.result["pieces"] == 1


def test_a_minesweeper_game_revealing_row_by_row_verifies(tmp_path):
    scan = []
    for _ in range(9):
        scan += ["enter", "right"] * 9 + ["down"] + ["left"] * 9
    report = play("minesweeper", ["up"] * 9 + ["left"] * 9 + scan, tmp_path, difficulty="easy")
    assert report.ok, report.message
    assert report.result["endReason"] in ("mine", "solved", "won", "lost")


def test_a_sudoku_grid_handed_in_verifies(tmp_path):
    report = play("sudoku", ["5", "enter", "enter"], tmp_path, difficulty="2")
    assert report.ok, report.message
    assert report.result["endReason"] == "answered" and report.result["tier"] == 2


def test_a_tictactoe_match_verifies(tmp_path):
    scan = []
    for _ in range(3):
        scan += ["enter", "right"] * 3 + ["down", "left", "left", "left"]
    report = play("tictactoe", ["up", "left", *scan], tmp_path, opponent="random")
    assert report.ok, report.message
    assert report.result["endReason"] in ("line", "full board")


def test_game_options_are_checked(tmp_path):
    with pytest.raises(PlayError, match="medium"):
        setup_of("snake", options(difficulty="impossible"))
    with pytest.raises(PlayError, match="no such Brainfuck file"):
        setup_of("tictactoe", options(opponent="bf:engine.bf"))
    with pytest.raises(PlayError, match="--size takes 3, 5, 10"):
        setup_of("tictactoe", options(size=4))
    with pytest.raises(PlayError, match="not a grid"):
        setup_of("sudoku", options(seed="v9-t1-1"))
    with pytest.raises(PlayError, match="--rung 99"):
        setup_of("chess", options(rung="99"))
    with pytest.raises(PlayError, match="chess960"):
        setup_of("chess", options(seed="5"))
    with pytest.raises(PlayError, match="iq"):
        setup_of("tetris", options(mode="fast"))
    with pytest.raises(PlayError, match="--max-pieces"):
        setup_of("tetris", options(max_pieces=0))
    with pytest.raises(PlayError, match="--max-pieces"):
        setup_of("snake", options(max_pieces=0))


def test_the_command_refuses_without_a_terminal_or_with_a_foreign_option(tmp_path, capsys):
    args = options(output_dir=str(tmp_path / "run"))
    args.game = "snake"
    assert cmd_play(args) == 2  # pytest's stdin is no terminal
    assert "terminal" in capsys.readouterr().err
    args.size = 5
    assert cmd_play(args) == 2
    assert "--size does not apply to snake" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_help_toggles_and_q_interrupts_the_main_thread(monkeypatch):
    from arcade_gym.snake.game import SnakeGame

    question = SnakeGame(100, "easy").question()
    screen = ScriptedScreen(["?", "x", "?", "up"])
    human = Human(SnakeKeys(), screen)  # type: ignore[arg-type]
    assert human.act(question, DecisionContext()) == {"action": "up"}
    shown = ["\n".join(view.lines) for view in screen.views]
    assert ["?  hide the keys" in text for text in shown] == [False, True, True, False]

    ctx = DecisionContext()
    interrupted = []

    def fake_interrupt() -> None:  # the real one signals the main thread, as Ctrl-C
        interrupted.append(True)
        ctx.cancelled.set()

    monkeypatch.setattr(human_module, "interrupt_main", fake_interrupt)
    quitter = Human(SnakeKeys(), ScriptedScreen(["q", "y"]))  # type: ignore[arg-type]
    assert quitter.act(question, ctx) is None and interrupted == [True]


def test_q_asks_before_quitting_and_any_other_key_plays_on(monkeypatch):
    from arcade_gym.snake.game import SnakeGame

    question = SnakeGame(100, "easy").question()
    interrupted: list[bool] = []
    monkeypatch.setattr(human_module, "interrupt_main", lambda: interrupted.append(True))
    screen = ScriptedScreen(["q", "n", "q", "escape", "right"])
    person = Human(SnakeKeys(), screen)  # type: ignore[arg-type]
    assert person.act(question, DecisionContext()) == {"action": "right"}
    assert interrupted == []
    asked = ["quit? the game is not counted" in "\n".join(v.lines) for v in screen.views]
    assert asked == [False, True, False, True, False]
    assert person.last is question


def test_a_chess_game_against_the_weakest_rung_verifies(tmp_path):
    # e4, then the script runs out: three failed tries forfeit the game, as for any player.
    report = play("chess", ["e", "4", "enter"], tmp_path)
    assert report.ok, report.message
    assert report.result["endReason"] == "forfeit"
    assert report.result["moves"][0] == "e2e4"
    assert report.header["settings"]["rung"] == "random"


def test_without_stockfish_weak_rungs_play_unjudged_and_stockfish_rungs_say_how_to_install(
    monkeypatch,
):
    from evaluation.benchmarks.chess_ladder.play_side import UnjudgedSide, other_side
    from policies.engines.uci import STOCKFISH_ENV

    monkeypatch.setenv(STOCKFISH_ENV, "/nonexistent/stockfish")
    with pytest.raises(PlayError, match="apt-get install stockfish"):
        setup_of("chess", options(rung="stockfish-1350"))
    side, close = other_side(object(), "standard")
    assert isinstance(side, UnjudgedSide)
    assert side.measure(None, 0, 0) is None  # type: ignore[arg-type]
    close()


def test_a_rung_engine_that_crashes_mid_game_is_one_line_not_a_traceback(
    tmp_path, monkeypatch, capsys
):
    import curses

    from evaluation.benchmarks.chess_ladder import ladder
    from evaluation.play import command, screen
    from policies.engines.uci import STOCKFISH_ENV, EngineFailedError

    class CrashingRung:
        def act(self, question: Any, ctx: DecisionContext) -> Any:
            raise EngineFailedError("the engine process exited with status 1")

    monkeypatch.setenv(STOCKFISH_ENV, "/nonexistent/stockfish")  # unjudged: the rung alone
    monkeypatch.setattr(ladder, "rung_policy", lambda rung, lad, seed: CrashingRung())
    monkeypatch.setattr(command, "_in_terminal", lambda: True)
    monkeypatch.setattr(curses, "wrapper", lambda session, *args: session(None, *args))
    monkeypatch.setattr(screen, "Screen", lambda window: ScriptedScreen(["e", "4", "enter"]))
    args = options(output_dir=str(tmp_path / "run"))
    args.game = "chess"
    assert cmd_play(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "aborted: the rung failed: the engine process exited with status 1" in err
    report = verify_log(next((tmp_path / "run" / "logs").rglob("*.jsonl")))
    assert report.status == "incomplete" and "aborted" in report.message
