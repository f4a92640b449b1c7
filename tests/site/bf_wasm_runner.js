#!/usr/bin/env node
/*
 * Runs the site's Brainfuck-to-WebAssembly engine (evaluation/site/assets/bf-wasm.js) on cases, for
 * the differential tests in tests/site/test_bf_wasm.py: a long-lived process, one case per stdin
 * line, one result per stdout line. Case: {"source": str, "input": str (one character per byte),
 * "limits": {...}?} -> {output, instructions, error, errorKind, engine}, or {thrown, message} for
 * refused limits. Compiled engines are kept by source, as a page keeps its entry's.
 */
"use strict";

const path = require("path");
const readline = require("readline");

const assets = path.join(__dirname, "..", "..", "evaluation", "site", "assets");
require(path.join(assets, "brainfuck.js"));
const wasm = require(path.join(assets, "bf-wasm.js"));

const engines = new Map();

function runCase(item) {
  let engine = engines.get(item.source);
  if (engine === undefined) {
    engine = wasm.compile(item.source);
    if (engines.size > 64) engines.clear();
    engines.set(item.source, engine);
  }
  try {
    if (engine === null) {
      const result = globalThis.ArcadeBrainfuck.run(item.source, item.input || "", item.limits || undefined);
      result.engine = "js";
      return result;
    }
    return wasm.run(engine, item.input || "", item.limits || undefined);
  } catch (err) {
    return { thrown: err.name, message: err.message };
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  process.stdout.write(JSON.stringify(runCase(JSON.parse(line))) + "\n");
});
