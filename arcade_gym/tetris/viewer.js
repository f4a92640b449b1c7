/* The `tetris` replay viewer (docs/frames.md): draws the game's frame (format 2, keys in
 * arcade_gym/tetris/render.py:frame; Tetris Bench and NARCADE Tetris alike) and, where a
 * benchmark adds them, the placement just played (`chosen`: outlined where its cells are now, so
 * a cell a line clear emptied is not outlined and the cells above a cleared row are outlined where
 * they fell), the control pressed (NARCADE's `action`, with its `status`), a hold, the verdict or
 * Blitz outcome. Under the board: score and level over the game, with a cursor at the current
 * decision, drawn to their box's width so their text is 11 px or more on a phone. Plain ES2019,
 * SVG, no network. */
(function () {
  "use strict";

  var K = window.ArcadeKit;
  /* Cell value k is the piece KINDS[k - 1]: PIECE_LETTERS of arcade_gym/tetris/rules.py. */
  var KINDS = "IJLOSTZ";
  var COLOURS = {
    I: "#1ba9cf", O: "#e8b400", T: "#9146c2", S: "#3f9f45",
    Z: "#d93a35", J: "#2a5fc9", L: "#e8800c", X: "#8a8f98"
  };
  var CELL = 24;

  function kindOf(code) {
    if (code >= 1 && code <= 7) {
      return KINDS.charAt(code - 1);
    }
    return "X";
  }

  function number(value) {
    if (typeof value !== "number") {
      return "\u2014";
    }
    return value.toLocaleString("en-US");
  }

  function layout(el) {
    el.textContent = "";
    var wrap = K.el("div", "tetris-viewer", null, el);
    wrap.style.display = "flex";
    wrap.style.flexWrap = "wrap";
    wrap.style.gap = "1.25rem";
    wrap.style.alignItems = "flex-start";
    var boardBox = K.el("div", "tetris-board", null, wrap);
    var side = K.el("div", "tetris-side", null, wrap);
    side.style.minWidth = "12rem";
    var stats = K.el("dl", "facts tetris-stats", null, side);
    var fields = {};
    [["score", "Score"], ["lines", "Lines"], ["level", "Level"], ["pieces", "Pieces"],
     ["hold", "Hold"], ["next", "Next"], ["decision", "Decision"], ["control", "Control"],
     ["end", "End"]
    ].forEach(function (pair) {
      fields[pair[0]] = K.fact(stats, pair[1], null, { className: "tetris-" + pair[0] });
    });
    fields.control.setAttribute("data-field", "control");
    var legend = K.el("p", "note tetris-legend",
      "Faint: the piece in play; dashed: where it would drop; outlined in white (when the log names one): the placement just played.", side);
    legend.style.maxWidth = "16rem";
    var state = {
      boardBox: boardBox, fields: fields, charts: K.el("div", "tetris-charts", null, el),
      replay: null, cursors: [], index: 0, chartsWidth: 0
    };
    window.addEventListener("resize", function () {
      if (state.replay && chartWidth(state.charts) !== state.chartsWidth) {
        charts(state);
      }
    });
    return state;
  }

  /* The cells of the placement just played as they are now: `before` is the board it was placed
   * on (the previous frame's). A row the piece completed was cleared, so its cells are dropped and
   * the cells above each cleared row moved down one row per cleared row below them. */
  function landed(chosen, before) {
    if (!chosen || !Array.isArray(chosen.cells) || !Array.isArray(before)) {
      return null;
    }
    var cols = (before[0] || []).length;
    var added = {};
    chosen.cells.forEach(function (cell) {
      added[cell[0]] = (added[cell[0]] || 0) + 1;
    });
    var cleared = Object.keys(added).map(Number).filter(function (row) {
      var filled = (before[row] || []).filter(function (code) { return code; }).length;
      return row >= 0 && row < before.length && filled + added[row] >= cols;
    });
    var cells = chosen.cells.filter(function (cell) {
      return cleared.indexOf(cell[0]) < 0;
    }).map(function (cell) {
      var below = cleared.filter(function (row) { return row > cell[0]; }).length;
      return [cell[0] + below, cell[1]];
    });
    return { cells: cells, kind: chosen.kind };
  }

  function drawBoard(frame, box, before) {
    var board = frame.board || [];
    var rows = board.length || 20;
    var cols = (board[0] || []).length || 10;
    box.textContent = "";
    var svg = K.svg("svg", {
      viewBox: "0 0 " + cols * CELL + " " + rows * CELL,
      width: cols * CELL, height: rows * CELL, role: "img", "class": "tetris-svg"
    }, box);
    K.svg("title", {}, svg).textContent = "Tetris board";
    K.svg("rect", { x: 0, y: 0, width: cols * CELL, height: rows * CELL, fill: "#15171c" }, svg);
    for (var r = 0; r < rows; r += 1) {
      for (var c = 0; c < cols; c += 1) {
        var code = (board[r] || [])[c] || 0;
        K.svg("rect", {
          x: c * CELL + 0.5, y: r * CELL + 0.5, width: CELL - 1, height: CELL - 1,
          fill: code ? COLOURS[kindOf(code)] : "#22252c",
          "data-code": code
        }, svg);
      }
    }
    function piece(p, style) {
      if (!p || !p.cells) {
        return;
      }
      p.cells.forEach(function (cell) {
        if (cell[0] < 0 || cell[0] >= rows || cell[1] < 0 || cell[1] >= cols) {
          return;
        }
        var attrs = {
          x: cell[1] * CELL + 1.5, y: cell[0] * CELL + 1.5, width: CELL - 3, height: CELL - 3
        };
        Object.keys(style).forEach(function (key) {
          attrs[key] = style[key];
        });
        if (attrs.fill === "kind") {
          attrs.fill = COLOURS[p.kind] || COLOURS.X;
        }
        K.svg("rect", attrs, svg);
      });
    }
    piece(frame.ghost, { fill: "none", stroke: "#c9ced6", "stroke-dasharray": "3 2", "class": "ghost" });
    piece(frame.active, { fill: "kind", "fill-opacity": 0.45, "class": "active" });
    var played = landed(frame.chosen, before);
    piece(played, { fill: "none", stroke: "#fff", "stroke-width": 3, "class": "chosen" });
    piece(played, { fill: "none", stroke: "#000", "stroke-width": 1, "class": "chosen-inner" });
  }

  /* Chart text is drawn at CHART_FONT px or more on any screen: a chart is drawn one SVG unit to
   * one CSS pixel at the width its box has (at most CHART_WIDTH), and drawn again when that changes
   * (a phone turned, a window resized), rather than scaled down like an image. */
  var CHART_FONT = 11;
  var CHART_WIDTH = 560;
  var GLYPH_EM = 0.62; /* an upper estimate of a glyph's width (evaluation/site/plot_text.py) */

  function chartWidth(parent) {
    var room = Math.floor(parent.getBoundingClientRect().width || CHART_WIDTH);
    return Math.max(160, Math.min(CHART_WIDTH, room));
  }

  function chart(parent, replay, key, label) {
    var frames = replay.frames || [];
    var values = frames.map(function (f) {
      return typeof f[key] === "number" ? f[key] : null;
    });
    if (!values.some(function (v) { return v !== null; })) {
      return null;
    }
    var width = chartWidth(parent);
    var height = 120;
    var top = 24;
    var bottom = 24;
    var max = Math.max.apply(null, values.filter(function (v) { return v !== null; }).concat([1]));
    var last = Math.max(frames.length - 1, 1);
    var left = Math.ceil(number(max).length * CHART_FONT * GLYPH_EM) + 12;
    function x(i) { return left + (i / last) * (width - left - 8); }
    function y(v) { return height - bottom - (v / max) * (height - top - bottom); }
    var svg = K.svg("svg", {
      viewBox: "0 0 " + width + " " + height, width: width, height: height,
      "class": "plot tetris-" + key + "-plot", role: "img"
    }, parent);
    svg.style.width = width + "px";
    svg.style.maxWidth = "100%";
    K.svg("title", {}, svg).textContent = label + " over the game";
    K.svg("line", { x1: left, y1: height - bottom, x2: width - 8, y2: height - bottom, stroke: "#333" }, svg);
    K.svg("line", { x1: left, y1: top, x2: left, y2: height - bottom, stroke: "#333" }, svg);
    K.svg("text", { x: left - 6, y: top + 4, "text-anchor": "end", "font-size": CHART_FONT }, svg).textContent = number(max);
    K.svg("text", { x: left - 6, y: height - bottom + 4, "text-anchor": "end", "font-size": CHART_FONT }, svg).textContent = "0";
    K.svg("text", { x: left, y: 14, "font-size": CHART_FONT + 1, "font-weight": 600 }, svg).textContent = label;
    K.svg("text", { x: width - 8, y: height - 6, "text-anchor": "end", "font-size": CHART_FONT }, svg).textContent = "decision " + last;
    var points = [];
    values.forEach(function (v, i) {
      if (v !== null) {
        points.push(x(i).toFixed(1) + "," + y(v).toFixed(1));
      }
    });
    K.svg("polyline", { points: points.join(" "), fill: "none", stroke: "#0b5cad", "stroke-width": 2 }, svg);
    var cursor = K.svg("line", { x1: left, y1: top, x2: left, y2: height - bottom, stroke: "#d55e00", "stroke-width": 1.5 }, svg);
    return function (index) {
      var cx = x(index).toFixed(1);
      cursor.setAttribute("x1", cx);
      cursor.setAttribute("x2", cx);
    };
  }

  /* (Re)draw the charts of `state.replay` at the width their box has now. */
  function charts(state) {
    state.charts.textContent = "";
    state.chartsWidth = chartWidth(state.charts);
    state.cursors = [chart(state.charts, state.replay, "score", "Score"),
      chart(state.charts, state.replay, "level", "Level")].filter(Boolean);
    state.cursors.forEach(function (cursor) { cursor(state.index || 0); });
  }

  function draw(frame, el, replay, index) {
    var state = el.__tetris;
    if (!state) {
      state = layout(el);
      el.__tetris = state;
    }
    var at = typeof index === "number" ? index : 0;
    state.index = at;
    if (state.replay !== replay) {
      state.replay = replay;
      charts(state);
    }
    frame = frame || {};
    var previous = at > 0 ? (replay.frames || [])[at - 1] : null;
    drawBoard(frame, state.boardBox, previous ? previous.board : null);
    var f = state.fields;
    f.score.textContent = number(frame.score);
    f.lines.textContent = number(frame.lines);
    f.level.textContent = number(frame.level);
    f.pieces.textContent = number(frame.pieces);
    f.hold.textContent = frame.hold || "\u2014";
    f.next.textContent = Array.isArray(frame.next) && frame.next.length ? frame.next.join(" ") : "\u2014";
    var what = [];
    if (frame.chosen && typeof frame.chosen.x === "number") {
      what.push("x " + frame.chosen.x + ", rotation " + frame.chosen.rotation);
    }
    if (frame.held) {
      what.push("hold");
    }
    if (frame.blitz) {
      what.push(frame.blitz);
    } else if (frame.verdict && frame.verdict !== "valid") {
      what.push(frame.verdict);
    }
    f.decision.textContent = typeof frame.decision === "number" ?
      "#" + (frame.decision + 1) + (what.length ? ": " + what.join(", ") : "") : "start";
    control(f.control, frame);
    f.end.textContent = frame.over ? (frame.endReason || "over") : "\u2014";
    state.cursors.forEach(function (move) { move(at); });
  }

  /* The control pressed at this decision, a row shown only for frames that say one (NARCADE's
   * primitive controls; Tetris Bench answers with placements). */
  function control(dd, frame) {
    var has = Object.prototype.hasOwnProperty.call(frame, "action") &&
      typeof frame.decision === "number";
    dd.hidden = !has;
    if (dd.previousSibling) {
      dd.previousSibling.hidden = !has;
    }
    if (!has) {
      dd.textContent = "";
    } else if (frame.action === null || frame.action === undefined) {
      dd.textContent = "none" + (frame.status ? " (" + frame.status + ")" : "");
    } else {
      var status = frame.status && frame.status !== "valid" ? " (" + frame.status + ")" : "";
      dd.textContent = String(frame.action) + status;
    }
  }

  window.ArcadeViewers = window.ArcadeViewers || {};
  window.ArcadeViewers.tetris = { draw: draw };
})();
