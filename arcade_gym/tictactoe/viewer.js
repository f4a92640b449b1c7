/* Tic-tac-toe replay viewer (docs/frames.md): one frame of an arena game (the game's frame,
 * arcade_gym/tictactoe/render.py, and the arena's fields, evaluation/benchmarks/ttt_arena/site_frames.py):
 * the board as SVG (X blue, O red; the engine's last move ringed in yellow, the sparring side's
 * replies in grey; for a suite position the expected answers dotted green) and the facts beside
 * it (size and k, whose turn, the engine's move, its instruction count, an illegal move's reason,
 * the outcome). The player (assets/replay.js) calls draw(frame, element, replay). Plain ES2019. */
(function () {
  "use strict";

  var K = window.ArcadeKit;
  var STYLE = [
    ".ttt { display: flex; flex-wrap: wrap; gap: 1.25rem; align-items: flex-start; }",
    ".ttt-board { width: min(100%, 26rem); height: auto; border: 2px solid #333; background: #fff; }",
    ".ttt-facts { margin: 0; min-width: 14rem; }",
    ".ttt-facts dt { font-weight: 600; float: left; clear: left; margin-right: 0.4rem; }",
    ".ttt-facts dd { margin: 0 0 0.2rem 0; }",
    ".ttt-illegal { font-weight: 600; color: #b00020; }",
    ".ttt-outcome { font-weight: 600; }"
  ].join("\n");
  var COLOURS = { X: "#1f5fbf", O: "#c0392b" };

  function ring(root, cell, size, colour, dashed) {
    var attrs = {
      x: cell[1] * size + 2,
      y: cell[0] * size + 2,
      width: size - 4,
      height: size - 4,
      fill: "none",
      stroke: colour,
      "stroke-width": 3
    };
    if (dashed) {
      attrs["stroke-dasharray"] = "4 3";
    }
    root.appendChild(K.svg("rect", attrs));
  }

  function board(frame) {
    var n = frame.size;
    var cell = n <= 3 ? 60 : n <= 5 ? 40 : 26;
    var side = n * cell;
    var root = K.svg("svg", {
      viewBox: "0 0 " + side + " " + side,
      class: "ttt-board",
      role: "img",
      "aria-label": "board " + n + " by " + n
    });
    var grid = K.svg("g", { stroke: "#bbb", "stroke-width": 1 });
    for (var i = 1; i < n; i += 1) {
      grid.appendChild(K.svg("line", { x1: 0, y1: i * cell, x2: side, y2: i * cell }));
      grid.appendChild(K.svg("line", { x1: i * cell, y1: 0, x2: i * cell, y2: side }));
    }
    root.appendChild(grid);
    (frame.expected || []).forEach(function (move) {
      ring(root, move, cell, "#2e7d32", true);
    });
    if (frame.lastMove) {
      root.appendChild(
        K.svg("rect", {
          x: frame.lastMove[1] * cell,
          y: frame.lastMove[0] * cell,
          width: cell,
          height: cell,
          fill: "#fff3b0"
        })
      );
    }
    (frame.replies || []).forEach(function (move) {
      ring(root, move, cell, "#999", false);
    });
    frame.rows.forEach(function (row, r) {
      for (var c = 0; c < row.length; c += 1) {
        var mark = row.charAt(c);
        if (mark !== "X" && mark !== "O") {
          continue;
        }
        var text = K.svg("text", {
          x: c * cell + cell / 2,
          y: r * cell + cell / 2,
          "text-anchor": "middle",
          "dominant-baseline": "central",
          "font-size": Math.round(cell * 0.62),
          "font-weight": 700,
          "font-family": "system-ui, sans-serif",
          fill: COLOURS[mark],
          "data-cell": r + "," + c
        });
        text.textContent = mark;
        root.appendChild(text);
      }
    });
    if (frame.lastMove && frame.rows[frame.lastMove[0]]) {
      ring(root, frame.lastMove, cell, "#e0a800", false);
    }
    return root;
  }

  function facts(frame) {
    var dl = K.el("dl", "ttt-facts");
    function add(term, value, className) {
      K.fact(dl, term, value, { className: className });
    }
    add("board", frame.size + "\u00d7" + frame.size + ", " + frame.k + " in a row");
    add("engine plays", frame.engineMark);
    if (frame.kind === "match") {
      add("opponent", frame.opponent);
      add("stones placed", String(frame.ply));
    } else {
      add("category", frame.category);
    }
    add("to move", frame.toMove || "\u2014");
    add("engine's move", frame.lastMove ? frame.lastMove[0] + " " + frame.lastMove[1] : "\u2014");
    add(
      "instructions",
      frame.instructions === null || frame.instructions === undefined
        ? "\u2014"
        : K.thousands(frame.instructions)
    );
    if (frame.replies && frame.replies.length) {
      add(
        "reply",
        frame.replies
          .map(function (m) {
            return m[0] + " " + m[1];
          })
          .join(", ")
      );
    }
    if (frame.illegal) {
      add("illegal move", frame.illegal, "ttt-illegal");
    }
    if (frame.kind === "position" && frame.over) {
      add("passed", frame.passed ? "yes" : "no");
    }
    if (frame.kind === "match" && frame.over) {
      add(
        "outcome",
        frame.outcome + (frame.winner ? " (" + frame.winner + " made a line)" : ""),
        "ttt-outcome"
      );
    }
    return dl;
  }

  window.ArcadeViewers = window.ArcadeViewers || {};
  window.ArcadeViewers.tictactoe = {
    draw: function (frame, element) {
      K.style("tictactoe-viewer-style", STYLE);
      K.show(element, "ttt", [board(frame), facts(frame)]);
      element.setAttribute("data-rows", frame.rows.join("/"));
    }
  };
})();
