#!/usr/bin/env bash
# The fuzz target for half a minute: arbitrary rows and k through every API, against the
# oracle. FUZZ_SECONDS sets the time (longer runs: see CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh

nightly
cargo_tool cargo-fuzz "$CARGO_FUZZ_VERSION"
cd fuzz
step cargo fmt --check
step cargo +"$NIGHTLY" fuzz build apis
step cargo +"$NIGHTLY" fuzz run apis -- -max_total_time="${FUZZ_SECONDS:-30}" -print_final_stats=1

step_summary .ci/platforms-fuzz.sh
