#!/usr/bin/env node
// Cargo's runner for wasm32-wasip1: runs a WASI program (a test binary) under node's built-in
// WASI, with the arguments, the environment and the current directory, and exits with its
// exit code. Usage: node scripts/wasi-run.mjs program.wasm [args...]
import { readFile } from "node:fs/promises";
import process from "node:process";
import { WASI } from "node:wasi";

const [program, ...args] = process.argv.slice(2);
const wasi = new WASI({
  version: "preview1",
  args: [program, ...args],
  env: process.env,
  // The current directory, and "/" so that absolute paths (env!("CARGO_MANIFEST_DIR")) resolve.
  preopens: { ".": ".", "/": "/" },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
