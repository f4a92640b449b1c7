"""Replay deep links and decisions in Chromium: one replay per game kind opened at `#ply=N` shows
decision N (the frame's own counter or state in the viewer's DOM, checked against the page's
frames, which the page carries compact and the player rebuilds: `frames_of`), stepping writes
the hash, "copy link" gives the URL of the decision shown (by hand on file://), and a model's
reply and reasoning are shown beside its decision as text."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evaluation.benchmarks.ttt_arena.episode import play_arena_game
from evaluation.benchmarks.ttt_arena.runner import _items
from evaluation.core.replay_compact import ENCODING, LEFT_OUT, expand_replay
from evaluation.core.replay_export import SHOWN_TEXT_CHARS, export_replay
from evaluation.site.build import SiteBuild
from policies.tictactoe import make_player
from tests.site.conftest import file_url

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "docs" / "results"
NARCADE = RESULTS / "narcade" / "reference-lockstep" / "logs"
MATCHES = sorted((REPO / "seeds/arena/entries/tactician/results").glob("*/matches"))

LOGS = {
    # page name: (viewer, log, the decision to open at)
    "tetris": ("tetris", RESULTS / "tetris-bench/logs/random/IQ/seed-09.jsonl.xz", 5),
    "narcade-tetris": ("tetris", NARCADE / "heuristic/tetris/100.jsonl", 40),
    "snake": ("snake", NARCADE / "random/snake/100.jsonl", 7),
    "minesweeper": ("minesweeper", NARCADE / "random/minesweeper/100.jsonl", 1),
    "chess": (
        "chess",
        RESULTS / "chess-ladder/material-2ply/logs/material-2ply/standard/random/game-0.jsonl",
        6,
    ),
    "sudoku": ("sudoku", RESULTS / "sudoku/builtins/logs/solver/v1-t4-4.jsonl", 1),
    "tictactoe": ("tictactoe", MATCHES[-1] / "match-3-01.jsonl", 2),
}


def shown_decision(browser: Any, viewer: str, frame: dict[str, Any]) -> None:
    """Assert the viewer drew `frame` (its own counter, or the state only it has)."""
    from selenium.webdriver.common.by import By

    board = browser.find_element(By.ID, "board")
    if viewer == "tetris":
        text = board.find_element(By.CSS_SELECTOR, ".tetris-decision").text
        assert text.split(":")[0] == f"#{frame['decision'] + 1}"
    elif viewer in ("snake", "minesweeper"):
        moves = board.find_element(By.CSS_SELECTOR, '[data-field="moves"]').text
        assert moves == str(frame["moves"])
    elif viewer == "chess":
        assert board.find_element(By.CSS_SELECTOR, ".chess-fen").text == frame["fen"]
    elif viewer == "sudoku":
        outcome = frame.get("outcome") or "not answered yet"
        assert board.find_element(By.CSS_SELECTOR, ".sdk-outcome").text == outcome
    elif viewer == "tictactoe":
        assert board.get_attribute("data-rows") == "/".join(frame["rows"])
    else:  # pragma: no cover - a new game kind needs its check here
        raise AssertionError(f"no check for viewer {viewer}")


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One replay page per game kind (and NARCADE's Tetris) in one small site."""
    out = tmp_path_factory.mktemp("links") / "site"
    site = SiteBuild(out)
    site.section("replays", "Replays", "test")
    made = {
        name: site.replay(f"replays/{name}.html", name, log, viewer)
        for name, (viewer, log, _) in LOGS.items()
    }
    site.finish()
    return {name: out / page for name, page in made.items()}


def frames_of(browser: Any) -> list[dict[str, Any]]:
    """The page's frames, rebuilt here from its compact replay (`replay_compact.expand_replay`),
    checked equal to the frames the player rebuilt in the browser (what the viewer drew)."""
    data = browser.execute_script("return document.getElementById('replay-data').textContent")
    page = json.loads(data)
    assert page["frameEncoding"] == ENCODING and isinstance(page["frames"], str)
    frames = list(expand_replay(page)["frames"])
    shown = browser.execute_script("return JSON.stringify(window.ArcadeReplay.frames)")
    assert json.loads(shown) == frames
    return frames


@pytest.mark.parametrize("name", list(LOGS))
def test_a_replay_opened_at_a_ply_shows_that_decision(
    name: str, pages: dict[str, Path], browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    viewer, log, ply = LOGS[name]
    browser.get(file_url(pages[name]) + f"#ply={ply}")
    frames = frames_of(browser)
    exported = export_replay(log).to_json()["frames"]  # the compact form loses nothing drawn
    assert frames == [{k: v for k, v in f.items() if k not in LEFT_OUT} for f in exported]
    last = len(frames) - 1
    assert 0 < ply <= last
    assert browser.find_element(By.ID, "position").text == f"decision {ply} / {last}"
    assert browser.find_element(By.ID, "seek").get_attribute("value") == str(ply)
    shown_decision(browser, viewer, frames[ply])

    browser.find_element(By.ID, "back").click()
    assert browser.execute_script("return location.hash") == f"#ply={ply - 1}"
    shown_decision(browser, viewer, frames[ply - 1])
    browser.find_element(By.ID, "last").click()
    assert browser.execute_script("return location.hash") == f"#ply={last}"
    shown_decision(browser, viewer, frames[last])


def test_the_short_forms_a_hash_change_and_an_out_of_range_ply(
    pages: dict[str, Path], browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    url = file_url(pages["snake"])
    browser.get(url + "#3")
    frames = frames_of(browser)
    last = len(frames) - 1
    assert browser.find_element(By.ID, "position").text == f"decision 3 / {last}"
    browser.get(url + "?ply=4")
    assert browser.find_element(By.ID, "position").text == f"decision 4 / {last}"
    shown_decision(browser, "snake", frames[4])
    browser.execute_script("location.hash = '#ply=2'")
    assert browser.find_element(By.ID, "position").text == f"decision 2 / {last}"
    browser.get(url + "#ply=99999")  # clamped to the end, and the address says so
    assert browser.find_element(By.ID, "position").text == f"decision {last} / {last}"
    assert browser.execute_script("return location.hash") == f"#ply={last}"
    browser.get(url)  # no hash asked for: none written
    assert browser.execute_script("return location.hash") == ""
    assert browser.find_element(By.ID, "position").text == f"decision 0 / {last}"


def test_copy_link_gives_the_url_of_the_decision_shown(
    pages: dict[str, Path], browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    url = file_url(pages["chess"])
    browser.get(url)
    browser.find_element(By.ID, "step").click()
    browser.find_element(By.ID, "step").click()
    browser.find_element(By.ID, "copy-link").click()
    status = browser.find_element(By.ID, "link-status")
    box = browser.find_element(By.ID, "link")
    assert box.get_attribute("value") == url + "#ply=2"
    # headless file:// refuses the clipboard or not; either way the user is told which
    assert status.text in ("link copied", "press Ctrl+C (\u2318C) to copy the link")
    if box.is_displayed():
        selected = browser.execute_script(
            "var b = arguments[0]; return b.value.slice(b.selectionStart, b.selectionEnd)", box
        )
        assert selected == url + "#ply=2"
    screenshot(browser, "replay-copy-link")


class Talking:
    """The tactician entry, reporting a model-like call record for each move: a reply with
    markup in it and a long reasoning."""

    def __init__(self) -> None:
        self.inner = make_player("tactician")
        self.asked = 0
        self.identity = getattr(self.inner, "identity", None)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def act(self, question: Any, ctx: Any) -> Any:
        self.asked += 1
        return self.inner.act(question, ctx)

    def pop_telemetry(self) -> dict[str, Any]:
        return {
            "raw": f"<b>move {self.asked}</b><script>document.title='owned'</script>",
            "reasoning": f"thinking {self.asked} " + "x" * (SHOWN_TEXT_CHARS * 2),
        }


def test_a_models_reply_and_reasoning_are_shown_beside_its_decision_as_text(
    tmp_path: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    item = _items(20261009)[("matches", "match-3-01")]
    log = tmp_path / "talking.jsonl"
    play_arena_game(Talking(), item, log, suite_seed=20261009)
    frames = export_replay(log).frames
    assert "reply" not in frames[0]
    assert frames[1]["reply"] == "<b>move 1</b><script>document.title='owned'</script>"
    assert len(frames[1]["reasoning"]) < SHOWN_TEXT_CHARS + 40
    assert frames[1]["reasoning"].endswith("more]")

    site = SiteBuild(tmp_path / "site")
    site.section("replays", "Replays", "test")
    page = site.replay("replays/talking.html", "talking", log, "tictactoe")
    site.finish()
    browser.get(file_url(tmp_path / "site" / page))
    panel = browser.find_element(By.ID, "decision")
    assert not panel.is_displayed()  # the start: no decision yet
    browser.find_element(By.ID, "step").click()
    assert panel.is_displayed()
    reply = panel.find_element(By.CSS_SELECTOR, ".decision-reply")
    assert reply.text == frames[1]["reply"]  # the markup shown as text
    assert not panel.find_elements(By.CSS_SELECTOR, "b, script")
    assert browser.title != "owned"
    panel.find_element(By.TAG_NAME, "summary").click()
    reasoning = panel.find_element(By.CSS_SELECTOR, ".decision-reasoning").text
    assert reasoning.startswith("thinking 1 ")
    browser.find_element(By.ID, "step").click()
    assert reply.text.startswith("<b>move 2</b>")
    screenshot(browser, "replay-decision-reply")


def test_a_replay_without_replies_shows_no_panel(pages: dict[str, Path], browser: Any) -> None:
    from selenium.webdriver.common.by import By

    browser.get(file_url(pages["snake"]) + "#ply=3")
    assert not browser.find_element(By.ID, "decision").is_displayed()


def _landed(chosen: dict[str, Any], before: list[list[int]]) -> list[tuple[int, int]]:
    """Where the placement's cells are after its line clears (computed here, apart from the
    viewer): cells of a completed row are gone, the rest fall by the cleared rows below them."""
    cols = len(before[0])
    rows = {r for r, _ in chosen["cells"]}
    cleared = {
        r
        for r in rows
        if 0 <= r < len(before)
        and sum(1 for v in before[r] if v) + sum(1 for cr, _ in chosen["cells"] if cr == r) == cols
    }
    return sorted(
        (r + sum(1 for c in cleared if c > r), col)
        for r, col in chosen["cells"]
        if r not in cleared and r + sum(1 for c in cleared if c > r) >= 0
    )


def test_the_placement_outline_leaves_out_cells_a_line_clear_emptied(
    tmp_path: Path, browser: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    from selenium.webdriver.common.by import By

    log = RESULTS / "tetris-bench/logs/heuristic/IQ/seed-15.jsonl.xz"
    frames = export_replay(log).to_json()["frames"]
    clears = [
        k
        for k in range(1, len(frames))
        if frames[k].get("chosen") and frames[k]["lines"] > frames[k - 1]["lines"]
    ]
    assert clears
    site = SiteBuild(tmp_path / "site")
    site.section("replays", "Replays", "test")
    page = site.replay("replays/clears.html", "clears", log, "tetris")
    site.finish()
    url = file_url(tmp_path / "site" / page)
    for k in clears[:4]:
        browser.get(f"{url}#ply={k}")
        want = _landed(frames[k]["chosen"], frames[k - 1]["board"])
        assert len(want) < 4  # a clear took some of the piece's cells
        outlined = browser.find_elements(By.CSS_SELECTOR, "#board rect.chosen")
        got = sorted(
            (
                round((float(r.get_attribute("y")) - 1.5) / 24),
                round((float(r.get_attribute("x")) - 1.5) / 24),
            )
            for r in outlined
        )
        assert got == want
        board = frames[k]["board"]
        assert all(board[r][c] for r, c in got)  # every outlined cell is a filled cell now
    screenshot(browser, "tetris-outline-after-clear")


def test_narcade_tetris_says_the_control_pressed(pages: dict[str, Path], browser: Any) -> None:
    from selenium.webdriver.common.by import By

    browser.get(file_url(pages["narcade-tetris"]) + "#ply=40")
    frame = frames_of(browser)[40]
    control = browser.find_element(By.CSS_SELECTOR, '#board [data-field="control"]')
    assert control.is_displayed() and control.text.split(" ")[0] == frame["action"]
    browser.find_element(By.ID, "first").click()
    assert not control.is_displayed()  # the start: nothing pressed yet
    browser.get(file_url(pages["tetris"]) + "#ply=3")  # Tetris Bench plays placements
    control = browser.find_element(By.CSS_SELECTOR, '#board [data-field="control"]')
    assert not control.is_displayed()


def test_the_snake_head_is_drawn_apart_from_the_body(pages: dict[str, Path], browser: Any) -> None:
    from selenium.webdriver.common.by import By

    browser.get(file_url(pages["snake"]) + "#ply=7")
    frame = frames_of(browser)[7]
    heads = browser.find_elements(By.CSS_SELECTOR, "#board rect.snk-head")
    body = browser.find_elements(By.CSS_SELECTOR, "#board rect.snk-body")
    assert len(heads) == 1 and len(body) == frame["length"] - 1
    head = heads[0]
    row, col = frame["snake"][0]
    assert (float(head.get_attribute("x")) // 24, float(head.get_attribute("y")) // 24) == (
        col,
        row,
    )
    assert head.get_attribute("fill") not in {b.get_attribute("fill") for b in body}
    assert float(head.get_attribute("width")) > float(body[0].get_attribute("width"))
    eyes = browser.find_elements(By.CSS_SELECTOR, "#board circle.snk-eye")
    assert len(eyes) == 2
    dx, dy = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}[frame["heading"]]
    centre = (col * 24 + 12, row * 24 + 12)
    for eye in eyes:  # both eyes sit ahead of the centre, the way the snake heads
        ex, ey = float(eye.get_attribute("cx")), float(eye.get_attribute("cy"))
        assert (ex - centre[0]) * dx + (ey - centre[1]) * dy > 0
