"""The examples in examples/ run as they are (kept true to the code)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_random_tetris_example_plays_an_episode(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "random_tetris.py"), run_name="__main__")
    assert "episode over" in capsys.readouterr().out


def test_maskable_ppo_example_trains(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sb3_contrib")
    monkeypatch.setattr(sys, "argv", ["train_maskable_ppo.py", "--steps", "512"])
    runpy.run_path(str(EXAMPLES / "train_maskable_ppo.py"), run_name="__main__")
    assert "after 512 steps" in capsys.readouterr().out


def _run_example(monkeypatch: pytest.MonkeyPatch, script: str, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", [script, *args])
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")


@pytest.mark.parametrize(("method", "spec"), [("cem", "linear"), ("ppo", "sb3")])
def test_train_tetris_saves_a_model_the_harness_plays(
    method: str,
    spec: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("sb3_contrib")
    from arcade_gym.tetris.contract import validate
    from arcade_gym.tetris.game import TetrisGame
    from policies.specs import make_policy

    out = tmp_path / f"tetris-{method}.{'json' if method == 'cem' else 'zip'}"
    budget = ["--timesteps", "1000", "--population", "2", "--games", "1", "--validation-games", "1"]
    budget += ["--validate", "2", "--chains", "1"]
    if method == "ppo":
        budget = ["--timesteps", "512", "--envs", "2"]
    _run_example(
        monkeypatch, "train_tetris.py", "--method", method, "--out", str(out),
        "--eval-games", "1", *budget,
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert f"saved {out}" in printed and ("cem generation 1" in printed or "ppo steps" in printed)
    question = TetrisGame("seed-01").question()
    assert validate(make_policy(f"{spec}:{out}", "tetris").act(question), question).usable


def test_train_snake_saves_a_model_that_sb3_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("stable_baselines3")
    import gymnasium as gym

    from policies.specs import make_policy

    out = tmp_path / "snake.zip"
    _run_example(
        monkeypatch, "train_snake.py", "--timesteps", "2048", "--envs", "8", "--out", str(out),
        "--eval-games", "1",
    )  # fmt: skip
    assert "mean length" in capsys.readouterr().out
    env = gym.make("arcade_gym/Snake-v0", include_question=True)
    _, info = env.reset(seed=0)
    assert make_policy(f"sb3:{out}", "snake").act(info["question"]).action in (
        "up",
        "right",
        "down",
        "left",
    )


def test_train_tictactoe_saves_a_model_that_sb3_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("stable_baselines3")
    from arcade_gym.tictactoe.game import TicTacToeGame
    from policies.specs import make_policy

    out = tmp_path / "ttt.zip"
    _run_example(
        monkeypatch, "train_tictactoe.py", "--timesteps", "1024", "--envs", "8", "--out", str(out),
        "--eval-games", "2",
    )  # fmt: skip
    assert "vs perfect:" in capsys.readouterr().out
    game = TicTacToeGame(3)
    answer = make_policy(f"sb3:{out}", "tictactoe").act(game.question())
    assert 0 <= answer.row < 3 and 0 <= answer.col < 3


PPO_PRESETS = (
    "snake",
    "tetris",
    "tetris-primitive",
    "minesweeper",
    "tictactoe",
    "tictactoe-selfplay",
    "tictactoe-selfplay-all",
    "sudoku",
)


def _benchmark_question(preset: str) -> tuple[str, object]:
    """(the policy game, a question of its benchmark) for a `examples/ppo.py` preset."""
    import gymnasium as gym

    if preset.startswith("tictactoe"):
        from arcade_gym.tictactoe.game import TicTacToeGame

        return "tictactoe", TicTacToeGame(3).question()
    if preset == "sudoku":
        from arcade_gym.sudoku.contract import SudokuQuestion
        from arcade_gym.sudoku.sets import set_grids

        grid = set_grids("v1", 2)[0]
        return "sudoku", SudokuQuestion.from_puzzle(grid["puzzle"], grid["id"])
    if preset == "tetris":
        from arcade_gym.tetris.game import TetrisGame

        return "tetris", TetrisGame("seed-01").question()
    env_id = {
        "snake": "arcade_gym/Snake-v0",
        "tetris-primitive": "arcade_gym/TetrisPrimitive-v3",
        "minesweeper": "arcade_gym/Minesweeper-v0",
    }[preset]
    env = gym.make(env_id)
    env.reset(seed=5)
    return preset, env.unwrapped.as_game().question()  # type: ignore[attr-defined]


def _legal(game: str, answer: object, question: object) -> bool:
    import importlib

    if game == "tictactoe":
        from arcade_gym.tictactoe.contract import check_answer

        return bool(check_answer(question, answer).legal)  # type: ignore[arg-type]
    if game == "sudoku":
        from arcade_gym.sudoku.contract import validate as validate_grid

        verdict = validate_grid(answer)
        givens = question.puzzle  # type: ignore[attr-defined]
        return verdict.usable and all(
            g in ("0", f) for g, f in zip(givens, verdict.grid or "", strict=True)
        )
    module = {
        "snake": "arcade_gym.snake.contract",
        "minesweeper": "arcade_gym.minesweeper.contract",
        "tetris": "arcade_gym.tetris.contract",
        "tetris-primitive": "arcade_gym.tetris.primitive_contract",
    }[game]
    return bool(importlib.import_module(module).validate(answer, question).usable)


@pytest.mark.parametrize("preset", PPO_PRESETS)
def test_ppo_example_saves_a_model_the_policy_grammar_plays(
    preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from policies.specs import make_policy

    out = tmp_path / f"{preset}.pt"
    _run_example(
        monkeypatch, "ppo.py", "--preset", preset, "--timesteps", "1", "--envs", "4",
        "--steps", "8", "--out", str(out), "--eval-games", "2",
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert f"saved {out}" in printed and "steps/s (env" in printed and "greedy, 2" in printed
    assert out.with_suffix(".csv").read_text().startswith("steps,seconds,sps,env_sps")
    game, question = _benchmark_question(preset)
    policy = make_policy(f"ppo:{out}", game)
    assert _legal(game, policy.act(question), question)


def test_ppo_example_compares_its_throughput_with_sb3_in_the_same_sitting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("stable_baselines3")
    _run_example(
        monkeypatch, "ppo.py", "--preset", "snake", "--compare-sb3", "--compare-seconds", "1",
        "--envs", "4", "--steps", "8", "--out", str(tmp_path / "t.pt"), "--eval-games", "0",
    )  # fmt: skip
    lines = capsys.readouterr().out.splitlines()[-4:]
    assert lines[0].startswith("same sitting, arcade_gym/Snake-v0") and "load average" in lines[0]
    assert "SB3 PPO, its defaults" in lines[2] and "SB3 PPO, this run's" in lines[3]
