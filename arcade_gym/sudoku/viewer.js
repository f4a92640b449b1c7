/* Sudoku replay viewer (docs/frames.md): the 9x9 grid of one frame (the grid's frame,
 * arcade_gym/sudoku/render.py, and the benchmark's fields, evaluation/benchmarks/sudoku/site_frames.py).
 * Givens are bold; each empty cell of the puzzle is coloured by the tier of technique it needs
 * (legend below the grid); the answer's digits carry a right/wrong mark; the cells the answer
 * filled are outlined, and a clicked cell is highlighted with its details. Plain ES2019. */
(function () {
  "use strict";

  var K = window.ArcadeKit;
  var TIER_COLOURS = {
    0: "#ffffff",
    1: "#e8f4ea",
    2: "#d3ecf7",
    3: "#fff1c9",
    4: "#fde0c5",
    5: "#f6d2e4",
    6: "#e2d6f3",
    7: "#d9d9d9"
  };

  var STYLE = [
    ".sdk { display: flex; flex-wrap: wrap; gap: 1.25rem; align-items: flex-start; }",
    ".sdk-grid { display: grid; grid-template-columns: repeat(9, 2.6rem); grid-auto-rows: 2.6rem;",
    "  border: 3px solid #222; width: max-content; font-family: system-ui, sans-serif; }",
    ".sdk-cell { position: relative; display: flex; align-items: center; justify-content: center;",
    "  font-size: 1.35rem; border: 1px solid #bbb; cursor: pointer; color: #1f4e9c; }",
    ".sdk-cell.c3, .sdk-cell.c6 { border-left: 2px solid #222; }",
    ".sdk-cell.r3, .sdk-cell.r6 { border-top: 2px solid #222; }",
    ".sdk-cell.given { font-weight: 700; color: #111; }",
    ".sdk-cell.wrong { color: #b00020; text-decoration: line-through; }",
    ".sdk-cell.changed { color: #b00020; }",
    ".sdk-cell.filled { box-shadow: inset 0 0 0 2px #0072b2; }",
    ".sdk-cell.selected { box-shadow: inset 0 0 0 3px #d55e00; }",
    ".sdk-mark { position: absolute; right: 2px; bottom: 0; font-size: 0.7rem; }",
    ".sdk-mark.right { color: #1b7f3b; }",
    ".sdk-mark.wrong, .sdk-mark.changed { color: #b00020; }",
    ".sdk-side { min-width: 16rem; max-width: 28rem; }",
    ".sdk-legend { list-style: none; padding: 0; margin: 0.5rem 0; }",
    ".sdk-legend li { display: flex; align-items: center; gap: 0.5rem; margin: 0.15rem 0; }",
    ".sdk-swatch { display: inline-block; width: 1.1rem; height: 1.1rem; border: 1px solid #888; }",
    ".sdk-facts { margin: 0; }",
    ".sdk-facts dt { font-weight: 600; float: left; clear: left; margin-right: 0.4rem; }",
    ".sdk-facts dd { margin: 0 0 0.2rem 0; }",
    ".sdk-detail { min-height: 1.5rem; margin-top: 0.5rem; }"
  ].join("\n");

  function cellName(c) {
    return "r" + (Math.floor(c / 9) + 1) + "c" + ((c % 9) + 1);
  }

  function tierName(frame, tier) {
    if (tier === 0) {
      return "given";
    }
    var names = frame.tierNames || {};
    return "tier " + tier + (names[tier] ? " (" + names[tier] + ")" : "");
  }

  var MARK_TEXT = { right: "\u2713", wrong: "\u2717", changed: "\u2717" };
  var MARK_WORDS = {
    given: "given",
    right: "right",
    wrong: "wrong",
    changed: "a given changed",
    empty: "left empty"
  };

  function describe(frame, c) {
    var digit = frame.grid.charAt(c);
    var parts = [cellName(c) + ":"];
    if (frame.marks[c] === "given") {
      parts.push("given " + digit);
    } else {
      parts.push(digit === "0" ? "empty" : "answer " + digit);
      parts.push("(" + MARK_WORDS[frame.marks[c]] + ");");
      parts.push("placed by " + frame.labels[c] + ", needs " + tierName(frame, frame.needs[c]));
    }
    return parts.join(" ");
  }

  function build(el) {
    K.style("sudoku-viewer-style", STYLE);
    var grid = K.el("div", "sdk-grid");
    grid.setAttribute("role", "grid");
    grid.setAttribute("aria-label", "Sudoku grid");
    var cells = [];
    for (var c = 0; c < 81; c += 1) {
      var cell = K.el("div", "sdk-cell");
      cell.setAttribute("role", "gridcell");
      cell.setAttribute("data-cell", String(c));
      cell.tabIndex = 0;
      grid.appendChild(cell);
      cells.push(cell);
    }
    var side = K.el("div", "sdk-side");
    var facts = K.el("dl", "sdk-facts");
    var detail = K.el("p", "sdk-detail");
    detail.setAttribute("aria-live", "polite");
    var legendTitle = K.el("strong", null, "Technique tier each cell needs");
    var legend = K.el("ul", "sdk-legend");
    side.appendChild(facts);
    side.appendChild(legendTitle);
    side.appendChild(legend);
    side.appendChild(detail);
    K.show(el, "sdk", [grid, side]);
    var state = {
      cells: cells,
      facts: facts,
      legend: legend,
      detail: detail,
      selected: null,
      frame: null
    };
    function select(event) {
      var target = event.target.closest ? event.target.closest(".sdk-cell") : null;
      if (!target) {
        return;
      }
      state.selected = Number(target.getAttribute("data-cell"));
      paint(state);
    }
    grid.addEventListener("click", select);
    grid.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        select(event);
        event.preventDefault();
      }
    });
    return state;
  }

  function paint(state) {
    var frame = state.frame;
    var filled = {};
    (frame.filled || []).forEach(function (c) {
      filled[c] = true;
    });
    for (var c = 0; c < 81; c += 1) {
      var cell = state.cells[c];
      var digit = frame.grid.charAt(c);
      var mark = frame.marks[c];
      var classes = ["sdk-cell", mark];
      if (c % 9 === 3 || c % 9 === 6) {
        classes.push("c" + (c % 9));
      }
      var row = Math.floor(c / 9);
      if (row === 3 || row === 6) {
        classes.push("r" + row);
      }
      if (filled[c]) {
        classes.push("filled");
      }
      if (state.selected === c) {
        classes.push("selected");
      }
      cell.className = classes.join(" ");
      cell.style.background = TIER_COLOURS[frame.needs[c]] || "#ffffff";
      cell.textContent = digit === "0" ? "" : digit;
      if (MARK_TEXT[mark]) {
        cell.appendChild(K.el("span", "sdk-mark " + mark, MARK_TEXT[mark]));
      }
      cell.title = describe(frame, c);
      cell.setAttribute("aria-label", cell.title);
    }
    state.detail.textContent =
      state.selected === null ? "Click a cell for its technique." : describe(frame, state.selected);
  }

  function draw(frame, el) {
    var state = el.__sudokuViewer;
    if (!state) {
      state = build(el);
      el.__sudokuViewer = state;
    }
    state.frame = frame;
    state.facts.textContent = "";
    K.fact(state.facts, "Grid", frame.gridId + ", tier " + frame.tier + " (" + frame.tierName + ")");
    K.fact(state.facts, "Attempt", frame.status ? frame.attempt + " (" + frame.status + ")" : "none yet");
    if (frame.reason) {
      K.fact(state.facts, "Reason", frame.reason);
    }
    K.fact(
      state.facts,
      "Confidence",
      frame.confidence === null || frame.confidence === undefined ? "not reported" : frame.confidence
    );
    K.fact(state.facts, "Cells right", frame.cellsRight + " / " + frame.blanks);
    K.fact(state.facts, "Outcome", frame.outcome || "not answered yet");
    state.facts.lastChild.className = "sdk-outcome";
    state.legend.textContent = "";
    var present = {};
    frame.needs.forEach(function (tier) {
      present[tier] = true;
    });
    Object.keys(TIER_COLOURS).forEach(function (key) {
      var tier = Number(key);
      if (!present[tier]) {
        return;
      }
      var item = K.el("li");
      var swatch = K.el("span", "sdk-swatch");
      swatch.style.background = TIER_COLOURS[tier];
      item.appendChild(swatch);
      item.appendChild(K.el("span", null, tierName(frame, tier)));
      state.legend.appendChild(item);
    });
    paint(state);
  }

  window.ArcadeViewers = window.ArcadeViewers || {};
  window.ArcadeViewers.sudoku = { draw: draw };
})();
