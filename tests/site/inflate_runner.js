/* Reads JSON lines {data: base64 DEFLATE, limit?} on stdin and answers each with
 * {data: base64 of the unpacked bytes} or {error: message}, through assets/inflate.js
 * (tests/site/test_inflate_js.py). */
"use strict";
const path = require("path");
const readline = require("readline");
const I = require(path.join(__dirname, "..", "..", "evaluation", "site", "assets", "inflate.js"));

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const ask = JSON.parse(line);
  let answer;
  try {
    const out = I.inflate(I.base64(ask.data), ask.limit);
    answer = { data: Buffer.from(out).toString("base64") };
  } catch (error) {
    answer = { error: String(error.message) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
