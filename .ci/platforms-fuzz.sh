#!/usr/bin/env bash
# The fuzz target for a minute: arbitrary rows and k through every API, against the oracle.
# FUZZ_SECONDS sets the time.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/platforms-lib.sh

nightly rust-src
cargo_tool cargo-fuzz 0.13.2
cd fuzz
step cargo fmt --check
step cargo +nightly fuzz build apis
step cargo +nightly fuzz run apis -- -max_total_time="${FUZZ_SECONDS:-60}" -print_final_stats=1
