"""The WebAssembly engine where visitors run it: headless Chromium, in its Web Worker, on a page
opened from disk (file://). Same outputs, instruction counts and errors as the Python interpreter
on the corpus and on the shipped arena entries; a clean run ran as WebAssembly, a fault was
re-run on the interpreter; a 100 M-instruction move leaves the page's main thread answering; no
worker means the interpreter on the main thread, with the same results; the entry page of the
real site plays its moves this way. The tactician on a 10x10 position is timed as WebAssembly and
as the JavaScript interpreter in the same Chromium: the figures are printed, never asserted."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest

from evaluation.site.build import SiteBuild
from evaluation.site.html import Markup
from tests.site.test_bf_wasm import ENTRIES, arena_positions
from tests.site.test_brainfuck_js import CASES, CORPUS, python_run, read_source

pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

SCRIPTS = ("brainfuck.js", "bf-wasm.js", "bf-worker.js")
LONG_MOVE = "-[>-[>" + "+" * 170 + "[>[-]+<-]<-]<-]"
"""General loops three deep (never folded): 99,814,905 instructions, just under the limit."""

RUN_CASES = """
var cases = arguments[0], options = arguments[1], done = arguments[arguments.length - 1];
var results = [], engine = null, key = null;
function next(i) {
  if (i >= cases.length) { if (engine) engine.close(); done(results); return; }
  var c = cases[i], k = c.source + "\\u0000" + JSON.stringify(c.limits || null);
  if (k !== key) {
    if (engine) engine.close();
    engine = ArcadeBfWorker.engine(c.source, {limits: c.limits || undefined, wasm: options.wasm});
    key = k;
  }
  engine.run(c.input || "", function (r) { results.push(r); next(i + 1); });
}
next(0);
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty page of a built site that loads the engine's scripts."""
    out = tmp_path_factory.mktemp("wasm-site")
    build = SiteBuild(out, version="test")
    build.section("bf", "Brainfuck", Markup("<p>engines</p>"))
    build.page("bf/index.html", "Engines", Markup("<p>engines</p>"), scripts=SCRIPTS)
    build.finish()
    return out / "bf" / "index.html"


def run_cases(browser: Any, page: Path, cases: list[dict[str, Any]], wasm: bool = True) -> Any:
    browser.get(page.resolve().as_uri())
    browser.set_script_timeout(300)
    return browser.execute_async_script(RUN_CASES, cases, {"wasm": wasm})


def assert_same_as_python(cases: list[dict[str, Any]], results: list[dict[str, Any]]) -> None:
    assert len(results) == len(cases)
    for case, got in zip(cases, results, strict=True):
        expected = python_run(case["source"], case.get("input", ""), case.get("limits") or {})
        seen = {k: got[k] for k in ("instructions", "error", "errorKind")}
        seen["output"] = got["output"].encode("latin-1")
        assert seen == expected, (case["source"][:120], case.get("input"), case.get("limits"))
        assert got["where"] == "worker"
        assert got["engine"] == ("wasm" if expected["error"] is None else "js"), case


def corpus() -> list[dict[str, Any]]:
    cases = []
    for path in sorted(CORPUS.glob("*.bf")):
        for case in CASES["programs"].get(path.name, [{}]):
            cases.append({"source": read_source(path), **case})
    return cases


def entry_cases() -> list[dict[str, Any]]:
    cases = []
    for entry in sorted(p for p in ENTRIES.iterdir() if p.is_dir()):
        source = read_source(entry / "engine.bf")
        for size, games in ((3, 2), (5, 1), (10, 1)):
            texts = arena_positions(size, games, seed=size + 1)
            cases += [{"source": source, "input": t} for t in texts[:: max(1, len(texts) // 5)]]
    return cases


def test_the_corpus_runs_in_the_worker_as_in_python(browser: Any, page: Path) -> None:
    cases = corpus()
    assert_same_as_python(cases, run_cases(browser, page, cases))


def test_the_shipped_entries_answer_in_the_worker_as_in_python(browser: Any, page: Path) -> None:
    cases = entry_cases()
    assert_same_as_python(cases, run_cases(browser, page, cases))


RESPONSIVE = """
var source = arguments[0], wasm = arguments[1], done = arguments[arguments.length - 1];
var ticks = 0, started = performance.now();
var timer = setInterval(function () { ticks++; }, 5);
var engine = ArcadeBfWorker.engine(source, {wasm: wasm});
engine.run("", function (r) {
  var during = ticks;
  clearInterval(timer);
  engine.close();
  done({result: r, ticks: during, wallMs: performance.now() - started});
});
"""


@pytest.mark.parametrize("wasm", [True, False], ids=["wasm", "interpreter-in-worker"])
def test_a_100m_instruction_move_leaves_the_page_answering(
    browser: Any, page: Path, wasm: bool
) -> None:
    browser.get(page.resolve().as_uri())
    browser.set_script_timeout(300)
    seen = browser.execute_async_script(RESPONSIVE, LONG_MOVE, wasm)
    result = seen["result"]
    assert result["instructions"] == 99_814_905 and result["error"] is None
    assert result["where"] == "worker" and result["engine"] == ("wasm" if wasm else "js")
    print(
        f"\n100 M-instruction move ({result['engine']} in the worker): {result['elapsedMs']:.0f} ms"
        f" in the worker, the page's 5 ms timer fired {seen['ticks']} times meanwhile"
    )
    assert seen["ticks"] >= 1  # the main thread ran its timer while the worker computed


NO_WORKER = """
var source = arguments[0], input = arguments[1], done = arguments[arguments.length - 1];
window.Worker = undefined;
var engine = ArcadeBfWorker.engine(source, {});
engine.run(input, function (r) { done(r); });
"""


def test_without_a_worker_the_interpreter_runs_on_the_main_thread(browser: Any, page: Path) -> None:
    source = read_source(ENTRIES / "first-empty" / "engine.bf")
    text = arena_positions(3, 1, seed=4)[2]
    browser.get(page.resolve().as_uri())
    got = browser.execute_async_script(NO_WORKER, source, text)
    expected = python_run(source, text, {})
    assert got["where"] == "main thread" and got["engine"] == "js"
    assert got["instructions"] == expected["instructions"]
    assert got["output"].encode("latin-1") == expected["output"]


def test_the_entry_page_plays_its_moves_as_webassembly_in_the_worker(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import evaluation.cli  # noqa: F401  (registers the benchmarks)
    from evaluation.site.cli import build_site

    out = tmp_path_factory.mktemp("arena-wasm") / "site"
    build_site(out, [ENTRIES])
    browser.get((out / "arena" / "entries" / "tactician.html").resolve().as_uri())
    element = browser.find_element(By.CSS_SELECTOR, "[data-arcade-play]")
    Select(element.find_element(By.CSS_SELECTOR, "select.play-size")).select_by_value("10")
    Select(element.find_element(By.CSS_SELECTOR, "select.play-first")).select_by_value("O")
    WebDriverWait(browser, 120).until(
        lambda _: (
            browser.execute_script("return arguments[0].dataset.playState", element) == "your-turn"
        )
    )
    moves = browser.execute_script("return arguments[0].arcadeMoves", element)
    first = moves[-1]
    assert first["by"] == "entry" and first["engine"] == "wasm" and first["where"] == "worker"
    source = read_source(ENTRIES / "tactician" / "engine.bf")
    expected = python_run(source, first["input"], {})
    assert first["instructions"] == expected["instructions"]
    assert first["output"].encode("latin-1") == expected["output"]


BENCH = """
var source = arguments[0], input = arguments[1], rounds = arguments[2];
var done = arguments[arguments.length - 1];
var figures = {};
function measure(wasm, next) {
  // the first move (compiling included), then batches of `rounds` moves timed in the worker
  var engine = ArcadeBfWorker.engine(source, {wasm: wasm}), times = [], first = null;
  var started = performance.now();
  function one(i) {
    engine.run(input, function (r) {
      if (first === null) first = performance.now() - started;
      else times.push(r.elapsedMs);
      figures[wasm ? "wasm" : "js"] = {times: times, first: first, engine: r.engine,
        instructions: r.instructions, output: r.output};
      if (i < 5) one(i + 1); else { engine.close(); next(); }
    }, i === 0 ? 1 : rounds);
  }
  one(0);
}
measure(true, function () { measure(false, function () { done(figures); }); });
"""


def test_the_tactician_on_10x10_wasm_against_the_interpreter(browser: Any, page: Path) -> None:
    """Prints the figures (median over rounds, both in the same worker setting); asserts only
    that both engines agree with Python."""
    source = read_source(ENTRIES / "tactician" / "engine.bf")
    positions = arena_positions(10, 1, seed=7)
    text = positions[min(12, len(positions) - 1)]
    browser.get(page.resolve().as_uri())
    browser.set_script_timeout(300)
    figures = browser.execute_async_script(BENCH, source, text, 40)
    expected = python_run(source, text, {})
    for name in ("wasm", "js"):
        assert figures[name]["instructions"] == expected["instructions"]
        assert figures[name]["output"].encode("latin-1") == expected["output"]
    assert figures["wasm"]["engine"] == "wasm" and figures["js"]["engine"] == "js"
    wasm_ms = statistics.median(figures["wasm"]["times"])
    js_ms = statistics.median(figures["js"]["times"])
    print(
        f"\ntactician, 10x10 position ({expected['instructions']:,} instructions): "
        f"WebAssembly {wasm_ms:.3f} ms, JS interpreter {js_ms:.3f} ms a move (median of 5 "
        f"batches of 40 warm moves), {js_ms / max(wasm_ms, 1e-6):.1f}x; first move, compiling "
        f"included: {figures['wasm']['first']:.0f} ms vs {figures['js']['first']:.0f} ms"
    )


DEAD_WORKER = """
var source = arguments[0], input = arguments[1], done = arguments[arguments.length - 1];
var Real = window.Worker;
window.Worker = function () {  // a worker that fails as it loads (as a refused script would)
  return new Real(URL.createObjectURL(new Blob(["throw new Error('refused');"])));
};
var engine = ArcadeBfWorker.engine(source, {});
engine.run(input, function (r) { done(r); });
"""


def test_a_worker_that_dies_hands_its_move_to_the_main_thread(browser: Any, page: Path) -> None:
    source = read_source(ENTRIES / "first-empty" / "engine.bf")
    text = arena_positions(3, 1, seed=4)[1]
    browser.get(page.resolve().as_uri())
    browser.set_script_timeout(60)
    got = browser.execute_async_script(DEAD_WORKER, source, text)
    expected = python_run(source, text, {})
    assert got["where"] == "main thread" and got["engine"] == "js"
    assert got["instructions"] == expected["instructions"]
    assert got["output"].encode("latin-1") == expected["output"]
