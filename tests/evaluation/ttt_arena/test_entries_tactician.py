"""The shipped `tactician` entry: its engine.bf is what `examples/make_tactician_bf.py` writes, and
it wins, else blocks, else makes or stops a fork, else makes a threat, else takes the centre,
on every board size, within the arena's Brainfuck limits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arcade_gym.tictactoe.contract import TicTacToeQuestion
from arcade_gym.tictactoe.rules import line_length
from policies.engines.arena import BrainfuckEngine
from policies.engines.brainfuck.interpreter import MAX_INSTRUCTIONS

REPO = Path(__file__).resolve().parents[3]
ENGINE = REPO / "seeds" / "arena" / "entries" / "tactician" / "engine.bf"


@pytest.fixture(scope="module")
def tactician() -> BrainfuckEngine:
    return BrainfuckEngine(ENGINE)


def ask(engine: BrainfuckEngine, to_move: str, rows: list[str]) -> tuple[str, int]:
    question = TicTacToeQuestion(
        size=len(rows), k=line_length(len(rows)), to_move=to_move, rows=tuple(rows)
    )
    result = engine.run_text(question.to_text())
    assert result.error is None
    assert result.instructions <= MAX_INSTRUCTIONS
    return result.output.decode("latin-1"), result.instructions


def test_the_committed_engine_is_the_generator_output(tmp_path: Path) -> None:
    target = tmp_path / "engine.bf"
    script = REPO / "examples" / "make_tactician_bf.py"
    subprocess.run([sys.executable, str(script), str(target)], check=True, capture_output=True)
    assert target.read_bytes() == ENGINE.read_bytes()


@pytest.mark.parametrize(
    ("to_move", "rows", "move"),
    [
        ("X", ["XX.", "OO.", "..."], "0 2"),  # win beats block
        ("O", ["XX.", "OO.", "..."], "1 2"),  # O wins too
        ("O", ["XX.", ".O.", "..."], "0 2"),  # block
        ("O", ["X..", "...", "..."], "1 1"),  # centre
        ("X", ["OX.", ".O.", "..X"], "1 0"),  # stop O's fork (1 0 and 2 0): the first one
        ("X", ["X.O", ".O.", "X.."], "1 0"),  # win beats everything
        ("X", ["X..", ".O.", "..."], "0 1"),  # a threat that also blocks nothing: the first
        ("X", ["XOX", "XOO", "OX."], "2 2"),  # every line is dead: the first empty square
        ("X", ["XXX..", "OOO..", ".....", ".....", "....."], "0 3"),  # 4 in a row on 5x5
        ("O", ["X....", ".X...", "..X..", ".....", "OO..."], "3 3"),  # diagonal block
        ("X", ["....O", "...O.", "..O..", ".....", "X.X.."], "3 1"),  # anti-diagonal block
        ("X", [".........."] * 10, "5 5"),
        ("X", [".........."] * 9 + [".XXXX....."], "9 0"),
        ("X", ["........O.", ".......O..", "......O...", ".....O...."] + ["." * 10] * 6, "4 4"),
        ("O", ["X........."] * 4 + ["." * 10] * 5 + ["OOO......."], "4 0"),  # vertical block
    ],
)
def test_tactician_picks_the_best_kind_of_square(
    tactician: BrainfuckEngine, to_move: str, rows: list[str], move: str
) -> None:
    output, _ = ask(tactician, to_move, rows)
    assert output == move + "\n"


def test_tactician_stays_within_the_limits_on_a_crowded_10x10(tactician: BrainfuckEngine) -> None:
    rows = ["XOXOXOXOXO", "OXOXOXOXOX"] * 2 + ["OOXXOOXXOO", "XXOOXXOOXX"] * 2 + ["." * 10] * 2
    output, instructions = ask(tactician, "X", rows)
    assert output  # a move, well under the limit
    assert instructions < MAX_INSTRUCTIONS // 5


@pytest.mark.slow
def test_a_fresh_bench_of_the_tactician_repeats_its_official_result() -> None:
    from evaluation.benchmarks.ttt_arena.entries import load_entry, official_result
    from evaluation.benchmarks.ttt_arena.entry_bench import bench_engine

    entry = load_entry(ENGINE.parent)
    official = official_result(entry)
    assert official is not None
    fresh = bench_engine(entry.engine, entry=entry, save=False, say=lambda _: None).document
    for key in ("grade", "score", "forcedWin5", "forkDefense", "matches", "maxInstructions"):
        assert fresh[key] == official[key], key
    assert fresh["report"]["positions"] == official["report"]["positions"]
