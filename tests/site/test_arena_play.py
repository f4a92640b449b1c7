"""Playing an arena entry in the browser (`evaluation/benchmarks/ttt_arena/assets/arena-play.js`): a
page built by `SiteBuild` mounts the player from its inline data; selenium clicks squares in
headless Chromium and every move the entry makes must be legal, and its position text, output and
instruction count must equal what the Python harness gives the same engine on the same position."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arcade_gym.tictactoe.contract import EngineReply, check_answer
from arcade_gym.tictactoe.game import TicTacToeGame
from evaluation.benchmarks.ttt_arena.site import add_play_scripts
from evaluation.site.build import SiteBuild
from evaluation.site.html import Markup
from policies.engines.brainfuck.interpreter import run

pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

REPO = Path(__file__).resolve().parents[2]
ENTRIES = REPO / "seeds" / "arena" / "entries"


def engine_source(path: Path) -> str:
    """The engine text as the Python harness loads it (bytes read as latin-1)."""
    return path.read_bytes().decode("latin-1")


ENGINES = {
    "first-empty-example": REPO / "examples" / "first_empty.bf",
    "tactician": ENTRIES / "tactician" / "engine.bf",
    "broken": ENTRIES / "broken" / "engine.bf",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site with one play page per engine, mounted through `data-arcade-play`."""
    out = tmp_path_factory.mktemp("site")
    build = SiteBuild(out, version="test")
    build.section("play", "Play", Markup("<p>Play an engine.</p>"))
    scripts = add_play_scripts(build)
    for name, path in ENGINES.items():
        if not path.is_file():
            continue
        build.page(
            f"play/{name}.html",
            f"Play {name}",
            Markup('<div id="play" data-arcade-play></div>'),
            scripts=scripts,
            data={"play": {"source": engine_source(path), "name": name, "sizes": [3, 5, 10]}},
        )
    build.finish()
    return out


def open_player(browser: Any, site: Path, engine: str) -> Any:
    page = site / "play" / f"{engine}.html"
    if not page.is_file():
        pytest.skip(f"{ENGINES[engine]} is not in this checkout")
    browser.get(page.resolve().as_uri())
    return browser.find_element(By.ID, "play")


def state(browser: Any, element: Any) -> str:
    return str(browser.execute_script("return arguments[0].dataset.playState", element))


def wait_for_turn(browser: Any, element: Any) -> str:
    """Wait until the entry has answered: the visitor's turn or the end of the game."""
    WebDriverWait(browser, 60).until(lambda _: state(browser, element) in ("your-turn", "over"))
    return state(browser, element)


def play_game(
    browser: Any, element: Any, size: int, visitor: str, seed: int
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Start a game through the controls and click random empty squares until it ends."""
    Select(element.find_element(By.CSS_SELECTOR, "select.play-size")).select_by_value(str(size))
    Select(element.find_element(By.CSS_SELECTOR, "select.play-first")).select_by_value(visitor)
    element.find_element(By.CSS_SELECTOR, "button.play-new").click()
    rng = np.random.default_rng(seed)
    while wait_for_turn(browser, element) == "your-turn":
        empty = element.find_elements(By.CSS_SELECTOR, "button.play-cell:not(:disabled)")
        assert empty, "the visitor's turn with no empty square"
        empty[int(rng.integers(len(empty)))].click()
    moves = browser.execute_script("return arguments[0].arcadeMoves", element)
    result = browser.execute_script("return arguments[0].arcadeResult", element)
    return moves, result


def replay_in_python(source: str, size: int, moves: list[dict[str, Any]]) -> TicTacToeGame:
    """Re-play the recorded game on the Python rules and interpreter; every entry move must be
    what the Python harness computes for the same position."""
    game = TicTacToeGame(size)
    for record in moves:
        question = game.question()
        assert record["ply"] == game.placed + 1
        assert record["mark"] == question.to_move
        if record["by"] == "visitor":
            game.play(game.cell(*record["move"]))
            continue
        text = question.to_text()
        assert record["input"] == text
        expected = run(source, text.encode("latin-1"))
        assert record["instructions"] == expected.instructions
        assert record["output"].encode("latin-1") == expected.output
        assert record["error"] == expected.error
        check = check_answer(
            question,
            EngineReply(
                output=expected.output.decode("latin-1"),
                error=expected.error,
                instructions=expected.instructions,
            ),
        )
        assert record["illegal"] == check.reason
        if not check.legal:
            assert record["move"] is None
            break
        assert check.move is not None and record["move"] == list(check.move)
        game.play(game.cell(*check.move))
    return game


@pytest.mark.parametrize("engine", ["first-empty-example", "tactician"])
@pytest.mark.parametrize(("size", "visitor"), [(3, "X"), (3, "O"), (5, "X"), (5, "O")])
def test_a_game_against_an_entry_makes_legal_moves_counted_as_in_python(
    browser: Any,
    screenshot: Callable[[Any, str], Path],
    site: Path,
    engine: str,
    size: int,
    visitor: str,
) -> None:
    element = open_player(browser, site, engine)
    moves, result = play_game(browser, element, size, visitor, seed=size * 7 + len(engine))
    screenshot(browser, f"arena-play-{engine}-{size}x{size}-visitor-{visitor}")
    entry_moves = [m for m in moves if m["by"] == "entry"]
    assert entry_moves, "the entry never moved"
    assert all(m["illegal"] is None and m["move"] is not None for m in entry_moves)
    game = replay_in_python(engine_source(ENGINES[engine]), size, moves)
    assert game.over
    assert result["how"] == ("full board" if game.draw else "line")
    assert result["winner"] == (None if game.draw else game.result)
    shown = [
        row.find_elements(By.TAG_NAME, "td")[4].text
        for row in element.find_elements(By.CSS_SELECTOR, "table.play-moves tbody tr")
    ]
    assert shown == [f"{m['instructions']:,}" if m["by"] == "entry" else "" for m in moves], (
        "the moves table shows each entry move's instruction count"
    )


def test_an_illegal_reply_forfeits_the_game_as_in_the_arena(
    browser: Any, screenshot: Callable[[Any, str], Path], site: Path
) -> None:
    element = open_player(browser, site, "broken")
    moves, result = play_game(browser, element, 3, "X", seed=1)
    screenshot(browser, "arena-play-broken-forfeit")
    assert [m["by"] for m in moves] == ["visitor", "entry"]
    replay_in_python(engine_source(ENGINES["broken"]), 3, moves)
    assert moves[1]["illegal"] == "unparseable output 'ABC'"
    assert result == {"winner": "X", "how": "forfeit", "visitor": "win"}
    status = element.find_element(By.CSS_SELECTOR, ".play-status").text
    assert "forfeits" in status
    assert "illegal move: unparseable output 'ABC'" in element.text


def test_the_entry_opens_when_the_visitor_plays_o_on_10x10(
    browser: Any, screenshot: Callable[[Any, str], Path], site: Path
) -> None:
    """The largest board: the entry's opening move on 10x10 is counted as Python counts it."""
    element = open_player(browser, site, "tactician")
    Select(element.find_element(By.CSS_SELECTOR, "select.play-size")).select_by_value("10")
    Select(element.find_element(By.CSS_SELECTOR, "select.play-first")).select_by_value("O")
    assert wait_for_turn(browser, element) == "your-turn"
    screenshot(browser, "arena-play-tactician-10x10")
    moves = browser.execute_script("return arguments[0].arcadeMoves", element)
    assert len(moves) == 1 and moves[0]["mark"] == "X"
    replay_in_python(engine_source(ENGINES["tactician"]), 10, moves)
    assert len(element.find_elements(By.CSS_SELECTOR, "button.play-cell")) == 100


@pytest.fixture(scope="module")
def arena_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The arena section as `arcade-eval site` builds it from the shipped entries."""
    if not ENTRIES.is_dir():
        pytest.skip(f"no shipped arena entries at {ENTRIES}")
    import evaluation.cli  # noqa: F401  (registers the benchmarks)
    from evaluation.site.cli import build_site

    out = tmp_path_factory.mktemp("arena-site") / "site"
    build_site(out, [ENTRIES])
    return out


def test_the_shipped_entry_page_plays_its_entry(
    browser: Any, screenshot: Callable[[Any, str], Path], arena_site: Path
) -> None:
    """The entry page of the real site (not a test page) mounts the player on its own engine."""
    page = arena_site / "arena" / "entries" / "tactician.html"
    browser.get(page.resolve().as_uri())
    element = browser.find_element(By.CSS_SELECTOR, "[data-arcade-play]")
    moves, result = play_game(browser, element, 3, "O", seed=3)
    screenshot(browser, "arena-play-entry-page-tactician")
    assert result is not None and any(m["by"] == "entry" for m in moves)
    assert replay_in_python(engine_source(ENTRIES / "tactician" / "engine.bf"), 3, moves).over
