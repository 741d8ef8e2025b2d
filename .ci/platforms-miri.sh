#!/usr/bin/env bash
# The crate's tests under Miri, on a 64-bit and on a 32-bit usize (fewer cases under Miri).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/platforms-lib.sh

nightly miri rust-src
step cargo +nightly miri setup
step cargo +nightly miri test
step cargo +nightly miri test --target i686-unknown-linux-gnu
