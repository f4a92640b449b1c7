/* Minesweeper replay viewer (docs/frames.md): one frame of a NARCADE Minesweeper episode (the
 * game's frame, arcade_gym/minesweeper/render.py, and NARCADE's fields,
 * evaluation/benchmarks/narcade/site_frames.py). The board is what the player saw: hidden
 * cells raised, flags, revealed counts in the classic colours; once the game is over the mines
 * (`*`) and the one that exploded (`X`). The cell of the action just played is outlined. Beside
 * it: score (safe cells revealed, the automatic opening included) out of the safe cells, mines,
 * flags, moves, the action and its judgement, the end. The player (assets/replay.js) calls
 * draw(frame, element, replay) for each decision. Plain ES2019. */
(function () {
  "use strict";

  var K = window.ArcadeKit;
  var INK = ["", "#0000e6", "#008000", "#dc0000", "#000080", "#800000", "#008080", "#000", "#6e6e6e"];
  var STYLE = [
    ".msw { display: flex; flex-wrap: wrap; gap: 1.25rem; align-items: flex-start; }",
    ".msw-grid { display: grid; gap: 1px; background: #7a7a86; border: 2px solid #555;",
    "  width: max-content; max-width: 100%; overflow-x: auto; font: 700 0.85rem system-ui, sans-serif; }",
    ".msw-cell { width: 1.45rem; height: 1.45rem; display: flex; align-items: center;",
    "  justify-content: center; background: #d6d6d6; }",
    ".msw-cell.hidden, .msw-cell.flag { background: #a3a5b0; box-shadow: inset 2px 2px #c8cad3,",
    "  inset -2px -2px #7d7f8a; }",
    ".msw-cell.flag { color: #dc0000; }",
    ".msw-cell.mine { background: #a3a5b0; color: #111; }",
    ".msw-cell.exploded { background: #e63c32; color: #111; }",
    ".msw-cell.acted { outline: 3px solid #0072b2; outline-offset: -3px; }",
    ".msw-facts { margin: 0; min-width: 14rem; }",
    ".msw-facts dt { font-weight: 600; float: left; clear: left; margin-right: 0.4rem; }",
    ".msw-facts dd { margin: 0 0 0.2rem 0; }",
    ".msw-end { font-weight: 600; color: #b00020; }",
    ".msw-end.solved { color: #1b7f3b; }"
  ].join("\n");

  /* [class, text, description] of one board character. */
  function look(ch) {
    if (ch === "#") {
      return ["hidden", "", "hidden"];
    }
    if (ch === "F") {
      return ["flag", "\u2691", "flagged"];
    }
    if (ch === "*") {
      return ["mine", "\u2739", "mine"];
    }
    if (ch === "X") {
      return ["exploded", "\u2739", "the mine that was revealed"];
    }
    var n = Number(ch);
    return ["open", n > 0 ? ch : "", n + " neighbouring mine" + (n === 1 ? "" : "s")];
  }

  function grid(frame) {
    var node = K.el("div", "msw-grid");
    node.style.gridTemplateColumns = "repeat(" + frame.cols + ", 1.45rem)";
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", "Minesweeper board " + frame.rows + " by " + frame.cols);
    var acted = frame.cell || null;
    frame.board.forEach(function (line, r) {
      for (var c = 0; c < line.length; c += 1) {
        var shown = look(line.charAt(c));
        var cell = K.el("div", "msw-cell " + shown[0]);
        if (acted && acted[0] === r && acted[1] === c) {
          cell.className += " acted";
        }
        cell.textContent = shown[1];
        if (shown[0] === "open") {
          cell.style.color = INK[Number(line.charAt(c))];
        }
        cell.title = "row " + r + ", column " + c + ": " + shown[2];
        node.appendChild(cell);
      }
    });
    return node;
  }

  function facts(frame) {
    var list = K.el("dl", "msw-facts");
    K.fact(list, "Score (safe cells)", frame.score, { field: "score" });
    K.fact(list, "Safe cells", frame.safeCells, { field: "safeCells" });
    K.fact(list, "Mines", frame.mines, { field: "mines" });
    K.fact(list, "Flags", frame.flags, { field: "flags" });
    K.fact(list, "Moves", frame.moves, { field: "moves" });
    if ("action" in frame) {
      K.fact(list, "Played", frame.action === null ? "none (" + frame.status + ")" : frame.action, { field: "action" });
    } else {
      K.fact(list, "Played", "opening (automatic)", { field: "action" });
    }
    if (frame.over) {
      var end = K.fact(list, "End", frame.endReason, { field: "end" });
      end.className = "msw-end" + (frame.endReason === "solved" ? " solved" : "");
    }
    return list;
  }

  function draw(frame, element) {
    K.style("minesweeper-viewer-style", STYLE);
    K.show(element, "msw", [grid(frame), facts(frame)]);
  }

  window.ArcadeViewers = window.ArcadeViewers || {};
  window.ArcadeViewers.minesweeper = { draw: draw };
})();
