/*
 * Brainfuck engines off the main thread: a Web Worker runs each move (WebAssembly through
 * bf-wasm.js, the interpreter brainfuck.js where WebAssembly is absent or a run traps), so a move
 * that uses the full 100,000,000 instructions never freezes the page.
 *
 * The worker is built from a Blob of the three scripts' own text (each exposes `workerSource`),
 * never loaded by URL: a page opened from disk (file://) may not start a worker from a file, and a
 * Blob works there as over HTTP. Where no worker can start (no Worker, a Blob refused, a worker
 * that fails to load), moves run on the main thread with the interpreter, as before: slower, never
 * different (the same machine, counts and errors).
 *
 * Usage (needs brainfuck.js and bf-wasm.js loaded first):
 *   var engine = ArcadeBfWorker.engine(source, {limits, wasm: true});
 *   engine.run(input, function (result) {...});  // {output, instructions, error, errorKind,
 *                                               //  engine: "wasm" | "js", elapsedMs, where}
 *   engine.run(input, callback, rounds);  // the move `rounds` times, elapsedMs their mean
 *   engine.cancel();     // drop the move being computed (a new game); the next run starts afresh
 *   engine.close();
 * `where` is "worker" or "main thread". `wasm: false` runs the interpreter in the worker (tests
 * and the speed comparison use it).
 */
(function arcadeBfWorker(root) {
  "use strict";

  var inWorker = typeof document === "undefined" && typeof root.postMessage === "function" &&
    typeof root.importScripts === "function";

  function now() {
    return typeof performance !== "undefined" ? performance.now() : Date.now();
  }

  /** One move on an engine as loaded: WebAssembly when compiled, else the interpreter. */
  function runMove(loaded, input) {
    var started = now();
    var result;
    if (loaded.wasm) {
      result = root.ArcadeBfWasm.run(loaded.wasm, input, loaded.limits);
    } else {
      result = root.ArcadeBrainfuck.run(loaded.program, input, loaded.limits);
      result.engine = "js";
    }
    result.elapsedMs = now() - started;
    return result;
  }

  function load(source, limits, wantWasm) {
    var program = root.ArcadeBrainfuck.compile(String(source));
    var loaded = { program: program, limits: limits || undefined, wasm: null, compileError: null };
    if (wantWasm && root.ArcadeBfWasm && root.ArcadeBfWasm.supported()) {
      try {
        loaded.wasm = root.ArcadeBfWasm.compile(program);
      } catch (error) {
        loaded.compileError = String(error && error.message ? error.message : error);
      }
    }
    return loaded;
  }

  /** The worker's side: `load` then `run` messages, one reply each. */
  function serve() {
    var loaded = null;
    root.onmessage = function (event) {
      var message = event.data;
      try {
        if (message.type === "load") {
          loaded = load(message.source, message.limits, message.wasm);
          root.postMessage({ id: message.id, loaded: true, wasm: loaded.wasm !== null,
            compileError: loaded.compileError });
        } else {
          var rounds = Math.max(1, message.rounds || 1), started = now(), result = null;
          for (var i = 0; i < rounds; i++) result = runMove(loaded, message.input);
          // timers are coarse in a browser (100 us): a timing averages over many rounds
          if (rounds > 1) result.elapsedMs = (now() - started) / rounds;
          root.postMessage({ id: message.id, result: result });
        }
      } catch (error) {
        root.postMessage({ id: message.id, thrown: String(error && error.name), message: String(error && error.message) });
      }
    };
  }

  if (inWorker) {
    serve();
    return;
  }

  var workerSource = "(" + arcadeBfWorker.toString() + ")(self);";

  function startWorker() {
    var BF = root.ArcadeBrainfuck, WASM = root.ArcadeBfWasm;
    if (typeof root.Worker !== "function" || typeof root.Blob !== "function" || !root.URL) return null;
    var text = [BF.workerSource, WASM ? WASM.workerSource : "", workerSource].join("\n");
    try {
      var url = root.URL.createObjectURL(new root.Blob([text], { type: "text/javascript" }));
      var worker = new root.Worker(url);
      root.URL.revokeObjectURL(url);
      return worker;
    } catch (error) {
      return null;
    }
  }

  /** An engine whose moves run in a worker (or, failing that, on the main thread). */
  function engine(source, options) {
    options = options || {};
    var limits = options.limits;
    var wantWasm = options.wasm !== false;
    var worker = null, broken = false, nextId = 1, waiting = {};
    var local = null; // the main-thread fallback, loaded on first use
    var info = { where: "worker", wasm: null, compileError: null };

    function onMainThread(input, callback) {
      info.where = "main thread";
      if (local === null) local = load(source, limits, false);
      // after a paint, as the synchronous interpreter always ran
      root.setTimeout(function () {
        var result = runMove(local, input);
        result.where = "main thread";
        callback(result);
      }, 20);
    }

    function fail() {
      // the worker could not start or died: what it was asked runs on the main thread
      broken = true;
      if (worker) worker.terminate();
      worker = null;
      var pending = waiting;
      waiting = {};
      Object.keys(pending).forEach(function (id) {
        if (pending[id].input !== undefined) onMainThread(pending[id].input, pending[id].callback);
      });
    }

    function ensure() {
      if (worker || broken) return worker;
      worker = startWorker();
      if (!worker) {
        broken = true;
        return null;
      }
      worker.onmessage = function (event) {
        var reply = event.data, request = waiting[reply.id];
        if (!request) return;
        delete waiting[reply.id];
        if (reply.loaded) {
          info.wasm = reply.wasm;
          info.compileError = reply.compileError;
          return;
        }
        if (reply.thrown) {
          request.callback({ output: "", instructions: 0, error: reply.thrown + ": " + reply.message,
            errorKind: "thrown", engine: null, where: "worker" });
          return;
        }
        reply.result.where = "worker";
        request.callback(reply.result);
      };
      worker.onerror = function (event) {
        if (event && event.preventDefault) event.preventDefault();
        fail();
      };
      var id = nextId++;
      waiting[id] = { callback: function () {} };
      worker.postMessage({ type: "load", id: id, source: String(source), limits: limits, wasm: wantWasm });
      return worker;
    }

    return {
      run: function (input, callback, rounds) {
        var live = ensure();
        if (!live) {
          onMainThread(input, callback);
          return;
        }
        var id = nextId++;
        waiting[id] = { input: input, callback: callback };
        live.postMessage({ type: "run", id: id, input: input, rounds: rounds || 1 });
      },
      cancel: function () {
        if (worker && Object.keys(waiting).length) {
          worker.terminate();
          worker = null;
          waiting = {};
        }
      },
      close: function () {
        if (worker) worker.terminate();
        worker = null;
        waiting = {};
      },
      info: info,
    };
  }

  var api = { engine: engine, workerSource: workerSource };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.ArcadeBfWorker = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
