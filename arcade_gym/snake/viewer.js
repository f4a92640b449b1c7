/* Snake replay viewer (docs/frames.md): one frame of a NARCADE Snake episode (the game's frame,
 * arcade_gym/snake/render.py, and NARCADE's fields, evaluation/benchmarks/narcade/site_frames.py):
 * the board as SVG (body shaded green from neck to
 * tail, food, the head apart from the body: dark blue, larger, with two eyes looking the way it
 * heads, red when a collision ended the game) and the facts beside it
 * (score = food eaten, length, heading, moves, the direction played and its judgement, the end).
 * The player (assets/replay.js) calls draw(frame, element, replay) for each decision. Plain ES2019. */
(function () {
  "use strict";

  var K = window.ArcadeKit;
  var CELL = 24;
  var STYLE = [
    ".snk { display: flex; flex-wrap: wrap; gap: 1.25rem; align-items: flex-start; }",
    ".snk-board { width: min(100%, 30rem); height: auto; border: 2px solid #333;",
    "  background: #f4f1e8; }",
    ".snk-facts { margin: 0; min-width: 14rem; }",
    ".snk-facts dt { font-weight: 600; float: left; clear: left; margin-right: 0.4rem; }",
    ".snk-facts dd { margin: 0 0 0.2rem 0; }",
    ".snk-end { font-weight: 600; color: #b00020; }"
  ].join("\n");

  function titled(node, text) {
    K.svg("title", {}, node).textContent = text;
    return node;
  }

  var HEAD = "#1f3a93";
  /* Where the eyes sit, per heading: [dx, dy] of the looking direction. */
  var LOOKS = { up: [0, -1], right: [1, 0], down: [0, 1], left: [-1, 0] };

  /* Body colour: dark green at the head fading to light green at the tail. */
  function shade(index, length) {
    var t = length > 1 ? index / (length - 1) : 0;
    var light = Math.round(30 + 30 * t);
    return "hsl(130, 55%, " + light + "%)";
  }

  function board(frame) {
    var rows = frame.rows;
    var cols = frame.cols;
    var root = K.svg("svg", {
      viewBox: "0 0 " + cols * CELL + " " + rows * CELL,
      class: "snk-board",
      role: "img",
      "aria-label": "Snake board " + rows + " by " + cols
    });
    var grid = K.svg("g", { stroke: "#e2ddd0", "stroke-width": 1 });
    for (var r = 1; r < rows; r += 1) {
      grid.appendChild(K.svg("line", { x1: 0, y1: r * CELL, x2: cols * CELL, y2: r * CELL }));
    }
    for (var c = 1; c < cols; c += 1) {
      grid.appendChild(K.svg("line", { x1: c * CELL, y1: 0, x2: c * CELL, y2: rows * CELL }));
    }
    root.appendChild(grid);
    if (frame.food) {
      root.appendChild(
        titled(
          K.svg("circle", {
            class: "snk-food",
            cx: frame.food[1] * CELL + CELL / 2,
            cy: frame.food[0] * CELL + CELL / 2,
            r: CELL * 0.35,
            fill: "#d62728"
          }),
          "food at row " + frame.food[0] + ", column " + frame.food[1]
        )
      );
    }
    var body = frame.snake || [];
    var crashed = frame.over && (frame.endReason === "wall" || frame.endReason === "body");
    for (var i = body.length - 1; i >= 0; i -= 1) {
      var cell = body[i];
      var head = i === 0;
      var inset = head ? 0 : 2; /* the head fills its cell, the body is drawn thinner */
      var rect = K.svg("rect", {
        class: head ? "snk-head" : "snk-body",
        x: cell[1] * CELL + inset,
        y: cell[0] * CELL + inset,
        width: CELL - 2 * inset,
        height: CELL - 2 * inset,
        rx: head ? 8 : 4,
        fill: head ? (crashed ? "#b00020" : HEAD) : shade(i, body.length)
      });
      root.appendChild(
        titled(rect, (head ? "head" : "body " + i) + " at row " + cell[0] + ", column " + cell[1])
      );
      if (head) {
        eyes(root, cell, frame.heading);
      }
    }
    return root;
  }

  /* Two white eyes on the head, moved toward the heading (so the way it goes is seen). */
  function eyes(root, cell, heading) {
    var look = LOOKS[heading] || [0, 0];
    var cx = cell[1] * CELL + CELL / 2;
    var cy = cell[0] * CELL + CELL / 2;
    [-1, 1].forEach(function (side) {
      /* side by side across the heading, a quarter cell ahead of the centre */
      var x = cx + look[0] * CELL * 0.22 + (look[0] === 0 ? side * CELL * 0.22 : 0);
      var y = cy + look[1] * CELL * 0.22 + (look[1] === 0 ? side * CELL * 0.22 : 0);
      K.svg("circle", { class: "snk-eye", cx: x, cy: y, r: CELL * 0.12, fill: "#fff" }, root);
    });
  }

  function facts(frame) {
    var list = K.el("dl", "snk-facts");
    K.fact(list, "Score (food)", frame.score, { field: "score" });
    K.fact(list, "Length", frame.length, { field: "length" });
    K.fact(list, "Heading", frame.heading, { field: "heading" });
    K.fact(list, "Moves", frame.moves, { field: "moves" });
    K.fact(list, "Board", frame.rows + " \u00d7 " + frame.cols, { field: "size" });
    if ("action" in frame) {
      var played = frame.action === null ? "none (" + frame.status + ")" : frame.action;
      K.fact(list, "Played", played, { field: "action" });
      var effect = frame.effect || {};
      if (effect.ticks) {
        K.fact(list, "Realtime moves", effect.ticks, { field: "ticks" });
      }
    } else {
      K.fact(list, "Played", "start", { field: "action" });
    }
    if (frame.over) {
      K.fact(list, "End", frame.endReason, { field: "end" }).className = "snk-end";
    }
    return list;
  }

  function draw(frame, element) {
    K.style("snake-viewer-style", STYLE);
    K.show(element, "snk", [board(frame), facts(frame)]);
  }

  window.ArcadeViewers = window.ArcadeViewers || {};
  window.ArcadeViewers.snake = { draw: draw };
})();
