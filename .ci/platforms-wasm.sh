#!/usr/bin/env bash
# The test suite as wasm32-wasip1 under node's WASI (the runner is in .cargo/config.toml),
# and an exported top_k_into in a wasm32-unknown-unknown module, checked from node, raw and
# through the JS wrapper a web user calls.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

step rustup target add wasm32-wasip1 wasm32-unknown-unknown
step node --version
# The crate itself: the C ABI member builds and runs a native C binary in its tests.
step cargo test -p tinytopk --target wasm32-wasip1

cd wasm/export
step cargo fmt --check
step cargo clippy --release --target wasm32-unknown-unknown -- -D warnings
step cargo build --release --target wasm32-unknown-unknown
cd ../..
step node wasm/check.mjs wasm/export/target/wasm32-unknown-unknown/release/tinytopk_wasm_export.wasm
# What a web user writes: a Float32Array through the JS wrapper (wasm/topk.mjs), no addresses.
step node wasm/example.mjs wasm/export/target/wasm32-unknown-unknown/release/tinytopk_wasm_export.wasm

step_summary .ci/platforms-wasm.sh
