/*
 * The arena's Brainfuck machine in JavaScript: the same machine, counting rule, limits and error
 * messages as the Python runtime (policies/engines/brainfuck/interpreter.py), so a game played in
 * the browser reports the instruction counts the official harness would. tests/site/
 * test_brainfuck_js.py holds the two to identical output, counts and errors on a corpus.
 *
 * Machine: 8-bit wrapping cells, a 65,536-cell tape from which moving off either end is an error,
 * EOF reads 0, at most 100,000,000 executed instructions and 65,536 output bytes per run.
 *
 * Counting rule: every command counts 1, `[` once per entry, `]` once per iteration (a taken `]`
 * jumps to the command after its `[`); comments (any other character) count nothing. A fault is
 * counted at the instruction that faults; the limit stops before the first instruction past it.
 *
 * Speed: the source compiles to an op list (runs of +-, runs of <>, straight lines of +-<>,
 * clear, multiply and scan loops, general loops). A folded op that would cross the instruction
 * limit or touch a cell off the tape re-runs its own span of source commands one command at a
 * time, so the stopping point, the count and the error are exactly the naive interpreter's.
 *
 * Usage: ArcadeBrainfuck.run(source, input, limits?) -> {output, instructions, error, errorKind}.
 * `source` is a string read as Python reads an engine file (its bytes decoded as latin-1), and
 * positions in syntax errors count its characters (code points); `input` is a string (each
 * character one byte; characters above 255 become "?", as the Python engine encodes) or a
 * Uint8Array; `output` is a string of one character per byte. `limits`: maxInstructions,
 * maxOutput, tapeSize. `errorKind` is "syntax", "tape", "limit", "output" or null.
 * ArcadeBrainfuck.compile(source) returns a program that run() accepts in place of the source,
 * for engines asked many times. In the browser the arena's game runs engines through
 * bf-worker.js (off the main thread) and bf-wasm.js (the op list compiled to WebAssembly); this
 * interpreter is the reference both fall back to, and re-run on when the WebAssembly code traps.
 */
(function arcadeBrainfuck(root) {
  "use strict";

  var TAPE_SIZE = 65536;
  var MAX_INSTRUCTIONS = 100000000;
  var MAX_OUTPUT = 65536;

  // Source command codes.
  var C_PLUS = 0, C_MINUS = 1, C_RIGHT = 2, C_LEFT = 3, C_OUT = 4, C_IN = 5, C_OPEN = 6, C_CLOSE = 7;
  var COMMAND_CODE = { "+": C_PLUS, "-": C_MINUS, ">": C_RIGHT, "<": C_LEFT, ".": C_OUT, ",": C_IN, "[": C_OPEN, "]": C_CLOSE };

  // Opcodes.
  var OP_ADD = 0, OP_MOVE = 1, OP_JZ = 2, OP_JNZ = 3, OP_OUT = 4, OP_IN = 5;
  var OP_CLEAR = 6, OP_MUL = 7, OP_SCAN = 8, OP_BLOCK = 9;

  // Op fields (one row of N_FIELDS ints per op).
  var F_OP = 0; // opcode
  var F_A = 1; // ADD: delta mod 256; MOVE/BLOCK: signed move; CLEAR/MUL: origin delta; SCAN: stride
  var F_T0 = 2; // MUL/BLOCK: first target row
  var F_JMP = 3; // JZ/JNZ: op to continue at when the jump is taken; MUL/BLOCK: number of targets
  var F_COST = 4; // ADD/MOVE/BLOCK: naive count; CLEAR/MUL/SCAN: naive count per iteration
  var F_S0 = 5; // first source command of the op
  var F_S1 = 6; // one past its last source command
  var F_LO = 7; // MUL/BLOCK: lowest pointer offset reached
  var F_HI = 8; // MUL/BLOCK: highest pointer offset reached
  var N_FIELDS = 9;

  // Run statuses.
  var ST_OK = 0, ST_TAPE_LEFT = 1, ST_TAPE_RIGHT = 2, ST_LIMIT = 3, ST_OUTPUT = 4;

  // ITERATIONS[d * 256 + v]: iterations until a cell at v that changes by d per iteration first
  // reads 0, or -1 when it never does.
  var ITERATIONS = (function () {
    var table = new Int16Array(65536).fill(-1);
    for (var k = 255; k >= 0; k--) {
      for (var d = 0; d < 256; d++) table[d * 256 + ((256 - ((k * d) % 256)) % 256)] = k;
    }
    return table;
  })();

  /** 1234567 -> "1,234,567" (Python's `{:,}`). */
  function thousands(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  function syntaxErrorMessage(chars, position, bracket) {
    var line = 1, lineStart = 0;
    for (var i = 0; i < position; i++) {
      if (chars[i] === "\n") {
        line++;
        lineStart = i + 1;
      }
    }
    var column = position - lineStart + 1;
    return "syntax error: unmatched '" + bracket + "' at position " + position +
      " (line " + line + ", column " + column + ")";
  }

  function runtimeError(status, instructions, tapeSize, maxOutput) {
    if (status === ST_TAPE_LEFT) {
      return ["tape overflow: moved left of cell 0 at instruction " + thousands(instructions), "tape"];
    }
    if (status === ST_TAPE_RIGHT) {
      return ["tape overflow: moved right of cell " + thousands(tapeSize - 1) + " at instruction " +
        thousands(instructions), "tape"];
    }
    if (status === ST_LIMIT) {
      return ["instruction limit exceeded: " + thousands(instructions) + " instructions executed", "limit"];
    }
    return ["output limit exceeded: more than " + thousands(maxOutput) + " bytes at instruction " +
      thousands(instructions), "output"];
  }

  /** A straight line of +-<> (codes[i..j)): net move, lowest and highest offset, adds. */
  function blockShape(code, i, j) {
    var offset = 0, lo = 0, hi = 0, delta = new Map();
    for (var t = i; t < j; t++) {
      var c = code[t];
      if (c === C_RIGHT) {
        offset++;
        if (offset > hi) hi = offset;
      } else if (c === C_LEFT) {
        offset--;
        if (offset < lo) lo = offset;
      } else {
        delta.set(offset, (delta.get(offset) || 0) + (c === C_PLUS ? 1 : -1));
      }
    }
    var adds = [];
    delta.forEach(function (f, o) {
      var m = ((f % 256) + 256) % 256;
      if (m) adds.push([o, m]);
    });
    adds.sort(function (a, b) { return a[0] - b[0]; });
    return { move: offset, lo: lo, hi: hi, adds: adds };
  }

  /** How a loop whose body (code[i..j)) has only +-<> folds: [opcode, arg, lo, hi, targets],
   * or null when it stays a general loop. */
  function loopShape(code, i, j) {
    if (i === j) return [OP_CLEAR, 0, 0, 0, []];
    var moves = 0, t;
    for (t = i; t < j; t++) if (code[t] === C_RIGHT || code[t] === C_LEFT) moves++;
    if (moves === j - i) {
      for (t = i; t < j; t++) if (code[t] !== code[i]) return null;
      return [OP_SCAN, code[i] === C_RIGHT ? j - i : i - j, 0, 0, []];
    }
    var shape = blockShape(code, i, j);
    if (shape.move !== 0) return null;
    var origin = 0, moved = [];
    shape.adds.forEach(function (add) {
      if (add[0] === 0) origin = add[1];
      else moved.push(add);
    });
    if (!moves) return [OP_CLEAR, origin, 0, 0, []];
    return [OP_MUL, origin, shape.lo, shape.hi, moved];
  }

  /** Compile source text into a program: {ops, targets, code, match, commands, error}. */
  function compile(source) {
    var chars = Array.from(String(source)); // code points, as Python counts characters
    var codes = [], positions = [];
    for (var at = 0; at < chars.length; at++) {
      var cc = COMMAND_CODE[chars[at]];
      if (cc !== undefined) {
        codes.push(cc);
        positions.push(at);
      }
    }
    var n = codes.length;
    var code = Uint8Array.from(codes);
    var match = new Int32Array(n).fill(-1);
    var stack = [];
    for (var b = 0; b < n; b++) {
      if (code[b] === C_OPEN) {
        stack.push(b);
      } else if (code[b] === C_CLOSE) {
        if (!stack.length) return failed(syntaxErrorMessage(chars, positions[b], "]"));
        var partner = stack.pop();
        match[partner] = b;
        match[b] = partner;
      }
    }
    if (stack.length) return failed(syntaxErrorMessage(chars, positions[stack[0]], "["));

    // End of each straight-line stretch of +-<> and of each run (+- mixed, > or < alone).
    var lineEnd = new Int32Array(n), runEnd = new Int32Array(n), special = new Int32Array(n + 1);
    var i;
    for (i = n - 1; i >= 0; i--) {
      var c = code[i];
      lineEnd[i] = c >= C_OUT ? i : i + 1 < n ? lineEnd[i + 1] : n;
      if (c >= C_OUT) runEnd[i] = i + 1;
      else if (i + 1 < n && code[i + 1] < C_OUT && runClass(code[i + 1]) === runClass(c)) runEnd[i] = runEnd[i + 1];
      else runEnd[i] = i + 1;
    }
    for (i = 0; i < n; i++) special[i + 1] = special[i] + (code[i] >= C_OUT ? 1 : 0);

    var ops = [], targets = [], openOps = [];
    function emit(op, a, t0, jmp, cost, s0, s1, lo, hi) {
      ops.push(op, a, t0, jmp, cost, s0, s1, lo, hi);
    }
    i = 0;
    while (i < n) {
      var cmd = code[i], j;
      if (cmd <= C_LEFT && runEnd[i] < lineEnd[i]) {
        j = lineEnd[i];
        var block = blockShape(code, i, j);
        emit(OP_BLOCK, block.move, targets.length / 2, block.adds.length, j - i, i, j, block.lo, block.hi);
        pushTargets(targets, block.adds);
        i = j;
      } else if (cmd <= C_MINUS) {
        j = runEnd[i];
        var net = 0;
        for (var t = i; t < j; t++) net += code[t] === C_PLUS ? 1 : -1;
        emit(OP_ADD, ((net % 256) + 256) % 256, 0, 0, j - i, i, j, 0, 0);
        i = j;
      } else if (cmd <= C_LEFT) {
        j = runEnd[i];
        emit(OP_MOVE, cmd === C_RIGHT ? j - i : i - j, 0, 0, j - i, i, j, 0, 0);
        i = j;
      } else if (cmd === C_OUT || cmd === C_IN) {
        emit(cmd === C_OUT ? OP_OUT : OP_IN, 0, 0, 0, 1, i, i + 1, 0, 0);
        i++;
      } else if (cmd === C_OPEN) {
        j = match[i];
        var shape = special[j] === special[i + 1] ? loopShape(code, i + 1, j) : null;
        if (shape !== null) {
          emit(shape[0], shape[1], targets.length / 2, shape[4].length, j - i, i, j + 1, shape[2], shape[3]);
          pushTargets(targets, shape[4]);
          i = j + 1;
        } else {
          openOps.push(ops.length / N_FIELDS);
          emit(OP_JZ, 0, 0, 0, 1, i, j + 1, 0, 0); // F_JMP is set at the `]`
          i++;
        }
      } else {
        var opening = openOps.pop();
        ops[opening * N_FIELDS + F_JMP] = ops.length / N_FIELDS + 1;
        emit(OP_JNZ, 0, 0, opening + 1, 1, match[i], i + 1, 0, 0);
        i++;
      }
    }
    return {
      ops: Int32Array.from(ops),
      targets: Int32Array.from(targets),
      code: code,
      match: match,
      commands: n,
      error: null,
    };
  }

  function runClass(c) {
    return c === C_MINUS ? C_PLUS : c;
  }

  function pushTargets(targets, adds) {
    for (var a = 0; a < adds.length; a++) targets.push(adds[a][0], adds[a][1]);
  }

  function failed(message) {
    return {
      ops: new Int32Array(0),
      targets: new Int32Array(0),
      code: new Uint8Array(0),
      match: new Int32Array(0),
      commands: 0,
      error: message,
    };
  }

  /** The machine state a run mutates: tape, pointer, count, input and output positions. */
  function Machine(tapeSize, input, maxOutput, limit) {
    this.tape = new Uint8Array(tapeSize);
    this.p = 0;
    this.count = 0;
    this.input = input;
    this.ip = 0;
    this.out = new Uint8Array(maxOutput);
    this.olen = 0;
    this.limit = limit;
  }

  /** Run source commands s0..s1 one at a time (the naive interpreter); returns a status. */
  function naiveSpan(program, m, s0, s1) {
    var code = program.code, match = program.match, tape = m.tape;
    var size = tape.length, nIn = m.input.length, maxOut = m.out.length;
    var pc = s0;
    while (pc < s1) {
      if (m.count >= m.limit) return ST_LIMIT;
      m.count++;
      switch (code[pc]) {
        case C_PLUS: tape[m.p]++; break;
        case C_MINUS: tape[m.p]--; break;
        case C_RIGHT:
          m.p++;
          if (m.p >= size) return ST_TAPE_RIGHT;
          break;
        case C_LEFT:
          m.p--;
          if (m.p < 0) return ST_TAPE_LEFT;
          break;
        case C_OUT:
          if (m.olen >= maxOut) return ST_OUTPUT;
          m.out[m.olen++] = tape[m.p];
          break;
        case C_IN:
          tape[m.p] = m.ip < nIn ? m.input[m.ip++] : 0;
          break;
        case C_OPEN:
          if (tape[m.p] === 0) pc = match[pc];
          break;
        default:
          if (tape[m.p] !== 0) pc = match[pc];
      }
      pc++;
    }
    return ST_OK;
  }

  /** Run the op list; returns a status and leaves count and output in `m`. */
  function execute(program, m) {
    var ops = program.ops, targets = program.targets, tape = m.tape, input = m.input;
    var n = ops.length / N_FIELDS, size = tape.length, nIn = input.length, maxOut = m.out.length;
    var limit = m.limit;
    var pc = 0, p = 0, count = 0;
    var row, op, cost, q, t, t1, v, k, total, fallback, status;
    while (pc < n) {
      row = pc * N_FIELDS;
      op = ops[row];
      fallback = false;
      switch (op) {
        case OP_ADD:
          cost = ops[row + F_COST];
          if (count + cost > limit) {
            fallback = true;
          } else {
            tape[p] += ops[row + F_A];
            count += cost;
            pc++;
          }
          break;
        case OP_MOVE:
          cost = ops[row + F_COST];
          q = p + ops[row + F_A];
          if (q < 0 || q >= size || count + cost > limit) {
            fallback = true;
          } else {
            p = q;
            count += cost;
            pc++;
          }
          break;
        case OP_BLOCK:
          cost = ops[row + F_COST];
          if (p + ops[row + F_LO] < 0 || p + ops[row + F_HI] >= size || count + cost > limit) {
            fallback = true;
          } else {
            t1 = 2 * (ops[row + F_T0] + ops[row + F_JMP]);
            for (t = 2 * ops[row + F_T0]; t < t1; t += 2) tape[p + targets[t]] += targets[t + 1];
            p += ops[row + F_A];
            count += cost;
            pc++;
          }
          break;
        case OP_JNZ:
          if (count >= limit) return finish(m, ST_LIMIT, count);
          count++;
          pc = tape[p] !== 0 ? ops[row + F_JMP] : pc + 1;
          break;
        case OP_JZ:
          if (count >= limit) return finish(m, ST_LIMIT, count);
          count++;
          pc = tape[p] === 0 ? ops[row + F_JMP] : pc + 1;
          break;
        case OP_CLEAR:
          k = ITERATIONS[ops[row + F_A] * 256 + tape[p]];
          if (k < 0) return finish(m, ST_LIMIT, limit); // never reaches 0: spins to the limit
          total = 1 + k * ops[row + F_COST];
          if (count + total > limit) {
            fallback = true;
          } else {
            tape[p] = 0;
            count += total;
            pc++;
          }
          break;
        case OP_MUL:
          v = tape[p];
          if (v === 0) {
            if (count >= limit) return finish(m, ST_LIMIT, count);
            count++;
            pc++;
          } else {
            k = ITERATIONS[ops[row + F_A] * 256 + v];
            total = 1 + k * ops[row + F_COST];
            if (p + ops[row + F_LO] < 0 || p + ops[row + F_HI] >= size || count + total > limit) {
              fallback = true; // faults in the first iteration, or stops at the limit
            } else if (k < 0) {
              return finish(m, ST_LIMIT, limit); // never reaches 0: spins to the limit
            } else {
              t1 = 2 * (ops[row + F_T0] + ops[row + F_JMP]);
              for (t = 2 * ops[row + F_T0]; t < t1; t += 2) {
                q = p + targets[t];
                tape[q] = tape[q] + k * targets[t + 1]; // the Uint8Array store wraps mod 256
              }
              tape[p] = 0;
              count += total;
              pc++;
            }
          }
          break;
        case OP_SCAN:
          q = p;
          v = 0; // steps
          t = ops[row + F_A]; // stride
          while (tape[q] !== 0) {
            q += t;
            v++;
            if (q < 0 || q >= size) {
              fallback = true;
              break;
            }
          }
          if (!fallback) {
            total = 1 + v * ops[row + F_COST];
            if (count + total > limit) {
              fallback = true;
            } else {
              p = q;
              count += total;
              pc++;
            }
          }
          break;
        case OP_OUT:
          if (count >= limit) return finish(m, ST_LIMIT, count);
          count++;
          if (m.olen >= maxOut) return finish(m, ST_OUTPUT, count);
          m.out[m.olen++] = tape[p];
          pc++;
          break;
        default: // OP_IN
          if (count >= limit) return finish(m, ST_LIMIT, count);
          count++;
          tape[p] = m.ip < nIn ? input[m.ip++] : 0;
          pc++;
      }
      if (fallback) {
        m.p = p;
        m.count = count;
        status = naiveSpan(program, m, ops[row + F_S0], ops[row + F_S1]);
        if (status !== ST_OK) return status;
        p = m.p;
        count = m.count;
        pc++;
      }
    }
    return finish(m, ST_OK, count);
  }

  function finish(m, status, count) {
    m.count = count;
    return status;
  }

  function toBytes(input) {
    if (input instanceof Uint8Array) return input;
    var text = input == null ? "" : String(input);
    var chars = Array.from(text);
    var bytes = new Uint8Array(chars.length);
    for (var i = 0; i < chars.length; i++) {
      var point = chars[i].codePointAt(0);
      bytes[i] = point < 256 ? point : 0x3f; // "?", as Python's encode(errors="replace")
    }
    return bytes;
  }

  function bytesToString(bytes, length) {
    var parts = [];
    for (var i = 0; i < length; i += 8192) {
      parts.push(String.fromCharCode.apply(null, bytes.subarray(i, Math.min(length, i + 8192))));
    }
    return parts.join("");
  }

  function limitValue(limits, name, fallback) {
    var value = limits && limits[name] !== undefined ? limits[name] : fallback;
    if (typeof value !== "number" || !Number.isInteger(value)) {
      throw new TypeError(name + " must be an integer, got " + value);
    }
    return value;
  }

  /** Run a program (source text or compile()'s result) on `input`; faults come back in the
   * result, never thrown. Limits default to the arena's. */
  function run(sourceOrProgram, input, limits) {
    var program = typeof sourceOrProgram === "string" ? compile(sourceOrProgram) : sourceOrProgram;
    if (program.error !== null) {
      return { output: "", instructions: 0, error: program.error, errorKind: "syntax" };
    }
    var maxInstructions = limitValue(limits, "maxInstructions", MAX_INSTRUCTIONS);
    var maxOutput = limitValue(limits, "maxOutput", MAX_OUTPUT);
    var tapeSize = limitValue(limits, "tapeSize", TAPE_SIZE);
    if (maxInstructions < 0 || maxOutput < 0 || tapeSize < 1) {
      throw new RangeError("limits must be non-negative and the tape at least one cell");
    }
    var m = new Machine(tapeSize, toBytes(input), maxOutput, maxInstructions);
    var status = execute(program, m);
    var result = { output: bytesToString(m.out, m.olen), instructions: m.count, error: null, errorKind: null };
    if (status !== ST_OK) {
      var failure = runtimeError(status, m.count, tapeSize, maxOutput);
      result.error = failure[0];
      result.errorKind = failure[1];
    }
    return result;
  }

  var api = {
    TAPE_SIZE: TAPE_SIZE,
    MAX_INSTRUCTIONS: MAX_INSTRUCTIONS,
    MAX_OUTPUT: MAX_OUTPUT,
    compile: compile,
    run: run,
    limitValue: limitValue,
    toBytes: toBytes,
    bytesToString: bytesToString,
    // The op list's layout and the loop-count table, for the WebAssembly compiler (bf-wasm.js).
    OPS: { ADD: OP_ADD, MOVE: OP_MOVE, JZ: OP_JZ, JNZ: OP_JNZ, OUT: OP_OUT, IN: OP_IN,
      CLEAR: OP_CLEAR, MUL: OP_MUL, SCAN: OP_SCAN, BLOCK: OP_BLOCK },
    FIELDS: { OP: F_OP, A: F_A, T0: F_T0, JMP: F_JMP, COST: F_COST, LO: F_LO, HI: F_HI, N: N_FIELDS },
    ITERATIONS: ITERATIONS,
    // This script's own text, so a Web Worker can be built from a Blob (bf-worker.js) where
    // a page opened from file:// may not load a worker script by URL.
    workerSource: "(" + arcadeBrainfuck.toString() + ")(self);",
  };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.ArcadeBrainfuck = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
