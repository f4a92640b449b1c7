/*
 * Brainfuck to WebAssembly, by hand: the op list brainfuck.js folds a program into (runs of +-
 * and <>, straight lines, clear, multiply and scan loops, general loops) is written straight into
 * the bytes of a .wasm module, with no toolchain and no dependency, then run with the same
 * machine, counting rule and limits as the interpreter (policies/engines/brainfuck/
 * interpreter.py; brainfuck.js is its JavaScript twin).
 *
 * Guarantees, as the arena's spec has them:
 *  - bounds checks on every tape access: every pointer move is checked against the tape (a
 *    straight line and a multiply loop check the lowest and highest cell they touch, a scan loop
 *    every step), every output byte against the output limit;
 *  - the instruction limit is checked at every loop back-edge (each `]`) and at the end; the
 *    count is kept exactly as the interpreter keeps it (every command 1, `[` once per entry, `]`
 *    once per iteration; a folded loop counts what its naive iterations would);
 *  - any failure traps (`unreachable`): tape overflow, output overflow, the limit crossed, a
 *    clear or multiply loop that never reaches 0. A trapped run is re-run on the interpreter,
 *    which reports the exact error and count. A run that does not trap executed at most the
 *    limit (counts only grow), so its output and count are the interpreter's.
 *
 * Memory (imported, one per engine, the tape cleared before each run): the tape from address 0 (one 64 KiB page for the arena's
 * tape), the loop-count table (two pages of int16), the output buffer, the input.
 *
 * Usage: ArcadeBfWasm.supported() -> bool; ArcadeBfWasm.compile(programOrSource) -> a compiled
 * engine, or null (no WebAssembly, a syntax error: the interpreter handles those);
 * ArcadeBfWasm.run(engine, input, limits?) -> {output, instructions, error, errorKind, engine}
 * with engine "wasm", or "js" when the run trapped and was re-run on the interpreter.
 * ArcadeBfWasm.moduleBytes(program) gives the raw .wasm bytes (for tests).
 * Synchronous compilation of a large module is refused on a browser's main thread: compile and
 * run in a Web Worker (bf-worker.js), or in node.
 */
(function arcadeBfWasm(root) {
  "use strict";

  var PAGE = 65536;
  var MAX_I32 = 2147483647;

  // Opcodes of the WebAssembly binary format used here.
  var W = {
    UNREACHABLE: 0x00, BLOCK: 0x02, LOOP: 0x03, IF: 0x04, ELSE: 0x05, END: 0x0b, BR: 0x0c,
    BR_IF: 0x0d, LOCAL_GET: 0x20, LOCAL_SET: 0x21, LOCAL_TEE: 0x22, GLOBAL_GET: 0x23,
    GLOBAL_SET: 0x24, LOAD8_U: 0x2d, LOAD16_S: 0x2e, STORE8: 0x3a, I32_CONST: 0x41,
    I64_CONST: 0x42, I32_EQZ: 0x45, I32_LT_S: 0x48, I32_LT_U: 0x49, I32_GE_U: 0x4f,
    I64_GT_S: 0x55, I32_ADD: 0x6a, I32_MUL: 0x6c, I32_SHL: 0x74, I64_ADD: 0x7c, I64_MUL: 0x7e,
    I64_EXTEND_I32_S: 0xac, I64_EXTEND_I32_U: 0xad, F64_CONVERT_I64_S: 0xb9,
    VOID: 0x40, T_I32: 0x7f, T_I64: 0x7e, T_F64: 0x7c,
  };
  // Locals of `run`: its parameters, then its own.
  var L_SIZE = 0, L_TABLE = 1, L_OUT = 2, L_MAXOUT = 3, L_IN = 4, L_INLEN = 5, L_LIMIT = 6;
  var L_P = 7, L_OLEN = 8, L_IP = 9, L_V = 10, L_K = 11, L_Q = 12, L_STEPS = 13;
  var L_COUNT = 14, L_LIM = 15;

  function BF() {
    var bf = root.ArcadeBrainfuck;
    if (!bf) throw new Error("bf-wasm.js needs brainfuck.js loaded first");
    return bf;
  }

  function supported() {
    return typeof WebAssembly === "object" && typeof WebAssembly.Module === "function";
  }

  /** Bytes being written: unsigned and signed LEB128, names, sections. */
  function Bytes() {
    this.a = [];
  }
  Bytes.prototype.byte = function () {
    for (var i = 0; i < arguments.length; i++) this.a.push(arguments[i]);
    return this;
  };
  Bytes.prototype.u32 = function (n) {
    do {
      var b = n & 0x7f;
      n = Math.floor(n / 128);
      this.a.push(n ? b | 0x80 : b);
    } while (n);
    return this;
  };
  Bytes.prototype.s64 = function (n) {
    // signed LEB128 of an integer within +-2^53 (exact in a double)
    for (;;) {
      var b = ((n % 128) + 128) % 128;
      n = (n - b) / 128;
      var done = (n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0);
      this.a.push(done ? b : b | 0x80);
      if (done) return this;
    }
  };
  Bytes.prototype.name = function (text) {
    this.u32(text.length);
    for (var i = 0; i < text.length; i++) this.a.push(text.charCodeAt(i));
    return this;
  };
  Bytes.prototype.vec = function (other) {
    this.u32(other.a.length);
    this.a = this.a.concat(other.a);
    return this;
  };
  Bytes.prototype.section = function (id, body) {
    this.byte(id).u32(body.a.length);
    this.a = this.a.concat(body.a);
    return this;
  };

  /** The body of `run(size, table, out, maxOut, in, inLen, limit) -> outputLength`. */
  function runBody(program) {
    var bf = BF(), O = bf.OPS, F = bf.FIELDS;
    var ops = program.ops, targets = program.targets, n = ops.length / F.N;
    var c = new Bytes();
    var pending = 0; // instructions counted statically since the last flush

    function get(l) { c.byte(W.LOCAL_GET).u32(l); }
    function set(l) { c.byte(W.LOCAL_SET).u32(l); }
    function i32(v) { c.byte(W.I32_CONST).s64(v); }
    function loadCell() { get(L_P); c.byte(W.LOAD8_U, 0).u32(0); }
    function trapIf() { c.byte(W.IF, W.VOID, W.UNREACHABLE, W.END); }
    function flush() {
      if (!pending) return;
      get(L_COUNT);
      c.byte(W.I64_CONST).s64(pending);
      c.byte(W.I64_ADD);
      set(L_COUNT);
      pending = 0;
    }
    function checkLimit() {
      get(L_COUNT);
      get(L_LIM);
      c.byte(W.I64_GT_S);
      trapIf();
    }
    /** count += local * cost (a folded loop's iterations times its per-iteration count). */
    function addTimes(local, cost) {
      get(L_COUNT);
      get(local);
      c.byte(W.I64_EXTEND_I32_S, W.I64_CONST).s64(cost);
      c.byte(W.I64_MUL, W.I64_ADD);
      set(L_COUNT);
    }
    /** Trap unless p + offset is on the tape (unsigned compare: below 0 wraps above). */
    function checkCell(offset) {
      get(L_P);
      if (offset) {
        i32(offset);
        c.byte(W.I32_ADD);
      }
      get(L_SIZE);
      c.byte(W.I32_GE_U);
      trapIf();
    }
    /** tape[p + offset] += value (a constant) or += k * value (`times` set). */
    function addAt(offset, value, times) {
      if (offset < 0) {
        get(L_P);
        i32(offset);
        c.byte(W.I32_ADD);
        set(L_Q);
      }
      var base = offset < 0 ? L_Q : L_P, imm = offset < 0 ? 0 : offset;
      get(base);
      get(base);
      c.byte(W.LOAD8_U, 0).u32(imm);
      if (times) {
        get(L_K);
        i32(value);
        c.byte(W.I32_MUL);
      } else {
        i32(value);
      }
      c.byte(W.I32_ADD, W.STORE8, 0).u32(imm);
    }
    /** k = table[delta][tape[p]] (-1: never reaches 0, a trap). */
    function loopCount(delta) {
      get(L_TABLE);
      get(L_V);
      i32(1);
      c.byte(W.I32_SHL, W.I32_ADD);
      c.byte(W.LOAD16_S, 1).u32(delta * 512);
      c.byte(W.LOCAL_TEE).u32(L_K);
      i32(0);
      c.byte(W.I32_LT_S);
      trapIf();
    }

    // lim = limit; p = olen = ip = 0; count = 0 (locals start at 0)
    get(L_LIMIT);
    c.byte(W.I64_EXTEND_I32_U);
    set(L_LIM);
    for (var pc = 0; pc < n; pc++) {
      var row = pc * F.N, op = ops[row], a = ops[row + F.A], cost = ops[row + F.COST];
      var t0 = 2 * ops[row + F.T0], t1 = t0 + 2 * ops[row + F.JMP], t;
      if (op === O.ADD) {
        pending += cost;
        get(L_P);
        loadCell();
        i32(a);
        c.byte(W.I32_ADD, W.STORE8, 0).u32(0);
      } else if (op === O.MOVE) {
        pending += cost;
        get(L_P);
        i32(a);
        c.byte(W.I32_ADD, W.LOCAL_TEE).u32(L_P);
        get(L_SIZE);
        c.byte(W.I32_GE_U);
        trapIf();
      } else if (op === O.BLOCK) {
        pending += cost;
        if (ops[row + F.LO] < 0) checkCell(ops[row + F.LO]);
        if (ops[row + F.HI] > 0) checkCell(ops[row + F.HI]);
        for (t = t0; t < t1; t += 2) addAt(targets[t], targets[t + 1], false);
        if (a) {
          get(L_P);
          i32(a);
          c.byte(W.I32_ADD);
          set(L_P);
        }
      } else if (op === O.CLEAR) {
        pending += 1;
        loadCell();
        set(L_V);
        loopCount(a);
        get(L_P);
        i32(0);
        c.byte(W.STORE8, 0).u32(0);
        addTimes(L_K, cost);
      } else if (op === O.MUL) {
        pending += 1;
        loadCell();
        c.byte(W.LOCAL_TEE).u32(L_V);
        c.byte(W.IF, W.VOID);
        loopCount(a);
        if (ops[row + F.LO] < 0) checkCell(ops[row + F.LO]);
        if (ops[row + F.HI] > 0) checkCell(ops[row + F.HI]);
        for (t = t0; t < t1; t += 2) addAt(targets[t], targets[t + 1], true);
        get(L_P);
        i32(0);
        c.byte(W.STORE8, 0).u32(0);
        addTimes(L_K, cost);
        c.byte(W.END);
      } else if (op === O.SCAN) {
        pending += 1;
        get(L_P);
        set(L_Q);
        i32(0);
        set(L_STEPS);
        c.byte(W.BLOCK, W.VOID, W.LOOP, W.VOID);
        get(L_Q);
        c.byte(W.LOAD8_U, 0).u32(0);
        c.byte(W.I32_EQZ, W.BR_IF).u32(1);
        get(L_Q);
        i32(a);
        c.byte(W.I32_ADD, W.LOCAL_TEE).u32(L_Q);
        get(L_SIZE);
        c.byte(W.I32_GE_U);
        trapIf();
        get(L_STEPS);
        i32(1);
        c.byte(W.I32_ADD);
        set(L_STEPS);
        c.byte(W.BR).u32(0);
        c.byte(W.END, W.END);
        get(L_Q);
        set(L_P);
        addTimes(L_STEPS, cost);
      } else if (op === O.OUT) {
        pending += 1;
        get(L_OLEN);
        get(L_MAXOUT);
        c.byte(W.I32_GE_U);
        trapIf();
        get(L_OUT);
        get(L_OLEN);
        c.byte(W.I32_ADD);
        loadCell();
        c.byte(W.STORE8, 0).u32(0);
        get(L_OLEN);
        i32(1);
        c.byte(W.I32_ADD);
        set(L_OLEN);
      } else if (op === O.IN) {
        pending += 1;
        get(L_P);
        get(L_IP);
        get(L_INLEN);
        c.byte(W.I32_LT_U, W.IF, W.T_I32);
        get(L_IN);
        get(L_IP);
        c.byte(W.I32_ADD, W.LOAD8_U, 0).u32(0);
        get(L_IP);
        i32(1);
        c.byte(W.I32_ADD);
        set(L_IP);
        c.byte(W.ELSE);
        i32(0);
        c.byte(W.END, W.STORE8, 0).u32(0);
      } else if (op === O.JZ) {
        // `[`: counted once per entry; enter when the cell is not 0, then loop
        pending += 1;
        flush();
        loadCell();
        c.byte(W.IF, W.VOID, W.LOOP, W.VOID);
      } else {
        // `]`: counted once per iteration; the back-edge checks the limit
        pending += 1;
        flush();
        checkLimit();
        loadCell();
        c.byte(W.BR_IF).u32(0);
        c.byte(W.END, W.END);
      }
    }
    flush();
    checkLimit();
    get(L_COUNT);
    c.byte(W.GLOBAL_SET).u32(0);
    get(L_OLEN);
    c.byte(W.END);

    var body = new Bytes();
    body.u32(2).u32(7).byte(W.T_I32).u32(2).byte(W.T_I64); // locals: 7 x i32, 2 x i64
    var out = new Bytes();
    out.u32(body.a.length + c.a.length);
    out.a = out.a.concat(body.a, c.a);
    return out;
  }

  /** The .wasm bytes of a compiled program (brainfuck.js compile() without a syntax error). */
  function moduleBytes(program) {
    var m = new Bytes();
    m.byte(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);
    var types = new Bytes();
    types.u32(2);
    types.byte(0x60).u32(7);
    for (var p = 0; p < 7; p++) types.byte(W.T_I32);
    types.u32(1).byte(W.T_I32);
    types.byte(0x60).u32(0).u32(1).byte(W.T_F64);
    m.section(1, types);
    var imports = new Bytes();
    imports.u32(1).name("env").name("memory").byte(0x02, 0x00).u32(1);
    m.section(2, imports);
    var funcs = new Bytes();
    funcs.u32(2).u32(0).u32(1);
    m.section(3, funcs);
    var globals = new Bytes();
    globals.u32(1).byte(W.T_I64, 0x01, W.I64_CONST, 0x00, W.END);
    m.section(6, globals);
    var exports = new Bytes();
    exports.u32(2).name("run").byte(0x00).u32(0).name("instructions").byte(0x00).u32(1);
    m.section(7, exports);
    var code = new Bytes();
    code.u32(2);
    code.a = code.a.concat(runBody(program).a);
    var counter = new Bytes();
    counter.u32(0).byte(W.GLOBAL_GET).u32(0).byte(W.F64_CONVERT_I64_S, W.END);
    code.vec(counter);
    m.section(10, code);
    return Uint8Array.from(m.a);
  }

  /** Compile an engine (its source text or brainfuck.js's program) to WebAssembly; null when it
   * cannot be (no WebAssembly here, or a syntax error, which the interpreter reports). */
  function compile(programOrSource) {
    var bf = BF();
    var program = typeof programOrSource === "string" ? bf.compile(programOrSource) : programOrSource;
    if (program.error !== null || !supported()) return null;
    var module = new WebAssembly.Module(moduleBytes(program));
    return { program: program, module: module };
  }

  function pages(bytes) {
    return Math.ceil(bytes / PAGE);
  }

  /** Run a compiled engine on `input` under `limits` (default the arena's); a trap re-runs the
   * move on the interpreter for the exact error and count. */
  function run(engine, input, limits) {
    var bf = BF();
    var maxInstructions = bf.limitValue(limits, "maxInstructions", bf.MAX_INSTRUCTIONS);
    var maxOutput = bf.limitValue(limits, "maxOutput", bf.MAX_OUTPUT);
    var tapeSize = bf.limitValue(limits, "tapeSize", bf.TAPE_SIZE);
    if (maxInstructions < 0 || maxOutput < 0 || tapeSize < 1) {
      throw new RangeError("limits must be non-negative and the tape at least one cell");
    }
    var interpreted = function () {
      var result = bf.run(engine.program, input, limits);
      result.engine = "js";
      return result;
    };
    if (maxInstructions > MAX_I32 || tapeSize > MAX_I32 / 2) return interpreted();
    var bytes = bf.toBytes(input);
    var table = pages(tapeSize) * PAGE;
    var out = table + 2 * PAGE;
    var inBase = out + pages(maxOutput) * PAGE;
    var needed = Math.max(1, pages(inBase + bytes.length));
    // One memory and instance per engine, kept between moves (a fresh wasm memory per move
    // costs a garbage collection now and then); the tape is cleared before each run.
    var kept = engine.kept;
    if (!kept || kept.table !== table || kept.pages < needed) {
      var memory = new WebAssembly.Memory({ initial: needed });
      new Int16Array(memory.buffer, table, 65536).set(bf.ITERATIONS);
      var instance = new WebAssembly.Instance(engine.module, { env: { memory: memory } });
      kept = engine.kept = { table: table, pages: needed, memory: memory, instance: instance };
    }
    var heap = new Uint8Array(kept.memory.buffer);
    heap.fill(0, 0, tapeSize);
    heap.set(bytes, inBase);
    var live = kept.instance;
    var length;
    try {
      length = live.exports.run(tapeSize, table, out, maxOutput, inBase, bytes.length, maxInstructions);
    } catch (trap) {
      if (!(trap instanceof WebAssembly.RuntimeError)) throw trap;
      return interpreted();
    }
    return {
      output: bf.bytesToString(heap.subarray(out, out + length), length),
      instructions: live.exports.instructions(),
      error: null,
      errorKind: null,
      engine: "wasm",
    };
  }

  var api = {
    supported: supported,
    compile: compile,
    run: run,
    moduleBytes: moduleBytes,
    workerSource: "(" + arcadeBfWasm.toString() + ")(self);",
  };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.ArcadeBfWasm = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
