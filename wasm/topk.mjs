// A tiny wrapper over the wasm32-unknown-unknown module of wasm/export, for JavaScript: pass a
// Float32Array of logits and k, get the k best positions and values, best first. The wrapper
// places the row and the outputs in the module's memory (past `__heap_base`, which the module
// leaves free) and grows it when a row needs more; the caller never sees an address.
//
//   import { loadTopK } from "./topk.mjs";
//   const topK = await loadTopK(await (await fetch("tinytopk_wasm_export.wasm")).arrayBuffer());
//   const { ids, values } = topK(logits, 40); // Uint32Array, Float32Array
//
// Errors follow the crate's contract: a NaN is a TopKError naming its position, k > n a
// TopKError too; nothing is returned then. Works in browsers and in node (no imports).

const [OK, NOT_RANKABLE, K_TOO_LARGE] = [0, 1, 2];
const PAGE = 65536;

/** Why `topK` rejected a row: `kind` is "NotRankable" (with `index`), "KTooLarge" or "Other". */
export class TopKError extends Error {
  constructor(kind, message, index) {
    super(message);
    this.name = "TopKError";
    this.kind = kind;
    if (index !== undefined) this.index = index;
  }
}

/**
 * Instantiates the module from its bytes (an ArrayBuffer, a typed array, or a compiled
 * WebAssembly.Module) and returns `topK(logits, k)`.
 */
export async function loadTopK(bytes) {
  const source = bytes instanceof WebAssembly.Module ? bytes : await WebAssembly.compile(bytes);
  const instance = await WebAssembly.instantiate(source, {});
  const { memory, topk_f32: call, __heap_base: heapBase } = instance.exports;
  const base = (heapBase.value + 7) & ~7;

  /**
   * The k best of `logits` (a Float32Array, or anything Float32Array.from takes), best first:
   * `{ ids: Uint32Array, values: Float32Array }`, both of length k. Equal values come by
   * ascending position; -Infinity is an ordinary value.
   */
  return function topK(logits, k) {
    const x = logits instanceof Float32Array ? logits : Float32Array.from(logits);
    if (!Number.isInteger(k) || k < 0) throw new TypeError(`k must be a non-negative integer, not ${k}`);
    const n = x.length;
    const xAt = base;
    const idxAt = xAt + 4 * n;
    const valAt = idxAt + 4 * k;
    const nanAt = valAt + 4 * k;
    const need = nanAt + 4 - memory.buffer.byteLength;
    if (need > 0) memory.grow(Math.ceil(need / PAGE));
    // Views are made after any grow: growing detaches the old buffer.
    new Float32Array(memory.buffer, xAt, n).set(x);
    const status = call(xAt, n, idxAt, valAt, k, nanAt);
    if (status === OK) {
      return {
        ids: new Uint32Array(memory.buffer, idxAt, k).slice(),
        values: new Float32Array(memory.buffer, valAt, k).slice(),
      };
    }
    if (status === NOT_RANKABLE) {
      const index = new Uint32Array(memory.buffer, nanAt, 1)[0];
      throw new TopKError("NotRankable", `the value at index ${index} is NaN`, index);
    }
    if (status === K_TOO_LARGE) {
      throw new TopKError("KTooLarge", `k = ${k} is larger than the row (n = ${n})`);
    }
    throw new TopKError("Other", `the row was rejected (status ${status})`);
  };
}
