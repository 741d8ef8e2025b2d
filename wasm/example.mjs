#!/usr/bin/env node
// What a web user writes, run under node: the wrapper (wasm/topk.mjs) on a Float32Array of
// logits, with no address in sight. Checks the answers and exits 1 on a wrong one.
// Usage: node wasm/example.mjs path/to/tinytopk_wasm_export.wasm
import { readFile } from "node:fs/promises";
import process from "node:process";
import { loadTopK, TopKError } from "./topk.mjs";

const topK = await loadTopK(await readFile(process.argv[2]));
let failed = 0;
const expect = (ok, what) => {
  console.log(`${ok ? "ok" : "FAILED"}: ${what}`);
  if (!ok) failed++;
};

// The contract's example: ties go to the lower index, -Infinity is an ordinary value.
const logits = new Float32Array([0.5, 2.0, -Infinity, 2.0, -1.0, 0.7]);
const { ids, values } = topK(logits, 3);
expect(ids.join() === "1,3,5" && values.join() === [2, 2, Math.fround(0.7)].join(), `top 3 = ${ids}`);
expect(topK(logits, 6).ids.join() === "1,3,5,0,4,2", "k = n sorts the row, -Infinity last");
expect(topK(logits, 0).ids.length === 0, "k = 0");

// NaN is an error naming its position; k > n is an error.
const rejected = (f) => {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof TopKError ? e : null;
  }
};
const nan = rejected(() => topK(new Float32Array([1, NaN, 3]), 2));
expect(nan?.kind === "NotRankable" && nan.index === 1, "NaN at index 1 is rejected");
expect(rejected(() => topK(logits, 7))?.kind === "KTooLarge", "k > n is rejected");

// A vocabulary-sized row, and one of 4 MB, past the module's first memory: the wrapper grows it.
for (const n of [151936, 1 << 20]) {
  const row = new Float32Array(n).map((_, i) => Math.sin(i * 12.9898) * 10);
  const best = topK(row, 40);
  const order = Array.from(row.keys()).sort((a, b) => row[b] - row[a] || a - b).slice(0, 40);
  expect(best.ids.join() === order.join(), `top 40 of a ${n}-long row, as a sort gives`);
}

console.log(failed === 0 ? "wasm example: all passed" : `wasm example: ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
