"""The frame contract (`docs/frames.md`): every game's `frame.py:frame` is pure JSON of its state,
a benchmark's frame depends on the episode alone, the viewers come from the games' descriptors
(a toy game's too), and `evaluation/site/` names no game."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import evaluation.benchmarks  # noqa: F401  (registers every benchmark: frames, replays)
from arcade_gym.chess.game import ChessGame
from arcade_gym.games import descriptors
from arcade_gym.minesweeper.game import MinesweeperGame
from arcade_gym.snake.game import SnakeGame
from arcade_gym.sudoku.game import SudokuGame
from arcade_gym.sudoku.rules import parse_puzzle
from arcade_gym.sudoku.sets import load_set
from arcade_gym.tetris.game import TetrisGame
from arcade_gym.tetris.primitive_game import TetrisControlGame
from arcade_gym.tetris.rules import PIECE_LETTERS
from arcade_gym.tictactoe.game import TicTacToeGame
from evaluation.core.registry import for_header
from evaluation.core.replay_export import export_replay
from evaluation.core.verify import verify_log
from evaluation.site.build import SiteBuild, SiteError
from evaluation.site.viewers import viewers
from tests.toy_game import ToySpec, toy_games

REPOSITORY = Path(__file__).resolve().parents[2]


def _tetris(moves: int) -> TetrisGame:
    game = TetrisGame("seed-03")
    for k in range(moves):
        placements = game.legal_placements()
        if placements:  # none once the game is over
            game.play(*placements[(7 * k) % len(placements)])
    return game


def _control(moves: int) -> TetrisControlGame:
    game = TetrisControlGame(7, "easy", max_decisions=400)
    for k in range(moves):
        if not game.over:
            game.step(("left", "rotate_cw", "soft_drop", "right", "hard_drop")[k % 5])
    return game


def _snake(moves: int) -> SnakeGame:
    game = SnakeGame(5, "easy")
    for k in range(moves):
        if not game.over:
            game.step(("up", "left", "down", "left")[k % 4])
    return game


def _minesweeper(moves: int) -> MinesweeperGame:
    game = MinesweeperGame(104, "easy")
    for k in range(moves):
        if not game.over:
            actions = game.legal_actions()
            game.play(actions[(5 * k) % len(actions)])
    return game


def _sudoku(moves: int) -> SudokuGame:
    record = load_set("v1")["grids"][0]
    game = SudokuGame()
    game.reset(parse_puzzle(record["puzzle"]), parse_puzzle(record["solution"]), record["id"])
    for _ in range(moves):
        legal = np.flatnonzero(game.mask)
        if legal.size:
            game.play(int(legal[0]))
    return game


def _tictactoe(moves: int) -> TicTacToeGame:
    game = TicTacToeGame(5)
    for _ in range(moves):
        if not game.over:
            game.play(game.legal_moves()[-1])
    return game


def _chess(moves: int) -> ChessGame:
    game = ChessGame()
    for _ in range(moves):
        if not game.over:
            game.play(game.moves[0])
    return game


def _frames() -> dict[str, tuple[Callable[[int], Any], Callable[[Any], dict[str, Any]]]]:
    from arcade_gym.chess.frame import frame as chess_frame
    from arcade_gym.minesweeper.frame import frame as minesweeper_frame
    from arcade_gym.snake.frame import frame as snake_frame
    from arcade_gym.sudoku.frame import frame as sudoku_frame
    from arcade_gym.tetris.frame import frame as tetris_frame
    from arcade_gym.tictactoe.frame import frame as tictactoe_frame

    return {
        "tetris": (_tetris, tetris_frame),
        "tetris-primitive": (_control, tetris_frame),
        "snake": (_snake, snake_frame),
        "minesweeper": (_minesweeper, minesweeper_frame),
        "sudoku": (_sudoku, sudoku_frame),
        "tictactoe": (_tictactoe, tictactoe_frame),
        "chess": (_chess, chess_frame),
    }


GAMES = _frames()
"""Per game (a policy game for Tetris' two): a game after n moves, and its `frame.py:frame`."""


def _plain(value: Any) -> bool:
    """Only JSON's own types (no numpy scalars, tuples or NaN)."""
    if value is None or isinstance(value, bool | str | int):
        return True
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


@pytest.mark.parametrize("name", GAMES)
def test_a_games_frame_is_pure_json_of_its_state(name: str) -> None:
    make, frame = GAMES[name]
    first = frame(make(6))
    assert _plain(first) and json.loads(json.dumps(first)) == first
    for moves in (0, 1, 12, 40):  # framing other states in between changes nothing
        frame(make(moves))
    game = make(6)
    assert frame(game) == first
    assert frame(game) == first  # and framing does not change the game
    assert frame(make(7)) != first


def test_the_tetris_frame_codes_cells_in_the_engines_piece_order() -> None:
    game = _tetris(12)
    shown = GAMES["tetris"][1](game)
    assert shown["format"] == 2
    assert shown["board"] == game.board.tolist()
    assert shown["active"]["kind"] == PIECE_LETTERS[game.active[0]]
    assert all(0 <= r < 20 and 0 <= c < 10 for r, c in shown["active"]["cells"])
    viewer = (REPOSITORY / "arcade_gym" / "tetris" / "viewer.js").read_text()
    kinds = re.findall(r'var KINDS = "([A-Z]+)";', viewer)
    assert kinds == [PIECE_LETTERS]  # one piece order: the engine's, the frame's, the viewer's


def _frames_of(log: Path, wanted: Callable[[int], bool]) -> dict[int, dict[str, Any]]:
    """The benchmark's frames of the decisions `wanted` picks, framing no other decision."""
    from evaluation.core.eventlog import read_log

    benchmark = for_header(read_log(log).header)
    assert benchmark is not None and benchmark.frame is not None
    frame = benchmark.frame
    taken: dict[int, dict[str, Any]] = {}

    def watch(episode: Any, event: Mapping[str, Any] | None) -> None:
        if event is not None and wanted(int(event["n"])):
            taken[int(event["n"])] = frame(episode, event)

    assert verify_log(log, watch).ok
    return taken


@pytest.mark.parametrize("mode", ["IQ", "Blitz"])
def test_a_tetris_bench_frame_depends_on_the_episode_alone(tetris_run: Path, mode: str) -> None:
    """The chosen placement once came from a table the previous call kept: framing only every
    third decision must give the frames the full export gives."""
    log = tetris_run / "logs" / "heuristic" / mode / "seed-01.jsonl"
    full = export_replay(log).frames
    some = _frames_of(log, lambda n: n % 3 == 2)
    assert any(shown["chosen"] is not None for shown in some.values())
    for n, shown in some.items():
        assert full[n + 1]["decision"] == n
        assert {key: full[n + 1][key] for key in shown} == shown, n


@pytest.fixture
def toy_viewer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A game outside the repository with a viewer in its package (`tests/toy_game.py`)."""
    with toy_games(tmp_path, monkeypatch, ToySpec("toyboard", viewer=True)):
        yield (tmp_path / "toy_toyboard" / "viewer.js").read_text()


def test_a_toy_games_viewer_is_found_through_its_descriptor(
    toy_viewer: str, tmp_path: Path
) -> None:
    assert "toyboard" in viewers()
    files = SiteBuild(tmp_path / "site", version="test").files()
    assert files["assets/viewers/toyboard.js"] == toy_viewer.encode()


def test_a_descriptor_naming_a_missing_viewer_is_one_line(toy_viewer: str, tmp_path: Path) -> None:
    (tmp_path / "toy_toyboard" / "viewer.js").unlink()
    with pytest.raises(SiteError, match=r"game 'toyboard': viewer .* does not exist"):
        SiteBuild(tmp_path / "site", version="test").files()


@pytest.mark.parametrize("game", descriptors(), ids=lambda g: g.name)
def test_every_games_viewer_is_shipped_and_registers_under_its_name(game: Any) -> None:
    assert game.viewer == f"arcade_gym.{game.name}:viewer.js"
    script = viewers()[game.name].read_text()
    assert f"window.ArcadeViewers.{game.name} = " in script
    data = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]
    package, _, file = game.viewer.partition(":")
    shipped = [*patterns.get("*", []), *patterns.get(package, [])]
    assert any(fnmatch.fnmatch(file, pattern) for pattern in shipped)


def test_the_site_package_names_no_game() -> None:
    names = set()
    for game in descriptors():
        names |= {game.name, *game.games, game.title}
    folder = REPOSITORY / "evaluation" / "site"
    files = [p for p in folder.rglob("*") if p.is_file() and p.suffix in (".py", ".js", ".css")]
    core = REPOSITORY / "evaluation" / "core"
    files += [core / "replay_export.py", core / "replay_compact.py", core / "same_answer.py"]
    assert any(p.name == "viewer-kit.js" for p in files)
    for path in files:
        text = path.read_text().lower()
        named = sorted(n for n in names if n.lower() in text)
        assert not named, f"{path.relative_to(REPOSITORY)} names {named}"


def test_a_benchmarks_asset_is_written_once_and_never_over_the_sites_own(tmp_path: Path) -> None:
    build = SiteBuild(tmp_path / "site", version="test")
    assert build.asset("demo-play.js", b"1;") == "demo-play.js"
    assert build.asset("demo-play.js", b"1;") == "demo-play.js"  # the same file twice is one
    with pytest.raises(ValueError, match="twice with different content"):
        build.asset("demo-play.js", b"2;")
    for own in ("replay.js", "viewers/demo.js"):
        with pytest.raises(ValueError, match="one of the site's own"):
            build.asset(own, b"")
    assert build.files()["assets/demo-play.js"] == b"1;"
