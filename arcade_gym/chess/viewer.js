/* Chess ladder replay viewer: the board from each frame's FEN (Unicode pieces, the model's side
 * at the bottom), the last move highlighted, and the game's move list in PGN notation with the
 * judgements (?! inaccuracy, ? mistake, ?? blunder); clicking a move seeks the player there.
 * Frames (docs/frames.md): the game's (arcade_gym/chess/render.py) with the ladder's fields
 * (evaluation/benchmarks/chess_ladder/site_frames.py). Official grades (graded at the run's
 * --grade-nodes) come from the page's #page-data JSON (`grades`, each with its ply; `answerMs`,
 * each answer's wall time) when present; otherwise each model move shows the quick judgement its
 * frame derives from the log. */
(function () {
  "use strict";

  var K = window.ArcadeKit;
  var PIECES = {
    K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
    k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f"
  };
  var NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
  var SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  var FILES = "abcdefgh";

  var STYLE = [
    ".chs { display: flex; flex-wrap: wrap; gap: 1.25rem; align-items: flex-start; }",
    ".chs-board { display: grid; grid-template-columns: 1.4rem repeat(8, 3rem);",
    "  grid-auto-rows: 3rem; width: max-content; font-family: system-ui, sans-serif; }",
    ".chs-sq { display: flex; align-items: center; justify-content: center; font-size: 2.2rem;",
    "  line-height: 1; color: #111; }",
    ".chs-sq.light { background: #f0d9b5; } .chs-sq.dark { background: #b58863; }",
    ".chs-sq.last { box-shadow: inset 0 0 0 3px #e6b800; }",
    ".chs-sq.model { box-shadow: inset 0 0 0 3px #0072b2; }",
    ".chs-sq.check { background: #e06666; }",
    ".chs-coord { display: flex; align-items: center; justify-content: center; font-size: 0.75rem;",
    "  color: #555; }",
    ".chs-files { grid-auto-rows: 1.2rem; }",
    ".chs-side { min-width: 16rem; max-width: 32rem; flex: 1; }",
    ".chs-facts { margin: 0 0 0.5rem 0; }",
    ".chs-facts dt { font-weight: 600; float: left; clear: left; margin-right: 0.4rem; }",
    ".chs-facts dd { margin: 0 0 0.2rem 0; overflow-wrap: anywhere; }",
    ".chs-moves { line-height: 1.8; max-height: 22rem; overflow-y: auto; border: 1px solid #ccc;",
    "  padding: 0.4rem 0.6rem; font-family: ui-monospace, monospace; font-size: 0.9rem; }",
    ".chs-num { color: #666; margin-right: 0.2rem; }",
    ".chs-moves .chs-move { background: none; border: 0; padding: 0 0.2rem; font: inherit; cursor: pointer;",
    "  color: #1f4e9c; border-radius: 3px; }",
    ".chs-moves .chs-move.rung { color: #333; }",
    ".chs-moves .chs-move.current { background: #ffe58a; }",
    ".chs-move.inaccuracy .chs-j { color: #b58900; }",
    ".chs-move.mistake .chs-j { color: #d55e00; }",
    ".chs-move.blunder .chs-j { color: #b00020; font-weight: 700; }",
    ".chs-result { font-weight: 700; }"
  ].join("\n");

  /* Square name -> piece letter, from the placement field of a FEN. */
  function placement(fen) {
    var rows = fen.split(" ")[0].split("/");
    var squares = {};
    rows.forEach(function (row, index) {
      var rank = 8 - index;
      var file = 0;
      for (var i = 0; i < row.length; i += 1) {
        var ch = row.charAt(i);
        if (/[1-8]/.test(ch)) {
          file += Number(ch);
        } else {
          squares[FILES.charAt(file) + rank] = ch;
          file += 1;
        }
      }
    });
    return squares;
  }

  /* The page's data holds what the run's results add: `grades` (each with its ply) and
   * `answerMs` (the wall time of each decision's answer, in order); {} without them. */
  function pageGrades() {
    var byPly = {};
    (K.pageData().grades || []).forEach(function (grade) {
      byPly[grade.ply] = grade;
    });
    return byPly;
  }

  /* Every move of the game in order, with the frame that shows the position after it. */
  function moveList(replay) {
    var official = pageGrades();
    var list = [];
    replay.frames.forEach(function (frame, index) {
      (frame.moves || []).forEach(function (move) {
        var grade = official[move.ply];
        var quick = move.by === "model" ? frame.judgement : null;
        var judged = grade
          ? { judgement: grade.judgement, loss: grade.loss, best: grade.best, source: "graded" }
          : quick
            ? { judgement: quick.judgement, loss: quick.loss, best: null, source: "quick" }
            : null;
        list.push({ move: move, frame: index, judged: judged });
      });
    });
    return list;
  }

  function startPly(replay) {
    var settings = (replay.header && replay.header.settings) || {};
    var fen = settings.startFen || (replay.frames[0] && replay.frames[0].fen) || "";
    var parts = fen.split(" ");
    var fullmove = Number(parts[5]) || 1;
    return 2 * (fullmove - 1) + (parts[1] === "b" ? 1 : 0);
  }

  function seekTo(index) {
    var seek = document.getElementById("seek");
    if (!seek) {
      return;
    }
    seek.value = String(index);
    seek.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function buildMoves(state, replay) {
    var box = state.moves;
    box.textContent = "";
    var offset = startPly(replay);
    state.buttons = [];
    state.list.forEach(function (entry, i) {
      var absolute = offset + entry.move.ply;
      var number = Math.floor(absolute / 2) + 1;
      if (absolute % 2 === 0) {
        box.appendChild(K.el("span", "chs-num", number + "."));
      } else if (i === 0) {
        box.appendChild(K.el("span", "chs-num", number + "..."));
      }
      var judgement = entry.judged ? entry.judged.judgement : null;
      var button = K.el("button", "chs-move " + entry.move.by + (judgement ? " " + judgement : ""));
      button.type = "button";
      button.appendChild(document.createTextNode(entry.move.san));
      if (judgement) {
        button.appendChild(K.el("span", "chs-j", SYMBOLS[judgement] || ""));
      }
      var tip = entry.move.by + " " + entry.move.uci;
      if (entry.judged) {
        tip += "; lost " + entry.judged.loss + " points of winning chance";
        tip += judgement ? " (" + judgement + ")" : "";
        tip += entry.judged.best && entry.judged.best !== entry.move.uci ? "; best " + entry.judged.best : "";
        tip += entry.judged.source === "quick" ? "; quick reading from the log" : "";
      }
      button.title = tip;
      button.addEventListener("click", function () {
        seekTo(entry.frame);
      });
      box.appendChild(button);
      box.appendChild(document.createTextNode(" "));
      state.buttons.push({ node: button, entry: entry });
    });
    var result = replay.result && replay.result.result;
    if (result) {
      box.appendChild(K.el("span", "chs-result", result));
    }
  }

  function build(el, replay) {
    K.style("chess-viewer-style", STYLE);
    var board = K.el("div", "chs-board");
    board.setAttribute("role", "img");
    var side = K.el("div", "chs-side");
    var facts = K.el("dl", "chs-facts");
    var moves = K.el("div", "chs-moves");
    moves.setAttribute("aria-label", "moves");
    side.appendChild(facts);
    side.appendChild(K.el("strong", null, "Moves"));
    side.appendChild(moves);
    K.show(el, "chs", [board, side]);
    var state = {
      answerMs: K.pageData().answerMs || [],
      replay: replay,
      board: board,
      facts: facts,
      moves: moves,
      list: moveList(replay),
      buttons: []
    };
    buildMoves(state, replay);
    return state;
  }

  function kingSquare(squares, colour) {
    var king = colour === "white" ? "K" : "k";
    return Object.keys(squares).filter(function (sq) {
      return squares[sq] === king;
    })[0];
  }

  function drawBoard(state, frame) {
    var squares = placement(frame.fen);
    var whiteBottom = frame.modelColour !== "black";
    var highlight = {};
    (frame.moves || []).forEach(function (move) {
      if (move.by === "model" && move.uci !== frame.lastMove) {
        highlight[move.uci.slice(0, 2)] = "model";
        highlight[move.uci.slice(2, 4)] = "model";
      }
    });
    if (frame.lastMove) {
      highlight[frame.lastMove.slice(0, 2)] = "last";
      highlight[frame.lastMove.slice(2, 4)] = "last";
    }
    var checked = frame.check ? kingSquare(squares, frame.turn) : null;
    var board = state.board;
    board.textContent = "";
    board.setAttribute("aria-label", "position " + frame.fen);
    for (var r = 0; r < 8; r += 1) {
      var rank = whiteBottom ? 8 - r : r + 1;
      board.appendChild(K.el("div", "chs-coord", rank));
      for (var f = 0; f < 8; f += 1) {
        var file = whiteBottom ? f : 7 - f;
        var name = FILES.charAt(file) + rank;
        var shade = (file + rank) % 2 === 1 ? "dark" : "light";
        var classes = ["chs-sq", shade];
        if (highlight[name]) {
          classes.push(highlight[name]);
        }
        if (name === checked) {
          classes.push("check");
        }
        var piece = squares[name];
        var square = K.el("div", classes.join(" "), piece ? PIECES[piece] : "");
        square.setAttribute("data-square", name);
        square.title = piece
          ? name + ": " + (piece === piece.toUpperCase() ? "white " : "black ") + NAMES[piece.toLowerCase()]
          : name;
        board.appendChild(square);
      }
    }
    board.appendChild(K.el("div", "chs-coord", ""));
    for (var g = 0; g < 8; g += 1) {
      board.appendChild(K.el("div", "chs-coord chs-files", FILES.charAt(whiteBottom ? g : 7 - g)));
    }
  }

  /* The latest measurement up to frame `index` (a rejected try measures nothing: the one
   * before it stands). */
  function evalText(replay, index) {
    for (var k = Math.min(index, replay.frames.length - 1); k >= 0; k -= 1) {
      var frame = replay.frames[k];
      var evals = frame.evals || [];
      if (evals.length) {
        var pawns = evals[evals.length - 1];
        if (pawns === null) {
          return frame.over ? "not measured (game over)" : "not measured";
        }
        return (pawns > 0 ? "+" : "") + Number(pawns).toFixed(2) + " pawns (white's view)";
      }
    }
    return "not measured";
  }

  function draw(frame, el, replay, position) {
    var state = el.__chessViewer;
    if (!state || state.replay !== replay) {
      state = build(el, replay);
      el.__chessViewer = state;
    }
    drawBoard(state, frame);
    var index = typeof position === "number" ? position : typeof frame.decision === "number" ? frame.decision + 1 : 0;
    var facts = state.facts;
    facts.textContent = "";
    var settings = (replay.header && replay.header.settings) || {};
    K.fact(facts, "Rung", (settings.rung || "?") + (settings.rungRating !== undefined ? " (" + settings.rungRating + ")" : ""));
    K.fact(facts, "Model plays", frame.modelColour + (frame.variant === "chess960" ? ", Chess960" : ""));
    K.fact(facts, "To move", frame.turn + (frame.check ? ", in check" : ""));
    K.fact(facts, "Evaluation", evalText(replay, index));
    if (frame.verdict && frame.verdict !== "legal") {
      K.fact(facts, "Answer", frame.verdict + " (try " + frame.attempt + ")" + (frame.feedback ? ": " + frame.feedback : ""));
    }
    var took = index > 0 ? state.answerMs[index - 1] : null;
    if (typeof took === "number") {
      K.fact(facts, "Answer time", took < 1000 ? took.toFixed(1) + " ms" : (took / 1000).toFixed(2) + " s");
    }
    K.fact(facts, "Rejected so far", frame.rejected);
    K.fact(facts, "FEN", frame.fen, { className: "chess-fen" });
    K.fact(
      facts,
      "Result",
      frame.over ? frame.result + " (" + frame.endReason + ")" : "game in progress",
      { className: "chess-result" }
    );
    state.buttons.forEach(function (item) {
      if (item.entry.frame === index) {
        item.node.classList.add("current");
      } else {
        item.node.classList.remove("current");
      }
    });
  }

  window.ArcadeViewers = window.ArcadeViewers || {};
  window.ArcadeViewers.chess = { draw: draw };
})();
