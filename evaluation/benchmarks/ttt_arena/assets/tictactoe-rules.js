/*
 * k-in-a-row tic-tac-toe as the arena referees it (docs/rules/tictactoe.md), in JavaScript for
 * the play-in-the-browser box: the same rules, the same stdin text an engine is given and the
 * same judgement of its reply as arcade_gym/tictactoe/ (game.py, contract.py), so a game in the
 * browser treats an engine exactly as the official harness does. tests/site/test_brainfuck_js.py
 * compares the two on the same positions and replies.
 *
 * Boards: 3x3 (3 in a row), 5x5 (4), 10x10 (5); X moves first; no gravity. Cells are numbered
 * row * size + col, row 0 at the top; a cell holds 0 (empty), 1 (X) or 2 (O).
 *
 * ArcadeTicTacToe.Game(size): play(cell) -> "win" | "draw" | "ongoing" (throws on an illegal
 * cell), isLegal, legalMoves, rows, question, result, line (the winning cells). questionText(question) is the engine's stdin;
 * checkReply(question, reply) judges {output, error, instructions} (or a plain string) into
 * {move, reason, legal, instructions}, with the Python referee's reasons word for word.
 */
(function (root) {
  "use strict";

  var SIZES = [3, 5, 10];
  var K_FOR_SIZE = { 3: 3, 5: 4, 10: 5 };
  var EMPTY = 0, X = 1, O = 2;
  var MARKS = ".XO";
  var DIRECTIONS = [[0, 1], [1, 0], [1, 1], [1, -1]];

  /** Stones in a row needed on a `size` board (3 -> 3, 5 -> 4, 10 -> 5). */
  function lineLength(size) {
    var k = K_FOR_SIZE[size];
    if (k === undefined) throw new RangeError("board size must be one of 3, 5, 10, got " + size);
    return k;
  }

  /** One game from the empty board. */
  function Game(size) {
    this.size = size;
    this.k = lineLength(size);
    this.board = new Int8Array(size * size);
    this.toMove = X;
    this.placed = 0;
    this.winner = EMPTY;
    this.over = false;
    this.moves = [];
    this.line = null; // the winning line's cells once a move completes one
  }

  Game.prototype.isLegal = function (cell) {
    return !this.over && Number.isInteger(cell) && cell >= 0 && cell < this.board.length &&
      this.board[cell] === EMPTY;
  };

  /** Empty cells in row-major order (none once the game is over). */
  Game.prototype.legalMoves = function () {
    var cells = [];
    if (this.over) return cells;
    for (var c = 0; c < this.board.length; c++) if (this.board[c] === EMPTY) cells.push(c);
    return cells;
  };

  /** The cells of the first line of k or more through the stone on `cell` (horizontal,
   * vertical, diagonal, anti-diagonal), or null when there is none. */
  Game.prototype.lineThrough = function (cell) {
    var n = this.size, side = this.board[cell];
    if (side === EMPTY) return null;
    var r0 = Math.floor(cell / n), c0 = cell % n;
    for (var d = 0; d < DIRECTIONS.length; d++) {
      var dr = DIRECTIONS[d][0], dc = DIRECTIONS[d][1], line = [cell], sign, r, c;
      for (sign = 1; sign >= -1; sign -= 2) {
        r = r0 + sign * dr;
        c = c0 + sign * dc;
        while (r >= 0 && r < n && c >= 0 && c < n && this.board[r * n + c] === side) {
          line.push(r * n + c);
          r += sign * dr;
          c += sign * dc;
        }
      }
      if (line.length >= this.k) return line.sort(function (a, b) { return a - b; });
    }
    return null;
  };

  /** Play the side to move on `cell`: "win", "draw" or "ongoing". */
  Game.prototype.play = function (cell) {
    if (this.over) throw new Error("the game is over");
    if (!this.isLegal(cell)) {
      var where = cell >= 0 && cell < this.board.length ? "occupied" : "off the board";
      throw new Error("cell " + cell + " is " + where);
    }
    this.board[cell] = this.toMove;
    this.placed++;
    this.moves.push(cell);
    var outcome = "ongoing";
    this.line = this.lineThrough(cell);
    if (this.line !== null) {
      outcome = "win";
      this.winner = this.toMove;
    } else if (this.placed >= this.board.length) {
      outcome = "draw";
    }
    this.over = outcome !== "ongoing";
    this.toMove = 3 - this.toMove;
    return outcome;
  };

  /** The board as rows of X / O / `.`. */
  Game.prototype.rows = function () {
    var rows = [];
    for (var r = 0; r < this.size; r++) {
      var row = "";
      for (var c = 0; c < this.size; c++) row += MARKS[this.board[r * this.size + c]];
      rows.push(row);
    }
    return rows;
  };

  /** The engine contract's view of the position. */
  Game.prototype.question = function () {
    return { size: this.size, k: this.k, toMove: MARKS[this.toMove], rows: this.rows() };
  };

  /** "X", "O", "draw" or "ongoing". */
  Game.prototype.result = function () {
    if (!this.over) return "ongoing";
    return this.winner === EMPTY ? "draw" : MARKS[this.winner];
  };

  /** The stdin text engines read: size, side to move, then the rows, each line ended. */
  function questionText(question) {
    return question.size + "\n" + question.toMove + "\n" + question.rows.join("\n") + "\n";
  }

  // Python's `\s` and `\d` on the characters an engine can print (its bytes read as latin-1).
  var SPACE = "[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0]";
  var MOVE = new RegExp("^" + SPACE + "*(-?[0-9]+)" + SPACE + "+(-?[0-9]+)" + SPACE + "*$");

  /** "0 1" -> [0, 1]; anything else (extra tokens, non-numbers) -> null. Numbers stay exact
   * decimal strings in `text` form too (a huge number is off the board, and says so). */
  function parseMove(text) {
    var found = MOVE.exec(String(text));
    if (found === null) return null;
    return [integerText(found[1]), integerText(found[2])];
  }

  /** "-007" -> "-7", "-0" -> "0": Python's int() then str(), for any length of digits. */
  function integerText(digits) {
    var negative = digits[0] === "-";
    var body = (negative ? digits.slice(1) : digits).replace(/^0+(?=[0-9])/, "");
    return negative && body !== "0" ? "-" + body : body;
  }

  /** Python's repr() of a latin-1 string (what the referee quotes of unparseable output). */
  function pythonRepr(text) {
    var quote = text.indexOf("'") >= 0 && text.indexOf('"') < 0 ? '"' : "'";
    var out = quote;
    for (var i = 0; i < text.length; i++) {
      var ch = text[i], code = text.charCodeAt(i);
      if (ch === "\\") out += "\\\\";
      else if (ch === quote) out += "\\" + quote;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad) {
        out += "\\x" + (code < 16 ? "0" : "") + code.toString(16);
      } else out += ch;
    }
    return out + quote;
  }

  var SHOWN = 40;

  function shown(text) {
    return pythonRepr(text.length <= SHOWN ? text : text.slice(0, SHOWN) + "...");
  }

  function verdict(move, reason, instructions) {
    return { move: move, reason: reason, legal: move !== null && reason === null, instructions: instructions };
  }

  /** Judge an engine's reply to `question`: an error, unparseable output, an off-board or
   * occupied square is illegal (the reason says which); else the move as [row, col]. */
  function checkReply(question, reply) {
    var instructions = null, output = reply;
    if (reply !== null && typeof reply === "object") {
      instructions = reply.instructions === undefined ? null : reply.instructions;
      if (reply.error !== null && reply.error !== undefined) {
        return verdict(null, "engine error: " + reply.error, instructions);
      }
      output = reply.output === undefined ? "" : reply.output;
    }
    var text = String(output);
    var parsed = parseMove(text);
    if (parsed === null) return verdict(null, "unparseable output " + shown(text), instructions);
    var row = Number(parsed[0]), col = Number(parsed[1]), n = question.size;
    var exactRow = Number.isSafeInteger(row) ? row : parsed[0];
    var exactCol = Number.isSafeInteger(col) ? col : parsed[1];
    var move = [exactRow, exactCol], reason = null;
    if (!(row >= 0 && row < n && col >= 0 && col < n)) {
      reason = "off-board square " + parsed[0] + " " + parsed[1];
    } else if (question.rows[row][col] !== ".") {
      reason = "occupied square " + row + " " + col;
    }
    return verdict(move, reason, instructions);
  }

  var api = {
    SIZES: SIZES,
    K_FOR_SIZE: K_FOR_SIZE,
    EMPTY: EMPTY,
    X: X,
    O: O,
    MARKS: MARKS,
    lineLength: lineLength,
    Game: Game,
    questionText: questionText,
    parseMove: parseMove,
    checkReply: checkReply,
    pythonRepr: pythonRepr,
  };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.ArcadeTicTacToe = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
