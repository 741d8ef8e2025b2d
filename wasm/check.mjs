#!/usr/bin/env node
// Calls the exported `topk_f32` of the wasm32-unknown-unknown module (wasm/export) on the
// contract's hand example, tie-heavy generated rows (with NaNs in some) for every k in
// 0..=n + 1, and a Qwen2-sized row; checks each answer against an oracle written here (a
// stable sort), errors included, and that a rejected call wrote nothing.
// Prints "N passed, N failed" and exits 1 on any failure.
// Usage: node wasm/check.mjs path/to/tinytopk_wasm_export.wasm
import { readFile } from "node:fs/promises";
import process from "node:process";

const [OK, NOT_RANKABLE, K_TOO_LARGE] = [0, 1, 2];
const SENTINEL = 0xdeadbeef;

const { instance } = await WebAssembly.instantiate(await readFile(process.argv[2]), {});
const { memory, topk_f32: topk, __heap_base: heapBase } = instance.exports;

/// Calls topk_f32 on the f32 bit patterns `bits` with k places full of sentinels; returns the
/// status code, the NaN position and the outputs as bits.
function call(bits, k) {
  const n = bits.length;
  const xAt = (heapBase.value + 7) & ~7;
  const idxAt = xAt + 4 * n;
  const valAt = idxAt + 4 * k;
  const nanAt = valAt + 4 * k;
  const need = nanAt + 4 - memory.buffer.byteLength;
  if (need > 0) memory.grow(Math.ceil(need / 65536));
  const words = new Uint32Array(memory.buffer);
  words.set(bits, xAt / 4);
  words.fill(SENTINEL, idxAt / 4, nanAt / 4 + 1);
  const status = topk(xAt, n, idxAt, valAt, k, nanAt);
  const out = new Uint32Array(memory.buffer);
  return {
    status,
    nanAt: out[nanAt / 4],
    idx: Array.from(out.subarray(idxAt / 4, idxAt / 4 + k)),
    val: Array.from(out.subarray(valAt / 4, valAt / 4 + k)),
  };
}

/// The definition: the first NaN (whatever k is), then k > n, are errors; else every position sorted by
/// descending value with a stable sort (equal values stay by ascending index), cut at k.
function oracle(bits, k) {
  const x = new Float32Array(new Uint32Array(bits).buffer);
  const nan = x.findIndex(Number.isNaN);
  if (nan >= 0) return { status: NOT_RANKABLE, nanAt: nan };
  if (k > x.length) return { status: K_TOO_LARGE };
  const order = [...x.keys()].sort((a, b) => (x[a] > x[b] ? -1 : x[a] < x[b] ? 1 : 0));
  const idx = order.slice(0, k);
  return { status: OK, idx, val: idx.map((i) => bits[i]) };
}

let passed = 0;
let failed = 0;
function check(bits, k, what) {
  const got = call(bits, k);
  const want = oracle(bits, k);
  const untouched = (a) => a.every((w) => w === SENTINEL);
  let ok = got.status === want.status;
  if (ok && want.status === OK) {
    ok = got.idx.join() === want.idx.join() && got.val.join() === want.val.join();
  } else if (ok) {
    ok = untouched(got.idx) && untouched(got.val);
    if (want.status === NOT_RANKABLE) ok &&= got.nanAt === want.nanAt;
  }
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAILED: ${what}, k = ${k}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

const f32Bits = (values) => Array.from(new Uint32Array(new Float32Array(values).buffer));

// The hand example, with its answer written out.
const hand = call(f32Bits([1, 3, 2, 3, -1]), 3);
if (hand.status === OK && hand.idx.join() === "1,3,2" && hand.val.join() === f32Bits([3, 3, 2]).join()) {
  passed++;
} else {
  failed++;
  console.log(`FAILED: the hand example gave ${JSON.stringify(hand)}`);
}

// Tie-heavy rows: a pool of 1 to 6 values with both zeros, both infinities, the extremes and
// subnormals; every seventh row gets NaNs of several bit patterns.
const POOL = [
  0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x40200000, 0x7f800000, 0xff800000,
  0x7f7fffff, 0xff7fffff, 0x00800000, 0x00000001, 0x80000001, 0x000116c2,
];
const NANS = [0x7fc00000, 0x7f800001, 0xffffffff, 0x7fabcdef];
let seed = 0x2545f491;
const below = (n) => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) % n;
};
const ROWS = 500;
for (let row = 0; row < ROWS; row++) {
  const n = below(65);
  const pool = Array.from({ length: 1 + (row % 6) }, () => POOL[below(POOL.length)]);
  const bits = Array.from({ length: n }, () => pool[below(pool.length)]);
  if (row % 7 === 3 && n > 0) {
    for (let i = 0; i <= below(3); i++) bits[below(n)] = NANS[below(NANS.length)];
  }
  for (let k = 0; k <= n + 1; k++) check(bits, k, `row ${row} (n = ${n})`);
}

// A Qwen2-sized row of logits (sums of uniforms, rounded to f32) for a sampler's k.
const qwen = f32Bits(Array.from({ length: 151936 }, () => (below(1000) + below(1000) - 1000) / 100));
for (const k of [1, 40, 1000]) check(qwen, k, "a 151,936-long row");

console.log(`wasm32-unknown-unknown topk_f32: ${ROWS} generated rows and a 151,936-long row`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
