/*
 * Play an arena entry in the browser: the visitor picks a board size and who moves first, clicks
 * squares, and the entry answers by running its Brainfuck program (brainfuck.js) on the position
 * text the arena gives an engine (tictactoe-rules.js), under the arena's limits. The page shows
 * each entry move, its instruction count, and an illegal or unreadable reply as the arena treats
 * it in a match: the entry forfeits and the visitor wins.
 *
 * Needs brainfuck.js, tictactoe-rules.js and viewer-kit.js (the helpers the site's scripts share)
 * loaded first (plain scripts, no modules); with bf-wasm.js and bf-worker.js also loaded, the
 * entry's moves run in a Web Worker as WebAssembly, and the page stays responsive during them.
 *
 * ArcadePlay.mount(element, {source, name, sizes: [3, 5, 10]}) builds the player inside
 * `element` and returns its controller ({newGame(size, visitorMark), state()}). `source` is the
 * engine file's text as Python reads it (its bytes decoded as latin-1). Or, with no script of
 * your own, mark the element `data-arcade-play` (optionally `data-arcade-play="KEY"`): on load
 * it is mounted with the options found in the page's inline `page-data` JSON under KEY (default
 * "play"; the data itself when it has a `source`).
 *
 * For tests and curious visitors, the game is exposed as it happens: `element.arcadeMoves` (one
 * record per move: ply, mark, by "visitor" | "entry", move [row, col] | null, and for entry moves
 * input, output, instructions, error, illegal, elapsedMs, engine "wasm" | "js", where "worker" |
 * "main thread"), `element.arcadeResult`, the JSON of
 * both in the hidden `<pre class="play-log">`, and `element.dataset.playState` ("your-turn",
 * "thinking", "over").
 */
(function (root) {
  "use strict";

  var STYLE = [
    ".arcade-play { margin: 1rem 0; }",
    ".arcade-play .play-controls { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-bottom: .5rem; }",
    ".arcade-play .play-board { display: inline-grid; gap: 2px; background: #555; border: 2px solid #555; margin: .5rem 0; }",
    ".arcade-play .play-cell { width: var(--cell); height: var(--cell); border: 0; padding: 0; margin: 0;",
    "  background: #fff; color: #111; font: bold calc(var(--cell) * .6) / 1 system-ui, sans-serif; cursor: pointer; }",
    ".arcade-play .play-cell:disabled { cursor: default; }",
    ".arcade-play .play-cell.mark-X { color: #1f5fbf; }",
    ".arcade-play .play-cell.mark-O { color: #c0392b; }",
    ".arcade-play .play-cell.last { background: #fff3b0; }",
    ".arcade-play .play-cell.win { background: #c8f0c8; }",
    ".arcade-play .play-main { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }",
    ".arcade-play .play-history { max-height: 24rem; overflow-y: auto; }",
    ".arcade-play .play-status { font-weight: 600; min-height: 1.5em; }",
    ".arcade-play .play-moves { border-collapse: collapse; font-variant-numeric: tabular-nums; }",
    ".arcade-play .play-moves th, .arcade-play .play-moves td { padding: .15rem .6rem; border-bottom: 1px solid #ddd; text-align: left; }",
    ".arcade-play .play-moves td.num { text-align: right; }",
    ".arcade-play .illegal { color: #b00020; }",
  ].join("\n");
  var CELL_PX = { 3: 64, 5: 48, 10: 34 };

  /** Build the player in `element`; returns its controller. */
  function mount(element, options) {
    var BF = root.ArcadeBrainfuck, TTT = root.ArcadeTicTacToe, K = root.ArcadeKit;
    if (!BF || !TTT || !K) {
      throw new Error("arena-play.js needs brainfuck.js, tictactoe-rules.js and viewer-kit.js loaded first");
    }
    var name = options.name || "the entry";
    var sizes = (options.sizes || TTT.SIZES).filter(function (s) { return TTT.K_FOR_SIZE[s] !== undefined; });
    var program = BF.compile(String(options.source || ""));
    var limits = options.limits;
    // Moves run in a Web Worker (WebAssembly, bf-worker.js / bf-wasm.js) when the page has them,
    // so a long move never freezes the page; else on the main thread with the interpreter.
    var W = root.ArcadeBfWorker;
    var engine = W ? W.engine(String(options.source || ""), { limits: limits }) : null;

    K.style("arcade-play-style", STYLE);
    element.textContent = "";
    element.classList.add("arcade-play");

    var controls = K.el("div", "play-controls");
    var sizeLabel = K.el("label", "", "Board ");
    var sizeSelect = K.el("select", "play-size");
    sizes.forEach(function (s) {
      var option = K.el("option", "", s + "\u00d7" + s + " (" + TTT.K_FOR_SIZE[s] + " in a row)");
      option.value = String(s);
      sizeSelect.appendChild(option);
    });
    sizeLabel.appendChild(sizeSelect);
    var firstLabel = K.el("label", "", "You play ");
    var firstSelect = K.el("select", "play-first");
    [["X", "X (you move first)"], ["O", "O (" + name + " moves first)"]].forEach(function (pair) {
      var option = K.el("option", "", pair[1]);
      option.value = pair[0];
      firstSelect.appendChild(option);
    });
    firstLabel.appendChild(firstSelect);
    var newButton = K.el("button", "play-new", "New game");
    newButton.type = "button";
    controls.appendChild(sizeLabel);
    controls.appendChild(firstLabel);
    controls.appendChild(newButton);

    var status = K.el("p", "play-status");
    status.setAttribute("aria-live", "polite");
    var board = K.el("div", "play-board");
    board.setAttribute("role", "grid");
    var table = K.el("table", "play-moves");
    var head = K.el("tr");
    ["Ply", "Mark", "Player", "Move", "Instructions", "Note"].forEach(function (h) {
      head.appendChild(K.el("th", "", h));
    });
    var thead = K.el("thead");
    thead.appendChild(head);
    var tbody = K.el("tbody");
    table.appendChild(thead);
    table.appendChild(tbody);
    var log = K.el("pre", "play-log");
    log.hidden = true;

    var main = K.el("div", "play-main");
    var history = K.el("div", "play-history");
    history.appendChild(table);
    main.appendChild(board);
    main.appendChild(history);
    [controls, status, main, log].forEach(function (el) { element.appendChild(el); });
    if (program.error !== null) {
      element.insertBefore(K.el("p", "illegal", name + " does not load: " + program.error +
        " (every move it is asked for is an illegal move)"), status);
    }

    var game = null, visitorMark = "X", moves = [], result = null, cells = [], generation = 0;

    function setState(state, text) {
      element.dataset.playState = state;
      status.textContent = text;
    }

    function publish() {
      element.arcadeMoves = moves;
      element.arcadeResult = result;
      log.textContent = JSON.stringify({
        size: game.size,
        visitorMark: visitorMark,
        moves: moves,
        result: result,
      });
    }

    function drawBoard(lastCell) {
      for (var c = 0; c < cells.length; c++) {
        var mark = TTT.MARKS[game.board[c]];
        var cell = cells[c];
        cell.textContent = mark === "." ? "" : mark;
        cell.className = "play-cell" + (mark === "." ? "" : " mark-" + mark) +
          (c === lastCell ? " last" : "") + (game.line && game.line.indexOf(c) >= 0 ? " win" : "");
        cell.disabled = game.over || result !== null || mark !== ".";
        var r = Math.floor(c / game.size);
        cell.setAttribute("aria-label", "row " + r + " column " + (c % game.size) +
          (mark === "." ? ", empty" : ", " + mark));
      }
    }

    function addRow(record) {
      var tr = K.el("tr");
      if (record.illegal) tr.className = "illegal";
      var who = record.by === "entry" ? name : "you";
      var where = record.move ? record.move[0] + " " + record.move[1] : "\u2014";
      var counted = record.instructions === undefined || record.instructions === null
        ? "" : K.thousands(record.instructions);
      var note = record.illegal ? "illegal move: " + record.illegal : "";
      [record.ply, record.mark, who, where, counted, note].forEach(function (value, i) {
        tr.appendChild(K.el("td", i === 0 || i === 4 ? "num" : "", String(value)));
      });
      tbody.appendChild(tr);
      history.scrollTop = history.scrollHeight;
    }

    function record(entry) {
      moves.push(entry);
      addRow(entry);
      publish();
    }

    function finish(outcome, how) {
      var winner = outcome === "draw" ? null : outcome;
      result = {
        winner: winner,
        how: how,
        visitor: winner === null ? "draw" : winner === visitorMark ? "win" : "loss",
      };
      publish();
      var text;
      if (how === "forfeit") text = name + " forfeits with an illegal move: you win.";
      else if (winner === null) text = "Draw: the board is full.";
      else text = winner === visitorMark ? "You win (" + winner + " completes a line)."
        : name + " wins (" + winner + " completes a line).";
      setState("over", text);
      drawBoard(game.moves.length ? game.moves[game.moves.length - 1] : -1);
    }

    function afterMove(outcome) {
      if (outcome === "win") finish(TTT.MARKS[3 - game.toMove], "line");
      else if (outcome === "draw") finish("draw", "full board");
      else if (TTT.MARKS[game.toMove] === visitorMark) {
        var last = moves[moves.length - 1];
        var said = last && last.by === "entry" ? name + " played " + last.move[0] + " " + last.move[1] +
          " (" + K.thousands(last.instructions) + " instructions). " : "";
        setState("your-turn", said + "Your move (" + visitorMark + ").");
        drawBoard(game.moves[game.moves.length - 1]);
      } else engineTurn();
    }

    function engineTurn() {
      var mine = generation;
      setState("thinking", name + " is thinking\u2026");
      drawBoard(game.moves.length ? game.moves[game.moves.length - 1] : -1);
      if (engine) {
        engineMove(mine);
        return;
      }
      // Let the page paint "thinking" before the (synchronous) run.
      root.setTimeout(function () {
        if (mine !== generation) return;
        engineMove(mine);
      }, 20);
    }

    function engineMove(mine) {
      var question = game.question();
      var input = TTT.questionText(question);
      var started = Date.now();
      if (engine) {
        engine.run(input, function (run) {
          if (mine === generation) engineAnswered(question, input, run, Date.now() - started);
        });
      } else {
        engineAnswered(question, input, BF.run(program, input, limits), Date.now() - started);
      }
    }

    function engineAnswered(question, input, run, elapsed) {
      var check = TTT.checkReply(question, run);
      var entry = {
        ply: game.placed + 1,
        mark: question.toMove,
        by: "entry",
        move: check.legal ? check.move : null,
        input: input,
        output: run.output,
        instructions: run.instructions,
        error: run.error,
        errorKind: run.errorKind,
        illegal: check.reason,
        elapsedMs: elapsed,
        engine: run.engine || "js",
        where: run.where || "main thread",
      };
      record(entry);
      if (!check.legal) {
        finish(visitorMark, "forfeit");
        return;
      }
      afterMove(game.play(check.move[0] * game.size + check.move[1]));
    }

    function visitorMove(cell) {
      if (element.dataset.playState !== "your-turn" || !game.isLegal(cell)) return;
      var n = game.size;
      record({ ply: game.placed + 1, mark: visitorMark, by: "visitor", move: [Math.floor(cell / n), cell % n] });
      afterMove(game.play(cell));
    }

    function newGame(size, mark) {
      generation++;
      if (engine) engine.cancel(); // a move still being computed belongs to the old game
      var n = Number(size === undefined ? sizeSelect.value : size);
      visitorMark = mark === undefined ? firstSelect.value : mark;
      sizeSelect.value = String(n);
      firstSelect.value = visitorMark;
      game = new TTT.Game(n);
      moves = [];
      result = null;
      tbody.textContent = "";
      board.textContent = "";
      board.style.gridTemplateColumns = "repeat(" + n + ", var(--cell))";
      board.style.setProperty("--cell", CELL_PX[n] + "px");
      cells = [];
      for (var c = 0; c < n * n; c++) {
        var button = K.el("button", "play-cell");
        button.type = "button";
        button.dataset.row = String(Math.floor(c / n));
        button.dataset.col = String(c % n);
        button.dataset.cell = String(c);
        button.addEventListener("click", visitorMove.bind(null, c));
        board.appendChild(button);
        cells.push(button);
      }
      publish();
      if (visitorMark === "X") {
        setState("your-turn", "Your move (X).");
        drawBoard(-1);
      } else engineTurn();
    }

    newButton.addEventListener("click", function () { newGame(); });
    sizeSelect.addEventListener("change", function () { newGame(); });
    firstSelect.addEventListener("change", function () { newGame(); });
    newGame(sizes[0], "X");

    var controller = {
      newGame: newGame,
      state: function () { return { moves: moves, result: result, state: element.dataset.playState }; },
    };
    element.arcadePlay = controller;
    return controller;
  }

  /** Mount every `[data-arcade-play]` element from the page's inline data. */
  function mountAll(doc) {
    var dataElement = doc.getElementById("page-data");
    var elements = doc.querySelectorAll("[data-arcade-play]");
    for (var i = 0; i < elements.length; i++) {
      var el = elements[i];
      if (el.arcadePlay) continue;
      var data = dataElement ? JSON.parse(dataElement.textContent) : {};
      var key = el.getAttribute("data-arcade-play") || "play";
      var options = data && data[key] ? data[key] : data && data.source !== undefined ? data : null;
      if (options === null) {
        el.textContent = "No engine to play: the page data has no \"" + key + "\" entry.";
        continue;
      }
      mount(el, options);
    }
  }

  var api = { mount: mount, mountAll: mountAll };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.ArcadePlay = api;
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () { mountAll(document); });
    } else {
      mountAll(document);
    }
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
