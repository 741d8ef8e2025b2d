#!/usr/bin/env bash
# The crate's tests under Miri, on a 64-bit and on a 32-bit usize (fewer cases under Miri).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/platforms-lib.sh

nightly miri rust-src
step cargo +nightly miri setup
step cargo +nightly miri test
# The explicit AVX2 block test (src/dispatch.rs), which Miri runs only when the build enables
# AVX2: its unsafe code checked against the portable test and the naive order.
step env RUSTFLAGS="-C target-feature=+avx2" cargo +nightly miri test --no-default-features --lib \
    --target-dir target/miri-avx2 dispatch
# criterion (a dev-dependency) builds a little C for the target: 32-bit headers for i686.
if ! dpkg -s gcc-multilib >/dev/null 2>&1; then
    step apt-get update -qq
    DEBIAN_FRONTEND=noninteractive step apt-get install -y -qq gcc-multilib
fi
step cargo +nightly miri test --target i686-unknown-linux-gnu
