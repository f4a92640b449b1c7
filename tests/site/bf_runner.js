#!/usr/bin/env node
/*
 * Runs the site's JavaScript Brainfuck interpreter and tic-tac-toe referee on a batch of cases,
 * for the differential tests in tests/site/test_brainfuck_js.py (one node process per batch).
 *
 * stdin: JSON {"cases": [case, ...]}; stdout: JSON [result, ...] in the same order. With --lines,
 * a long-lived process instead: one case per stdin line, one result per stdout line. Cases:
 *   {"kind": "bf", "source": str, "input": str (one character per byte), "limits": {...}?}
 *       -> {output, instructions, error, errorKind}, or {thrown, message} for refused limits
 *   {"kind": "reply", "question": {size, k, toMove, rows}, "reply": {output, error, instructions} | str}
 *       -> {move, reason, legal, instructions}
 *   {"kind": "game", "size": int, "cells": [int, ...]}
 *       -> [{text, outcome} | {error}, ...]: the stdin text before each move and the move's outcome
 */
"use strict";

const path = require("path");
const fs = require("fs");

const root = path.join(__dirname, "..", "..", "evaluation");
const bf = require(path.join(root, "site", "assets", "brainfuck.js"));
const rules = require(path.join(root, "benchmarks", "ttt_arena", "assets", "tictactoe-rules.js"));

function runGame(size, cells) {
  const game = new rules.Game(size);
  const steps = [];
  for (const cell of cells) {
    const text = rules.questionText(game.question());
    try {
      steps.push({ text, outcome: game.play(cell) });
    } catch (err) {
      steps.push({ text, error: err.message });
      break;
    }
  }
  return steps;
}

function runCase(item) {
  if (item.kind === "bf") {
    try {
      return bf.run(item.source, item.input || "", item.limits || undefined);
    } catch (err) {
      return { thrown: err.name, message: err.message };
    }
  }
  if (item.kind === "reply") return rules.checkReply(item.question, item.reply);
  if (item.kind === "game") return runGame(item.size, item.cells);
  throw new Error("unknown case kind: " + item.kind);
}

if (process.argv.includes("--lines")) {
  const lines = require("readline").createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (line.trim()) process.stdout.write(JSON.stringify(runCase(JSON.parse(line))) + "\n");
  });
} else {
  const request = JSON.parse(fs.readFileSync(0, "latin1"));
  process.stdout.write(JSON.stringify(request.cases.map(runCase)));
}
